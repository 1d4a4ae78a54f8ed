/*
 * join_gpu.h - a row split counted on the host by the GPU's steps
 * (join_gpu.c): what the tests compare with the join's count and with the
 * GPU's, and what bench/nq_join_gpu_model tallies. Not public, never
 * installed.
 */
#ifndef NQ_JOIN_GPU_H
#define NQ_JOIN_GPU_H

#include "steps/join_steps.h"
#include "join_keys.h"
#include "join_plan.h"

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

/* Fills *out with what the GPU's steps (join_steps.h) need to count split
 * number `split` (< per_m, or per_m * (h + 1) on odd boards) of an n
 * board (NQ_JOIN_MIN_N <= n <= NQ_MAX_N) as nq_join_solve_splits() counts
 * it: its halves' rows and bars, its key window, its weights; all zero
 * (weight 0) when another image of its orbit is the one counted. */
void nq_join_split_gpu(unsigned n, uint64_t per_m, uint64_t split, struct nq_jg_split *out);

/* The row split `split` (< nq_join_plan_splits) as the GPU's steps count
 * it (join_steps.h, nq_join_split_gpu()): weight 0 when it is not the
 * counted image of its orbit. @return NQ_OK, NQ_EINVAL (NULL argument,
 * split out of range, n below NQ_JOIN_MIN_N). */
struct nq_jg_split;
int nq_join_plan_gpu_split(const nq_join_plan *plan, uint64_t split,
                           struct nq_jg_split *out);

/* The method row's GPU path (method.h, join_gpu.c): units[0 .. count-1]
 * of the plan counted on an opened GPU, each the same result as
 * nq_join_solve_unit() gives (nq_join_gpu_runs() of their splits);
 * `simd` is unused (nothing of a unit is counted on the host's lanes).
 * @return as the row's solve_gpu. */
struct nq_gpu;
int nq_join_solve_gpu(const void *plan, struct nq_gpu *gpu, const uint64_t *units,
                      size_t count, nq_simd simd, const nq_stop_flag *stop,
                      nq_unit_result *out);

#endif /* NQ_JOIN_GPU_H */
