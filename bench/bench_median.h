/*
 * bench_median.h - the median of a bench's timed runs (nq_bench.c,
 * nq_gpu_cut.c): the middle value, or the mean of the middle two.
 */
#ifndef NQ_BENCH_MEDIAN_H
#define NQ_BENCH_MEDIAN_H

#include <stdlib.h>

static inline int bench_by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..k) (k >= 1); sorts v. */
static inline double bench_median(double *v, size_t k)
{
    qsort(v, k, sizeof *v, bench_by_value);
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

#endif
