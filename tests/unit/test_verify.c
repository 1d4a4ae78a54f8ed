/*
 * nq_verify(), nq_parse_placement() and their message formatters.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

/* ---- nq_verify ------------------------------------------------------------ */

static nq_violation verify(const uint32_t *cols, size_t n)
{
    nq_violation v = NQ_VIOLATION_INIT;
    memset(&v, 0xA5, sizeof v);
    v.version = NQ_VIOLATION_VERSION;
    assert_int_equal(nq_verify(&v, cols, n), NQ_OK);
    return v;
}

static void expect_fault(const uint32_t *cols, size_t n, nq_verify_fault fault,
                         size_t a, size_t b)
{
    const nq_violation v = verify(cols, n);
    assert_int_equal(v.fault, fault);
    assert_int_equal(v.row_a, a);
    assert_int_equal(v.row_b, b);
}

static void test_verify_valid(void **state)
{
    static const uint32_t eight[] = {0, 4, 7, 5, 2, 6, 1, 3};
    static const uint32_t five[] = {1, 3, 0, 2, 4};
    static const uint32_t one[] = {0};
    static const struct {
        const uint32_t *cols;
        size_t n;
    } valid[] = {{five, 5}, {NULL, 0}, {one, 1}, {eight, 8}};
    (void)state;
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++)
        expect_fault(valid[i].cols, valid[i].n, NQ_VERIFY_OK, 0, 0);
}

static void test_verify_range(void **state)
{
    static const uint32_t one[] = {1};
    static const uint32_t four[] = {1, 3, 0, 4};      /* row 3 out */
    static const uint32_t big[] = {0, 0, UINT32_MAX, 9}; /* range wins */
    (void)state;
    expect_fault(one, 1, NQ_VERIFY_RANGE, 0, 0);
    expect_fault(four, 4, NQ_VERIFY_RANGE, 3, 3);
    expect_fault(big, 4, NQ_VERIFY_RANGE, 2, 2);
}

static void test_verify_column(void **state)
{
    static const uint32_t a[] = {1, 3, 0, 3};          /* rows 1 and 3 */
    static const uint32_t b[] = {0, 2, 4, 2, 4, 0};    /* rows 1 and 3 first */
    static const uint32_t c[] = {0, 1, 5, 3, 5, 2};    /* diagonal 0-1 earlier,
                                                          but columns first */
    (void)state;
    expect_fault(a, 4, NQ_VERIFY_COLUMN, 1, 3);
    expect_fault(b, 6, NQ_VERIFY_COLUMN, 1, 3);
    expect_fault(c, 6, NQ_VERIFY_COLUMN, 2, 4);
}

static void test_verify_diagonal(void **state)
{
    /* row 5 (column 7) and row 1 (column 3): r - c equal */
    static const uint32_t main_[] = {0, 2, 4, 1, 3, 6, 5};
    /* row 5 (column 2) and row 2 (column 5): r + c equal */
    static const uint32_t anti[] = {0, 2, 4, 6, 3, 1, 5};
    /* row 5 (column 5) is on a diagonal with row 2 and on one with row 3 */
    static const uint32_t both[] = {0, 3, 1, 6, 2, 4, 5};
    static const uint32_t both_anti_first[] = {0, 3, 6, 4, 1, 2, 5};
    static const uint32_t neighbours[] = {0, 1};
    (void)state;
    expect_fault(main_, 7, NQ_VERIFY_DIAGONAL, 1, 5);
    expect_fault(anti, 7, NQ_VERIFY_DIAGONAL, 2, 5);
    expect_fault(both, 7, NQ_VERIFY_DIAGONAL, 2, 5);
    expect_fault(both_anti_first, 7, NQ_VERIFY_DIAGONAL, 3, 5);
    expect_fault(neighbours, 2, NQ_VERIFY_DIAGONAL, 0, 1);
}

static void test_verify_errors(void **state)
{
    static const uint32_t cols[] = {0};
    nq_violation v = NQ_VIOLATION_INIT;
    (void)state;
    assert_int_equal(nq_verify(NULL, cols, 1), NQ_EINVAL);
    assert_int_equal(nq_verify(&v, NULL, 1), NQ_EINVAL);
}

static void expect_violation_text(const uint32_t *cols, size_t n,
                                  const char *text)
{
    char buf[128];
    const nq_violation v = verify(cols, n);
    assert_int_equal(nq_violation_format(buf, sizeof buf, &v, cols, n), NQ_OK);
    assert_string_equal(buf, text);
}

static void test_violation_format(void **state)
{
    static const uint32_t eight[] = {0, 4, 7, 5, 2, 6, 1, 3};
    static const uint32_t range[] = {0, 8, 7, 5, 2, 6, 1, 3};
    static const uint32_t column[] = {0, 4, 7, 5, 2, 6, 1, 5};
    static const uint32_t diagonal[] = {0, 1};
    const nq_violation v = verify(column, 8);
    char buf[16];
    (void)state;
    expect_violation_text(eight, 8, "no two queens attack each other");
    expect_violation_text(range, 8,
                          "row 2: column 9 is out of range (1 to 8)");
    expect_violation_text(column, 8, "rows 4 and 8 share column 6");
    expect_violation_text(diagonal, 2,
                          "rows 1 and 2 share a diagonal (columns 1 and 2)");
    assert_int_equal(nq_violation_format(buf, sizeof buf, &v, NULL, 0), NQ_OK);
    assert_string_equal(buf, "rows 4 and 8 sh"); /* truncated, terminated */
    assert_int_equal(nq_violation_format(NULL, 0, &v, NULL, 0), NQ_OK);
    assert_int_equal(nq_violation_format(NULL, 5, &v, NULL, 0), NQ_EINVAL);
    assert_int_equal(nq_violation_format(buf, sizeof buf, NULL, NULL, 0),
                     NQ_EINVAL);
}

/* ---- nq_parse_placement --------------------------------------------------- */

static size_t parse_ok(const char *line, uint32_t **cols)
{
    size_t n = 99;
    nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
    assert_int_equal(nq_parse_placement(cols, &n, &err, line, strlen(line)),
                     NQ_OK);
    assert_int_equal(err.fault, NQ_PLACEMENT_OK);
    assert_non_null(*cols);
    return n;
}

static void expect_parsed(const char *line, const uint32_t *expected,
                          size_t n)
{
    uint32_t *cols = NULL;
    assert_int_equal(parse_ok(line, &cols), n);
    assert_memory_equal(cols, expected, n * sizeof *cols);
    free(cols);
}

static void expect_rejected_len(const char *line, size_t len,
                                nq_placement_fault fault, size_t offset,
                                size_t row)
{
    static uint32_t sentinel;
    uint32_t *cols = &sentinel; /* must be reset to NULL */
    size_t n = 99;
    nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
    assert_int_equal(nq_parse_placement(&cols, &n, &err, line, len),
                     NQ_EFORMAT);
    assert_null(cols);
    assert_int_equal(n, 0);
    assert_int_equal(err.fault, fault);
    assert_int_equal(err.offset, offset);
    if (fault == NQ_PLACEMENT_ZERO || fault == NQ_PLACEMENT_OVERFLOW)
        assert_int_equal(err.row, row);
    if (fault == NQ_PLACEMENT_CHAR)
        assert_int_equal(err.byte, (unsigned char)line[offset]);
}

static void expect_rejected(const char *line, nq_placement_fault fault,
                            size_t offset, size_t row)
{
    expect_rejected_len(line, strlen(line), fault, offset, row);
}

static void test_parse_valid(void **state)
{
    static const uint32_t eight[] = {0, 4, 7, 5, 2, 6, 1, 3};
    static const uint32_t two[] = {0, 1};
    static const uint32_t one[] = {0};
    static const uint32_t wide[] = {9, UINT32_MAX - 1u, 6};
    (void)state;
    expect_parsed("1 5 8 6 3 7 2 4", eight, 8);
    expect_parsed("1\t5 \t8  6 3 7 2 4", eight, 8);
    expect_parsed("  1 5 8 6 3 7 2 4\t ", eight, 8);
    expect_parsed("1 5 8 6 3 7 2 4\r", eight, 8);
    expect_parsed("1 05 8 6 3 7 2 004", eight, 8); /* leading zeros */
    expect_parsed("10 4294967295 7", wide, 3);
    /* compact form: one token, one digit per row */
    expect_parsed("15863724", eight, 8);
    expect_parsed("  15863724\r", eight, 8);
    expect_parsed("12", two, 2);
    expect_parsed("1", one, 1);
    expect_parsed("1\r", one, 1);
}

/* A line without columns is the placement of the empty board, n = 0,
 * which is valid: what `--list 0` and `--one 0` print reads back. */
static void test_parse_empty_board(void **state)
{
    const char *lines[] = {"", " \t  ", "\r", "\t\r"};
    (void)state;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        uint32_t *cols = (uint32_t *)&lines; /* must become NULL */
        size_t n = 99;
        nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
        nq_violation v = NQ_VIOLATION_INIT;
        assert_int_equal(nq_parse_placement(&cols, &n, &err, lines[i], strlen(lines[i])),
                         NQ_OK);
        assert_null(cols);
        assert_int_equal(n, 0);
        assert_int_equal(err.fault, NQ_PLACEMENT_OK);
        assert_int_equal(nq_verify(&v, cols, n), NQ_OK);
        assert_int_equal(v.fault, NQ_VERIFY_OK);
    }
}

static void test_parse_rejects(void **state)
{
    (void)state;
    expect_rejected("1 a 3", NQ_PLACEMENT_CHAR, 2, 0);
    expect_rejected("1 2x 3", NQ_PLACEMENT_CHAR, 3, 0);
    expect_rejected("abc", NQ_PLACEMENT_CHAR, 0, 0);
    expect_rejected("+1 2", NQ_PLACEMENT_CHAR, 0, 0);
    expect_rejected("1 -2", NQ_PLACEMENT_CHAR, 2, 0);
    expect_rejected("1,2,3", NQ_PLACEMENT_CHAR, 1, 0);
    expect_rejected("1 2\r 3", NQ_PLACEMENT_CHAR, 3, 0);  /* '\r' only at the end */
    expect_rejected("1 2\n", NQ_PLACEMENT_CHAR, 3, 0);    /* no newline */
    expect_rejected("1 2\r\r", NQ_PLACEMENT_CHAR, 3, 0);
    expect_rejected_len("1 2\0 3", 6, NQ_PLACEMENT_CHAR, 3, 0);
    expect_rejected_len("\0", 1, NQ_PLACEMENT_CHAR, 0, 0);
    expect_rejected("1 \xff", NQ_PLACEMENT_CHAR, 2, 0);
    /* zeros: columns start at 1 */
    expect_rejected("0", NQ_PLACEMENT_ZERO, 0, 0);
    expect_rejected("1 0 3", NQ_PLACEMENT_ZERO, 2, 1);
    expect_rejected("1 2 000", NQ_PLACEMENT_ZERO, 4, 2);
    expect_rejected("105", NQ_PLACEMENT_ZERO, 1, 1); /* compact form, digit 0 */
    expect_rejected("10", NQ_PLACEMENT_ZERO, 1, 1);
    /* overflow of uint32_t */
    expect_rejected("4294967296 1", NQ_PLACEMENT_OVERFLOW, 0, 0);
    expect_rejected("1 2 99999999999999999999999", NQ_PLACEMENT_OVERFLOW, 4, 2);
    expect_rejected("1 18446744073709551617", NQ_PLACEMENT_OVERFLOW, 2, 1);
    /* order: a bad byte anywhere comes before a bad number */
    expect_rejected("0 1 x", NQ_PLACEMENT_CHAR, 4, 0);
    /* the first bad number wins */
    expect_rejected("1 99999999999 0", NQ_PLACEMENT_OVERFLOW, 2, 1);
}

static void test_parse_errors(void **state)
{
    uint32_t *cols = NULL;
    size_t n = 0;
    nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
    (void)state;
    assert_int_equal(nq_parse_placement(NULL, &n, &err, "1", 1), NQ_EINVAL);
    assert_int_equal(nq_parse_placement(&cols, NULL, &err, "1", 1),
                     NQ_EINVAL);
    assert_int_equal(nq_parse_placement(&cols, &n, &err, NULL, 3), NQ_EINVAL);
    /* no text at all: the empty board */
    n = 99;
    assert_int_equal(nq_parse_placement(&cols, &n, &err, NULL, 0), NQ_OK);
    assert_int_equal(err.fault, NQ_PLACEMENT_OK);
    assert_null(cols);
    assert_int_equal(n, 0);
    /* err is optional */
    assert_int_equal(nq_parse_placement(&cols, &n, NULL, "1 x", 3),
                     NQ_EFORMAT);
    assert_int_equal(nq_parse_placement(&cols, &n, NULL, "2 4 1 3", 7), NQ_OK);
    assert_int_equal(n, 4);
    free(cols);
}

static void expect_parse_text(const char *line, const char *text)
{
    uint32_t *cols = NULL;
    size_t n = 0;
    nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
    char buf[160];
    assert_int_equal(nq_parse_placement(&cols, &n, &err, line, strlen(line)),
                     NQ_EFORMAT);
    assert_int_equal(nq_placement_error_format(buf, sizeof buf, &err), NQ_OK);
    assert_string_equal(buf, text);
}

static void test_parse_error_format(void **state)
{
    nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
    char buf[8];
    (void)state;
    expect_parse_text("1 x", "position 3: unexpected character 'x' (columns "
                             "are numbers from 1, separated by spaces or tabs)");
    expect_parse_text("1 \x01", "position 3: unexpected byte 0x01 (columns "
                                "are numbers from 1, separated by spaces or tabs)");
    expect_parse_text("1 2 0",
                      "row 3: column 0 is out of range (columns start at 1)");
    expect_parse_text("1 5000000000",
                      "row 2: the column at position 3 is too large "
                      "(more than 4294967295)");
    assert_int_equal(nq_placement_error_format(buf, sizeof buf, &err), NQ_OK);
    assert_string_equal(buf, "no erro");
    assert_int_equal(nq_placement_error_format(NULL, 1, &err), NQ_EINVAL);
    assert_int_equal(nq_placement_error_format(buf, sizeof buf, NULL), NQ_EINVAL);
}

/* A line of 10^6 numbers: the construction written out, read back. */
static void test_parse_long_line(void **state)
{
    const size_t n = 1000000;
    uint32_t *cols = malloc(n * sizeof *cols), *back = NULL;
    char *line = malloc(n * 8 + 1), *p = line;
    size_t i, m = 0;
    nq_violation v = NQ_VIOLATION_INIT;
    (void)state;
    assert_non_null(cols);
    assert_non_null(line);
    assert_int_equal(nq_construct(cols, n), NQ_OK);
    for (i = 0; i < n; i++)
        p += sprintf(p, i ? " %u" : "%u", (unsigned)(cols[i] + 1));
    assert_int_equal(nq_parse_placement(&back, &m, NULL, line,
                                        (size_t)(p - line)),
                     NQ_OK);
    assert_int_equal(m, n);
    assert_memory_equal(back, cols, n * sizeof *cols);
    assert_int_equal(nq_verify(&v, back, m), NQ_OK);
    assert_int_equal(v.fault, NQ_VERIFY_OK);
    free(back);
    free(line);
    free(cols);
}

/* ---- the fuzz corpus ----------------------------------------------------- */

/* The seed files in tests/fuzz/corpus; keep in step with that folder. */
static const char *const corpus_files[] = {
    "binary", "blanks", "compact", "crlf", "empty_lines", "faults",
    "junk", "long_lines", "overflow", "range", "valid_8", "zeros",
};

/* Every line of every seed file goes through the parser and the verifier
 * without harm; returns the number of lines that are solutions. */
static size_t run_corpus_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *data;
    long size;
    size_t start = 0, i, len, solutions = 0;
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size = ftell(f);
    assert_true(size >= 0);
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    len = (size_t)size;
    data = malloc(len + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, len, f), len);
    fclose(f);
    for (i = 0; i <= len; i++) {
        if (i == len || data[i] == '\n') {
            uint32_t *cols = NULL;
            size_t n = 0;
            nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
            char text[256];
            const int st =
                nq_parse_placement(&cols, &n, &err, data + start, i - start);
            assert_true(st == NQ_OK || st == NQ_EFORMAT);
            assert_int_equal(nq_placement_error_format(text, sizeof text, &err),
                             NQ_OK);
            if (st == NQ_OK) {
                nq_violation v = NQ_VIOLATION_INIT;
                assert_int_equal(nq_verify(&v, cols, n), NQ_OK);
                assert_int_equal(
                    nq_violation_format(text, sizeof text, &v, cols, n),
                    NQ_OK);
                solutions += v.fault == NQ_VERIFY_OK;
            }
            free(cols);
            start = i + 1;
        }
    }
    free(data);
    return solutions;
}

static void test_fuzz_corpus(void **state)
{
#ifdef NQ_FUZZ_CORPUS_DIR
    size_t i, solutions = 0;
    (void)state;
    for (i = 0; i < sizeof corpus_files / sizeof corpus_files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", NQ_FUZZ_CORPUS_DIR,
                 corpus_files[i]);
        solutions += run_corpus_file(path);
    }
    assert_true(solutions >= 5); /* the seeds do hold some solutions */
#else
    (void)state;
    fail_msg("NQ_FUZZ_CORPUS_DIR is not defined");
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify_valid),
        cmocka_unit_test(test_verify_range),
        cmocka_unit_test(test_verify_column),
        cmocka_unit_test(test_verify_diagonal),
        cmocka_unit_test(test_verify_errors),
        cmocka_unit_test(test_violation_format),
        cmocka_unit_test(test_parse_valid),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_error_format),
        cmocka_unit_test(test_parse_long_line),
        cmocka_unit_test(test_parse_empty_board),
        cmocka_unit_test(test_fuzz_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
