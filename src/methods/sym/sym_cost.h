/*
 * sym_cost.h - the symmetry method's cost model (sym_cost.c): the
 * method's `model` and `model_gpu` (method.h), and the pieces the tests
 * and benchmarks call. Not public, never installed.
 */
#ifndef NQ_SYM_COST_H
#define NQ_SYM_COST_H

#include <stdint.h>

#include "method.h"
#include "platform/cpu.h"
#include "sym_unit.h"

/* Models the one-core CPU time of the whole count of the
 * plan at level `simd` (never AUTO) from random walks down a seeded
 * sample of its units, priced by units of a smaller board timed on this
 * machine, in about `budget` seconds of the calling thread. Any n > 5;
 * nq_sym_model() (the method's `model`) only from the n where timing a
 * sample of units no longer does. Polls *stop.
 * @return NQ_OK, NQ_EUNSUPPORTED (nq_sym_model() below that n, or no
 *         kernel of that level), NQ_ECANCELED, NQ_EINVAL, NQ_ENOMEM. */
int nq_sym_cost(const nq_sym_plan *plan, nq_simd simd, double budget, uint64_t seed,
                const nq_stop_flag *stop, nq_cost_model *out);
/* The nodes of unit `unit`'s interior walk (n > 5; a queen
 * placed on a level other than the last), as the model estimates them
 * from about `probes` (1 to 8192) random walks seeded by *seed (exact when
 * no level of the walk has more than `probes` nodes), and, unless exact
 * is NULL, exactly. For the tests and benchmarks.
 * @return NQ_OK, NQ_EINVAL, NQ_ENOMEM. */
int nq_sym_unit_nodes(const nq_sym_plan *plan, uint64_t unit, unsigned probes,
                      uint64_t *seed, double *estimate, uint64_t *exact);
/* The method's `model` and `model_gpu` (method.h): the model above, or on
 * a GPU the cost model of walks (walk_cost.h), from the n where timing a
 * sample of units no longer does (a larger n on a GPU); below it
 * NQ_EUNSUPPORTED. */
struct nq_gpu;
int nq_sym_model_gpu(void *plan, struct nq_gpu *gpu, nq_simd simd, double budget,
                     uint64_t seed, const nq_stop_flag *stop, nq_cost_model *out);
int nq_sym_model(void *plan, nq_simd simd, double budget, uint64_t seed,
                 const nq_stop_flag *stop, nq_cost_model *out);

#endif /* NQ_SYM_COST_H */
