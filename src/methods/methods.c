/*
 * methods.c - the table of counting methods, and the public helpers that
 * only need the table (names, unit lists, SIMD levels).
 *
 * One row per method. The row is all the engine, the checkpoint store and
 * the command line ever learn about a method: see method.h and methods.h.
 */
#include "methods.h"

#include "join/join_method.h"
#include "plain/plain.h"
#include "platform/cpu.h"
#include "sym/sym.h"

static const nq_method_ops *const nq_methods[] = {
    &nq_plain_method,
    &nq_sym_method,
    &nq_join_method,
};

#define NQ_METHOD_COUNT (sizeof nq_methods / sizeof nq_methods[0])

/* What NQ_METHOD_DEFAULT stands for: the method of the first row that a
 * count fits, the fastest for the job where measured (docs/performance.md,
 * "The default at each SIMD level"): the join for totals from n = 16, the
 * symmetry method below it and whenever unique counts are wanted. The
 * measurements gave the same rows at every SIMD level, so the level is not
 * a column: every machine of a split run chooses alike. (Until the join's
 * AVX-512 pair kernel kept short lists in registers, the symmetry method
 * was the default at n = 17 on AVX-512.) Up to n = 28 the join stays the
 * cheaper for totals (docs/record-runs.md, "Which method"): one core's
 * CPU time, measured at n = 21 to 26, is 2.3 to 5.3 times less than the
 * symmetry method's at AVX-512; modelled, 2.6 times less at n = 27, and
 * at n = 28 the two models overlap at AVX-512 (the join 5.7 to 9.8
 * million core-hours over the runs made, the symmetry method 5.5 to 6.8)
 * while the join takes half the symmetry method's time at AVX2 and
 * without SIMD. A split run's parts name the
 * method that counted them (a mix is refused when they are added up), a
 * checkpoint resumes with the method that made it, and nqueens-mpi lets
 * rank 0 choose for every rank, so a change of these rows changes no
 * count under way. */
static const struct nq_default_row {
    int unique;               /* rows for counts with unique counts (1) or not */
    unsigned from_n;          /* the smallest n of the row */
    const nq_method_ops *ops;
} nq_defaults[] = {
    { .unique = 1, .from_n = 0, .ops = &nq_sym_method },
    { .unique = 0, .from_n = 16, .ops = &nq_join_method },
    { .unique = 0, .from_n = 0, .ops = &nq_sym_method },
};

/* The default of a count of n that wants unique counts (unique nonzero)
 * or not: every (n, unique) meets a row. */
static const nq_method_ops *default_for(unsigned n, int unique)
{
    for (size_t i = 0; i < sizeof nq_defaults / sizeof nq_defaults[0]; i++)
        if (nq_defaults[i].unique == (unique != 0) && n >= nq_defaults[i].from_n)
            return nq_defaults[i].ops;
    return NULL;
}

const nq_method_ops *nq_method_ops_of(nq_method method)
{
    if (method == NQ_METHOD_DEFAULT)
        return default_for(NQ_MAX_N, 0);
    for (size_t i = 0; i < NQ_METHOD_COUNT; i++)
        if (nq_methods[i]->id == method)
            return nq_methods[i];
    return NULL;
}

int nq_method_pick(const nq_method_ops **out, nq_method method, unsigned n,
                   int unique)
{
    const nq_method_ops *ops = method == NQ_METHOD_DEFAULT ? default_for(n, unique)
                                                           : nq_method_ops_of(method);
    if (!ops)
        return NQ_EINVAL;
    if (unique && !ops->has_unique)
        return NQ_EMETHOD;
    *out = ops;
    return NQ_OK;
}

nq_method nq_method_default(unsigned n, int unique, nq_simd simd)
{
    const nq_method_ops *ops = NULL;
    if (!nq_simd_name(simd) || nq_method_pick(&ops, NQ_METHOD_DEFAULT, n, unique) != NQ_OK)
        return NQ_METHOD_DEFAULT;
    return ops->id;
}

const char *nq_method_name(nq_method method)
{
    const nq_method_ops *ops;
    if (method == NQ_METHOD_DEFAULT)
        return "default";
    ops = nq_method_ops_of(method);
    return ops ? ops->name : NULL;
}

int nq_method_reads_list(nq_method method, unsigned n, uint32_t version)
{
    const nq_method_ops *ops = nq_method_ops_of(method);
    if (!ops)
        return 0;
    return version == ops->list_version ||
           (version + 1 == ops->list_version && n < ops->list_kept_below);
}

uint32_t nq_unit_list_version(nq_method method)
{
    const nq_method_ops *ops = nq_method_ops_of(method);
    return ops ? ops->list_version : 0;
}

int nq_units(uint64_t *out, unsigned n, nq_method method)
{
    const nq_method_ops *ops = NULL;
    void *plan = NULL;
    int rc;

    if (!out || nq_method_pick(&ops, method, n, 0) != NQ_OK)
        return NQ_EINVAL;
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    rc = ops->build(&plan, n);
    if (rc != NQ_OK)
        return rc;
    *out = ops->size(plan);
    ops->destroy(plan);
    return NQ_OK;
}

/* ------------------------------------------------------------------------
 * SIMD levels: what the CPU runs (platform/cpu.c) meets what the methods have.
 * ------------------------------------------------------------------------ */

/* Whether some method has a kernel at this level. */
static int nq_any_kernel(nq_simd simd)
{
    for (size_t i = 0; i < NQ_METHOD_COUNT; i++)
        if (nq_methods[i]->has_simd && nq_methods[i]->has_simd(simd))
            return 1;
    return 0;
}

nq_simd nq_simd_best(void)
{
    nq_simd level = nq_cpu_simd_best();
    while (level > NQ_SIMD_NONE && !nq_any_kernel(level))
        level = (nq_simd)(level - 1);
    return level;
}

int nq_simd_supported(nq_simd simd)
{
    return nq_simd_name(simd) != NULL && nq_cpu_runs(nq_simd_best(), simd);
}

int nq_method_simd(nq_simd *out, const nq_method_ops *ops, nq_simd asked)
{
    if (!out || !ops || !nq_simd_name(asked))
        return NQ_EINVAL;
    if (!nq_simd_supported(asked))
        return NQ_EUNSUPPORTED;
    if (!ops->has_simd) {
        *out = NQ_SIMD_NONE;
        return NQ_OK;
    }
    if (asked == NQ_SIMD_AUTO) {
        nq_simd level = nq_simd_best();
        while (level > NQ_SIMD_NONE && !ops->has_simd(level))
            level = (nq_simd)(level - 1);
        *out = level;
        return NQ_OK;
    }
    if (asked != NQ_SIMD_NONE && !ops->has_simd(asked))
        return NQ_EUNSUPPORTED;
    *out = asked;
    return NQ_OK;
}
