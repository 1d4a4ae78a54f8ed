/*
 * join_check.h - a unit of the join counted again by other code (join_check.c).
 * Not public.
 */
#ifndef NQ_JOIN_CHECK_H
#define NQ_JOIN_CHECK_H

#include "join_plan.h"

/* The method row's independent re-count of a unit (join_check.c): a plain
 * walk of whole boards restricted to each of the unit's row splits, with
 * the symmetry weights worked out from the design note of join_method.c, apart
 * from join_split.c. The same result as nq_join_solve_unit(), slowly.
 * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL. */
int nq_join_check_unit(const void *plan, uint64_t unit, const nq_stop_flag *stop,
                       nq_unit_result *out);

#endif /* NQ_JOIN_CHECK_H */
