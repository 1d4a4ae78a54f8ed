/*
 * nq_prices: the cost model (join_cost.c) checked on the splits of one
 * board, SPLITS of them spread over its list:
 *
 * - its two prices, each split counted in full with the table: CPU
 *   seconds per meeting of blocks and items and per key listed. The model
 *   prices every n on one board (n = 20); this shows how far the prices
 *   of other boards drift from it.
 * - its random walks against the real lists of the same splits: the keys
 *   and the pair work that WALKS walks a half (default 1,024; the model
 *   takes 16,384) estimate, as a share of the real ones, over all the
 *   splits and split by split, and the milliseconds the walks take.
 *
 * Printed: one line of each. SIMD is auto (the widest here), none, avx2
 * or avx512; N from 16 to 28. Up to n = 24 the splits are counted with
 * the table, beyond it (or with NQ_PRICES_TABLE=0) as a count without the
 * table does: each split lists the quarters it needs (join_rowset.c).
 * RUN (default 1) counts that many neighbouring splits at each place, as
 * a unit does, so that they share quarters; the walks are taken on every
 * split of the run.
 *
 * usage: nq_prices N [SPLITS [SIMD [WALKS [RUN]]]]
 * env:   NQ_CUTS: the bucket bits of every split (nq_join_plan_set_cuts)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "platform/cpu.h"
#include "methods/join/join_plan.h"
#include "methods/join/join_profile.h"

static unsigned long long arg(const char *s, const char *what)
{
    return bench_arg("nq_prices", s, what);
}

int main(int argc, char **argv)
{
    unsigned long long n, count = 48;
    unsigned long long probes = 1024, run = 1;
    const char *env = getenv("NQ_PRICES_TABLE");
    int table;
    nq_simd simd = nq_cpu_simd_best();
    nq_join_plan *plan;
    uint64_t splits;
    int rc;
    if (argc < 2 || argc > 6) {
        fputs("usage: nq_prices N [SPLITS [SIMD [WALKS [RUN]]]]\n", stderr);
        return 2;
    }
    n = arg(argv[1], "N");
    if (argc > 2)
        count = arg(argv[2], "SPLITS");
    if (argc > 3 && (simd = bench_simd("nq_prices", argv[3])) == NQ_SIMD_AUTO)
        simd = nq_cpu_simd_best();
    if (argc > 4)
        probes = arg(argv[4], "WALKS");
    if (argc > 5)
        run = arg(argv[5], "RUN");
    if (n < 16 || n > 28 || count == 0 || probes < 1 || probes > (1u << 24) || run < 1 ||
        run > 1024) {
        fputs("nq_prices: N from 16 to 28, SPLITS at least 1, WALKS from 1 to 2^24, "
              "RUN from 1 to 1024\n", stderr);
        return 2;
    }
    table = n <= 24 && !(env && strcmp(env, "0") == 0);
    if (nq_join_plan_build(&plan, (unsigned)n) != NQ_OK)
        return 1;
    const char *cuts = getenv("NQ_CUTS");
    if (cuts && nq_join_plan_set_cuts(plan, (int)arg(cuts, "NQ_CUTS")) != NQ_OK) {
        fputs("nq_prices: NQ_CUTS out of range\n", stderr);
        return 2;
    }
    splits = nq_join_plan_splits(plan);
    if (count > splits)
        count = splits;
    nq_join_profile p = { 1, 0, 1, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL, 0, 0 };
    rc = table ? nq_join_profile_split(plan, 0, simd, 1, NULL, &p) /* builds the table */
               : NQ_OK;
    p = (nq_join_profile){ 1, 0, 1, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL, 0, 0 };
    nq_join_profile q = { 0, (unsigned)probes, 1, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL, 0, 0 };
    double lo = 1e300, hi = 0.0, tp = 0.0;
    for (unsigned long long i = 0; i < count && rc == NQ_OK; i++) {
        const uint64_t at = splits / count * i + splits / count / 2;
        const double w0 = p.work, q0 = q.work, m0 = p.match_seconds, k0 = p.keys,
                     l0 = p.list_seconds + p.sort_seconds;
        const uint64_t i0 = p.items, f0 = p.fills;
        for (unsigned long long j = 0; j < run && rc == NQ_OK; j++)
            rc = nq_join_profile_split(plan, (at + j) % splits, simd, table, NULL, &p);
        for (unsigned long long j = 0; j < run && rc == NQ_OK; j++) {
            const double t0 = nq_join_cpu_now();
            rc = nq_join_profile_split(plan, (at + j) % splits, simd, 0, NULL, &q);
            tp += nq_join_cpu_now() - t0;
        }
        if (p.work > w0) {
            const double r = (q.work - q0) / (p.work - w0);
            fprintf(stderr, "split %llu: meetings %.4g  items %.4g  fills %.4g  match s %.4g  "
                    "s/meeting %.4g  keys %.4g  s/key %.4g  probed/exact meetings %.3f\n",
                    (unsigned long long)at, p.work - w0, (double)(p.items - i0),
                    (double)(p.fills - f0), p.match_seconds - m0,
                    (p.match_seconds - m0) / (p.work - w0), p.keys - k0,
                    (p.list_seconds + p.sort_seconds - l0) / (p.keys - k0), r);
            lo = r < lo ? r : lo;
            hi = r > hi ? r : hi;
        }
    }
    printf("probed (%u walks a half, %.3g ms a split) / exact: keys %.4f  meetings %.4f "
           "(split by split %.3g to %.3g)\n",
           (unsigned)probes, tp * 1e3 / (double)(count * run), q.keys / p.keys, q.work / p.work, lo, hi);
    nq_join_profile_end(&p);
    nq_join_profile_end(&q);
    nq_join_plan_free(plan);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_prices: %s\n", nq_strerror(rc));
        return 1;
    }
    count *= run;
    printf("n %llu  %s  of %llu splits, sampled %llu  simd %s  keys/split %.4g  meetings/split %.4g  "
           "s/meeting %.4g  s/key %.4g  (list %.3g s, sort %.3g s, match %.3g s)\n",
           n, table ? "table" : "no table", (unsigned long long)splits, count, nq_simd_name(simd), p.keys / (double)count, p.work / (double)count,
           p.match_seconds / p.work, (p.list_seconds + p.sort_seconds) / p.keys,
           p.list_seconds, p.sort_seconds, p.match_seconds);
    return 0;
}
