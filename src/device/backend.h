/*
 * backend.h - the job of a GPU backend (a struct of function pointers),
 * the batches of work its kernels take, and an opened GPU. Not public,
 * never installed. Types and constants only: device.c holds the table of
 * the backends built in and the calls the engine and the methods make
 * (device.h); each backend (src/device/NAME/) implements this job and
 * includes nothing of device.h, so no backend leans on the table that
 * lists it.
 */
#ifndef NQ_BACKEND_H
#define NQ_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "steps/join_steps.h"
#include "steps/sym_steps.h"
#include "nqueens.h"
#include "stop.h"

/* A batch of the symmetry method's GPU work: boards (NQ_SYMW_BOARD_WORDS
 * words each: the number of levels, then one word a level) and tasks
 * (nodes of their walks), each with at most `levels` levels left below
 * it (1 to NQ_SYMW_STEP_LEVELS: the step walk's frames a thread take
 * levels - 1). */
typedef struct nq_symw_batch {
    const uint32_t *boards;
    size_t nboards;
    const nq_symw_task *tasks;
    uint64_t ntasks;
    unsigned levels;
} nq_symw_batch;

/* A batch of the join's GPU work: row splits, each described as the
 * join's steps count it (join_steps.h, nq_join_plan_gpu_split()). */
typedef struct nq_join_batch {
    const nq_jg_split *splits;
    size_t nsplits;
} nq_join_batch;

/* The GPU walks of the symmetry method's tasks (sym_steps.h): both count
 * every task alike. The step walk is the default; the other, with its
 * smaller stacks and three-way branch, is kept while the two are timed
 * against each other on GPUs (bench/nq_gpu_tune). */
typedef enum nq_gpu_walk {
    NQ_GPU_WALK_STEP = 0,  /* nq_symw_step: one node a step, no branches */
    NQ_GPU_WALK_STACK = 1, /* nq_symw_walk: a byte a level of stack */
    NQ_GPU_WALKS = 2
} nq_gpu_walk;

/* The join's GPU pairs kernels (cuda_join.cu): both count every job
 * alike. A thread a job with a table of its own is the default; a warp a
 * job, its lanes sharing one table (a kilobyte a warp, not a thread), is
 * kept while the two are timed against each other on GPUs
 * (bench/nq_gpu_join). */
typedef enum nq_gpu_pairs {
    NQ_GPU_PAIRS_THREAD = 0, /* nq_join_pairs_kernel */
    NQ_GPU_PAIRS_WARP = 1,   /* nq_join_pairs_warp_kernel */
    NQ_GPU_PAIRS_KINDS = 2
} nq_gpu_pairs;

typedef struct nq_gpu_backend {
    const char *name;
    /* How many GPUs there are. @return as nq_gpu_count(). */
    int (*count)(unsigned *out);
    /* @return as nq_gpu_info_get(). */
    int (*info)(nq_gpu_info *out, unsigned index);
    /* Opens GPU `index` for counting, with at most `memory` bytes of the
     * card's memory and of pinned host memory together for its buffers,
     * and no more than 1 / NQ_GPU_WORKERS of what the card has free
     * then, less NQ_GPU_CARD_MARGIN.
     * @return NQ_OK, NQ_ENODRIVER, NQ_ENODEVICE, NQ_EDEVICE,
     *         NQ_EDEVICEMEM (that leaves less than `memory` and less than
     *         NQ_GPU_MEMORY_MIN), NQ_ENOMEM. */
    int (*open)(void **out, unsigned index, uint64_t memory);
    void (*close)(void *gpu);
    /* Threads the opened GPU runs at once: the least number of tasks a
     * launch needs to keep it busy. */
    uint64_t (*threads)(const void *gpu);
    /* Makes `walk` (< NQ_GPU_WALKS) the one that sym_walk() launches
     * from now on (a GPU opens with NQ_GPU_WALK_STEP). @return NQ_OK. */
    int (*use_walk)(void *gpu, nq_gpu_walk walk);
    /* Makes `pairs` (< NQ_GPU_PAIRS_KINDS) the kernel that join_splits()
     * meets pairs with from now on (a GPU opens with
     * NQ_GPU_PAIRS_THREAD). @return NQ_OK. */
    int (*use_pairs)(void *gpu, nq_gpu_pairs pairs);
    /* Walks every task of the batch; adds the solutions of board b's
     * tasks into counts[b] (b < nboards). The caller's thread waits, and
     * looks at *stop (may be NULL) every fraction of a millisecond: a
     * raised flag ends the kernels within milliseconds, and the call with
     * NQ_ECANCELED (counts are then meaningless). Any one thread at a time.
     * @return NQ_OK, NQ_ECANCELED, NQ_EDEVICE, NQ_EDEVICEMEM. */
    int (*sym_walk)(void *gpu, const nq_symw_batch *batch, uint64_t *counts,
                    const nq_stop_flag *stop);
    /* Counts every split of the batch (cuda_join.cu); adds split i's
     * count into counts[i]. Waits, stops and fails as sym_walk() does;
     * NQ_EDEVICEMEM also when one split's keys do not fit the memory the
     * GPU was opened with. */
    int (*join_splits)(void *gpu, const nq_join_batch *batch, uint64_t *counts,
                       const nq_stop_flag *stop);
} nq_gpu_backend;

/* An opened GPU: its backend and the backend's state. */
typedef struct nq_gpu {
    const nq_gpu_backend *backend;
    void *state;
} nq_gpu;

/* Threads that drive one GPU in a count, each with the GPU opened for
 * it: while one prepares its next batch on the host, the other's kernels
 * run, so the GPU does not wait for the host. */
#define NQ_GPU_WORKERS 2u

/* The memory a count's GPU buffers may take, card and pinned host
 * memory together, when nothing asks for less: NQ_GPU_MEMORY, or
 * 1 / NQ_GPU_CARD_SHARE of the card's memory where that is more. */
#define NQ_GPU_MEMORY ((uint64_t)512u << 20)
#define NQ_GPU_CARD_SHARE 2u
/* The least memory a GPU is opened with. */
#define NQ_GPU_MEMORY_MIN ((uint64_t)16u << 20)
/* What an opened GPU leaves free on its card for the driver and the
 * kernels' own needs (their code, stacks and launch state). */
#define NQ_GPU_CARD_MARGIN ((uint64_t)256u << 20)

#endif /* NQ_BACKEND_H */
