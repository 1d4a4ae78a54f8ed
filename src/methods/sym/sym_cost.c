/*
 * sym_cost.c - the symmetry method's cost model (sym_cost.h): its units'
 * walks as the model of walks sees them (walk_cost.h), priced by units of
 * CAL_N.
 *
 * From n = MODEL_MIN_N on, a unit takes up to seconds at n = 21 and hours
 * at 28: timing a sample of units in a budget of seconds says little
 * there (at n = 21 it read 1.5 times the time), so nq_estimate() takes
 * the model. Units of n = 20 are split as the count's are (by their first
 * interior queens) and take milliseconds: they price a node. The fixed
 * solutions of the few units fixed by a turn (sym_fixed.c) are in the
 * price, not in the nodes: their search branches in a half or a quarter
 * of the rows, a share of the count that shrinks with n.
 */
#include "sym_cost.h"

#include "methods/walk_cost.h"
#include "sym_gpu.h"
#include "sym_unit.h"

/* The smallest n priced by the model, and the board that prices it. On a
 * GPU, a unit of n = 24 takes some 3 s of one core, a fraction of a
 * second of the GPU: timing a sample of units prices smaller counts. */
#define MODEL_MIN_N 21u
#define GPU_MODEL_MIN_N 25u
#define CAL_N 20u

static int sym_tree(const void *plan, uint64_t unit, nq_walk_tree *out)
{
    nq_sym_board bd;
    nq_sym_node s;
    int rc = nq_sym_unit_walk(plan, unit, &bd, &s);
    if (rc != NQ_OK)
        return rc;
    out->levels = bd.levels;
    out->level = s.level;
    out->cols = s.cols;
    out->ld = s.ld;
    out->rd = s.rd;
    for (unsigned i = 0; i < bd.levels; i++) {
        out->allowed[i] = bd.allowed[i];
        out->shift[i] = bd.shift[i];
    }
    return NQ_OK;
}

static const nq_walk_method sym_walks = { CAL_N, nq_sym_build_any, nq_sym_size_any,
                                          nq_sym_solve_any, nq_sym_free_any,
                                          nq_sym_has_simd, sym_tree, nq_sym_solve_gpu };

int nq_sym_cost(const nq_sym_plan *plan, nq_simd simd, double budget, uint64_t seed,
                const nq_stop_flag *stop, nq_cost_model *out)
{
    return nq_walk_model(&sym_walks, plan, simd, budget, seed, stop, out);
}

int nq_sym_unit_nodes(const nq_sym_plan *plan, uint64_t unit, unsigned probes,
                      uint64_t *seed, double *estimate, uint64_t *exact)
{
    return nq_walk_unit_nodes(&sym_walks, plan, unit, probes, seed, estimate, exact);
}

int nq_sym_model(void *plan, nq_simd simd, double budget, uint64_t seed,
                 const nq_stop_flag *stop, nq_cost_model *out)
{
    if (!plan || !out)
        return NQ_EINVAL;
    if (nq_sym_plan_n(plan) < MODEL_MIN_N)
        return NQ_EUNSUPPORTED;
    return nq_sym_cost(plan, simd, budget, seed, stop, out);
}

int nq_sym_model_gpu(void *plan, struct nq_gpu *gpu, nq_simd simd, double budget,
                     uint64_t seed, const nq_stop_flag *stop, nq_cost_model *out)
{
    if (!plan || !out || !gpu)
        return NQ_EINVAL;
    if (nq_sym_plan_n(plan) < GPU_MODEL_MIN_N)
        return NQ_EUNSUPPORTED;
    return nq_walk_model_gpu(&sym_walks, plan, gpu, simd, budget, seed, stop, out);
}
