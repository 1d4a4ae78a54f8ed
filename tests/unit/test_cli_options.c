/* The command's options: combined and abbreviated forms, getopt's own
 * diagnostics, conflicts between modes and options, help and version
 * texts, a closed pipe, escaped file names and --estimate, through
 * nq_cli_main() (tests/helpers/test_cli_run.h). */
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
#include "cli_progress.h"
#include "nqueens.h"
#include "test_cli_run.h"

static void test_combined_and_abbreviated_options(void **state)
{
    outcome o = run_cli(NULL, "-ul", "8", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "n\ttotal\tunique\n8\t92\t12\n");
    o = run_cli(NULL, "-uj2", "8", NULL);
    assert_string_equal(o.out, "12\n");
    o = run_cli(NULL, "--uni", "8", NULL);
    assert_string_equal(o.out, "12\n");
    o = run_cli(NULL, "--thr=1", "8", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "92\n");
    o = run_cli(NULL, "--thr", "1", "--meth", "plain", "9", NULL);
    assert_string_equal(o.out, "352\n");
    /* --jobs, the long spelling of -j beside --threads */
    o = run_cli(NULL, "--jobs", "1", "-m", "plain", "9", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "352\n");
    o = run_cli(NULL, "--jobs=2", "-uq", "8", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "12\n");
    assert_string_equal(o.err, "");
    /* options after operands (permutation), and 0 threads = all CPUs */
    o = run_cli(NULL, "8", "-j0", "9", "--threads=0", "--unique", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "12\n46\n");
    /* after "--" everything is an operand */
    expect_usage_error(run_cli(NULL, "--", "8", "-u", NULL), "'-u'");
}

/* Every usage error ends with the hint line. */
static void expect_hinted(outcome o, const char *line)
{
    char want[512];
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    snprintf(want, sizeof want, "nqueens: %s\nTry 'nqueens --help' for more information.\n",
             line);
    assert_string_equal(o.err, want);
}

static void test_getopt_diagnostics(void **state)
{
    (void)state;
    expect_hinted(run_cli(NULL, "-j", NULL), "option requires an argument -- 'j'");
    expect_hinted(run_cli(NULL, "8", "--thr", NULL), "option '--thr' requires an argument");
    expect_hinted(run_cli(NULL, "--nope", NULL), "unrecognized option '--nope'");
    expect_hinted(run_cli(NULL, "--nope=3", NULL), "unrecognized option '--nope'");
    expect_hinted(run_cli(NULL, "-uz", "8", NULL), "invalid option -- 'z'");
    expect_hinted(run_cli(NULL, "--uni=1", "8", NULL), "option '--uni' doesn't allow an argument");
    expect_hinted(run_cli(NULL, "--li", "8", NULL),
                  "option '--li' is ambiguous; possibilities: '--list' '--limit'");
    expect_hinted(run_cli(NULL, "--thr=x", "8", NULL),
                  "thread count 'x' for --thr is not a whole number");
    expect_hinted(run_cli(NULL, "-j2000", "8", NULL),
                  "thread count '2000' for -j is out of range (0..1024)");
    expect_hinted(run_cli(NULL, "--jobs=many", "8", NULL),
                  "thread count 'many' for --jobs is not a whole number");
    expect_hinted(run_cli(NULL, "8", "--jobs", NULL), "option '--jobs' requires an argument");
    expect_hinted(run_cli(NULL, "--quiet=1", "8", NULL),
                  "option '--quiet' doesn't allow an argument");
    expect_hinted(run_cli(NULL, "--meth=fast", "8", NULL),
                  "unknown method 'fast' for --meth (expected plain, symmetry or join)");
    expect_hinted(run_cli(NULL, "-1", NULL), "'-1' is not a board size: sizes are not negative");
    expect_hinted(run_cli(NULL, "abc", NULL),
                  "'abc' is not a board size (expected 0..28 or a range A-B)");
    /* untrusted text is escaped to one printable line */
    expect_hinted(run_cli(NULL, "--no\npe", NULL), "unrecognized option '--no\\x0ape'");
    expect_hinted(run_cli(NULL, "-u\033", "8", NULL), "invalid option -- '\\x1b'");
}

static void test_many_runs_reset_getopt(void **state)
{
    (void)state;
    /* a failing parse in the middle of a cluster must not leak into the
     * next run */
    for (int i = 0; i < 3; i++) {
        outcome o = run_cli(NULL, "-uzj2", "8", NULL);
        assert_int_equal(o.status, 2);
        o = run_cli(NULL, "-uj2", "8", NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, "12\n");
    }
}

/* ------------------------------------------------------------------------
 * Conflicts: each option against each mode. The matrix is the decision,
 * written out here on its own; the command must agree with it.
 * ------------------------------------------------------------------------ */
static const char *const mode_args[] = {NULL, "--list", "--one", "--random",
                                        "--verify", "--check", "--merge", "--estimate"};
static const char *const mode_operand[] = {"4", "4", "4", "8", NULL, "4", NULL, "4"};

static const struct {
    const char *arg;   /* the option, with a valid value */
    const char *modes; /* count list one random verify check merge estimate */
} matrix[] = {
    {"--unique", "x.....xx"},
    {"--max-memory=1G", "x....x.x"},
    {"--labels", "x....xxx"},
    {"--json", "xxxxxxxx"},
    {"--format=json", "xxxxxxxx"},
    {"--threads=1", "x....x.x"},
    {"--jobs=1", "x....x.x"},
    {"--quiet", "xxxxxxxx"},
    {"--method=symmetry", "x....x.x"},
    {"--simd=none", "x....x.x"},
    {"--progress", "x......."},
    {"--no-progress", "x......."},
    {"--checkpoint=/nonexistent-nqueens-dir/c", "x......."},
    {"--part=1/2", "x......."},
    {"--board", ".xxx...."},
    {"--compact", ".xxx...."},
    {"--canonical", ".x......"},
    {"--limit=1", ".x......"},
    {"--seed=1", "...x...."},
    {"--max-steps=100000", "...x...."},
};

static void test_conflict_matrix(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof matrix / sizeof matrix[0]; i++) {
        for (int m = 0; m < 8; m++) {
            char name[64], want[160];
            outcome o;
            size_t len = strcspn(matrix[i].arg, "=");
            memcpy(name, matrix[i].arg, len);
            name[len] = '\0';
            if (m == 0)
                o = run_cli(NULL, matrix[i].arg, mode_operand[m], NULL);
            else if (mode_operand[m])
                o = run_cli(NULL, mode_args[m], matrix[i].arg, mode_operand[m], NULL);
            else
                o = run_cli("2 4 1 3\n", mode_args[m], matrix[i].arg, NULL);
            if (matrix[i].modes[m] == 'x') {
                if (strstr(o.err, "cannot be used with") || strstr(o.err, " needs --"))
                    fail_msg("%s %s refused: %s", mode_args[m] ? mode_args[m] : "(count)",
                             matrix[i].arg, o.err);
                continue;
            }
            if (m == 0)
                snprintf(want, sizeof want, "%s needs --", name);
            else
                snprintf(want, sizeof want, "%s cannot be used with %s", name, mode_args[m]);
            if (o.status != 2 || !strstr(o.err, want) || o.out[0])
                fail_msg("%s %s: status %d, stderr '%s', want '%s'",
                         mode_args[m] ? mode_args[m] : "(count)", matrix[i].arg, o.status,
                         o.err, want);
        }
    }
}

static void test_conflict_pairs(void **state)
{
    (void)state;
    expect_hinted(run_cli(NULL, "--list", "--board", "--compact", "4", NULL),
                  "--board cannot be used with --compact");
    expect_hinted(run_cli(NULL, "--checkpoint-interval=5", "8", NULL),
                  "--checkpoint-interval needs --checkpoint");
    expect_hinted(run_cli(NULL, "--random", "--check", "8", NULL),
                  "--check cannot be used with --random");
    expect_hinted(run_cli(NULL, "--merge", "--estimate", NULL),
                  "--estimate cannot be used with --merge");
    expect_hinted(run_cli(NULL, "--limit=2", "8", NULL), "--limit needs --list");
    expect_hinted(run_cli(NULL, "--board", "8", NULL), "--board needs --list, --one or --random");
    expect_hinted(run_cli(NULL, "-u", "-m", "plain", "8", NULL),
                  "--unique needs the symmetry method (the plain method counts totals only)");
    /* drawings are for people, JSON for programs; the solution modes have
     * no labels */
    expect_hinted(run_cli(NULL, "--list", "--board", "--json", "4", NULL),
                  "--board cannot be used with --json");
    expect_hinted(run_cli(NULL, "--format=json", "--one", "--compact", "5", NULL),
                  "--compact cannot be used with --json");
    expect_hinted(run_cli(NULL, "--random", "-f", "labels", "8", NULL),
                  "--format=labels cannot be used with --random");
    expect_hinted(run_cli("2 4 1 3\n", "--verify", "--format=labels", NULL),
                  "--format=labels cannot be used with --verify");
    /* the last format wins there too */
    {
        outcome o = run_cli(NULL, "--list", "--board", "--json", "--format=bare", "4", NULL);
        assert_int_equal(o.status, 0);
        assert_string_equal(o.out, ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n");
    }
}

/* Of --labels, --json and --format, and of --progress and --no-progress,
 * the last one wins. */
static void test_last_format_wins(void **state)
{
    outcome o = run_cli(NULL, "--json", "--labels", "8", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "n\ttotal\n8\t92\n");
    o = run_cli(NULL, "--labels", "--format=bare", "8", NULL);
    assert_string_equal(o.out, "92\n");
    o = run_cli(NULL, "-f", "labels", "--json", "8", NULL);
    assert_string_equal(no_seconds(o.out), "{\"n\":8,\"total\":92,\"method\":\"symmetry\",\"device\":\"cpu\"}\n");
    o = run_cli(NULL, "--progress", "--no-progress", "8", NULL);
    assert_string_equal(o.err, "");
    /* --quiet turns progress off, and a later --progress on again */
    o = run_cli(NULL, "--progress", "-q", "-j1", "12", NULL);
    assert_string_equal(o.out, "14200\n");
    assert_string_equal(o.err, "");
    o = run_cli(NULL, "-q", "--progress", "-j1", "12", NULL);
    assert_string_equal(o.out, "14200\n");
    assert_non_null(strstr(o.err, "n = 12: "));
    o = run_cli(NULL, "--threads=1", "--jobs=3", "--estimate", "--labels", "6", NULL);
    assert_non_null(strstr(o.out, "\t3\t"));
    o = run_cli(NULL, "--jobs=3", "-j", "1", "--estimate", "--labels", "6", NULL);
    assert_non_null(strstr(o.out, "\t1\t"));
}

/* ------------------------------------------------------------------------
 * Help, version, limits, closed pipes, file names
 * ------------------------------------------------------------------------ */
static void test_help_text(void **state)
{
    outcome o = run_cli(NULL, "--help", NULL);
    const char *end;
    (void)state;
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.out, "nqueens-mpi"));
    assert_non_null(strstr(o.out, "  -j, --threads=N       "));
    assert_non_null(strstr(o.out, "M: plain, symmetry, join\n"));
    assert_non_null(strstr(o.out, "LEVEL: auto, none, avx2, avx512\n"));
    assert_non_null(strstr(o.out, "      --estimate        "));
    end = strstr(o.out, "Report bugs to: ");
    assert_non_null(end);
    assert_non_null(strstr(end, "home page: <"));
    for (const char *p = o.out; *p; p = strchr(p, '\n') + 1) {
        size_t len = strcspn(p, "\n");
        if (len > 79)
            fail_msg("help line longer than 79 columns: %.*s", (int)len, p);
    }
}

static void test_version_text(void **state)
{
    outcome o = run_cli(NULL, "--version", NULL);
    char first[64];
    (void)state;
    assert_int_equal(o.status, 0);
    snprintf(first, sizeof first, "nqueens %s\nCopyright (c) ", nq_version_string());
    assert_memory_equal(o.out, first, strlen(first));
    assert_non_null(strstr(o.out, "\nLicense MIT"));
    o = run_cli(NULL, "--vers", "--list", "--part=1/2", NULL); /* help and version win */
    assert_int_equal(o.status, 0);
}

static void test_limit_zero(void **state)
{
    outcome o = run_cli(NULL, "--list", "--limit=0", "8", "6", NULL);
    (void)state;
    assert_int_equal(o.status, 0);
    assert_string_equal(o.out, "");
    assert_string_equal(o.err, "");
}

/* Runs the command with stdout a pipe whose reader has gone. */
static outcome run_closed_pipe(const char *mode, const char *n)
{
    outcome o;
    int fds[2];
    FILE *in = tmpfile(), *out, *err = tmpfile();
    char store[3][16], *argv[4];
    int argc = 0;

    assert_int_equal(pipe(fds), 0);
    close(fds[0]);
    out = fdopen(fds[1], "w");
    assert_non_null(out);
    snprintf(store[0], sizeof store[0], "nqueens");
    argv[argc] = store[argc], argc++;
    if (mode) {
        snprintf(store[argc], sizeof store[argc], "%s", mode);
        argv[argc] = store[argc], argc++;
    }
    snprintf(store[argc], sizeof store[argc], "%s", n);
    argv[argc] = store[argc], argc++;
    argv[argc] = NULL;
    o.status = nq_cli_main(argc, argv, in, out, err);
    slurp(o.err, sizeof o.err, err);
    o.out[0] = '\0';
    fclose(in);
    fclose(out);
    fclose(err);
    return o;
}

static void test_closed_pipe_status(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN);
    const char *modes[][2] = {{NULL, "8"}, {"--list", "8"}, {"--one", "20"},
                              {"--check", "6"}, {"--estimate", "6"}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        outcome o = run_closed_pipe(modes[i][0], modes[i][1]);
        if (o.status != 141 || o.err[0])
            fail_msg("%s: status %d, stderr '%s'", modes[i][0] ? modes[i][0] : "count",
                     o.status, o.err);
    }
    signal(SIGPIPE, SIG_DFL);
}

static void test_file_names_escaped(void **state)
{
    outcome o = run_cli(NULL, "--merge", "no\nfile\033[31m", NULL);
    (void)state;
    assert_int_equal(o.status, 2);
    assert_string_equal(o.err, "nqueens: no\\x0afile\\x1b[31m: No such file or directory\n");
    o = run_cli(NULL, "--checkpoint=/nonexistent\ndir/c", "8", NULL);
    assert_int_not_equal(o.status, 0);
    assert_non_null(strstr(o.err, "nqueens: /nonexistent\\x0adir/c: "));
    assert_int_equal(count_lines(o.err), 1);
}

/* ------------------------------------------------------------------------
 * --estimate
 * ------------------------------------------------------------------------ */
static void test_estimate(void **state)
{
    outcome o = run_cli(NULL, "--estimate", "-j1", "4", "10", NULL);
    char *second;
    (void)state;
    assert_int_equal(o.status, 0);
    /* small counts are sampled whole: a sentence for each, in words */
    second = strchr(o.out, '\n');
    assert_non_null(second);
    assert_memory_equal(o.out, "n = 4: under 0.1 seconds with 1 thread, ", 40);
    assert_memory_equal(second + 1, "n = 10: ", 8);
    assert_non_null(strstr(second + 1, " with 1 thread, "));
    assert_int_equal(count_lines(o.out), 2);
    o = run_cli(NULL, "--estimate", "--json", "-j1", "-m", "plain", "9", NULL);
    assert_int_equal(o.status, 0);
    assert_memory_equal(o.out, "{\"n\":9,\"seconds\":", 17);
    assert_non_null(strstr(o.out, "\"threads\":1,\"method\":\"plain\",\"device\":\"cpu\","
                                  "\"units\":"));
    assert_non_null(strstr(o.out, "\"exact\":true,\"lower_bound\":false,\"memory\":"));
    /* the default for totals at n = 18, the symmetry method with -u */
    o = run_cli(NULL, "--estimate", "--labels", "-j1", "18", NULL);
    assert_non_null(strstr(o.out, "\t1\tjoin\t"));
    o = run_cli(NULL, "--estimate", "--labels", "-j1", "-u", "18", NULL);
    assert_non_null(strstr(o.out, "\t1\tsymmetry\t"));
    o = run_cli(NULL, "--estimate", "--labels", "5", NULL);
    assert_memory_equal(o.out, "n\tseconds\tthreads\tmethod\tlow\thigh\tcore_hours\testimate\n5\t",
                        56);
    expect_usage_error(run_cli(NULL, "--estimate", "29", NULL), "out of range");
}

/* ------------------------------------------------------------------------
 * progress: "preparing" until this run has finished a unit
 * ------------------------------------------------------------------------ */
static void progress_line(char *buf, size_t size, uint64_t done, uint64_t resumed,
                          double elapsed)
{
    cli_progress_state st;
    nq_progress p = {NQ_PROGRESS_VERSION, done, 1352078, resumed, elapsed};
    FILE *f = tmpfile();
    size_t got;
    assert_non_null(f);
    cli_progress_init(&st, f, 1); /* a file: plain lines */
    st.n = 24;
    cli_progress(&p, &st);
    rewind(f);
    got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
    fclose(f);
}

static void test_progress_preparing(void **state)
{
    char buf[256];
    (void)state;
    progress_line(buf, sizeof buf, 0, 0, 12.0);
    assert_string_equal(buf, "nqueens: n = 24: preparing, 0/1352078 units, elapsed 0:00:12\n");
    /* a resumed checkpoint's units are not this run's */
    progress_line(buf, sizeof buf, 40, 40, 12.0);
    assert_string_equal(buf, "nqueens: n = 24: preparing, 40/1352078 units, elapsed 0:00:12\n");
    /* from the first unit on, the usual line */
    progress_line(buf, sizeof buf, 41, 40, 12.0);
    assert_memory_equal(buf, "nqueens: n = 24: 41/1352078 units, 0.0%, elapsed 0:00:12, ETA ",
                        62);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_combined_and_abbreviated_options),
        cmocka_unit_test(test_getopt_diagnostics),
        cmocka_unit_test(test_many_runs_reset_getopt),
        cmocka_unit_test(test_conflict_matrix),
        cmocka_unit_test(test_conflict_pairs),
        cmocka_unit_test(test_last_format_wins),
        cmocka_unit_test(test_help_text),
        cmocka_unit_test(test_version_text),
        cmocka_unit_test(test_limit_zero),
        cmocka_unit_test(test_closed_pipe_status),
        cmocka_unit_test(test_file_names_escaped),
        cmocka_unit_test(test_estimate),
        cmocka_unit_test(test_progress_preparing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
