/*
 * join_gpu_host.h - a row split counted on the host by the GPU's steps
 * (join_gpu.c): what the tests compare with the join's count and with the
 * GPU's, and what bench/nq_join_gpu_model tallies. Not public, never
 * installed.
 */
#ifndef NQ_JOIN_GPU_HOST_H
#define NQ_JOIN_GPU_HOST_H

#include "join_gpu.h"
#include "join_internal.h"

/* Lists into *out (from its start) the keys of half `half` (0 east, 1
 * west) of split s by the step walk, adding its steps (nodes) to *steps.
 * @return NQ_OK, NQ_ENOMEM. */
int nq_join_gpu_list(const nq_jg_split *s, unsigned half, nq_join_keys *out,
                     uint64_t *steps);

/* What nq_join_gpu_pairs() did, added up: the groups of blocks filled,
 * the keys that met a group, and the bucket bits of the splits. */
typedef struct nq_jg_tally {
    uint64_t groups, meetings, bucket_bits;
} nq_jg_tally;

/* The count of split s from its listed keys (nq_join_gpu_list()): its
 * disjoint pairs, weighted by the west key's class and the split's
 * weight, into *out. Both lists sorted into 2^bits buckets (bits < 0: as
 * many as nq_jg_pick_bits() takes), the longer stored in groups of
 * `blocks` (1 to NQ_JG_MAX_BLOCKS) blocks of 32 keys, one bucket (and a
 * stored west list's one class) a group, that the keys of every bucket
 * disjoint from its own meet; adds what it did to *tally.
 * @return NQ_OK, NQ_ENOMEM. */
int nq_join_gpu_pairs(const nq_jg_split *s, const nq_join_keys *east,
                      const nq_join_keys *west, unsigned blocks, int bits,
                      nq_jg_tally *tally, uint64_t *out);

/* Splits a GPU call of nq_join_gpu_runs() counts at most, in the
 * method's count. A split takes 176 bytes described, 96 of listing sizes
 * and offsets and 16 of count and owner: 18 MiB of host memory at most,
 * whatever the batch of units. */
#define NQ_JOIN_GPU_SPLITS ((size_t)1 << 16)

/* The runs of row splits first[i] .. end[i] - 1 (i < count) of the plan
 * counted on an opened GPU (device.h), into totals[i]: each split
 * described on the host (those that another image of their orbit stands
 * for left out) and sent in calls of at most `most` splits (a run may
 * span calls). Looks at *stop every few hundred splits, and the GPU
 * within its kernels. @return NQ_OK, NQ_EINVAL (a bad argument, a run
 * past the splits), NQ_ENOMEM, NQ_ECANCELED, or an error of the GPU. */
struct nq_gpu;
int nq_join_gpu_runs(const nq_join_plan *plan, struct nq_gpu *gpu, const uint64_t *first,
                     const uint64_t *end, size_t count, size_t most, const nq_stop_flag *stop,
                     uint64_t *totals);

#endif /* NQ_JOIN_GPU_HOST_H */
