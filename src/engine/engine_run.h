/*
 * engine_run.h - a counter (a count made ready) and its run over the units:
 * the workers, the checkpoint, progress and the GPU's share. Not public.
 * engine.h opens, prepares and closes counters.
 */
#ifndef NQ_ENGINE_RUN_H
#define NQ_ENGINE_RUN_H

#include "device/device.h"
#include "method.h"

/* A count made ready: options read, method picked, plan built and fitted
 * into the memory allowed. */
typedef struct nq_counter {
    nq_count_options o;         /* the caller's, read into this version */
    const nq_method_ops *ops;
    nq_simd simd;
    void *plan;
    uint64_t size;              /* units of the plan */
    unsigned threads;           /* workers, before clipping to the units to do */
    uint64_t memory;            /* bytes the count takes at most */
    nq_device device;           /* where it counts: CPU or GPU, never AUTO */
    uint64_t gpu_memory;        /* of memory, the GPU's buffers */
    unsigned n;                 /* the board size */
    nq_checkpoint *held;        /* the options' checkpoint, taken for this
                                   counter's use until it is closed */
    /* the GPU, opened by the first run once per worker that drives it */
    struct nq_gpu *gpu[NQ_GPU_WORKERS];
} nq_counter;

/* Counts with c's method, plan, threads and SIMD level; of `run`, the
 * fields of one run are used: part, unit range, progress, on_unit, the
 * cancel flags, the checkpoint and its interval. A run that covers the
 * whole list (a checkpoint's units included) and differs from the
 * published count of n answers NQ_EPUBLISHED, with *out set. */
int nq_counter_run(nq_count_result *out, nq_counter *c, const nq_count_options *run);

#endif /* NQ_ENGINE_RUN_H */
