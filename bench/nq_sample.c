/*
 * nq_sample: exact counts of a sample of one board size's work units, each
 * with its own time, for the sizes that are too big to count in full here.
 *
 * The sample is part k of m of the unit list: every m-th unit from a start
 * k drawn from the seed, so it spreads over the whole list (neighbouring
 * units cost about the same; the two ends of the list differ a lot). One
 * thread counts it, so the time between two finished units is the second
 * unit's time. The first interval also holds the setup (the method's
 * tables), so it is printed apart and left out of the time statistics.
 * Each unit gets two times: wall seconds, and the process's CPU seconds
 * (with one counting thread, that thread's time), which a busy machine
 * distorts far less; the statistics use the CPU seconds.
 *
 * Printed: one line per unit (unit, its total, its seconds), then what the
 * sample says of the whole list, with 95% intervals (normal approximation):
 * the one-core time of the full count, and the total. Where the total is
 * published, the interval must hold it: that checks the sample as a
 * sample (a count of the units themselves is exact either way).
 *
 * The symmetry method's units also count unique solutions: their sample
 * is printed and checked the same way.
 *
 * usage: nq_sample N [UNITS [SEED [SIMD [MAX_MEMORY_BYTES [METHOD]]]]]
 *        SIMD: auto, none, avx2, avx512 (default auto)
 *        METHOD: join, symmetry or plain (default join)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "bench_sample.h"
#include "nqc_clock.h"
#include "nqueens.h"

typedef struct sample {
    uint64_t *unit, *total, *unique;
    double *seconds, *cpu;
    size_t len, cap;
    double last, last_cpu;
} sample;

/* CPU seconds of the whole process */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_unit(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    sample *s = data;
    double t = nqc_now(), c = cpu_now();
    if (s->len < s->cap) {
        s->unit[s->len] = unit;
        s->total[s->len] = total;
        s->unique[s->len] = unique;
        s->seconds[s->len] = t - s->last;
        s->cpu[s->len] = c - s->last_cpu;
        s->len++;
    }
    s->last = t;
    s->last_cpu = c;
}

/* bench_sample_report() of whole-number figures: 0 if out of memory */
static int report(const char *what, const uint64_t *x, size_t len, double units,
                  uint64_t part, int have_known, uint64_t known)
{
    double *v = calloc(len ? len : 1, sizeof *v);
    char tail[64];
    if (!v) {
        fputs("nq_sample: out of memory\n", stderr);
        return 0;
    }
    for (size_t i = 0; i < len; i++)
        v[i] = (double)x[i];
    snprintf(tail, sizeof tail, "; part %s %llu", what, (unsigned long long)part);
    bench_sample_report(what, v, len, units, tail, have_known, known);
    free(v);
    return 1;
}

int main(int argc, char **argv)
{
    uint64_t n = 0, want = 50, seed = 1, max_memory = 0, units = 0;
    nq_simd simd = NQ_SIMD_AUTO;
    nq_method method = NQ_METHOD_JOIN;
    static const char *const names[] = { "N", "UNITS", "SEED" };
    uint64_t *const nums[] = { &n, &want, &seed };
    bench_args(argc, argv, "nq_sample", "N [UNITS [SEED [SIMD [MAX_MEMORY_BYTES [METHOD]]]]]",
               6, 3, names, nums);
    if (argc > 4)
        simd = bench_simd("nq_sample", argv[4]);
    if (argc > 5)
        max_memory = bench_arg("nq_sample", argv[5], "MAX_MEMORY_BYTES");
    if (argc > 6) {
        if (!strcmp(argv[6], "symmetry")) {
            method = NQ_METHOD_SYMMETRY;
        } else if (!strcmp(argv[6], "plain")) {
            method = NQ_METHOD_PLAIN;
        } else if (strcmp(argv[6], "join")) {
            fprintf(stderr, "nq_sample: METHOD must be join, symmetry or plain, not '%s'\n",
                    argv[6]);
            return 2;
        }
    }
    if (n > NQ_MAX_N || want < 2) {
        fputs("nq_sample: N must be at most NQ_MAX_N and UNITS at least 2\n", stderr);
        return 2;
    }

    nq_count_options opts = NQ_COUNT_OPTIONS_INIT;
    opts.threads = 1;
    opts.method = method;
    opts.unique = method == NQ_METHOD_SYMMETRY;
    opts.simd = simd;
    opts.max_memory = max_memory;
    int rc = nq_units(&units, (unsigned)n, opts.method);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_sample: %s\n", nq_strerror(rc));
        return 1;
    }
    if (want > units)
        want = units;
    /* part k of m holds the units u with u % m == k - 1 */
    uint32_t m = (uint32_t)(units / want);
    opts.part_m = m;
    opts.part_k = (uint32_t)bench_sample_start(seed, m);

    sample s = {0};
    s.cap = (size_t)(units / m + 1);
    s.unit = calloc(s.cap, sizeof *s.unit);
    s.total = calloc(s.cap, sizeof *s.total);
    s.unique = calloc(s.cap, sizeof *s.unique);
    s.seconds = calloc(s.cap, sizeof *s.seconds);
    s.cpu = calloc(s.cap, sizeof *s.cpu);
    if (!s.unit || !s.total || !s.unique || !s.seconds || !s.cpu) {
        fputs("nq_sample: out of memory\n", stderr);
        return 1;
    }
    opts.on_unit = on_unit;
    opts.unit_data = &s;

    nq_count_result res = NQ_COUNT_RESULT_INIT;
    double t0 = nqc_now();
    s.last = t0;
    s.last_cpu = cpu_now();
    rc = nq_count(&res, (unsigned)n, &opts);
    double wall = nqc_now() - t0;
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_sample: n = %u: %s\n", (unsigned)n, nq_strerror(rc));
        return 1;
    }

    printf("# n = %u, %s, SIMD %s, 1 thread: part %u of %u (%zu of %llu units), "
           "seed %llu, %.1f s in all\n",
           (unsigned)n, nq_method_name(res.method), nq_simd_name(res.simd), opts.part_k, opts.part_m, s.len,
           (unsigned long long)units, (unsigned long long)seed, wall);
    printf("unit\ttotal\tunique\tseconds\tcpu_seconds\n");
    for (size_t i = 0; i < s.len; i++)
        printf("%llu\t%llu\t%llu\t%.4f\t%.4f%s\n", (unsigned long long)s.unit[i],
               (unsigned long long)s.total[i], (unsigned long long)s.unique[i],
               s.seconds[i], s.cpu[i],
               i == 0 ? "\t(with the setup)" : "");

    double tm, tse;
    bench_mean_se(&tm, &tse, s.cpu + 1, s.len - 1);
    double u = (double)units;
    printf("# one-core CPU seconds of the whole count: %.4g (95%%: %.4g to %.4g); "
           "%.3g core-hours\n",
           u * tm, u * (tm - 1.96 * tse), u * (tm + 1.96 * tse), u * tm / 3600);
    uint64_t known = 0, known_unique = 0;
    int have_known = nq_known(&known, &known_unique, (unsigned)n) == NQ_OK;
    if (!report("total", s.total, s.len, u, res.total, have_known, known))
        return 1;
    if (res.has_unique &&
        !report("unique", s.unique, s.len, u, res.unique, have_known, known_unique))
        return 1;
    free(s.unit);
    free(s.total);
    free(s.unique);
    free(s.seconds);
    free(s.cpu);
    return 0;
}
