/* The public header must compile on its own, as strict C99. */
#include "nqueens.h"

int nq_headertest_c(void);
int nq_headertest_c(void)
{
    nq_count_options opts = NQ_COUNT_OPTIONS_INIT;
    nq_list_options lopts = NQ_LIST_OPTIONS_INIT;
    return (int)opts.version + (int)lopts.version;
}
