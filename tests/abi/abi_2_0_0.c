/*
 * abi_2_0_0.c - the versioned structs of the 2.0.0 header, compiled from
 * that header as released (tests/abi/nqueens-2.0.0.h) and nothing else, so
 * that their sizes are what a program built against 2.0.0 passes to the
 * library. Test helper.
 */
#include "nqueens-2.0.0.h"

#include "abi_released.h"

#define ROW(type, version) {#type, version, sizeof(type)}

const nq_abi_size nq_abi_2_0_0[] = {
    ROW(nq_count_options, NQ_COUNT_OPTIONS_VERSION),
    ROW(nq_count_result, NQ_COUNT_RESULT_VERSION),
    ROW(nq_estimate_result, NQ_ESTIMATE_RESULT_VERSION),
    ROW(nq_checkpoint_info, NQ_CHECKPOINT_INFO_VERSION),
    ROW(nq_recheck_options, NQ_RECHECK_OPTIONS_VERSION),
    ROW(nq_recheck_result, NQ_RECHECK_RESULT_VERSION),
    ROW(nq_part, NQ_PART_VERSION),
    ROW(nq_partline_error, NQ_PARTLINE_ERROR_VERSION),
    ROW(nq_merge_summary, NQ_MERGE_SUMMARY_VERSION),
    ROW(nq_merge_error, NQ_MERGE_ERROR_VERSION),
    ROW(nq_list_options, NQ_LIST_OPTIONS_VERSION),
    ROW(nq_violation, NQ_VIOLATION_VERSION),
    ROW(nq_placement_error, NQ_PLACEMENT_ERROR_VERSION),
    {NULL, 0, 0},
};
