/*
 * A monotonic clock in seconds, for elapsed times (never the wall clock,
 * which may jump). Shared by the library, the command line, the MPI front
 * end, the benchmark and the tests; header-only, so that nothing beyond
 * the nq_* symbols leaves the library.
 */
#ifndef NQC_CLOCK_H
#define NQC_CLOCK_H

#include <time.h>

/*! nqc_now() : @return seconds on CLOCK_MONOTONIC, from an arbitrary origin. */
static inline double nqc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*! nqc_thread_cpu() : @return the CPU seconds of the calling thread
 *  (CLOCK_MONOTONIC where the system has no thread clock), which other
 *  programs on a busy machine inflate far less than elapsed time. */
static inline double nqc_thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
