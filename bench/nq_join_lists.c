/*
 * nq_join_lists: the join's three ways of listing a half's keys timed on
 * the same row splits: the quarter table (where it fits here), the two
 * quarters listed per split (join_rowset.c, what a count does without the
 * table), and the plain walk (join_keys.c). SPLITS splits spread over the
 * list from FIRST are counted in full each way, one after the other on
 * one thread; printed per way: the solutions counted (all three must
 * agree), the keys listed, and the thread CPU seconds, in all and split
 * into listing, sorting (with the tally of pairs) and counting the pairs.
 *
 * usage: nq_join_lists N [SPLITS [FIRST [BATCH [WAYS]]]]
 *   BATCH: keys per batch of a half's list (default 2^20, the count's);
 *   WAYS: a subset of "tqw" (table, quarters, walk), default all three.
 * The table is built where it fits a quarter of this machine's memory, or
 * NQ_TABLE_BYTES bytes if that is set (n = 25's takes 15 GiB). The
 * quarters' slots hold as many pieces as n wants, or NQ_PIECES if that is
 * set (what a count gets under a memory limit; 0 walks every half).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "platform/cpu.h"
#include "methods/join/join_plan.h"
#include "methods/join/join_profile.h"


int main(int argc, char **argv)
{
    uint64_t n = 0, splits_done = 12, first = 3, batch = 1u << 20;
    const char *ways = argc > 5 ? argv[5] : "tqw";
    static const char *names[3] = { "table", "quarters", "walk" };
    static const char *const argn[] = { "N", "SPLITS", "FIRST", "BATCH" };
    uint64_t *const nums[] = { &n, &splits_done, &first, &batch };
    bench_args(argc, argv, "nq_join_lists", "N [SPLITS [FIRST [BATCH [WAYS]]]]", 5, 4, argn,
               nums);
    if (n < 8 || n > NQ_MAX_N || splits_done == 0 || batch == 0) {
        fputs("nq_join_lists: N from 8 to NQ_MAX_N, SPLITS and BATCH at least 1\n", stderr);
        return 2;
    }
    printf("way\tsolutions\tkeys\tcpu_seconds\tlist\tsort\tmatch\n");
    for (unsigned way = 0; way < 3; way++) {
        nq_join_plan *plan;
        nq_join_profile p;
        uint64_t splits;
        double t0;
        int rc;
        if (!strchr(ways, "tqw"[way]))
            continue;
        rc = way == 0 ? nq_join_plan_build(&plan, (unsigned)n)
                      : nq_join_plan_build_walk(&plan, (unsigned)n);
        if (rc == NQ_OK && way == 0 && getenv("NQ_TABLE_BYTES")) {
            /* a table larger than the default quarter of this machine */
            uint64_t need;
            rc = nq_join_plan_fit_memory(plan, 1,
                                         bench_arg("nq_join_lists", getenv("NQ_TABLE_BYTES"),
                                                   "NQ_TABLE_BYTES"),
                                         &need);
        }
        if (rc == NQ_OK && way == 0)
            rc = nq_join_plan_prepare(plan, NULL);
        if (rc == NQ_OK && way == 0 && nq_join_plan_walks(plan)) {
            printf("table\t-\t-\t- (does not fit)\n");
            nq_join_plan_free(plan);
            continue;
        }
        if (rc == NQ_OK && way == 2)
            rc = nq_join_plan_set_rowset_pieces(plan, 0);
        else if (rc == NQ_OK && way == 1 && getenv("NQ_PIECES"))
            rc = nq_join_plan_set_rowset_pieces(
                plan, (size_t)bench_arg("nq_join_lists", getenv("NQ_PIECES"), "NQ_PIECES"));
        if (rc == NQ_OK)
            rc = nq_join_plan_set_batch(plan, (size_t)batch);
        if (rc != NQ_OK) {
            fprintf(stderr, "nq_join_lists: %s: %s\n", names[way], nq_strerror(rc));
            return 1;
        }
        memset(&p, 0, sizeof p);
        p.match = 1;
        splits = nq_join_plan_splits(plan);
        t0 = nq_join_cpu_now();
        for (unsigned long long i = 0; i < splits_done && rc == NQ_OK; i++)
            rc = nq_join_profile_split(plan, (splits / splits_done * i + first) % splits,
                                       nq_cpu_simd_best(), way == 0, NULL, &p);
        if (rc != NQ_OK) {
            fprintf(stderr, "nq_join_lists: %s: %s\n", names[way], nq_strerror(rc));
            return 1;
        }
        printf("%s\t%llu\t%.0f\t%.3f\t%.3f\t%.3f\t%.3f\n", names[way],
               (unsigned long long)p.total, p.keys, nq_join_cpu_now() - t0, p.list_seconds,
               p.sort_seconds, p.match_seconds);
        nq_join_profile_end(&p);
        nq_join_plan_free(plan);
    }
    return 0;
}
