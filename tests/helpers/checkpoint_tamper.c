/*
 * checkpoint_tamper: writes the checkpoint of a whole count of n by the
 * join in which one unit's record is one less than what it counted, and
 * prints that unit. The end-to-end tests use it for a file that
 * --recheck must find wrong: a shell script cannot forge the checksum.
 * Only the public API is used.
 * usage: checkpoint_tamper FILE N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nqueens.h"

static int fail(const char *what, int rc)
{
    fprintf(stderr, "checkpoint_tamper: %s: %s\n", what, nq_strerror(rc));
    return 1;
}

int main(int argc, char **argv)
{
    nq_checkpoint *mem = NULL, *file = NULL;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    uint64_t bad = UINT64_MAX;
    unsigned n;
    int rc;

    if (argc != 3 || (n = (unsigned)strtoul(argv[2], NULL, 10)) < 4) {
        fputs("usage: checkpoint_tamper FILE N (N >= 4)\n", stderr);
        return 2;
    }
    if ((rc = nq_checkpoint_open(&mem, NULL, n, NQ_METHOD_JOIN)) != NQ_OK)
        return fail("memory checkpoint", rc);
    o.method = NQ_METHOD_JOIN;
    o.threads = 1;
    o.checkpoint = mem;
    if ((rc = nq_count(&r, n, &o)) != NQ_OK || (rc = nq_checkpoint_info_get(&info, mem)) != NQ_OK)
        return fail("count", rc);
    if ((rc = nq_checkpoint_open(&file, argv[1], n, NQ_METHOD_JOIN)) != NQ_OK)
        return fail(argv[1], rc);
    for (uint64_t u = 0; u < info.units_total; u++) {
        uint64_t t = 0;
        if ((rc = nq_checkpoint_unit(mem, u, &t, NULL)) != NQ_OK)
            return fail("unit", rc);
        if (bad == UINT64_MAX && t > 0) {
            bad = u;
            t--;
        }
        if ((rc = nq_checkpoint_record(file, u, t, 0)) != NQ_OK)
            return fail("record", rc);
    }
    if ((rc = nq_checkpoint_save(file)) != NQ_OK)
        return fail("save", rc);
    nq_checkpoint_close(file);
    nq_checkpoint_close(mem);
    printf("%llu\n", (unsigned long long)bad);
    return 0;
}
