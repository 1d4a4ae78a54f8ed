/*
 * nq_join_sample: the one-core time and the total of a join count too big
 * to sample by whole units (n = 27 and 28), from a two-stage sample: a
 * stratified sample of the units (the list cut into UNITS equal stretches,
 * one unit drawn at random from each: a fixed step, every m-th unit, fell
 * on the same place of each middle row's run at n = 23 and read a quarter
 * of the total), and in each of them one block of
 * stored keys in STEP of the sieve's matches (nq_join_sample_unit(): the
 * unit's splits are listed and sorted whole, as its count does, but only
 * the blocks of one phase of the step meet their items, and their pairs
 * count STEP times).
 *
 * A unit's time is then its thread CPU time plus STEP - 1 times that of
 * its sampled matches, and its total the sampled pairs times STEP: both
 * unbiased, each block being taken with chance 1/STEP (the phase is drawn
 * per unit from the seed). The sample's 95% intervals come from the spread
 * of the units' estimates as if drawn at random from the whole list (which
 * holds the spread within the units too, and overstates that of a
 * stratified sample);
 * the interval of the total must hold the published one where it is known.
 *
 * With WHOLE 1 each sampled unit is also counted whole (nq_join_solve_unit)
 * and timed: its line adds that total, time and the estimates over them,
 * the check of the sampling unit by unit (n = 21 to 24, where whole units
 * take seconds).
 *
 * Boards from n = 25 on walk their halves (their table does not fit), as
 * their counts do; up to 24 the table is built first, untimed.
 *
 * Printed: one line per unit, then what the sample says of the whole
 * count: the one-core CPU seconds and core-hours, and the total.
 *
 * With EAST above 1, a split whose east list takes several batches meets
 * the west list with one east batch in EAST (the phase drawn per unit),
 * their pairs counted EAST times: from n = 28 on, where the west list is
 * listed again for each east batch, that listing is most of a unit's
 * time, and a block sample alone leaves it whole. The time then adds EAST
 * - 1 times the work of the east batches taken (nq_join_sample_unit()).
 *
 * With MODEL 1 (n >= 21) each sampled unit is also priced by the cost
 * model as `--estimate` prices it (nq_join_model_prices() and random
 * walks down each split's halves, as bench/nq_unit_model does), and its
 * line adds the model's two parts beside the sample's: the keys (listing
 * and sorting) against the sample's time less its matches, and the
 * meetings of blocks and items against its matches (the sampled matches'
 * time scaled as the estimate scales it). Where the model and a sample
 * part, this says which of its prices is off. MODEL takes STEP 2 or more:
 * only a sample of the blocks has its matches timed apart.
 *
 * usage: nq_join_sample N [UNITS [STEP [SEED [WHOLE [EAST [MODEL]]]]]]
 *        (defaults 64 units, STEP 1, seed 1, WHOLE 0, EAST 1, MODEL 0)
 * env:   NQ_BATCH_KEYS: the plan's batch (nq_join_plan_set_batch);
 *        NQ_REAL: with MODEL 1, each unit's splits are also listed
 *        whole (not matched) and their real keys and pair work printed
 *        beside the model's walks' (model_keys real_keys model_work
 *        real_work): whether the walks or the prices part from the
 *        sample;
 *        NQ_UNITS: a comma-separated list of units to sample (in place of
 *        the stratified draw: UNITS is then their number), to count
 *        chosen units whole (WHOLE 1) beside their sample and model;
 *        NQ_PASSES: 0 meets long east lists in list order, not by
 *        pattern (nq_join_plan_set_passes), to compare the two
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "bench_sample.h"
#include "methods/join/join_cost.h"
#include "methods/join/join_plan.h"
#include "platform/cpu.h"
#include "nqueens.h"

/* The model's walks down each half of a split, and its pricing budget,
 * as bench/nq_unit_model's. */
#define MODEL_PROBES 16384u
#define MODEL_BUDGET 0.8

/* Unit u counted whole, and its thread CPU seconds. */
static int whole_unit(const nq_join_plan *plan, uint64_t u, nq_simd simd, nq_unit_result *w,
                      double *seconds)
{
    const double t0 = nq_join_cpu_now();
    const int rc = nq_join_solve_unit(plan, u, simd, NULL, w);
    *seconds = nq_join_cpu_now() - t0;
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t n = 0, want = 64, step = 1, seed = 1, whole = 0, east = 1, model = 0;
    static const char *const names[] = { "N", "UNITS", "STEP", "SEED", "WHOLE", "EAST",
                                         "MODEL" };
    uint64_t *const nums[] = { &n, &want, &step, &seed, &whole, &east, &model };
    const nq_simd simd = nq_cpu_simd_best();
    const char *batch = getenv("NQ_BATCH_KEYS"), *passes = getenv("NQ_PASSES"),
               *const units_list = getenv("NQ_UNITS"), *real = getenv("NQ_REAL");
    const char *chosen = units_list; /* the next unit of the list */
    nq_join_plan *plan;
    uint64_t units, known = 0, rnd;
    double *secs, *tots, sum_est = 0.0, sum_whole = 0.0, price_meet = 0.0, price_key = 0.0;
    double sum_list = 0.0, sum_match = 0.0, sum_mlist = 0.0, sum_mmatch = 0.0;
    nq_join_profile prof = { 0, MODEL_PROBES, 0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0,
                             NULL, NULL, NULL, 0, NULL, 0, 0 };
    size_t len = 0;
    int rc;

    bench_args(argc, argv, "nq_join_sample", "N [UNITS [STEP [SEED [WHOLE [EAST [MODEL]]]]]]",
               7, 7, names, nums);
    if (n < 4 || n > NQ_MAX_N || want < 2 || step < 1 || step > 1u << 20 || whole > 1 ||
        east < 1 || east > 1u << 20 || model > 1 || (model && (n < 21 || step < 2))) {
        fputs("nq_join_sample: N from 4 to NQ_MAX_N, UNITS at least 2, STEP and EAST from 1 "
              "to 2^20, WHOLE 0 or 1, MODEL 0 or 1 (1 from n = 21 on, with STEP 2 or more)\n", stderr);
        return 2;
    }
    prof.seed = seed;
    rc = n >= 25 ? nq_join_plan_build_walk(&plan, (unsigned)n)
                 : nq_join_plan_build(&plan, (unsigned)n);
    if (rc == NQ_OK && passes)
        rc = nq_join_plan_set_passes(plan, (int)bench_arg("nq_join_sample", passes,
                                                          "NQ_PASSES"));
    if (rc == NQ_OK && batch)
        rc = nq_join_plan_set_batch(plan, (size_t)bench_arg("nq_join_sample", batch,
                                                            "NQ_BATCH_KEYS"));
    if (rc == NQ_OK)
        rc = nq_join_plan_prepare(plan, NULL); /* the table, the order: untimed */
    if (rc == NQ_OK && model)
        rc = nq_join_model_prices(plan, simd, MODEL_BUDGET, seed, NULL, &price_meet,
                                  &price_key);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_join_sample: n = %u: %s\n", (unsigned)n, nq_strerror(rc));
        return 1;
    }
    units = nq_join_plan_size(plan);
    if (chosen) { /* as many units as the list names */
        want = 1;
        for (const char *c = chosen; *c; c++)
            want += *c == ',';
    }
    if (want > units)
        want = units;
    secs = calloc((size_t)want, sizeof *secs);
    tots = calloc((size_t)want, sizeof *tots);
    if (!secs || !tots) {
        fputs("nq_join_sample: out of memory\n", stderr);
        return 1;
    }
    printf("# n = %u, join, SIMD %s, 1 thread, %s: %llu of %llu units, one in each of as "
           "many equal stretches of the list, one block in %llu, one east batch in %llu, seed %llu\n",
           (unsigned)n, nq_simd_name(simd), nq_join_plan_walks(plan) ? "halves walked" : "table",
           (unsigned long long)want, (unsigned long long)units, (unsigned long long)step,
           (unsigned long long)east, (unsigned long long)seed);
    if (model)
        printf("# model prices: %.4g s per meeting, %.4g s per key\n", price_meet, price_key);
    printf("unit\ttotal\tseconds\tmatch_sampled%s%s%s\n",
           whole ? "\twhole_total\twhole_seconds\ttotal/whole\tseconds/whole" : "",
           model ? "\tlist\tmatch\tmodel_list\tmodel_match\tmodel/seconds" : "",
           model && real ? "\tmodel_keys\treal_keys\tmodel_work\treal_work" : "");
    rnd = seed;
    for (uint64_t i = 0; i < want && rc == NQ_OK; i++) {
        /* one unit at random in stretch i: a fixed step through the list
         * would fall on the same place of every stretch of its own
         * structure (odd boards: each middle row's run of splits) */
        const uint64_t lo = i * units / want, hi = (i + 1) * units / want;
        uint64_t u = lo + (bench_sample_start(++rnd, hi - lo) - 1);
        nq_join_sampling smp = {
            .step = (unsigned)step,
            .phase = (unsigned)(bench_sample_start(rnd ^ 0x5DEECE66Du, step) - 1),
            .east_step = (unsigned)east,
            .east_phase = (unsigned)(bench_sample_start(rnd ^ 0x2545F4914F6CDD1Du, east) - 1)
        };
        nq_unit_result r, w;
        double t0, t, est, tw = 0.0;
        if (chosen) {
            char *end;
            u = strtoull(chosen, &end, 10);
            if (end == chosen || (*end && *end != ',') || u >= units) {
                fprintf(stderr, "nq_join_sample: NQ_UNITS: units below %llu, by commas\n",
                        (unsigned long long)units);
                return 2;
            }
            chosen = *end ? end + 1 : end;
        }
        /* with WHOLE, every other unit is counted whole first: neither
         * way always finds the unit's memory warm from the other */
        if (whole && len % 2 == 1 && (rc = whole_unit(plan, u, simd, &w, &tw)) != NQ_OK)
            break;
        t0 = nq_join_cpu_now();
        rc = nq_join_sample_unit(plan, u, simd, &smp, NULL, &r);
        if (rc != NQ_OK)
            break;
        t = nq_join_cpu_now() - t0;
        /* unbiased: see nq_join_sample_unit() */
        est = t + (double)(east - 1) * smp.east_seconds +
              (double)(step - 1) *
                  (smp.match_seconds + (double)(east - 1) * smp.east_match_seconds);
        if (whole && len % 2 == 0 && (rc = whole_unit(plan, u, simd, &w, &tw)) != NQ_OK)
            break;
        secs[len] = est;
        tots[len] = (double)r.total;
        len++;
        sum_est += est;
        printf("%llu\t%llu\t%.4f\t%.4f", (unsigned long long)u, (unsigned long long)r.total,
               est, smp.match_seconds);
        if (whole) {
            sum_whole += tw;
            printf("\t%llu\t%.4f\t%.4f\t%.4f", (unsigned long long)w.total, tw,
                   w.total ? (double)r.total / (double)w.total : 0.0, tw > 0 ? est / tw : 0.0);
        }
        if (model) {
            /* the sample's matches as its estimate scales them, the rest
             * listing and sorting; the model's meetings and keys */
            const double match = (double)step * (smp.match_seconds +
                                                 (double)(east - 1) * smp.east_match_seconds),
                         keys = prof.keys, work = prof.work;
            uint64_t first = 0, end = 0;
            double ml, mm;
            rc = nq_join_plan_unit_splits(plan, u, &first, &end);
            for (uint64_t sp = first; sp < end && rc == NQ_OK; sp++)
                rc = nq_join_profile_split(plan, sp, simd, 0, NULL, &prof);
            if (rc != NQ_OK)
                break;
            ml = price_key * (prof.keys - keys);
            mm = price_meet * (prof.work - work);
            sum_list += est - match;
            sum_match += match;
            sum_mlist += ml;
            sum_mmatch += mm;
            printf("\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f", est - match, match, ml, mm,
                   est > 0 ? (ml + mm) / est : 0.0);
            if (real) { /* the same splits' real lists, tallied, not matched */
                nq_join_profile rp = { 0, 0, seed, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0,
                                       NULL, NULL, NULL, 0, NULL, 0, 0 };
                for (uint64_t sp = first; sp < end && rc == NQ_OK; sp++)
                    rc = nq_join_profile_split(plan, sp, simd, 0, NULL, &rp);
                printf("\t%.4g\t%.4g\t%.4g\t%.4g", prof.keys - keys, rp.keys,
                       prof.work - work, rp.work);
                nq_join_profile_end(&rp);
                if (rc != NQ_OK)
                    break;
            }
        }
        printf("\n");
        fflush(stdout);
    }
    nq_join_profile_end(&prof);
    nq_join_plan_free(plan);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_join_sample: n = %u: %s\n", (unsigned)n, nq_strerror(rc));
        return 1;
    }
    if (model)
        printf("# the sample's units: listing and sorting %.4g s, matching %.4g s; the model's "
               "keys %.4g s (%.3f of it), meetings %.4g s (%.3f); model / sample %.3f\n",
               sum_list, sum_match, sum_mlist, sum_list > 0 ? sum_mlist / sum_list : 0.0,
               sum_mmatch, sum_match > 0 ? sum_mmatch / sum_match : 0.0,
               sum_est > 0 ? (sum_mlist + sum_mmatch) / sum_est : 0.0);
    if (units_list) { /* chosen units say nothing of the whole count */
        if (whole)
            printf("# the units: estimated %.4g s, counted whole %.4g s: %.4f\n", sum_est,
                   sum_whole, sum_whole > 0 ? sum_est / sum_whole : 0.0);
        free(secs);
        free(tots);
        return 0;
    }
    {
        double mean, se;
        const double u = (double)units;
        bench_mean_se(&mean, &se, secs, len);
        printf("# one-core CPU seconds of the whole count: %.4g (95%%: %.4g to %.4g); "
               "%.4g core-hours (%.4g to %.4g)\n",
               u * mean, u * (mean - 1.96 * se), u * (mean + 1.96 * se), u * mean / 3600,
               u * (mean - 1.96 * se) / 3600, u * (mean + 1.96 * se) / 3600);
        if (whole)
            printf("# the sample's units: estimated %.4g s, counted whole %.4g s: %.4f\n",
                   sum_est, sum_whole, sum_whole > 0 ? sum_est / sum_whole : 0.0);
    }
    {
        const int have_known = nq_known(&known, NULL, (unsigned)n) == NQ_OK;
        bench_sample_report("total", tots, len, (double)units, "", have_known, known);
    }
    free(secs);
    free(tots);
    return 0;
}
