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

/* ------------------------------------------------------------------------
 * The cost model of nq_estimate() (join_cost.c, with a hook in join.c).
 * ------------------------------------------------------------------------ */

/* What one split, or a sum of splits, costs: the work the model counts
 * and the thread CPU time each step took. The work of the pairs is
 * modelled from the sizes of the buckets (nq_join_profile_work()). */
typedef struct nq_join_profile {
    int match;            /* in: also count the pairs (else the split is
                             listed, sorted and its pairs tallied only) */
    unsigned probes;      /* in: nonzero: list no keys, but estimate them
                             from this many random walks down each half */
    uint64_t seed;        /* in/out: of the walks */
    double keys;          /* east and west keys (estimated when probed) */
    double work;          /* the model's meetings of blocks and items */
    uint64_t items;       /* items that met a block, times its chunks, and */
    uint64_t fills;       /* blocks filled, times their chunks: exact, and
                             only when not probed */
    double list_seconds;  /* listing the keys */
    double sort_seconds;  /* sorting them, and tallying the pairs */
    double match_seconds; /* counting the pairs (when match) */
    uint64_t total;       /* the solutions counted (when match) */
    struct scratch *keep; /* a walk's scratch, kept for the next split of
                             the same plan */
    uint64_t *pkey;       /* the probes' keys and weights */
    double *pweight;
    size_t pcap;
} nq_join_profile;

/* Frees what prof keeps (prof itself is the caller's). */
void nq_join_profile_end(nq_join_profile *prof);

/* Row splits of the plan (the units are runs of them; 0 below n = 4),
 * its n, and whether its units walk the half-boards (no table). */
uint64_t nq_join_plan_splits(const nq_join_plan *plan);
unsigned nq_join_plan_n(const nq_join_plan *plan);
int nq_join_plan_walks(const nq_join_plan *plan);

/* Counts split number `split` (< nq_join_plan_splits) as a unit would, or
 * only lists its keys when prof->match is 0, adding what it did and took
 * to *prof; with `table` 0 the keys come from the walk, not the table
 * (which is then not built). A split that is not the counted image of
 * its orbit adds nothing. @return NQ_OK, NQ_EINVAL, NQ_EUNSUPPORTED,
 * NQ_ENOMEM, NQ_ECANCELED. */
int nq_join_profile_split(const nq_join_plan *plan, uint64_t split, nq_simd simd,
                          int table, const nq_stop_flag *stop,
                          nq_join_profile *prof);

/* Thread CPU time in seconds (join_cost.c). */
double nq_join_cpu_now(void);

/* Called by the split being profiled: after listing `keys` keys, and for
 * each class of pairs it counts (the bins of the east keys, of the west
 * keys of one class, nb buckets, keys of `chunks` chunks). *t is the time
 * the step began, and is set to now. */
void nq_join_profile_keys(nq_join_profile *prof, uint64_t keys, double *t);
void nq_join_profile_pairs(nq_join_profile *prof, const size_t *east_off,
                           const size_t *west_off, unsigned nb, unsigned chunks,
                           double *t);

/* The probed version of a split (prof->probes nonzero): walks down the
 * halves ge on east_rows and gw on west_rows at random, and sets *east
 * and *west to the estimated numbers of their keys. @return NQ_OK,
 * NQ_ENOMEM. */
int nq_join_probe_halves(nq_join_profile *prof, const nq_join_half *ge,
                         uint32_t east_rows, const nq_join_half *gw,
                         uint32_t west_rows, double *east, double *west);

/* Then, with the sieve's cuts set from those numbers: adds the modelled
 * work of the split's pairs, for `classes` classes of west keys, the
 * class 0 left out when skip0 (as count_split does). */
void nq_join_probe_pairs(nq_join_profile *prof, const nq_join_sieve *sv,
                         unsigned classes, int skip0, unsigned chunks);

/* The method row's cost model (method.h). */
int nq_join_model(void *plan, nq_simd simd, double budget, uint64_t seed,
                  const nq_stop_flag *stop, nq_cost_model *out);

#endif /* NQ_JOIN_H */
