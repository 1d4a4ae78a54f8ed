/*
 * The join's kernels on the GPU (label gpu): every row split of a board
 * counted on the GPU (device.h: nq_gpu_join_splits), split by split the
 * same count as the host's by the same steps (join_gpu.c; its buckets
 * those of one block a group, the GPU's), and the sum the known total,
 * with the pairs met a thread or a warp a job, and in several pieces in
 * the least memory a GPU opens with; a batch the kernels cannot count is
 * refused, and a raised stop flag ends the count. The method's GPU path
 * (nq_join_solve_gpu) unit by unit against the CPU's, with units of many
 * splits that span GPU calls. The GPU in memories smaller than a count's
 * is test_gpu_join_memory.c's. Run where this build has GPU support and a
 * GPU is there; otherwise the program says why on stdout and exits with
 * 77 (skipped).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "gpu_test.h"
#include "methods/join/join_gpu.h"
#include "methods/join/join_half.h"
#include "methods/join/join_plan.h"
#include "gpu_join_test.h"

/* Every counted split of n in one batch on gpu: each the host's count,
 * all of them Q(n). Returns the keys of their halves. */
static uint64_t check_board(nq_gpu *gpu, unsigned n)
{
    nq_jg_split *s;
    const size_t k = counted_splits(n, &s);
    const nq_join_batch batch = { s, k };
    uint64_t *got = calloc(k + 1, sizeof *got), total = 0, keys = 0;
    assert_non_null(got);
    assert_int_equal(nq_gpu_join_splits(gpu, &batch, got, NULL), NQ_OK);
    for (size_t i = 0; i < k; i++) {
        const uint64_t want = host_count(&s[i], &keys);
        if (got[i] != want)
            fail_msg("n = %u, split %zu of the batch: %llu on the GPU, %llu on the host", n, i,
                     (unsigned long long)got[i], (unsigned long long)want);
        total += got[i];
    }
    if (total != known[n])
        fail_msg("n = %u: %llu on the GPU, not %llu", n, (unsigned long long)total,
                 (unsigned long long)known[n]);
    free(got);
    free(s);
    return keys;
}

static void test_boards(void **state)
{
    for (unsigned n = 4; n <= JOIN_N; n++)
        check_board(*state, n);
    printf("n = 4 to %u: every split counted on the GPU as on the host\n", JOIN_N);
}

/* With the least memory a GPU is opened with, the splits of PIECES_N take
 * several pieces (their keys alone are more than it holds). */
static void test_pieces(void **state)
{
    nq_gpu *gpu = NULL;
    (void)state;
    assert_int_equal(nq_gpu_open(&gpu, 0, NQ_GPU_MEMORY_MIN), NQ_OK);
    /* the keys alone pass the memory: more than one part */
    assert_true(check_board(gpu, PIECES_N) * sizeof(uint64_t) > NQ_GPU_MEMORY_MIN);
    nq_gpu_close(gpu);
    printf("n = %u in %llu MiB: every split counted on the GPU as on the host\n", PIECES_N,
           (unsigned long long)(NQ_GPU_MEMORY_MIN >> 20));
}

/* The same with the pairs met a warp a job (nq_gpu_pairs), also in the
 * least memory a GPU opens with; a kernel that is not one is refused.
 * (The emulated driver's warps take turns lane by lane: slow, so no
 * larger board than JOIN_N.) */
static void test_warp_pairs(void **state)
{
    nq_gpu *gpu = NULL;
    assert_int_equal(nq_gpu_use_pairs(*state, NQ_GPU_PAIRS_WARP), NQ_OK);
    for (unsigned n = 4; n <= JOIN_N; n++)
        check_board(*state, n);
    assert_int_equal(nq_gpu_use_pairs(*state, NQ_GPU_PAIRS_THREAD), NQ_OK);
    assert_int_equal(nq_gpu_open(&gpu, 0, NQ_GPU_MEMORY_MIN), NQ_OK);
    assert_int_equal(nq_gpu_use_pairs(gpu, NQ_GPU_PAIRS_WARP), NQ_OK);
    check_board(gpu, JOIN_N);
    nq_gpu_close(gpu);
    assert_int_equal(nq_gpu_use_pairs(*state, NQ_GPU_PAIRS_KINDS), NQ_EINVAL);
    assert_int_equal(nq_gpu_use_pairs(NULL, NQ_GPU_PAIRS_WARP), NQ_EINVAL);
    assert_string_equal(nq_gpu_pairs_name(NQ_GPU_PAIRS_WARP), "warp");
    assert_null(nq_gpu_pairs_name(NQ_GPU_PAIRS_KINDS));
    printf("n = 4 to %u, also in %llu MiB: every split counted a warp a job as on the host\n",
           JOIN_N, (unsigned long long)(NQ_GPU_MEMORY_MIN >> 20));
}

/* A batch with a split that the kernels cannot count within their words
 * and frames is refused before anything is launched. */
static void test_unfit_batch(void **state)
{
    nq_jg_split *s;
    const size_t k = counted_splits(10, &s);
    nq_join_batch batch = { s, k };
    uint64_t *counts = calloc(k, sizeof *counts);
    nq_jg_split saved = s[3];
    assert_non_null(counts);
    assert_int_equal(nq_gpu_join_splits(*state, &batch, counts, NULL), NQ_OK);
    s[3].h = 6; /* more levels than the board's half: frames past the stack */
    assert_int_equal(nq_gpu_join_splits(*state, &batch, counts, NULL), NQ_EINVAL);
    s[3] = saved;
    s[3].len1 = 32; /* a window past the walk's 32-bit words */
    assert_int_equal(nq_gpu_join_splits(*state, &batch, counts, NULL), NQ_EINVAL);
    s[3] = saved;
    s[3].step[1][2] |= 1u << 31; /* a step word with bits past its fields */
    assert_int_equal(nq_gpu_join_splits(*state, &batch, counts, NULL), NQ_EINVAL);
    s[3] = saved;
    s[3].rows[1] = s[3].rows[0]; /* halves on the same rows */
    assert_int_equal(nq_gpu_join_splits(*state, &batch, counts, NULL), NQ_EINVAL);
    s[3] = saved;
    s[3].weight = 0; /* not a counted split */
    assert_int_equal(nq_gpu_join_splits(*state, &batch, counts, NULL), NQ_EINVAL);
    free(counts);
    free(s);
}

/* The method's units on the GPU, each the CPU's count of the same unit,
 * every unit of n = 0 to JOIN_N (one split each from n = 4; the one
 * unit of n < 4). */
static void check_units(nq_gpu *gpu, unsigned n)
{
    nq_join_plan *plan;
    uint64_t units, *list, total = 0;
    nq_unit_result *got, want;
    assert_int_equal(nq_join_plan_build(&plan, n), NQ_OK);
    units = nq_join_plan_size(plan);
    list = malloc(units * sizeof *list);
    got = malloc(units * sizeof *got);
    assert_true(list && got);
    for (uint64_t u = 0; u < units; u++)
        list[u] = units - 1 - u; /* any order */
    assert_int_equal(nq_join_solve_gpu(plan, gpu, list, units, NQ_SIMD_NONE, NULL, got), NQ_OK);
    for (uint64_t u = 0; u < units; u++) {
        assert_int_equal(nq_join_solve_unit(plan, list[u], NQ_SIMD_NONE, NULL, &want), NQ_OK);
        if (got[u].total != want.total || got[u].unique != 0)
            fail_msg("n = %u, unit %llu: %llu on the GPU, %llu on the CPU", n,
                     (unsigned long long)list[u], (unsigned long long)got[u].total,
                     (unsigned long long)want.total);
        total += got[u].total;
    }
    if (total != known[n])
        fail_msg("n = %u: %llu on the GPU, not %llu", n, (unsigned long long)total,
                 (unsigned long long)known[n]);
    free(list);
    free(got);
    nq_join_plan_free(plan);
}

/* Runs of 37 splits (as the units of n >= 24 are runs of several) sent
 * in GPU calls of 100 splits, so that runs span calls: each run's total
 * the sum of its splits' units on the CPU (one split a unit at n). */
static void check_runs(nq_gpu *gpu, unsigned n)
{
    enum { run = 37, most = 100 };
    nq_join_plan *plan;
    uint64_t splits, runs, *first, *end, *totals, sum = 0;
    assert_int_equal(nq_join_plan_build(&plan, n), NQ_OK);
    splits = nq_join_plan_splits(plan);
    assert_int_equal(nq_join_plan_size(plan), splits);
    runs = (splits + run - 1) / run;
    first = malloc(runs * sizeof *first);
    end = malloc(runs * sizeof *end);
    totals = malloc(runs * sizeof *totals);
    assert_true(first && end && totals);
    for (uint64_t r = 0; r < runs; r++) {
        first[r] = r * run;
        end[r] = first[r] + run < splits ? first[r] + run : splits;
    }
    assert_int_equal(nq_join_gpu_runs(plan, gpu, first, end, runs, most, NULL, totals), NQ_OK);
    for (uint64_t r = 0; r < runs; r++) {
        uint64_t want = 0;
        for (uint64_t u = first[r]; u < end[r]; u++) {
            nq_unit_result one;
            assert_int_equal(nq_join_solve_unit(plan, u, NQ_SIMD_NONE, NULL, &one), NQ_OK);
            want += one.total;
        }
        if (totals[r] != want)
            fail_msg("n = %u, run %llu: %llu on the GPU, %llu on the CPU", n,
                     (unsigned long long)r, (unsigned long long)totals[r],
                     (unsigned long long)want);
        sum += totals[r];
    }
    assert_int_equal(sum, known[n]);
    /* a run past the splits, or backwards, is refused */
    end[0] = splits + 1;
    assert_int_equal(nq_join_gpu_runs(plan, gpu, first, end, 1, most, NULL, totals), NQ_EINVAL);
    end[0] = 0;
    first[0] = 1;
    assert_int_equal(nq_join_gpu_runs(plan, gpu, first, end, 1, most, NULL, totals), NQ_EINVAL);
    free(first);
    free(end);
    free(totals);
    nq_join_plan_free(plan);
}

static void test_units(void **state)
{
    nq_join_plan *plan;
    uint64_t bad, zero = 0;
    nq_unit_result out;
    nq_stop_flag stop = 1;
    for (unsigned n = 0; n <= JOIN_N; n++)
        check_units(*state, n);
    check_runs(*state, JOIN_N);
    check_runs(*state, JOIN_N - 1);
    /* a unit past the list is refused; a raised flag ends the count */
    assert_int_equal(nq_join_plan_build(&plan, 10), NQ_OK);
    bad = nq_join_plan_size(plan);
    assert_int_equal(nq_join_solve_gpu(plan, *state, &bad, 1, NQ_SIMD_NONE, NULL, &out),
                     NQ_EINVAL);
    assert_int_equal(nq_join_solve_gpu(plan, *state, &zero, 1, NQ_SIMD_NONE, &stop, &out),
                     NQ_ECANCELED);
    nq_join_plan_free(plan);
    printf("n = 0 to %u: every unit counted on the GPU as on the CPU, and runs of 37 splits\n",
           JOIN_N);
}

/* A stop flag raised before the count: it ends with NQ_ECANCELED. */
static void test_stop(void **state)
{
    nq_jg_split *s;
    const size_t k = counted_splits(12, &s);
    const nq_join_batch batch = { s, k };
    uint64_t *counts = calloc(k, sizeof *counts);
    nq_stop_flag stop = 1;
    assert_non_null(counts);
    assert_int_equal(nq_gpu_join_splits(*state, &batch, counts, &stop), NQ_ECANCELED);
    free(counts);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boards),
        cmocka_unit_test(test_warp_pairs),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_unfit_batch),
        cmocka_unit_test(test_stop),
    };
    return GPU_TEST_RUN(tests, gpu_test_open, gpu_test_close);
}
