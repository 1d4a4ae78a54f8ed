/*
 * sym_avx512.c - the interior walk of the symmetry method (sym_walk.h) on
 * AVX-512 lanes. Declared in sym_avx512.h; walks too shallow for its
 * queues go to the scalar kernel (sym_scalar.h).
 *
 * The shape is the AVX2 kernel's (sym_avx2.c): all lanes work on one level
 * at a time, so the level's data are broadcasts and its diagonal shift is
 * uniform; each level keeps a queue of states; a lane emits one child per
 * step (its lowest remaining candidate); children with a free square join
 * the next level's queue; lanes that run dry take states from their own
 * level's queue. The order in which states are expanded does not change a
 * count. What AVX-512 changes:
 *
 * - No tables. Children are packed by vpcompressd under the mask of those
 *   to keep, and the lanes to refill receive consecutive queue entries by
 *   vpexpandd under theirs. Both are register forms, followed by a plain
 *   store or preceded by a load: compress to memory is slow on some cores.
 *   Which lanes hold a state is a mask register, every decision is a
 *   compare into a mask, and vpternlogd merges three attack masks at once.
 *
 * - Latency, not work, bounds a step: a lane's next state waits on the
 *   compare that finds it empty and on the expand that refills it. So
 *   three groups of sixteen lanes advance side by side, and lanes take
 *   states from the front of the queue: when the queue holds enough for
 *   every lane, the refill mask is the compare's result itself, and only
 *   the queue position waits on a population count.
 *
 * - Queues hold cols, ld and rd only: a state's candidates are recomputed
 *   when a lane takes it. States are never put back half done: when the
 *   next level's queue is nearly full, that level is walked first, by a
 *   recursive call, while the lanes keep their states (the recursion is at
 *   most one call per level deep). Queues stay small (QCAP states), in
 *   the L1 and L2 caches.
 *
 * - The last two rows are never queued: a child of level L - 2 has at most
 *   two candidates, each a solution if the last row keeps a free square;
 *   both are tested at once into per-lane counters.
 */
#include "sym_avx512.h"

#if NQ_X86

#include <immintrin.h>
#include <stdlib.h>

#include "sym_scalar.h"

/* States per level queue, plus slack for whole-vector stores. */
#define QCAP 1024
#define QSTRIDE (QCAP + 64)
/* Groups of sixteen lanes worked side by side: each step's refill waits
 * on the step before it, and independent groups fill that wait (measured:
 * two groups 1.6x one, three 1.15x two, four no better than three). */
#define G 3
/* Steps between two polls of the stop flag (well under a millisecond). */
#define NQ_AVX512_POLL_STEPS 2048u

/* A level's queue: cols, ld, rd of its states, which are those in
 * [head, tail). A state's candidates are not stored: they follow from the
 * three masks and the level's allowed squares. */
typedef struct level_queue {
    uint32_t *c, *l, *r;
    unsigned head, tail;
} level_queue;

/* One walk: the board, the queues, the stop flag and its poll counter. */
typedef struct walk {
    const nq_sym_board *bd;
    level_queue q[NQ_SYM_MAX_LEVELS];
    const nq_stop_flag *stop;
    unsigned poll;
    uint64_t total;
} walk;

typedef struct lanes {
    __m512i f, c, l, r;
} lanes;

NQ_INLINE_AVX512 __m512i lowest_bit(__m512i v)
{
    return _mm512_and_si512(v, _mm512_sub_epi32(_mm512_setzero_si512(), v));
}

/* ~(a | b | c) & allowed, one vpternlogd and one vpandnd. */
NQ_INLINE_AVX512 __m512i free_of(__m512i allowed, __m512i a, __m512i b, __m512i c)
{
    return _mm512_andnot_si512(_mm512_ternarylogic_epi32(a, b, c, 0xfe), allowed);
}

/* Each lane places a queen on its lowest remaining candidate: returns the
 * child states, one row down (s = the row distance), whose candidates are
 * the allowed squares of that row that no queen attacks. */
NQ_INLINE_AVX512 lanes take_child(lanes *st, __m128i s, __m512i next_allowed)
{
    lanes ch;
    __m512i bit = lowest_bit(st->f);
    st->f = _mm512_xor_si512(st->f, bit);
    ch.c = _mm512_or_si512(st->c, bit);
    ch.l = _mm512_sll_epi32(_mm512_or_si512(st->l, bit), s);
    ch.r = _mm512_srl_epi32(_mm512_or_si512(st->r, bit), s);
    ch.f = free_of(next_allowed, ch.c, ch.l, ch.r);
    return ch;
}

/* Lanes of `busy` where candidate b (one bit or none) of the last-but-one
 * row is a solution: b is set and leaves the last row a free square. */
NQ_INLINE_AVX512 __mmask16 is_solution(__mmask16 busy, const lanes *ch, __m512i b,
                                       __m128i s, __m512i last_allowed)
{
    __m512i l = _mm512_sll_epi32(_mm512_or_si512(ch->l, b), s);
    __m512i r = _mm512_srl_epi32(_mm512_or_si512(ch->r, b), s);
    __m512i fr = free_of(last_allowed, _mm512_or_si512(ch->c, b), l, r);
    return _mm512_mask_test_epi32_mask(_mm512_mask_test_epi32_mask(busy, b, b), fr, fr);
}

/* The lanes in `got` receive the states at *head, in order (`valid`: the
 * entries that may be read). */
NQ_INLINE_AVX512 void take_states(lanes *s, __mmask16 got, __mmask16 valid,
                                  const level_queue *q, unsigned *head, __m512i allowed)
{
    unsigned h = *head;
    s->c = _mm512_mask_expand_epi32(s->c, got, _mm512_maskz_loadu_epi32(valid, q->c + h));
    s->l = _mm512_mask_expand_epi32(s->l, got, _mm512_maskz_loadu_epi32(valid, q->l + h));
    s->r = _mm512_mask_expand_epi32(s->r, got, _mm512_maskz_loadu_epi32(valid, q->r + h));
    s->f = _mm512_mask_andnot_epi32(s->f, got,
                                    _mm512_ternarylogic_epi32(s->c, s->l, s->r, 0xfe), allowed);
    *head = h + (unsigned)__builtin_popcount((unsigned)got);
}

/* Refills every group's empty lanes from the front of q. Returns whether
 * any lane holds a state. When q holds enough states for all, the lane
 * masks come straight from the compares, and only the queue position
 * waits on a population count: that keeps the refill off the longest
 * dependency chain. Taking from the front, not the end, is what allows it. */
NQ_INLINE_AVX512 int refill(lanes s[G], __mmask16 busy[G], const level_queue *q,
                            unsigned *head, __m512i allowed)
{
    __mmask16 want[G];
    for (int g = 0; g < G; g++)
        want[g] = _mm512_testn_epi32_mask(s[g].f, s[g].f);
    if (q->tail - *head >= 16u * G) {
        for (int g = 0; g < G; g++) {
            take_states(&s[g], want[g], 0xffff, q, head, allowed);
            busy[g] = 0xffff;
        }
        return 1;
    }
    __mmask16 any = 0;
    for (int g = 0; g < G; g++) {
        unsigned k = (unsigned)__builtin_popcount((unsigned)want[g]);
        unsigned left = q->tail - *head;
        unsigned take = k < left ? k : left;
        __mmask16 got = (__mmask16)_pdep_u32((1u << take) - 1u, want[g]);
        take_states(&s[g], got, (__mmask16)((1u << take) - 1u), q, head, allowed);
        busy[g] = (__mmask16)((busy[g] & ~want[g]) | got);
        any |= busy[g];
    }
    return any != 0;
}

/* Appends the lanes set in m to q, packed. */
NQ_INLINE_AVX512 void push_back(const lanes *s, __mmask16 m, level_queue *q)
{
    unsigned t = q->tail;
    _mm512_storeu_si512(q->c + t, _mm512_maskz_compress_epi32(m, s->c));
    _mm512_storeu_si512(q->l + t, _mm512_maskz_compress_epi32(m, s->l));
    _mm512_storeu_si512(q->r + t, _mm512_maskz_compress_epi32(m, s->r));
    q->tail = t + (unsigned)__builtin_popcount((unsigned)m);
}

/* Counts down to the next poll of the stop flag. @return whether it is raised. */
static int nq_avx512_stopped(walk *w)
{
    if (--w->poll)
        return 0;
    w->poll = NQ_AVX512_POLL_STEPS;
    return nq_stopped(w->stop);
}

/* Counts the completions of the states of level L - 3: each child (of
 * level L - 2) has at most two candidates, each tested against the last
 * row. */
NQ_FN_AVX512
static int finish_level(walk *w, unsigned d)
{
    const nq_sym_board *bd = w->bd;
    level_queue *in = &w->q[d];
    const __m128i s = _mm_cvtsi32_si128((int)bd->shift[d]);
    const __m128i s2 = _mm_cvtsi32_si128((int)bd->shift[d + 1]);
    const __m512i allowed = _mm512_set1_epi32((int)bd->allowed[d]);
    const __m512i next_allowed = _mm512_set1_epi32((int)bd->allowed[d + 1]);
    const __m512i last_allowed = _mm512_set1_epi32((int)bd->allowed[d + 2]);
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    unsigned head = in->head;
    __m512i cnt = zero;
    lanes st[G];
    __mmask16 busy[G];
    for (int g = 0; g < G; g++) {
        st[g].f = st[g].c = st[g].l = st[g].r = zero;
        busy[g] = 0;
    }
    int rc = NQ_OK;
    while (refill(st, busy, in, &head, allowed)) {
        if (nq_avx512_stopped(w)) {
            rc = NQ_ECANCELED;
            break;
        }
        for (int g = 0; g < G; g++) {
            lanes ch = take_child(&st[g], s, next_allowed);
            __m512i b1 = lowest_bit(ch.f), b2 = _mm512_xor_si512(ch.f, b1);
            cnt = _mm512_mask_add_epi32(cnt, is_solution(busy[g], &ch, b1, s2, last_allowed), cnt, one);
            cnt = _mm512_mask_add_epi32(cnt, is_solution(busy[g], &ch, b2, s2, last_allowed), cnt, one);
        }
        if (w->poll == 1) {
            /* at most 2 * G per lane and step in between: no overflow */
            w->total += (uint32_t)_mm512_reduce_add_epi32(cnt);
            cnt = zero;
        }
    }
    w->total += (uint32_t)_mm512_reduce_add_epi32(cnt);
    in->head = in->tail = 0;
    return rc;
}

/* Counts the completions of the states of level d (d + 3 < L) and empties
 * its queue. The lanes expand the states into the queue of level d + 1;
 * whenever that queue is nearly full, it is walked first (depth first
 * over levels), while these lanes keep their states. */
NQ_FN_AVX512
static int walk_level(walk *w, unsigned d)
{
    const nq_sym_board *bd = w->bd;
    const unsigned L = bd->levels;
    level_queue *in = &w->q[d], *out = &w->q[d + 1];
    const __m128i s = _mm_cvtsi32_si128((int)bd->shift[d]);
    const __m512i allowed = _mm512_set1_epi32((int)bd->allowed[d]);
    const __m512i next_allowed = _mm512_set1_epi32((int)bd->allowed[d + 1]);
    const __m512i zero = _mm512_setzero_si512();
    unsigned head = in->head;
    lanes st[G];
    __mmask16 busy[G];
    for (int g = 0; g < G; g++) {
        st[g].f = st[g].c = st[g].l = st[g].r = zero;
        busy[g] = 0;
    }
    int rc = NQ_OK;
    while (rc == NQ_OK && refill(st, busy, in, &head, allowed)) {
        if (out->tail > QCAP - 16 * G)
            rc = d + 4 == L ? finish_level(w, d + 1) : walk_level(w, d + 1);
        else if (nq_avx512_stopped(w))
            rc = NQ_ECANCELED;
        for (int g = 0; g < G; g++) {
            lanes ch = take_child(&st[g], s, next_allowed);
            /* children with a free square join the next level's queue */
            push_back(&ch, _mm512_mask_test_epi32_mask(busy[g], ch.f, ch.f), out);
        }
    }
    in->head = in->tail = 0;
    if (rc == NQ_OK && out->tail)
        rc = d + 4 == L ? finish_level(w, d + 1) : walk_level(w, d + 1);
    return rc;
}

NQ_FN_AVX512
int nq_sym_count_avx512(const nq_sym_board *bd, const nq_sym_node *start,
                        const nq_stop_flag *stop, uint64_t *count)
{
    const unsigned L = bd->levels, d0 = start->level;
    walk w;
    uint32_t *mem;

    /* too shallow for the queues: the scalar walk does it */
    if (d0 + 3 > L)
        return nq_sym_count_scalar(bd, start, stop, count);

    mem = malloc(sizeof *mem * 3u * QSTRIDE * (L - 2 - d0));
    if (!mem)
        return NQ_ENOMEM;
    w.bd = bd;
    w.stop = stop;
    w.poll = NQ_AVX512_POLL_STEPS;
    w.total = 0;
    for (unsigned d = d0; d + 2 < L; d++) {
        uint32_t *base = mem + (size_t)3 * QSTRIDE * (d - d0);
        w.q[d].c = base;
        w.q[d].l = base + QSTRIDE;
        w.q[d].r = base + 2 * QSTRIDE;
        w.q[d].head = w.q[d].tail = 0;
    }
    w.q[d0].c[0] = start->cols;
    w.q[d0].l[0] = start->ld;
    w.q[d0].r[0] = start->rd;
    w.q[d0].tail = (bd->allowed[d0] & ~(start->cols | start->ld | start->rd)) != 0;

    int rc = d0 + 3 == L ? finish_level(&w, d0) : walk_level(&w, d0);
    if (rc == NQ_OK)
        *count += w.total;
    free(mem);
    return rc;
}

#else
typedef int nq_sym_avx512_unused;
#endif
