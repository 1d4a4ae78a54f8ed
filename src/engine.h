/*
 * engine.h - a count made ready once and run many times. Not public.
 *
 * nq_count() opens a counter, runs it once and closes it. nq_estimate()
 * opens one, prepares it (the method's shared tables are built then, and
 * timed apart) and runs it on several samples, so that what a count pays
 * once is paid and measured once.
 */
#ifndef NQ_ENGINE_H
#define NQ_ENGINE_H

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
    /* the GPU, opened by the first run once per worker that drives it */
    struct nq_gpu *gpu[NQ_GPU_WORKERS];
} nq_counter;

/* @return NQ_OK, or an error of nq_count() found before counting
 *         (NQ_EMEMLIMIT: c->memory says what the leanest way needs). */
int nq_counter_open(nq_counter *c, unsigned n, const nq_count_options *opts);

/* The memory a count may take when its options set no max_memory: half
 * of the physical memory (2 GiB where that cannot be read). */
uint64_t nq_default_memory_limit(void);

/* Boards from this size on count on the GPU under NQ_DEVICE_AUTO, when
 * one is usable (see docs/command.md, --device). */
#define NQ_GPU_AUTO_MIN_N 18u

/* Builds what the method's units share (the join's table) now rather than
 * in the first unit; polls *stop (may be NULL).
 * @return NQ_OK, NQ_ECANCELED, NQ_ENOMEM. */
int nq_counter_prepare(nq_counter *c, const nq_stop_flag *stop);

/* Counts with c's method, plan, threads and SIMD level; of `run`, the
 * fields of one run are used: part, unit range, progress, on_unit, the
 * cancel flags, the checkpoint and its interval. */
int nq_counter_run(nq_count_result *out, nq_counter *c, const nq_count_options *run);

void nq_counter_close(nq_counter *c);

#endif /* NQ_ENGINE_H */
