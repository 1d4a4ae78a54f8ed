/*
 * Board sizes and ranges, checked in full before anything is counted, so
 * that a bad operand never leaves half a result on stdout.
 */
#include "cli_sizes.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nqc_stream.h"
#include "nqc_u64.h"
#include "nqueens.h"
#include "cli_output.h"

static int push_size(cli_sizes *v, unsigned n)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        unsigned *p = realloc(v->n, cap * sizeof *p);
        if (!p)
            return -1;
        v->n = p;
        v->cap = cap;
    }
    v->n[v->len++] = n;
    return 0;
}

/* One board size: 0, -1 (not a number) or -2 (out of range). */
static int parse_size(unsigned *out, const char *s, size_t len)
{
    uint64_t v;
    int rc = nqc_parse_u64(&v, s, len);
    if (rc == -2 || (rc == 0 && v > NQ_MAX_N))
        return -2;
    if (rc != 0)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* Reports why s is not a size or range; rc as parse_size() gave it. */
static void size_error(FILE *err, const char *where, const char *s, size_t len,
                       const char *bad, size_t badlen, int rc, int range)
{
    char q[64];
    if (rc == -2)
        cli_error(err, "%sboard size %s is out of range (0..%d)", where,
                  cli_quote(q, sizeof q, bad, badlen), NQ_MAX_N);
    else if (range)
        cli_error(err, "%s'%s' is not a board size or a range A-B", where,
                  cli_quote(q, sizeof q, s, len));
    else
        cli_error(err, "%s'%s' is not a board size (expected 0..%d or a range A-B)",
                  where, cli_quote(q, sizeof q, s, len), NQ_MAX_N);
}

/* 1 if s[0..len) is one or more digits. */
static int is_number(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return len > 0;
}

int cli_parse_sizes(cli_sizes *v, const char *s, size_t len, FILE *err,
                    const char *where)
{
    char q[64];
    const char *dash = len ? memchr(s + 1, '-', len - 1) : NULL;
    unsigned a, b;
    int rc;

    if (len == 0) {
        cli_error(err, "%sempty operand: expected a board size (0..%d) or a range A-B",
                  where, NQ_MAX_N);
        return -1;
    }
    /* "-5" is a negative number; "-m" (after "--", or read from standard
     * input) is no option here, and is refused below as any word is */
    if (s[0] == '-' && is_number(s + 1, len - 1)) {
        cli_error(err, "%s'%s' is not a board size: sizes are not negative",
                  where, cli_quote(q, sizeof q, s, len));
        return -1;
    }
    if (!dash) {
        if ((rc = parse_size(&a, s, len)) != 0) {
            size_error(err, where, s, len, s, len, rc, 0);
            return -1;
        }
        b = a;
    } else {
        size_t la = (size_t)(dash - s);
        if ((rc = parse_size(&a, s, la)) != 0) {
            size_error(err, where, s, len, s, la, rc, 1);
            return -1;
        }
        if ((rc = parse_size(&b, dash + 1, len - la - 1)) != 0) {
            size_error(err, where, s, len, dash + 1, len - la - 1, rc, 1);
            return -1;
        }
        if (a > b) {
            cli_error(err, "%srange '%s' is reversed (write %u-%u)", where,
                      cli_quote(q, sizeof q, s, len), b, a);
            return -1;
        }
    }
    for (unsigned n = a;; n++) {
        if (push_size(v, n) != 0) {
            cli_error(err, "out of memory");
            return -1;
        }
        if (n == b)
            break;
    }
    return 0;
}

/* The most standard input read for sizes: every size up to 28, many
 * times over, fits; an endless stream (`yes 8 | nqueens`) is refused
 * rather than read until memory runs out. */
#define CLI_SIZES_MAX_INPUT (16 << 20)

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

int cli_read_sizes(cli_sizes *v, FILE *in, FILE *err)
{
    char *buf, where[48];
    size_t len, i = 0, line = 1;
    int rc = nqc_read_all(&buf, &len, in, CLI_SIZES_MAX_INPUT);

    if (rc == -1) {
        cli_error(err, "out of memory");
        return -1;
    }
    if (rc == -3) {
        cli_error(err, "standard input holds more than %d MiB of sizes; refusing it",
                  CLI_SIZES_MAX_INPUT >> 20);
        return -1;
    }
    if (rc == -2) {
        cli_error(err, "cannot read standard input: %s", strerror(errno));
        return -1;
    }
    while (i < len) {
        size_t j;
        while (i < len && is_space(buf[i]))
            line += buf[i++] == '\n';
        if (i == len)
            break;
        j = i;
        while (j < len && !is_space(buf[j]))
            j++;
        snprintf(where, sizeof where, "line %zu: ", line);
        if (cli_parse_sizes(v, buf + i, j - i, err, where) != 0) {
            free(buf);
            return -1;
        }
        i = j;
    }
    free(buf);
    return 0;
}
