/*
 * join.h - internal interface of the join counting method (join.c, with
 * join_quarter.c for the half-boards' keys, join_sieve.c for bucketing
 * them and join_match.c for counting disjoint pairs). Not public, never
 * installed.
 *
 * A plan is the ordered list of work units for one board size; a unit is a
 * run of row splits, solved on its own, by any thread, at any SIMD level,
 * always with the same result. See the design note at the top of join.c.
 */
#ifndef NQ_JOIN_H
#define NQ_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "method.h"

/* Bumped whenever the unit list of some n changes (order, shape, count),
 * because checkpoints and "part k of m" runs address units by index. */
#define NQ_JOIN_UNIT_LIST_VERSION 1u

typedef struct nq_join_plan nq_join_plan;

/* Builds the ordered unit list for n (0..NQ_MAX_N).
 * @return NQ_OK, NQ_ERANGE, NQ_ENOMEM, or NQ_EINVAL for a NULL out. What
 *         a count of the plan will take is the method row's fit_memory. */
int nq_join_plan_build(nq_join_plan **out, unsigned n);

/* The same plan, but its units walk the half-boards instead of using the
 * quarter table (as when the table would not fit in memory); for tests. */
int nq_join_plan_build_walk(nq_join_plan **out, unsigned n);

/* Makes the units of the plan sort keys on `cuts` bucket bits (0 ..
 * NQ_JOIN_MAX_CUTS) whatever the lists' sizes, or on as many as their
 * sizes call for (-1, the default); for tests, since every choice must
 * give the same counts. Not while units of the plan run.
 * @return NQ_OK, NQ_EINVAL (NULL plan, cuts out of range). */
int nq_join_plan_set_cuts(nq_join_plan *plan, int cuts);

/* @return the number of units of the plan (0 for NULL). */
uint64_t nq_join_plan_size(const nq_join_plan *plan);

/* Solves unit `unit` (< size) at SIMD level `simd` (never AUTO); fills
 * out->total (already weighted by symmetry) and sets out->unique to 0.
 * Polls *stop every few milliseconds of work; a raised flag ends the call
 * with NQ_ECANCELED and leaves out untouched. Thread-safe: each call owns
 * its scratch memory.
 * @return NQ_OK, NQ_ECANCELED, NQ_ENOMEM, NQ_EINVAL (NULL plan/out, unit
 *         out of range, bad level), NQ_EUNSUPPORTED (level not on this CPU). */
int nq_join_solve_unit(const nq_join_plan *plan, uint64_t unit, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out);

void nq_join_plan_free(nq_join_plan *plan);

/* Upper bound, in bytes, of the scratch memory one unit of size n takes
 * (measured peaks up to n = 20, extrapolated beyond; 0 for n < 4).
 * A count with T threads needs about T times this. */
uint64_t nq_join_unit_memory(unsigned n);

/* ------------------------------------------------------------------------
 * Between join.c and its helpers (join_quarter.c, join_sieve.c,
 * join_match.c) only.
 * ------------------------------------------------------------------------ */

/* A growing list of half-board keys. */
typedef struct nq_join_keys {
    uint64_t *keys;
    size_t count, cap;
} nq_join_keys;

/* Makes room for `more` keys after the first count. @return NQ_OK, NQ_ENOMEM. */
int nq_join_keys_reserve(nq_join_keys *k, size_t more);

/* The placements of non-attacking queens on a rows x cols board, filed by
 * (row set, column set): cell (R, C) is entry[start[i] .. start[i + 1]),
 * i = R << cols | C; an entry holds the diagonals r + c in its low 32 bits
 * and c - r + rows - 1 in its high 32 bits. See join_quarter.c. */
typedef struct nq_join_quarter {
    unsigned rows, cols;
    uint32_t *start;
    uint64_t *entry;
    size_t count;
    uint32_t largest; /* entries of the fullest cell */
} nq_join_quarter;

/* Builds the table, unless it would take more than max_bytes; polls *stop
 * (may be NULL) every few milliseconds.
 * @return NQ_OK, NQ_ENOMEM (too large, or out of memory), NQ_ECANCELED. */
int nq_join_quarter_build(nq_join_quarter *q, unsigned rows, unsigned cols,
                          uint64_t max_bytes, const nq_stop_flag *stop);
void nq_join_quarter_free(nq_join_quarter *q);

/* The bytes nq_join_quarter_build() would take for a rows x cols table,
 * counted by a walk that stops once they pass `cap`; UINT64_MAX when they
 * pass cap, or more entries than the index addresses. */
uint64_t nq_join_quarter_bytes(unsigned rows, unsigned cols, uint64_t cap);

/* Pieces of one cell that a half can use: their two diagonal masks in
 * the half's frames, and their share of the key. */
typedef struct nq_join_piece_list {
    uint64_t *d1, *d2, *key;
} nq_join_piece_list;

/* Scratch of nq_join_half_keys: two lists with room for `largest` + 8
 * pieces each. */
typedef struct nq_join_pieces {
    nq_join_piece_list top, bottom;
} nq_join_pieces;

/* Most bucket bits, and classes of keys (none, one or both long
 * diagonals). */
#define NQ_JOIN_MAX_CUTS 6u
#define NQ_JOIN_MAX_BUCKETS (1u << NQ_JOIN_MAX_CUTS)
#define NQ_JOIN_MAX_CLASSES 3u

/* How a split's keys are squeezed and bucketed (join_sieve.c). */
typedef struct nq_join_sieve {
    uint8_t hole[64];     /* key bits removed, highest first */
    unsigned nholes;
    unsigned class1, class2; /* key bits (before removal) that class a key */
    uint64_t has_class;   /* 1 when keys are classed, else 0 */
    unsigned bits;        /* key bits left */
    unsigned left1;       /* of which of direction 1 */
    unsigned cut1, run1;  /* bucket bits: run1 bits from cut1 of the */
    unsigned cut2, run2;  /* squeezed key, then run2 bits from cut2 */
    unsigned buckets;     /* 1 << (run1 + run2) */
} nq_join_sieve;

/* Where a key's class flags go: bits 62 and 63. */
#define NQ_JOIN_CLASS_SHIFT 62u

/* The key without the holes of sv, with its class flags (whether it holds
 * each class bit) in bits 62 and 63. Linear: the squeeze of a | b is the
 * OR of the squeezes, so it is done per piece rather than per key. */
static inline uint64_t nq_join_squeeze(const nq_join_sieve *sv, uint64_t x)
{
    uint64_t flags = ((x >> sv->class1 & sv->has_class) |
                      (x >> sv->class2 & sv->has_class) << 1) << NQ_JOIN_CLASS_SHIFT;
    for (unsigned i = 0; i < sv->nholes; i++) {
        const uint64_t below = (1ull << sv->hole[i]) - 1u;
        x = (x & below) | ((x >> 1) & ~below);
    }
    return x | flags;
}

/* Where a half-board lies: columns c0 .. c0 + h - 1 of an n board; keys
 * hold board diagonals lo1 .. lo1 + len1 - 1 of direction r + c in bits
 * 0 .. len1 - 1, then lo2 .. lo2 + len2 - 1 of direction c - r + n - 1
 * (len1 + len2 <= 54), squeezed; no queen may stand on the diagonals in
 * bar1, bar2. */
typedef struct nq_join_half {
    unsigned n, c0, lo1, len1, lo2, len2;
    uint64_t bar1, bar2;
    const nq_join_sieve *sieve; /* keys are squeezed by it */
} nq_join_half;

/* Lists into *out the keys of every placement of the half g on `rows`
 * (board rows), from the table q (q->rows rows above the cut, the same
 * number or one less below it), with the code of SIMD level simd (not
 * AUTO; only a level the CPU has). @return NQ_OK, NQ_ENOMEM. */
int nq_join_half_keys(nq_join_keys *out, nq_join_pieces *scratch,
                      const nq_join_quarter *q, const nq_join_half *g,
                      uint32_t rows, nq_simd simd);

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
    uint64_t mask[NQ_JOIN_MAX_CHUNKS][NQ_JOIN_CHUNK_SIZE][NQ_JOIN_WORDS];
} nq_join_block;

/* Fills *block from up to NQ_JOIN_BLOCK keys (count of them), with chunks
 * chunks. */
void nq_join_block_fill(nq_join_block *block, const uint64_t *keys,
                        size_t count, unsigned chunks);

typedef void (*nq_join_fill_fn)(nq_join_block *block, const uint64_t *keys,
                                size_t count, unsigned chunks);

/* Kernel: the number of pairs (block pattern, item) whose keys share no
 * bit, over items[0..count). */
typedef uint64_t (*nq_join_match_fn)(const nq_join_block *block,
                                     unsigned chunks, const uint64_t *items,
                                     size_t count);

uint64_t nq_join_match_scalar(const nq_join_block *block, unsigned chunks,
                              const uint64_t *items, size_t count);
#if defined(__x86_64__) || defined(__i386__)
/* Only call when nq_cpu_simd_best() reaches the level (AVX2, AVX-512), and
 * nq_join_match_avx512() only when nq_join_has_vpopcnt() too. */
uint64_t nq_join_match_avx2(const nq_join_block *block, unsigned chunks,
                            const uint64_t *items, size_t count);
uint64_t nq_join_match_avx512(const nq_join_block *block, unsigned chunks,
                              const uint64_t *items, size_t count);
/* nq_join_block_fill() compiled for AVX2 (same CPU condition). */
void nq_join_block_fill_avx2(nq_join_block *block, const uint64_t *keys,
                             size_t count, unsigned chunks);
/* nq_join_block_fill() on AVX-512 (same CPU condition). */
void nq_join_block_fill_avx512(nq_join_block *block, const uint64_t *keys,
                               size_t count, unsigned chunks);
#endif
/* Nonzero when this CPU can run nq_join_match_avx512(): the AVX-512 level
 * and VPOPCNTDQ. */
int nq_join_has_vpopcnt(void);

/* ------------------------------------------------------------------------
 * Between join.c and the sieve (join_sieve.c) only.
 * ------------------------------------------------------------------------ */

/* Sets the holes of *sv: keys of len1 + len2 bits whose bits `holes` no
 * pair can clash on, and the key bits `class_bits` (two, or 0 for none)
 * that class a west key. */
void nq_join_sieve_holes(nq_join_sieve *sv, uint64_t holes, uint64_t class_bits,
                         unsigned len1, unsigned len2);

/* Sets `cuts` (<= NQ_JOIN_MAX_CUTS) bucket bits near the middle of each
 * direction's bits of the squeezed keys (fewer when the key is shorter). */
void nq_join_sieve_cuts(nq_join_sieve *sv, unsigned cuts);

/* Sorts squeezed keys (nq_join_squeeze) by (class, bucket), the class
 * being how many class flags a key holds when `classes` is 3 (with 1, all
 * keys are of class 0), and clears the flags. The sorted keys end in
 * keys->keys; tmp (room for keys->count) gets the old array.
 * off[c * buckets + b] is where bin (c, b) starts, off[classes * buckets]
 * the end. */
void nq_join_sieve_sort(const nq_join_sieve *sv, nq_join_keys *keys,
                        nq_join_keys *tmp, unsigned classes, size_t *off);

/* What counts pairs against one block. */
typedef struct nq_join_matcher {
    nq_join_block *block;
    nq_join_fill_fn fill;
    nq_join_match_fn match;
    unsigned chunks;
    const nq_stop_flag *stop;
} nq_join_matcher;

/* Adds to *out the disjoint pairs between stored[soff[0] .. soff[nb]) and
 * items[ioff[0] .. ioff[nb]), both sorted into nb buckets (soff[b], ioff[b]
 * where bucket b starts): each block of stored keys meets only the items
 * of buckets disjoint from one of its own. Polls mt->stop.
 * @return NQ_OK, NQ_ECANCELED. */
int nq_join_sieve_match(const nq_join_matcher *mt, const uint64_t *stored,
                        const size_t *soff, const uint64_t *items,
                        const size_t *ioff, unsigned nb, uint64_t *out);

#endif /* NQ_JOIN_H */
