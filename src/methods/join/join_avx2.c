/*
 * join_avx2.c - the join method's kernels on AVX2: four 64-bit lanes.
 *
 * Taking and pairing pieces test four pieces a step and keep those that
 * pass; AVX2 has no compress, so the lanes that pass are moved to the
 * front by a permutation of 32-bit halves, one per 4-bit mask of passing
 * lanes (join_avx2_tables.h, generated), and the whole register is stored.
 * The last few pieces go one at a time, through the scalar kernels. The
 * match ANDs two 256-bit halves of each entry and counts bits with a
 * nibble table; the block fill is the portable one compiled for AVX2.
 * Only entered where nq_cpu_simd_best() reaches AVX2 (see join_kernel.h).
 */
#include "join_kernel.h"

#if NQ_X86

#include <immintrin.h>

#include "join_avx2_tables.h"
#include "join_block.h"

NQ_INLINE_AVX2 __m256i pack4(__m256i v, unsigned fit)
{
    return _mm256_permutevar8x32_epi32(
        v, _mm256_loadu_si256((const __m256i *)(const void *)nq_join_pack4[fit]));
}

NQ_INLINE_AVX2 unsigned zero_lanes(__m256i v)
{
    return (unsigned)_mm256_movemask_pd(
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(v, _mm256_setzero_si256())));
}

/* nq_join_take_scalar(), four pieces a step (the last few one at a time). */
NQ_FN_AVX2 size_t nq_join_take_avx2(nq_join_piece_list *dst, const uint64_t *src,
                                   size_t n, const nq_join_frame *f)
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
        m += nq_join_take_scalar(&rest, src + j, n - j, f);
    }
    return m;
}

/* nq_join_pairs_scalar(), four pieces a step (the last few one at a time). */
NQ_FN_AVX2 size_t nq_join_pairs_avx2(uint64_t *dst, uint64_t k, uint64_t m1,
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
        m += nq_join_pairs_scalar(dst + m, k, m1, m2, &rest, n - j);
    }
    return m;
}

NQ_FN_AVX2 uint64_t nq_join_match_avx2(const nq_join_block *block,
                                       unsigned chunks, const uint64_t *items,
                                       size_t count)
{
    const __m256i nib = _mm256_set1_epi8(0x0f);
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                                         2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3,
                                         1, 2, 2, 3, 2, 3, 3, 4);
    __m256i sum = _mm256_setzero_si256();
    size_t i = 0;

    while (i < count) {
        /* byte counters: at most 16 per item, so 15 items fit a byte */
        __m256i bytes = _mm256_setzero_si256();
        size_t end = count - i > 15 ? i + 15 : count;
        for (; i < end; i++) {
            const uint64_t x = items[i];
            const uint64_t *e = entry(block, 0, x);
            __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)e);
            __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(e + 4));
            for (unsigned c = 1; c < chunks; c++) {
                e = entry(block, c, x);
                a = _mm256_and_si256(a, _mm256_loadu_si256((const __m256i *)(const void *)e));
                b = _mm256_and_si256(b, _mm256_loadu_si256((const __m256i *)(const void *)(e + 4)));
            }
            __m256i ca = _mm256_add_epi8(
                _mm256_shuffle_epi8(lut, _mm256_and_si256(a, nib)),
                _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(a, 4), nib)));
            __m256i cb = _mm256_add_epi8(
                _mm256_shuffle_epi8(lut, _mm256_and_si256(b, nib)),
                _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(b, 4), nib)));
            bytes = _mm256_add_epi8(bytes, _mm256_add_epi8(ca, cb));
        }
        sum = _mm256_add_epi64(sum, _mm256_sad_epu8(bytes, _mm256_setzero_si256()));
    }
    return (uint64_t)_mm256_extract_epi64(sum, 0) + (uint64_t)_mm256_extract_epi64(sum, 1) +
           (uint64_t)_mm256_extract_epi64(sum, 2) + (uint64_t)_mm256_extract_epi64(sum, 3);
}

NQ_FN_AVX2 void nq_join_fill_avx2(nq_join_block *block, const uint64_t *keys,
                                  size_t count, unsigned chunks)
{
    fill_body(block, keys, count, chunks);
}

#endif /* NQ_X86 */
