/*
 * nq_gpu_tune - how the cut of the symmetry method's units into GPU tasks
 * pays, and which GPU walk is faster: for each size, number of levels a
 * task walks at most, and walk (device.h: step, stack), the whole unit
 * list as batches of B units, cut (sym_gpu.c) and walked on GPU 0, with
 * the host's time to cut, the GPU's time to walk, and the total checked
 * against the published one. The walks of one size and cut run one after
 * the other, on the same batches.
 *
 * usage: nq_gpu_tune N[,N...] LEVELS[,LEVELS...] [B [WALKS]]
 *        (B default: 65536; WALKS default: step,stack)
 * e.g.   nq_gpu_tune 19,20 12,13,14,15,16
 * Prints one line per (N, LEVELS, walk): tasks, cut seconds (one host
 * thread), walk seconds (the GPU), and the total, which must be the known
 * one. Exit status 1 when a total is not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "device/device.h"
#include "methods/sym/sym_gpu.h"
#include "nqc_clock.h"

/* Runs the whole list of n cut at `levels` with `walk`; prints the line.
 * @return 0 when the total is the known one. */
static int run(nq_gpu *gpu, const nq_sym_plan *plan, unsigned n, unsigned levels,
               uint64_t batch, nq_gpu_walk walk_kind)
{
    const uint64_t size = nq_sym_plan_size(plan);
    uint64_t *units = malloc(batch * sizeof *units), total = 0, tasks = 0, known = 0;
    nq_unit_result *res = malloc(batch * sizeof *res);
    double cut = 0, walk = 0;
    if (!units || !res || nq_gpu_use_walk(gpu, walk_kind) != NQ_OK)
        return 1;
    for (uint64_t first = 0; first < size; first += batch) {
        const size_t k = (size_t)(size - first < batch ? size - first : batch);
        nq_sym_gpu_batch b;
        uint64_t *counts;
        double t = nqc_now();
        for (size_t i = 0; i < k; i++)
            units[i] = first + i;
        if (nq_sym_gpu_batch_make(&b, plan, units, k, levels,
                                  nq_sym_gpu_min_tasks(k, nq_gpu_threads(gpu)), NULL) != NQ_OK)
            return 1;
        cut += nqc_now() - t;
        tasks += b.work.ntasks;
        counts = calloc(b.work.nboards + 1, sizeof *counts);
        t = nqc_now();
        if (!counts || nq_gpu_sym_walk(gpu, &b.work, counts, NULL) != NQ_OK)
            return 1;
        walk += nqc_now() - t;
        if (nq_sym_gpu_results(plan, &b, units, k, counts, nq_simd_best(), NULL, res) !=
            NQ_OK)
            return 1;
        for (size_t i = 0; i < k; i++)
            total += res[i].total;
        free(counts);
        nq_sym_gpu_batch_free(&b);
    }
    nq_known(&known, NULL, n);
    printf("n = %2u  levels %2u  walk %-5s  tasks %10llu  cut %7.3f s  walk %7.3f s  "
           "total %llu %s\n",
           n, levels, nq_gpu_walk_name(walk_kind), (unsigned long long)tasks, cut, walk,
           (unsigned long long)total,
           total == known ? "ok" : "WRONG");
    fflush(stdout);
    free(units);
    free(res);
    return total == known ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *prog = "nq_gpu_tune";
    nq_gpu *gpu;
    uint64_t batch;
    int rc, bad = 0;
    char *sizes, *save_n = NULL;
    int walks[NQ_GPU_WALKS] = {0};

    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s N[,N...] LEVELS[,LEVELS...] [B [WALKS]]\n", prog);
        return 2;
    }
    batch = argc >= 4 ? bench_arg(prog, argv[3], "batch") : 65536;
    {
        /* the walks timed: a list of step and stack */
        char *list = strdup(argc == 5 ? argv[4] : "step,stack"), *save = NULL;
        if (!list)
            return 1;
        for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
            int k = 0;
            while (k < NQ_GPU_WALKS && strcmp(w, nq_gpu_walk_name((nq_gpu_walk)k)) != 0)
                k++;
            if (k == NQ_GPU_WALKS) {
                fprintf(stderr, "%s: no walk '%s' (step, stack)\n", prog, w);
                free(list);
                return 2;
            }
            walks[k] = 1;
        }
        free(list);
    }
    if (batch == 0 || batch > NQ_SYM_GPU_BATCH_MAX) {
        fprintf(stderr, "%s: B must be 1 to %zu\n", prog, NQ_SYM_GPU_BATCH_MAX);
        return 2;
    }
    rc = nq_gpu_open(&gpu, 0, NQ_GPU_MEMORY);
    if (rc != NQ_OK) {
        fprintf(stderr, "%s: no GPU: %s\n", prog, nq_strerror(rc));
        return 1;
    }
    sizes = strdup(argv[1]);
    if (!sizes)
        return 1;
    for (char *sn = strtok_r(sizes, ",", &save_n); sn; sn = strtok_r(NULL, ",", &save_n)) {
        const unsigned n = (unsigned)bench_arg(prog, sn, "size");
        nq_sym_plan *plan;
        char *lv = strdup(argv[2]), *save = NULL;
        if (!lv || n > NQ_MAX_N || nq_sym_plan_build(&plan, n) != NQ_OK)
            return 2;
        for (char *l = strtok_r(lv, ",", &save); l; l = strtok_r(NULL, ",", &save))
            for (int k = 0; k < NQ_GPU_WALKS; k++)
                if (walks[k])
                    bad |= run(gpu, plan, n, (unsigned)bench_arg(prog, l, "levels"), batch,
                               (nq_gpu_walk)k);
        nq_sym_plan_free(plan);
        free(lv);
    }
    free(sizes);
    nq_gpu_close(gpu);
    return bad;
}
