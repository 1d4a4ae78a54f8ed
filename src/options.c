/*
 * options.c - option structs of every version (see options.h), and
 * nq_cancel: one lock-free atomic int, which C11 lets a signal handler
 * store to and any thread load, with no data race.
 */
#include "options.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2,
               "nq_cancel_raise() must be async-signal-safe");

struct nq_cancel {
    nq_stop_flag raised; /* an atomic_int */
};

const nq_stop_flag *nq_cancel_flag(const nq_cancel *flag)
{
    return flag ? &flag->raised : NULL;
}

int nq_cancel_new(nq_cancel **out)
{
    nq_cancel *c;
    if (!out)
        return NQ_EINVAL;
    c = malloc(sizeof *c);
    if (!c)
        return NQ_ENOMEM;
    atomic_init(&c->raised, 0);
    *out = c;
    return NQ_OK;
}

void nq_cancel_free(nq_cancel *flag) { free(flag); }

void nq_cancel_raise(nq_cancel *flag)
{
    if (flag)
        atomic_store_explicit(&flag->raised, 1, memory_order_relaxed);
}

void nq_cancel_clear(nq_cancel *flag)
{
    if (flag)
        atomic_store_explicit(&flag->raised, 0, memory_order_relaxed);
}

int nq_cancel_raised(const nq_cancel *flag)
{
    return flag && atomic_load_explicit(&flag->raised, memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * Option structs of every accepted version
 * ------------------------------------------------------------------------ */

/* The bytes of each accepted version of the structs (0: not accepted).
 * Versions 1 and 2 were layouts before the first release. A version that
 * adds fields at the end adds its row here: its size is where the next
 * version's first field begins. */
static const size_t count_sizes[NQ_COUNT_OPTIONS_VERSION + 1] = {
    [3] = offsetof(nq_count_options, device),
    [NQ_COUNT_OPTIONS_VERSION] = sizeof(nq_count_options),
};
static const size_t list_sizes[NQ_LIST_OPTIONS_VERSION + 1] = {
    [NQ_LIST_OPTIONS_VERSION] = sizeof(nq_list_options),
};
static const size_t recheck_sizes[NQ_RECHECK_OPTIONS_VERSION + 1] = {
    [NQ_RECHECK_OPTIONS_VERSION] = sizeof(nq_recheck_options),
};

static const nq_count_options count_defaults = NQ_COUNT_OPTIONS_INIT;
static const nq_list_options list_defaults = NQ_LIST_OPTIONS_INIT;
static const nq_recheck_options recheck_defaults = NQ_RECHECK_OPTIONS_INIT;

/* The size of version v of a struct whose accepted sizes are `sizes`
 * (versions min .. max), or 0 when v is not accepted. */
static size_t accepted(const size_t *sizes, unsigned v, unsigned min, unsigned max)
{
    return v >= min && v <= max ? sizes[v] : 0;
}

int nq_count_options_init(nq_count_options *opts, unsigned version)
{
    size_t size = accepted(count_sizes, version, NQ_COUNT_OPTIONS_VERSION_MIN,
                           NQ_COUNT_OPTIONS_VERSION);
    if (!opts)
        return NQ_EINVAL;
    if (!size)
        return NQ_EVERSION;
    memcpy(opts, &count_defaults, size);
    opts->version = version;
    return NQ_OK;
}

int nq_list_options_init(nq_list_options *opts, unsigned version)
{
    size_t size = accepted(list_sizes, version, NQ_LIST_OPTIONS_VERSION_MIN,
                           NQ_LIST_OPTIONS_VERSION);
    if (!opts)
        return NQ_EINVAL;
    if (!size)
        return NQ_EVERSION;
    memcpy(opts, &list_defaults, size);
    opts->version = version;
    return NQ_OK;
}

int nq_recheck_options_init(nq_recheck_options *opts, unsigned version)
{
    size_t size = accepted(recheck_sizes, version, NQ_RECHECK_OPTIONS_VERSION_MIN,
                           NQ_RECHECK_OPTIONS_VERSION);
    if (!opts)
        return NQ_EINVAL;
    if (!size)
        return NQ_EVERSION;
    memcpy(opts, &recheck_defaults, size);
    opts->version = version;
    return NQ_OK;
}

int nq_count_options_load(nq_count_options *out, const nq_count_options *in)
{
    size_t size;
    *out = count_defaults;
    if (!in)
        return NQ_OK;
    size = accepted(count_sizes, in->version, NQ_COUNT_OPTIONS_VERSION_MIN,
                    NQ_COUNT_OPTIONS_VERSION);
    if (!size)
        return NQ_EVERSION;
    memcpy(out, in, size);
    out->version = NQ_COUNT_OPTIONS_VERSION;
    return NQ_OK;
}

int nq_list_options_load(nq_list_options *out, const nq_list_options *in)
{
    size_t size;
    *out = list_defaults;
    if (!in)
        return NQ_OK;
    size = accepted(list_sizes, in->version, NQ_LIST_OPTIONS_VERSION_MIN,
                    NQ_LIST_OPTIONS_VERSION);
    if (!size)
        return NQ_EVERSION;
    memcpy(out, in, size);
    out->version = NQ_LIST_OPTIONS_VERSION;
    return NQ_OK;
}

int nq_recheck_options_load(nq_recheck_options *out, const nq_recheck_options *in)
{
    size_t size;
    *out = recheck_defaults;
    if (!in)
        return NQ_OK;
    size = accepted(recheck_sizes, in->version, NQ_RECHECK_OPTIONS_VERSION_MIN,
                    NQ_RECHECK_OPTIONS_VERSION);
    if (!size)
        return NQ_EVERSION;
    memcpy(out, in, size);
    out->version = NQ_RECHECK_OPTIONS_VERSION;
    return NQ_OK;
}
