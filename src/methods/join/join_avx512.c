/*
 * join_avx512.c - the join method's kernels on AVX-512: eight 64-bit
 * lanes.
 *
 * Taking and pairing pieces test eight pieces a step (the last step with
 * a mask of the lanes left), pack the passing lanes to the front with a
 * compress and store the whole register. The block fill cuts 64 keys into
 * bytes, regroups them so that one register holds one byte of every key,
 * and turns each bit into a 64-bit mask in one test. The match ANDs one
 * 512-bit register per chunk and counts with VPOPCNTQ, which needs
 * VPOPCNTDQ beyond the level: without it the level's row takes the AVX2
 * match (join_kernel.c). Only entered where nq_cpu_simd_best() reaches
 * AVX-512 (see join_kernel.h).
 */
#include "join_avx512.h"

#include "join_slices.h"

#if NQ_X86

#include <immintrin.h>


NQ_INLINE_AVX512 __mmask8 first_lanes(size_t left)
{
    return (__mmask8)(left >= 8 ? 0xffu : (1u << left) - 1u);
}

/* nq_join_take_scalar(), eight pieces a step: the usable ones are packed to the
 * front of a register (compress) and the whole register is stored. */
NQ_FN_AVX512 size_t nq_join_take_avx512(nq_join_piece_list *dst, const uint64_t *src,
                                       size_t n, const nq_join_frame *f)
{
    const nq_join_sieve *sv = f->sieve;
    const __m512i low = _mm512_set1_epi64(0xffffffffll);
    const __m512i bar1 = _mm512_set1_epi64((long long)f->bar1);
    const __m512i bar2 = _mm512_set1_epi64((long long)f->bar2);
    const __m512i mask1 = _mm512_set1_epi64((long long)f->mask1);
    const __m512i mask2 = _mm512_set1_epi64((long long)f->mask2);
    const __m512i one = _mm512_set1_epi64((long long)sv->has_class);
    const __m512i own = _mm512_set1_epi64((long long)f->own);
    const __m512i other = _mm512_set1_epi64((long long)f->other);
    const __m512i need = _mm512_set1_epi64((long long)f->need);
    const __m512i plain = _mm512_set1_epi64((long long)NQ_JOIN_MARK_PLAIN);
    const __mmask8 need_lanes = f->need ? 0xffu : 0u;
    size_t m = 0;
    for (size_t j = 0; j < n; j += 8) {
        const __mmask8 live = first_lanes(n - j);
        const __m512i e = _mm512_maskz_loadu_epi64(live, src + j);
        __m512i d1 = _mm512_slli_epi64(_mm512_and_si512(e, low), f->shift1);
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
        d1 = _mm512_mask_or_epi64(d1, need_lanes & _mm512_testn_epi64_mask(flags, need),
                                  d1, plain);
        if (f->keep) { /* every piece, the barred ones marked */
            _mm512_storeu_si512(dst->d1 + j, _mm512_mask_or_epi64(
                _mm512_or_si512(d1, own), live & ~ok, _mm512_or_si512(d1, own), other));
            _mm512_storeu_si512(dst->d2 + j, d2);
            _mm512_storeu_si512(dst->key + j, _mm512_or_si512(x, flags));
            m += (unsigned)__builtin_popcount(live);
            continue;
        }
        _mm512_storeu_si512(dst->d1 + m, _mm512_maskz_compress_epi64(ok, d1));
        _mm512_storeu_si512(dst->d2 + m, _mm512_maskz_compress_epi64(ok, d2));
        _mm512_storeu_si512(dst->key + m, _mm512_maskz_compress_epi64(ok, _mm512_or_si512(x, flags)));
        m += (unsigned)__builtin_popcount(ok);
    }
    return m;
}

/* One step of the pairs: writes to dst, packed to the front, the keys
 * vk | key of the lanes of `live` whose diagonals (d1, d2) miss the outer
 * piece's (vm1, vm2); @return how many. */
static inline __attribute__((always_inline)) NQ_FN_AVX512 unsigned
pack_fits(uint64_t *dst, __m512i vm1, __m512i vm2, __m512i vk, __m512i d1, __m512i d2,
          __m512i key, __mmask8 live)
{
    const __mmask8 fit = _mm512_mask_testn_epi64_mask(
        live, _mm512_or_si512(_mm512_and_si512(vm1, d1), _mm512_and_si512(vm2, d2)),
        _mm512_set1_epi64(-1));
    _mm512_storeu_si512(dst, _mm512_maskz_compress_epi64(fit, _mm512_or_si512(vk, key)));
    return (unsigned)__builtin_popcount(fit);
}

/* The pairs of out's pieces with an inner list of at most 8 pieces, or
 * with `two`, 16: the inner list is loaded once, into one register or
 * two, and each outer piece only tests it (most inner lists are this
 * short below n = 18: loading them again per outer piece cost a tenth of
 * the join at n = 17). */
static inline __attribute__((always_inline)) NQ_FN_AVX512 size_t
pairs_short(uint64_t *dst, const nq_join_piece_list *out, size_t no,
            const nq_join_piece_list *in, size_t n, const int two)
{
    const __mmask8 l0 = first_lanes(n), l1 = two ? first_lanes(n - 8) : 0;
    const __m512i a1 = _mm512_maskz_loadu_epi64(l0, in->d1);
    const __m512i a2 = _mm512_maskz_loadu_epi64(l0, in->d2);
    const __m512i ak = _mm512_maskz_loadu_epi64(l0, in->key);
    const __m512i b1 = _mm512_maskz_loadu_epi64(l1, in->d1 + 8);
    const __m512i b2 = _mm512_maskz_loadu_epi64(l1, in->d2 + 8);
    const __m512i bk = _mm512_maskz_loadu_epi64(l1, in->key + 8);
    /* in registers: the stores to dst do not touch them */
    const uint64_t *od1 = out->d1, *od2 = out->d2, *okey = out->key;
    size_t m = 0;
    for (size_t i = 0; i < no; i++) {
        const __m512i vm1 = _mm512_set1_epi64((long long)od1[i]);
        const __m512i vm2 = _mm512_set1_epi64((long long)od2[i]);
        const __m512i vk = _mm512_set1_epi64((long long)okey[i]);
        m += pack_fits(dst + m, vm1, vm2, vk, a1, a2, ak, l0);
        if (two)
            m += pack_fits(dst + m, vm1, vm2, vk, b1, b2, bk, l1);
    }
    return m;
}

/* nq_join_pairs_scalar(), eight pieces a step, packed as
 * nq_join_take_avx512(). */
NQ_FN_AVX512 size_t nq_join_pairs_avx512(uint64_t *dst, const nq_join_piece_list *out,
                                        size_t no, const nq_join_piece_list *in,
                                        size_t n)
{
    /* the lists' arrays in registers: the stores to dst do not touch them */
    const uint64_t *od1 = out->d1, *od2 = out->d2, *okey = out->key;
    const uint64_t *id1 = in->d1, *id2 = in->d2, *ikey = in->key;
    size_t m = 0;
    if (n <= 8)
        return pairs_short(dst, out, no, in, n, 0);
    if (n <= 16)
        return pairs_short(dst, out, no, in, n, 1);
    for (size_t i = 0; i < no; i++) {
        const __m512i vm1 = _mm512_set1_epi64((long long)od1[i]);
        const __m512i vm2 = _mm512_set1_epi64((long long)od2[i]);
        const __m512i vk = _mm512_set1_epi64((long long)okey[i]);
        for (size_t j = 0; j < n; j += 8) {
            const __mmask8 live = first_lanes(n - j);
            m += pack_fits(dst + m, vm1, vm2, vk, _mm512_maskz_loadu_epi64(live, id1 + j),
                           _mm512_maskz_loadu_epi64(live, id2 + j),
                           _mm512_maskz_loadu_epi64(live, ikey + j), live);
        }
    }
    return m;
}

/* The bit counts of the row of item x: its chunks' entries ANDed, the
 * words of `lanes` counted. */
static inline __attribute__((always_inline)) NQ_FN_AVX512_VPOPCNT __m512i
row_counts(const nq_join_block *block, const unsigned chunks, uint64_t x, __mmask8 lanes)
{
    __m512i a = _mm512_loadu_si512(entry(block, 0, x));
    for (unsigned c = 1; c < chunks; c++)
        a = _mm512_and_si512(a, _mm512_loadu_si512(entry(block, c, x)));
    return _mm512_maskz_popcnt_epi64(lanes, a);
}

/* nq_join_match_avx512() with `chunks` a constant where it is inlined,
 * so that the loop over a key's chunks unrolls (its counter and branch
 * were a third of the match's time at n = 16). */
static inline __attribute__((always_inline)) NQ_FN_AVX512_VPOPCNT uint64_t
match_chunks(const nq_join_block *block, const unsigned chunks, const uint64_t *items,
             size_t count, unsigned shifts, __mmask8 lanes)
{
    __m512i sum = _mm512_setzero_si512();
    if (shifts) /* weighted pairs: the counts shifted item by item */
        for (size_t i = 0; i < count; i++)
            sum = _mm512_add_epi64(
                sum, _mm512_sll_epi64(row_counts(block, chunks, items[i], lanes),
                                      _mm_cvtsi32_si128((int)nq_join_item_shift(shifts, items[i]))));
    else
        for (size_t i = 0; i < count; i++)
            sum = _mm512_add_epi64(sum, row_counts(block, chunks, items[i], lanes));
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}

NQ_FN_AVX512_VPOPCNT uint64_t nq_join_match_avx512(const nq_join_block *block,
                                           unsigned chunks,
                                           const uint64_t *items, size_t count,
                                           unsigned shifts)
{
    /* a block of at most 256 keys: its rows' high words are left out */
    const __mmask8 lanes = block->words <= NQ_JOIN_WORDS / 2 ? 0x0f : 0xff;
    switch (chunks) { /* keys of at most 54 bits: 1 to 9 chunks */
    case 1: return match_chunks(block, 1, items, count, shifts, lanes);
    case 2: return match_chunks(block, 2, items, count, shifts, lanes);
    case 3: return match_chunks(block, 3, items, count, shifts, lanes);
    case 4: return match_chunks(block, 4, items, count, shifts, lanes);
    case 5: return match_chunks(block, 5, items, count, shifts, lanes);
    case 6: return match_chunks(block, 6, items, count, shifts, lanes);
    case 7: return match_chunks(block, 7, items, count, shifts, lanes);
    case 8: return match_chunks(block, 8, items, count, shifts, lanes);
    case 9: return match_chunks(block, 9, items, count, shifts, lanes);
    default: return match_chunks(block, chunks, items, count, shifts, lanes);
    }
}

/* The bit slices of 64 keys at once: the keys are cut into bytes, the
 * bytes regrouped so that one register holds byte j of all 64 keys (in a
 * fixed order of the keys, the same for every slice, which a count does
 * not see), and each bit of a byte becomes a 64-bit mask in one test.
 * Keys use at most 54 bits, so bit 63 marks the keys that exist. */
NQ_FN_AVX512 static void slice64_avx512(uint64_t set[][NQ_JOIN_WORDS],
                                        uint64_t *valid, size_t w,
                                        const uint64_t *keys, size_t count,
                                        unsigned bits)
{
    const __m512i pair = _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15));
    const __m512i exists = _mm512_set1_epi64((long long)(1ull << 63));
    __m512i r[8], t[8], u[8], v[8];
    for (unsigned g = 0; g < 8; g++) {
        size_t first = 8 * g;
        __mmask8 live = (__mmask8)(first >= count ? 0u
                                   : count - first >= 8 ? 0xffu
                                                        : (1u << (count - first)) - 1u);
        r[g] = _mm512_maskz_loadu_epi64(live, keys + first);
        r[g] = _mm512_mask_or_epi64(r[g], live, r[g], exists);
        r[g] = _mm512_shuffle_epi8(r[g], pair);
    }
    for (unsigned g = 0; g < 8; g += 2) {
        t[g] = _mm512_unpacklo_epi16(r[g], r[g + 1]);
        t[g + 1] = _mm512_unpackhi_epi16(r[g], r[g + 1]);
    }
    for (unsigned g = 0; g < 8; g += 4) {
        u[g] = _mm512_unpacklo_epi32(t[g], t[g + 2]);
        u[g + 1] = _mm512_unpackhi_epi32(t[g], t[g + 2]);
        u[g + 2] = _mm512_unpacklo_epi32(t[g + 1], t[g + 3]);
        u[g + 3] = _mm512_unpackhi_epi32(t[g + 1], t[g + 3]);
    }
    for (unsigned g = 0; g < 4; g++) {
        v[2 * g] = _mm512_unpacklo_epi64(u[g], u[g + 4]);
        v[2 * g + 1] = _mm512_unpackhi_epi64(u[g], u[g + 4]);
    }
    for (unsigned b = 0; b < bits; b++)
        set[b][w] = _mm512_test_epi8_mask(v[b / 8], _mm512_set1_epi8((char)(1u << (b % 8))));
    valid[w] = _mm512_test_epi8_mask(v[7], _mm512_set1_epi8((char)0x80));
}

NQ_FN_AVX512 void nq_join_fill_avx512(nq_join_block *block, const uint64_t *keys,
                                     size_t count, unsigned chunks)
{
    uint64_t set[NQ_JOIN_MAX_CHUNKS * NQ_JOIN_CHUNK_BITS][NQ_JOIN_WORDS];
    uint64_t valid[NQ_JOIN_WORDS];
    const unsigned bits = chunks * NQ_JOIN_CHUNK_BITS;
    for (size_t w = 0; w < NQ_JOIN_WORDS; w++) {
        const size_t first = 64 * w;
        if (first >= count) { /* past the keys (most blocks of short lists): no slices */
            no_keys_in_word(set, valid, w, bits);
            continue;
        }
        slice64_avx512(set, valid, w, keys + first, count - first, bits);
    }
    block->words = block_words(count);
    for (unsigned c = 0; c < chunks; c++) {
        __m512i *m = (__m512i *)(void *)block->mask[c];
        m[0] = _mm512_loadu_si512(valid);
        if (block->words <= NQ_JOIN_WORDS / 2) { /* low halves only */
            __m256i *h = (__m256i *)(void *)block->mask[c];
            for (unsigned v = 1; v < NQ_JOIN_CHUNK_SIZE; v++) {
                const unsigned b = c * NQ_JOIN_CHUNK_BITS + NQ_CTZ64(v);
                h[2 * v] = _mm256_andnot_si256(
                    _mm256_loadu_si256((const __m256i *)(const void *)set[b]),
                    h[2 * (v & (v - 1))]);
            }
            continue;
        }
        for (unsigned v = 1; v < NQ_JOIN_CHUNK_SIZE; v++) {
            const unsigned b = c * NQ_JOIN_CHUNK_BITS + NQ_CTZ64(v);
            m[v] = _mm512_andnot_si512(_mm512_loadu_si512(set[b]), m[v & (v - 1)]);
        }
    }
}

/* nq_join_bins_scalar(), eight keys a step: the bucket and class bits by
 * uniform shifts (a class shift of 64 gives 0: no classes), narrowed to
 * 16 bits in the store (VPMOVQW), the last step under a mask. */
NQ_FN_AVX512 void nq_join_bins_avx512(const nq_join_sieve *sv, const uint64_t *k, size_t n,
                                      unsigned classes, uint16_t *bin)
{
    const nq_join_bin_shape shape = nq_join_bin_shape_of(sv, classes);
    const __m512i mask1 = _mm512_set1_epi64((long long)shape.mask1);
    const __m512i mask2 = _mm512_set1_epi64((long long)shape.mask2);
    const __m512i one = _mm512_set1_epi64(1);
    __m128i sh[NQ_BIN_SHIFTS];
    for (unsigned j = 0; j < NQ_BIN_SHIFTS; j++)
        sh[j] = _mm_cvtsi32_si128(shape.shift[j]);
    for (size_t i = 0; i < n; i += 8) {
        const __mmask8 live = first_lanes(n - i);
        const __m512i x = _mm512_maskz_loadu_epi64(live, k + i);
        const __m512i run2 = _mm512_and_si512(_mm512_srl_epi64(x, sh[NQ_BIN_CUT2]), mask2);
        const __m512i bucket =
            _mm512_or_si512(_mm512_and_si512(_mm512_srl_epi64(x, sh[NQ_BIN_CUT1]), mask1),
                            _mm512_sll_epi64(run2, sh[NQ_BIN_RUN1]));
        const __m512i cls =
            _mm512_add_epi64(_mm512_and_si512(_mm512_srl_epi64(x, sh[NQ_BIN_FLAG1]), one),
                             _mm512_srl_epi64(x, sh[NQ_BIN_FLAG2]));
        _mm512_mask_cvtepi64_storeu_epi16(
            bin + i, live, _mm512_or_si512(bucket, _mm512_sll_epi64(cls, sh[NQ_BIN_RUNS])));
    }
}

#endif /* NQ_X86 */
