/*
 * cuda_join.h - what the join's kernels (cuda_join.cu) and the host that
 * launches them (cuda_host.c) share. Not public, never installed.
 */
#ifndef NQ_CUDA_JOIN_H
#define NQ_CUDA_JOIN_H

#include <stdint.h>

/* Steps of a walk, or keys met, between two looks at the stop flag (a
 * test's emulated GPU sets its own before it includes this). */
#ifndef NQ_JOIN_POLL
#define NQ_JOIN_POLL 65536u
#endif

/* One list of a launch of nq_join_list_kernel: parts first .. first +
 * count - 1 of half `half` of split `split` of the launch's splits. A key
 * of class c in bucket x (nq_jg_bucket() by cut1, run1, cut2, run2; one
 * bucket when both runs are 0), found in the list's q-th part, is counted
 * or placed at at[base + q x stride + (classed ? c x buckets : 0) + x].
 * Written loose (`cursor` not NQ_JOIN_IN_PLACE), it is counted there and
 * stored at the next place of the list's own run of keys, taken from its
 * cursor at[cursor]; nq_join_sort_kernel then moves it to its bucket.
 * 32 bytes. */
typedef struct nq_join_list {
    uint64_t base, cursor;
    uint32_t split, stride;
    uint8_t half, classed, cut1, run1, cut2, run2, first, count;
} nq_join_list;

/* One sub-split of a piece, as nq_join_lay_kernel lays it out: its
 * lists are lists[2r] (east) and lists[2r + 1] (west) of the launch, of
 * keys[0] and keys[1] keys (as the first listing counted them), placed in
 * their buckets from keys[start] on, east then west. The buckets of the
 * list it does not store (its items) are bounded at bounds[bounds ..
 * bounds + buckets], the jobs of the one it stores (`stored`: 0 east, 1
 * west) go to jobs[jobs .. jobs + slots). 48 bytes. */
typedef struct nq_join_layout {
    uint64_t start, keys[2], bounds, jobs;
    uint32_t slots, stored;
} nq_join_layout;

/* A split's count with this bit set: the piece's listing found other
 * than the keys its first listing counted (the GPU is not counting
 * right). */
#define NQ_JOIN_FAULT (1ull << 63)

/* A list's keys go straight to their buckets' places. */
#define NQ_JOIN_IN_PLACE UINT64_MAX

/* Loose keys a task of nq_join_sort_kernel moves. */
#define NQ_JOIN_SORT_KEYS 256u

/* Job slots a thread of nq_join_pairs_kernel takes a fetch: a count of
 * n = 20 has some 5.5e8 slots (6,030 a split), too many fetches for one
 * counter's atomic adds one at a time. */
#define NQ_JOIN_PAIRS_RUN 8u

/* A job of nq_join_pairs_kernel: `count` (1 to 32; 0: an empty slot)
 * keys of split `split`'s longer list from keys[stored], all of one
 * bucket, and of
 * class `cls` when that is the west list (cls 3: the stored list is the
 * east one, and each item's own class weighs its pairs), meeting the
 * keys of the other list's buckets that are submasks of `comp` (the
 * complement of the group's bucket): bucket x of it is keys[bounds[items
 * + x] .. bounds[items + x + 1]). 32 bytes. */
typedef struct nq_join_job {
    uint64_t stored, items;
    uint32_t split, comp;
    uint16_t count, cls;
    uint32_t pad;
} nq_join_job;

#endif /* NQ_CUDA_JOIN_H */
