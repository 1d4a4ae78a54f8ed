/*
 * nq_bench: times the counting methods side by side, in one run.
 *
 * For each n, each configuration (method, SIMD level, threads) is timed
 * `repeat` times; the rounds are interleaved (every configuration once per
 * round) so that a change in the machine's load touches all of them alike.
 * It prints the medians and the ratios as a Markdown table, and checks
 * every count against the known values.
 *
 * With --levels it compares the SIMD levels instead: the symmetry method on
 * one thread at every level this build and CPU run (scalar, AVX2,
 * AVX-512), with wall and CPU time, and each level against the one below.
 *
 * usage: nq_bench [--levels] [--sizes A-B] [--repeat R] [--threads T]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_median.h"
#include "nqc_clock.h"
#include "nqueens.h"

typedef struct config {
    const char *name;
    nq_method method;
    nq_simd simd;
    unsigned threads; /* 0 = all */
} config;

static double now(void) { return nqc_now(); }

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Counts n with configuration c; stores its wall and CPU seconds.
 * @return 0, or 1 (with a message) when the count is wrong. */
static int time_count(double *wall, double *cpu, unsigned n, const config *c)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result res = NQ_COUNT_RESULT_INIT;
    uint64_t known = 0;
    nq_known(&known, NULL, n);
    o.method = c->method;
    o.simd = c->simd;
    o.threads = c->threads;
    double w0 = now(), c0 = cpu_now();
    if (nq_count(&res, n, &o) != NQ_OK || res.total != known) {
        fprintf(stderr, "nq_bench: wrong count for n = %u (%s)\n", n, c->name);
        return 1;
    }
    *cpu = cpu_now() - c0;
    *wall = now() - w0;
    return 0;
}

static double median(double *v, int k)
{
    return bench_median(v, (size_t)k);
}

/* The symmetry method on one thread at each SIMD level, side by side. */
static int run_levels(unsigned lo, unsigned hi, int repeat)
{
    static const char *const names[] = {"", "scalar", "AVX2", "AVX-512"};
    config configs[3];
    int nc = 0;
    for (int l = NQ_SIMD_NONE; l <= (int)nq_simd_best(); l++)
        configs[nc++] = (config){names[l], NQ_METHOD_SYMMETRY, (nq_simd)l, 1};

    printf("nqueens %s, symmetry method, one thread, median of %d interleaved runs\n\n",
           nq_version_string(), repeat);
    printf("| n |");
    for (int c = 0; c < nc; c++)
        printf(" %s wall (s) | %s CPU (s) |", configs[c].name, configs[c].name);
    for (int c = 1; c < nc; c++)
        printf(" %s / %s (CPU) |", configs[c - 1].name, configs[c].name);
    printf("\n|---:|");
    for (int c = 0; c < 3 * nc - 1; c++)
        printf("---:|");
    printf("\n");

    for (unsigned n = lo; n <= hi; n++) {
        double wall[3][100], cpu[3][100], mc[3];
        for (int r = 0; r < repeat; r++)
            for (int c = 0; c < nc; c++)
                if (time_count(&wall[c][r], &cpu[c][r], n, &configs[c]))
                    return 1;
        printf("| %u |", n);
        for (int c = 0; c < nc; c++) {
            mc[c] = median(cpu[c], repeat);
            printf(" %.3f | %.3f |", median(wall[c], repeat), mc[c]);
        }
        for (int c = 1; c < nc; c++)
            printf(" %.2fx |", mc[c - 1] / mc[c]);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned lo = 14, hi = 17, threads = 0;
    int repeat = 3, levels = 0;
    config configs[5];
    int nc = 0;
    char all[32];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--levels") == 0) {
            levels = 1;
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%u-%u", &lo, &hi) != 2) {
                if (sscanf(argv[i], "%u", &lo) != 1)
                    return 2;
                hi = lo;
            }
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = (unsigned)atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: nq_bench [--levels] [--sizes A-B] [--repeat R] [--threads T]\n");
            return 2;
        }
    }
    if (repeat < 1 || repeat > 100 || lo > hi || hi > NQ_MAX_N)
        return 2;
    if (levels)
        return run_levels(lo, hi, repeat);
    if (!threads) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1u;
    }
    snprintf(all, sizeof all, "%u threads", threads);

    configs[nc++] = (config){"plain, 1 thread", NQ_METHOD_PLAIN, NQ_SIMD_NONE, 1};
    configs[nc++] = (config){"symmetry scalar, 1 thread", NQ_METHOD_SYMMETRY, NQ_SIMD_NONE, 1};
    if (nq_simd_best() != NQ_SIMD_NONE)
        configs[nc++] = (config){"symmetry SIMD, 1 thread", NQ_METHOD_SYMMETRY, nq_simd_best(), 1};
    configs[nc++] = (config){"plain, all threads", NQ_METHOD_PLAIN, NQ_SIMD_NONE, threads};
    configs[nc++] = (config){"symmetry, all threads", NQ_METHOD_SYMMETRY, NQ_SIMD_AUTO, threads};

    printf("nqueens %s, SIMD level %s, %u threads for 'all', median of %d interleaved runs\n\n",
           nq_version_string(), nq_simd_name(nq_simd_best()), threads, repeat);
    printf("| n |");
    for (int c = 0; c < nc; c++)
        printf(" %s (s) |", configs[c].name);
    printf(" plain / symmetry, 1 thread | symmetry 1 thread / all |\n|---:|");
    for (int c = 0; c < nc + 2; c++)
        printf("---:|");
    printf("\n");

    for (unsigned n = lo; n <= hi; n++) {
        double t[5][100], med[5], cpu;
        for (int r = 0; r < repeat; r++)
            for (int c = 0; c < nc; c++)
                if (time_count(&t[c][r], &cpu, n, &configs[c]))
                    return 1;
        printf("| %u |", n);
        for (int c = 0; c < nc; c++) {
            med[c] = median(t[c], repeat);
            printf(" %.3f |", med[c]);
        }
        /* configs: 0 plain/1, then symmetry/1 (SIMD if any: the fastest), ..., last symmetry/all */
        printf(" %.2fx | %.2fx |\n", med[0] / med[nc == 5 ? 2 : 1],
               med[nc == 5 ? 2 : 1] / med[nc - 1]);
        fflush(stdout);
    }
    return 0;
}
