/* Helpers of the command's unit tests: nq_cli_main() run with temporary
 * files standing in for stdin, stdout and stderr, and the checks of what
 * an error looks like. */
#ifndef TEST_CLI_RUN_H
#define TEST_CLI_RUN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nqueens.h"

typedef struct outcome {
    int status;
    char out[8192];
    char err[8192];
} outcome;

static inline void slurp(char *buf, size_t size, FILE *f)
{
    size_t got;
    rewind(f);
    got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
}

/* Runs the command with a NULL-terminated argument list and `input` on stdin. */
static inline outcome run_cli(const char *input, ...)
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

/* Removes every ',"seconds":D.DDD' from a JSON output (the time varies),
 * after checking that each line that should carry one does. */
static inline const char *no_seconds(char *s)
{
    char *p;
    while ((p = strstr(s, ",\"seconds\":")) != NULL) {
        char *q = p + 11;
        assert_true(*q >= '0' && *q <= '9');
        while ((*q >= '0' && *q <= '9') || *q == '.')
            q++;
        memmove(p, q, strlen(q) + 1);
    }
    return s;
}

#define HINT "Try 'nqueens --help' for more information.\n"

/* Status 2, nothing on stdout, one line on stderr that starts with
 * "nqueens: " and mentions `needle`, then `rest` (and nothing else). */
static inline void expect_status2(outcome o, const char *needle, const char *rest)
{
    const char *nl;
    assert_int_equal(o.status, 2);
    assert_string_equal(o.out, "");
    assert_memory_equal(o.err, "nqueens: ", 9);
    nl = strchr(o.err, '\n');
    assert_non_null(nl);
    if (strcmp(nl + 1, rest) != 0)
        fail_msg("stderr '%s' should end with '%s' after its first line", o.err, rest);
    if (needle && !strstr(o.err, needle))
        fail_msg("stderr '%s' does not mention '%s'", o.err, needle);
}

/* A mistake on the command line: the message, then the "Try 'nqueens
 * --help'" line. */
static inline void expect_usage_error(outcome o, const char *needle)
{
    expect_status2(o, needle, HINT);
}

/* Input that cannot be read (a line of standard input, a file): the
 * message alone; the command line was right. */
static inline void expect_input_error(outcome o, const char *needle)
{
    expect_status2(o, needle, "");
}


/* The lines of s: its newlines. */
static inline size_t count_lines(const char *s)
{
    size_t k = 0;
    for (; *s; s++)
        k += *s == '\n';
    return k;
}

#endif
