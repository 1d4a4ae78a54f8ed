// The public header must compile on its own as C++: before C++20 without
// the designated-initialiser macros (the init functions stand in for
// options, and a result struct is zeroed and given its version), from
// C++20 on with them.
#include "nqueens.h"

int nq_headertest_cxx();
int nq_headertest_cxx()
{
#if __cplusplus >= 202002L
    nq_count_options opts = NQ_COUNT_OPTIONS_INIT;
    nq_list_options lopts = NQ_LIST_OPTIONS_INIT;
    nq_recheck_options ropts = NQ_RECHECK_OPTIONS_INIT;
    nq_count_result cr = NQ_COUNT_RESULT_INIT;
    nq_estimate_result er = NQ_ESTIMATE_RESULT_INIT;
    nq_checkpoint_info ci = NQ_CHECKPOINT_INFO_INIT;
    nq_recheck_result rr = NQ_RECHECK_RESULT_INIT;
    nq_part p = NQ_PART_INIT;
    nq_partline_error pe = NQ_PARTLINE_ERROR_INIT;
    nq_merge_summary ms = NQ_MERGE_SUMMARY_INIT;
    nq_merge_error me = NQ_MERGE_ERROR_INIT;
    nq_violation v = NQ_VIOLATION_INIT;
    nq_placement_error le = NQ_PLACEMENT_ERROR_INIT;
#else
    nq_count_options opts;
    nq_list_options lopts;
    nq_recheck_options ropts;
    if (nq_count_options_init(&opts, NQ_COUNT_OPTIONS_VERSION) != NQ_OK ||
        nq_list_options_init(&lopts, NQ_LIST_OPTIONS_VERSION) != NQ_OK ||
        nq_recheck_options_init(&ropts, NQ_RECHECK_OPTIONS_VERSION) != NQ_OK)
        return -1;
    nq_count_result cr = {};
    nq_estimate_result er = {};
    nq_checkpoint_info ci = {};
    nq_recheck_result rr = {};
    nq_part p = {};
    nq_partline_error pe = {};
    nq_merge_summary ms = {};
    nq_merge_error me = {};
    nq_violation v = {};
    nq_placement_error le = {};
    cr.version = NQ_COUNT_RESULT_VERSION;
    er.version = NQ_ESTIMATE_RESULT_VERSION;
    ci.version = NQ_CHECKPOINT_INFO_VERSION;
    rr.version = NQ_RECHECK_RESULT_VERSION;
    p.version = NQ_PART_VERSION;
    pe.version = NQ_PARTLINE_ERROR_VERSION;
    ms.version = NQ_MERGE_SUMMARY_VERSION;
    me.version = NQ_MERGE_ERROR_VERSION;
    v.version = NQ_VIOLATION_VERSION;
    le.version = NQ_PLACEMENT_ERROR_VERSION;
#endif
    return static_cast<int>(opts.version + lopts.version + ropts.version + cr.version +
                            er.version + ci.version + rr.version + p.version +
                            pe.version + ms.version + me.version + v.version +
                            le.version);
}
