/*
 * test_method.c - what the method table (src/method.h) does beyond its
 * rows: the name and row of NQ_METHOD_DEFAULT and of unknown methods, the
 * default's choice, and the SIMD level a count runs at, which follows from
 * the CPU and the kernels. What every row must do is checked row by row in
 * test_method_contract.c; the CPU check itself in test_cpu.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "platform/cpu.h"
#include "methods/join/join_method.h"
#include "methods/methods.h"
#include "methods/sym/sym_kernel.h"

/* NQ_METHOD_DEFAULT has a name and stands for a row; unknown methods
 * have neither. */
static void test_default_and_unknown(void **state)
{
    (void)state;
    assert_ptr_equal(nq_method_ops_of(NQ_METHOD_DEFAULT),
                     nq_method_ops_of(NQ_METHOD_JOIN));
    assert_string_equal(nq_method_name(NQ_METHOD_DEFAULT), "default");
    assert_null(nq_method_ops_of((nq_method)77));
    assert_null(nq_method_name((nq_method)77));
    assert_int_equal(nq_unit_list_version((nq_method)77), 0);
}

/* The default is chosen by n and by whether unique counts are wanted, the
 * same at every SIMD level: the join for totals from n = 16, the symmetry
 * method else; the public nq_method_default() says the same at every
 * level. A method without unique counts refuses to give them. */
static void test_default_pick(void **state)
{
    static const nq_simd levels[] = { NQ_SIMD_NONE, NQ_SIMD_AVX2, NQ_SIMD_AVX512 };
    const nq_method_ops *ops = NULL;
    (void)state;
    for (unsigned n = 0; n <= NQ_MAX_N; n++) {
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            const nq_simd lv = levels[l];
            const nq_method want = n < 16 ? NQ_METHOD_SYMMETRY : NQ_METHOD_JOIN;
            assert_int_equal(nq_method_pick(&ops, NQ_METHOD_DEFAULT, n, 1), NQ_OK);
            assert_int_equal(ops->id, NQ_METHOD_SYMMETRY);
            assert_int_equal(nq_method_default(n, 1, lv), NQ_METHOD_SYMMETRY);
            assert_int_equal(nq_method_pick(&ops, NQ_METHOD_DEFAULT, n, 0), NQ_OK);
            assert_int_equal(ops->id, want);
            assert_int_equal(nq_method_default(n, 0, lv), want);
            assert_int_equal(nq_method_pick(&ops, NQ_METHOD_PLAIN, n, 0), NQ_OK);
            assert_int_equal(ops->id, NQ_METHOD_PLAIN);
        }
        /* AUTO is the widest level of this CPU */
        assert_int_equal(nq_method_default(n, 0, NQ_SIMD_AUTO),
                         nq_method_default(n, 0, nq_simd_best()));
    }
    assert_int_equal(nq_method_default(18, 0, (nq_simd)99), NQ_METHOD_DEFAULT);
    ops = NULL;
    assert_int_equal(nq_method_pick(&ops, NQ_METHOD_JOIN, 16, 1), NQ_EMETHOD);
    assert_int_equal(nq_method_pick(&ops, NQ_METHOD_PLAIN, 16, 1), NQ_EMETHOD);
    assert_int_equal(nq_method_pick(&ops, (nq_method)77, 16, 0), NQ_EINVAL);
    assert_null(ops);
}

static void test_simd_levels(void **state)
{
    const nq_method_ops *plain = nq_method_ops_of(NQ_METHOD_PLAIN);
    const nq_method_ops *sym = nq_method_ops_of(NQ_METHOD_SYMMETRY);
    nq_simd best = nq_simd_best(), got = NQ_SIMD_AUTO, sym_best;
    (void)state;

    /* the best level is one the CPU runs and a kernel exists for */
    assert_true(nq_cpu_runs(nq_cpu_simd_best(), best));
    assert_true(nq_sym_kernel_of(best) != NULL || nq_join_method.has_simd(best));

    assert_int_equal(nq_method_simd(&got, sym, NQ_SIMD_AUTO), NQ_OK);
    sym_best = best; /* the widest level the method has */
    while (sym_best > NQ_SIMD_NONE && !nq_sym_kernel_of(sym_best))
        sym_best = (nq_simd)(sym_best - 1);
    assert_int_equal(got, sym_best);
    assert_int_equal(nq_method_simd(&got, sym, NQ_SIMD_NONE), NQ_OK);
    assert_int_equal(got, NQ_SIMD_NONE);
    /* a scalar-only method runs scalar whatever is asked */
    assert_int_equal(nq_method_simd(&got, plain, best), NQ_OK);
    assert_int_equal(got, NQ_SIMD_NONE);
    for (int s = NQ_SIMD_AVX2; s <= NQ_SIMD_AVX512; s++) {
        int rc = nq_method_simd(&got, sym, (nq_simd)s);
        if (s <= (int)best && nq_sym_kernel_of((nq_simd)s)) {
            assert_int_equal(rc, NQ_OK);
            assert_int_equal(got, s);
        } else {
            assert_int_equal(rc, NQ_EUNSUPPORTED);
        }
    }
    /* the public check says what a count would: AUTO and NONE always, a
     * wider level up to the best, nothing that is not a level */
    assert_true(nq_simd_supported(NQ_SIMD_AUTO));
    assert_true(nq_simd_supported(NQ_SIMD_NONE));
    assert_false(nq_simd_supported((nq_simd)9));
    assert_false(nq_simd_supported((nq_simd)-1));
    for (int s = NQ_SIMD_AVX2; s <= NQ_SIMD_AVX512; s++) {
        assert_int_equal(nq_simd_supported((nq_simd)s) != 0, s <= (int)best);
        assert_int_equal(nq_method_simd(&got, plain, (nq_simd)s),
                         s <= (int)best ? NQ_OK : NQ_EUNSUPPORTED);
    }
    assert_int_equal(nq_method_simd(&got, sym, (nq_simd)9), NQ_EINVAL);
    assert_int_equal(nq_method_simd(NULL, sym, NQ_SIMD_AUTO), NQ_EINVAL);
    print_message("CPU runs up to %s; this build's best is %s\n",
                  nq_simd_name(nq_cpu_simd_best()), nq_simd_name(best));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_and_unknown),
        cmocka_unit_test(test_default_pick),
        cmocka_unit_test(test_simd_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
