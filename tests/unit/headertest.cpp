// The public header must compile on its own as C++.
#include "nqueens.h"

int nq_headertest_cxx();
int nq_headertest_cxx()
{
    nq_count_options opts = NQ_COUNT_OPTIONS_INIT;
    nq_list_options lopts = NQ_LIST_OPTIONS_INIT;
    return static_cast<int>(opts.version + lopts.version);
}
