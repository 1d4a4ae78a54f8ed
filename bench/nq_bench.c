/*
 * nq_bench: times the counting methods side by side, in one run.
 *
 * For each n, each configuration (method, SIMD level, threads) is timed
 * `repeat` times; the rounds are interleaved (every configuration once per
 * round) so that a change in the machine's load touches all of them alike.
 * It prints the medians and the ratios as a Markdown table, and checks
 * every count against the known values.
 *
 * usage: nq_bench [--sizes A-B] [--repeat R] [--threads T]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nqc_clock.h"
#include "nqueens.h"

typedef struct config {
    const char *name;
    nq_method method;
    nq_simd simd;
    unsigned threads; /* 0 = all */
} config;

static double now(void) { return nqc_now(); }

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, by_value);
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

int main(int argc, char **argv)
{
    unsigned lo = 14, hi = 17, threads = 0;
    int repeat = 3;
    config configs[5];
    int nc = 0;
    char all[32];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
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
            fprintf(stderr, "usage: nq_bench [--sizes A-B] [--repeat R] [--threads T]\n");
            return 2;
        }
    }
    if (repeat < 1 || repeat > 100 || lo > hi || hi > NQ_MAX_N)
        return 2;
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
        double t[5][100], med[5];
        uint64_t known = 0;
        nq_known(&known, NULL, n);
        for (int r = 0; r < repeat; r++)
            for (int c = 0; c < nc; c++) {
                nq_count_options o = NQ_COUNT_OPTIONS_INIT;
                nq_count_result res;
                double start;
                o.method = configs[c].method;
                o.simd = configs[c].simd;
                o.threads = configs[c].threads;
                start = now();
                if (nq_count(&res, n, &o) != NQ_OK || res.total != known) {
                    fprintf(stderr, "nq_bench: wrong count for n = %u (%s)\n", n, configs[c].name);
                    return 1;
                }
                t[c][r] = now() - start;
            }
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
