/* Merging part results: real splits added up, and every rule of
 * nq_merge_parts() that refuses a set of parts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "known_values.h"
#include "nqueens.h"
#include "test_parts.h"

static void test_real_splits_add_up(void **state)
{
    nq_part parts[16];
    nq_merge_summary out[16] = { NQ_MERGE_SUMMARY_INIT };
    size_t len = 0, count = 0;
    (void)state;
    for (uint32_t k = 7; k >= 1; k--) /* any order */
        parts[count++] = count_part(12, NQ_METHOD_SYMMETRY, k, 7);
    for (uint32_t k = 1; k <= 3; k++)
        parts[count++] = count_part(10, NQ_METHOD_PLAIN, k, 3);
    parts[count++] = count_part(0, NQ_METHOD_SYMMETRY, 1, 1);
    assert_int_equal(nq_merge_parts(out, &len, NULL, parts, count), NQ_OK);
    assert_int_equal(len, 3);
    assert_int_equal(out[0].n, 0);
    assert_int_equal(out[0].total, 1);
    assert_int_equal(out[1].n, 10);
    assert_int_equal(out[1].total, test_known[10].total);
    assert_false(out[1].has_unique);
    assert_int_equal(out[2].n, 12);
    assert_int_equal(out[2].total, test_known[12].total);
    assert_int_equal(out[2].unique, test_known[12].unique);
    assert_int_equal(out[2].parts, 7);
}

static void test_bad_sets_are_refused(void **state)
{
    nq_part parts[8], big = NQ_PART_INIT;
    nq_merge_summary out[8] = { NQ_MERGE_SUMMARY_INIT };
    nq_merge_error e = NQ_MERGE_ERROR_INIT;
    size_t len = 77;
    uint64_t units;
    (void)state;

    for (uint32_t k = 1; k <= 5; k++)
        parts[k - 1] = count_part(11, NQ_METHOD_SYMMETRY, k, 5);
    /* complete: fine */
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 5), NQ_OK);
    /* parts 2 and 4 missing */
    parts[1] = parts[4];
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 3), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_MISSING);
    assert_int_equal(e.missing, 2);
    assert_int_equal(e.first_missing[0], 2);
    assert_int_equal(e.first_missing[1], 4);
    /* part 5 twice */
    parts[3] = parts[4];
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 5), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_TWICE);
    assert_int_equal(e.a, 1); /* the first two copies, by index */
    assert_int_equal(e.b, 3);
    /* another split */
    parts[1] = count_part(11, NQ_METHOD_SYMMETRY, 2, 6);
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 2), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_SPLIT);
    assert_int_equal(e.n, 11);
    parts[1] = count_part(11, NQ_METHOD_PLAIN, 2, 5);
    len = 77;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 2), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_SPLIT);
    assert_int_equal(len, 77); /* untouched on failure */

    /* more parts than units; one line of 2^32 - 1 parts costs nothing */
    big = count_part(11, NQ_METHOD_SYMMETRY, 1, 1);
    big.parts = UINT32_MAX;
    assert_int_equal(nq_units(&units, 11, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_int_equal(nq_merge_parts(out, &len, &e, &big, 1), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_UNITS);
    assert_int_equal(e.expected, units);

    /* sums that wrap around 2^64 (n = 28 has no published count) */
    parts[0] = count_part(5, NQ_METHOD_PLAIN, 1, 2);
    parts[1] = count_part(5, NQ_METHOD_PLAIN, 2, 2);
    parts[0].n = parts[1].n = 28;
    parts[0].total = UINT64_MAX - 3;
    parts[1].total = 10;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 2), NQ_EOVERFLOW);
    assert_int_equal(e.fault, NQ_MERGE_OVERFLOW);
    /* a sum that is not the published count */
    parts[0] = count_part(9, NQ_METHOD_SYMMETRY, 1, 1);
    parts[0].total++;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 1), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_KNOWN);
    assert_int_equal(e.expected, test_known[9].total);
    assert_int_equal(e.got, test_known[9].total + 1);
    parts[0].total--;
    parts[0].unique--;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 1), NQ_EMISMATCH);
    assert_true(e.unique_known);
    /* what no parse returns */
    parts[0].parts = 0;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 1), NQ_EINVAL);
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 0), NQ_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_splits_add_up),
        cmocka_unit_test(test_bad_sets_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
