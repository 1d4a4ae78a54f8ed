/*
 * The plain method: the reference walk, with first-row halving only.
 * Internal interface, mirrored on the symmetry method's (sym.h).
 */
#ifndef NQ_PLAIN_H
#define NQ_PLAIN_H

#include <stdatomic.h>
#include <stdint.h>

#include "nqueens.h"
#include "sym.h" /* nq_unit_result */

#define NQ_PLAIN_UNIT_LIST_VERSION 1u

typedef struct nq_plain_plan nq_plain_plan;

/* Builds the ordered unit list for n (0..NQ_MAX_N): NQ_OK, NQ_ERANGE, NQ_ENOMEM. */
int nq_plain_plan_build(nq_plain_plan **out, unsigned n);
uint64_t nq_plain_plan_size(const nq_plain_plan *plan);
/* Counts one unit, already weighted; unique is left 0. NQ_OK or NQ_ECANCELED. */
int nq_plain_solve_unit(const nq_plain_plan *plan, uint64_t unit,
                        const atomic_int *stop, nq_unit_result *out);
void nq_plain_plan_free(nq_plain_plan *plan);

#endif
