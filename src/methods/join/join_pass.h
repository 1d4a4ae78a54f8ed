/*
 * join_pass.h - a long east list met in passes, one per pattern of a few
 * key bits, each pass meeting only the west keys that its pattern allows
 * (join_pass.c). Not public.
 *
 * When a split's east list takes several batches, every east batch meets
 * the whole west list, listed again for it. Cut in list order, a batch
 * holds keys of every kind, and each west key meets all of it. Cut by a
 * pattern instead (the keys whose chosen bits read p), an east batch holds
 * only keys with the bits of p, so a west key that holds one of them can
 * meet none of its keys and is dropped as it is listed: over all patterns
 * about the product of (1 - share of east keys with the bit x share of
 * west keys with it) of the pairs are left. A pass lists both lists
 * again, with the diagonals of the bits its keys cannot hold barred (the
 * west list: the pattern's ones; the east list: its zeros), so that a
 * listing costs about what it keeps.
 *
 * The patterns come from a count of both lists by the chosen bits (one
 * more listing of each), cut as a tree: a node whose east keys do not fit
 * a batch is split on its next bit; one that fits is split too when the
 * pairs its 1 branch would drop cost more to meet than the listings the
 * new pass adds (NQ_JOIN_PASS_PAIR_PER_KEY). The counts do not depend on
 * any of this.
 */
#ifndef NQ_JOIN_PASS_H
#define NQ_JOIN_PASS_H

#include <stddef.h>
#include <stdint.h>

#include "join_half.h"

/* Most bits of a pattern, and their patterns. */
#define NQ_JOIN_PASS_BITS 10u
#define NQ_JOIN_PASS_PATTERNS (1u << NQ_JOIN_PASS_BITS)
/* Random walks down each half that choose the pattern's bits
 * (nq_join_passes_choose()): little beside the split (at n = 28 the cost
 * model walks eight times as many, and works out their pair work, in
 * 0.15 s a split, where a split met in passes lists its keys for 16 to
 * 19 s). Not the first batch of each list in list order: its keys share
 * their first rows' queens, and so hold bits that most of the list
 * lacks. */
#define NQ_JOIN_PASS_WALKS 16384u
/* The fewest batches of east keys met by pattern: in list order, an east
 * list of a batch and a bit lists the west list only once more, less
 * than counting both lists by pattern costs. */
#define NQ_JOIN_PASS_MIN_BATCHES 2u
/* The thread CPU time of meeting an east key with a west key, over that
 * of listing a key: at n = 28, some 250 s of matching for 10^7 x 2 x 10^8
 * keys (batches of 2^22, 13 bucket bits) against 1.1e-8 s a key listed
 * without the table. Where buckets cut less (shorter lists), a pair costs
 * more, and this splits less than would pay. */
#define NQ_JOIN_PASS_PAIR_PER_KEY 1.1e-5

/* The passes of one split. */
typedef struct nq_join_passes {
    unsigned bits;                         /* bits of the pattern */
    uint8_t bit[NQ_JOIN_PASS_BITS];        /* their places in the squeezed
                                              key, the most useful first */
    uint64_t count[NQ_JOIN_PASS_PATTERNS]; /* east keys of each pattern */
    uint64_t west[NQ_JOIN_PASS_PATTERNS];  /* west keys of each pattern */
    unsigned npass;
    uint64_t walk_key[2][NQ_JOIN_PASS_WALKS]; /* nq_join_passes_choose() */
    double walk_weight[2][NQ_JOIN_PASS_WALKS];
    struct {
        uint16_t depth, prefix;           /* the first `depth` bits read
                                              `prefix` (first bit highest) */
    } pass[NQ_JOIN_PASS_PATTERNS];
} nq_join_passes;

/* Chooses the pattern's bits for squeezed keys of sv from random walks
 * down both halves (nq_join_probe_keys(): east[i] with weight
 * east_weight[i], i < ne, and the west ones alike), which estimate the
 * share of each whole list's keys that hold a bit: the bits outside sv's
 * buckets that the most pairs share, as many as are worth it, and clears
 * the counts. ps->bits is 0 when none is (then the east list is met in
 * list order). */
void nq_join_passes_bits(nq_join_passes *ps, const nq_join_sieve *sv, const uint64_t *east,
                         const double *east_weight, size_t ne, const uint64_t *west,
                         const double *west_weight, size_t nw);

/* Walks for a split's choice of bits: NQ_JOIN_PASS_WALKS down each half
 * (the east half ge on east_rows, the west one gw on west_rows), their
 * keys and weights in ps, then nq_join_passes_bits() on them. The walks
 * are seeded by the split's rows, so a split always makes the same
 * passes. */
void nq_join_passes_choose(nq_join_passes *ps, const nq_join_sieve *sv,
                           const nq_join_half *ge, uint32_t east_rows,
                           const nq_join_half *gw, uint32_t west_rows);

/* The pattern of key x: its chosen bits, the first highest. */
static inline unsigned nq_join_pattern(const nq_join_passes *ps, uint64_t x)
{
    unsigned p = 0;
    for (unsigned i = 0; i < ps->bits; i++)
        p = p << 1 | (unsigned)(x >> ps->bit[i] & 1u);
    return p;
}

/* Counts keys k[0 .. n) by pattern into counts (ps->count: east,
 * ps->west: west). */
void nq_join_passes_count(const nq_join_passes *ps, uint64_t *counts, const uint64_t *k,
                          size_t n);

/* The east keys counted (ps->count, all patterns). */
static inline uint64_t nq_join_passes_keys(const nq_join_passes *ps)
{
    uint64_t keys = 0;
    for (unsigned q = 0; q < 1u << ps->bits; q++)
        keys += ps->count[q];
    return keys;
}

/* Cuts the counted patterns into passes, as the note above says: of at
 * most `batch` east keys where the bits allow (a pattern of all the bits
 * may hold more: its pass then takes several batches), split further
 * where it pays; patterns without east keys get none. */
void nq_join_passes_plan(nq_join_passes *ps, size_t batch);

/* What the planned passes cost, from the counts: *pairs, the east x west
 * key pairs they meet; *east_listed and *west_listed, the keys their
 * listings keep (a west list longer than a batch counted once per east
 * batch of the pass). */
void nq_join_passes_cost(const nq_join_passes *ps, size_t batch, double *pairs,
                         double *east_listed, double *west_listed);

/* Pass i's filters: an east key is in it when (x & *mask) == *want; a
 * west key can meet it only when (x & *want) == 0. */
void nq_join_pass_filter(const nq_join_passes *ps, unsigned i, uint64_t *mask,
                         uint64_t *want);

/* The diagonals of the squeezed key bits `bits` of sv's keys, as bars
 * of each direction for the half g (its key window: lo1, len1, lo2,
 * len2): a listing of g with them barred holds none of those bits. */
void nq_join_pass_bars(const nq_join_sieve *sv, const nq_join_half *g, uint64_t bits,
                       uint64_t *bar1, uint64_t *bar2);

/* Keeps, in order at the front of k[0 .. n), the keys x with
 * (x & mask) == want. @return how many. */
size_t nq_join_keep(uint64_t *k, size_t n, uint64_t mask, uint64_t want);

#endif /* NQ_JOIN_PASS_H */
