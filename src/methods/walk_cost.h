/*
 * walk_cost.h - the cost model of the methods whose units are walks down
 * a tree of rows (the symmetry method and the plain walk): what a method
 * tells the model, and the model (walk_cost.c). Not public.
 */
#ifndef NQ_WALK_COST_H
#define NQ_WALK_COST_H

#include <stdint.h>

#include "method.h"

struct nq_gpu; /* device/device.h */

#define NQ_WALK_MAX_LEVELS 32u

/* A unit's walk: `levels` rows, top to bottom, the last only tested; a
 * row's queen may stand on allowed[i] and moves the diagonal masks by
 * shift[i] to the next row; the walk starts at row `level` with the
 * attacked columns and diagonals cols, ld and rd. A node is a queen placed
 * on a row other than the last. */
typedef struct nq_walk_tree {
    unsigned levels, level;
    uint32_t cols, ld, rd;
    uint32_t allowed[NQ_WALK_MAX_LEVELS];
    uint32_t shift[NQ_WALK_MAX_LEVELS];
} nq_walk_tree;

/* What the model needs of a method: the board whose units are timed to
 * price a node (small enough to time a unit in milliseconds, large enough
 * that its units are like the count's); the functions of its row in the
 * method table (method.h) that build, size, solve and free a plan, and
 * say whether a SIMD level has a kernel (NULL: every level counts); and
 * the walk of a unit (NQ_OK or NQ_EINVAL). The method passes its own
 * functions rather than its row, which names the model. */
typedef struct nq_walk_method {
    unsigned cal_n;
    nq_plan_build_fn *build;
    nq_plan_size_fn *size;
    nq_plan_solve_fn *solve;
    nq_plan_destroy_fn *destroy;
    nq_has_simd_fn *has_simd;
    int (*tree)(const void *plan, uint64_t unit, nq_walk_tree *out);
    /* method.h's solve_gpu; NULL: no GPU path */
    int (*solve_gpu)(const void *plan, struct nq_gpu *gpu, const uint64_t *units,
                     size_t count, nq_simd simd, const nq_stop_flag *stop,
                     nq_unit_result *out);
} nq_walk_method;

/* Models the one-core CPU time of the whole count of `plan` (of m->ops) at
 * level `simd` (never AUTO) from random walks down a seeded sample of its
 * units, priced by units of m->cal_n timed on this machine, in about
 * `budget` seconds of the calling thread. Polls *stop.
 * @return NQ_OK, NQ_EUNSUPPORTED (no kernel of that level), NQ_ECANCELED,
 *         NQ_EINVAL, NQ_ENOMEM. */
int nq_walk_model(const nq_walk_method *m, const void *plan, nq_simd simd,
                  double budget, uint64_t seed, const nq_stop_flag *stop,
                  nq_cost_model *out);

/* As nq_walk_model(), for a count on the opened GPU `gpu` (m->solve_gpu
 * set): out->cpu_seconds is the GPU's wall time for the whole count,
 * priced by batches of GPU_BATCH units of m->cal_n, each counted twice
 * on it after an untimed batch, the shorter time kept.
 * @return as nq_walk_model(), NQ_EUNSUPPORTED without solve_gpu, or an
 *         error of the GPU. */
int nq_walk_model_gpu(const nq_walk_method *m, const void *plan, struct nq_gpu *gpu,
                      nq_simd simd, double budget, uint64_t seed,
                      const nq_stop_flag *stop, nq_cost_model *out);

/* The nodes of unit `unit`'s walk as the model estimates them from about
 * `probes` (1 to NQ_WALK_MAX_PROBES) random walks seeded by *seed (exact
 * when no row of the walk has more than `probes` nodes), and, unless
 * exact is NULL, exactly. For the tests and benchmarks.
 * @return NQ_OK, NQ_EINVAL, NQ_ENOMEM. */
#define NQ_WALK_MAX_PROBES 8192u
int nq_walk_unit_nodes(const nq_walk_method *m, const void *plan, uint64_t unit,
                       unsigned probes, uint64_t *seed, double *estimate,
                       uint64_t *exact);

#endif /* NQ_WALK_COST_H */
