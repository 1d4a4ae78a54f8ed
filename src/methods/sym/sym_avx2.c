/*
 * sym_avx2.c - the interior walk of the symmetry method (sym_walk.h) on
 * eight AVX2 lanes. Declared in sym_avx2.h; walks too shallow for its
 * queues go to the scalar kernel (sym_scalar.h).
 *
 * Why lanes: the scalar walk spends most of its time on mispredicted
 * branches (descend or back up, one more candidate or not). Here eight
 * states advance in lockstep and every decision is a mask.
 *
 * Why one level at a time: if the eight lanes may stand at different depths,
 * every step needs per-lane table lookups, per-lane shifts and scattered
 * stack traffic. Instead all eight lanes work on the same level d, so the
 * level's data (the allowed columns of the next row, the row distance that
 * the diagonals move by) are the same for every lane: broadcasts and
 * uniform shifts. The walk keeps one queue of states per level. Working on
 * level d, each lane holds a state and emits one child per step (its lowest
 * remaining candidate); the children that still have a free square are
 * packed together (a 256-entry permutation table turns the lane mask into a
 * vpermd index) and appended to the queue of level d + 1; a lane whose
 * state has no candidate left takes the next state from the queue of level
 * d, again through a permutation. The order in which states are expanded
 * does not change a count, so the queues are stacks, and the walk always
 * works on the deepest level that has states: level d stops when the queue
 * of d + 1 is nearly full, which bounds every queue (QCAP states) and keeps
 * them in the cache.
 *
 * The last two rows are never queued: a state of level L - 3 emits a child
 * of level L - 2, which has at most two candidates (two columns are left),
 * and each of them is a solution if the last row keeps a free square: both
 * are tested at once and counted in per-lane 32-bit counters, which are
 * flushed to 64 bits at each poll of the stop flag.
 *
 * Lanes without a state carry cols = ~0, so that they emit nothing.
 */
#include "sym_avx2.h"

#if NQ_X86

#include <immintrin.h>
#include <stdlib.h>

#include "sym_avx2_tables.h"
#include "sym_scalar.h"

/* States per level queue, plus slack for whole-vector stores and loads. */
#define QCAP 512
#define QSLACK 8
#define QSTRIDE (QCAP + 2 * QSLACK)
/* Steps between two polls of the stop flag (well under a millisecond). */
#define NQ_AVX2_POLL_STEPS 4096u

typedef struct level_queue {
    uint32_t *f, *c, *l, *r; /* remaining candidates, cols, ld, rd */
    uint32_t n;
} level_queue;

/* A row of pack or spread (sym_avx2_tables.h) as a vpermd index. */
NQ_INLINE_AVX2 __m256i perm_index(const uint8_t row[8])
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)row));
}

NQ_INLINE_AVX2 __m256i lane_mask(unsigned m)
{
    const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i v = _mm256_and_si256(_mm256_set1_epi32((int)m), bits);
    return _mm256_cmpeq_epi32(v, bits);
}

NQ_INLINE_AVX2 unsigned zero_lanes(__m256i v)
{
    __m256i z = _mm256_cmpeq_epi32(v, _mm256_setzero_si256());
    return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(z));
}

typedef struct lanes {
    __m256i f, c, l, r;
} lanes;

NQ_INLINE_AVX2 __m256i lowest_bit(__m256i v)
{
    return _mm256_and_si256(v, _mm256_sub_epi32(_mm256_setzero_si256(), v));
}

/* Each lane places a queen on its lowest remaining candidate: returns the
 * child states, one row down (s = the row distance), whose candidates are
 * the allowed squares of that row that no queen attacks. */
NQ_INLINE_AVX2 lanes take_child(lanes *st, __m128i s, __m256i next_allowed)
{
    lanes ch;
    __m256i bit = lowest_bit(st->f);
    st->f = _mm256_xor_si256(st->f, bit);
    ch.c = _mm256_or_si256(st->c, bit);
    ch.l = _mm256_sll_epi32(_mm256_or_si256(st->l, bit), s);
    ch.r = _mm256_srl_epi32(_mm256_or_si256(st->r, bit), s);
    ch.f = _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(ch.c, ch.l), ch.r),
                               next_allowed);
    return ch;
}

/* All ones in the lanes where candidate b of the last-but-one row is not a
 * solution: b is 0, or it leaves the last row no free square. */
NQ_INLINE_AVX2 __m256i not_solution(const lanes *ch, __m256i b, __m128i s,
                                    __m256i last_allowed)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i attacked = _mm256_or_si256(
        _mm256_or_si256(ch->c, b),
        _mm256_or_si256(_mm256_sll_epi32(_mm256_or_si256(ch->l, b), s),
                        _mm256_srl_epi32(_mm256_or_si256(ch->r, b), s)));
    return _mm256_or_si256(
        _mm256_cmpeq_epi32(b, zero),
        _mm256_cmpeq_epi32(_mm256_andnot_si256(attacked, last_allowed), zero));
}

/* Adds the lane counters to *total and clears them. */
NQ_INLINE_AVX2 void flush_counts(__m256i *cnt, uint64_t *total)
{
    uint32_t c8[8];
    _mm256_storeu_si256((__m256i *)(void *)c8, *cnt);
    for (int i = 0; i < 8; i++)
        *total += c8[i];
    *cnt = _mm256_setzero_si256();
}

/* Lanes with no candidate left take states from the end of q; those that
 * find none are emptied (cols = ~0). Returns the mask of empty lanes. */
NQ_INLINE_AVX2 unsigned refill(lanes *s, level_queue *q)
{
    unsigned em = zero_lanes(s->f);
    if (!em)
        return 0;
    unsigned want = (unsigned)__builtin_popcount(em);
    unsigned take = want < q->n ? want : q->n;
    unsigned fill = (unsigned)_pdep_u32((1u << take) - 1u, em);
    unsigned from = q->n - take;
    __m256i idx = perm_index(nq_avx2_spread[em]);
    __m256i fm = lane_mask(fill);
    __m256i nf = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(q->f + from)), idx);
    __m256i nc = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(q->c + from)), idx);
    __m256i nl = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(q->l + from)), idx);
    __m256i nr = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(q->r + from)), idx);
    q->n = from;
    s->f = _mm256_blendv_epi8(s->f, nf, fm);
    s->c = _mm256_blendv_epi8(s->c, nc, fm);
    s->l = _mm256_blendv_epi8(s->l, nl, fm);
    s->r = _mm256_blendv_epi8(s->r, nr, fm);
    if (fill != em) /* the queue ran dry: these lanes emit nothing */
        s->c = _mm256_or_si256(s->c, lane_mask(em & ~fill));
    return em & ~fill;
}

/* Appends the lanes set in m to q, packed. */
NQ_INLINE_AVX2 void push_lanes(const lanes *s, unsigned m, level_queue *q)
{
    __m256i idx = perm_index(nq_avx2_pack[m]);
    _mm256_storeu_si256((__m256i *)(q->f + q->n), _mm256_permutevar8x32_epi32(s->f, idx));
    _mm256_storeu_si256((__m256i *)(q->c + q->n), _mm256_permutevar8x32_epi32(s->c, idx));
    _mm256_storeu_si256((__m256i *)(q->l + q->n), _mm256_permutevar8x32_epi32(s->l, idx));
    _mm256_storeu_si256((__m256i *)(q->r + q->n), _mm256_permutevar8x32_epi32(s->r, idx));
    q->n += (uint32_t)__builtin_popcount(m);
}

NQ_FN_AVX2
int nq_sym_count_avx2(const nq_sym_board *bd, const nq_sym_node *start,
                      const nq_stop_flag *stop, uint64_t *count)
{
    const unsigned L = bd->levels, d0 = start->level;
    level_queue q[NQ_SYM_MAX_LEVELS];
    uint32_t *mem;
    uint64_t total = 0;
    unsigned poll = NQ_AVX2_POLL_STEPS;
    int rc = NQ_OK;

    /* too shallow for the queues: the scalar kernel does it */
    if (d0 + 3 > L)
        return nq_sym_count_scalar(bd, start, stop, count);

    mem = malloc(sizeof *mem * 4u * QSTRIDE * (L - 2 - d0));
    if (!mem)
        return NQ_ENOMEM;
    for (unsigned d = d0; d + 2 < L; d++) {
        uint32_t *base = mem + (size_t)4 * QSTRIDE * (d - d0);
        q[d].f = base + QSLACK;
        q[d].c = base + QSTRIDE + QSLACK;
        q[d].l = base + 2 * QSTRIDE + QSLACK;
        q[d].r = base + 3 * QSTRIDE + QSLACK;
        q[d].n = 0;
    }
    /* Whole-vector loads may read up to seven entries past a queue's
     * states; every entry a queue has held was written, but the start
     * level's first eight never were: clear them. */
    for (unsigned k = 0; k < 8; k++)
        q[d0].f[k] = q[d0].c[k] = q[d0].l[k] = q[d0].r[k] = 0;
    q[d0].f[0] = bd->allowed[d0] & ~(start->cols | start->ld | start->rd);
    q[d0].c[0] = start->cols;
    q[d0].l[0] = start->ld;
    q[d0].r[0] = start->rd;
    q[d0].n = q[d0].f[0] != 0;

    const __m256i zero = _mm256_setzero_si256();
    const __m256i ones = _mm256_set1_epi32(-1);
    __m256i cnt = zero;
    for (;;) {
        /* the deepest level with states */
        unsigned d = L - 3;
        while (q[d].n == 0 && d > d0)
            d--;
        if (q[d].n == 0)
            break;

        const __m128i s = _mm_cvtsi32_si128((int)bd->shift[d]);
        const __m256i next_allowed = _mm256_set1_epi32((int)bd->allowed[d + 1]);
        lanes st = {zero, ones, zero, zero};
        unsigned idle = refill(&st, &q[d]);

        if (d + 3 == L) {
            /* children are of level L - 2: count their completions */
            const __m128i s2 = _mm_cvtsi32_si128((int)bd->shift[d + 1]);
            const __m256i last_allowed = _mm256_set1_epi32((int)bd->allowed[d + 2]);
            while (idle != 0xffu) {
                lanes ch = take_child(&st, s, next_allowed);
                __m256i b1 = lowest_bit(ch.f);
                __m256i b2 = _mm256_xor_si256(ch.f, b1);
                /* count +1 per candidate that is a solution */
                cnt = _mm256_sub_epi32(cnt, _mm256_andnot_si256(
                    not_solution(&ch, b1, s2, last_allowed), ones));
                cnt = _mm256_sub_epi32(cnt, _mm256_andnot_si256(
                    not_solution(&ch, b2, s2, last_allowed), ones));
                idle = refill(&st, &q[d]);
                if (--poll == 0) {
                    poll = NQ_AVX2_POLL_STEPS;
                    flush_counts(&cnt, &total);
                    if (nq_stopped(stop)) {
                        rc = NQ_ECANCELED;
                        goto out;
                    }
                }
            }
            continue;
        }

        level_queue *out_q = &q[d + 1];
        while (idle != 0xffu) {
            lanes ch = take_child(&st, s, next_allowed);
            /* children with a free square join the next level's queue */
            unsigned m = ~zero_lanes(ch.f) & 0xffu;
            push_lanes(&ch, m, out_q);
            idle = refill(&st, &q[d]);
            if (out_q->n > QCAP - 8) {
                /* go deeper first: put back what is left */
                push_lanes(&st, ~zero_lanes(st.f) & 0xffu, &q[d]);
                break;
            }
            if (--poll == 0) {
                poll = NQ_AVX2_POLL_STEPS;
                if (nq_stopped(stop)) {
                    rc = NQ_ECANCELED;
                    goto out;
                }
            }
        }
    }
    flush_counts(&cnt, &total);
    *count += total;
out:
    free(mem);
    return rc;
}

#else
typedef int nq_sym_avx2_unused;
#endif
