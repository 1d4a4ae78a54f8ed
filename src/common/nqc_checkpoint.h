/*
 * What nqueens and nqueens-mpi both say and decide about a checkpoint
 * file, through the public API only: which method a count with a
 * checkpoint runs, and why a file does not fit a count. The file's facts
 * come from one nq_checkpoint_peek() made before it is opened, so that a
 * refusal reads the file no more than the count would.
 */
#ifndef NQC_CHECKPOINT_H
#define NQC_CHECKPOINT_H

#include <stdio.h>
#include <string.h>

#include "nqueens.h"

/*! nqc_checkpoint_method() : the method of a count of n with a checkpoint
 *  whose header is `file` (NULL when there is none, or it cannot be read):
 *  the one asked for if any; else the one that made the file, so that a
 *  run of another default resumes as it began; else NQ_METHOD_DEFAULT. */
static inline nq_method nqc_checkpoint_method(nq_method asked, unsigned n,
                                              const nq_checkpoint_info *file)
{
    if (asked == NQ_METHOD_DEFAULT && file && file->n == n &&
        nq_method_name(file->method) != NULL)
        return file->method;
    return asked;
}

/*! nqc_checkpoint_mismatch() : after nq_checkpoint_open(n, method) answered
 *  NQ_EMISMATCH, writes in buf what differs between the file (its header
 *  `file`, NULL if unknown) and the count, as "holds n = 17, not 16", with
 *  the way out where there is one. */
static inline void nqc_checkpoint_mismatch(char *buf, size_t size,
                                           const nq_checkpoint_info *file,
                                           unsigned n, nq_method method)
{
    nq_checkpoint_info want = NQ_CHECKPOINT_INFO_INIT;
    nq_checkpoint *mem = NULL;
    const char *fm = file ? nq_method_name(file->method) : NULL;
    /* what the count expects, from a checkpoint in memory only */
    int known = file && nq_checkpoint_open(&mem, NULL, n, method) == NQ_OK &&
                nq_checkpoint_info_get(&want, mem) == NQ_OK;

    nq_checkpoint_close(mem);
    if (known && file->n != want.n)
        snprintf(buf, size, "holds n = %u, not %u", file->n, want.n);
    else if (known && file->method != want.method && fm)
        snprintf(buf, size, "holds method %s, not %s (--method=%s resumes it)", fm,
                 nq_method_name(want.method), fm);
    else if (known && file->method != want.method)
        snprintf(buf, size, "holds method number %u, which this version does "
                            "not know", (unsigned)file->method);
    else if (known && file->unit_list_version != want.unit_list_version)
        snprintf(buf, size, "holds unit list version %lu of the %s method, not %lu "
                            "(made by another version of nqueens)",
                 (unsigned long)file->unit_list_version, nq_method_name(want.method),
                 (unsigned long)want.unit_list_version);
    else if (known && file->units_total != want.units_total)
        snprintf(buf, size, "holds %llu units, not %llu",
                 (unsigned long long)file->units_total,
                 (unsigned long long)want.units_total);
    else
        snprintf(buf, size, "belongs to another board size, method or version of "
                            "the unit list");
}

#endif
