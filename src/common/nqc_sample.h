/*
 * What the methods' cost models share (join_cost.c, sym_cost.c): a
 * stratified sample of a list whose any prefix spreads over the whole
 * list, the ratio estimator that turns timed work into a price, and the
 * standard error of a sample's mean. Header-only, so that nothing beyond
 * the nq_* symbols leaves the library.
 */
#ifndef NQC_SAMPLE_H
#define NQC_SAMPLE_H

#include <stdint.h>

#include "nqc_random.h"

/* Strata of a sample (a power of two). */
#define NQC_STRATA_BITS 12u
#define NQC_STRATA (1u << NQC_STRATA_BITS)

/*! nqc_stratum() : stratum of sample number i (< NQC_STRATA): strata are
 *  visited in bit-reversed order, so that any prefix of them spreads over
 *  the whole list (neighbouring items cost about the same, distant ones
 *  do not). */
static inline unsigned nqc_stratum(unsigned i)
{
    unsigned r = 0;
    for (unsigned b = 0; b < NQC_STRATA_BITS; b++)
        r |= (i >> b & 1u) << (NQC_STRATA_BITS - 1 - b);
    return r;
}

/*! nqc_sample_item() : the item of sample number i (< NQC_STRATA) of a
 *  list of `items`: one at a seeded random place of its stratum. */
static inline uint64_t nqc_sample_item(uint64_t items, unsigned i, uint64_t *seed)
{
    const uint64_t j = nqc_stratum(i);
    uint64_t lo, hi;
    if (items <= NQC_STRATA)
        return j % items;
    lo = j * items / NQC_STRATA;
    hi = (j + 1) * items / NQC_STRATA;
    return lo + nqc_splitmix64(seed) % (hi - lo);
}

/*! nqc_root() : the square root of x >= 0 by Newton's method (no libm). */
static inline double nqc_root(double x)
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

/* Sums over sampled items of (cost x, work w), for the price x / w. */
typedef struct nqc_ratio {
    double x, w, xx, ww, xw;
    unsigned k;
} nqc_ratio;

static inline void nqc_ratio_add(nqc_ratio *r, double x, double w)
{
    r->x += x;
    r->w += w;
    r->xx += x * x;
    r->ww += w * w;
    r->xw += x * w;
    r->k++;
}

static inline double nqc_ratio_value(const nqc_ratio *r)
{
    return r->w > 0.0 ? r->x / r->w : 0.0;
}

/*! nqc_ratio_error() : the relative standard error of the ratio
 *  estimator (1 when fewer than two items were added). */
static inline double nqc_ratio_error(const nqc_ratio *r)
{
    const double q = nqc_ratio_value(r), k = r->k;
    double res;
    if (r->k < 2 || !(r->x > 0.0))
        return 1.0;
    res = r->xx - 2 * q * r->xw + q * q * r->ww;
    return nqc_root((res > 0 ? res : 0) / (k * (k - 1))) / (r->x / k);
}

/*! nqc_strata_error() : relative standard error of the mean `mean` of a
 *  sample of k equally spaced strata (cost[j] for the strata j with
 *  seen[j] set, j < NQC_STRATA), from the differences between neighbours,
 *  which a smooth trend along the list does not inflate as it inflates
 *  the plain variance. 1 when k < 2. */
static inline double nqc_strata_error(const double *cost, const unsigned char *seen,
                                      double mean, unsigned k)
{
    double d2 = 0.0, prev = 0.0;
    unsigned pairs = 0;
    int have = 0;
    if (k < 2 || !(mean > 0.0))
        return 1.0;
    for (unsigned j = 0; j < NQC_STRATA; j++) {
        if (!seen[j])
            continue;
        if (have) {
            d2 += (cost[j] - prev) * (cost[j] - prev);
            pairs++;
        }
        prev = cost[j];
        have = 1;
    }
    return nqc_root(d2 / (2.0 * pairs) / k) / mean;
}

#endif /* NQC_SAMPLE_H */
