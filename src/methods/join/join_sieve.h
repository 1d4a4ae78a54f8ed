/*
 * join_sieve.h - keys squeezed and sorted into buckets, and buckets matched
 * against blocks (join_sieve.c). Not public.
 */
#ifndef NQ_JOIN_SIEVE_H
#define NQ_JOIN_SIEVE_H

#include "stop.h"
#include "join_block.h"

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
 * the end; `count`: room for NQ_JOIN_SORT_STREAMS counters a bin;
 * `bins_of`: a level's bins kernel. Stable: the keys of a bin keep their
 * order. For lists below 2^32 keys (a batch: join_memory.h). */
void nq_join_sieve_sort(const nq_join_sieve *sv, nq_join_keys *keys, nq_join_keys *tmp,
                        unsigned classes, size_t *off, uint32_t *count,
                        nq_join_bins_fn bins_of);
/* `count` has room for this many counters per bin (classes x buckets). */
#define NQ_JOIN_SORT_STREAMS 4u

/* What counts pairs against one block (fill_items: the cost model's
 * weight of a fill, nq_join_fill_items_of()). With sample_step > 1 the
 * sieve's match takes only every sample_step-th block of stored keys it
 * meets (*sample_at counts them; a block is taken when the count, before
 * it moves on, is a multiple of the step) and adds its pairs times the
 * step: an unbiased estimate, for the samplers of benches (0 or 1: every
 * block, the exact count). */
typedef struct nq_join_matcher {
    nq_join_block *block;
    nq_join_fill_fn fill;
    nq_join_match_fn match;
    unsigned chunks;
    double fill_items;
    const nq_stop_flag *stop;
    unsigned sample_step;
    uint64_t *sample_at;
} nq_join_matcher;

/* Adds to *out the pairs of mt's filled block with items[0 .. count),
 * weighted by `shifts` (nq_join_match_fn), polling mt->stop between runs
 * of items. @return NQ_OK, NQ_ECANCELED. */
int nq_join_match_items(const nq_join_matcher *mt, const uint64_t *items, size_t count,
                        unsigned shifts, uint64_t *out);

/* Adds to *out the disjoint pairs between stored[soff[0] .. soff[nb]) and
 * items[ioff[0] .. ioff[nb]), both sorted into nb buckets (soff[b], ioff[b]
 * where bucket b starts): each block of stored keys meets only the items
 * of buckets disjoint from one of its own (a sample of the blocks when
 * mt->sample_step > 1: see nq_join_matcher). Polls mt->stop.
 * @return NQ_OK, NQ_ECANCELED. */
int nq_join_sieve_match(const nq_join_matcher *mt, const uint64_t *stored,
                        const size_t *soff, const uint64_t *items,
                        const size_t *ioff, unsigned nb, uint64_t *out);

#endif /* NQ_JOIN_SIEVE_H */
