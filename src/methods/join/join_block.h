/*
 * join_block.h - the bit-sliced block of stored keys, and the job of the
 * kernels that fill it, match against it and build keys from pieces: the
 * function types and the row of one SIMD level (struct nq_join_kernel).
 * Types and static inline helpers only; the rows are join_kernel.c's, the
 * kernels join_scalar.c's, join_avx2.c's and join_avx512.c's. Not public.
 */
#ifndef NQ_JOIN_BLOCK_H
#define NQ_JOIN_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include "join_half.h"

typedef struct nq_join_kernel nq_join_kernel;

/* Patterns per block of the bit-sliced table: 8 words of 64 bits. */
#define NQ_JOIN_BLOCK 512u
#define NQ_JOIN_WORDS (NQ_JOIN_BLOCK / 64u)
/* Key bits per table chunk, and table entries per chunk. */
#define NQ_JOIN_CHUNK_BITS 6u
#define NQ_JOIN_CHUNK_SIZE (1u << NQ_JOIN_CHUNK_BITS)
/* Keys are at most 54 bits (n = 28): 9 chunks. */
#define NQ_JOIN_MAX_CHUNKS 9u

/* One block of stored patterns, bit-sliced: entry [c][v] has bit i of
 * word w set when pattern 64 w + i of the block shares no bit with v placed
 * at chunk c (v << NQ_JOIN_CHUNK_BITS * c), and exists. */
typedef struct nq_join_block {
    /* on 64 bytes (a row), so that its size is a multiple of the
     * alignment that aligned_alloc() is given */
    _Alignas(64) uint64_t mask[NQ_JOIN_MAX_CHUNKS][NQ_JOIN_CHUNK_SIZE][NQ_JOIN_WORDS];
    unsigned words; /* words of each row that hold keys: (count + 63) / 64.
                       When it is 4 or less, the AVX2 and AVX-512 fills
                       leave words 4 to 7 of every row as they were, and
                       their matches leave them out; the portable fill
                       writes every word (0 past the keys), and the
                       portable match, which reads them all, is only ever
                       given its own fill's blocks. */
} nq_join_block;
_Static_assert(sizeof(nq_join_block) % 64 == 0, "aligned_alloc(64) needs a multiple of 64");

/* Fills *block from up to NQ_JOIN_BLOCK keys (count of them), with chunks
 * chunks. */
typedef void (*nq_join_fill_fn)(nq_join_block *block, const uint64_t *keys,
                                size_t count, unsigned chunks);

/* The number of pairs (block pattern, item) whose keys share no bit, over
 * items[0..count), each item's pairs weighted: shifted left by
 * (shifts >> 2 f) & 3, f being the item's class flags (bits 62 and 63,
 * which no chunk reads). shifts 0: every pair counts once. */
typedef uint64_t (*nq_join_match_fn)(const nq_join_block *block,
                                     unsigned chunks, const uint64_t *items,
                                     size_t count, unsigned shifts);

/* The shift of an item's pairs (see nq_join_match_fn). */
static inline unsigned nq_join_item_shift(unsigned shifts, uint64_t x)
{
    return shifts >> (2u * (unsigned)(x >> NQ_JOIN_CLASS_SHIFT)) & 3u;
}


/* Copies into dst the pieces of src[0 .. n) (table entries) that the
 * frame f does not bar (with f->keep, all of them, marked as it says),
 * moved into the frame, with their squeezed key shares; dst has room for
 * n + 8. @return how many were copied. */
typedef size_t (*nq_join_take_fn)(nq_join_piece_list *dst, const uint64_t *src,
                                  size_t n, const nq_join_frame *f);

/* For each piece i < no of `out` in turn, writes out->key[i] | in->key[j]
 * for every piece j < n of `in` whose diagonals miss piece i's; dst has
 * room for no * n + 8. @return how many were written. */
typedef size_t (*nq_join_pairs_fn)(uint64_t *dst, const nq_join_piece_list *out,
                                   size_t no, const nq_join_piece_list *in,
                                   size_t n);

/* The bin of each squeezed key k[0 .. n) into bin[], in list order: its
 * bucket (nq_join_bucket()), and with classes > 1 its class above that
 * (class * sv->buckets + bucket, classes x buckets fitting 16 bits). */
typedef void (*nq_join_bins_fn)(const nq_join_sieve *sv, const uint64_t *k, size_t n,
                                unsigned classes, uint16_t *bin);

/* The kernels of one level. match_vpopcnt, when not NULL, is a faster
 * match that needs VPOPCNTDQ beyond the level (nq_cpu_has_vpopcnt()).
 * fill_items (fill_items_vpopcnt with that match): what filling a block
 * costs, in items that the level's match meets, the weight of the cost
 * model's fills (join_profile.c), measured as the join_kernel.c says. */
struct nq_join_kernel {
    nq_join_take_fn take;
    nq_join_pairs_fn pairs;
    nq_join_fill_fn fill;
    nq_join_match_fn match;
    nq_join_match_fn match_vpopcnt;
    nq_join_bins_fn bins;
    double fill_items, fill_items_vpopcnt;
    int rows_at_once; /* take a row set's pieces in one call where they
                         fit (faster with wide lanes; one piece at a time,
                         the cells' takes that drop barred pieces are) */
};


/* Declares the five kernels of one SIMD level, each of the type above:
 * nq_join_take_LEVEL, nq_join_pairs_LEVEL, nq_join_fill_LEVEL,
 * nq_join_match_LEVEL and nq_join_bins_LEVEL (join_scalar.h, join_avx2.h,
 * join_avx512.h). */
#define NQ_JOIN_LEVEL_KERNELS(level)                                                   \
    size_t nq_join_take_##level(nq_join_piece_list *dst, const uint64_t *src, size_t n, \
                                const nq_join_frame *f);                                \
    size_t nq_join_pairs_##level(uint64_t *dst, const nq_join_piece_list *out,          \
                                 size_t no, const nq_join_piece_list *in, size_t n);    \
    void nq_join_fill_##level(nq_join_block *block, const uint64_t *keys, size_t count, \
                              unsigned chunks);                                         \
    uint64_t nq_join_match_##level(const nq_join_block *block, unsigned chunks,         \
                                   const uint64_t *items, size_t count, unsigned shifts); \
    void nq_join_bins_##level(const nq_join_sieve *sv, const uint64_t *k, size_t n,     \
                              unsigned classes, uint16_t *bin)

/* The match to use from row k on this CPU: k->match_vpopcnt where the CPU
 * runs it (vpopcnt: nq_cpu_has_vpopcnt(), asked once by the caller), else
 * k->match. */
static inline nq_join_match_fn nq_join_match_of(const nq_join_kernel *k,
                                                int vpopcnt)
{
    return k->match_vpopcnt && vpopcnt ? k->match_vpopcnt : k->match;
}

/* The weight of a fill against the match that nq_join_match_of() picks. */
static inline double nq_join_fill_items_of(const nq_join_kernel *k, int vpopcnt)
{
    return k->match_vpopcnt && vpopcnt ? k->fill_items_vpopcnt : k->fill_items;
}

#endif /* NQ_JOIN_BLOCK_H */
