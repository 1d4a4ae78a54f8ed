/*
 * nq_ckpt_bench: how large a checkpoint of a long unit list grows, and how
 * long it takes to save, open and peek at, through the public API only.
 *
 * Every unit of n's list for the method (default: the join) is recorded,
 * each with an even share of the published count of n (so that the
 * file's varints are as long as a real count's; 1 where n has no
 * published count, which makes the file smaller than a real one), then
 * the checkpoint is saved to FILE (created, and removed at the end) and
 * opened and peeked at again. Printed: the units, the total recorded per
 * unit, the file's bytes, and the seconds of the save, the open and the
 * peek.
 *
 * usage: nq_ckpt_bench N FILE [plain|symmetry|join]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nqc_clock.h"
#include "nqueens.h"

int main(int argc, char **argv)
{
    nq_method method = NQ_METHOD_JOIN;
    nq_checkpoint *cp = NULL;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    uint64_t units = 0, share = 1, known;
    unsigned n;
    double t0, t_save, t_open, t_peek;
    struct stat st;
    int rc;
    if (argc < 3 || argc > 4) {
        fputs("usage: nq_ckpt_bench N FILE [plain|symmetry|join]\n", stderr);
        return 2;
    }
    n = (unsigned)strtoul(argv[1], NULL, 10);
    if (argc > 3) {
        if (!strcmp(argv[3], "plain"))
            method = NQ_METHOD_PLAIN;
        else if (!strcmp(argv[3], "symmetry"))
            method = NQ_METHOD_SYMMETRY;
        else if (strcmp(argv[3], "join")) {
            fprintf(stderr, "nq_ckpt_bench: unknown method '%s'\n", argv[3]);
            return 2;
        }
    }
    rc = nq_units(&units, n, method);
    if (rc == NQ_OK && units > 0 && nq_known(&known, NULL, n) == NQ_OK && known >= units)
        share = known / units;
    if (rc == NQ_OK)
        rc = nq_checkpoint_open(&cp, argv[2], n, method);
    for (uint64_t u = 0; u < units && rc == NQ_OK; u++)
        rc = nq_checkpoint_record(cp, u, share, 0);
    t0 = nqc_now();
    if (rc == NQ_OK)
        rc = nq_checkpoint_save(cp);
    t_save = nqc_now() - t0;
    nq_checkpoint_close(cp);
    cp = NULL;
    t0 = nqc_now();
    if (rc == NQ_OK)
        rc = nq_checkpoint_open(&cp, argv[2], n, method);
    t_open = nqc_now() - t0;
    nq_checkpoint_close(cp);
    t0 = nqc_now();
    if (rc == NQ_OK)
        rc = nq_checkpoint_peek(&info, argv[2]);
    t_peek = nqc_now() - t0;
    if (rc != NQ_OK || stat(argv[2], &st) != 0) {
        fprintf(stderr, "nq_ckpt_bench: %s\n", nq_strerror(rc));
        remove(argv[2]);
        return 1;
    }
    printf("n\tmethod\tunits\tper_unit\tbytes\tsave_s\topen_s\tpeek_s\n");
    printf("%u\t%s\t%llu\t%llu\t%lld\t%.3f\t%.3f\t%.3f\n", n, nq_method_name(method),
           (unsigned long long)units, (unsigned long long)share, (long long)st.st_size,
           t_save, t_open, t_peek);
    remove(argv[2]);
    return 0;
}
