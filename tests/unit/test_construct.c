/*
 * nq_construct(): valid for every n from 4 to 2000 and for large n of
 * every remainder mod 6, checked by nq_verify() and by a check of its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

/* Independent of nq_verify(): one byte per column and per diagonal. */
static int is_solution(const uint32_t *cols, size_t n)
{
    unsigned char *used = calloc(5 * n + 1, 1);
    unsigned char *column = used, *diag = used + n, *anti = used + 3 * n;
    size_t r;
    int ok = 1;
    assert_non_null(used);
    for (r = 0; r < n && ok; r++) {
        const size_t c = cols[r];
        if (c >= n || column[c] || diag[r + c] || anti[r + n - 1 - c])
            ok = 0;
        else
            column[c] = diag[r + c] = anti[r + n - 1 - c] = 1;
    }
    free(used);
    return ok;
}

static void check_construct(size_t n)
{
    uint32_t *cols = malloc(n * sizeof *cols);
    nq_violation v = NQ_VIOLATION_INIT;
    assert_non_null(cols);
    assert_int_equal(nq_construct(cols, n), NQ_OK);
    assert_int_equal(nq_verify(&v, cols, n), NQ_OK);
    assert_int_equal(v.fault, NQ_VERIFY_OK);
    assert_true(is_solution(cols, n));
    free(cols);
}

static void test_small_boards(void **state)
{
    size_t n;
    (void)state;
    check_construct(1);
    for (n = 4; n <= 2000; n++)
        check_construct(n);
}

static void test_large_boards(void **state)
{
    /* one of each remainder mod 6 near 10^6, and 10^5 */
    static const size_t sizes[] = {100000, 1000000, 1000001, 1000002,
                                   1000003, 1000004, 1000005};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_construct(sizes[i]);
}

static void test_known_patterns(void **state)
{
    /* 1-based: n = 8 (remainder 2) is 2 4 6 8 3 1 7 5,
     * n = 9 (remainder 3) is 4 6 8 2 5 7 9 1 3, n = 6 is 2 4 6 1 3 5. */
    static const uint32_t eight[] = {1, 3, 5, 7, 2, 0, 6, 4};
    static const uint32_t nine[] = {3, 5, 7, 1, 4, 6, 8, 0, 2};
    static const uint32_t six[] = {1, 3, 5, 0, 2, 4};
    uint32_t cols[9];
    (void)state;
    assert_int_equal(nq_construct(cols, 8), NQ_OK);
    assert_memory_equal(cols, eight, sizeof eight);
    assert_int_equal(nq_construct(cols, 9), NQ_OK);
    assert_memory_equal(cols, nine, sizeof nine);
    assert_int_equal(nq_construct(cols, 6), NQ_OK);
    assert_memory_equal(cols, six, sizeof six);
}

static void test_no_solution_and_errors(void **state)
{
    uint32_t cols[4] = {7, 7, 7, 7};
    (void)state;
    assert_int_equal(nq_construct(cols, 2), NQ_ENOSOLUTION);
    assert_int_equal(nq_construct(cols, 3), NQ_ENOSOLUTION);
    assert_int_equal(nq_construct(NULL, 0), NQ_OK);
    assert_int_equal(nq_construct(cols, 0), NQ_OK);
    assert_int_equal(cols[0], 7); /* nothing written for n = 0 */
    assert_int_equal(nq_construct(NULL, 8), NQ_EINVAL);
    assert_int_equal(nq_construct(cols, 1), NQ_OK);
    assert_int_equal(cols[0], 0);
#if SIZE_MAX > UINT32_MAX
    assert_int_equal(nq_construct(cols, (size_t)UINT32_MAX + 1), NQ_EINVAL);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_boards),
        cmocka_unit_test(test_large_boards),
        cmocka_unit_test(test_known_patterns),
        cmocka_unit_test(test_no_solution_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
