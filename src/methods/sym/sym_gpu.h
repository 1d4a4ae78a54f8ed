/*
 * sym_gpu.h - the symmetry method's units cut into GPU tasks (sym_gpu.c).
 * Not public, never installed. nq_sym_solve_gpu() is the method's GPU
 * path (its `solve_gpu`, method.h); the pieces below it are apart so that
 * the tests run the same batch through the host's copy of the GPU walk
 * (nq_sym_gpu_host_walk).
 */
#ifndef NQ_SYM_GPU_H
#define NQ_SYM_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "sym_unit.h"

/* Solves units[0 .. count-1] of the plan on an opened GPU into
 * out[0 .. count-1]; n <= 5 (one brute-force unit) on the calling thread
 * at CPU level `simd`, and the fixed solutions of turned units there too.
 * Polls *stop.
 * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL, NQ_ENOMEM, or an error of the GPU
 *         (NQ_EDEVICE, NQ_EDEVICEMEM). */
struct nq_gpu;
int nq_sym_solve_gpu(const void *plan, struct nq_gpu *gpu, const uint64_t *units,
                     size_t count, nq_simd simd, const nq_stop_flag *stop,
                     nq_unit_result *out);

/* Levels a task walks at most (the cut a batch starts from), and at least
 * when the batch needs more tasks to fill the GPU (see
 * nq_sym_gpu_batch_make). */
#define NQ_SYM_GPU_TASK_LEVELS 15u
#define NQ_SYM_GPU_TASK_LEVELS_MIN 5u
_Static_assert(NQ_SYM_GPU_TASK_LEVELS <= NQ_SYMW_STEP_LEVELS,
               "a task must fit the step walk's frames");
/* Tasks a batch wants for each thread the GPU runs at once, so that long
 * and short tasks even out; but at most NQ_SYM_GPU_TASKS_PER_UNIT for each
 * of its units, where that is more than NQ_SYM_GPU_TASKS_FLOOR (see
 * nq_sym_gpu_min_tasks). */
#define NQ_SYM_GPU_TASKS_PER_THREAD 8u
#define NQ_SYM_GPU_TASKS_PER_UNIT 64u
#define NQ_SYM_GPU_TASKS_FLOOR 8192u

/* The most units a batch holds (a task names its board in 24 bits). */
#define NQ_SYM_GPU_BATCH_MAX ((size_t)1 << 24)

/* A batch of units made ready for the GPU. */
typedef struct nq_sym_gpu_batch {
    nq_symw_batch work;     /* boards and tasks of the walk units */
    uint32_t *boards;       /* work.boards, owned */
    nq_symw_task *tasks;    /* work.tasks, owned */
    size_t *board_of;       /* each unit's board, or SIZE_MAX: not walked
                               on the GPU (n <= 5) */
    unsigned char *turned;  /* each board's: a constellation fixed by a
                               turn (nq_sym_turned_result) */
    unsigned *orders;       /* each board's stabiliser order */
    unsigned task_levels;   /* levels a task walks at most */
} nq_sym_gpu_batch;

/* Cuts units[0 .. count-1] of the plan into tasks: one board per unit
 * but the small one, its walk cut at the level from which at most
 * task_levels (<= NQ_SYMW_STEP_LEVELS: the step walk's frames) levels are
 * left (fewer where the batch would have under
 * min_tasks tasks, down to NQ_SYM_GPU_TASK_LEVELS_MIN), in unit order.
 * Looks at *stop (may be NULL) every few hundred units.
 * @return NQ_OK, NQ_EINVAL, NQ_ENOMEM, NQ_ECANCELED. */
int nq_sym_gpu_batch_make(nq_sym_gpu_batch *out, const nq_sym_plan *plan,
                          const uint64_t *units, size_t count,
                          unsigned task_levels, uint64_t min_tasks,
                          const nq_stop_flag *stop);

void nq_sym_gpu_batch_free(nq_sym_gpu_batch *batch);

/* The tasks a batch of `units` units wants on a GPU that runs `threads`
 * threads at once (the min_tasks of nq_sym_gpu_batch_make):
 * NQ_SYM_GPU_TASKS_PER_THREAD a thread, but no more than
 * NQ_SYM_GPU_TASKS_PER_UNIT a unit or NQ_SYM_GPU_TASKS_FLOOR, whichever is
 * more. */
uint64_t nq_sym_gpu_min_tasks(size_t units, uint64_t threads);

/* The host's run of the GPU's work: nq_symw_step_walk() over every task,
 * its count added into counts[board] (what the GPU backend's sym_walk
 * does). */
void nq_sym_gpu_host_walk(const nq_symw_batch *work, uint64_t *counts);

/* The results of units[0 .. count-1] into out from counts (one per
 * board): walk units weighed, turned ones with their fixed solutions
 * counted here, and the unit of n <= 5 solved here at CPU level `simd`.
 * @return NQ_OK, or an error of nq_sym_solve_unit(). */
int nq_sym_gpu_results(const nq_sym_plan *plan, const nq_sym_gpu_batch *batch,
                       const uint64_t *units, size_t count,
                       const uint64_t *counts, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out);

#endif /* NQ_SYM_GPU_H */
