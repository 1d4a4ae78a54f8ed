/*
 * nq_unit_model: the modelled one-core seconds of a sample of the join's
 * units, for the board sizes whose units cannot be timed here (n >= 22),
 * as nq_sim reads them.
 *
 * A unit's cost (the unit of the list, in its order: join_order.c) is the
 * sum over its splits of the cost model's
 * (join_profile.c): the keys of both halves and the meetings of blocks and
 * items, estimated from random walks down each half (probes), priced by
 * the CPU seconds per key and per meeting measured here on PRICE_SPLITS
 * splits of n = 20 counted in full (with the walk instead of the table
 * when the table of N does not fit, as in the count). The sample is every
 * m-th unit from a start drawn from the seed, m = units / SAMPLES.
 *
 * Printed: "unit<TAB>splits<TAB>seconds" lines, then the prices and the
 * mean cost as comments. The model's own error (about 12% at the sizes
 * where it was checked against full counts, docs/performance.md) holds for
 * a total; a single unit's cost is rougher (its walks are few).
 *
 * usage: nq_unit_model N [SAMPLES [SEED]]
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "platform/cpu.h"
#include "methods/join/join.h"

#define PRICE_N 20u
#define PRICE_SPLITS 48u
#define PROBES 256u

static unsigned long long arg(const char *s, const char *what)
{
    return bench_arg("nq_unit_model", s, what);
}

/* Seconds per meeting (*a) and per key (*b) at PRICE_N, from splits spread
 * over its list, counted in full with the table or the walk. */
static int measure_prices(double *a, double *b, nq_simd simd, int table)
{
    nq_join_plan *plan;
    nq_join_profile p = { 1, 0, 1, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0 };
    uint64_t splits;
    int rc = nq_join_plan_build(&plan, PRICE_N);
    if (rc != NQ_OK)
        return rc;
    splits = nq_join_plan_splits(plan);
    for (unsigned i = 0; i < PRICE_SPLITS && rc == NQ_OK; i++)
        rc = nq_join_profile_split(plan, splits / PRICE_SPLITS * i + 7, simd, table, NULL, &p);
    nq_join_profile_end(&p);
    nq_join_plan_free(plan);
    *a = p.work > 0 ? p.match_seconds / p.work : 0.0;
    *b = p.keys > 0 ? (p.list_seconds + p.sort_seconds) / p.keys : 0.0;
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long long n, samples = 4000, seed = 1;
    nq_join_plan *plan;
    nq_simd simd = nq_cpu_simd_best();
    uint64_t units, splits, group, m, start;
    double a, b, sum = 0.0;
    int rc, walks;
    if (argc < 2 || argc > 4) {
        fputs("usage: nq_unit_model N [SAMPLES [SEED]]\n", stderr);
        return 2;
    }
    n = arg(argv[1], "N");
    if (argc > 2)
        samples = arg(argv[2], "SAMPLES");
    if (argc > 3)
        seed = arg(argv[3], "SEED");
    if (n < 8 || n > NQ_MAX_N || samples == 0) {
        fputs("nq_unit_model: N from 8 to NQ_MAX_N, SAMPLES at least 1\n", stderr);
        return 2;
    }
    if (nq_join_plan_build(&plan, (unsigned)n) != NQ_OK)
        return 1;
    units = nq_join_plan_size(plan);
    splits = nq_join_plan_splits(plan);
    group = (splits + units - 1) / units; /* splits per unit (join_plan.c) */
    if ((splits + group - 1) / group != units) {
        fputs("nq_unit_model: the unit list is not runs of equal length\n", stderr);
        return 1;
    }
    /* the table of n >= 26 does not fit its index: the count walks */
    walks = n >= 26;
    rc = measure_prices(&a, &b, simd, !walks);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_unit_model: pricing: %s\n", nq_strerror(rc));
        return 1;
    }
    if (samples > units)
        samples = units;
    m = units / samples;
    start = (seed * 0x9E3779B97F4A7C15u >> 17) % m;
    printf("unit\tsplits\tseconds\n");
    nq_join_profile p = { 0, PROBES, seed, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0 };
    for (uint64_t u = start; u < units && rc == NQ_OK; u += m) {
        const double keys = p.keys, work = p.work;
        uint64_t first = 0, end = 0;
        double cost;
        rc = nq_join_plan_unit_splits(plan, u, &first, &end);
        for (uint64_t s = first; s < end && rc == NQ_OK; s++)
            rc = nq_join_profile_split(plan, s, simd, 0, NULL, &p);
        cost = a * (p.work - work) + b * (p.keys - keys);
        sum += cost;
        printf("%llu\t%llu\t%.6g\n", (unsigned long long)u,
               (unsigned long long)(end - first), cost);
    }
    nq_join_profile_end(&p);
    nq_join_plan_free(plan);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_unit_model: %s\n", nq_strerror(rc));
        return 1;
    }
    printf("# n = %llu, %llu units of %llu splits, every %llu-th from %llu; SIMD %s;\n"
           "# prices at n = %u (%s): %.4g s per meeting, %.4g s per key; "
           "one-core seconds of the count: %.4g\n",
           n, (unsigned long long)units, (unsigned long long)group,
           (unsigned long long)m, (unsigned long long)start, nq_simd_name(simd), PRICE_N,
           walks ? "walk" : "table", a, b, sum * (double)m);
    return 0;
}
