/*
 * test_join_sample.c - a unit of the join counted on a sample of its
 * blocks (nq_join_sample_unit(), for the samplers of benches): one block
 * in `step` from each phase, over all the phases, adds up to `step`
 * times the exact count, unit by unit; step 1 is the exact count; a
 * sample's matching time is measured; bad arguments are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "methods/join/join_plan.h"
#include "test_join.h"

/* Every phase of a step: their estimates average to the exact count of
 * the unit, at each level this CPU runs (in turn); on even and odd boards, with
 * the table and walking, with buckets (cuts 2) so that the sieve's match
 * meets blocks, and with the default cuts (weighted splits, counted
 * whole). */
static void test_phases_add_up(void **state)
{
    static const unsigned sizes[] = { 16, 17 };
    static const int cuts[] = { 2, -1 };
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int walk = 0; walk < 2; walk++)
            for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
                nq_join_plan *plan = build(sizes[i], walk);
                const uint64_t units = nq_join_plan_size(plan);
                nq_simd level[3];
                const unsigned nlevels = levels(level);
                assert_int_equal(nq_join_plan_set_cuts(plan, cuts[c]), NQ_OK);
                /* a smaller batch: several east batches meet the west ones */
                assert_int_equal(nq_join_plan_set_batch(plan, 1500), NQ_OK);
                for (uint64_t u = 0, k = 0; u < units; u += units / 7 + 1, k++) {
                    const nq_simd simd = level[k % nlevels]; /* each level in turn */
                    nq_unit_result exact, r;
                    uint64_t sum = 0;
                    double seconds = -1.0;
                    const unsigned step = 3;
                    assert_int_equal(nq_join_solve_unit(plan, u, simd, NULL, &exact), NQ_OK);
                    assert_int_equal(nq_join_sample_unit(plan, u, simd, 1, 0, NULL, &r,
                                                         &seconds), NQ_OK);
                    assert_int_equal(r.total, exact.total);
                    assert_true(seconds >= 0.0);
                    for (unsigned phase = 0; phase < step; phase++) {
                        assert_int_equal(nq_join_sample_unit(plan, u, simd, step, phase, NULL,
                                                             &r, &seconds), NQ_OK);
                        assert_true(seconds >= 0.0);
                        sum += r.total;
                    }
                    assert_int_equal(sum, (uint64_t)step * exact.total);
                    /* the unit's scratch counts every block again after */
                    assert_int_equal(nq_join_solve_unit(plan, u, simd, NULL, &r), NQ_OK);
                    assert_int_equal(r.total, exact.total);
                }
                nq_join_plan_free(plan);
            }
}

/* A sample leaves blocks out: some phase of some unit of n = 18 (lists
 * of thousands of keys) differs from the exact count, so that the test
 * above would see a sample that took every block. */
static void test_sample_leaves_out(void **state)
{
    nq_join_plan *plan = build(18, 0);
    const uint64_t units = nq_join_plan_size(plan);
    int differs = 0;
    (void)state;
    assert_int_equal(nq_join_plan_set_cuts(plan, 2), NQ_OK);
    for (uint64_t u = units / 3; u < units && !differs; u += units / 5) {
        nq_unit_result exact, r;
        double seconds;
        assert_int_equal(nq_join_solve_unit(plan, u, nq_cpu_simd_best(), NULL, &exact),
                         NQ_OK);
        assert_int_equal(nq_join_sample_unit(plan, u, nq_cpu_simd_best(), 4, 1, NULL, &r,
                                             &seconds), NQ_OK);
        differs = r.total != exact.total;
    }
    assert_true(differs);
    nq_join_plan_free(plan);
}

static void test_bad_arguments(void **state)
{
    nq_join_plan *plan = build(12, 0);
    nq_unit_result r;
    double seconds;
    (void)state;
    assert_int_equal(nq_join_sample_unit(plan, 0, nq_cpu_simd_best(), 0, 0, NULL, &r,
                                         &seconds), NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, 0, nq_cpu_simd_best(), 2, 2, NULL, &r,
                                         &seconds), NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, 0, nq_cpu_simd_best(), 2, 0, NULL, &r, NULL),
                     NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, nq_join_plan_size(plan), nq_cpu_simd_best(),
                                         2, 0, NULL, &r, &seconds), NQ_EINVAL);
    nq_join_plan_free(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases_add_up),
        cmocka_unit_test(test_sample_leaves_out),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
