/*
 * gpu_join_test.h - what the join's GPU test programs (test_gpu_join.c,
 * test_gpu_join_memory.c) share: the largest boards they count, the known
 * totals, a board's counted splits, and the host's count of a split by
 * the GPU's steps. Include after cmocka.h and the join's headers.
 */
#ifndef NQ_GPU_JOIN_TEST_H
#define NQ_GPU_JOIN_TEST_H

#include <stdint.h>
#include <stdlib.h>

#include "methods/join/join_gpu.h"
#include "methods/join/join_half.h"
#include "methods/join/join_plan.h"

/* the largest boards counted: smaller on the GPU emulated on the host */
#ifdef NQ_TEST_EMULATED_GPU
#define JOIN_N 13u
#define PIECES_N 15u
#else
#define JOIN_N 16u
#define PIECES_N 16u
#endif

/* Q(n), OEIS A000170, n = 0 .. 17. */
static const uint64_t known[] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                  73712, 365596, 2279184, 14772512, 95815104 };

/* The splits of n that are counted (weight > 0), into *out; returns how
 * many. */
static inline size_t counted_splits(unsigned n, nq_jg_split **out)
{
    nq_join_plan *plan;
    nq_jg_split *s;
    size_t k = 0;
    uint64_t splits;
    assert_int_equal(nq_join_plan_build_walk(&plan, n), NQ_OK);
    splits = nq_join_plan_splits(plan);
    s = malloc(splits * sizeof *s);
    assert_non_null(s);
    for (uint64_t i = 0; i < splits; i++) {
        assert_int_equal(nq_join_plan_gpu_split(plan, i, &s[k]), NQ_OK);
        k += s[k].weight != 0;
    }
    nq_join_plan_free(plan);
    *out = s;
    return k;
}

/* The host's count of split s by the GPU's steps; adds its keys to *keys. */
static inline uint64_t host_count(const nq_jg_split *s, uint64_t *keys)
{
    nq_join_keys east = { 0 }, west = { 0 };
    nq_jg_tally tally = { 0, 0, 0 };
    uint64_t steps = 0, count;
    assert_int_equal(nq_join_gpu_list(s, 0, &east, &steps), NQ_OK);
    assert_int_equal(nq_join_gpu_list(s, 1, &west, &steps), NQ_OK);
    assert_int_equal(nq_join_gpu_pairs(s, &east, &west, 1, 0, &tally, &count), NQ_OK);
    *keys += east.count + west.count;
    free(east.keys);
    free(west.keys);
    return count;
}

#endif
