/*
 * join.h - the join counting method's plan: what the method table, the
 * tests and the tools may call. Not public, never installed. What the
 * method's own files share is in join_internal.h.
 *
 * A plan is the ordered list of work units for one board size; a unit is a
 * run of row splits, solved on its own, by any thread, at any SIMD level,
 * always with the same result. See the design note at the top of join.c.
 */
#ifndef NQ_JOIN_H
#define NQ_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "method.h"

/* Bumped whenever the unit list of some n changes (order, shape, count),
 * because checkpoints and "part k of m" runs address units by index. */
#define NQ_JOIN_UNIT_LIST_VERSION 1u

typedef struct nq_join_plan nq_join_plan;

/* Builds the ordered unit list for n (0..NQ_MAX_N).
 * @return NQ_OK, NQ_ERANGE, NQ_ENOMEM, or NQ_EINVAL for a NULL out. What
 *         a count of the plan will take is the method row's fit_memory. */
int nq_join_plan_build(nq_join_plan **out, unsigned n);

/* The same plan, but its units walk the half-boards instead of using the
 * quarter table (as when the table would not fit in memory); for tests. */
int nq_join_plan_build_walk(nq_join_plan **out, unsigned n);

/* Makes the units of the plan sort keys on `cuts` bucket bits (0 ..
 * NQ_JOIN_MAX_CUTS) whatever the lists' sizes, or on as many as their
 * sizes call for (-1, the default); for tests, since every choice must
 * give the same counts. Not while units of the plan run.
 * @return NQ_OK, NQ_EINVAL (NULL plan, cuts out of range). */
int nq_join_plan_set_cuts(nq_join_plan *plan, int cuts);

/* @return the number of units of the plan (0 for NULL). */
uint64_t nq_join_plan_size(const nq_join_plan *plan);

/* Solves unit `unit` (< size) at SIMD level `simd` (never AUTO); fills
 * out->total (already weighted by symmetry) and sets out->unique to 0.
 * Polls *stop every few milliseconds of work; a raised flag ends the call
 * with NQ_ECANCELED and leaves out untouched. Thread-safe: each call owns
 * its scratch memory.
 * @return NQ_OK, NQ_ECANCELED, NQ_ENOMEM, NQ_EINVAL (NULL plan/out, unit
 *         out of range, bad level), NQ_EUNSUPPORTED (level not on this CPU). */
int nq_join_solve_unit(const nq_join_plan *plan, uint64_t unit, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out);

void nq_join_plan_free(nq_join_plan *plan);

/* Upper bound, in bytes, of the scratch memory one unit of size n takes
 * (measured peaks up to n = 20, extrapolated beyond; 0 for n < 4).
 * A count with T threads needs about T times this. */
uint64_t nq_join_unit_memory(unsigned n);

#endif /* NQ_JOIN_H */
