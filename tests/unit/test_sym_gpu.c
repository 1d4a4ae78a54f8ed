/*
 * The symmetry method's GPU path, run on the host: the walk and the cut of
 * sym_steps.h (the very text the CUDA kernel compiles), and the batches of
 * sym_gpu.c, checked unit by unit against the method's own kernels. No
 * GPU is needed: tests/gpu/test_gpu.c runs the same batches on one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "methods/sym/sym_gpu.h"
#include "methods/sym/sym_scalar.h"
#include "methods/sym/sym_unit.h"
#include "test_sizes.h"

/* The words of board bd, as a batch holds them. */
static void pack(uint32_t *w, const nq_sym_board *bd)
{
    memset(w, 0, NQ_SYMW_BOARD_WORDS * sizeof *w);
    w[0] = bd->levels;
    for (unsigned d = 0; d < bd->levels; d++)
        w[1 + d] = nq_symw_row(bd->allowed[d], bd->shift[d]);
}

/* The board (packed into w) and start of the first walk unit of n. */
/* Unit u of the plan, when it is a walk unit: its board (packed into w),
 * start and stabiliser order. @return 1 for a walk unit, else 0. */
static int walk_unit(const nq_sym_plan *plan, uint64_t u, nq_sym_board *bd,
                     nq_sym_node *st, uint32_t *w, unsigned *order)
{
    nq_sym_kind kind;
    assert_int_equal(nq_sym_unit_kind(plan, u, &kind, bd, st, order), NQ_OK);
    if (kind != NQ_SYM_KIND_WALK)
        return 0;
    pack(w, bd);
    return 1;
}

static void first_walk(unsigned n, nq_sym_board *bd, nq_sym_node *st, uint32_t *w)
{
    nq_sym_plan *plan;
    unsigned order;
    uint64_t u = 0;
    assert_int_equal(nq_sym_plan_build(&plan, n), NQ_OK);
    while (!walk_unit(plan, u, bd, st, w, &order))
        u++;
    nq_sym_plan_free(plan);
}

/* Every walk unit of n: the walk from its start (with stacks of stride 1
 * and 5, as a block's shared memory lays them out) finds what the scalar
 * kernel finds, and so do the walks of its cut at every level. */
static void test_walk_matches_kernel(void **state)
{
    (void)state;
    for (unsigned n = 6; n <= NQ_TEST_CROSS_N; n++) {
        nq_sym_plan *plan;
        uint64_t walks = 0;
        assert_int_equal(nq_sym_plan_build(&plan, n), NQ_OK);
        for (uint64_t u = 0; u < nq_sym_plan_size(plan); u++) {
            nq_sym_board bd;
            nq_sym_node st;
            unsigned order = 0;
            uint32_t w[NQ_SYMW_BOARD_WORDS];
            unsigned char stack[5 * NQ_SYMW_MAX_LEVELS];
            nq_symw_frame frames[5 * NQ_SYMW_STEP_FRAMES];
            uint64_t want = 0, got = 0, got5 = 0, stepped = 0, stepped5 = 0;
            if (!walk_unit(plan, u, &bd, &st, w, &order))
                continue;
            assert_true(order == 1 || order == 2);
            walks++;
            assert_int_equal(nq_sym_count_scalar(&bd, &st, NULL, &want), NQ_OK);
            assert_int_equal(nq_symw_walk(w + 1, bd.levels, st.level, st.cols, st.ld,
                                          st.rd, stack, 1, NULL, &got), 0);
            assert_int_equal(got, want);
            memset(stack, 0xff, sizeof stack);
            assert_int_equal(nq_symw_walk(w + 1, bd.levels, st.level, st.cols, st.ld,
                                          st.rd, stack + 2, 5, NULL, &got5), 0);
            assert_int_equal(got5, want);
            /* the step walk, whole and with frames interleaved as a
             * block's shared memory holds them */
            assert_true(bd.levels - st.level <= NQ_SYMW_STEP_LEVELS);
            assert_int_equal(nq_symw_step_walk(w + 1, bd.levels, st.level, st.cols, st.ld,
                                               st.rd, frames, 1, NULL, &stepped),
                             0);
            assert_int_equal(stepped, want);
            memset(frames, 0xff, sizeof frames);
            assert_int_equal(nq_symw_step_walk(w + 1, bd.levels, st.level, st.cols, st.ld,
                                               st.rd, frames + 3, 5, NULL, &stepped5),
                             0);
            assert_int_equal(stepped5, want);
            for (unsigned cut = st.level; cut < bd.levels; cut++) {
                uint64_t k = nq_symw_expand(w + 1, 7, st.level, cut, st.cols, st.ld,
                                            st.rd, NULL, 0);
                nq_symw_task *t = malloc((k ? k : 1) * sizeof *t);
                uint64_t sum = 0;
                assert_non_null(t);
                assert_int_equal(nq_symw_expand(w + 1, 7, st.level, cut, st.cols, st.ld,
                                                st.rd, t, k), k);
                uint64_t step_sum = 0;
                for (uint64_t i = 0; i < k; i++) {
                    uint64_t c = 0, cs = 0;
                    assert_int_equal(t[i].board_level >> 8, 7);
                    assert_int_equal(t[i].board_level & 0xffu, cut);
                    assert_int_equal(nq_symw_walk(w + 1, bd.levels, cut, t[i].cols,
                                                  t[i].ld, t[i].rd, stack, 1, NULL, &c),
                                     0);
                    assert_int_equal(nq_symw_step_walk(w + 1, bd.levels, cut, t[i].cols,
                                                       t[i].ld, t[i].rd, frames, 1, NULL,
                                                       &cs),
                                     0);
                    assert_int_equal(cs, c); /* task by task */
                    sum += c;
                    step_sum += cs;
                }
                assert_int_equal(sum, want);
                assert_int_equal(step_sum, want);
                free(t);
            }
        }
        assert_true(walks > 0);
        nq_sym_plan_free(plan);
    }
}

/* A cut into fewer places than it has writes only those, and says how
 * many there are. */
static void test_expand_cap(void **state)
{
    nq_sym_board bd;
    nq_sym_node st;
    uint32_t w[NQ_SYMW_BOARD_WORDS];
    nq_symw_task t[4];
    uint64_t k;
    (void)state;
    first_walk(12, &bd, &st, w);
    k = nq_symw_expand(w + 1, 0, st.level, st.level + 2, st.cols, st.ld, st.rd, NULL, 0);
    assert_true(k > 4);
    memset(t, 0xab, sizeof t);
    assert_int_equal(nq_symw_expand(w + 1, 0, st.level, st.level + 2, st.cols, st.ld,
                                    st.rd, t, 3), k);
    assert_int_equal(t[3].cols, 0xabababab); /* untouched past the cap */
    /* a cut at the start level is the start itself */
    assert_int_equal(nq_symw_expand(w + 1, 3, st.level, st.level, st.cols, st.ld, st.rd,
                                    t, 4), 1);
    assert_int_equal(t[0].cols, st.cols);
    assert_int_equal(t[0].board_level, 3u << 8 | st.level);
}

/* A raised stop flag ends a walk, either walk, with 1. */
static void test_walk_stops(void **state)
{
    nq_sym_board bd;
    nq_sym_node st;
    uint32_t w[NQ_SYMW_BOARD_WORDS];
    unsigned char stack[NQ_SYMW_MAX_LEVELS];
    nq_symw_frame frames[NQ_SYMW_STEP_FRAMES];
    volatile int stop = 1;
    uint64_t c = 0, cs = 0;
    (void)state;
    /* the first walk unit of n = 16 takes far more than the poll's steps */
    first_walk(16, &bd, &st, w);
    assert_int_equal(nq_symw_walk(w + 1, bd.levels, st.level, st.cols, st.ld, st.rd,
                                  stack, 1, &stop, &c), 1);
    assert_int_equal(nq_symw_step_walk(w + 1, bd.levels, st.level, st.cols, st.ld, st.rd,
                                       frames, 1, &stop, &cs),
                     1);
    /* and a lowered one lets it finish */
    stop = 0;
    assert_int_equal(nq_symw_walk(w + 1, bd.levels, st.level, st.cols, st.ld, st.rd,
                                  stack, 1, &stop, &c), 0);
    assert_int_equal(nq_symw_step_walk(w + 1, bd.levels, st.level, st.cols, st.ld, st.rd,
                                       frames, 1, &stop, &cs),
                     0);
    assert_true(c > 0);
    assert_int_equal(cs, c);
}

/* The step walk, one step at a time: each step is one node (a child
 * made), the stack grows by a push and shrinks by a pop and never holds
 * more than NQ_SYMW_STEP_FRAMES frames (levels - level - 1 here), and the
 * steps of a walk are as many as the nodes that nq_symw_expand lists
 * below its start. */
static void test_step_nodes(void **state)
{
    nq_sym_plan *plan;
    (void)state;
    assert_int_equal(nq_sym_plan_build(&plan, 12), NQ_OK);
    for (uint64_t u = 0; u < nq_sym_plan_size(plan); u++) {
        nq_sym_board bd;
        nq_sym_node st;
        unsigned order = 0;
        uint32_t w[NQ_SYMW_BOARD_WORDS];
        nq_symw_frame frames[NQ_SYMW_STEP_FRAMES];
        nq_symw_cursor c;
        uint64_t steps = 0, nodes = 0, want = 0, pushes = 0, pops = 0;
        unsigned deepest = 0;
        if (!walk_unit(plan, u, &bd, &st, w, &order))
            continue;
        assert_int_equal(nq_sym_count_scalar(&bd, &st, NULL, &want), NQ_OK);
        nq_symw_start(&c, w + 1, bd.levels, st.level, st.cols, st.ld, st.rd, frames, 1);
        assert_true(c.top <= 1);
        pushes = c.top;
        while (c.top) {
            const unsigned top = c.top, did = nq_symw_step(&c, w + 1, frames, 1);
            steps++;
            pushes += (did & NQ_SYMW_PUSH) != 0;
            pops += (did & NQ_SYMW_POP) != 0;
            assert_int_equal(did & ~(NQ_SYMW_POP | NQ_SYMW_PUSH), 0);
            assert_int_equal(c.top, top - ((did & NQ_SYMW_POP) != 0) +
                                        ((did & NQ_SYMW_PUSH) != 0));
            deepest = c.top > deepest ? c.top : deepest;
        }
        assert_int_equal(pushes, pops);
        assert_int_equal(c.count, want);
        assert_true(deepest <= bd.levels - st.level - 1);
        /* the nodes of every level below the start */
        for (unsigned l = st.level + 1; l < bd.levels; l++)
            nodes += nq_symw_expand(w + 1, 0, st.level, l, st.cols, st.ld, st.rd, NULL, 0);
        assert_int_equal(steps, nodes);
    }
    nq_sym_plan_free(plan);
}

/* Every unit of n, in batches of several sizes and cut depths, run by the
 * host's copy of the GPU walk: each unit's result is the method's own,
 * and the sums are the known totals. */
static void check_batches(unsigned n, size_t batch, unsigned levels, uint64_t min_tasks)
{
    static const uint64_t totals[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680,
                                      14200, 73712, 365596, 2279184, 14772512};
    static const uint64_t uniques[] = {1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341,
                                       1787, 9233, 45752, 285053, 1846955};
    nq_sym_plan *plan;
    uint64_t size, total = 0, unique = 0;
    assert_int_equal(nq_sym_plan_build(&plan, n), NQ_OK);
    size = nq_sym_plan_size(plan);
    for (uint64_t first = 0; first < size; first += batch) {
        const size_t k = (size_t)(size - first < batch ? size - first : batch);
        uint64_t *units = malloc(k * sizeof *units), *counts;
        nq_unit_result *res = malloc(k * sizeof *res);
        nq_sym_gpu_batch b;
        assert_non_null(units);
        assert_non_null(res);
        for (size_t i = 0; i < k; i++)
            units[i] = first + i;
        assert_int_equal(nq_sym_gpu_batch_make(&b, plan, units, k, levels, min_tasks, NULL),
                         NQ_OK);
        assert_true(b.task_levels >= NQ_SYM_GPU_TASK_LEVELS_MIN);
        assert_true(b.task_levels <= levels);
        /* cut no deeper than it takes to reach min_tasks */
        assert_true(b.work.ntasks >= min_tasks ||
                    b.task_levels == NQ_SYM_GPU_TASK_LEVELS_MIN);
        counts = calloc(b.work.nboards + 1, sizeof *counts);
        assert_non_null(counts);
        nq_sym_gpu_host_walk(&b.work, counts);
        assert_int_equal(nq_sym_gpu_results(plan, &b, units, k, counts, NQ_SIMD_NONE,
                                            NULL, res),
                         NQ_OK);
        for (size_t i = 0; i < k; i++) {
            nq_unit_result want;
            assert_int_equal(nq_sym_solve_unit(plan, units[i], NQ_SIMD_NONE, NULL, &want),
                             NQ_OK);
            assert_int_equal(res[i].total, want.total);
            assert_int_equal(res[i].unique, want.unique);
            total += res[i].total;
            unique += res[i].unique;
        }
        nq_sym_gpu_batch_free(&b);
        free(counts);
        free(units);
        free(res);
    }
    assert_int_equal(total, totals[n]);
    assert_int_equal(unique, uniques[n]);
    nq_sym_plan_free(plan);
}

static void test_batches(void **state)
{
    (void)state;
    for (unsigned n = 0; n <= NQ_TEST_CROSS_N; n++) {
        check_batches(n, 1, NQ_SYMW_STEP_LEVELS, 0); /* uncut: a task a unit */
        check_batches(n, 7, NQ_SYM_GPU_TASK_LEVELS, 1000);
        check_batches(n, 100000, 8, UINT64_MAX); /* cut as deep as allowed */
        /* the count's own target, for a GPU of a quarter million threads */
        check_batches(n, 5, NQ_SYM_GPU_TASK_LEVELS, nq_sym_gpu_min_tasks(5, 1u << 18));
    }
}

/* A batch wants NQ_SYM_GPU_TASKS_PER_THREAD tasks a GPU thread, but no
 * more than NQ_SYM_GPU_TASKS_PER_UNIT a unit: a small batch on a large GPU
 * is not cut into thousands of tiny tasks a unit. */
static void test_min_tasks(void **state)
{
    nq_sym_plan *plan;
    nq_sym_gpu_batch b;
    uint64_t units[256];
    (void)state;
    assert_int_equal(nq_sym_gpu_min_tasks(1024, 270336), 1024 * NQ_SYM_GPU_TASKS_PER_UNIT);
    assert_int_equal(nq_sym_gpu_min_tasks((size_t)1 << 20, 270336),
                     270336 * NQ_SYM_GPU_TASKS_PER_THREAD);
    /* a batch of a few units still gets the floor, a small GPU less */
    assert_int_equal(nq_sym_gpu_min_tasks(0, 270336), NQ_SYM_GPU_TASKS_FLOOR);
    assert_int_equal(nq_sym_gpu_min_tasks(3, UINT64_MAX), NQ_SYM_GPU_TASKS_FLOOR);
    assert_int_equal(nq_sym_gpu_min_tasks(7, 1), NQ_SYM_GPU_TASKS_PER_THREAD);
    assert_int_equal(nq_sym_gpu_min_tasks(1000, 512), 512 * NQ_SYM_GPU_TASKS_PER_THREAD);
    /* n = 16 on a GPU of a quarter million threads: 256 units cut to the
     * first level that gives them 64 tasks each, not to the deepest */
    assert_int_equal(nq_sym_plan_build(&plan, 16), NQ_OK);
    for (unsigned i = 0; i < 256; i++)
        units[i] = 100 + i;
    assert_int_equal(nq_sym_gpu_batch_make(&b, plan, units, 256, NQ_SYM_GPU_TASK_LEVELS,
                                           nq_sym_gpu_min_tasks(256, 1u << 18), NULL),
                     NQ_OK);
    assert_true(b.work.ntasks >= 256 * NQ_SYM_GPU_TASKS_PER_UNIT);
    assert_true(b.task_levels > NQ_SYM_GPU_TASK_LEVELS_MIN);
    {
        /* a cut one level shallower falls short of the target: this is
         * the shallowest cut that reaches it */
        nq_sym_gpu_batch shallower;
        assert_int_equal(nq_sym_gpu_batch_make(&shallower, plan, units, 256, b.task_levels + 1,
                                               0, NULL),
                         NQ_OK);
        assert_true(b.task_levels == NQ_SYM_GPU_TASK_LEVELS ||
                    shallower.work.ntasks < 256 * NQ_SYM_GPU_TASKS_PER_UNIT);
        nq_sym_gpu_batch_free(&shallower);
    }
    {
        /* the batch says how deep its tasks walk, which a GPU sizes their
         * frames by: it is refused when a task walks deeper */
        const unsigned levels = b.work.levels;
        unsigned deepest = 0;
        assert_int_equal(levels, b.task_levels);
        for (uint64_t i = 0; i < b.work.ntasks; i++) {
            const unsigned level = b.tasks[i].board_level & 0xffu;
            const uint32_t board = b.tasks[i].board_level >> 8;
            const unsigned left = b.boards[(size_t)board * NQ_SYMW_BOARD_WORDS] - level;
            deepest = left > deepest ? left : deepest;
        }
        assert_int_equal(deepest, levels);
        assert_true(nq_symw_batch_fits(&b.work));
        b.work.levels = levels - 1;
        assert_false(nq_symw_batch_fits(&b.work));
        b.work.levels = 0;
        assert_false(nq_symw_batch_fits(&b.work));
        b.work.levels = NQ_SYMW_STEP_LEVELS + 1;
        assert_false(nq_symw_batch_fits(&b.work));
        b.work.levels = levels;
    }
    nq_sym_gpu_batch_free(&b);
    {
        /* a raised stop flag ends the making of a batch */
        nq_stop_flag stop;
        atomic_init(&stop, 1);
        assert_int_equal(nq_sym_gpu_batch_make(&b, plan, units, 256, NQ_SYM_GPU_TASK_LEVELS,
                                               0, &stop),
                         NQ_ECANCELED);
    }
    nq_sym_plan_free(plan);
}

static void test_batch_arguments(void **state)
{
    nq_sym_plan *plan;
    nq_sym_gpu_batch b;
    uint64_t unit = 0;
    (void)state;
    assert_int_equal(nq_sym_plan_build(&plan, 10), NQ_OK);
    const unsigned lv = NQ_SYM_GPU_TASK_LEVELS;
    assert_int_equal(nq_sym_gpu_batch_make(NULL, plan, &unit, 1, lv, 0, NULL), NQ_EINVAL);
    assert_int_equal(nq_sym_gpu_batch_make(&b, NULL, &unit, 1, lv, 0, NULL), NQ_EINVAL);
    assert_int_equal(nq_sym_gpu_batch_make(&b, plan, NULL, 1, lv, 0, NULL), NQ_EINVAL);
    assert_int_equal(
        nq_sym_gpu_batch_make(&b, plan, &unit, NQ_SYM_GPU_BATCH_MAX + 1, lv, 0, NULL),
        NQ_EINVAL);
    assert_int_equal(nq_sym_gpu_batch_make(&b, plan, &unit, 1,
                                           NQ_SYM_GPU_TASK_LEVELS_MIN - 1, 0, NULL),
                     NQ_EINVAL);
    unit = nq_sym_plan_size(plan); /* past the end */
    assert_int_equal(nq_sym_gpu_batch_make(&b, plan, &unit, 1, lv, 0, NULL), NQ_EINVAL);
    /* an empty batch is fine, and holds nothing */
    assert_int_equal(nq_sym_gpu_batch_make(&b, plan, NULL, 0, lv, 0, NULL), NQ_OK);
    assert_int_equal(b.work.nboards, 0);
    assert_int_equal(b.work.ntasks, 0);
    nq_sym_gpu_batch_free(&b);
    nq_sym_gpu_batch_free(NULL);
    nq_sym_plan_free(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_matches_kernel),
        cmocka_unit_test(test_expand_cap),
        cmocka_unit_test(test_walk_stops),
        cmocka_unit_test(test_step_nodes),
        cmocka_unit_test(test_batches),
        cmocka_unit_test(test_min_tasks),
        cmocka_unit_test(test_batch_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
