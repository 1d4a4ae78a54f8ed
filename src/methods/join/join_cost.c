/*
 * join_cost.c - how long a count by the join will take, worked out from a
 * sample of its row splits without building the table.
 *
 * Why a model. Timing a sample of units is exact up to n = 20, but beyond
 * it a unit is a run of hundreds of splits that takes seconds to hours, and
 * the units need the quarter table, which takes gigabytes and a minute to
 * build at n = 24. So beyond n = 20 nothing of the real count is timed;
 * its work is counted instead, and priced by a smaller board.
 *
 * Work. A split's work is counted as join_profile.c says: from the sizes
 * of its buckets, the halves' lists estimated by PROBES random walks down
 * each half.
 *
 * Prices. The same split profile, with the table and with the pairs
 * counted, on a sample of the splits of CAL_N, gives the CPU seconds per
 * key (listing and sorting) and per meeting of this machine at the
 * count's SIMD level (thread CPU time, so that other programs on a busy
 * machine inflate it little). A count that walks the halves (its table
 * did not fit: n = 25 on, or a memory limit) is priced with the walk,
 * and its sort and its match on its own splits: their lists are the
 * count's batches, up to 2^22 keys that no cache holds, where CAL_N's
 * stay in the second-level one, and how much more a key or a meeting
 * costs there differs from machine to machine and from run to run (n =
 * 20's prices read 0.53 of a sample of n = 28 on one Intel Xeon and 0.75
 * on another of the same class, whose n = 28 took about as long; priced
 * on n = 28, 0.92: docs/record-runs.md). Listing is not timed there: a
 * split lists its quarters before its first batch, which a count shares
 * among all its batches and neighbours.
 *
 * Sample. The splits are cut into STRATA strata of equal length and each
 * stratum gives one split at a seeded random place; strata are visited in
 * bit-reversed order, so that any prefix of them spreads over the whole
 * list (neighbouring splits cost about the same, distant ones do not).
 * The total is the mean modelled cost times the number of splits. Its
 * interval adds up, in quadrature: the sampling error (the spread of the
 * sampled costs), the error of the two prices (the spread of the timed
 * splits around them), and MODEL_ERROR, what the model missed at the
 * sizes where it was checked against full counts (docs/performance.md).
 */
#include "join_cost.h"

#include "join_memory.h"
#include "nqc_sample.h"

#include <stdlib.h>

/* The smallest n priced by the model, and the board that prices it. */
#define MODEL_MIN_N 21u
#define CAL_N 20u
/* Strata of the sample (a power of two), and the fewest splits profiled
 * and timed whatever the budget: a split's cost spreads widely, and from
 * n = 26 on a profiled split takes some 40 ms of walks (join_split.c),
 * so that the budget alone would leave some 30 and a 37% interval. */
#define STRATA NQC_STRATA
#define MIN_SAMPLES 96u
#define MIN_TIMED 24u
/* Random walks down each half of a sampled split. */
#define PROBES 16384u
/* Without the table, a split lists the quarters it needs and keeps them
 * for the next split, which in a unit is its neighbour and often needs
 * the same bottom quarters (join_rowset.c): so such prices are timed on
 * runs of this many neighbouring splits, not on splits alone, which
 * would list every quarter afresh (n = 25's estimate read 1.34 of a
 * sample's time that way). */
#define WALK_RUN 8u
/* The count's own splits that price its sort and match (own()): the first
 * batch of each half, one stored block in OWN_STEP meeting its items; at
 * least OWN_TIMED of them (some 0.5 s each at n = 28). */
#define OWN_STEP 64u
#define OWN_TIMED 12u
/* Share of the budget spent pricing (the rest profiles the count's
 * splits). */
#define CAL_SHARE 0.4
/* Relative error of the model itself, beyond sampling (two standard
 * deviations), and the width of the interval in standard deviations.
 * Against the count of the same units in the same minutes, the model
 * read 0.89 to 0.94 at n = 22, 23 and 26, 0.84 to 1.06 at 24
 * (bench/nq_unit_model with COUNT, 2026-11-27), and 0.91 to 0.93 of a
 * count of n = 21: its prices, timed on n = 20, miss a little of what
 * longer lists cost (docs/performance.md). */
#define MODEL_ERROR 0.25
#define Z 2.0

/* Prices of this machine: CPU seconds per meeting (fills weighted as
 * meetings), and per key listed and sorted. */
typedef struct prices {
    nqc_ratio pair, list, sort;
} prices;

/* The price of a key, and its relative standard error. */
static double key_price(const prices *pr, double *err)
{
    const double l = nqc_ratio_value(&pr->list), s = nqc_ratio_value(&pr->sort),
                 el = l * nqc_ratio_error(&pr->list), es = s * nqc_ratio_error(&pr->sort);
    if (err)
        *err = l + s > 0.0 ? nqc_root(el * el + es * es) / (l + s) : 1.0;
    return l + s;
}

/* The sort's and the match's prices of a count that walks its halves,
 * timed on its own splits (a stratified sample of single splits, at least
 * OWN_TIMED, then until the budget is spent): only the first batch of
 * each half is listed, sorted and met (prof.first), and one stored block
 * in OWN_STEP meets its items, at a phase that steps on from the seed
 * split by split (prof.step). */
static int own(prices *out, const nq_join_plan *count, nq_simd simd, double budget,
               uint64_t seed, const nq_stop_flag *stop)
{
    nq_join_profile p = { 1, 0, seed, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL,
                          1, OWN_STEP };
    const uint64_t splits = nq_join_plan_splits(count);
    const double start = nq_join_cpu_now();
    int rc = NQ_OK;
    out->pair = out->sort = (nqc_ratio){ 0, 0, 0, 0, 0, 0 };
    for (unsigned i = 0; i < STRATA && rc == NQ_OK; i++) {
        const double keys = p.keys, work = p.work, matching = p.match_seconds,
                     sorting = p.sort_seconds;
        rc = nq_join_profile_split(count, nqc_sample_item(splits, i, &seed), simd, 0, stop, &p);
        if (rc != NQ_OK || !(p.keys > keys))
            continue;
        nqc_ratio_add(&out->pair, (p.match_seconds - matching) * OWN_STEP, p.work - work);
        nqc_ratio_add(&out->sort, p.sort_seconds - sorting, p.keys - keys);
        if (out->pair.k >= OWN_TIMED && nq_join_cpu_now() - start > budget)
            break;
    }
    nq_join_profile_end(&p);
    return rc;
}

/* The slots of CAL_N's splits when the count's hold fewer pieces than
 * its n wants (a memory limit): as large a share of what CAL_N wants, so
 * that about as many quarters are too large for them and are walked
 * (0 walks them all). */
static size_t cal_pieces(const nq_join_plan *count)
{
    const size_t want = nq_join_rowset_want(nq_join_plan_n(count)),
                 have = nq_join_plan_rowset_pieces(count), cal = nq_join_rowset_want(CAL_N);
    return have >= want ? cal : (size_t)((double)cal * (double)have / (double)want);
}

/* Prices for a count of the plan `count`: with its table, or walking its
 * halves into slots like its own. */
static int price(prices *out, const nq_join_plan *count, nq_simd simd, double budget,
                 uint64_t seed, const nq_stop_flag *stop)
{
    nq_join_profile p = { 1, 0, 0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL, 0, 0 };
    const int walk = nq_join_plan_walks(count);
    nq_join_plan *plan;
    double start = nq_join_cpu_now();
    uint64_t splits;
    int rc = nq_join_plan_build(&plan, CAL_N);
    if (rc == NQ_OK && walk)
        rc = nq_join_plan_set_rowset_pieces(plan, cal_pieces(count));
    if (rc != NQ_OK) {
        nq_join_plan_free(plan);
        return rc;
    }
    splits = nq_join_plan_splits(plan);
    *out = (prices){ { 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0 } };
    for (unsigned i = 0; i < STRATA && rc == NQ_OK; i++) {
        const double keys = p.keys, work = p.work, matching = p.match_seconds,
                     listing = p.list_seconds, sorting = p.sort_seconds;
        const uint64_t first = nqc_sample_item(splits, i, &seed);
        for (unsigned j = 0; j < (walk ? WALK_RUN : 1u) && rc == NQ_OK; j++)
            rc = nq_join_profile_split(plan, (first + j) % splits, simd, !walk, stop, &p);
        if (rc != NQ_OK || !(p.keys > keys))
            continue;
        nqc_ratio_add(&out->pair, p.match_seconds - matching, p.work - work);
        nqc_ratio_add(&out->list, p.list_seconds - listing, p.keys - keys);
        nqc_ratio_add(&out->sort, p.sort_seconds - sorting, p.keys - keys);
        if (out->pair.k == 1) /* the first built the table */
            start = nq_join_cpu_now();
        if (out->pair.k >= MIN_TIMED && nq_join_cpu_now() - start > budget)
            break;
    }
    nq_join_profile_end(&p);
    nq_join_plan_free(plan);
    /* a count that walks: its sort and match on its own lists */
    return rc == NQ_OK && walk ? own(out, count, simd, budget, seed, stop) : rc;
}

int nq_join_model_prices(const nq_join_plan *plan, nq_simd simd, double budget,
                         uint64_t seed, const nq_stop_flag *stop, double *per_meeting,
                         double *per_key)
{
    prices pr;
    int rc;
    if (!plan || !per_meeting || !per_key)
        return NQ_EINVAL;
    rc = price(&pr, plan, simd, budget, seed, stop);
    if (rc == NQ_OK) {
        *per_meeting = nqc_ratio_value(&pr.pair);
        *per_key = key_price(&pr, NULL);
    }
    return rc;
}

int nq_join_model(void *any, nq_simd simd, double budget, uint64_t seed,
                  const nq_stop_flag *stop, nq_cost_model *out)
{
    const nq_join_plan *plan = any;
    const uint64_t splits = nq_join_plan_splits(plan);
    double a, b, sum = 0.0, pairs_all = 0.0, mean, rel, pair_share;
    double pair_err, key_err, samp_err, *cost;
    unsigned char *seen;
    unsigned k = 0;
    prices pr;
    int rc;

    if (!plan || !out)
        return NQ_EINVAL;
    if (nq_join_plan_n(plan) < MODEL_MIN_N)
        return NQ_EUNSUPPORTED;
    rc = price(&pr, plan, simd, budget * CAL_SHARE, seed, stop);
    if (rc != NQ_OK)
        return rc;
    a = nqc_ratio_value(&pr.pair);
    b = key_price(&pr, &key_err);
    cost = malloc(STRATA * sizeof *cost);
    seen = calloc(STRATA, 1);
    if (!cost || !seen) {
        free(cost);
        free(seen);
        return NQ_ENOMEM;
    }
    const double tstart = nq_join_cpu_now();
    nq_join_profile p = { 0, PROBES, seed, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0, NULL, 0, 0 };
    for (unsigned i = 0; i < STRATA && rc == NQ_OK; i++) {
        const unsigned j = nqc_stratum(i);
        const double keys = p.keys, work = p.work;
        double pairs;
        rc = nq_join_profile_split(plan, nqc_sample_item(splits, i, &seed), simd, 0,
                                   stop, &p);
        pairs = a * (p.work - work);
        cost[j] = pairs + b * (p.keys - keys);
        seen[j] = 1;
        pairs_all += pairs;
        sum += cost[j];
        k++;
        if (k >= MIN_SAMPLES && nq_join_cpu_now() - tstart > budget * (1 - CAL_SHARE))
            break;
    }
    nq_join_profile_end(&p);
    if (rc == NQ_OK) {
        mean = sum / k;
        samp_err = nqc_strata_error(cost, seen, mean, k);
        pair_share = sum > 0 ? pairs_all / sum : 0.5;
        pair_err = nqc_ratio_error(&pr.pair);
        rel = nqc_root(samp_err * samp_err + pair_share * pair_share * pair_err * pair_err +
                   (1 - pair_share) * (1 - pair_share) * key_err * key_err);
        rel = nqc_root(Z * Z * rel * rel + MODEL_ERROR * MODEL_ERROR);
        out->cpu_seconds = mean * (double)splits;
        out->low = out->cpu_seconds * (rel < 0.5 ? 1.0 - rel : 0.5);
        out->high = out->cpu_seconds * (1.0 + rel);
        out->sampled = k;
        out->timed = pr.pair.k;
    }
    free(cost);
    free(seen);
    return rc;
}
