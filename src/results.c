/*
 * results.c - the versions of the structs that the library fills for its
 * caller, and the copies that keep to a caller's version (see results.h).
 *
 * A version that appends fields adds its row to the struct's table: the
 * size of each older version is where the first field of the next one
 * begins (offsetof), and the current one is sizeof.
 */
#include "results.h"

#include <string.h>

#define LAYOUT(name, type, current_version)                                 \
    static const size_t name##_sizes[(current_version) + 1] = {             \
        [current_version] = sizeof(type),                                   \
    };                                                                      \
    const nq_layout nq_##name##_layout = { name##_sizes, current_version }

#define LAYOUT2(name, type, first_of_2)                                     \
    static const size_t name##_sizes[3] = {                                 \
        [1] = offsetof(type, first_of_2),                                   \
        [2] = sizeof(type),                                                 \
    };                                                                      \
    const nq_layout nq_##name##_layout = { name##_sizes, 2 }

/* version 2 appended the device (a program built against 2.0.0 passes
 * version 1, and gets what 2.0.0 gave it) */
_Static_assert(NQ_COUNT_RESULT_VERSION == 2, "nq_count_result: a row for the new version");
_Static_assert(NQ_ESTIMATE_RESULT_VERSION == 2, "nq_estimate_result: a row for the new version");
LAYOUT2(count_result, nq_count_result, device);
LAYOUT2(estimate_result, nq_estimate_result, device);
LAYOUT(checkpoint_info, nq_checkpoint_info, NQ_CHECKPOINT_INFO_VERSION);
LAYOUT(recheck_result, nq_recheck_result, NQ_RECHECK_RESULT_VERSION);
LAYOUT(part, nq_part, NQ_PART_VERSION);
LAYOUT(partline_error, nq_partline_error, NQ_PARTLINE_ERROR_VERSION);
LAYOUT(merge_summary, nq_merge_summary, NQ_MERGE_SUMMARY_VERSION);
LAYOUT(merge_error, nq_merge_error, NQ_MERGE_ERROR_VERSION);
LAYOUT(violation, nq_violation, NQ_VIOLATION_VERSION);
LAYOUT(placement_error, nq_placement_error, NQ_PLACEMENT_ERROR_VERSION);
LAYOUT(gpu_info, nq_gpu_info, NQ_GPU_INFO_VERSION);

unsigned nq_result_version(const void *p)
{
    unsigned v;
    memcpy(&v, p, sizeof v);
    return v;
}

size_t nq_layout_size(const nq_layout *l, const void *p)
{
    const unsigned v = nq_result_version(p);
    return v >= 1 && v <= l->current ? l->sizes[v] : 0;
}

void nq_result_store(void *out, const void *full, const nq_layout *l)
{
    const unsigned v = nq_result_version(out);
    memcpy(out, full, nq_layout_size(l, out));
    memcpy(out, &v, sizeof v);
}

void nq_result_store_at(void *array, size_t i, const void *full, const nq_layout *l)
{
    const unsigned v = nq_result_version(array);
    unsigned char *element = (unsigned char *)array + i * nq_layout_size(l, array);
    memcpy(element, &v, sizeof v);
    nq_result_store(element, full, l);
}

void nq_result_load(void *full, size_t full_size, const void *in, const nq_layout *l)
{
    const unsigned v = l->current;
    memset(full, 0, full_size);
    memcpy(full, in, nq_layout_size(l, in));
    memcpy(full, &v, sizeof v);
}
