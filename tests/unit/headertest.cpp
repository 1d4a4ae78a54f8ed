// The public header must compile on its own as C++: before C++20 without
// the designated-initialiser macros (the init functions stand in), from
// C++20 on with them.
#include "nqueens.h"

int nq_headertest_cxx();
int nq_headertest_cxx()
{
#if __cplusplus >= 202002L
    nq_count_options opts = NQ_COUNT_OPTIONS_INIT;
    nq_list_options lopts = NQ_LIST_OPTIONS_INIT;
#else
    nq_count_options opts;
    nq_list_options lopts;
    if (nq_count_options_init(&opts, NQ_COUNT_OPTIONS_VERSION) != NQ_OK ||
        nq_list_options_init(&lopts, NQ_LIST_OPTIONS_VERSION) != NQ_OK)
        return -1;
#endif
    return static_cast<int>(opts.version + lopts.version);
}
