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
 * Older option structs
 * ------------------------------------------------------------------------ */

/* Size of each version of the structs: its fields end where the next
 * version's first field begins. */
#define COUNT_V1_SIZE offsetof(nq_count_options, unique)
#define LIST_V1_SIZE offsetof(nq_list_options, stop)

int nq_count_options_load(nq_count_options *out, const nq_count_options *in)
{
    static const nq_count_options defaults = NQ_COUNT_OPTIONS_INIT;
    *out = defaults;
    if (!in)
        return NQ_OK;
    if (in->version == 0 || in->version > NQ_COUNT_OPTIONS_VERSION)
        return NQ_EVERSION;
    if (in->version == 1) {
        memcpy(out, in, COUNT_V1_SIZE);
        out->unique = 1;
    } else {
        *out = *in;
    }
    out->version = NQ_COUNT_OPTIONS_VERSION;
    return NQ_OK;
}

int nq_list_options_load(nq_list_options *out, const nq_list_options *in)
{
    static const nq_list_options defaults = NQ_LIST_OPTIONS_INIT;
    *out = defaults;
    if (!in)
        return NQ_OK;
    if (in->version == 0 || in->version > NQ_LIST_OPTIONS_VERSION)
        return NQ_EVERSION;
    if (in->version == 1)
        memcpy(out, in, LIST_V1_SIZE);
    else
        *out = *in;
    out->version = NQ_LIST_OPTIONS_VERSION;
    return NQ_OK;
}

int nq_count_cancelled(const nq_count_options *o)
{
    return (o->cancel && *o->cancel) || nq_cancel_raised(o->stop);
}

int nq_list_cancelled(const nq_list_options *o)
{
    return (o->cancel && *o->cancel) || nq_cancel_raised(o->stop);
}
