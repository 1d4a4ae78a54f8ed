/*
 * join_slices.h - the bit-sliced block of stored keys, as the kernels of
 * every level fill and read it (see join_scalar.c). Static inline helpers
 * for join_scalar.c, join_avx2.c and join_avx512.c only.
 */
#ifndef NQ_JOIN_SLICES_H
#define NQ_JOIN_SLICES_H

#include <string.h>

#include "join_block.h"

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
            /* through a local row, which a compiler can see apart from
             * `from` and so fill with vector lanes */
            uint64_t row[NQ_JOIN_WORDS];
            for (unsigned w = 0; w < NQ_JOIN_WORDS; w++)
                row[w] = from[w] & ~s[w];
            memcpy(m[v], row, sizeof row);
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

/* Word w of the first `bits` slices and of `valid`, where the block's
 * keys end before word w: no key. */
static NQ_ALWAYS_INLINE void no_keys_in_word(uint64_t (*set)[NQ_JOIN_WORDS], uint64_t *valid,
                                             size_t w, unsigned bits)
{
    for (unsigned b = 0; b < bits; b++)
        set[b][w] = 0;
    valid[w] = 0;
}

/* The words of each row that count keys hold (nq_join_block.words). */
static inline unsigned block_words(size_t count)
{
    return (unsigned)((count + 63) / 64);
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
        if (n == 0) { /* a block's last words are often empty */
            no_keys_in_word(set, valid, w, 64);
            continue;
        }
        valid[w] = n == 64 ? ~0ull : (1ull << n) - 1u;
        for (size_t i = 0; i < 64; i++)
            a[i] = i < n ? keys[first + i] : 0;
        transpose64(a);
        for (size_t b = 0; b < 64; b++)
            set[b][w] = a[b];
    }
    fill_chunks(block, (const uint64_t(*)[NQ_JOIN_WORDS])set, valid, chunks);
    block->words = block_words(count);
}

/* The table entry of chunk c for key x. */
static inline const uint64_t *entry(const nq_join_block *block, unsigned c,
                                    uint64_t x)
{
    return block->mask[c][(x >> (c * NQ_JOIN_CHUNK_BITS)) &
                          (NQ_JOIN_CHUNK_SIZE - 1u)];
}

/* What a bins kernel (nq_join_bins_fn) shifts and masks by: a key's bin
 * is (x >> cut1 & mask1) | (x >> cut2 & mask2) << run1, plus its class
 * ((x >> flag1 & 1) + (x >> flag2)) << runs. Without classes the flags'
 * shifts are 64, which the vector shifts turn into 0. */
enum { NQ_BIN_CUT1, NQ_BIN_CUT2, NQ_BIN_RUN1, NQ_BIN_RUNS, NQ_BIN_FLAG1, NQ_BIN_FLAG2,
       NQ_BIN_SHIFTS };
typedef struct nq_join_bin_shape {
    int shift[NQ_BIN_SHIFTS];
    uint64_t mask1, mask2;
} nq_join_bin_shape;

static inline nq_join_bin_shape nq_join_bin_shape_of(const nq_join_sieve *sv, unsigned classes)
{
    const int flags = classes > 1 ? (int)NQ_JOIN_CLASS_SHIFT : 64;
    nq_join_bin_shape b = { { (int)sv->cut1, (int)sv->cut2, (int)sv->run1,
                              (int)(sv->run1 + sv->run2), flags, flags < 64 ? flags + 1 : 64 },
                            (1ull << sv->run1) - 1u, (1ull << sv->run2) - 1u };
    return b;
}

#endif /* NQ_JOIN_SLICES_H */
