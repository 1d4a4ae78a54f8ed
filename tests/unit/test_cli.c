/* The command's argument parsing and output, through nq_cli_main() with
 * temporary files standing in for stdin, stdout and stderr. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_output.h"
#include "cli_estimate.h"
#include "nqueens.h"
#include "test_cli_run.h"

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
    assert_non_null(strstr(o.out, ",\"seconds\":"));
    assert_string_equal(no_seconds(o.out), "{\"n\":13,\"total\":73712,\"method\":\"symmetry\",\"device\":\"cpu\"}\n");
    o = run_cli(NULL, "--json", "--unique", "-m", "symmetry", "8-9", NULL);
    assert_string_equal(no_seconds(o.out),
                        "{\"n\":8,\"total\":92,\"unique\":12,\"method\":\"symmetry\",\"device\":\"cpu\"}\n"
                        "{\"n\":9,\"total\":352,\"unique\":46,\"method\":\"symmetry\",\"device\":\"cpu\"}\n");
    o = run_cli(NULL, "-f", "json", "--method=plain", "6", NULL);
    assert_string_equal(no_seconds(o.out), "{\"n\":6,\"total\":4,\"method\":\"plain\",\"device\":\"cpu\"}\n");
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
    expect_usage_error(run_cli(NULL, "--frobnicate", NULL), "unrecognized option '--frobnicate'");
    expect_usage_error(run_cli(NULL, "-x", NULL), "invalid option -- 'x'");
    expect_usage_error(run_cli(NULL, "--threads", NULL), "option '--threads' requires an argument");
    expect_usage_error(run_cli(NULL, "--threads=1025", "8", NULL), "thread count");
    expect_usage_error(run_cli(NULL, "-j", "many", "8", NULL), "thread count");
    expect_usage_error(run_cli(NULL, "--method=fast", "8", NULL), "unknown method");
    expect_usage_error(run_cli(NULL, "--format=xml", "8", NULL), "unknown format");
    expect_usage_error(run_cli(NULL, "--simd=sse9", "8", NULL), "unknown SIMD level");
    expect_usage_error(run_cli(NULL, "--unique=yes", "8", NULL), "doesn't allow an argument");
    expect_usage_error(run_cli(NULL, "--unique", "--method=plain", "8", NULL), "symmetry");
    expect_usage_error(run_cli(NULL, "--unique", "--method=join", "8", NULL), "join method");
}

static void test_bad_operand_anywhere_prints_nothing(void **state)
{
    (void)state;
    /* every operand is checked before any count is printed */
    expect_usage_error(run_cli(NULL, "8", "9", "oops", NULL), "'oops'");
    expect_input_error(run_cli("8 9 x10", NULL), "line 1: 'x10'");
    expect_input_error(run_cli("8 9 30", NULL), "out of range");
}

static void test_bad_stdin(void **state)
{
    (void)state;
    /* each error names the line of standard input it is about */
    expect_input_error(run_cli("8 \x01\x02\xff", NULL), "nqueens: line 1: '\\x01\\x02\\xff'");
    expect_input_error(run_cli("8 -3", NULL), "line 1: '-3'");
    expect_input_error(run_cli("8\n9\n\n  10 x\n", NULL), "nqueens: line 4: 'x' is not");
    expect_input_error(run_cli("1\r\n2\r\n30\r\n", "-", NULL), "nqueens: line 3: board size 30");
    expect_input_error(run_cli("4\n\n5-2\n", "8", "-", NULL), "nqueens: line 3: range '5-2'");
}

static void test_empty_stdin_asks_for_nothing(void **state)
{
    static const char *const inputs[] = {"", "  \n\t\n"};
    (void)state;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        outcome o = run_cli(inputs[i], NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, "");
        assert_string_equal(o.err, "");
        o = run_cli(inputs[i], "--labels", "-", NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, "");
        o = run_cli(inputs[i], "--check", "--json", NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, "");
        o = run_cli(inputs[i], "--estimate", NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, "");
        o = run_cli(inputs[i], "--list", NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, "");
    }
    /* and no placement at all is nothing wrong */
    {
        outcome o = run_cli("", "--verify", NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, "0 valid, 0 invalid, 0 malformed\n");
        assert_string_equal(o.err, "");
    }
}

static void test_unsupported_simd_level(void **state)
{
    (void)state;
    if (nq_simd_best() == NQ_SIMD_AVX512)
        skip();
    expect_usage_error(run_cli(NULL, "--simd=avx512", "8", NULL), "does not support --simd=avx512");
    expect_usage_error(run_cli(NULL, "--check", "--simd=avx512", "8", NULL),
                       "does not support --simd=avx512");
}

static void test_double_dash(void **state)
{
    outcome o = run_cli(NULL, "--", "8", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "92\n");
    expect_usage_error(run_cli(NULL, "--", "--help", NULL), "'--help'");
}


static void test_list_mode(void **state)
{
    outcome o = run_cli(NULL, "--list", "--limit=3", "8", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n1 7 4 6 8 2 5 3\n");
    o = run_cli(NULL, "--list", "--compact", "--limit", "2", "8", NULL);
    assert_string_equal(o.out, "15863724\n16837425\n");
    o = run_cli(NULL, "--list", "--board", "4", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n");
    o = run_cli(NULL, "--list", "0", "2", "1", NULL);
    assert_string_equal(o.out, "\n1\n"); /* the empty board, nothing, one queen */
    expect_usage_error(run_cli(NULL, "--list", "--compact", "10", NULL), "--compact");
    expect_usage_error(run_cli(NULL, "--list", "--one", "8", NULL), "--one cannot be used with --list");
    expect_usage_error(run_cli(NULL, "--list", "--limit=x", "8", NULL), "--limit");
}

static void test_list_canonical(void **state)
{
    outcome o = run_cli(NULL, "--list", "--canonical", "8", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_int_equal(count_lines(o.out), 12);
    o = run_cli(NULL, "--list", "--canonical", "--compact", "9", NULL);
    assert_int_equal(count_lines(o.out), 46);
}

static void test_one_and_random(void **state)
{
    outcome o = run_cli(NULL, "--one", "8", NULL);
    char first[8192];
    (void)state;
    assert_int_equal(o.status, 0);
    assert_int_equal(count_lines(o.out), 1);
    o = run_cli(o.out, "--verify", "8", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1 valid, 0 invalid, 0 malformed\n");

    o = run_cli(NULL, "--one", "2", NULL);
    assert_int_equal(o.status, 1);
    assert_string_equal(o.out, "");
    assert_string_equal(o.err, "nqueens: n = 2 has no solution\n");
    o = run_cli(NULL, "--random", "3", "--seed=1", NULL);
    assert_int_equal(o.status, 1);
    assert_string_equal(o.err, "nqueens: n = 3 has no solution\n");

    o = run_cli(NULL, "--random", "60", "--seed", "7", NULL);
    assert_int_equal(o.status, 0);
    memcpy(first, o.out, sizeof first);
    o = run_cli(NULL, "--random", "60", "--seed", "7", NULL);
    assert_string_equal(o.out, first);
    o = run_cli(first, "--verify", NULL);
    assert_int_equal(o.status, 0);

    o = run_cli(NULL, "--random", "20000", "--seed=1", "--max-steps=1", NULL);
    assert_int_equal(o.status, 1);
    assert_string_equal(o.out, "");
    assert_non_null(strstr(o.err, "step limit"));

    expect_usage_error(run_cli(NULL, "--one", NULL), "exactly one board size");
    expect_usage_error(run_cli(NULL, "--one", "8", "9", NULL), "exactly one board size");
    expect_usage_error(run_cli(NULL, "--one", "x", NULL), "'x'");
    expect_usage_error(run_cli(NULL, "--random", "-5", NULL), "'-5'");
}

static void test_verify_mode(void **state)
{
    outcome o = run_cli("1 5 8 6 3 7 2 4\n2 4 1 3\n", "--verify", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "2 valid, 0 invalid, 0 malformed\n");
    assert_string_equal(o.err, "");

    o = run_cli("1 2 3\n2 4 1 3\n1 1\n5 1 2\n", "--verify", NULL);
    assert_int_equal(o.status, 1);
    assert_string_equal(o.out,
                        "line 1: invalid: rows 1 and 2 share a diagonal (columns 1 and 2)\n"
                        "line 3: invalid: rows 1 and 2 share column 1\n"
                        "line 4: invalid: row 1: column 5 is out of range (1 to 3)\n"
                        "1 valid, 3 invalid, 0 malformed\n");

    o = run_cli("2 4 1 3\n2 4 1 3 5\n", "--verify", "4", NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.out, "line 2: invalid: wrong length: 5 queens, expected 4\n"));

    /* an empty line is the empty board: valid, or of the wrong length */
    o = run_cli("2 4 1 3\nhello\n\n2 4 1 3\n", "--verify", NULL);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "3 valid, 0 invalid, 1 malformed\n");
    assert_non_null(strstr(o.err, "nqueens: line 2: not a placement"));
    o = run_cli("2 4 1 3\n\n", "--verify", "4", NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.out, "line 2: invalid: wrong length: 0 queens, expected 4\n"));
    o = run_cli("\n", "--verify", "0", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1 valid, 0 invalid, 0 malformed\n");

    /* '-' names standard input here too, before or after N */
    o = run_cli("2 4 1 3\n", "--verify", "-", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1 valid, 0 invalid, 0 malformed\n");
    o = run_cli("2 4 1 3\n", "--verify", "-", "5", NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.out, "line 1: invalid: wrong length: 4 queens, expected 5\n"));
    o = run_cli("2 4 1 3\n", "--verify", "4", "-", NULL);
    assert_int_equal(o.status, 0);
    expect_usage_error(run_cli("", "--verify", "4", "5", NULL), "at most one board size");
    expect_usage_error(run_cli("", "--verify", "99999999999999999999", NULL),
                       "'99999999999999999999' is not a board size");
}

/* File names in JSON: escaped as JSON asks, UTF-8 kept, other bytes
 * replaced (cli_json_string()). */
static void test_json_strings(void **state)
{
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"plain.txt", "\"plain.txt\""},
        {"a\"b\\c", "\"a\\\"b\\\\c\""},
        {"tab\tnl\ndel\x7f", "\"tab\\u0009nl\\u000adel\\u007f\""},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""},
        {"bad\xff\xc3", "\"bad\\ufffd\\ufffd\""},
        {"\xc0\xaf", "\"\\ufffd\\ufffd\""},             /* overlong '/' */
        {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""}, /* a surrogate */
        {"\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* above U+10FFFF */
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[128];
        FILE *f = tmpfile();
        assert_non_null(f);
        cli_json_string(f, cases[i].in, strlen(cases[i].in));
        slurp(got, sizeof got, f);
        fclose(f);
        assert_string_equal(got, cases[i].want);
    }
}

/* Writes text to a new file in a fresh folder; returns its path. */
static const char *scratch_file(char *path, size_t size, const char *dir, const char *name,
                                const char *text)
{
    FILE *f;
    snprintf(path, size, "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* --verify FILE...: every file in order, then the one summary; lines are
 * named FILE:K (standard input, when '-' is among files: "standard
 * input:K"); a file that cannot be read is named, before any line. */
static void test_verify_files(void **state)
{
    char dir[] = "/tmp/nq-verify-XXXXXX", good[128], bad[128], digits[128], ddir[128];
    char want[1024], cwd[4096];
    outcome o;
    (void)state;

    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_non_null(mkdtemp(dir));
    scratch_file(good, sizeof good, dir, "good.txt", "2 4 1 3\n1 5 8 6 3 7 2 4\n");
    scratch_file(bad, sizeof bad, dir, "bad.txt", "2 4 1 3\n1 2 3\nx\n");
    scratch_file(digits, sizeof digits, dir, "8", "2 4 1 3\n");

    o = run_cli(NULL, "--verify", good, NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "2 valid, 0 invalid, 0 malformed\n");
    assert_string_equal(o.err, "");

    o = run_cli("1 1\n", "--verify", good, bad, "-", NULL);
    assert_int_equal(o.status, 2); /* a malformed line outranks an invalid one */
    snprintf(want, sizeof want,
             "%s:2: invalid: rows 1 and 2 share a diagonal (columns 1 and 2)\n"
             "standard input:1: invalid: rows 1 and 2 share column 1\n"
             "3 valid, 2 invalid, 1 malformed\n", bad);
    assert_string_equal(o.out, want);
    snprintf(want, sizeof want, "nqueens: %s:3: not a placement: ", bad);
    assert_memory_equal(o.err, want, strlen(want));
    assert_int_equal(count_lines(o.err), 1);

    /* with N, every line of every file */
    o = run_cli(NULL, "--verify", "8", good, NULL);
    assert_int_equal(o.status, 1);
    snprintf(want, sizeof want, "%s:1: invalid: wrong length: 4 queens, expected 8\n"
                                "1 valid, 1 invalid, 0 malformed\n", good);
    assert_string_equal(o.out, want);

    /* a name of digits is N; ./NAME is the file */
    o = run_cli("2 4 1 3\n", "--verify", "8", NULL);
    assert_int_equal(o.status, 1);
    assert_true(chdir(dir) == 0);
    o = run_cli(NULL, "--verify", "./8", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "1 valid, 0 invalid, 0 malformed\n");
    assert_true(chdir(cwd) == 0);

    /* a file that cannot be read stops everything before the first line:
     * nothing on stdout, the file named, status 2 */
    snprintf(ddir, sizeof ddir, "%s/no-such.txt", dir);
    o = run_cli(NULL, "--verify", bad, ddir, NULL);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    snprintf(want, sizeof want, "nqueens: %s: No such file or directory\n", ddir);
    assert_string_equal(o.err, want);
    o = run_cli(NULL, "--verify", good, dir, NULL);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    snprintf(want, sizeof want, "nqueens: %s: Is a directory\n", dir);
    assert_string_equal(o.err, want);
    o = run_cli(NULL, "--verify", "no\nfile", NULL);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.err, "nqueens: no\\x0afile: No such file or directory\n");

    assert_int_equal(remove(good), 0);
    assert_int_equal(remove(bad), 0);
    assert_int_equal(remove(digits), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_check_mode(void **state)
{
    outcome o = run_cli(NULL, "--check", "0-3", "12", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out,
                        "n\ttotal\tunique\tknown_total\tknown_unique\tstatus\n"
                        "0\t1\t1\t1\t1\tok\n"
                        "1\t1\t1\t1\t1\tok\n"
                        "2\t0\t0\t0\t0\tok\n"
                        "3\t0\t0\t0\t0\tok\n"
                        "12\t14200\t1787\t14200\t1787\tok\n");
    o = run_cli(NULL, "--check", "--json", "8", NULL);
    assert_string_equal(no_seconds(o.out), "{\"n\":8,\"total\":92,\"unique\":12,\"known_total\":92,"
                               "\"known_unique\":12,\"method\":\"symmetry\",\"status\":\"ok\",\"device\":\"cpu\"}\n");
    o = run_cli(NULL, "--check", "--method=plain", "10", NULL);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "10\t724\t-\t724\t92\tok\n"));
    expect_usage_error(run_cli(NULL, "--check", "30", NULL), "out of range");
}

static void test_part_and_merge(void **state)
{
    outcome o = run_cli(NULL, "--part", "2/3", "--json", "10", NULL);
    char parts[4096] = "";
    char part[64], want[160];
    uint64_t units = 0;
    (void)state;
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "\"part\":2,\"parts\":3,\"unit_list_version\":"));
    for (int k = 1; k <= 3; k++) {
        char arg[16];
        snprintf(arg, sizeof arg, "%d/3", k);
        o = run_cli(NULL, "--part", arg, "--json", "10", NULL);
        strcat(parts, o.out);
    }
    o = run_cli(parts, "--merge", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "724\n");
    o = run_cli(parts, "--merge", "--labels", "--unique", NULL);
    assert_string_equal(o.out, "n\ttotal\tunique\n10\t724\t92\n");
    o = run_cli(NULL, "--part=1/2", "--labels", "10", NULL);
    assert_non_null(strstr(o.out, "n\ttotal\tpart\tmethod\tunit_list_version\n10\t"));
    expect_usage_error(run_cli(NULL, "--part", "0/3", "10", NULL), "--part");
    expect_usage_error(run_cli(NULL, "--part", "4/3", "10", NULL), "--part");
    expect_usage_error(run_cli(NULL, "--part", "1-3", "10", NULL), "--part");
    /* no more parts than units, for every size, before any count */
    assert_int_equal(nq_units(&units, 8, NQ_METHOD_DEFAULT), NQ_OK);
    snprintf(part, sizeof part, "1/%llu", (unsigned long long)units + 1);
    snprintf(want, sizeof want, "--part %s: n = 8 has %llu work units, so M can be at most %llu",
             part, (unsigned long long)units, (unsigned long long)units);
    o = run_cli(NULL, "--part", part, "12", "8", NULL);
    expect_usage_error(o, want);
    snprintf(part, sizeof part, "%llu/%llu", (unsigned long long)units,
             (unsigned long long)units);
    o = run_cli(NULL, "--part", part, "--json", "8", NULL);
    assert_int_equal(o.status, 0);
    snprintf(want, sizeof want, "\"part\":%llu,\"parts\":%llu,", (unsigned long long)units,
             (unsigned long long)units);
    assert_non_null(strstr(o.out, want));
    /* every method has a unit for every n, so n = 2 splits into one part */
    expect_usage_error(run_cli(NULL, "--part", "1/2", "-m", "plain", "2", NULL),
                       "--part 1/2: n = 2 has 1 work unit, so M can be at most 1");
    o = run_cli(NULL, "--part", "1/1", "-m", "plain", "2", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "0\n");
    expect_usage_error(run_cli(NULL, "--checkpoint", "x.ckpt", "8", "9", NULL), "one board size");
    expect_usage_error(run_cli(NULL, "--checkpoint-interval=soon", "8", NULL), "seconds");
}


/* ------------------------------------------------------------------------
 * GNU option handling
 * ------------------------------------------------------------------------ */
/* Durations in words: the unit that fits, and never "0.0" however short;
 * an estimate below a tenth of a second is said to be under it. */
static void test_durations_in_words(void **state)
{
    static const struct {
        double seconds;
        const char *words;
    } cases[] = {{0.0, "0 seconds"},        {0.0004, "0.0004 seconds"},
                 {0.034, "0.034 seconds"},  {0.099, "0.099 seconds"},
                 {0.1, "0.1 seconds"},      {1.49, "1.5 seconds"},
                 {42.0, "42 seconds"},      {95.0, "1.6 minutes"},
                 {7200.0, "2.0 hours"},     {86400.0 * 3, "3.0 days"},
                 {31557600.0 * 20, "20 years"}};
    nq_estimate_result e = NQ_ESTIMATE_RESULT_INIT;
    char buf[200];
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_format_duration(buf, sizeof buf, cases[i].seconds);
        assert_string_equal(buf, cases[i].words);
    }
    e.threads = 1;
    e.kind = NQ_ESTIMATE_EXACT;
    e.seconds = e.low = e.high = 0.004;
    cli_estimate_sentence(buf, sizeof buf, &e, 2u << 20);
    assert_string_equal(buf, "under 0.1 seconds with 1 thread, 2.0 MiB of memory");
    /* an interval that reaches past it is given, without "0.0" */
    e.kind = NQ_ESTIMATE_SAMPLED;
    e.seconds = 0.05;
    e.low = 0.02;
    e.high = 0.3;
    e.threads = 2;
    cli_estimate_sentence(buf, sizeof buf, &e, 2u << 20);
    assert_string_equal(buf, "about 0.05 seconds (0.02 to 0.3 seconds) with 2 threads, "
                             "2.0 MiB of memory");
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
        cmocka_unit_test(test_unsupported_simd_level),
        cmocka_unit_test(test_double_dash),
        cmocka_unit_test(test_list_mode),
        cmocka_unit_test(test_list_canonical),
        cmocka_unit_test(test_one_and_random),
        cmocka_unit_test(test_verify_mode),
        cmocka_unit_test(test_verify_files),
        cmocka_unit_test(test_json_strings),
        cmocka_unit_test(test_empty_stdin_asks_for_nothing),
        cmocka_unit_test(test_check_mode),
        cmocka_unit_test(test_part_and_merge),
        cmocka_unit_test(test_durations_in_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
