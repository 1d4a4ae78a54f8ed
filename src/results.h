/*
 * results.h - the structs that the library fills for its caller (results
 * and fault details), read and written at the caller's version. Not
 * public.
 *
 * Every such struct begins with `unsigned version` (include/nqueens.h,
 * "Structs that grow"): a program built against an older header passes a
 * shorter struct, whose later fields the library must neither write nor
 * read. Each entry point checks the version of the struct it was given
 * (NQ_EVERSION for one it does not know), fills a whole struct of the
 * current version, and stores the fields of the caller's version; a struct
 * the caller hands back (a fault to format, parts to merge) is loaded the
 * other way, the fields its version lacks at 0.
 */
#ifndef NQ_RESULTS_H
#define NQ_RESULTS_H

#include <stddef.h>

#include "nqueens.h"

/* The versions of one struct: sizes[v] is the bytes of version v, for
 * 1 <= v <= current. */
typedef struct nq_layout {
    const size_t *sizes;
    unsigned current;
} nq_layout;

extern const nq_layout nq_count_result_layout;
extern const nq_layout nq_estimate_result_layout;
extern const nq_layout nq_checkpoint_info_layout;
extern const nq_layout nq_recheck_result_layout;
extern const nq_layout nq_part_layout;
extern const nq_layout nq_partline_error_layout;
extern const nq_layout nq_merge_summary_layout;
extern const nq_layout nq_merge_error_layout;
extern const nq_layout nq_violation_layout;
extern const nq_layout nq_placement_error_layout;
extern const nq_layout nq_gpu_info_layout;

/* @return the bytes of the version that the struct at p names (its first
 * field), or 0 when that is not a version of l. */
size_t nq_layout_size(const nq_layout *l, const void *p);

/* The version that the struct at p names (its first field). */
unsigned nq_result_version(const void *p);

/* Stores into *out the fields of its version (one of l's) from *full, a
 * struct of the current version whose own version field is not read;
 * out's version stays as it was. */
void nq_result_store(void *out, const void *full, const nq_layout *l);

/* Stores *full as element i of an array whose elements all have the
 * version of its first (one of l's), at the stride of that version, the
 * element's version set to it. */
void nq_result_store_at(void *array, size_t i, const void *full, const nq_layout *l);

/* Loads *in (of one of l's versions) into *full, a struct of the current
 * version of `full_size` bytes: the fields in's version lacks are 0, and
 * full's version is the current one. */
void nq_result_load(void *full, size_t full_size, const void *in, const nq_layout *l);

#endif /* NQ_RESULTS_H */
