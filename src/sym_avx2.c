/*
 * sym_avx2.c - the interior walk of sym.c on eight AVX2 lanes.
 *
 * Why lanes: the scalar walk spends most of its time on mispredicted
 * branches (descend or back up, one more candidate or not), which no
 * amount of tightening removes. Here eight independent walks advance in
 * lockstep, one step each per iteration, and every decision is a blend, so
 * the loop has no data-dependent branch except "a lane ran dry".
 *
 * Work: a scalar generator (a small walk of its own) expands the unit's
 * first rows and yields the nodes of level `base`; each lane walks the
 * subtree of one such node and takes the next when it is done. Levels of a
 * lane are counted from base (j = level - base).
 *
 * One step of one lane at level j, remaining candidates R:
 *   - j is the last-but-one level: count the completions of both (at most
 *     two: two columns are left) candidates in R at once and back up;
 *   - R empty: back up (reload the parent's state from the lane's stack);
 *   - otherwise: take the lowest candidate, save the parent state, descend.
 * The per-level data (allowed columns of the next level and the row
 * distance to it) come from a 16-entry table through two vpermd, indexed by
 * each lane's own j; the distance drives per-lane shifts (vpsllvd/vpsrlvd).
 *
 * The lane stacks hold a 16-byte record {R, cols, ld, rd} per lane and
 * level. Every step stores the current record of each lane (only the
 * descending lanes need it; for the others it lands in a slot that is dead)
 * and loads the parent record (only the lanes backing up use it), so that
 * the eight scattered stores and loads are unconditional; a 4x4 transpose
 * per half turns four state vectors into eight records and back.
 *
 * Counts are kept per lane in 32 bits and flushed to 64 bits at each poll
 * of the stop flag, long before they could wrap.
 */
#include "sym.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <string.h>

#define NQ_AVX2_TARGET __attribute__((target("avx2,bmi2")))
#define NQ_AVX2_INLINE static inline __attribute__((always_inline, target("avx2,bmi2")))

/* Lane levels handled by the vector loop (table size); deeper units leave
 * their first levels to the generator. */
#define NQ_AVX2_MAX_LANE_LEVELS 16
/* Levels the generator expands at least, so that a unit has enough lane
 * subtrees to keep the eight lanes busy until near its end. */
#define NQ_AVX2_MIN_BASE 3
/* Record slots per lane: levels -1 .. NQ_AVX2_MAX_LANE_LEVELS. */
#define NQ_AVX2_SLOTS (NQ_AVX2_MAX_LANE_LEVELS + 2)
/* Vector steps between two polls of the stop flag (a few hundred us). */
#define NQ_AVX2_POLL_STEPS 4096u

/* ------------------------------------------------------------------------
 * The generator: a resumable scalar walk from the unit's start level down
 * to `base`, yielding the base-level nodes that have a candidate.
 * ------------------------------------------------------------------------ */

typedef struct nq_avx2_gen {
    const nq_sym_board *bd;
    unsigned first, base, d;
    uint32_t f[NQ_SYM_MAX_LEVELS], c[NQ_SYM_MAX_LEVELS];
    uint32_t l[NQ_SYM_MAX_LEVELS], r[NQ_SYM_MAX_LEVELS];
} nq_avx2_gen;

static void nq_avx2_gen_init(nq_avx2_gen *g, const nq_sym_board *bd,
                             const nq_sym_node *start, unsigned base)
{
    unsigned d = start->level;
    g->bd = bd;
    g->first = d;
    g->base = base;
    g->d = d;
    g->c[d] = start->cols;
    g->l[d] = start->ld;
    g->r[d] = start->rd;
    g->f[d] = bd->allowed[d] & ~(start->cols | start->ld | start->rd);
}

/* @return 1 and the node's masks and candidates, or 0 when exhausted. */
static int nq_avx2_gen_next(nq_avx2_gen *g, uint32_t out[4])
{
    const nq_sym_board *bd = g->bd;
    unsigned d = g->d;
    for (;;) {
        uint32_t f = g->f[d];
        if (!f) {
            if (d == g->first) {
                g->d = d;
                return 0;
            }
            d--;
            continue;
        }
        uint32_t bit = f & (0u - f);
        unsigned s = bd->shift[d];
        g->f[d] = f ^ bit;
        uint32_t cols = g->c[d] | bit;
        uint32_t ld = (g->l[d] | bit) << s;
        uint32_t rd = (g->r[d] | bit) >> s;
        uint32_t next = bd->allowed[d + 1] & ~(cols | ld | rd);
        if (d + 1 == g->base) {
            if (!next)
                continue;
            g->d = d;
            out[0] = next;
            out[1] = cols;
            out[2] = ld;
            out[3] = rd;
            return 1;
        }
        d++;
        g->c[d] = cols;
        g->l[d] = ld;
        g->r[d] = rd;
        g->f[d] = next;
    }
}

/* ------------------------------------------------------------------------
 * The vector loop
 * ------------------------------------------------------------------------ */

typedef struct nq_avx2_lanes {
    __m256i r, c, l, d, j, cnt;
} nq_avx2_lanes;

/* Lane records: lane-major so that a lane's slots are contiguous. Slot
 * j + 1 holds the record to restore when level j backs up. */
typedef struct nq_avx2_stack {
    uint32_t rec[8][NQ_AVX2_SLOTS][4];
} nq_avx2_stack;

NQ_AVX2_INLINE uint64_t nq_avx2_hsum(__m256i v)
{
    uint32_t t[8];
    uint64_t s = 0;
    _mm256_storeu_si256((__m256i *)(void *)t, v);
    for (int i = 0; i < 8; i++)
        s += t[i];
    return s;
}

/* One lockstep step of all lanes. `wide`: the table has more than eight
 * entries (a compile-time constant in each caller). */
NQ_AVX2_INLINE void nq_avx2_step(nq_avx2_lanes *s, nq_avx2_stack *stk,
                                 __m256i tab_lo, __m256i tab_hi, __m256i leaf,
                                 __m256i live, __m256i lane_off, int wide)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i low28 = _mm256_set1_epi32(0x0fffffff);
    __m256i r = s->r, c = s->c, l = s->l, d = s->d, j = s->j;

    /* Per-lane table entry: allowed columns of the next level, and the row
     * distance to it in bits 28-29. */
    __m256i t = _mm256_permutevar8x32_epi32(tab_lo, j);
    if (wide) {
        __m256i th = _mm256_permutevar8x32_epi32(tab_hi, j);
        t = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(t),
                                                 _mm256_castsi256_ps(th),
                                                 _mm256_castsi256_ps(_mm256_slli_epi32(j, 28))));
    }
    __m256i sh = _mm256_srli_epi32(t, 28);
    __m256i al = _mm256_and_si256(t, low28);

    __m256i empty = _mm256_cmpeq_epi32(r, zero);
    __m256i bit = _mm256_and_si256(r, _mm256_sub_epi32(zero, r));
    __m256i rest = _mm256_andnot_si256(bit, r);

    /* Descend with the lowest candidate. */
    __m256i nc = _mm256_or_si256(c, bit);
    __m256i nl = _mm256_sllv_epi32(_mm256_or_si256(l, bit), sh);
    __m256i nd = _mm256_srlv_epi32(_mm256_or_si256(d, bit), sh);
    __m256i nr = _mm256_andnot_si256(_mm256_or_si256(nc, _mm256_or_si256(nl, nd)), al);

    /* At the last-but-one level: both candidates are tested against the
     * last row; `rest` is the second candidate or nothing. */
    __m256i leafy = _mm256_cmpeq_epi32(j, leaf);
    __m256i c2 = _mm256_or_si256(c, rest);
    __m256i l2 = _mm256_sllv_epi32(_mm256_or_si256(l, rest), sh);
    __m256i d2 = _mm256_srlv_epi32(_mm256_or_si256(d, rest), sh);
    __m256i nr2 = _mm256_andnot_si256(_mm256_or_si256(c2, _mm256_or_si256(l2, d2)), al);
    __m256i ok1 = _mm256_andnot_si256(_mm256_or_si256(empty, _mm256_cmpeq_epi32(nr, zero)), leafy);
    __m256i ok2 = _mm256_andnot_si256(_mm256_or_si256(_mm256_cmpeq_epi32(rest, zero),
                                                      _mm256_cmpeq_epi32(nr2, zero)), leafy);
    s->cnt = _mm256_sub_epi32(_mm256_sub_epi32(s->cnt, ok1), ok2);

    __m256i up = _mm256_or_si256(empty, leafy);

    /* Record addresses: slot j + 1 is written, slot j is read. */
    uint32_t off[8];
    _mm256_storeu_si256((__m256i *)(void *)off,
                        _mm256_add_epi32(lane_off, _mm256_slli_epi32(j, 4)));
    unsigned char *base = (unsigned char *)stk->rec + 16;

    /* Save {rest, cols, ld, rd}: transpose to one 128-bit record per lane. */
    __m256i t0 = _mm256_unpacklo_epi32(rest, c);
    __m256i t1 = _mm256_unpackhi_epi32(rest, c);
    __m256i t2 = _mm256_unpacklo_epi32(l, d);
    __m256i t3 = _mm256_unpackhi_epi32(l, d);
    __m256i u0 = _mm256_unpacklo_epi64(t0, t2); /* lanes 0 | 4 */
    __m256i u1 = _mm256_unpackhi_epi64(t0, t2); /* lanes 1 | 5 */
    __m256i u2 = _mm256_unpacklo_epi64(t1, t3); /* lanes 2 | 6 */
    __m256i u3 = _mm256_unpackhi_epi64(t1, t3); /* lanes 3 | 7 */
    _mm_storeu_si128((__m128i *)(void *)(base + off[0] + 16), _mm256_castsi256_si128(u0));
    _mm_storeu_si128((__m128i *)(void *)(base + off[1] + 16), _mm256_castsi256_si128(u1));
    _mm_storeu_si128((__m128i *)(void *)(base + off[2] + 16), _mm256_castsi256_si128(u2));
    _mm_storeu_si128((__m128i *)(void *)(base + off[3] + 16), _mm256_castsi256_si128(u3));
    _mm_storeu_si128((__m128i *)(void *)(base + off[4] + 16), _mm256_extracti128_si256(u0, 1));
    _mm_storeu_si128((__m128i *)(void *)(base + off[5] + 16), _mm256_extracti128_si256(u1, 1));
    _mm_storeu_si128((__m128i *)(void *)(base + off[6] + 16), _mm256_extracti128_si256(u2, 1));
    _mm_storeu_si128((__m128i *)(void *)(base + off[7] + 16), _mm256_extracti128_si256(u3, 1));

    /* Load the parent records and transpose back. */
    __m256i p0 = _mm256_loadu2_m128i((const __m128i *)(const void *)(base + off[4]),
                                     (const __m128i *)(const void *)(base + off[0]));
    __m256i p1 = _mm256_loadu2_m128i((const __m128i *)(const void *)(base + off[5]),
                                     (const __m128i *)(const void *)(base + off[1]));
    __m256i p2 = _mm256_loadu2_m128i((const __m128i *)(const void *)(base + off[6]),
                                     (const __m128i *)(const void *)(base + off[2]));
    __m256i p3 = _mm256_loadu2_m128i((const __m128i *)(const void *)(base + off[7]),
                                     (const __m128i *)(const void *)(base + off[3]));
    __m256i q0 = _mm256_unpacklo_epi32(p0, p1);
    __m256i q1 = _mm256_unpackhi_epi32(p0, p1);
    __m256i q2 = _mm256_unpacklo_epi32(p2, p3);
    __m256i q3 = _mm256_unpackhi_epi32(p2, p3);
    __m256i pr = _mm256_unpacklo_epi64(q0, q2);
    __m256i pc = _mm256_unpackhi_epi64(q0, q2);
    __m256i pl = _mm256_unpacklo_epi64(q1, q3);
    __m256i pd = _mm256_unpackhi_epi64(q1, q3);

    s->r = _mm256_blendv_epi8(nr, pr, up);
    s->c = _mm256_blendv_epi8(nc, pc, up);
    s->l = _mm256_blendv_epi8(nl, pl, up);
    s->d = _mm256_blendv_epi8(nd, pd, up);
    /* +1 down, -1 up; lanes out of work stay where they are. */
    __m256i dj = _mm256_add_epi32(one, _mm256_add_epi32(up, up));
    s->j = _mm256_add_epi32(j, _mm256_and_si256(dj, live));
}

NQ_AVX2_INLINE int nq_avx2_loop(const nq_sym_board *bd, nq_avx2_gen *gen,
                                unsigned base, const atomic_int *stop,
                                uint64_t *count, int wide)
{
    const unsigned lanes_levels = bd->levels - base;
    uint32_t tab[16] = { 0 };
    for (unsigned j = 0; j + 1 < lanes_levels; j++)
        tab[j] = bd->allowed[base + j + 1] | (bd->shift[base + j] << 28);
    const __m256i tab_lo = _mm256_loadu_si256((const __m256i *)(const void *)tab);
    const __m256i tab_hi = _mm256_loadu_si256((const __m256i *)(const void *)(tab + 8));
    const __m256i leaf = _mm256_set1_epi32((int)lanes_levels - 2);
    const __m256i lane_off = _mm256_setr_epi32(0, 1 * NQ_AVX2_SLOTS * 16, 2 * NQ_AVX2_SLOTS * 16,
                                               3 * NQ_AVX2_SLOTS * 16, 4 * NQ_AVX2_SLOTS * 16,
                                               5 * NQ_AVX2_SLOTS * 16, 6 * NQ_AVX2_SLOTS * 16,
                                               7 * NQ_AVX2_SLOTS * 16);
    nq_avx2_stack stk;
    nq_avx2_lanes s;
    uint32_t lr[8], lc[8], ll[8], ld[8], lj[8], lv[8];
    uint64_t total = 0;

    /* Lanes leaving their base node read slot 0, never written: clear the
     * stacks so that no lane ever computes on indeterminate bits. */
    memset(&stk, 0, sizeof stk);
    /* Start every lane dry at level -1, so that the refill below fills it. */
    for (int i = 0; i < 8; i++) {
        lr[i] = lc[i] = ll[i] = ld[i] = 0;
        lj[i] = UINT32_MAX;
        lv[i] = UINT32_MAX;
    }
    s.cnt = _mm256_setzero_si256();
    unsigned poll = NQ_AVX2_POLL_STEPS;
    for (;;) {
        /* Refill dry lanes (level -1) from the generator. A lane the
         * generator cannot feed parks at level 0 with no candidates: its
         * cleared `live` bits keep its level fixed, and its parent slot
         * holds R = 0, so it backs up into the same nothing forever. */
        unsigned nlive = 0;
        for (int i = 0; i < 8; i++) {
            if (lj[i] == UINT32_MAX) {
                uint32_t node[4];
                if (lv[i] && nq_avx2_gen_next(gen, node)) {
                    lr[i] = node[0];
                    lc[i] = node[1];
                    ll[i] = node[2];
                    ld[i] = node[3];
                } else {
                    lv[i] = 0;
                    lr[i] = 0;
                    stk.rec[i][1][0] = 0;
                }
                lj[i] = 0;
            }
            nlive += lv[i] != 0;
        }
        if (!nlive)
            break;
        s.r = _mm256_loadu_si256((const __m256i *)(const void *)lr);
        s.c = _mm256_loadu_si256((const __m256i *)(const void *)lc);
        s.l = _mm256_loadu_si256((const __m256i *)(const void *)ll);
        s.d = _mm256_loadu_si256((const __m256i *)(const void *)ld);
        s.j = _mm256_loadu_si256((const __m256i *)(const void *)lj);
        const __m256i live = _mm256_loadu_si256((const __m256i *)(const void *)lv);

        /* Run until some lane backs up past its base node. (Interleaving
         * two or three independent groups of lanes here was measured: no
         * gain, the loop is bound by throughput, not latency.) */
        for (;;) {
            nq_avx2_step(&s, &stk, tab_lo, tab_hi, leaf, live, lane_off, wide);
            if (--poll == 0) {
                poll = NQ_AVX2_POLL_STEPS;
                total += nq_avx2_hsum(s.cnt);
                s.cnt = _mm256_setzero_si256();
                if (stop && atomic_load_explicit(stop, memory_order_relaxed))
                    return NQ_ECANCELED;
            }
            if (_mm256_movemask_ps(_mm256_castsi256_ps(s.j)))
                break;
        }
        _mm256_storeu_si256((__m256i *)(void *)lr, s.r);
        _mm256_storeu_si256((__m256i *)(void *)lc, s.c);
        _mm256_storeu_si256((__m256i *)(void *)ll, s.l);
        _mm256_storeu_si256((__m256i *)(void *)ld, s.d);
        _mm256_storeu_si256((__m256i *)(void *)lj, s.j);
    }
    *count += total + nq_avx2_hsum(s.cnt);
    return NQ_OK;
}

NQ_AVX2_TARGET
int nq_sym_count_avx2(const nq_sym_board *bd, const nq_sym_node *start,
                      const atomic_int *stop, uint64_t *count)
{
    const unsigned levels = bd->levels;
    unsigned base = start->level + NQ_AVX2_MIN_BASE;
    if (levels > NQ_AVX2_MAX_LANE_LEVELS && base < levels - NQ_AVX2_MAX_LANE_LEVELS)
        base = levels - NQ_AVX2_MAX_LANE_LEVELS;
    /* Too shallow to be worth the lanes: the scalar walk gives the same count. */
    if (base + 2 > levels)
        return nq_sym_count_scalar(bd, start, stop, count);
    nq_avx2_gen gen;
    nq_avx2_gen_init(&gen, bd, start, base);
    if (levels - base - 1 <= 8)
        return nq_avx2_loop(bd, &gen, base, stop, count, 0);
    return nq_avx2_loop(bd, &gen, base, stop, count, 1);
}

#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int nq_sym_avx2_unused;
#endif
