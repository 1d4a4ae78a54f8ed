/*
 * engine.h - a count made ready once and run many times. Not public.
 *
 * nq_count() opens a counter, runs it once and closes it. nq_estimate()
 * opens one, prepares it (the method's shared tables are built then, and
 * timed apart) and runs it on several samples, so that what a count pays
 * once is paid and measured once. The counter itself, and its run, are
 * engine_run.h's.
 */
#ifndef NQ_ENGINE_H
#define NQ_ENGINE_H

#include "engine_run.h"


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

void nq_counter_close(nq_counter *c);

#endif /* NQ_ENGINE_H */
