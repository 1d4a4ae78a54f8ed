/*
 * join_cost.h - the join's cost model of nq_estimate() (join_cost.c). Not
 * public.
 */
#ifndef NQ_JOIN_COST_H
#define NQ_JOIN_COST_H

#include "join_plan.h"

/* The prices of the cost model on this machine: CPU seconds per meeting
 * and per key, timed on splits of n = 20 within `budget` CPU seconds
 * (at least 24 of them), and where `plan` walks its halves the sort and
 * the match on its own splits (at least 12, join_cost.c), as the model
 * does for a count of `plan`; for
 * benches that price units. @return NQ_OK, NQ_EINVAL, NQ_ENOMEM,
 * NQ_EUNSUPPORTED, NQ_ECANCELED. */
int nq_join_model_prices(const nq_join_plan *plan, nq_simd simd, double budget,
                         uint64_t seed, const nq_stop_flag *stop, double *per_meeting,
                         double *per_key);

/* The method row's cost model (method.h). */
int nq_join_model(void *plan, nq_simd simd, double budget, uint64_t seed,
                  const nq_stop_flag *stop, nq_cost_model *out);

#endif /* NQ_JOIN_COST_H */
