/*
 * nq_sym_model: the symmetry method's cost model (sym_cost.c) at any n,
 * beside the one-core CPU time of the whole count where it is counted
 * here, for checking the model where the count is affordable (the
 * command's --estimate uses the model only from n = 22 on).
 *
 * Printed, one line per n: the model's CPU seconds and its interval, the
 * units it walked and priced, its own CPU time; with COUNT_UP_TO >= n, the
 * count's CPU seconds (one thread, the level asked) and model / count.
 *
 * usage: nq_sym_model A-B [SIMD [BUDGET [COUNT_UP_TO [SEED]]]]
 *        SIMD: auto, none, avx2, avx512 (default auto); BUDGET seconds
 *        (default 2); COUNT_UP_TO: count in full up to this n (default 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_arg.h"
#include "nqc_clock.h"
#include "nqueens.h"
#include "methods/sym/sym_cost.h"
#include "methods/sym/sym_unit.h"
#include "platform/cpu.h"

static double process_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    unsigned lo = 0, hi = 0;
    nq_simd simd = NQ_SIMD_AUTO;
    double budget = 2.0;
    uint64_t count_to = 0, seed = 0x6e7165737469u;
    if (argc < 2 || argc > 6 || sscanf(argv[1], "%u-%u", &lo, &hi) != 2 || lo < 6 ||
        hi > NQ_MAX_N || lo > hi) {
        fputs("usage: nq_sym_model A-B [SIMD [BUDGET [COUNT_UP_TO [SEED]]]]  (6 <= A <= B)\n",
              stderr);
        return 2;
    }
    if (argc > 2)
        simd = bench_simd("nq_sym_model", argv[2]);
    if (argc > 3)
        budget = (double)bench_arg("nq_sym_model", argv[3], "BUDGET");
    if (argc > 4)
        count_to = bench_arg("nq_sym_model", argv[4], "COUNT_UP_TO");
    if (argc > 5)
        seed = bench_arg("nq_sym_model", argv[5], "SEED");
    if (simd == NQ_SIMD_AUTO)
        simd = nq_cpu_simd_best();
    printf("# symmetry method, SIMD %s, budget %.0f s, seed %llu\n", nq_simd_name(simd),
           budget, (unsigned long long)seed);
    printf("n\tmodel_s\tlow\thigh\tunits\tsampled\tpriced\tmodel_cpu_s\tcount_s\tmodel/count\n");
    for (unsigned n = lo; n <= hi; n++) {
        nq_sym_plan *plan;
        nq_cost_model m;
        int rc = nq_sym_plan_build(&plan, n);
        double t = process_cpu();
        if (rc == NQ_OK)
            rc = nq_sym_cost(plan, simd, budget, seed + n, NULL, &m);
        t = process_cpu() - t;
        if (rc != NQ_OK) {
            fprintf(stderr, "nq_sym_model: n = %u: %s\n", n, nq_strerror(rc));
            return 1;
        }
        printf("%u\t%.4g\t%.4g\t%.4g\t%llu\t%llu\t%llu\t%.2f", n, m.cpu_seconds, m.low,
               m.high, (unsigned long long)nq_sym_plan_size(plan),
               (unsigned long long)m.sampled, (unsigned long long)m.timed, t);
        nq_sym_plan_free(plan);
        if (n <= count_to) {
            nq_count_options o = NQ_COUNT_OPTIONS_INIT;
            nq_count_result r = NQ_COUNT_RESULT_INIT;
            uint64_t known = 0, known_unique = 0;
            o.threads = 1;
            o.method = NQ_METHOD_SYMMETRY;
            o.simd = simd;
            t = process_cpu();
            rc = nq_count(&r, n, &o);
            t = process_cpu() - t;
            if (rc != NQ_OK || nq_known(&known, &known_unique, n) != NQ_OK ||
                r.total != known) {
                fprintf(stderr, "nq_sym_model: n = %u: the count failed or is wrong\n", n);
                return 1;
            }
            printf("\t%.4g\t%.3f", t, m.cpu_seconds / t);
        }
        putchar('\n');
        fflush(stdout);
    }
    return 0;
}
