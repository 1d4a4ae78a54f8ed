/*
 * join_order.h - the order of the units from n = 24 on, heaviest first
 * (join_order.c). Not public.
 */
#ifndef NQ_JOIN_ORDER_H
#define NQ_JOIN_ORDER_H

#include <stdint.h>

/* The order of the units of an n board's list (per_m, space, group and
 * units as in join_plan.c): unit i counts the run of splits (*out)[i], the
 * runs sorted by a cost proxy, heaviest first (join_order.c). *out is
 * the caller's to free. @return NQ_OK, NQ_ENOMEM. */
int nq_join_order_build(uint32_t **out, unsigned n, uint64_t per_m,
                        uint64_t space, uint64_t group, uint64_t units);

#endif /* NQ_JOIN_ORDER_H */
