/*
 * plain.h - the plain method (plain.c): the reference walk, with first-row
 * halving only. Not public. The engine reaches it only through
 * nq_plain_method (methods.c).
 */
#ifndef NQ_PLAIN_H
#define NQ_PLAIN_H

#include <stdint.h>

#include "method.h"

#define NQ_PLAIN_UNIT_LIST_VERSION 1u

typedef struct nq_plain_plan nq_plain_plan;

/* Builds the ordered unit list for n (0..NQ_MAX_N): NQ_OK, NQ_ERANGE, NQ_ENOMEM. */
int nq_plain_plan_build(nq_plain_plan **out, unsigned n);
uint64_t nq_plain_plan_size(const nq_plain_plan *plan);
/* Counts one unit, already weighted; unique is left 0. NQ_OK or NQ_ECANCELED. */
int nq_plain_solve_unit(const nq_plain_plan *plan, uint64_t unit,
                        const nq_stop_flag *stop, nq_unit_result *out);
void nq_plain_plan_free(nq_plain_plan *plan);

/* A partial board of the plain walk: queens on rows 0 .. row-1, held as
 * the walk holds them: the columns and the two diagonals they attack on
 * row `row`. */
typedef struct nq_plain_node {
    unsigned row;
    uint32_t cols, ld, rd;
} nq_plain_node;
/* The node where a unit's walk starts (row 2) and the unit's weight (2 for
 * a row-0 queen in the left half, 1 in the middle): NQ_OK, or NQ_EINVAL for
 * n <= 2 (no walk) or a unit out of range. */
int nq_plain_unit_node(const nq_plain_plan *plan, uint64_t unit, nq_plain_node *out,
                       unsigned *weight);
/* The solutions below a node of the plan's board, unweighted, by the same
 * walk as a unit's; for the benchmarks that time a sample of a unit's
 * subtrees. Cannot be stopped. NQ_OK or NQ_EINVAL. */
int nq_plain_count_below(const nq_plain_plan *plan, const nq_plain_node *node,
                         uint64_t *count);
/* The nodes of a unit's walk as the cost model estimates them from about
 * `probes` random walks, and exactly unless exact is NULL (walk_cost.h).
 * For the tests. @return NQ_OK, NQ_EINVAL, NQ_ENOMEM. */
int nq_plain_unit_nodes(const nq_plain_plan *plan, uint64_t unit, unsigned probes,
                        uint64_t *seed, double *estimate, uint64_t *exact);

/* The method's row of the method table (methods.c). */
extern const nq_method_ops nq_plain_method;

#endif
