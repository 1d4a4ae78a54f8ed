/*
 * recheck.c - nq_recheck(): finished units of a checkpoint counted again
 * by another path than the one that recorded them, and compared.
 *
 * Why. A record count runs for months on machines nobody watches; a wrong
 * unit (a flipped bit in memory, a kernel bug that only some split
 * reaches, a build miscompiled for one CPU) would go into the total
 * silently, and the published count of the next n is not known to compare
 * with. A unit counted again by other code and found equal is evidence
 * that its record is right; a random sample of units so checked bounds the
 * share of wrong ones (docs/long-runs.md works out how many to take).
 *
 * Paths, all through the method table (method.h), so that a new unit list
 * or method needs nothing here: the method's own units at another SIMD
 * level (KERNEL); the same units by other code of the method (WALK:
 * build_other, the join walking its half-boards instead of reading its
 * table); or a slow walk that shares nothing with the count (INDEPENDENT:
 * check, the join's restricted whole-board walk in join_check.c).
 *
 * The sample. The finished units are listed in increasing order, and the
 * first k places of a Fisher-Yates shuffle, driven by splitmix64 from the
 * seed with rejection for an unbiased range, pick k of them: every k-set
 * is equally likely, and the same seed picks the same units on every
 * platform. They are then counted in increasing order of unit. One thread:
 * the caller's; the stop flag is polled between units and by the walks.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "methods/methods.h"
#include "nqc_clock.h"
#include "nqc_random.h"
#include "options.h"
#include "results.h"

/* A uniform number in [0, bound), bound > 0. */
static uint64_t below(uint64_t *state, uint64_t bound)
{
    const uint64_t floor = (0u - bound) % bound; /* 2^64 mod bound */
    uint64_t r;
    do
        r = nqc_splitmix64(state);
    while (r < floor);
    return r % bound;
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t add_capped(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Builds the plan of the path, fitted into the memory limit with one
 * thread (the join takes its table only where it fits). */
static int build_plan(void **plan, const nq_method_ops *ops, nq_recheck_path path,
                      unsigned n, uint64_t max_memory)
{
    uint64_t bytes = 0, limit = max_memory;
    int rc = (path == NQ_RECHECK_WALK ? ops->build_other : ops->build)(plan, n);
    if (rc != NQ_OK || path == NQ_RECHECK_INDEPENDENT || !ops->fit_memory)
        return rc;
    if (!limit) /* as much as a count may take */
        limit = nq_default_memory_limit();
    rc = ops->fit_memory(*plan, 1, limit, &bytes) == NQ_OK ? NQ_OK : NQ_EMEMLIMIT;
    if (rc != NQ_OK) {
        ops->destroy(*plan);
        *plan = NULL;
    }
    return rc;
}

/* The units to count again, in increasing order, into a new array. */
static int pick_units(uint64_t **out, uint64_t *count, const nq_checkpoint *cp,
                      const nq_checkpoint_info *info, const nq_recheck_options *o)
{
    uint64_t *u, n = 0;
    if (o->units) {
        if (o->units_count == 0 || o->units_count > info->units_done)
            return NQ_EINVAL;
        u = malloc(o->units_count * sizeof *u);
        if (!u)
            return NQ_ENOMEM;
        memcpy(u, o->units, o->units_count * sizeof *u);
        n = o->units_count;
        qsort(u, (size_t)n, sizeof *u, by_value);
        for (uint64_t i = 0; i < n; i++)
            if (!nq_checkpoint_is_done(cp, u[i]) || (i > 0 && u[i] == u[i - 1])) {
                free(u);
                return NQ_EINVAL;
            }
    } else {
        uint64_t state = o->seed, k;
        if (info->units_done > SIZE_MAX / sizeof *u)
            return NQ_ENOMEM;
        u = malloc((size_t)(info->units_done ? info->units_done : 1) * sizeof *u);
        if (!u)
            return NQ_ENOMEM;
        for (uint64_t i = 0; i < info->units_total && n < info->units_done; i++)
            if (nq_checkpoint_is_done(cp, i))
                u[n++] = i;
        k = o->sample && o->sample < n ? o->sample : n;
        if (k < n) {
            for (uint64_t i = 0; i < k; i++) {
                uint64_t j = i + below(&state, n - i), t = u[i];
                u[i] = u[j];
                u[j] = t;
            }
            n = k;
            qsort(u, (size_t)n, sizeof *u, by_value);
        }
    }
    *out = u;
    *count = n;
    return NQ_OK;
}

/* The path and level that run for `asked`. */
static int pick_path(nq_recheck_path *path, nq_simd *simd, const nq_method_ops *ops,
                     const nq_recheck_options *o)
{
    *path = o->path;
    if (*path == NQ_RECHECK_AUTO)
        *path = ops->build_other ? NQ_RECHECK_WALK : NQ_RECHECK_KERNEL;
    if ((*path == NQ_RECHECK_WALK && !ops->build_other) ||
        (*path == NQ_RECHECK_INDEPENDENT && !ops->check))
        return NQ_EMETHOD;
    if (*path == NQ_RECHECK_INDEPENDENT) {
        *simd = NQ_SIMD_NONE;
        return nq_simd_name(o->simd) ? NQ_OK : NQ_EINVAL;
    }
    return nq_method_simd(simd, ops, o->simd);
}

int nq_recheck(nq_recheck_result *out, const nq_checkpoint *cp,
               const nq_recheck_options *opts)
{
    nq_recheck_options o;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    nq_recheck_result r;
    const nq_method_ops *ops;
    const nq_stop_flag *stop;
    void *plan = NULL;
    uint64_t *units = NULL, count = 0;
    double start;
    int rc;

    if (!out || !cp)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_recheck_result_layout, out))
        return NQ_EVERSION;
    rc = nq_recheck_options_load(&o, opts);
    if (rc != NQ_OK)
        return rc;
    if ((unsigned)o.path > NQ_RECHECK_INDEPENDENT || (!o.units && o.units_count) ||
        nq_checkpoint_info_get(&info, cp) != NQ_OK)
        return NQ_EINVAL;
    ops = info.method != NQ_METHOD_DEFAULT ? nq_method_ops_of(info.method) : NULL;
    if (!ops)
        return NQ_EINVAL;
    memset(&r, 0, sizeof r);
    r.version = NQ_RECHECK_RESULT_VERSION;
    r.n = info.n;
    r.method = info.method;
    r.units_total = info.units_total;
    r.units_done = info.units_done;
    rc = pick_path(&r.path, &r.simd, ops, &o);
    if (rc != NQ_OK)
        return rc;
    stop = nq_cancel_flag(o.stop);
    rc = pick_units(&units, &count, cp, &info, &o);
    if (rc == NQ_OK && count > 0)
        rc = build_plan(&plan, ops, r.path, info.n, o.max_memory);
    if (rc == NQ_OK && count > 0 && ops->size(plan) != info.units_total)
        rc = NQ_EINVAL; /* cannot be: a checkpoint holds this library's list */
    start = nqc_now();
    for (uint64_t i = 0; i < count && rc == NQ_OK; i++) {
        nq_recheck_unit v;
        nq_unit_result got = { 0, 0 };
        double t = nqc_now();
        memset(&v, 0, sizeof v);
        v.version = NQ_RECHECK_UNIT_VERSION;
        v.unit = units[i];
        nq_checkpoint_unit(cp, v.unit, &v.recorded_total, &v.recorded_unique);
        if (nq_stopped(stop)) {
            rc = NQ_ECANCELED;
            break;
        }
        rc = r.path == NQ_RECHECK_INDEPENDENT
                 ? ops->check(plan, v.unit, stop, &got)
                 : ops->solve(plan, v.unit, r.simd, stop, &got);
        if (rc != NQ_OK)
            break;
        v.seconds = nqc_now() - t;
        v.total = got.total;
        v.has_unique = ops->has_unique && r.path != NQ_RECHECK_INDEPENDENT;
        v.unique = v.has_unique ? got.unique : 0;
        v.match = v.total == v.recorded_total &&
                  (!v.has_unique || v.unique == v.recorded_unique);
        if (!v.match && r.mismatched++ == 0)
            r.first_mismatch = v.unit;
        r.checked++;
        r.recorded_total = add_capped(r.recorded_total, v.recorded_total);
        r.total = add_capped(r.total, v.total);
        if (o.on_unit && o.on_unit(&v, o.unit_data) != 0)
            rc = NQ_ECANCELED;
    }
    r.seconds = nqc_now() - start;
    if (plan)
        ops->destroy(plan);
    free(units);
    if (rc == NQ_OK)
        nq_result_store(out, &r, &nq_recheck_result_layout);
    return rc;
}

const char *nq_recheck_path_name(nq_recheck_path path)
{
    switch (path) {
    case NQ_RECHECK_AUTO: return "auto";
    case NQ_RECHECK_KERNEL: return "kernel";
    case NQ_RECHECK_WALK: return "walk";
    case NQ_RECHECK_INDEPENDENT: return "independent";
    default: return NULL;
    }
}
