/*
 * test_options.c - the API around a count: option structs (their
 * initialiser, init functions and versions), bad arguments, status codes
 * and their sentences, the version numbers, and the nq_cancel flag.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

/* nq_count_options_init() gives what NQ_COUNT_OPTIONS_INIT gives, field
 * by field, and refuses what it must; likewise for the list options. */
static void test_options_init(void **state)
{
    const nq_count_options want = NQ_COUNT_OPTIONS_INIT;
    const nq_list_options lwant = NQ_LIST_OPTIONS_INIT;
    nq_count_options o;
    nq_list_options l;
    (void)state;
    memset(&o, 0xa5, sizeof o);
    assert_int_equal(nq_count_options_init(&o, NQ_COUNT_OPTIONS_VERSION), NQ_OK);
    assert_int_equal(o.version, NQ_COUNT_OPTIONS_VERSION);
    assert_int_equal(o.threads, want.threads);
    assert_int_equal(o.method, NQ_METHOD_DEFAULT);
    assert_int_equal(o.unique, 0);
    assert_int_equal(o.simd, NQ_SIMD_AUTO);
    assert_int_equal(o.max_memory, 0);
    assert_int_equal(o.part_k, 0);
    assert_int_equal(o.part_m, 0);
    assert_int_equal(o.unit_first, 0);
    assert_int_equal(o.unit_count, 0);
    assert_null(o.stop);
    assert_null(o.progress);
    assert_null(o.progress_data);
    assert_null(o.on_unit);
    assert_null(o.unit_data);
    assert_null(o.checkpoint);
    assert_true(o.checkpoint_interval == want.checkpoint_interval);
    assert_true(o.checkpoint_interval == 10.0);
    memset(&o, 0xa5, sizeof o);
    assert_int_equal(nq_count_options_init(&o, 0), NQ_EVERSION);
    assert_int_equal(nq_count_options_init(&o, NQ_COUNT_OPTIONS_VERSION + 1), NQ_EVERSION);
    assert_int_equal(o.threads, 0xa5a5a5a5u); /* untouched */
    assert_int_equal(nq_count_options_init(NULL, NQ_COUNT_OPTIONS_VERSION), NQ_EINVAL);

    memset(&l, 0xa5, sizeof l);
    assert_int_equal(nq_list_options_init(&l, NQ_LIST_OPTIONS_VERSION), NQ_OK);
    assert_int_equal(l.version, lwant.version);
    assert_int_equal(l.canonical, 0);
    assert_int_equal(l.limit, 0);
    assert_null(l.stop);
    assert_int_equal(nq_list_options_init(&l, NQ_LIST_OPTIONS_VERSION + 1), NQ_EVERSION);
    assert_int_equal(nq_list_options_init(NULL, NQ_LIST_OPTIONS_VERSION), NQ_EINVAL);
}

/* nq_cancel: raised before or during a count, it stops it. */
static void test_cancel_flag(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_cancel *flag = NULL;
    (void)state;
    assert_int_equal(nq_cancel_new(NULL), NQ_EINVAL);
    assert_int_equal(nq_cancel_new(&flag), NQ_OK);
    assert_false(nq_cancel_raised(flag));
    assert_false(nq_cancel_raised(NULL));
    nq_cancel_raise(flag);
    assert_true(nq_cancel_raised(flag));
    o.stop = flag;
    for (int m = NQ_METHOD_PLAIN; m <= NQ_METHOD_JOIN; m++) {
        o.method = (nq_method)m;
        assert_int_equal(nq_count(&r, 12, &o), NQ_ECANCELED);
    }
    nq_cancel_clear(flag);
    assert_false(nq_cancel_raised(flag));
    assert_int_equal(nq_count(&r, 12, &o), NQ_OK);
    assert_int_equal(r.total, 14200u);
    nq_cancel_free(flag);
    nq_cancel_free(NULL);
}

/* Every options version from NQ_COUNT_OPTIONS_VERSION_MIN to the current
 * one is accepted; 0, the layouts before the first release (1 and 2) and
 * newer ones are refused rather than misread. */
static void test_options_versions(void **state)
{
    static const struct { unsigned version; int rc; } cases[] = {
        { 0, NQ_EVERSION },
        { 1, NQ_EVERSION },
        { 2, NQ_EVERSION },
        { NQ_COUNT_OPTIONS_VERSION_MIN, NQ_OK },
        { NQ_COUNT_OPTIONS_VERSION, NQ_OK },
        { NQ_COUNT_OPTIONS_VERSION + 1, NQ_EVERSION },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nq_count_options o = NQ_COUNT_OPTIONS_INIT;
        nq_count_result r = NQ_COUNT_RESULT_INIT;
        o.version = cases[i].version;
        o.threads = 1;
        assert_int_equal(nq_count(&r, 8, &o), cases[i].rc);
        assert_int_equal(r.total, cases[i].rc == NQ_OK ? 92u : 0u);
    }
}

static void test_bad_arguments(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_count(NULL, 8, NULL), NQ_EINVAL);

    o.version = 999;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EVERSION);
    o.version = NQ_COUNT_OPTIONS_VERSION;

    o.method = (nq_method)7;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EINVAL);
    o.method = NQ_METHOD_DEFAULT;

    o.simd = (nq_simd)9;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EINVAL);
    o.simd = NQ_SIMD_AUTO;

    o.part_k = 3;
    o.part_m = 2;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EINVAL);
    o.part_k = 1;
    o.part_m = 0;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EINVAL);
    o.part_k = 0;
    o.part_m = 2;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EINVAL);
    o.part_m = 0;

    o.checkpoint_interval = -1.0;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EINVAL);
}

static void test_unsupported_simd(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    if (nq_simd_best() == NQ_SIMD_AVX512)
        skip();
    o.simd = NQ_SIMD_AVX512;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EUNSUPPORTED);
}

/* Every status has its own message: the loop starts at the last code of
 * nq_status (a new code goes below it, and here). */
static void test_strerror(void **state)
{
    (void)state;
    for (int s = NQ_EPUBLISHED; s <= NQ_OK; s++) {
        assert_non_null(nq_strerror(s));
        assert_string_not_equal(nq_strerror(s), nq_strerror(12345));
    }
    assert_string_equal(nq_strerror(NQ_ERANGE), "board size out of range");
    assert_non_null(nq_strerror(12345));
}

static void test_version(void **state)
{
    (void)state;
    assert_int_equal(nq_version_number(), NQ_VERSION_NUMBER);
    assert_string_equal(nq_version_string(), NQ_VERSION_STRING);
}

static void test_cancel_flag_already_raised(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_cancel_new(&o.stop), NQ_OK);
    nq_cancel_raise(o.stop);
    assert_int_equal(nq_count(&r, 20, &o), NQ_ECANCELED);
    nq_cancel_free(o.stop);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_init),
        cmocka_unit_test(test_cancel_flag),
        cmocka_unit_test(test_options_versions),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_unsupported_simd),
        cmocka_unit_test(test_strerror),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_cancel_flag_already_raised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
