/* A program that uses the installed library: prints Q(8), counted with
 * options from the initialiser and from the init function, and checks
 * that the header and the library agree on the version. */
#include <stdio.h>

#include <nqueens.h>

int main(void)
{
    nq_count_options macro = NQ_COUNT_OPTIONS_INIT, fn;
    nq_count_result r = NQ_COUNT_RESULT_INIT, r2 = NQ_COUNT_RESULT_INIT;
    if (nq_version_number() != NQ_VERSION_NUMBER) {
        fprintf(stderr, "header %d, library %d\n", NQ_VERSION_NUMBER, nq_version_number());
        return 1;
    }
    if (nq_count_options_init(&fn, NQ_COUNT_OPTIONS_VERSION) != NQ_OK)
        return 1;
    macro.threads = fn.threads = 1;
    if (nq_count(&r, 8, &macro) != NQ_OK || nq_count(&r2, 8, &fn) != NQ_OK)
        return 1;
    printf("%llu\n", (unsigned long long)r.total);
    return r.total == 92 && r2.total == 92 ? 0 : 1;
}
