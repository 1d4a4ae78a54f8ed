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
 * or avx512; N from 16 to 24 (the table must fit).
 *
 * usage: nq_prices N [SPLITS [SIMD [WALKS]]]
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "platform/cpu.h"
#include "methods/join/join.h"
#include "methods/join/join_internal.h"

static unsigned long long arg(const char *s, const char *what)
{
    return bench_arg("nq_prices", s, what);
}

int main(int argc, char **argv)
{
    unsigned long long n, count = 48;
    unsigned long long probes = 1024;
    nq_simd simd = nq_cpu_simd_best();
    nq_join_plan *plan;
    uint64_t splits;
    int rc;
    if (argc < 2 || argc > 5) {
        fputs("usage: nq_prices N [SPLITS [SIMD [WALKS]]]\n", stderr);
        return 2;
    }
    n = arg(argv[1], "N");
    if (argc > 2)
        count = arg(argv[2], "SPLITS");
    if (argc > 3 && (simd = bench_simd("nq_prices", argv[3])) == NQ_SIMD_AUTO)
        simd = nq_cpu_simd_best();
    if (argc > 4)
        probes = arg(argv[4], "WALKS");
    if (n < 16 || n > 24 || count == 0 || probes < 1 || probes > (1u << 24)) {
        fputs("nq_prices: N from 16 to 24, SPLITS at least 1, WALKS from 1 to 2^24\n",
              stderr);
        return 2;
    }
    if (nq_join_plan_build(&plan, (unsigned)n) != NQ_OK)
        return 1;
    splits = nq_join_plan_splits(plan);
    if (count > splits)
        count = splits;
    nq_join_profile p = { 1, 0, 1, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0 };
    rc = nq_join_profile_split(plan, 0, simd, 1, NULL, &p); /* builds the table */
    p = (nq_join_profile){ 1, 0, 1, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0 };
    nq_join_profile q = { 0, (unsigned)probes, 1, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0 };
    double lo = 1e300, hi = 0.0, tp = 0.0;
    for (unsigned long long i = 0; i < count && rc == NQ_OK; i++) {
        const uint64_t at = splits / count * i + splits / count / 2;
        const double w0 = p.work, q0 = q.work;
        rc = nq_join_profile_split(plan, at, simd, 1, NULL, &p);
        if (rc == NQ_OK) {
            const double t0 = nq_join_cpu_now();
            rc = nq_join_profile_split(plan, at, simd, 0, NULL, &q);
            tp += nq_join_cpu_now() - t0;
        }
        if (p.work > w0) {
            const double r = (q.work - q0) / (p.work - w0);
            lo = r < lo ? r : lo;
            hi = r > hi ? r : hi;
        }
    }
    printf("probed (%u walks a half, %.3g ms a split) / exact: keys %.4f  meetings %.4f "
           "(split by split %.3g to %.3g)\n",
           (unsigned)probes, tp * 1e3 / (double)count, q.keys / p.keys, q.work / p.work, lo, hi);
    nq_join_profile_end(&p);
    nq_join_profile_end(&q);
    nq_join_plan_free(plan);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_prices: %s\n", nq_strerror(rc));
        return 1;
    }
    printf("n %llu  of %llu splits, sampled %llu  simd %s  keys/split %.4g  meetings/split %.4g  "
           "s/meeting %.4g  s/key %.4g  (list %.3g s, sort %.3g s, match %.3g s)\n",
           n, (unsigned long long)splits, count, nq_simd_name(simd), p.keys / (double)count, p.work / (double)count,
           p.match_seconds / p.work, (p.list_seconds + p.sort_seconds) / p.keys,
           p.list_seconds, p.sort_seconds, p.match_seconds);
    return 0;
}
