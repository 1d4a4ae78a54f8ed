/*
 * cuda_join.h - what the join's kernels (cuda_join.cu) and the host that
 * launches them (cuda_host.c) share. Not public, never installed.
 */
#ifndef NQ_CUDA_JOIN_H
#define NQ_CUDA_JOIN_H

#include <stdint.h>

/* Steps of a walk, or keys met, between two looks at the stop flag. */
#define NQ_JOIN_POLL 65536u

/* One list of a launch of nq_join_list_kernel: parts first .. first +
 * count - 1 of half `half` of split `split` of the launch's splits. A key
 * of class c in bucket x (nq_jg_bucket() by cut1, run1, cut2, run2; one
 * bucket when both runs are 0), found in the list's q-th part, is counted
 * or placed at at[base + q x stride + (classed ? c x buckets : 0) + x].
 * 24 bytes. */
typedef struct nq_join_list {
    uint64_t base;
    uint32_t split, stride;
    uint8_t half, classed, cut1, run1, cut2, run2, first, count;
} nq_join_list;

/* A job of nq_join_pairs_kernel: `count` (1 to 32) keys of split
 * `split`'s longer list from keys[stored], all of one bucket, and of
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
