/* The longer counts, n = 17 and 18: run with `ctest -C Long -L long`. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "known_values.h"
#include "nqueens.h"

/* Counts n with the options `o` (NULL: the defaults), checks the total
 * against the known one and returns the result for the other checks. */
static nq_count_result count_known(unsigned n, const nq_count_options *o)
{
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    assert_int_equal(nq_count(&r, n, o), NQ_OK);
    assert_int_equal(r.total, test_known[n].total);
    return r;
}

static void test_symmetry_17_18(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    (void)state;
    o.unique = 1; /* the default method then is the symmetry method */
    for (unsigned n = 17; n <= 18; n++) {
        const nq_count_result r = count_known(n, &o);
        assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
        assert_int_equal(r.unique, test_known[n].unique);
    }
}

/* The default for totals, at n = 17 and 18, with no options at all (so
 * at this CPU's widest level): the join at both. */
static void test_default_17_18(void **state)
{
    (void)state;
    for (unsigned n = 17; n <= 18; n++)
        assert_int_equal(count_known(n, NULL).method, NQ_METHOD_JOIN);
}

/* The join at n = 17 at every SIMD level this CPU runs: lists long
 * enough to be sorted into buckets, with each level's kernels. */
static void test_join_levels_17(void **state)
{
    static const nq_simd levels[] = { NQ_SIMD_NONE, NQ_SIMD_AVX2, NQ_SIMD_AVX512 };
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    (void)state;
    o.method = NQ_METHOD_JOIN;
    for (unsigned l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        if (levels[l] > nq_simd_best()) {
            print_message("level %s: not on this CPU, skipped\n", nq_simd_name(levels[l]));
            continue;
        }
        o.simd = levels[l];
        assert_int_equal(count_known(17, &o).simd, levels[l]);
    }
}

static void test_plain_17(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    (void)state;
    o.method = NQ_METHOD_PLAIN;
    count_known(17, &o);
}

static void test_scalar_17(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    (void)state;
    o.simd = NQ_SIMD_NONE;
    o.method = NQ_METHOD_SYMMETRY;
    assert_int_equal(count_known(17, &o).unique, test_known[17].unique);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symmetry_17_18),
        cmocka_unit_test(test_default_17_18),
        cmocka_unit_test(test_join_levels_17),
        cmocka_unit_test(test_plain_17),
        cmocka_unit_test(test_scalar_17),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
