/* The command's argument parsing and output, through nq_cli_main() with
 * temporary files standing in for stdin, stdout and stderr. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct outcome {
    int status;
    char out[8192];
    char err[8192];
} outcome;

static void slurp(char *buf, size_t size, FILE *f)
{
    size_t got;
    rewind(f);
    got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
}

/* Runs the command with a NULL-terminated argument list and `input` on stdin. */
static outcome run_cli(const char *input, ...)
{
    static outcome o;
    static char store[64][256];
    char *argv[64];
    int argc = 0;
    va_list ap;
    FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();

    assert_non_null(in);
    assert_non_null(out);
    assert_non_null(err);
    /* argv strings are writable in a real main(): give copies */
    snprintf(store[0], sizeof store[0], "nqueens");
    argv[argc] = store[argc];
    argc++;
    va_start(ap, input);
    for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *)) {
        assert_true(argc < 63 && strlen(a) < sizeof store[0]);
        snprintf(store[argc], sizeof store[argc], "%s", a);
        argv[argc] = store[argc];
        argc++;
    }
    va_end(ap);
    argv[argc] = NULL;
    if (input)
        fputs(input, in);
    rewind(in);
    o.status = nq_cli_main(argc, argv, in, out, err);
    slurp(o.out, sizeof o.out, out);
    slurp(o.err, sizeof o.err, err);
    fclose(in);
    fclose(out);
    fclose(err);
    return o;
}

/* A usage error: status 2, nothing on stdout, one line on stderr that
 * starts with "nqueens: " and mentions `needle`. */
static void expect_usage_error(outcome o, const char *needle)
{
    const char *nl;
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    assert_memory_equal(o.err, "nqueens: ", 9);
    nl = strchr(o.err, '\n');
    assert_non_null(nl);
    /* one line, except for the "Try --help" hint after an unknown option */
    if (nl[1] != '\0')
        assert_non_null(strstr(nl + 1, "--help"));
    if (needle && !strstr(o.err, needle))
        fail_msg("stderr '%s' does not mention '%s'", o.err, needle);
}

static void test_single_count(void **state)
{
    outcome o = run_cli(NULL, "13", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "73712\n");
    assert_string_equal(o.err, "");
}

static void test_operands_and_ranges_in_order(void **state)
{
    outcome o = run_cli(NULL, "8", "10-12", "0", "2-3", "5-5", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "92\n724\n2680\n14200\n1\n0\n0\n10\n");
}

static void test_range_1_to_16(void **state)
{
    outcome o = run_cli(NULL, "1-16", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1\n0\n0\n2\n10\n4\n40\n92\n352\n724\n2680\n"
                               "14200\n73712\n365596\n2279184\n14772512\n");
}

static void test_stdin_sizes(void **state)
{
    outcome o = run_cli("1\n2 3\t4\n\n 5-6 \n", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1\n0\n0\n2\n10\n4\n");
    o = run_cli("8\n", "-", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "92\n");
    /* '-' stands in its place among the operands */
    o = run_cli("9", "4", "-", "10", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "2\n352\n724\n");
}

static void test_labels_format(void **state)
{
    outcome o = run_cli(NULL, "--labels", "4-5", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "n\ttotal\n4\t2\n5\t10\n");
    o = run_cli(NULL, "-l", "-u", "8", NULL);
    assert_string_equal(o.out, "n\ttotal\tunique\n8\t92\t12\n");
    o = run_cli(NULL, "--format=labels", "8", NULL);
    assert_string_equal(o.out, "n\ttotal\n8\t92\n");
    o = run_cli(NULL, "--format", "bare", "8", NULL);
    assert_string_equal(o.out, "92\n");
}

static void test_json_format(void **state)
{
    outcome o = run_cli(NULL, "--json", "13", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "{\"n\":13,\"total\":73712,\"method\":\"symmetry\"}\n");
    o = run_cli(NULL, "--json", "--unique", "-m", "symmetry", "8-9", NULL);
    assert_string_equal(o.out,
                        "{\"n\":8,\"total\":92,\"unique\":12,\"method\":\"symmetry\"}\n"
                        "{\"n\":9,\"total\":352,\"unique\":46,\"method\":\"symmetry\"}\n");
    o = run_cli(NULL, "-f", "json", "--method=plain", "6", NULL);
    assert_string_equal(o.out, "{\"n\":6,\"total\":4,\"method\":\"plain\"}\n");
}

static void test_unique_bare(void **state)
{
    outcome o = run_cli(NULL, "--unique", "1-10", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1\n0\n0\n1\n2\n1\n6\n12\n46\n92\n");
}

static void test_methods_threads_simd(void **state)
{
    outcome o = run_cli(NULL, "--method=plain", "-j", "3", "12", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "14200\n");
    o = run_cli(NULL, "--threads=1", "--simd=none", "12", NULL);
    assert_string_equal(o.out, "14200\n");
    o = run_cli(NULL, "-j2", "-msymmetry", "12", NULL);
    assert_string_equal(o.out, "14200\n");
}

static void test_help_and_version(void **state)
{
    outcome o = run_cli(NULL, "--help", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "Usage: nqueens"));
    assert_non_null(strstr(o.out, "Exit status"));
    assert_string_equal(o.err, "");
    o = run_cli(NULL, "-h", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "Usage: nqueens"));
    o = run_cli(NULL, "--version", NULL);
    assert_int_equal(o.status, 0);
    assert_memory_equal(o.out, "nqueens ", 8);
    o = run_cli(NULL, "-V", NULL);
    assert_int_equal(o.status, 0);
}

static void test_bad_operands(void **state)
{
    (void)state;
    expect_usage_error(run_cli(NULL, "abc", NULL), "'abc' is not a board size");
    expect_usage_error(run_cli(NULL, "-1", NULL), "'-1'");
    expect_usage_error(run_cli(NULL, "13x", NULL), "'13x'");
    expect_usage_error(run_cli(NULL, "1e3", NULL), "'1e3'");
    expect_usage_error(run_cli(NULL, "", NULL), "empty operand");
    expect_usage_error(run_cli(NULL, "99999999999999999999", NULL), "out of range");
    expect_usage_error(run_cli(NULL, "29", NULL), "out of range (0..28)");
    expect_usage_error(run_cli(NULL, "12-8", NULL), "reversed");
    expect_usage_error(run_cli(NULL, "8-", NULL), "'8-'");
    expect_usage_error(run_cli(NULL, "-8-9", NULL), "'-8-9'");
    expect_usage_error(run_cli(NULL, "1-2-3", NULL), "'1-2-3'");
    expect_usage_error(run_cli(NULL, " 8", NULL), "' 8'");
    expect_usage_error(run_cli(NULL, "+8", NULL), "'+8'");
    expect_usage_error(run_cli(NULL, "8-99", NULL), "out of range");
    expect_usage_error(run_cli(NULL, "--frobnicate", NULL), "unknown option '--frobnicate'");
    expect_usage_error(run_cli(NULL, "-x", NULL), "unknown option '-x'");
    expect_usage_error(run_cli(NULL, "--threads", NULL), "needs a value");
    expect_usage_error(run_cli(NULL, "--threads=0", "8", NULL), "thread count");
    expect_usage_error(run_cli(NULL, "-j", "many", "8", NULL), "thread count");
    expect_usage_error(run_cli(NULL, "--method=fast", "8", NULL), "unknown method");
    expect_usage_error(run_cli(NULL, "--format=xml", "8", NULL), "unknown format");
    expect_usage_error(run_cli(NULL, "--simd=sse9", "8", NULL), "unknown SIMD level");
    expect_usage_error(run_cli(NULL, "--unique=yes", "8", NULL), "takes no value");
    expect_usage_error(run_cli(NULL, "--unique", "--method=plain", "8", NULL), "symmetry");
}

static void test_bad_operand_anywhere_prints_nothing(void **state)
{
    (void)state;
    /* every operand is checked before any count is printed */
    expect_usage_error(run_cli(NULL, "8", "9", "oops", NULL), "'oops'");
    expect_usage_error(run_cli("8 9 x10", NULL), "'x10'");
    expect_usage_error(run_cli("8 9 30", NULL), "out of range");
}

static void test_bad_stdin(void **state)
{
    (void)state;
    expect_usage_error(run_cli("", NULL), "no board size");
    expect_usage_error(run_cli("  \n\t\n", NULL), "no board size");
    expect_usage_error(run_cli("8 \x01\x02\xff", NULL), "standard input");
    expect_usage_error(run_cli("8 -3", NULL), "'-3'");
}

static void test_double_dash(void **state)
{
    outcome o = run_cli(NULL, "--", "8", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "92\n");
    expect_usage_error(run_cli(NULL, "--", "--help", NULL), "'--help'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_count),
        cmocka_unit_test(test_operands_and_ranges_in_order),
        cmocka_unit_test(test_range_1_to_16),
        cmocka_unit_test(test_stdin_sizes),
        cmocka_unit_test(test_labels_format),
        cmocka_unit_test(test_json_format),
        cmocka_unit_test(test_unique_bare),
        cmocka_unit_test(test_methods_threads_simd),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_bad_operands),
        cmocka_unit_test(test_bad_operand_anywhere_prints_nothing),
        cmocka_unit_test(test_bad_stdin),
        cmocka_unit_test(test_double_dash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
