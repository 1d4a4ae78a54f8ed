/*
 * nq_join_keys - how many keys a row split of n lists, by the GPU's steps
 * on the host (join_steps.h: the step walk of each half), without a GPU:
 * what decides whether a split fits a GPU's memory whole or is counted
 * in sub-splits (cuda_join_host.c), and the largest part of a half (the
 * subtree under its first two rows' queens), which must fit on its own.
 *
 * usage: nq_join_keys N [SPLITS]   (SPLITS default 40)
 *   SPLITS counted splits spread over the list (the counted image of each
 *   orbit; every split when there are no more). Prints the splits looked
 *   at, the keys of a split (both halves) on average and at most, the
 *   bytes of the largest, and the keys of the largest part.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "methods/join/join_gpu.h"
#include "methods/join/join_half.h"
#include "methods/join/join_plan.h"

/* The keys of part `part` of half `half` of split s. */
static uint64_t part_keys(const nq_jg_split *s, unsigned half, unsigned part)
{
    nq_jg_frame frames[NQ_JG_MAX_H];
    nq_jg_walk w;
    uint64_t key, keys = 0;
    nq_jg_start_part(&w, s, half, frames, 1, part);
    while (w.top)
        keys += (uint64_t)nq_jg_step(&w, s, frames, 1, &key);
    return keys;
}

int main(int argc, char **argv)
{
    const char *prog = "nq_join_keys";
    nq_join_plan *plan;
    uint64_t n, want, splits, step, seen = 0, sum = 0, most = 0, most_part = 0;
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s N [SPLITS]\n", prog);
        return 2;
    }
    n = bench_arg(prog, argv[1], "board size");
    want = argc > 2 ? bench_arg(prog, argv[2], "split count") : 40;
    if (n < 4 || n > NQ_MAX_N || want == 0) {
        fprintf(stderr, "%s: N from 4 to %d, and at least one split\n", prog, NQ_MAX_N);
        return 2;
    }
    if (nq_join_plan_build_walk(&plan, (unsigned)n) != NQ_OK)
        return 1;
    splits = nq_join_plan_splits(plan);
    /* about twice the splits wanted: half of them are counted images */
    step = splits / (2 * want) ? splits / (2 * want) : 1;
    for (uint64_t i = 0; i < splits && seen < want; i += step) {
        nq_jg_split s;
        uint64_t keys = 0;
        if (nq_join_plan_gpu_split(plan, i, &s) != NQ_OK)
            return 1;
        if (!s.weight)
            continue;
        for (unsigned half = 0; half < 2; half++)
            for (unsigned part = 0; part < nq_jg_parts(&s); part++) {
                const uint64_t k = part_keys(&s, half, part);
                keys += k;
                if (k > most_part)
                    most_part = k;
            }
        sum += keys;
        if (keys > most)
            most = keys;
        seen++;
    }
    nq_join_plan_free(plan);
    printf("n = %u: %llu counted splits of %llu; keys a split %.3g on average, %.3g at most "
           "(%.3g MB); a part %.3g at most\n",
           (unsigned)n, (unsigned long long)seen, (unsigned long long)splits,
           seen ? (double)sum / (double)seen : 0.0, (double)most, (double)most * 8e-6,
           (double)most_part);
    return 0;
}
