/*
 * device.h - the job of a GPU backend, and the GPU a count runs on. Not
 * public, never installed.
 *
 * A backend (today one: CUDA, src/device/cuda/) lists its GPUs and runs
 * the kernels of the methods that have one on an opened GPU. device.c
 * holds the table of backends built in and answers the public nq_gpu_*()
 * functions from it; the engine and the methods reach a GPU only through
 * nq_gpu_open() and the kernel calls below, never through a backend by
 * name. A build without any backend still has all of this: every call
 * answers NQ_EUNSUPPORTED.
 *
 * Adding a backend: a folder src/device/NAME/ whose host file defines a
 * `const nq_gpu_backend` (backend.h), declared in a header of its own
 * there, and its row in device.c.
 */
#ifndef NQ_DEVICE_H
#define NQ_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* Opens GPU `index` of the first backend that has GPUs, with at most
 * `memory` bytes for its buffers (at least NQ_GPU_MEMORY_MIN), and at
 * most 1 / NQ_GPU_WORKERS of what its card has free then, less
 * NQ_GPU_CARD_MARGIN (a count opens it once for each of its workers,
 * each before the others take their buffers).
 * @return NQ_OK, NQ_EUNSUPPORTED (no backend in this build), or an error
 *         of the backend's open(). */
int nq_gpu_open(nq_gpu **out, unsigned index, uint64_t memory);

void nq_gpu_close(nq_gpu *gpu);

/* @return the GPU's threads at once (see nq_gpu_backend). */
uint64_t nq_gpu_threads(const nq_gpu *gpu);

/* @return the walk's name ("step", "stack"), or NULL for no walk. */
const char *nq_gpu_walk_name(nq_gpu_walk walk);

/* Chooses the walk of the GPU's later sym_walk()s (see nq_gpu_walk).
 * @return NQ_OK, NQ_EINVAL (no such walk). */
int nq_gpu_use_walk(nq_gpu *gpu, nq_gpu_walk walk);

/* "thread" or "warp"; NULL past NQ_GPU_PAIRS_KINDS. */
const char *nq_gpu_pairs_name(nq_gpu_pairs pairs);

/* Chooses the pairs kernel of the GPU's later join_splits() (see
 * nq_gpu_pairs). @return NQ_OK, NQ_EINVAL. */
int nq_gpu_use_pairs(nq_gpu *gpu, nq_gpu_pairs pairs);

/* Whether the kernels can walk every task of the batch within their
 * memory: its board in the batch, its board's levels within a stack of
 * the stack walk (NQ_SYMW_MAX_LEVELS), its level below them, and at most
 * the batch's `levels` levels left (at most NQ_SYMW_STEP_LEVELS) for the
 * step walk's frames.
 * @return 1 or 0. */
int nq_symw_batch_fits(const nq_symw_batch *batch);

/* Walks the batch on the GPU (the backend's sym_walk()), once
 * nq_symw_batch_fits() says the kernels can walk every task of it.
 * @return as the backend's sym_walk(), or NQ_EINVAL (a task past those
 *         bounds: nothing is launched). */
int nq_gpu_sym_walk(nq_gpu *gpu, const nq_symw_batch *batch, uint64_t *counts,
                    const nq_stop_flag *stop);

/* Whether the join's kernels can count every split of the batch within
 * their memory and shifts: a board of 4 to NQ_MAX_N, halves of n / 2
 * rows apart, key windows within a walk's 32-bit words and NQ_JG_KEY_BITS
 * together, its tables' shifts in range, and a weight (a split that
 * another image of its orbit stands for is not sent). @return 1 or 0. */
int nq_join_batch_fits(const nq_join_batch *batch);

/* Counts the batch's splits on the GPU (the backend's join_splits()),
 * once nq_join_batch_fits() says the kernels can.
 * @return as the backend's join_splits(), or NQ_EINVAL (a split past
 *         those bounds: nothing is launched). */
int nq_gpu_join_splits(nq_gpu *gpu, const nq_join_batch *batch, uint64_t *counts,
                       const nq_stop_flag *stop);

#endif /* NQ_DEVICE_H */
