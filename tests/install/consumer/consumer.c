/* A program that uses the installed library: prints Q(8) and checks that
 * the header and the library agree on the version. */
#include <stdio.h>

#include <nqueens.h>

int main(void)
{
    nq_count_result r;
    if (nq_version_number() != NQ_VERSION_NUMBER) {
        fprintf(stderr, "header %d, library %d\n", NQ_VERSION_NUMBER, nq_version_number());
        return 1;
    }
    if (nq_count(&r, 8, NULL) != NQ_OK)
        return 1;
    printf("%llu\n", (unsigned long long)r.total);
    return r.total == 92 ? 0 : 1;
}
