/*
 * methods.h - the table of counting methods (methods.c): a method by its
 * id, the default for a count, unit lists and SIMD levels. Not public.
 * The job a method does is method.h's; the engine, the checkpoint store,
 * parts and the re-check find a method's row here.
 */
#ifndef NQ_METHODS_H
#define NQ_METHODS_H

#include "method.h"

/* @return the method's operations; NQ_METHOD_DEFAULT gives those of the
 *         default for totals at large n (ops->id says which; the default
 *         of one count is nq_method_pick()'s); NULL for an unknown method. */
const nq_method_ops *nq_method_ops_of(nq_method method);

/* Whether a checkpoint or part line of n made with unit list `version` of
 * the method addresses the same units as the method's list now: its
 * current version, or the one before where that list of n is unchanged
 * (list_kept_below). 0 for a value that is not a method. */
int nq_method_reads_list(nq_method method, unsigned n, uint32_t version);

/* The method that counts board size n with `method` when unique counts
 * are wanted (`unique` nonzero) or not: NQ_METHOD_DEFAULT is the fastest
 * for the job at that n, chosen from a table of rows in method.c (by n
 * and `unique` alone, never by the CPU, so that every machine of a split
 * run chooses alike).
 * @return NQ_OK, NQ_EINVAL (unknown method), NQ_EMETHOD (unique counts
 *         asked of a method that has none). */
int nq_method_pick(const nq_method_ops **out, nq_method method, unsigned n,
                   int unique);

/* The SIMD level a count of `ops` runs at when `asked` is asked for:
 * `asked` itself; for NQ_SIMD_AUTO the widest level this CPU runs that the
 * method has; NQ_SIMD_NONE for a scalar-only method, whatever was asked.
 * @return NQ_OK, NQ_EINVAL (not a level), NQ_EUNSUPPORTED (asked is above
 *         nq_simd_best(), or the method lacks that very level). */
int nq_method_simd(nq_simd *out, const nq_method_ops *ops, nq_simd asked);

#endif /* NQ_METHODS_H */
