/*
 * method.c - the table of counting methods, and the public helpers that
 * only need the table (names, unit lists, SIMD levels).
 *
 * One row per method. The row is all the engine, the checkpoint store and
 * the command line ever learn about a method: see method.h.
 */
#include "method.h"

#include "platform/cpu.h"

/* NQ_METHOD_DEFAULT is served by these rows: for totals, the join from
 * the first n of join_from[] at the level a count runs at, where it is
 * the fastest (measured: docs/performance.md, "The default at each SIMD
 * level"); the symmetry method below it and whenever unique counts are
 * wanted. The choice is made per n and level: a split run's parts name
 * the method that counted them (a mix is refused when they are added up),
 * a checkpoint resumes with the method that made it, and nqueens-mpi lets
 * rank 0 choose for every rank. (Until the join's AVX-512 pair kernel
 * kept short lists in registers, the symmetry method was the default at
 * n = 17 on AVX-512.) */
#define NQ_DEFAULT_METHOD (&nq_join_method)
#define NQ_DEFAULT_SMALL_METHOD (&nq_sym_method)
#define NQ_DEFAULT_UNIQUE_METHOD (&nq_sym_method)

static const nq_method_ops *const nq_methods[] = {
    &nq_plain_method,
    &nq_sym_method,
    &nq_join_method,
};

#define NQ_METHOD_COUNT (sizeof nq_methods / sizeof nq_methods[0])

const nq_method_ops *nq_method_ops_of(nq_method method)
{
    if (method == NQ_METHOD_DEFAULT)
        return NQ_DEFAULT_METHOD;
    for (size_t i = 0; i < NQ_METHOD_COUNT; i++)
        if (nq_methods[i]->id == method)
            return nq_methods[i];
    return NULL;
}

/* The first n whose totals the join counts by default, per SIMD level. */
static const unsigned join_from[] = {
    [NQ_SIMD_NONE] = 16u, [NQ_SIMD_AVX2] = 16u, [NQ_SIMD_AVX512] = 16u,
};

/* The default for totals of n at level `simd` (NQ_SIMD_AUTO: this CPU's
 * widest). */
static const nq_method_ops *default_for_totals(unsigned n, nq_simd simd)
{
    const size_t level = (size_t)(simd == NQ_SIMD_AUTO ? nq_simd_best() : simd);
    if (level >= sizeof join_from / sizeof join_from[0] || n < join_from[level])
        return NQ_DEFAULT_SMALL_METHOD;
    return NQ_DEFAULT_METHOD;
}

int nq_method_pick(const nq_method_ops **out, nq_method method, unsigned n,
                   int unique, nq_simd simd)
{
    const nq_method_ops *ops = nq_method_ops_of(method);
    if (method == NQ_METHOD_DEFAULT && unique)
        ops = NQ_DEFAULT_UNIQUE_METHOD;
    else if (method == NQ_METHOD_DEFAULT)
        ops = default_for_totals(n, simd);
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
    if (!nq_simd_name(simd) ||
        nq_method_pick(&ops, NQ_METHOD_DEFAULT, n, unique, simd) != NQ_OK)
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

    if (!out || nq_method_pick(&ops, method, n, 0, NQ_SIMD_AUTO) != NQ_OK)
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

int nq_method_simd(nq_simd *out, const nq_method_ops *ops, nq_simd asked)
{
    nq_simd best;

    if (!out || !ops || !nq_simd_name(asked))
        return NQ_EINVAL;
    best = nq_simd_best();
    if (asked != NQ_SIMD_AUTO && asked != NQ_SIMD_NONE && asked > best)
        return NQ_EUNSUPPORTED;
    if (!ops->has_simd) {
        *out = NQ_SIMD_NONE;
        return NQ_OK;
    }
    if (asked == NQ_SIMD_AUTO) {
        nq_simd level = best;
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
