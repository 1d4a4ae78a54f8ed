/* The public header must compile on its own, as strict C99, with every
 * initialiser of its structs. */
#include "nqueens.h"

int nq_headertest_c(void);
int nq_headertest_c(void)
{
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
    return (int)(opts.version + lopts.version + ropts.version + cr.version +
                 er.version + ci.version + rr.version + p.version + pe.version +
                 ms.version + me.version + v.version + le.version);
}
