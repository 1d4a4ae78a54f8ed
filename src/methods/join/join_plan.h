/*
 * join_plan.h - the join counting method's plan (join_plan.c): its unit
 * list, a unit solved, a split profiled, what the method's row, the
 * tests and the tools call. Not public, never installed.
 *
 * A plan is the ordered list of work units for one board size; a unit is a
 * run of row splits, solved on its own, by any thread, at any SIMD level,
 * always with the same result. See the design note at the top of join_method.c.
 */
#ifndef NQ_JOIN_PLAN_H
#define NQ_JOIN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "method.h"
#include "join_profile.h"
#include "join_split.h"

/* Bumped whenever the unit list of some n changes (order, shape, count),
 * because checkpoints and "part k of m" runs address units by index.
 * Version 2: longer lists from n = 24 on (see join_method.c). */
#define NQ_JOIN_UNIT_LIST_VERSION 2u

typedef struct nq_join_plan nq_join_plan;

/* Builds the ordered unit list for n (0..NQ_MAX_N).
 * @return NQ_OK, NQ_ERANGE, NQ_ENOMEM, or NQ_EINVAL for a NULL out. What
 *         a count of the plan will take is the method row's fit_memory. */
int nq_join_plan_build(nq_join_plan **out, unsigned n);

/* The same plan, but its units go without the quarter table (as when it
 * would not fit in memory): they list each split's quarters, or walk the
 * halves (nq_join_plan_set_rowset_pieces); for tests and the re-check. */
int nq_join_plan_build_walk(nq_join_plan **out, unsigned n);

/* Makes the units of the plan sort keys on `cuts` bucket bits (0 ..
 * NQ_JOIN_MAX_CUTS) whatever the lists' sizes, or on as many as their
 * sizes call for (-1, the default); for tests, since every choice must
 * give the same counts. Not while units of the plan run.
 * @return NQ_OK, NQ_EINVAL (NULL plan, cuts out of range). */
int nq_join_plan_set_cuts(nq_join_plan *plan, int cuts);

/* Makes the units of the plan list each half's keys in batches of at
 * most `keys` keys (a little more where one step of the listing cannot
 * be split), every east batch meeting every west batch; the default is
 * 2^22 keys, and a count under a memory limit may take fewer (the
 * method row's fit_memory). For tests, since every batch size must give
 * the same counts. Not while units of the plan run.
 * @return NQ_OK, NQ_EINVAL (NULL plan, keys 0). */
int nq_join_plan_set_batch(nq_join_plan *plan, size_t keys);

/* With on 0, a split whose lists both take several batches meets the
 * east list batch by batch in list order, as with short lists; by
 * default (1) by pattern (join_pass.h). For tests and benches, since both
 * ways must give the same counts. Not while units of the plan run.
 * @return NQ_OK, NQ_EINVAL (NULL plan). */
int nq_join_plan_set_passes(nq_join_plan *plan, int on);

/* Without the table, the units list each half's two quarters for the
 * split at hand when each has at most `pieces` pieces (join_rowset.c),
 * else walk the half; 0 walks every half. The default has room for the
 * fullest quarters of n (2^16 pieces at n = 20 to 2^23 at 28), and a
 * count under a memory limit may take fewer (fit_memory). For tests
 * and benches, since both ways must give the same counts. Not while
 * units of the plan run. @return NQ_OK, NQ_EINVAL (NULL plan). */
int nq_join_plan_set_rowset_pieces(nq_join_plan *plan, size_t pieces);

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

/* Unit `unit` solved as nq_join_solve_unit() does, but on the sample that
 * *smp sets (above): out->total is an unbiased estimate of the unit's
 * total (exact with both steps 1, and the mean over all the phases is
 * exact). The unit's thread CPU time T, plus
 *   (east_step - 1) * east_seconds
 *   + (step - 1) * (match_seconds + (east_step - 1) * east_match_seconds)
 * estimates, unbiased, its time counted whole. Splits counted in one block
 * (weighted) are counted whole, and east lists of one batch met whole.
 * For the samplers of benches (bench/nq_join_sample.c) and their tests.
 * @return as nq_join_solve_unit(), and NQ_EINVAL for a NULL smp or a bad
 * step or phase. */
int nq_join_sample_unit(const nq_join_plan *plan, uint64_t unit, nq_simd simd,
                        nq_join_sampling *smp, const nq_stop_flag *stop,
                        nq_unit_result *out);

/* The splits first .. end - 1 that unit `unit` (< size) counts: a run of
 * consecutive split numbers (nq_join_profile_split), taken in a cost
 * proxy's order, heaviest first, from n = 24 on (join_order.c); builds
 * that order on its first call; none (first = end = 0) below n = 4, where
 * the one unit is a plain walk. @return NQ_OK, NQ_ENOMEM, NQ_EINVAL (NULL
 * argument, unit out of range). */
int nq_join_plan_unit_splits(const nq_join_plan *plan, uint64_t unit,
                             uint64_t *first, uint64_t *end);

void nq_join_plan_free(nq_join_plan *plan);

/* ------------------------------------------------------------------------
 * The cost model of nq_estimate() (join_cost.c, a split profiled by
 * join_plan.c through the hooks of join_profile.c); the profile of a split
 * is also for tests.
 * ------------------------------------------------------------------------ */

/* Frees what prof keeps (prof itself is the caller's). */
void nq_join_profile_end(nq_join_profile *prof);

/* Row splits of the plan (the units are runs of them; 0 below n = 4),
 * its n, whether its units walk the half-boards (no table), the most
 * pieces a quarter slot of theirs holds (0: every half walked), and the
 * keys of a batch. */
uint64_t nq_join_plan_splits(const nq_join_plan *plan);
unsigned nq_join_plan_n(const nq_join_plan *plan);
int nq_join_plan_walks(const nq_join_plan *plan);
size_t nq_join_plan_rowset_pieces(const nq_join_plan *plan);
size_t nq_join_plan_batch(const nq_join_plan *plan);

/* Counts split number `split` (< nq_join_plan_splits) as a unit would, or
 * only lists its keys when prof->match is 0, adding what it did and took
 * to *prof; with `table` 0 the keys come from the walk, not the table
 * (which is then not built). prof->first and prof->step take only the
 * first batch of each half, and a sample of the blocks (join_profile.h).
 * A split that is not the counted image of its orbit adds nothing.
 * @return NQ_OK, NQ_EINVAL, NQ_EUNSUPPORTED, NQ_ENOMEM, NQ_ECANCELED. */
int nq_join_profile_split(const nq_join_plan *plan, uint64_t split, nq_simd simd,
                          int table, const nq_stop_flag *stop,
                          nq_join_profile *prof);

/* The method row's prepare (method.h): builds the plan's table (unless it
 * would not fit) and, from n = 24 on, the order of its units.
 * @return NQ_OK, NQ_ECANCELED, NQ_ENOMEM. */
int nq_join_plan_prepare(const nq_join_plan *plan, const nq_stop_flag *stop);

/* The method row's fit_memory (method.h): the largest batch, and the
 * table when it fits beside the threads' scratch, else the walk.
 * @return NQ_OK, NQ_EMEMLIMIT. */
int nq_join_plan_fit_memory(nq_join_plan *plan, unsigned threads, uint64_t limit,
                            uint64_t *out);

#endif /* NQ_JOIN_PLAN_H */
