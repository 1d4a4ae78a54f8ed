/*
 * join_match.c - counting disjoint pairs of keys, bit-sliced.
 *
 * The question asked millions of times per unit: given a key x (the
 * diagonals one half-board occupies) and a list of stored keys (the other
 * half's), how many stored keys share no bit with x? Asked key by key, it
 * is one AND and one compare per pair. Here the stored keys are turned
 * around instead: a block of 512 keys becomes, for every bit position b, a
 * 512-bit mask of the keys that leave b free; the keys disjoint from x are
 * then the AND of the masks of x's bits, and their number one popcount.
 * To cut the number of ANDs, the masks are precombined per chunk of six
 * key bits: entry [c][v] is the AND over the bits of v at chunk c, so a
 * key of k bits costs k/6 ANDs of 512 bits per block, whatever its
 * weight. A block's table (4 KiB per chunk used: 20 to 24 KiB for the
 * keys of n = 18 to 20, 36 KiB at most) stays in the L1 cache while the
 * items of the other half stream past it. Six bits measured faster than
 * four, five or seven at n = 18 to 20 (AVX-512): filling the larger table
 * costs little next to the ANDs it saves.
 *
 * Three kernels do the same sum: portable C, AVX2 (two 256-bit halves and
 * a nibble-table popcount) and AVX-512 (one register and VPOPCNTQ). They
 * are compiled with function-level target attributes and only entered
 * after a CPU check (join.c).
 */
#include "join.h"

#include "cpu.h"

#include <string.h>

#if defined(__GNUC__)
#define NQ_POPCOUNT64(x) ((unsigned)__builtin_popcountll(x))
#define NQ_CTZ64(x) ((unsigned)__builtin_ctzll(x))
#else
static unsigned NQ_POPCOUNT64(uint64_t x)
{
    unsigned c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}
static unsigned NQ_CTZ64(uint64_t x)
{
    unsigned c = 0;
    for (; !(x & 1u); x >>= 1)
        c++;
    return c;
}
#endif

/* The fill's helpers are inlined whole into each fill, so that the AVX2
 * one compiles them for AVX2. */
#if defined(__GNUC__)
#define NQ_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NQ_ALWAYS_INLINE inline
#endif

/* Entry [c][v] from the bit slices: `set` holds, per key bit, the keys
 * that have it, `valid` the keys that exist. */
static NQ_ALWAYS_INLINE void fill_chunks(nq_join_block *restrict block,
                                         const uint64_t (*restrict set)[NQ_JOIN_WORDS],
                                         const uint64_t *restrict valid, unsigned chunks)
{
    const unsigned bits = chunks * NQ_JOIN_CHUNK_BITS;
    for (unsigned c = 0; c < chunks; c++) {
        uint64_t (*m)[NQ_JOIN_WORDS] = block->mask[c];
        memcpy(m[0], valid, NQ_JOIN_WORDS * sizeof *valid);
        for (unsigned v = 1; v < NQ_JOIN_CHUNK_SIZE; v++) {
            const unsigned b = c * NQ_JOIN_CHUNK_BITS + NQ_CTZ64(v);
            const uint64_t *from = m[v & (v - 1)];
            const uint64_t *s = set[b < bits ? b : 63]; /* row 63: no key bit */
            for (unsigned w = 0; w < NQ_JOIN_WORDS; w++)
                m[v][w] = from[w] & ~s[w];
        }
    }
}

/* One round of transpose64(): blocks of j rows and columns trade places. */
static NQ_ALWAYS_INLINE void transpose_round(uint64_t *a, unsigned j, uint64_t m)
{
    for (unsigned base = 0; base < 64; base += 2 * j)
        for (unsigned k = base; k < base + j; k++) {
            const uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
}

/* Transposes a 64 x 64 bit matrix in place: bit j of a[i] trades places
 * with bit i of a[j]. Six rounds, each swapping blocks half as wide: no
 * branch on the data, and every step the same for all rows, so that a
 * compiler can run it on vector lanes. */
static NQ_ALWAYS_INLINE void transpose64(uint64_t a[64])
{
    transpose_round(a, 32, 0x00000000ffffffffull);
    transpose_round(a, 16, 0x0000ffff0000ffffull);
    transpose_round(a, 8, 0x00ff00ff00ff00ffull);
    transpose_round(a, 4, 0x0f0f0f0f0f0f0f0full);
    transpose_round(a, 2, 0x3333333333333333ull);
    transpose_round(a, 1, 0x5555555555555555ull);
}

/* The bit slices of up to 512 keys (count of them), 64 keys at a time,
 * then the table. The same code serves the portable and the AVX2 fill. */
static NQ_ALWAYS_INLINE void fill_body(nq_join_block *block, const uint64_t *keys,
                             size_t count, unsigned chunks)
{
    uint64_t set[64][NQ_JOIN_WORDS];
    uint64_t valid[NQ_JOIN_WORDS];
    for (size_t w = 0; w < NQ_JOIN_WORDS; w++) {
        uint64_t a[64];
        const size_t first = 64 * w;
        const size_t n = first >= count ? 0 : count - first >= 64 ? 64 : count - first;
        for (size_t i = 0; i < 64; i++)
            a[i] = i < n ? keys[first + i] : 0;
        transpose64(a);
        for (size_t b = 0; b < 64; b++)
            set[b][w] = a[b];
        valid[w] = n == 64 ? ~0ull : (1ull << n) - 1u;
    }
    fill_chunks(block, (const uint64_t(*)[NQ_JOIN_WORDS])set, valid, chunks);
}

void nq_join_block_fill(nq_join_block *block, const uint64_t *keys,
                        size_t count, unsigned chunks)
{
    fill_body(block, keys, count, chunks);
}

/* The table entry of chunk c for key x. */
static inline const uint64_t *entry(const nq_join_block *block, unsigned c,
                                    uint64_t x)
{
    return block->mask[c][(x >> (c * NQ_JOIN_CHUNK_BITS)) &
                          (NQ_JOIN_CHUNK_SIZE - 1u)];
}

uint64_t nq_join_match_scalar(const nq_join_block *block, unsigned chunks,
                              const uint64_t *items, size_t count)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        const uint64_t x = items[i];
        uint64_t acc[NQ_JOIN_WORDS];
        memcpy(acc, entry(block, 0, x), sizeof acc);
        for (unsigned c = 1; c < chunks; c++) {
            const uint64_t *e = entry(block, c, x);
            for (unsigned w = 0; w < NQ_JOIN_WORDS; w++)
                acc[w] &= e[w];
        }
        for (unsigned w = 0; w < NQ_JOIN_WORDS; w++)
            total += NQ_POPCOUNT64(acc[w]);
    }
    return total;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define NQ_AVX2_FN __attribute__((target(NQ_TARGET_AVX2)))
#define NQ_AVX512_FN __attribute__((target(NQ_TARGET_AVX512)))
#define NQ_VPOPCNT_FN __attribute__((target(NQ_TARGET_AVX512 ",avx512vpopcntdq")))

NQ_AVX2_FN uint64_t nq_join_match_avx2(const nq_join_block *block,
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

NQ_AVX2_FN void nq_join_block_fill_avx2(nq_join_block *block, const uint64_t *keys,
                                        size_t count, unsigned chunks)
{
    fill_body(block, keys, count, chunks);
}

NQ_VPOPCNT_FN uint64_t nq_join_match_avx512(const nq_join_block *block,
                                           unsigned chunks,
                                           const uint64_t *items, size_t count)
{
    __m512i sum = _mm512_setzero_si512();
    for (size_t i = 0; i < count; i++) {
        const uint64_t x = items[i];
        __m512i a = _mm512_loadu_si512(entry(block, 0, x));
        for (unsigned c = 1; c < chunks; c++)
            a = _mm512_and_si512(a, _mm512_loadu_si512(entry(block, c, x)));
        sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(a));
    }
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}

/* The bit slices of 64 keys at once: the keys are cut into bytes, the
 * bytes regrouped so that one register holds byte j of all 64 keys (in a
 * fixed order of the keys, the same for every slice, which a count does
 * not see), and each bit of a byte becomes a 64-bit mask in one test.
 * Keys use at most 54 bits, so bit 63 marks the keys that exist. */
NQ_AVX512_FN static void slice64_avx512(uint64_t set[][NQ_JOIN_WORDS],
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

NQ_AVX512_FN void nq_join_block_fill_avx512(nq_join_block *block,
                                            const uint64_t *keys, size_t count,
                                            unsigned chunks)
{
    uint64_t set[NQ_JOIN_MAX_CHUNKS * NQ_JOIN_CHUNK_BITS][NQ_JOIN_WORDS];
    uint64_t valid[NQ_JOIN_WORDS];
    const unsigned bits = chunks * NQ_JOIN_CHUNK_BITS;
    for (size_t w = 0; w < NQ_JOIN_WORDS; w++) {
        size_t first = 64 * w;
        slice64_avx512(set, valid, w, keys + (first < count ? first : count),
                       first < count ? count - first : 0, bits);
    }
    for (unsigned c = 0; c < chunks; c++) {
        __m512i *m = (__m512i *)(void *)block->mask[c];
        m[0] = _mm512_loadu_si512(valid);
        for (unsigned v = 1; v < NQ_JOIN_CHUNK_SIZE; v++) {
            const unsigned b = c * NQ_JOIN_CHUNK_BITS + NQ_CTZ64(v);
            m[v] = _mm512_andnot_si512(_mm512_loadu_si512(set[b]), m[v & (v - 1)]);
        }
    }
}

int nq_join_has_vpopcnt(void)
{
    __builtin_cpu_init();
    return nq_cpu_simd_best() >= NQ_SIMD_AVX512 &&
           __builtin_cpu_supports("avx512vpopcntdq");
}
#else
int nq_join_has_vpopcnt(void) { return 0; }
#endif
