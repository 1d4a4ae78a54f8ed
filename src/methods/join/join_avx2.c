/*
 * join_avx2.c - the join method's kernels on AVX2: four 64-bit lanes.
 *
 * Taking and pairing pieces test four pieces a step and keep those that
 * pass; AVX2 has no compress, so the lanes that pass are moved to the
 * front by a permutation of 32-bit halves, one per 4-bit mask of passing
 * lanes (join_avx2_tables.h, generated), and the whole register is stored.
 * The last step loads the lanes left with a masked load (nothing is
 * read past the list). The match ANDs two 256-bit halves of each entry
 * and counts bits with a nibble table; the block fill cuts keys into
 * bytes as the AVX-512 one does, 32 at a time, and gathers each bit with
 * a movemask.
 * Only entered where nq_cpu_simd_best() reaches AVX2 (see join_kernel.h).
 */
#include "join_avx2.h"
#include "join_scalar.h"

#include "join_slices.h"

#if NQ_X86

#include <immintrin.h>

#include "join_avx2_tables.h"

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

/* Lanes j .. j + 3 of src[0 .. n) (j < n): a whole load, or the lanes
 * below n with zeros above them (nothing read past n); *live gets the
 * mask of the lanes below n. */
NQ_INLINE_AVX2 __m256i load_live(const uint64_t *src, size_t j, size_t n, unsigned *live)
{
    if (n - j >= 4) {
        *live = 0xfu;
        return _mm256_loadu_si256((const __m256i *)(const void *)(src + j));
    }
    *live = (1u << (n - j)) - 1u;
    return _mm256_maskload_epi64(
        (const long long *)(const void *)(src + j),
        _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(n - j)), _mm256_setr_epi64x(0, 1, 2, 3)));
}

/* nq_join_take_scalar(), four pieces a step (the last step with the
 * lanes left), in two passes as there: the pieces the bars allow are
 * packed first, then only those get their keys. */
NQ_FN_AVX2 size_t nq_join_take_avx2(nq_join_piece_list *dst, const uint64_t *src,
                                   size_t n, const nq_join_frame *f)
{
    const nq_join_sieve *sv = f->sieve;
    const __m256i low = _mm256_set1_epi64x(0xffffffffll);
    const __m256i bar1 = _mm256_set1_epi64x((long long)f->bar1);
    const __m256i bar2 = _mm256_set1_epi64x((long long)f->bar2);
    const __m128i sh1 = _mm_cvtsi32_si128((int)f->shift1), sh2 = _mm_cvtsi32_si128((int)f->shift2);
    const __m256i own = _mm256_set1_epi64x((long long)f->own);
    const __m256i other = _mm256_set1_epi64x((long long)f->other);
    size_t m = 0;
    if (f->keep) /* every piece, the barred ones marked (the marks lie above the masks) */
        for (size_t j = 0; j < n; j += 4) {
            unsigned live;
            const __m256i e = load_live(src, j, n, &live);
            const __m256i d1 = _mm256_sll_epi64(_mm256_and_si256(e, low), sh1);
            const __m256i d2 = _mm256_sll_epi64(_mm256_srli_epi64(e, 32), sh2);
            const __m256i clash = _mm256_or_si256(_mm256_and_si256(d1, bar1), _mm256_and_si256(d2, bar2));
            const __m256i barred = _mm256_xor_si256(_mm256_cmpeq_epi64(clash, _mm256_setzero_si256()),
                                                    _mm256_set1_epi64x(-1));
            _mm256_storeu_si256((__m256i *)(void *)(dst->d1 + j),
                                _mm256_or_si256(_mm256_or_si256(d1, own), _mm256_and_si256(barred, other)));
            _mm256_storeu_si256((__m256i *)(void *)(dst->d2 + j), d2);
            m += (unsigned)__builtin_popcount(live);
        }
    else
        for (size_t j = 0; j < n; j += 4) {
            unsigned live;
            const __m256i e = load_live(src, j, n, &live);
            const __m256i d1 = _mm256_sll_epi64(_mm256_and_si256(e, low), sh1);
            const __m256i d2 = _mm256_sll_epi64(_mm256_srli_epi64(e, 32), sh2);
            const unsigned ok = live & zero_lanes(_mm256_or_si256(_mm256_and_si256(d1, bar1),
                                                                  _mm256_and_si256(d2, bar2)));
            _mm256_storeu_si256((__m256i *)(void *)(dst->d1 + m), pack4(d1, ok));
            _mm256_storeu_si256((__m256i *)(void *)(dst->d2 + m), pack4(d2, ok));
            m += (unsigned)__builtin_popcount(ok);
        }
    {
        const __m256i mask1 = _mm256_set1_epi64x((long long)f->mask1);
        const __m256i mask2 = _mm256_set1_epi64x((long long)f->mask2);
        const __m256i one = _mm256_set1_epi64x((long long)sv->has_class);
        const __m256i need = _mm256_set1_epi64x((long long)f->need);
        const __m256i mark = _mm256_set1_epi64x((long long)NQ_JOIN_MARK_PLAIN);
        const __m128i s1 = _mm_cvtsi32_si128((int)f->s1), s2 = _mm_cvtsi32_si128((int)f->s2);
        const __m128i len1 = _mm_cvtsi32_si128((int)f->len1);
        const __m128i c1 = _mm_cvtsi32_si128((int)sv->class1), c2 = _mm_cvtsi32_si128((int)sv->class2);
        for (size_t j = 0; j < m; j += 4) {
            unsigned live;
            const __m256i d1 = load_live(dst->d1, j, m, &live);
            const __m256i d2 = load_live(dst->d2, j, m, &live);
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
            /* lanes past m: room for n + 8 */
            _mm256_storeu_si256((__m256i *)(void *)(dst->key + j), _mm256_or_si256(x, flags));
            if (f->need) {
                const __m256i plain = _mm256_cmpeq_epi64(_mm256_and_si256(flags, need),
                                                         _mm256_setzero_si256());
                _mm256_storeu_si256((__m256i *)(void *)(dst->d1 + j),
                                    _mm256_or_si256(d1, _mm256_and_si256(plain, mark)));
            }
        }
    }
    return m;
}

/* nq_join_pairs_scalar(), four pieces a step (the last step with the
 * lanes left). */
NQ_FN_AVX2 size_t nq_join_pairs_avx2(uint64_t *dst, const nq_join_piece_list *out,
                                    size_t no, const nq_join_piece_list *in,
                                    size_t n)
{
    /* the lists' arrays in registers: the stores to dst do not touch them */
    const uint64_t *od1 = out->d1, *od2 = out->d2, *okey = out->key;
    const uint64_t *id1 = in->d1, *id2 = in->d2, *ikey = in->key;
    size_t m = 0;
    for (size_t i = 0; i < no; i++) {
        const __m256i vm1 = _mm256_set1_epi64x((long long)od1[i]);
        const __m256i vm2 = _mm256_set1_epi64x((long long)od2[i]);
        const __m256i vk = _mm256_set1_epi64x((long long)okey[i]);
        for (size_t j = 0; j < n; j += 4) {
            unsigned live;
            const __m256i d1 = load_live(id1, j, n, &live);
            const __m256i d2 = load_live(id2, j, n, &live);
            const __m256i c = _mm256_or_si256(_mm256_and_si256(vm1, d1), _mm256_and_si256(vm2, d2));
            const unsigned fit = live & zero_lanes(c);
            const __m256i key = _mm256_or_si256(vk, load_live(ikey, j, n, &live));
            _mm256_storeu_si256((__m256i *)(void *)(dst + m), pack4(key, fit));
            m += (unsigned)__builtin_popcount(fit);
        }
    }
    return m;
}

/* The bits set in each byte of a, from a nibble table. */
NQ_INLINE_AVX2 __m256i byte_counts(__m256i a)
{
    const __m256i nib = _mm256_set1_epi8(0x0f);
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                                         2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3,
                                         1, 2, 2, 3, 2, 3, 3, 4);
    return _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(a, nib)),
                           _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(a, 4), nib)));
}

/* The sum of the four 64-bit lanes of v. */
NQ_INLINE_AVX2 uint64_t lanes_sum(__m256i v)
{
    return (uint64_t)_mm256_extract_epi64(v, 0) + (uint64_t)_mm256_extract_epi64(v, 1) +
           (uint64_t)_mm256_extract_epi64(v, 2) + (uint64_t)_mm256_extract_epi64(v, 3);
}

/* The byte counts of the row of item x: its chunks' entries ANDed, the
 * bits of each byte counted, those of the two halves of the row added
 * (at most 16 a byte), or with `low` the low half's only (at most 8). */
NQ_INLINE_AVX2 __m256i row_counts(const nq_join_block *block, const unsigned chunks,
                                  uint64_t x, const int low)
{
    const uint64_t *e = entry(block, 0, x);
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)e), b;
    if (low) {
        for (unsigned c = 1; c < chunks; c++)
            a = _mm256_and_si256(
                a, _mm256_loadu_si256((const __m256i *)(const void *)entry(block, c, x)));
        return byte_counts(a);
    }
    b = _mm256_loadu_si256((const __m256i *)(const void *)(e + 4));
    for (unsigned c = 1; c < chunks; c++) {
        e = entry(block, c, x);
        a = _mm256_and_si256(a, _mm256_loadu_si256((const __m256i *)(const void *)e));
        b = _mm256_and_si256(b, _mm256_loadu_si256((const __m256i *)(const void *)(e + 4)));
    }
    return _mm256_add_epi8(byte_counts(a), byte_counts(b));
}

/* nq_join_match_avx2() with weights (shifts not 0): each item's byte
 * counts (at most 16 a byte, 8 in a block of at most 256 keys, `low`:
 * the low half of each row only) are multiplied by the item's weight,
 * 1 << shift, into 16-bit sums (at most 256 an item, and the sums are
 * widened as signed: 127 items fit), widened every 127 items. */
NQ_INLINE_AVX2 uint64_t match_weighted(const nq_join_block *block, const unsigned chunks,
                                          const uint64_t *items, size_t count,
                                          unsigned shifts, int low)
{
    __m256i weight[4], sum = _mm256_setzero_si256();
    size_t i = 0;
    for (unsigned f = 0; f < 4; f++)
        weight[f] = _mm256_set1_epi8((char)(1 << (shifts >> (2 * f) & 3u)));
    while (i < count) {
        __m256i acc = _mm256_setzero_si256(), wide;
        size_t end = count - i > 127 ? i + 127 : count;
        for (; i < end; i++) {
            const uint64_t x = items[i];
            acc = _mm256_add_epi16(acc, _mm256_maddubs_epi16(row_counts(block, chunks, x, low),
                                                             weight[x >> NQ_JOIN_CLASS_SHIFT]));
        }
        wide = _mm256_madd_epi16(acc, _mm256_set1_epi16(1)); /* 32-bit sums */
        sum = _mm256_add_epi64(sum, _mm256_add_epi64(
                                        _mm256_and_si256(wide, _mm256_set1_epi64x(0xffffffffll)),
                                        _mm256_srli_epi64(wide, 32)));
    }
    return lanes_sum(sum);
}

/* nq_join_match_avx2() without weights: the byte counts of the rows,
 * at most 16 an item (8 with `low`: a block of at most 256 keys, the low
 * half of each row only), summed in bytes over 15 items (31) at a time. */
NQ_INLINE_AVX2 uint64_t match_plain(const nq_join_block *block, const unsigned chunks,
                                    const uint64_t *items, size_t count, const int low)
{
    const size_t batch = low ? 31 : 15;
    __m256i sum = _mm256_setzero_si256();
    size_t i = 0;

    while (i < count) {
        __m256i bytes = _mm256_setzero_si256();
        size_t end = count - i > batch ? i + batch : count;
        for (; i < end; i++)
            bytes = _mm256_add_epi8(bytes, row_counts(block, chunks, items[i], low));
        sum = _mm256_add_epi64(sum, _mm256_sad_epu8(bytes, _mm256_setzero_si256()));
    }
    return lanes_sum(sum);
}

/* nq_join_match_avx2() with `chunks` a constant where it is inlined, so
 * that the loops over a key's chunks unroll. */
NQ_INLINE_AVX2 uint64_t match_chunks(const nq_join_block *block, const unsigned chunks,
                                     const uint64_t *items, size_t count, unsigned shifts)
{
    const int low = block->words <= NQ_JOIN_WORDS / 2; /* the high halves hold no key */
    if (shifts)
        return match_weighted(block, chunks, items, count, shifts, low);
    return low ? match_plain(block, chunks, items, count, 1)
               : match_plain(block, chunks, items, count, 0);
}

NQ_FN_AVX2 uint64_t nq_join_match_avx2(const nq_join_block *block,
                                       unsigned chunks, const uint64_t *items,
                                       size_t count, unsigned shifts)
{
    switch (chunks) { /* keys of at most 54 bits: 1 to 9 chunks */
    case 1: return match_chunks(block, 1, items, count, shifts);
    case 2: return match_chunks(block, 2, items, count, shifts);
    case 3: return match_chunks(block, 3, items, count, shifts);
    case 4: return match_chunks(block, 4, items, count, shifts);
    case 5: return match_chunks(block, 5, items, count, shifts);
    case 6: return match_chunks(block, 6, items, count, shifts);
    case 7: return match_chunks(block, 7, items, count, shifts);
    case 8: return match_chunks(block, 8, items, count, shifts);
    case 9: return match_chunks(block, 9, items, count, shifts);
    default: return match_chunks(block, chunks, items, count, shifts);
    }
}

/* The bit slices of 32 keys (count of them, 0 to 32), as the AVX-512
 * fill cuts 64: bytes regrouped so that each 128-bit lane of v[j] holds
 * byte j of 16 keys, then bit b of every byte moved to the byte's top
 * and gathered by a movemask. The keys' order in the 32 bits is fixed,
 * the same for every slice and for the keys that exist (bit 63, which no
 * key uses), so a count does not see it. */
NQ_INLINE_AVX2 void slice32(uint32_t *set, uint32_t *valid, const uint64_t *keys,
                            size_t count, unsigned bits)
{
    const __m256i pair = _mm256_broadcastsi128_si256(_mm_setr_epi8(
        0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15));
    const __m256i exists = _mm256_set1_epi64x((long long)(1ull << 63));
    __m256i r[8], t[8], u[8], v[8];
    for (unsigned g = 0; g < 8; g++) {
        const size_t first = 4 * g;
        if (first + 4 <= count)
            r[g] = _mm256_or_si256(
                _mm256_loadu_si256((const __m256i *)(const void *)(keys + first)), exists);
        else if (first < count) {
            const __m256i live = _mm256_cmpgt_epi64(
                _mm256_set1_epi64x((long long)(count - first)), _mm256_setr_epi64x(0, 1, 2, 3));
            r[g] = _mm256_and_si256(
                _mm256_or_si256(_mm256_maskload_epi64((const long long *)(const void *)(keys + first),
                                                      live),
                                exists),
                live);
        } else
            r[g] = _mm256_setzero_si256();
        r[g] = _mm256_shuffle_epi8(r[g], pair);
    }
    for (unsigned g = 0; g < 8; g += 2) {
        t[g] = _mm256_unpacklo_epi16(r[g], r[g + 1]);
        t[g + 1] = _mm256_unpackhi_epi16(r[g], r[g + 1]);
    }
    for (unsigned g = 0; g < 8; g += 4) {
        u[g] = _mm256_unpacklo_epi32(t[g], t[g + 2]);
        u[g + 1] = _mm256_unpackhi_epi32(t[g], t[g + 2]);
        u[g + 2] = _mm256_unpacklo_epi32(t[g + 1], t[g + 3]);
        u[g + 3] = _mm256_unpackhi_epi32(t[g + 1], t[g + 3]);
    }
    for (unsigned g = 0; g < 4; g++) {
        v[2 * g] = _mm256_unpacklo_epi64(u[g], u[g + 4]);
        v[2 * g + 1] = _mm256_unpackhi_epi64(u[g], u[g + 4]);
    }
    for (unsigned b = 0; b < bits; b++) {
        const __m128i up = _mm_cvtsi32_si128(7 - (int)(b % 8));
        set[b] = (uint32_t)_mm256_movemask_epi8(_mm256_sll_epi16(v[b / 8], up));
    }
    *valid = (uint32_t)_mm256_movemask_epi8(v[7]);
}

/* The slices of 64 keys at a time (two halves of 32), then the table:
 * entry v of a chunk is an earlier entry (v less its lowest bit) less
 * one slice, two 256-bit ANDNOTs. */
NQ_FN_AVX2 void nq_join_fill_avx2(nq_join_block *block, const uint64_t *keys,
                                  size_t count, unsigned chunks)
{
    uint64_t set[NQ_JOIN_MAX_CHUNKS * NQ_JOIN_CHUNK_BITS][NQ_JOIN_WORDS];
    uint64_t valid[NQ_JOIN_WORDS];
    const unsigned bits = chunks * NQ_JOIN_CHUNK_BITS;
    for (size_t w = 0; w < NQ_JOIN_WORDS; w++) {
        uint32_t lo[NQ_JOIN_MAX_CHUNKS * NQ_JOIN_CHUNK_BITS], hi[NQ_JOIN_MAX_CHUNKS * NQ_JOIN_CHUNK_BITS];
        uint32_t vlo, vhi;
        const size_t first = 64 * w;
        const size_t n = first >= count ? 0 : count - first >= 64 ? 64 : count - first;
        if (!n) { /* past the keys (most blocks of short lists): no slices */
            no_keys_in_word(set, valid, w, bits);
            continue;
        }
        slice32(lo, &vlo, keys + first, n >= 32 ? 32 : n, bits);
        if (n > 32)
            slice32(hi, &vhi, keys + first + 32, n - 32, bits);
        else
            vhi = 0;
        for (unsigned b = 0; b < bits; b++)
            set[b][w] = lo[b] | (n > 32 ? (uint64_t)hi[b] << 32 : 0);
        valid[w] = vlo | (uint64_t)vhi << 32;
    }
    block->words = block_words(count);
    for (unsigned c = 0; c < chunks; c++) {
        __m256i *m = (__m256i *)(void *)block->mask[c];
        m[0] = _mm256_loadu_si256((const __m256i *)(const void *)valid);
        m[1] = _mm256_loadu_si256((const __m256i *)(const void *)(valid + 4));
        if (block->words <= NQ_JOIN_WORDS / 2) { /* the high halves: no keys, and unread */
            for (unsigned v = 1; v < NQ_JOIN_CHUNK_SIZE; v++) {
                const uint64_t *s = set[c * NQ_JOIN_CHUNK_BITS + NQ_CTZ64(v)];
                m[2 * v] = _mm256_andnot_si256(
                    _mm256_loadu_si256((const __m256i *)(const void *)s), m[2 * (v & (v - 1u))]);
            }
            continue;
        }
        for (unsigned v = 1; v < NQ_JOIN_CHUNK_SIZE; v++) {
            const uint64_t *s = set[c * NQ_JOIN_CHUNK_BITS + NQ_CTZ64(v)];
            const unsigned from = v & (v - 1u);
            m[2 * v] = _mm256_andnot_si256(_mm256_loadu_si256((const __m256i *)(const void *)s),
                                           m[2 * from]);
            m[2 * v + 1] = _mm256_andnot_si256(
                _mm256_loadu_si256((const __m256i *)(const void *)(s + 4)), m[2 * from + 1]);
        }
    }
}

/* nq_join_bins_scalar(), eight keys a step in two registers: the bucket
 * and class bits by uniform shifts (a class shift of 64 gives 0: no
 * classes), the four 64-bit lanes' low halves gathered and packed to 16
 * bits. The last few keys go one at a time. */
NQ_FN_AVX2 void nq_join_bins_avx2(const nq_join_sieve *sv, const uint64_t *k, size_t n,
                                  unsigned classes, uint16_t *bin)
{
    const nq_join_bin_shape shape = nq_join_bin_shape_of(sv, classes);
    const __m256i mask1 = _mm256_set1_epi64x((long long)shape.mask1);
    const __m256i mask2 = _mm256_set1_epi64x((long long)shape.mask2);
    const __m256i one = _mm256_set1_epi64x(1);
    __m128i sh[NQ_BIN_SHIFTS];
    const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    size_t i = 0;
    for (unsigned j = 0; j < NQ_BIN_SHIFTS; j++)
        sh[j] = _mm_cvtsi32_si128(shape.shift[j]);
    for (; i + 8 <= n; i += 8) {
        __m256i b[2];
        for (unsigned h = 0; h < 2; h++) {
            const __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(k + i + 4 * h));
            const __m256i run2 = _mm256_and_si256(_mm256_srl_epi64(x, sh[NQ_BIN_CUT2]), mask2);
            const __m256i bucket =
                _mm256_or_si256(_mm256_and_si256(_mm256_srl_epi64(x, sh[NQ_BIN_CUT1]), mask1),
                                _mm256_sll_epi64(run2, sh[NQ_BIN_RUN1]));
            const __m256i cls =
                _mm256_add_epi64(_mm256_and_si256(_mm256_srl_epi64(x, sh[NQ_BIN_FLAG1]), one),
                                 _mm256_srl_epi64(x, sh[NQ_BIN_FLAG2]));
            b[h] = _mm256_permutevar8x32_epi32(
                _mm256_or_si256(bucket, _mm256_sll_epi64(cls, sh[NQ_BIN_RUNS])), low_halves);
        }
        _mm_storeu_si128((__m128i *)(void *)(bin + i),
                         _mm_packus_epi32(_mm256_castsi256_si128(b[0]),
                                          _mm256_castsi256_si128(b[1])));
    }
    nq_join_bins_scalar(sv, k + i, n - i, classes, bin + i);
}

#endif /* NQ_X86 */
