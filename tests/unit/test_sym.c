/*
 * test_sym.c - the symmetry method's unit list and kernels
 * (src/methods/sym/sym_unit.h, sym_kernel.h): what is particular to it. What every method
 * must do (counts, levels agreeing unit by unit, the stop flag) is in
 * test_method_contract.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdlib.h>

#include "platform/cpu.h"
#include "methods/sym/sym_avx2.h"
#include "methods/sym/sym_avx2_tables.h"
#include "methods/sym/sym_avx512.h"
#include "methods/sym/sym_cost.h"
#include "methods/sym/sym_kernel.h"
#include "methods/sym/sym_scalar.h"
#include "methods/sym/sym_unit.h"
#include "known_values.h"
#include "test_sizes.h"

static nq_sym_plan *build(unsigned n)
{
    nq_sym_plan *plan = NULL;
    assert_int_equal(nq_sym_plan_build(&plan, n), NQ_OK);
    assert_non_null(plan);
    assert_true(nq_sym_plan_size(plan) > 0);
    return plan;
}

static nq_unit_result solve(const nq_sym_plan *plan, uint64_t unit, nq_simd simd)
{
    atomic_int stop = 0;
    nq_unit_result r = { 0, 0 };
    assert_int_equal(nq_sym_solve_unit(plan, unit, simd, &stop, &r), NQ_OK);
    return r;
}

/* Whether this build has a kernel of `level` and this CPU and OS run it;
 * prints why a test is skipped. */
static int have_level(nq_simd level)
{
    if (!nq_sym_kernel_of(level)) {
        print_message("skipped: this build has no kernel of SIMD level %s\n",
                      nq_simd_name(level));
        return 0;
    }
    if (!nq_cpu_runs(nq_cpu_simd_best(), level)) {
        print_message("skipped: this CPU or OS does not support SIMD level %s\n",
                      nq_simd_name(level));
        return 0;
    }
    return 1;
}

/* The first and middle units of a few boards too big to count here, at
 * `level` against the scalar walk (every unit of the smaller boards is
 * checked by test_method_contract.c): boards from NQ_SYM_SPLIT_N on split
 * their units further, and only these reach that code. */
static void check_units(nq_simd level)
{
    static const unsigned big[] = { 15, 20, 21 };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        nq_sym_plan *plan = build(big[i]);
        uint64_t size = nq_sym_plan_size(plan);
        for (uint64_t u = 0; u < size; u += size / 2) {
            nq_unit_result a = solve(plan, u, NQ_SIMD_NONE);
            nq_unit_result b = solve(plan, u, level);
            assert_int_equal(a.total, b.total);
            assert_int_equal(a.unique, b.unique);
        }
        nq_sym_plan_free(plan);
    }
}

static void test_avx512_matches_scalar(void **state)
{
    (void)state;
    if (!have_level(NQ_SIMD_AVX512))
        skip();
    check_units(NQ_SIMD_AVX512);
}

static void test_avx2_matches_scalar(void **state)
{
    (void)state;
    if (!have_level(NQ_SIMD_AVX2))
        skip();
    check_units(NQ_SIMD_AVX2);
}

/* A board with every square allowed and rows one apart: the kernels then
 * walk the plain n-queens problem over all n rows. */
static nq_sym_board open_board(unsigned n)
{
    nq_sym_board bd;
    bd.levels = n;
    for (unsigned i = 0; i < n; i++) {
        bd.allowed[i] = (1u << n) - 1u;
        bd.shift[i] = i + 1 < n ? 1u : 0u;
    }
    return bd;
}

/* The kernel contract directly: whole boards from every start level, and a
 * raised stop flag seen by the kernel's own polling. */
static void check_kernel(nq_simd level)
{
    nq_sym_kernel_fn kernel = nq_sym_kernel_of(level);
    nq_stop_flag stop = 0;
    assert_non_null(kernel);
    for (unsigned n = 4; n <= 12; n++) {
        nq_sym_board bd = open_board(n);
        nq_sym_node top = { 0, 0, 0, 0 };
        uint64_t count = 7;
        assert_int_equal(kernel(&bd, &top, &stop, &count), NQ_OK);
        assert_int_equal(count, test_known[n].total + 7);
        /* the same, started one level down from each first-row queen */
        count = 0;
        for (unsigned c = 0; c < n; c++) {
            nq_sym_node one = { 1, 1u << c, 2u << c, (1u << c) >> 1 };
            assert_int_equal(kernel(&bd, &one, &stop, &count), NQ_OK);
        }
        assert_int_equal(count, test_known[n].total);
    }
    nq_sym_board bd = open_board(14);
    nq_sym_node top = { 0, 0, 0, 0 };
    uint64_t count = 0;
    atomic_store(&stop, 1);
    assert_int_equal(kernel(&bd, &top, &stop, &count), NQ_ECANCELED);
}

static void test_kernel_scalar(void **state)
{
    (void)state;
    check_kernel(NQ_SIMD_NONE);
}

static void test_kernel_avx2(void **state)
{
    (void)state;
    if (!have_level(NQ_SIMD_AVX2))
        skip();
    check_kernel(NQ_SIMD_AVX2);
}

static void test_kernel_avx512(void **state)
{
    (void)state;
    if (!have_level(NQ_SIMD_AVX512))
        skip();
    check_kernel(NQ_SIMD_AVX512);
}

/* Beyond the method contract (test_method_contract.c): what the plan's
 * own functions refuse. */
static void test_bad_arguments(void **state)
{
    (void)state;
    nq_sym_plan *plan = NULL;
    assert_int_equal(nq_sym_plan_build(&plan, NQ_MAX_N + 1), NQ_ERANGE);
    assert_null(plan);

    plan = build(8);
    nq_unit_result r;
    assert_int_equal(nq_sym_solve_unit(plan, 0, NQ_SIMD_AUTO, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_sym_solve_unit(plan, 0, NQ_SIMD_NONE, NULL, NULL), NQ_EINVAL);
    /* No stop flag at all is allowed. */
    assert_int_equal(nq_sym_solve_unit(plan, 0, NQ_SIMD_NONE, NULL, &r), NQ_OK);
    nq_sym_plan_free(plan);
    nq_sym_plan_free(NULL);
    assert_int_equal(nq_sym_plan_size(NULL), 0);
}

/* The kernel table has a row for every level whose code this build has:
 * the scalar walk everywhere, AVX2 and AVX-512 on x86; nothing for AUTO
 * or for a value that is not a level. */
static void test_kernel_table(void **state)
{
    (void)state;
    assert_ptr_equal(nq_sym_kernel_of(NQ_SIMD_NONE), nq_sym_count_scalar);
#if NQ_X86
    assert_ptr_equal(nq_sym_kernel_of(NQ_SIMD_AVX2), nq_sym_count_avx2);
    assert_ptr_equal(nq_sym_kernel_of(NQ_SIMD_AVX512), nq_sym_count_avx512);
#else
    assert_null(nq_sym_kernel_of(NQ_SIMD_AVX2));
    assert_null(nq_sym_kernel_of(NQ_SIMD_AVX512));
#endif
    assert_null(nq_sym_kernel_of(NQ_SIMD_AUTO));
    assert_null(nq_sym_kernel_of((nq_simd)9));
}

/* A naive recursive walk of a board: the completions of node `at`. */
static uint64_t naive_walk(const nq_sym_board *bd, unsigned d, uint32_t cols,
                           uint32_t ld, uint32_t rd)
{
    uint32_t f = bd->allowed[d] & ~(cols | ld | rd);
    if (d + 1 == bd->levels)
        return (uint64_t)__builtin_popcount(f);
    uint64_t sum = 0;
    for (; f; f &= f - 1) {
        uint32_t bit = f & (0u - f);
        sum += naive_walk(bd, d + 1, cols | bit, (ld | bit) << bd->shift[d],
                          (rd | bit) >> bd->shift[d]);
    }
    return sum;
}

/* Every unit's walk (its board from nq_sym_unit_walk, grouped bottom rows
 * included) counted by each kernel this CPU runs and by the naive walk
 * above, and the unit's result a symmetry weight (1, 2, 4 or 8) times that
 * count: n = 6..NQ_TEST_CROSS_N, then the first and a middle unit of n =
 * 20 and the start nodes of 28 (groups split by two levels). */
static void test_unit_walks_match_naive(void **state)
{
    (void)state;
    static const unsigned big[] = { 20, 28 };
    const unsigned last = NQ_TEST_CROSS_N;
    for (unsigned n = 6; n <= last + 2; n++) {
        unsigned size_n = n <= last ? n : big[n - last - 1];
        nq_sym_plan *plan = build(size_n);
        uint64_t size = nq_sym_plan_size(plan);
        uint64_t step = size_n > last ? size / 2 : 1;
        for (uint64_t u = 0; u < size; u += step) {
            nq_sym_board bd;
            nq_sym_node start;
            assert_int_equal(nq_sym_unit_walk(plan, u, &bd, &start), NQ_OK);
            assert_true(start.level < bd.levels);
            if (size_n == 28) {
                /* too long to walk here: the start node only */
                assert_true(start.level <= 2);
                continue;
            }
            uint64_t want = naive_walk(&bd, start.level, start.cols, start.ld, start.rd);
            for (int l = NQ_SIMD_NONE; l <= (int)nq_cpu_simd_best(); l++) {
                nq_sym_kernel_fn kernel = nq_sym_kernel_of((nq_simd)l);
                uint64_t got = 0;
                if (!kernel)
                    continue;
                assert_int_equal(kernel(&bd, &start, NULL, &got), NQ_OK);
                assert_int_equal(got, want);
            }
            nq_unit_result r = solve(plan, u, NQ_SIMD_NONE);
            assert_true(r.total == want || r.total == 2 * want ||
                        r.total == 4 * want || r.total == 8 * want);
            assert_true(start.level <= 2);
        }
        nq_sym_board bd;
        nq_sym_node start;
        assert_int_equal(nq_sym_unit_walk(plan, size, &bd, &start), NQ_EINVAL);
        nq_sym_plan_free(plan);
    }
    nq_sym_plan *small = build(5);
    nq_sym_board bd;
    nq_sym_node start;
    assert_int_equal(nq_sym_unit_walk(small, 0, &bd, &start), NQ_EINVAL);
    nq_sym_plan_free(small);
}

/* The cost model's node estimate (sym_cost.c): exact where every level of
 * a walk fits in the probes, and without bias where it does not (seeded,
 * so the same every run; the spread of a random-walk estimate at n = 16
 * with 256 walks a unit is a few percent over a hundred units). */
static void test_unit_nodes(void **state)
{
    nq_sym_plan *plan;
    uint64_t seed = 11, exact = 0, size;
    double est = 0.0, sum_est = 0.0, sum_exact = 0.0;
    (void)state;
    assert_int_equal(nq_sym_plan_build(&plan, 10), NQ_OK);
    for (uint64_t u = 0; u < nq_sym_plan_size(plan); u++) {
        assert_int_equal(nq_sym_unit_nodes(plan, u, 8192, &seed, &est, &exact), NQ_OK);
        assert_true(est == (double)exact);
    }
    assert_int_equal(nq_sym_unit_nodes(plan, 0, 0, &seed, &est, NULL), NQ_EINVAL);
    assert_int_equal(nq_sym_unit_nodes(plan, 0, 8193, &seed, &est, NULL), NQ_EINVAL);
    assert_int_equal(nq_sym_unit_nodes(plan, nq_sym_plan_size(plan), 64, &seed, &est, NULL),
                     NQ_EINVAL);
    nq_sym_plan_free(plan);

    assert_int_equal(nq_sym_plan_build(&plan, 16), NQ_OK);
    size = nq_sym_plan_size(plan);
    for (uint64_t u = 0; u < size; u += 4) {
        assert_int_equal(nq_sym_unit_nodes(plan, u, 256, &seed, &est, &exact), NQ_OK);
        assert_true(est > 0.0 || exact == 0);
        sum_est += est;
        sum_exact += (double)exact;
    }
    assert_true(sum_est > 0.97 * sum_exact && sum_est < 1.03 * sum_exact);
    nq_sym_plan_free(plan);
}

/* The list sizes are part of NQ_SYM_UNIT_LIST_VERSION: a change here must
 * come with a new version number. */
static void test_list_sizes(void **state)
{
    (void)state;
    static const struct { unsigned n; uint64_t units; } sizes[] = {
        { 0, 1 }, { 5, 1 }, { 8, 46 }, { 16, 524 }, { 17, 629 },
        { 20, 125666 }, { 27, 849057 }, { 28, 1062722 }
    };
    assert_int_equal(NQ_SYM_UNIT_LIST_VERSION, 3);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        nq_sym_plan *plan = build(sizes[i].n);
        assert_int_equal(nq_sym_plan_size(plan), sizes[i].units);
        nq_sym_plan_free(plan);
    }
}

/* The AVX2 kernel's permutation tables, entry by entry, against their
 * definitions (sym_avx2_tables.h). */
static void test_avx2_tables(void **state)
{
    (void)state;
    for (unsigned m = 0; m < 256; m++) {
        unsigned k = 0, rank = 0;
        for (unsigned i = 0; i < 8; i++)
            if (m >> i & 1u)
                assert_int_equal(nq_avx2_pack[m][k++], i);
        for (unsigned i = 0; i < 8; i++)
            if (!(m >> i & 1u))
                assert_int_equal(nq_avx2_pack[m][k++], i);
        for (unsigned i = 0; i < 8; i++)
            assert_int_equal(nq_avx2_spread[m][i], (m >> i & 1u) ? rank++ : 0u);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_avx2_matches_scalar),
        cmocka_unit_test(test_avx512_matches_scalar),
        cmocka_unit_test(test_kernel_scalar),
        cmocka_unit_test(test_kernel_avx2),
        cmocka_unit_test(test_kernel_avx512),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_kernel_table),
        cmocka_unit_test(test_unit_walks_match_naive),
        cmocka_unit_test(test_unit_nodes),
        cmocka_unit_test(test_list_sizes),
        cmocka_unit_test(test_avx2_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
