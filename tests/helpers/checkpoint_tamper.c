/*
 * checkpoint_tamper: writes the checkpoint of a whole count of n by the
 * join in which one unit's record is one less than what it counted (or
 * DELTA more: a negative DELTA lowers it), and prints that unit; with
 * LEAVE (1), another unit, whose count is at least DELTA, is left out of
 * the file, so that a resumed count still has one to do and the file
 * alone stays within the published count. The end-to-end tests use it for a file that
 * --recheck must find wrong: a shell script cannot forge the checksum.
 * Only the public API is used.
 * usage: checkpoint_tamper FILE N [DELTA [LEAVE]]
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
    uint64_t bad = UINT64_MAX, left = UINT64_MAX;
    long delta = -1;
    int leave = 0;
    unsigned n;
    int rc;

    if (argc < 3 || argc > 5 || (n = (unsigned)strtoul(argv[2], NULL, 10)) < 4) {
        fputs("usage: checkpoint_tamper FILE N [DELTA [LEAVE]] (N >= 4)\n", stderr);
        return 2;
    }
    if (argc >= 4)
        delta = strtol(argv[3], NULL, 10);
    if (argc == 5)
        leave = argv[4][0] != '\0' && argv[4][0] != '0';
    if ((rc = nq_checkpoint_open(&mem, NULL, n, NQ_METHOD_JOIN)) != NQ_OK)
        return fail("memory checkpoint", rc);
    o.method = NQ_METHOD_JOIN;
    o.threads = 1;
    o.checkpoint = mem;
    if ((rc = nq_count(&r, n, &o)) != NQ_OK || (rc = nq_checkpoint_info_get(&info, mem)) != NQ_OK)
        return fail("count", rc);
    if ((rc = nq_checkpoint_open(&file, argv[1], n, NQ_METHOD_JOIN)) != NQ_OK)
        return fail(argv[1], rc);
    /* the unit left out: the last one whose count covers what was added,
     * so that the file alone stays within the published count */
    for (uint64_t u = 0; leave && u < info.units_total; u++) {
        uint64_t t = 0;
        if ((rc = nq_checkpoint_unit(mem, u, &t, NULL)) != NQ_OK)
            return fail("unit", rc);
        if (t > 0 && (delta <= 0 || t >= (uint64_t)delta))
            left = u;
    }
    for (uint64_t u = 0; u < info.units_total; u++) {
        uint64_t t = 0;
        if (leave && u == left)
            continue;
        if ((rc = nq_checkpoint_unit(mem, u, &t, NULL)) != NQ_OK)
            return fail("unit", rc);
        if (bad == UINT64_MAX && t > 0 && (delta >= 0 || t >= (uint64_t)-delta)) {
            bad = u;
            t = delta >= 0 ? t + (uint64_t)delta : t - (uint64_t)-delta;
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
