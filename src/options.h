/*
 * options.h - option structs of every accepted version, read into the
 * current one, and the cancel flag that the option structs carry. Not
 * public.
 *
 * A caller built against an older header passes a smaller struct: only the
 * fields of its version may be read. Each entry point copies what the
 * caller's version has into a full current struct (the rest at its
 * default) and reads that copy alone.
 */
#ifndef NQ_OPTIONS_H
#define NQ_OPTIONS_H

#include "nqueens.h"
#include "stop.h"

/* Copies *in (NULL: the defaults) into *out, the fields that in->version
 * lacks at their defaults.
 * @return NQ_OK, NQ_EVERSION (a version that is not accepted). */
int nq_count_options_load(nq_count_options *out, const nq_count_options *in);
int nq_list_options_load(nq_list_options *out, const nq_list_options *in);
int nq_recheck_options_load(nq_recheck_options *out,
                            const nq_recheck_options *in);

/* The atomic inside an nq_cancel, for the walks to poll (NULL for NULL). */
const nq_stop_flag *nq_cancel_flag(const nq_cancel *flag);

#endif /* NQ_OPTIONS_H */
