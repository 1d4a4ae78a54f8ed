/*
 * sym_unit.h - the symmetry method's unit list and how one unit is solved
 * (sym_unit.c). Not public, never installed. The engine reaches it only
 * through nq_sym_method (sym.h, methods.c); the method's row, its cost
 * model (sym_cost.h) and its GPU path (sym_gpu.h) call it, and so do the
 * tests.
 *
 * A plan is the ordered list of work units for one board size; a unit is
 * solved on its own, by any thread, at any SIMD level, always with the same
 * result. See the design note at the top of sym.c.
 */
#ifndef NQ_SYM_UNIT_H
#define NQ_SYM_UNIT_H

#include <stdint.h>

#include "method.h"
#include "platform/cpu.h"
#include "sym_walk.h"

typedef struct nq_sym_plan nq_sym_plan;

/* Bumped whenever the unit list of some n changes (order, shape, count),
 * because checkpoints and "part k of m" runs address units by index. */
#define NQ_SYM_UNIT_LIST_VERSION 3u
/* Version 3 changed the list of n = 28 alone (groups split by two queens,
 * as below it): the lists of smaller n are version 2's. */
#define NQ_SYM_UNIT_LIST_KEPT_BELOW 28u

/* Builds the ordered unit list for n (0..NQ_MAX_N).
 * @return NQ_OK, NQ_ERANGE, NQ_ENOMEM (or NQ_EINVAL for a NULL out). */
int nq_sym_plan_build(nq_sym_plan **out, unsigned n);

/* @return the number of units of the plan (0 for NULL). */
uint64_t nq_sym_plan_size(const nq_sym_plan *plan);

/* @return the board size of the plan (0 for NULL). */
unsigned nq_sym_plan_n(const nq_sym_plan *plan);

/* Solves unit `unit` (< size) at SIMD level `simd` (never AUTO) with the
 * kernel of that level (sym_kernel.h). out->total is already multiplied by
 * the unit's symmetry weight; out->unique is the unit's share of the
 * unique count. Polls *stop (relaxed) every few milliseconds of work at
 * most; a raised flag ends the call with NQ_ECANCELED and leaves out
 * untouched. Thread-safe: scratch memory lives on the stack.
 * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL (NULL plan/out, unit out of
 *         range, bad level), NQ_EUNSUPPORTED (no kernel of that level in
 *         this build, or not on this CPU), NQ_ENOMEM. */
int nq_sym_solve_unit(const nq_sym_plan *plan, uint64_t unit, nq_simd simd,
                      const nq_stop_flag *stop, nq_unit_result *out);

/* The interior walk of unit `unit` of a plan for n > 5, as
 * nq_sym_solve_unit() hands it to a kernel: its board and its start node.
 * For the tests and the benchmark's node counter.
 * @return NQ_OK, NQ_EINVAL (NULL argument, unit out of range, n <= 5). */
int nq_sym_unit_walk(const nq_sym_plan *plan, uint64_t unit,
                     nq_sym_board *board, nq_sym_node *start);

/* How a unit is counted. */
typedef enum nq_sym_kind {
    NQ_SYM_KIND_SMALL,  /* n <= 5: one unit, brute force */
    NQ_SYM_KIND_TURNED, /* a constellation fixed by a turn: its walk's count
                           and its solutions fixed by the turn give the
                           result (nq_sym_turned_result) */
    NQ_SYM_KIND_WALK    /* an interior walk (a kernel's job) whose count,
                           weighed by nq_sym_weigh(), is the unit's result */
} nq_sym_kind;

/* What unit `unit` is: its kind, and but for NQ_SYM_KIND_SMALL its board,
 * start node and the order of its constellation's stabiliser (a small
 * unit leaves them untouched). @return NQ_OK, NQ_EINVAL (NULL argument, unit out of
 * range). */
int nq_sym_unit_kind(const nq_sym_plan *plan, uint64_t unit, nq_sym_kind *kind,
                     nq_sym_board *board, nq_sym_node *start, unsigned *order);

/* The result of a walk unit whose walk found `count` completions, its
 * constellation's stabiliser of order `order` (1 or 2 for walk units):
 * each completion stands for 8 / order solutions, and 1 / order of a
 * solution up to symmetry (see the design note in sym.c). */
static inline nq_unit_result nq_sym_weigh(uint64_t count, unsigned order)
{
    nq_unit_result r;
    r.total = count * (8u / order);
    r.unique = count / order;
    return r;
}

/* The result of a unit of kind NQ_SYM_KIND_TURNED whose walk found
 * `count` completions: its unique share needs the solutions fixed by its
 * turns, counted here (sym_fixed.c). Polls *stop.
 * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL (not such a unit). */
int nq_sym_turned_result(const nq_sym_plan *plan, uint64_t unit, uint64_t count,
                         const nq_stop_flag *stop, nq_unit_result *out);

void nq_sym_plan_free(nq_sym_plan *plan);

/* The same on plans without a type, as the method table (method.h) and the
 * cost model of walks (walk_cost.h) call them; nq_sym_has_simd() says
 * whether this build has a kernel of that level. */
int nq_sym_build_any(void **plan, unsigned n);
uint64_t nq_sym_size_any(const void *plan);
int nq_sym_solve_any(const void *plan, uint64_t unit, nq_simd simd,
                     const nq_stop_flag *stop, nq_unit_result *out);
void nq_sym_free_any(void *plan);
int nq_sym_has_simd(nq_simd simd);

#endif /* NQ_SYM_UNIT_H */
