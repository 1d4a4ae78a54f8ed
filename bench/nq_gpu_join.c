/*
 * nq_gpu_join - the join's kernels timed on a GPU: every counted row split
 * of n (join_steps.h) in batches of B splits counted on GPU 0
 * (nq_gpu_join_splits), the host's time to describe the splits, the GPU's
 * time to count them (the listings, the host's bookkeeping between the
 * kernels, and the pairs, bucket by bucket), and the total checked
 * against the published one. `nqueens --device=gpu --method=join` counts
 * with the same kernels, its units' splits in calls of 65,536.
 *
 * usage: nq_gpu_join N[,N...] [B [PAIRS]]   (B default: 4096; PAIRS:
 *        thread, warp or thread,warp, the default: the pairs kernels,
 *        nq_gpu_pairs, each timed on every N)
 * Prints one line per N and pairs kernel: splits, describe seconds (one
 * host thread), GPU seconds, the kernel, and the total. Exit status 1 when a total
 * is not the known one, 77 when there is no GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "device/device.h"
#include "methods/join/join_gpu.h"
#include "methods/join/join_plan.h"
#include "nqc_clock.h"

/* Counts every split of n on gpu in batches of `batch`; prints the line.
 * @return 0 when the total is the known one. */
static int run(nq_gpu *gpu, unsigned n, uint64_t batch, nq_gpu_pairs pairs)
{
    nq_join_plan *plan;
    nq_jg_split *s = malloc(batch * sizeof *s);
    uint64_t *counts = malloc(batch * sizeof *counts), splits, total = 0, counted = 0,
             known = 0;
    double describe = 0, count = 0;
    if (!s || !counts || nq_join_plan_build_walk(&plan, n) != NQ_OK ||
        nq_gpu_use_pairs(gpu, pairs) != NQ_OK)
        return 1;
    splits = nq_join_plan_splits(plan);
    for (uint64_t next = 0; next < splits;) {
        size_t k = 0;
        double t = nqc_now();
        int rc;
        for (; next < splits && k < batch; next++) {
            if (nq_join_plan_gpu_split(plan, next, &s[k]) != NQ_OK)
                return 1;
            k += s[k].weight != 0;
        }
        describe += nqc_now() - t;
        memset(counts, 0, k * sizeof *counts);
        const nq_join_batch b = { s, k };
        t = nqc_now();
        rc = nq_gpu_join_splits(gpu, &b, counts, NULL);
        count += nqc_now() - t;
        if (rc != NQ_OK) {
            fprintf(stderr, "nq_gpu_join: n = %u: %s\n", n, nq_strerror(rc));
            return 1;
        }
        for (size_t i = 0; i < k; i++)
            total += counts[i];
        counted += k;
    }
    nq_known(&known, NULL, n);
    printf("%u\t%llu\t%.3f\t%.3f\t%s\t%llu\t%s\n", n, (unsigned long long)counted, describe,
           count, nq_gpu_pairs_name(pairs), (unsigned long long)total,
           total == known ? "ok" : "WRONG");
    fflush(stdout);
    nq_join_plan_free(plan);
    free(s);
    free(counts);
    return total == known ? 0 : 1;
}

int main(int argc, char **argv)
{
    nq_gpu *gpu;
    uint64_t batch = 4096;
    unsigned count = 0, kinds = 1u << NQ_GPU_PAIRS_THREAD | 1u << NQ_GPU_PAIRS_WARP;
    int rc, bad = 0;
    if (argc < 2 || argc > 4) {
        fputs("usage: nq_gpu_join N[,N...] [B [thread|warp|thread,warp]]\n", stderr);
        return 2;
    }
    if (argc > 2)
        batch = bench_arg("nq_gpu_join", argv[2], "B");
    if (argc > 3) {
        kinds = strcmp(argv[3], "thread") == 0 ? 1u << NQ_GPU_PAIRS_THREAD
                : strcmp(argv[3], "warp") == 0 ? 1u << NQ_GPU_PAIRS_WARP
                : strcmp(argv[3], "thread,warp") == 0 ? kinds
                                                      : 0u;
        if (!kinds) {
            fputs("nq_gpu_join: PAIRS is thread, warp or thread,warp\n", stderr);
            return 2;
        }
    }
    if (batch == 0) {
        fputs("nq_gpu_join: B is at least 1\n", stderr);
        return 2;
    }
    rc = nq_gpu_count(&count);
    if (rc != NQ_OK || count == 0) {
        printf("nq_gpu_join: no GPU (%s)\n", nq_strerror(rc));
        return 77;
    }
    rc = nq_gpu_open(&gpu, 0, NQ_GPU_MEMORY);
    if (rc != NQ_OK) {
        fprintf(stderr, "nq_gpu_join: %s\n", nq_strerror(rc));
        return 1;
    }
    printf("n\tsplits\tdescribe_s\tgpu_s\tpairs\ttotal\tcheck\n");
    for (char *list = argv[1]; *list;) {
        char *end;
        const unsigned long n = strtoul(list, &end, 10);
        if (end == list || n < 4 || n > 27 || (*end && *end != ',')) {
            fputs("nq_gpu_join: N from 4 to 27, separated by commas\n", stderr);
            nq_gpu_close(gpu);
            return 2;
        }
        for (unsigned k = 0; k < NQ_GPU_PAIRS_KINDS; k++)
            if (kinds >> k & 1u)
                bad |= run(gpu, (unsigned)n, batch, (nq_gpu_pairs)k);
        list = *end ? end + 1 : end;
    }
    nq_gpu_close(gpu);
    return bad;
}
