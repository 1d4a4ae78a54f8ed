/*
 * nq_unit_model: the modelled one-core seconds of a sample of the join's
 * units, as nq_sim reads them, and, with COUNT, each unit counted too:
 * the model checked unit by unit against the count on the same machine
 * in the same minutes.
 *
 * A unit's cost (the unit of the list, in its order: join_order.c) is the
 * sum over its splits of the cost model's (join_profile.c): the keys of
 * both halves and the meetings of blocks and items, estimated from random
 * walks down each half (PROBES of them), priced as `--estimate` prices
 * them (nq_join_model_prices(): splits of n = 20 timed here, with the
 * table or, where N's does not fit or WALK is 1, on runs of neighbouring
 * splits without it, and then the sort and the match on N's own splits).
 * The sample is every m-th unit from a start drawn from the seed, m =
 * units / SAMPLES.
 *
 * With COUNT 1 each sampled unit is also counted by nq_join_solve_unit()
 * (its thread CPU time, after the table is built) and checked against
 * the known total when the whole list is sampled.
 *
 * Printed: "unit<TAB>splits<TAB>model seconds[<TAB>counted seconds<TAB>
 * model / counted]" lines, then the prices and the totals as comments.
 * The model's own error holds for a total; a single unit's cost is
 * rougher (its walks are few).
 *
 * usage: nq_unit_model N [SAMPLES [SEED [COUNT [WALK]]]]
 * env:   NQ_BATCH_KEYS, NQ_CUTS, NQ_PASSES: the plan's batch, bucket bits
 *        and passes (nq_join_plan_set_batch, nq_join_plan_set_cuts,
 *        nq_join_plan_set_passes), to compare them
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "platform/cpu.h"
#include "methods/join/join_cost.h"
#include "methods/join/join_plan.h"
#include "methods/join/join_profile.h"

#define PROBES 16384u /* as the cost model */
#define PRICE_BUDGET 0.8


int main(int argc, char **argv)
{
    uint64_t n = 0, samples = 4000, seed = 1, count = 0, walk = 0;
    nq_join_plan *plan;
    nq_simd simd = nq_cpu_simd_best();
    uint64_t units, splits, group, m, start;
    double a, b, sum = 0.0, model_counted = 0.0, counted = 0.0;
    int rc;
    static const char *const names[] = { "N", "SAMPLES", "SEED", "COUNT", "WALK" };
    uint64_t *const nums[] = { &n, &samples, &seed, &count, &walk };
    bench_args(argc, argv, "nq_unit_model", "N [SAMPLES [SEED [COUNT [WALK]]]]", 5, 5, names,
               nums);
    if (n < 21 || n > NQ_MAX_N || samples == 0 || count > 1 || walk > 1) {
        fputs("nq_unit_model: N from 21 to NQ_MAX_N, SAMPLES at least 1, COUNT and WALK "
              "0 or 1\n", stderr);
        return 2;
    }
    /* a board whose table cannot be indexed (n >= 26) walks, as its count */
    rc = walk || n >= 26 ? nq_join_plan_build_walk(&plan, (unsigned)n)
                         : nq_join_plan_build(&plan, (unsigned)n);
    if (rc != NQ_OK)
        return 1;
    const char *batch = getenv("NQ_BATCH_KEYS"), *cuts = getenv("NQ_CUTS"),
               *passes = getenv("NQ_PASSES");
    if (passes && nq_join_plan_set_passes(plan, (int)bench_arg("nq_unit_model", passes,
                                                               "NQ_PASSES")) != NQ_OK)
        return 1;
    if ((batch && nq_join_plan_set_batch(plan, (size_t)bench_arg("nq_unit_model", batch, "NQ_BATCH_KEYS")) != NQ_OK) ||
        (cuts && nq_join_plan_set_cuts(plan, (int)bench_arg("nq_unit_model", cuts, "NQ_CUTS")) != NQ_OK)) {
        fputs("nq_unit_model: NQ_BATCH_KEYS or NQ_CUTS out of range\n", stderr);
        return 2;
    }
    units = nq_join_plan_size(plan);
    splits = nq_join_plan_splits(plan);
    group = (splits + units - 1) / units; /* splits per unit (join_plan.c) */
    if ((splits + group - 1) / group != units) {
        fputs("nq_unit_model: the unit list is not runs of equal length\n", stderr);
        return 1;
    }
    if (count)
        rc = nq_join_plan_prepare(plan, NULL); /* the table, untimed */
    const int walks = nq_join_plan_walks(plan);
    if (rc == NQ_OK)
        rc = nq_join_model_prices(plan, simd, PRICE_BUDGET, seed, NULL, &a, &b);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_unit_model: pricing: %s\n", nq_strerror(rc));
        return 1;
    }
    if (samples > units)
        samples = units;
    m = units / samples;
    start = (seed * 0x9E3779B97F4A7C15u >> 17) % m;
    printf(count ? "unit\tsplits\tmodel\tcounted\tmodel/counted\n" : "unit\tsplits\tseconds\n");
    nq_join_profile p = { 0, PROBES, seed, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL, 0, 0 };
    /* with COUNT, the same splits listed and counted for real, timed step
     * by step: where the model and the count part */
    nq_join_profile x = { 1, 0, seed, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL, 0, 0 };
    for (uint64_t u = start; u < units && rc == NQ_OK; u += m) {
        const double keys = p.keys, work = p.work;
        uint64_t first = 0, end = 0;
        double cost;
        rc = nq_join_plan_unit_splits(plan, u, &first, &end);
        for (uint64_t s = first; s < end && rc == NQ_OK; s++)
            rc = nq_join_profile_split(plan, s, simd, 0, NULL, &p);
        cost = a * (p.work - work) + b * (p.keys - keys);
        sum += cost;
        if (count && rc == NQ_OK) {
            nq_unit_result r;
            for (uint64_t s = first; s < end && rc == NQ_OK; s++)
                rc = nq_join_profile_split(plan, s, simd, !walks, NULL, &x);
            const double t0 = nq_join_cpu_now();
            rc = nq_join_solve_unit(plan, u, simd, NULL, &r);
            const double t = nq_join_cpu_now() - t0;
            counted += t;
            model_counted += cost;
            printf("%llu\t%llu\t%.6g\t%.6g\t%.3f\n", (unsigned long long)u,
                   (unsigned long long)(end - first), cost, t, t > 0.0 ? cost / t : 0.0);
        } else {
            printf("%llu\t%llu\t%.6g\n", (unsigned long long)u,
                   (unsigned long long)(end - first), cost);
        }
        fflush(stdout);
    }
    nq_join_profile_end(&p);
    nq_join_profile_end(&x);
    nq_join_plan_free(plan);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_unit_model: %s\n", nq_strerror(rc));
        return 1;
    }
    printf("# n = %llu, %llu units of %llu splits, every %llu-th from %llu; SIMD %s;\n"
           "# prices (%s): %.4g s per meeting, %.4g s per key; "
           "one-core seconds of the count: %.4g\n",
           (unsigned long long)n, (unsigned long long)units, (unsigned long long)group,
           (unsigned long long)m, (unsigned long long)start, nq_simd_name(simd),
           walks ? "without the table" : "with the table", a, b,
           sum * (double)m);
    if (count) {
        printf("# counted: %.4g s, modelled %.4g s: model / counted %.3f\n", counted,
               model_counted, counted > 0.0 ? model_counted / counted : 0.0);
        printf("# the same splits profiled: %.4g s (list %.4g, sort %.4g, match %.4g); "
               "%.4g s per meeting, %.4g s per key; walks / real: keys %.3f, meetings "
               "%.3f\n", x.list_seconds + x.sort_seconds + x.match_seconds, x.list_seconds,
               x.sort_seconds, x.match_seconds, x.match_seconds / x.work,
               (x.list_seconds + x.sort_seconds) / x.keys, p.keys / x.keys, p.work / x.work);
    }
    return 0;
}
