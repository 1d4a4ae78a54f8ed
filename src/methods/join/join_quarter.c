/*
 * join_quarter.c - half-board keys from a table of quarter-board pieces.
 *
 * Walking a half-board row by row for every row split repeats the same
 * small searches over and over: the top rows of one split's half are the
 * top rows of thousands of others. So every placement of non-attacking
 * queens on a `rows` x `cols` board (any rows, any columns, from no queen
 * to as many as fit) is listed once, filed under its (row set, column set)
 * and described by its two diagonal masks. A half-board on rows X is then a
 * top piece on the rows of X above the cut and a bottom piece (the same
 * table, moved down by `rows`) on the rows below it, with complementary
 * column sets: for each column set C of the right size, every top piece of
 * (X top, C) meets every bottom piece of (X bottom, the other columns), and
 * the pairs whose diagonals are disjoint are the half's placements. Both
 * halves of a board, west and east, and both quarters of a half use the one
 * table, moved to their place.
 *
 * Keys are linear in the two pieces (the bits of the union are the union
 * of the bits), so each piece's share of the key is computed once per cell
 * and a pair costs two ANDs, one test and one OR.
 */
#include "join.h"

#include "cpu.h"

#include <stdlib.h>
#include <string.h>

/* Entries filed between two polls of the stop flag. */
#define POLL_ENTRIES (1u << 16)

typedef struct fill_state {
    nq_join_quarter *q;
    int second_pass;
    const nq_stop_flag *stop;
    uint32_t tick;
    int stopped;
} fill_state;

static void place(fill_state *f, unsigned r, uint32_t rows, uint32_t cols,
                  uint32_t d1, uint32_t d2)
{
    nq_join_quarter *q = f->q;
    if (r == q->rows) {
        size_t idx = (size_t)rows << q->cols | cols;
        if (f->second_pass)
            q->entry[q->start[idx]++] = (uint64_t)d2 << 32 | d1;
        else
            q->start[idx + 1]++;
        if (++f->tick == POLL_ENTRIES) {
            f->tick = 0;
            f->stopped = nq_stopped(f->stop);
        }
        return;
    }
    place(f, r + 1, rows, cols, d1, d2);
    uint32_t free = ((1u << q->cols) - 1u) & ~cols & ~(d1 >> r) &
                    ~(d2 >> (q->rows - 1 - r));
    for (; free && !f->stopped; free &= free - 1) {
        uint32_t bit = free & (0u - free);
        place(f, r + 1, rows | 1u << r, cols | bit, d1 | bit << r,
              d2 | bit << (q->rows - 1 - r));
    }
}

/* The entries of a rows x cols table, counted up to `cap` (a count that
 * passes it stops there): the placements of `place`, without filing them. */
static uint64_t count_entries(unsigned rows, unsigned cols, unsigned r,
                              uint32_t col_set, uint32_t d1, uint32_t d2,
                              uint64_t cap)
{
    uint64_t c;
    uint32_t free;
    if (r == rows)
        return 1;
    c = count_entries(rows, cols, r + 1, col_set, d1, d2, cap);
    free = ((1u << cols) - 1u) & ~col_set & ~(d1 >> r) & ~(d2 >> (rows - 1 - r));
    for (; free && c <= cap; free &= free - 1) {
        uint32_t bit = free & (0u - free);
        c += count_entries(rows, cols, r + 1, col_set | bit, d1 | bit << r,
                           d2 | bit << (rows - 1 - r), cap - c);
    }
    return c;
}

uint64_t nq_join_quarter_bytes(unsigned rows, unsigned cols, uint64_t cap)
{
    const uint64_t index = ((uint64_t)1 << (rows + cols)) + 1u;
    uint64_t entries, room;
    if (index * sizeof(uint32_t) > cap)
        return UINT64_MAX;
    room = (cap - index * sizeof(uint32_t)) / sizeof(uint64_t);
    if (room > UINT32_MAX)
        room = UINT32_MAX; /* the most entries the index can address */
    entries = count_entries(rows, cols, 0, 0, 0, 0, room);
    if (entries > room || entries > UINT32_MAX)
        return UINT64_MAX;
    return index * sizeof(uint32_t) + entries * sizeof(uint64_t);
}

int nq_join_quarter_build(nq_join_quarter *q, unsigned rows, unsigned cols,
                          uint64_t max_bytes, const nq_stop_flag *stop)
{
    const size_t cells = (size_t)1 << (rows + cols);
    fill_state f = { q, 0, stop, 0, 0 };
    uint64_t total = 0;

    memset(q, 0, sizeof *q);
    q->rows = rows;
    q->cols = cols;
    if ((cells + 1) * sizeof *q->start > max_bytes)
        return NQ_ENOMEM;
    q->start = calloc(cells + 1, sizeof *q->start);
    if (!q->start)
        return NQ_ENOMEM;
    place(&f, 0, 0, 0, 0, 0);
    if (f.stopped) {
        nq_join_quarter_free(q);
        return NQ_ECANCELED;
    }
    for (size_t i = 0; i < cells; i++) {
        uint32_t c = q->start[i + 1];
        if (c > q->largest)
            q->largest = c;
        total += c;
        if (total > UINT32_MAX) {
            nq_join_quarter_free(q);
            return NQ_ENOMEM;
        }
        q->start[i + 1] = (uint32_t)total;
    }
    q->count = (size_t)total;
    if (total * sizeof *q->entry + (cells + 1) * sizeof *q->start > max_bytes) {
        nq_join_quarter_free(q);
        return NQ_ENOMEM;
    }
    q->entry = malloc((size_t)total * sizeof *q->entry);
    if (!q->entry) {
        nq_join_quarter_free(q);
        return NQ_ENOMEM;
    }
    /* second pass: start[i] runs from the start of cell i to its end,
     * which is the start of cell i + 1; shift back afterwards */
    f.second_pass = 1;
    place(&f, 0, 0, 0, 0, 0);
    if (f.stopped) {
        nq_join_quarter_free(q);
        return NQ_ECANCELED;
    }
    memmove(q->start + 1, q->start, cells * sizeof *q->start);
    q->start[0] = 0;
    return NQ_OK;
}

void nq_join_quarter_free(nq_join_quarter *q)
{
    if (!q)
        return;
    free(q->start);
    free(q->entry);
    memset(q, 0, sizeof *q);
}

/* How the pieces of a cell become a half's pieces: diagonal masks moved
 * into the half's frames, those on barred diagonals dropped, the key
 * share cut from the frames and squeezed. */
typedef struct piece_frame {
    unsigned shift1, shift2;  /* d1 <<= shift1, d2 <<= shift2 */
    uint64_t bar1, bar2;
    unsigned s1, s2, len1;    /* key: d1 >> s1 & mask1 | (d2 >> s2 & mask2) << len1 */
    uint64_t mask1, mask2;
    const nq_join_sieve *sieve;
} piece_frame;

/* Copies into dst the usable pieces of src[0 .. n); @return how many. */
static size_t take_pieces(nq_join_piece_list *dst, const uint64_t *src, size_t n,
                          const piece_frame *f)
{
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        const uint64_t d1 = (src[j] & 0xffffffffu) << f->shift1;
        const uint64_t d2 = (src[j] >> 32) << f->shift2;
        dst->d1[m] = d1;
        dst->d2[m] = d2;
        dst->key[m] = nq_join_squeeze(f->sieve, (d1 >> f->s1 & f->mask1) |
                                                (d2 >> f->s2 & f->mask2) << f->len1);
        m += ((d1 & f->bar1) | (d2 & f->bar2)) == 0;
    }
    return m;
}

/* Writes k | in->key[j] for every piece j of `in` whose diagonals miss
 * (m1, m2); @return how many were written (dst has room for n + 8). */
static size_t pairs_scalar(uint64_t *dst, uint64_t k, uint64_t m1, uint64_t m2,
                           const nq_join_piece_list *in, size_t n)
{
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        dst[m] = k | in->key[j];
        m += ((m1 & in->d1[j]) | (m2 & in->d2[j])) == 0;
    }
    return m;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define NQ_AVX512F_FN __attribute__((target("avx512f")))

static NQ_AVX512F_FN inline __mmask8 first_lanes(size_t left)
{
    return (__mmask8)(left >= 8 ? 0xffu : (1u << left) - 1u);
}

/* take_pieces(), eight pieces a step: the usable ones are packed to the
 * front of a register (compress) and the whole register is stored. */
static NQ_AVX512F_FN size_t take_pieces_avx512(nq_join_piece_list *dst,
                                               const uint64_t *src, size_t n,
                                               const piece_frame *f)
{
    const nq_join_sieve *sv = f->sieve;
    const __m512i low = _mm512_set1_epi64(0xffffffffll);
    const __m512i bar1 = _mm512_set1_epi64((long long)f->bar1);
    const __m512i bar2 = _mm512_set1_epi64((long long)f->bar2);
    const __m512i mask1 = _mm512_set1_epi64((long long)f->mask1);
    const __m512i mask2 = _mm512_set1_epi64((long long)f->mask2);
    const __m512i one = _mm512_set1_epi64((long long)sv->has_class);
    size_t m = 0;
    for (size_t j = 0; j < n; j += 8) {
        const __mmask8 live = first_lanes(n - j);
        const __m512i e = _mm512_maskz_loadu_epi64(live, src + j);
        const __m512i d1 = _mm512_slli_epi64(_mm512_and_si512(e, low), f->shift1);
        const __m512i d2 = _mm512_slli_epi64(_mm512_srli_epi64(e, 32), f->shift2);
        const __mmask8 ok = _mm512_mask_testn_epi64_mask(
            live, _mm512_or_si512(_mm512_and_si512(d1, bar1), _mm512_and_si512(d2, bar2)),
            _mm512_set1_epi64(-1));
        __m512i x = _mm512_or_si512(
            _mm512_and_si512(_mm512_srli_epi64(d1, f->s1), mask1),
            _mm512_slli_epi64(_mm512_and_si512(_mm512_srli_epi64(d2, f->s2), mask2), f->len1));
        const __m512i flags = _mm512_slli_epi64(
            _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(x, sv->class1), one),
                            _mm512_slli_epi64(_mm512_and_si512(_mm512_srli_epi64(x, sv->class2), one), 1)),
            NQ_JOIN_CLASS_SHIFT);
        for (unsigned i = 0; i < sv->nholes; i++) {
            const __m512i below = _mm512_set1_epi64((long long)((1ull << sv->hole[i]) - 1u));
            x = _mm512_or_si512(_mm512_and_si512(x, below),
                                _mm512_andnot_si512(below, _mm512_srli_epi64(x, 1)));
        }
        _mm512_storeu_si512(dst->d1 + m, _mm512_maskz_compress_epi64(ok, d1));
        _mm512_storeu_si512(dst->d2 + m, _mm512_maskz_compress_epi64(ok, d2));
        _mm512_storeu_si512(dst->key + m, _mm512_maskz_compress_epi64(ok, _mm512_or_si512(x, flags)));
        m += (unsigned)__builtin_popcount(ok);
    }
    return m;
}

/* pairs_scalar(), eight pieces a step, packed as take_pieces_avx512(). */
static NQ_AVX512F_FN size_t pairs_avx512(uint64_t *dst, uint64_t k, uint64_t m1,
                                         uint64_t m2, const nq_join_piece_list *in,
                                         size_t n)
{
    const __m512i vm1 = _mm512_set1_epi64((long long)m1);
    const __m512i vm2 = _mm512_set1_epi64((long long)m2);
    const __m512i vk = _mm512_set1_epi64((long long)k);
    size_t m = 0;
    for (size_t j = 0; j < n; j += 8) {
        const __mmask8 live = first_lanes(n - j);
        __m512i c1 = _mm512_and_si512(vm1, _mm512_maskz_loadu_epi64(live, in->d1 + j));
        __m512i c2 = _mm512_and_si512(vm2, _mm512_maskz_loadu_epi64(live, in->d2 + j));
        __mmask8 fit = _mm512_mask_testn_epi64_mask(live, _mm512_or_si512(c1, c2),
                                                    _mm512_set1_epi64(-1));
        __m512i key = _mm512_or_si512(vk, _mm512_maskz_loadu_epi64(live, in->key + j));
        _mm512_storeu_si512(dst + m, _mm512_maskz_compress_epi64(fit, key));
        m += (unsigned)__builtin_popcount(fit);
    }
    return m;
}
/* AVX2 has no compress: the lanes that fit are moved to the front by a
 * permutation of 32-bit halves, one per 4-bit mask of fitting lanes
 * (row f lists the halves of the set lanes of f, in order). */
static const int32_t nq_pack4[16][8] = {
    { 0, 0, 0, 0, 0, 0, 0, 0 },
    { 0, 1, 0, 0, 0, 0, 0, 0 },
    { 2, 3, 0, 0, 0, 0, 0, 0 },
    { 0, 1, 2, 3, 0, 0, 0, 0 },
    { 4, 5, 0, 0, 0, 0, 0, 0 },
    { 0, 1, 4, 5, 0, 0, 0, 0 },
    { 2, 3, 4, 5, 0, 0, 0, 0 },
    { 0, 1, 2, 3, 4, 5, 0, 0 },
    { 6, 7, 0, 0, 0, 0, 0, 0 },
    { 0, 1, 6, 7, 0, 0, 0, 0 },
    { 2, 3, 6, 7, 0, 0, 0, 0 },
    { 0, 1, 2, 3, 6, 7, 0, 0 },
    { 4, 5, 6, 7, 0, 0, 0, 0 },
    { 0, 1, 4, 5, 6, 7, 0, 0 },
    { 2, 3, 4, 5, 6, 7, 0, 0 },
    { 0, 1, 2, 3, 4, 5, 6, 7 }
};

#define NQ_AVX2F_FN __attribute__((target(NQ_TARGET_AVX2)))

static NQ_AVX2F_FN inline __m256i pack4(__m256i v, unsigned fit)
{
    return _mm256_permutevar8x32_epi32(
        v, _mm256_loadu_si256((const __m256i *)(const void *)nq_pack4[fit]));
}

static NQ_AVX2F_FN inline unsigned zero_lanes(__m256i v)
{
    return (unsigned)_mm256_movemask_pd(
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(v, _mm256_setzero_si256())));
}

/* take_pieces(), four pieces a step (the last few one at a time). */
static NQ_AVX2F_FN size_t take_pieces_avx2(nq_join_piece_list *dst,
                                           const uint64_t *src, size_t n,
                                           const piece_frame *f)
{
    const nq_join_sieve *sv = f->sieve;
    const __m256i low = _mm256_set1_epi64x(0xffffffffll);
    const __m256i bar1 = _mm256_set1_epi64x((long long)f->bar1);
    const __m256i bar2 = _mm256_set1_epi64x((long long)f->bar2);
    const __m256i mask1 = _mm256_set1_epi64x((long long)f->mask1);
    const __m256i mask2 = _mm256_set1_epi64x((long long)f->mask2);
    const __m256i one = _mm256_set1_epi64x((long long)sv->has_class);
    const __m128i sh1 = _mm_cvtsi32_si128((int)f->shift1), sh2 = _mm_cvtsi32_si128((int)f->shift2);
    const __m128i s1 = _mm_cvtsi32_si128((int)f->s1), s2 = _mm_cvtsi32_si128((int)f->s2);
    const __m128i len1 = _mm_cvtsi32_si128((int)f->len1);
    const __m128i c1 = _mm_cvtsi32_si128((int)sv->class1), c2 = _mm_cvtsi32_si128((int)sv->class2);
    size_t m = 0, j = 0;
    for (; j + 4 <= n; j += 4) {
        const __m256i e = _mm256_loadu_si256((const __m256i *)(const void *)(src + j));
        const __m256i d1 = _mm256_sll_epi64(_mm256_and_si256(e, low), sh1);
        const __m256i d2 = _mm256_sll_epi64(_mm256_srli_epi64(e, 32), sh2);
        const unsigned ok = zero_lanes(_mm256_or_si256(_mm256_and_si256(d1, bar1),
                                                       _mm256_and_si256(d2, bar2)));
        __m256i x = _mm256_or_si256(
            _mm256_and_si256(_mm256_srl_epi64(d1, s1), mask1),
            _mm256_sll_epi64(_mm256_and_si256(_mm256_srl_epi64(d2, s2), mask2), len1));
        const __m256i flags = _mm256_slli_epi64(
            _mm256_or_si256(_mm256_and_si256(_mm256_srl_epi64(x, c1), one),
                            _mm256_slli_epi64(_mm256_and_si256(_mm256_srl_epi64(x, c2), one), 1)),
            NQ_JOIN_CLASS_SHIFT);
        for (unsigned i = 0; i < sv->nholes; i++) {
            const __m256i below = _mm256_set1_epi64x((long long)((1ull << sv->hole[i]) - 1u));
            x = _mm256_or_si256(_mm256_and_si256(x, below),
                                _mm256_andnot_si256(below, _mm256_srli_epi64(x, 1)));
        }
        _mm256_storeu_si256((__m256i *)(void *)(dst->d1 + m), pack4(d1, ok));
        _mm256_storeu_si256((__m256i *)(void *)(dst->d2 + m), pack4(d2, ok));
        _mm256_storeu_si256((__m256i *)(void *)(dst->key + m), pack4(_mm256_or_si256(x, flags), ok));
        m += (unsigned)__builtin_popcount(ok);
    }
    if (j < n) {
        nq_join_piece_list rest = { dst->d1 + m, dst->d2 + m, dst->key + m };
        m += take_pieces(&rest, src + j, n - j, f);
    }
    return m;
}

/* pairs_scalar(), four pieces a step (the last few one at a time). */
static NQ_AVX2F_FN size_t pairs_avx2(uint64_t *dst, uint64_t k, uint64_t m1,
                                     uint64_t m2, const nq_join_piece_list *in,
                                     size_t n)
{
    const __m256i vm1 = _mm256_set1_epi64x((long long)m1);
    const __m256i vm2 = _mm256_set1_epi64x((long long)m2);
    const __m256i vk = _mm256_set1_epi64x((long long)k);
    size_t m = 0, j = 0;
    for (; j + 4 <= n; j += 4) {
        const __m256i c = _mm256_or_si256(
            _mm256_and_si256(vm1, _mm256_loadu_si256((const __m256i *)(const void *)(in->d1 + j))),
            _mm256_and_si256(vm2, _mm256_loadu_si256((const __m256i *)(const void *)(in->d2 + j))));
        const unsigned fit = zero_lanes(c);
        const __m256i key = _mm256_or_si256(
            vk, _mm256_loadu_si256((const __m256i *)(const void *)(in->key + j)));
        _mm256_storeu_si256((__m256i *)(void *)(dst + m), pack4(key, fit));
        m += (unsigned)__builtin_popcount(fit);
    }
    if (j < n) {
        nq_join_piece_list rest = { in->d1 + j, in->d2 + j, in->key + j };
        m += pairs_scalar(dst + m, k, m1, m2, &rest, n - j);
    }
    return m;
}
#endif

/* A frame index from a board index: frame = board - base. */
static uint64_t to_frame(uint64_t board_bits, int base)
{
    return base >= 0 ? board_bits >> base : board_bits << -base;
}

/* take_pieces() at SIMD level simd. */
static size_t take(nq_simd simd, nq_join_piece_list *dst, const uint64_t *src,
                   size_t n, const piece_frame *f)
{
#if defined(__x86_64__) || defined(__i386__)
    if (simd == NQ_SIMD_AVX512)
        return take_pieces_avx512(dst, src, n, f);
    if (simd == NQ_SIMD_AVX2)
        return take_pieces_avx2(dst, src, n, f);
#endif
    (void)simd;
    return take_pieces(dst, src, n, f);
}

/* pairs_scalar() at SIMD level simd. */
static size_t pairs(nq_simd simd, uint64_t *dst, uint64_t k, uint64_t m1,
                    uint64_t m2, const nq_join_piece_list *in, size_t n)
{
#if defined(__x86_64__) || defined(__i386__)
    if (simd == NQ_SIMD_AVX512)
        return pairs_avx512(dst, k, m1, m2, in, n);
    if (simd == NQ_SIMD_AVX2)
        return pairs_avx2(dst, k, m1, m2, in, n);
#endif
    (void)simd;
    return pairs_scalar(dst, k, m1, m2, in, n);
}

int nq_join_half_keys(nq_join_keys *out, nq_join_pieces *scratch,
                      const nq_join_quarter *q, const nq_join_half *g,
                      uint32_t rows, nq_simd simd)
{
    const unsigned t = q->rows, h = q->cols;
    const uint32_t all = (1u << h) - 1u;
    const uint32_t top = rows & ((1u << t) - 1u), bottom = rows >> t;
    const unsigned k = (unsigned)__builtin_popcount(top);
    /* frames: d1 of the pair is top.d1 | bottom.d1 << t, at board index
     * + c0; d2 is top.d2 << t | bottom.d2, at board index + base2 */
    const int base2 = (int)g->c0 + (int)g->n - 2 * (int)t;
    piece_frame ft, fb;
    uint32_t c = k ? (1u << k) - 1u : 0;
    ft.shift1 = 0;
    ft.shift2 = t;
    ft.bar1 = to_frame(g->bar1, (int)g->c0);
    ft.bar2 = to_frame(g->bar2, base2);
    ft.s1 = g->lo1 - g->c0;
    ft.s2 = (unsigned)((int)g->lo2 - base2);
    ft.len1 = g->len1;
    ft.mask1 = (1ull << g->len1) - 1u;
    ft.mask2 = (1ull << g->len2) - 1u;
    ft.sieve = g->sieve;
    fb = ft;
    fb.shift1 = t;
    fb.shift2 = 0;

    out->count = 0;
    for (;;) {
        const size_t ti = (size_t)top << h | c, bi = (size_t)bottom << h | (all & ~c);
        const uint64_t *a = q->entry + q->start[ti], *b = q->entry + q->start[bi];
        const size_t na0 = q->start[ti + 1] - q->start[ti];
        const size_t nb0 = q->start[bi + 1] - q->start[bi];
        size_t na = 0, nb = 0;
        if (na0 && nb0) {
            na = take(simd, &scratch->top, a, na0, &ft);
            nb = na ? take(simd, &scratch->bottom, b, nb0, &fb) : 0;
        }
        if (na && nb) {
            /* the longer list is the inner, eight-wide loop */
            const nq_join_piece_list *outer = na <= nb ? &scratch->top : &scratch->bottom;
            const nq_join_piece_list *inner = na <= nb ? &scratch->bottom : &scratch->top;
            const size_t no = na <= nb ? na : nb, ni = na <= nb ? nb : na;
            if (nq_join_keys_reserve(out, no * ni + 8) != NQ_OK)
                return NQ_ENOMEM;
            for (size_t i = 0; i < no; i++)
                out->count += pairs(simd, out->keys + out->count, outer->key[i],
                                    outer->d1[i], outer->d2[i], inner, ni);
        }
        if (c == 0 || (c == all))
            break;
        {   /* next column set of k bits (Gosper) */
            uint32_t low = c & (0u - c), ripple = c + low;
            c = ripple | (((c ^ ripple) >> 2) / low);
            if (c > all)
                break;
        }
    }
    return NQ_OK;
}
