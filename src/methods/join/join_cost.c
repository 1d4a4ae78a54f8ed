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
 * key and per meeting of this machine at the count's SIMD level (thread
 * CPU time, so that other programs on a busy machine inflate it little).
 * A count that walks the halves (its table did not fit) is priced with
 * the walk.
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
#include "join_internal.h"
#include "nqc_random.h"

#include <stdlib.h>

/* The smallest n priced by the model, and the board that prices it. */
#define MODEL_MIN_N 21u
#define CAL_N 20u
/* Strata of the sample (a power of two), and the fewest splits sampled
 * whatever the budget. */
#define STRATA_BITS 12u
#define STRATA (1u << STRATA_BITS)
#define MIN_SAMPLES 24u
/* Random walks down each half of a sampled split. */
#define PROBES 16384u
/* Share of the budget spent pricing (the rest profiles the count's
 * splits). */
#define CAL_SHARE 0.4
/* Relative error of the model itself, beyond sampling (two standard
 * deviations), and the width of the interval in standard deviations. */
#define MODEL_ERROR 0.12
#define Z 2.0

/* ========================================================================
 * Sampling
 * ======================================================================== */

static unsigned bit_reverse(unsigned i)
{
    unsigned r = 0;
    for (unsigned b = 0; b < STRATA_BITS; b++)
        r |= (i >> b & 1u) << (STRATA_BITS - 1 - b);
    return r;
}

/* The split of sample number i (< STRATA) of a list of `splits`. */
static uint64_t sample_split(uint64_t splits, unsigned i, uint64_t *seed)
{
    const uint64_t j = bit_reverse(i);
    uint64_t lo, hi;
    if (splits <= STRATA)
        return j % splits;
    lo = j * splits / STRATA;
    hi = (j + 1) * splits / STRATA;
    return lo + nqc_splitmix64(seed) % (hi - lo);
}

static double root(double x)
{
    double r = x > 1.0 ? x : 1.0;
    if (!(x > 0.0))
        return 0.0;
    for (int i = 0; i < 200; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return r;
}

/* Sums over the sampled splits of (cost x, work w) for one price, to get
 * the ratio x / w and its relative standard error. */
typedef struct ratio {
    double x, w, xx, ww, xw;
    unsigned k;
} ratio;

static void ratio_add(ratio *r, double x, double w)
{
    r->x += x;
    r->w += w;
    r->xx += x * x;
    r->ww += w * w;
    r->xw += x * w;
    r->k++;
}

static double ratio_value(const ratio *r)
{
    return r->w > 0.0 ? r->x / r->w : 0.0;
}

/* Relative standard error of the ratio estimator. */
static double ratio_error(const ratio *r)
{
    const double q = ratio_value(r), k = r->k;
    double res;
    if (r->k < 2 || !(r->x > 0.0))
        return 1.0;
    res = r->xx - 2 * q * r->xw + q * q * r->ww;
    return root((res > 0 ? res : 0) / (k * (k - 1))) / (r->x / k);
}

/* Prices of this machine, from splits of CAL_N counted in full: CPU
 * seconds per meeting (fills weighted as meetings) and per key. */
typedef struct prices {
    ratio pair, key;
} prices;

static int price(prices *out, nq_simd simd, int walk, double budget,
                 uint64_t seed, const nq_stop_flag *stop)
{
    nq_join_profile p = { 1, 0, 0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0 };
    nq_join_plan *plan;
    double start = nq_join_cpu_now();
    uint64_t splits;
    int rc = nq_join_plan_build(&plan, CAL_N);
    if (rc != NQ_OK)
        return rc;
    splits = nq_join_plan_splits(plan);
    *out = (prices){ { 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 0, 0 } };
    for (unsigned i = 0; i < STRATA && rc == NQ_OK; i++) {
        const double keys = p.keys, work = p.work, matching = p.match_seconds,
                     listing = p.list_seconds + p.sort_seconds;
        rc = nq_join_profile_split(plan, sample_split(splits, i, &seed), simd,
                                   !walk, stop, &p);
        if (rc != NQ_OK || !(p.keys > keys))
            continue;
        ratio_add(&out->pair, p.match_seconds - matching, p.work - work);
        ratio_add(&out->key, p.list_seconds + p.sort_seconds - listing, p.keys - keys);
        if (out->pair.k == 1) /* the first built the table */
            start = nq_join_cpu_now();
        if (out->pair.k >= MIN_SAMPLES && nq_join_cpu_now() - start > budget)
            break;
    }
    nq_join_profile_end(&p);
    nq_join_plan_free(plan);
    return rc;
}

/* Relative standard error of the mean of a sample of equally spaced
 * strata (cost[j] for the strata j with seen[j] set) from the differences
 * between neighbours, which a smooth trend along the list does not
 * inflate as it inflates the plain variance. */
static double spread(const double *cost, const unsigned char *seen, double mean,
                     unsigned k)
{
    double d2 = 0.0, prev = 0.0;
    unsigned pairs = 0;
    int have = 0;
    if (k < 2 || !(mean > 0.0))
        return 1.0;
    for (unsigned j = 0; j < STRATA; j++) {
        if (!seen[j])
            continue;
        if (have) {
            d2 += (cost[j] - prev) * (cost[j] - prev);
            pairs++;
        }
        prev = cost[j];
        have = 1;
    }
    return root(d2 / (2.0 * pairs) / k) / mean;
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
    rc = price(&pr, simd, nq_join_plan_walks(plan), budget * CAL_SHARE, seed, stop);
    if (rc != NQ_OK)
        return rc;
    a = ratio_value(&pr.pair);
    b = ratio_value(&pr.key);
    cost = malloc(STRATA * sizeof *cost);
    seen = calloc(STRATA, 1);
    if (!cost || !seen) {
        free(cost);
        free(seen);
        return NQ_ENOMEM;
    }
    const double tstart = nq_join_cpu_now();
    nq_join_profile p = { 0, PROBES, seed, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, NULL, NULL, NULL, 0 };
    for (unsigned i = 0; i < STRATA && rc == NQ_OK; i++) {
        const unsigned j = bit_reverse(i);
        const double keys = p.keys, work = p.work;
        double pairs;
        rc = nq_join_profile_split(plan, sample_split(splits, i, &seed), simd, 0,
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
        samp_err = spread(cost, seen, mean, k);
        pair_share = sum > 0 ? pairs_all / sum : 0.5;
        pair_err = ratio_error(&pr.pair);
        key_err = ratio_error(&pr.key);
        rel = root(samp_err * samp_err + pair_share * pair_share * pair_err * pair_err +
                   (1 - pair_share) * (1 - pair_share) * key_err * key_err);
        rel = root(Z * Z * rel * rel + MODEL_ERROR * MODEL_ERROR);
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
