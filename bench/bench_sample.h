/*
 * bench_sample.h - what the sampling programs (nq_sample.c, nq_subsample.c)
 * share: the systematic sample of a unit list (every m-th unit from a
 * start drawn from the seed), the mean of a sample with its standard error,
 * and the line that says what a sample says of the whole list, with a 95%
 * interval (normal approximation) and whether it holds the published figure.
 */
#ifndef NQ_BENCH_SAMPLE_H
#define NQ_BENCH_SAMPLE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* The start k (1..m) of part k of m, drawn from the seed (splitmix64). */
static inline uint64_t bench_sample_start(uint64_t seed, uint64_t m)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15u + 0x2545F4914F6CDD1Du;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 32;
    return x % m + 1;
}

/* mean and standard error of the mean of x[0..len) */
static inline void bench_mean_se(double *mean, double *se, const double *x, size_t len)
{
    double sum = 0, sq = 0;
    for (size_t i = 0; i < len; i++)
        sum += x[i];
    *mean = len ? sum / (double)len : 0;
    for (size_t i = 0; i < len; i++)
        sq += (x[i] - *mean) * (x[i] - *mean);
    *se = len > 1 ? sqrt(sq / (double)(len - 1) / (double)len) : 0;
}

/* Prints what the per-unit figures v[0..len) say of a whole list of
 * `units` units, and whether the published figure `known` (when
 * have_known) lies in the 95% interval; `tail` ends the first line. */
static inline void bench_sample_report(const char *what, const double *v, size_t len,
                                       double units, const char *tail, int have_known,
                                       uint64_t known)
{
    double m, se;
    bench_mean_se(&m, &se, v, len);
    printf("# %s from the sample: %.6g (95%%: %.6g to %.6g)%s\n", what, units * m,
           units * (m - 1.96 * se), units * (m + 1.96 * se), tail);
    if (have_known) {
        int inside = (double)known >= units * (m - 1.96 * se) &&
                     (double)known <= units * (m + 1.96 * se);
        printf("# published %s %llu: %s the interval\n", what, (unsigned long long)known,
               inside ? "inside" : "OUTSIDE");
    }
}

#endif
