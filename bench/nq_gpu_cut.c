/*
 * nq_gpu_cut - the host's share of a GPU count, without a GPU: how long
 * the host takes to cut batches of the symmetry method's units into GPU
 * tasks (sym_gpu.c), for a GPU that runs THREADS threads at once, at the
 * batch sizes a count goes through (64 units, then four times more each
 * time, as engine_run.c grows them). Each batch is cut twice: with the
 * task target of nq_sym_gpu_min_tasks() (capped a unit), and with the
 * uncapped one (NQ_SYM_GPU_TASKS_PER_THREAD a thread), side by side.
 *
 * usage: nq_gpu_cut N [THREADS [ROUNDS]]
 *   THREADS default 270336: an H100's 132 multiprocessors, 16 blocks of
 *   128 threads each (the kernel's occupancy when registers allow it)
 * e.g.   taskset -c 1 nq_gpu_cut 20
 * Prints one line a batch size: the cut's levels, tasks and host
 * milliseconds (median of ROUNDS, default 3), each way, and for the
 * count's cut the milliseconds of the check before a launch
 * (nq_symw_batch_fits).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "bench_median.h"
#include "methods/sym/sym_gpu.h"
#include "nqc_clock.h"

/* Cuts units[0 .. k-1] ROUNDS times; @return the median seconds, with the
 * cut's levels and tasks and the median seconds of the check before a
 * launch (nq_symw_batch_fits), or a negative number on failure. */
static double cut(const nq_sym_plan *plan, const uint64_t *units, size_t k,
                  uint64_t min_tasks, unsigned rounds, unsigned *levels, uint64_t *tasks,
                  double *check)
{
    double t[16], c[16];
    for (unsigned r = 0; r < rounds; r++) {
        nq_sym_gpu_batch b;
        const double t0 = nqc_now();
        double t1;
        if (nq_sym_gpu_batch_make(&b, plan, units, k, NQ_SYM_GPU_TASK_LEVELS, min_tasks,
                                  NULL) != NQ_OK)
            return -1.0;
        t1 = nqc_now();
        t[r] = t1 - t0;
        if (!nq_symw_batch_fits(&b.work))
            return -1.0;
        c[r] = nqc_now() - t1;
        *levels = b.task_levels;
        *tasks = b.work.ntasks;
        nq_sym_gpu_batch_free(&b);
    }
    *check = bench_median(c, rounds);
    return bench_median(t, rounds);
}

int main(int argc, char **argv)
{
    unsigned n, rounds = 3;
    uint64_t threads = 270336, size, *units;
    nq_sym_plan *plan;

    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: nq_gpu_cut N [THREADS [ROUNDS]]\n");
        return 2;
    }
    n = (unsigned)bench_arg("nq_gpu_cut", argv[1], "N");
    if (argc > 2)
        threads = bench_arg("nq_gpu_cut", argv[2], "THREADS");
    if (argc > 3)
        rounds = (unsigned)bench_arg("nq_gpu_cut", argv[3], "ROUNDS");
    if (n < 6 || n > NQ_MAX_N || threads == 0 || threads > UINT64_MAX / 64 || rounds == 0 ||
        rounds > 15) {
        fprintf(stderr, "nq_gpu_cut: N from 6 to %u, THREADS from 1, ROUNDS 1 to 15\n",
                NQ_MAX_N);
        return 2;
    }
    if (nq_sym_plan_build(&plan, n) != NQ_OK)
        return 1;
    size = nq_sym_plan_size(plan);
    units = malloc((size ? size : 1) * sizeof *units);
    if (!units)
        return 1;
    for (uint64_t i = 0; i < size; i++)
        units[i] = i;
    printf("n = %u: %llu units, a GPU of %llu threads; host ms to cut a batch "
           "(median of %u), from unit %llu\n",
           n, (unsigned long long)size, (unsigned long long)threads, rounds,
           (unsigned long long)(size / 3));
    printf("%9s | %6s %10s %9s %9s | %6s %10s %9s\n", "units", "levels", "tasks", "ms",
           "check ms", "levels", "tasks", "ms");
    printf("%9s | %38s | %28s\n", "", "capped a unit (the count's)", "uncapped");
    for (uint64_t b = 64; b <= size - size / 3; b *= 4) {
        const uint64_t *first = units + size / 3;
        unsigned l1 = 0, l2 = 0;
        uint64_t k1 = 0, k2 = 0;
        double check = 0, unused;
        const double capped = cut(plan, first, (size_t)b,
                                  nq_sym_gpu_min_tasks((size_t)b, threads), rounds, &l1, &k1,
                                  &check);
        const double uncapped = cut(plan, first, (size_t)b,
                                    threads * NQ_SYM_GPU_TASKS_PER_THREAD, rounds, &l2, &k2,
                                    &unused);
        if (capped < 0 || uncapped < 0)
            return 1;
        printf("%9llu | %6u %10llu %9.2f %9.2f | %6u %10llu %9.2f\n", (unsigned long long)b,
               l1, (unsigned long long)k1, capped * 1e3, check * 1e3, l2,
               (unsigned long long)k2, uncapped * 1e3);
    }
    free(units);
    nq_sym_plan_free(plan);
    return 0;
}
