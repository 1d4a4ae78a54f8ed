/*
 * cuda_join.h - what the join's kernels (cuda_join.cu) and the host that
 * launches them (cuda_host.c) share. Not public, never installed.
 */
#ifndef NQ_CUDA_JOIN_H
#define NQ_CUDA_JOIN_H

#include <stdint.h>

/* Steps of a walk, or keys met, between two looks at the stop flag. */
#define NQ_JOIN_POLL 65536u

/* A job of nq_join_pairs_kernel: `count` (1 to 32) keys of split
 * `split`'s longer list from keys[stored], all of class `cls` when that
 * is the west list (cls 3: the stored list is the east one, and each
 * item's own class weighs its pairs), meeting the nitems keys of the
 * other list from keys[items]. 32 bytes. */
typedef struct nq_join_job {
    uint64_t stored, items, nitems;
    uint32_t split;
    uint16_t count, cls;
} nq_join_job;

#endif /* NQ_CUDA_JOIN_H */
