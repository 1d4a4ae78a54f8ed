/*
 * The GPU's two walks of the symmetry method's tasks (label gpu): every
 * unit of a board, cut into batches as a count cuts them, walked on the
 * GPU by each kernel (device.h: nq_gpu_walk), board by board the same
 * counts as the host's walk of the same batch. Run where this build has
 * GPU support and a GPU is there; otherwise the program says why on stdout
 * and exits with 77 (skipped).
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
#include "methods/sym/sym_gpu.h"

/* the board walked: smaller on the GPU emulated on the host */
#ifdef NQ_TEST_EMULATED_GPU
#define WALKS_N 12u
#else
#define WALKS_N 16u
#endif

/* Every unit of n in batches of `batch` units cut at `levels` (deeper
 * where a batch has under min_tasks tasks): each walk on the GPU counts
 * each board as the host does. */
static void check_walks(nq_gpu *gpu, unsigned n, size_t batch, unsigned levels,
                        uint64_t min_tasks)
{
    nq_sym_plan *plan;
    uint64_t size, boards = 0;
    assert_int_equal(nq_sym_plan_build(&plan, n), NQ_OK);
    size = nq_sym_plan_size(plan);
    for (uint64_t first = 0; first < size; first += batch) {
        const size_t k = (size_t)(size - first < batch ? size - first : batch);
        uint64_t *units = malloc(k * sizeof *units), *want;
        nq_sym_gpu_batch b;
        assert_non_null(units);
        for (size_t i = 0; i < k; i++)
            units[i] = first + i;
        assert_int_equal(nq_sym_gpu_batch_make(&b, plan, units, k, levels, min_tasks, NULL),
                         NQ_OK);
        want = calloc(b.work.nboards + 1, sizeof *want);
        assert_non_null(want);
        nq_sym_gpu_host_walk(&b.work, want);
        for (int w = 0; w < NQ_GPU_WALKS; w++) {
            uint64_t *got = calloc(b.work.nboards + 1, sizeof *got);
            assert_non_null(got);
            assert_int_equal(nq_gpu_use_walk(gpu, (nq_gpu_walk)w), NQ_OK);
            assert_int_equal(nq_gpu_sym_walk(gpu, &b.work, got, NULL), NQ_OK);
            for (size_t i = 0; i < b.work.nboards; i++) {
                if (got[i] != want[i])
                    fail_msg("n = %u, walk %s, board %zu of the batch at unit %llu: %llu, "
                             "not %llu",
                             n, nq_gpu_walk_name((nq_gpu_walk)w), i, (unsigned long long)first,
                             (unsigned long long)got[i], (unsigned long long)want[i]);
            }
            free(got);
        }
        boards += b.work.nboards;
        nq_sym_gpu_batch_free(&b);
        free(want);
        free(units);
    }
    assert_true(boards > 0);
    printf("n = %u, batches of %zu units, tasks of at most %u levels: both walks count "
           "every board as the host does\n",
           n, batch, levels);
    nq_sym_plan_free(plan);
}

static void test_walks(void **state)
{
    nq_gpu *gpu = *state;
    /* as a count cuts them */
    check_walks(gpu, WALKS_N, 4096, NQ_SYM_GPU_TASK_LEVELS,
                nq_sym_gpu_min_tasks(4096, nq_gpu_threads(gpu)));
    /* tasks as long as the step walk takes, and cut as deep as allowed */
    check_walks(gpu, WALKS_N, 64, NQ_SYMW_STEP_LEVELS, 0);
    check_walks(gpu, WALKS_N, 1024, NQ_SYM_GPU_TASK_LEVELS_MIN, UINT64_MAX);
    assert_int_equal(nq_gpu_use_walk(gpu, NQ_GPU_WALK_STEP), NQ_OK);
}

/* A batch with a task that the kernels cannot walk within their memory
 * is refused before anything is launched: a board past the batch's, or
 * more levels to walk than the step walk has frames for. */
static void test_unfit_batch(void **state)
{
    nq_gpu *gpu = *state;
    nq_sym_plan *plan;
    nq_sym_gpu_batch b;
    uint64_t units[8], counts[9] = {0};
    nq_symw_task saved;
    uint32_t *levels;
    assert_int_equal(nq_sym_plan_build(&plan, WALKS_N), NQ_OK);
    for (unsigned i = 0; i < 8; i++)
        units[i] = 40 + i;
    assert_int_equal(nq_sym_gpu_batch_make(&b, plan, units, 8, NQ_SYM_GPU_TASK_LEVELS, 0,
                                           NULL),
                     NQ_OK);
    assert_true(b.work.ntasks > 0 && b.work.nboards > 0 && b.work.nboards <= 8);
    assert_int_equal(nq_gpu_sym_walk(gpu, &b.work, counts, NULL), NQ_OK);
    /* a task of a board the batch does not have */
    saved = b.tasks[0];
    b.tasks[0].board_level = (uint32_t)b.work.nboards << 8 | (saved.board_level & 0xffu);
    assert_int_equal(nq_gpu_sym_walk(gpu, &b.work, counts, NULL), NQ_EINVAL);
    b.tasks[0] = saved;
    /* a task with more levels below it than the step walk's frames hold */
    levels = &b.boards[(size_t)(saved.board_level >> 8) * NQ_SYMW_BOARD_WORDS];
    *levels = (saved.board_level & 0xffu) + NQ_SYMW_STEP_LEVELS + 1;
    assert_int_equal(nq_gpu_sym_walk(gpu, &b.work, counts, NULL), NQ_EINVAL);
    nq_sym_gpu_batch_free(&b);
    nq_sym_plan_free(plan);
}

static void test_use_walk_arguments(void **state)
{
    nq_gpu *gpu = *state;
    assert_int_equal(nq_gpu_use_walk(gpu, NQ_GPU_WALKS), NQ_EINVAL);
    assert_int_equal(nq_gpu_use_walk(gpu, (nq_gpu_walk)-1), NQ_EINVAL);
    assert_int_equal(nq_gpu_use_walk(NULL, NQ_GPU_WALK_STEP), NQ_EINVAL);
    assert_string_equal(nq_gpu_walk_name(NQ_GPU_WALK_STEP), "step");
    assert_string_equal(nq_gpu_walk_name(NQ_GPU_WALK_STACK), "stack");
    assert_null(nq_gpu_walk_name(NQ_GPU_WALKS));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walks),
        cmocka_unit_test(test_unfit_batch),
        cmocka_unit_test(test_use_walk_arguments),
    };
    return GPU_TEST_RUN(tests, gpu_test_open, gpu_test_close);
}
