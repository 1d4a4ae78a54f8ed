/*
 * cuda_join.h - what the join's kernels (cuda_join.cu) and the host that
 * launches them (cuda_host.c) share. Not public, never installed.
 */
#ifndef NQ_CUDA_JOIN_H
#define NQ_CUDA_JOIN_H

#include <stdint.h>

/* Steps of a walk, or keys met, between two looks at the stop flag. */
#define NQ_JOIN_POLL 65536u

/* Where nq_join_list_kernel counts or puts the keys of one list (half
 * list % 2 of split list / 2 of the launch): a key of class c in bucket
 * x (nq_jg_bucket() by the split's cut1, run1, cut2, run2; one bucket
 * when both runs are 0) goes to at[base + (classed ? c x buckets : 0) +
 * x]. 16 bytes. */
typedef struct nq_join_list {
    uint64_t base;
    uint8_t cut1, run1, cut2, run2;
    uint8_t classed;
    uint8_t pad[3];
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
