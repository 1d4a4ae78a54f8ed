/*
 * The solution modes of the command: --list, --one, --random, --verify.
 *
 * Placements are printed in the line format, the 1-based column of the
 * queen in each row ("1 5 8 6 3 7 2 4"), which --verify reads back; or, with
 * --compact and n <= 9, as one digit per row ("15863724"); or, with --board,
 * as a drawing of Q and '.', one row per line and a blank line between
 * boards. Lines are built in memory and written whole, so that a placement
 * of ten million queens prints in about a second.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "nqc_u64.h"
#include "cli_output.h"
#include "cli_solutions.h"

/* ------------------------------------------------------------------------
 * Writing placements
 * ------------------------------------------------------------------------ */
typedef struct line_buf {
    char *p;
    size_t len, cap;
} line_buf;

static int reserve(line_buf *b, size_t more)
{
    if (b->cap - b->len >= more)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < more) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

static size_t put_u64(char *dst, uint64_t v)
{
    char tmp[20];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < k; i++)
        dst[i] = tmp[k - 1 - i];
    return k;
}

/* Formats one placement into b (replacing its content). */
static int format_placement(line_buf *b, const uint32_t *cols, size_t n,
                            int board, int compact)
{
    b->len = 0;
    if (board) {
        if (n != 0 && n > (SIZE_MAX - 1) / (n + 1))
            return -1;
        if (reserve(b, n * (n + 1) + 1) != 0)
            return -1;
        for (size_t r = 0; r < n; r++) {
            memset(b->p + b->len, '.', n);
            b->p[b->len + cols[r]] = 'Q';
            b->len += n;
            b->p[b->len++] = '\n';
        }
        b->p[b->len++] = '\n'; /* a blank line after each board */
        return 0;
    }
    if (reserve(b, n * 11 + 1) != 0)
        return -1;
    for (size_t r = 0; r < n; r++) {
        if (r && !compact)
            b->p[b->len++] = ' ';
        b->len += put_u64(b->p + b->len, (uint64_t)cols[r] + 1);
    }
    b->p[b->len++] = '\n';
    return 0;
}

/* ------------------------------------------------------------------------
 * --list
 * ------------------------------------------------------------------------ */
typedef struct list_ctx {
    const cli_opts *o;
    FILE *out;
    line_buf buf;
    int failed; /* out of memory or a write error */
} list_ctx;

static int list_one(const uint32_t *cols, unsigned n, void *data)
{
    list_ctx *c = data;
    if (format_placement(&c->buf, cols, n, c->o->board, c->o->compact) != 0 ||
        fwrite(c->buf.p, 1, c->buf.len, c->out) != c->buf.len) {
        c->failed = 1;
        return 1; /* stop the listing */
    }
    return 0;
}

int cli_list(const cli_opts *o, const cli_sizes *sizes, FILE *out,
                FILE *err)
{
    list_ctx c;
    int status = CLI_EXIT_OK;

    for (size_t i = 0; i < sizes->len; i++)
        if (o->compact && sizes->n[i] > 9) {
            cli_usage_error(err, "--compact needs n <= 9 (one digit per row); n = %u",
                            sizes->n[i]);
            return CLI_EXIT_USAGE;
        }
    memset(&c, 0, sizeof c);
    c.o = o;
    c.out = out;
    /* --limit 0 lists nothing, as `head -n 0` prints nothing (the
     * library reads a limit of 0 as none) */
    for (size_t i = 0; i < sizes->len && status == CLI_EXIT_OK &&
                       !(o->has_limit && o->limit == 0); i++) {
        nq_list_options lo = NQ_LIST_OPTIONS_INIT;
        int rc;
        lo.canonical = o->canonical;
        lo.limit = o->limit;
        rc = nq_list(NULL, sizes->n[i], &lo, list_one, &c);
        if (c.failed) {
            status = cli_flush(out, err);
            if (status == CLI_EXIT_OK) {
                cli_error(err, "out of memory");
                status = CLI_EXIT_FAILURE;
            }
        } else if (rc != NQ_OK) {
            cli_error(err, "n = %u: %s", sizes->n[i], nq_strerror(rc));
            status = CLI_EXIT_FAILURE;
        } else {
            status = cli_flush(out, err);
        }
    }
    free(c.buf.p);
    return status;
}

/* ------------------------------------------------------------------------
 * --one and --random
 * ------------------------------------------------------------------------ */
int cli_construct(const cli_opts *o, FILE *out, FILE *err)
{
    char q[64];
    uint64_t n, max;
    uint32_t *cols = NULL;
    line_buf buf = {NULL, 0, 0};
    int rc, status;

    if (o->noperands != 1) {
        cli_usage_error(err, "--%s takes exactly one board size, e.g. 'nqueens --%s 1000'",
                        o->mode_name, o->mode_name);
        return CLI_EXIT_USAGE;
    }
    /* the bound of the library function that the mode calls: nq_random()
     * takes n < UINT32_MAX, nq_construct() n <= UINT32_MAX */
    max = o->mode == CLI_MODE_RANDOM ? UINT32_MAX - 1u : UINT32_MAX;
    if (nqc_parse_u64(&n, o->operands[0], strlen(o->operands[0])) != 0 || n > max) {
        cli_usage_error(err, "'%s' is not a board size for --%s (expected 0..%lu)",
                        CLI_QUOTE(q, o->operands[0]), o->mode_name, (unsigned long)max);
        return CLI_EXIT_USAGE;
    }
    if (o->compact && n > 9) {
        cli_usage_error(err, "--compact needs n <= 9 (one digit per row)");
        return CLI_EXIT_USAGE;
    }
    if (n > 0 && (n > SIZE_MAX / sizeof *cols ||
                  (cols = malloc((size_t)n * sizeof *cols)) == NULL)) {
        cli_error(err, "out of memory for n = %llu", (unsigned long long)n);
        return CLI_EXIT_FAILURE;
    }
    if (o->mode == CLI_MODE_ONE)
        rc = nq_construct(cols, (size_t)n);
    else
        rc = nq_random(cols, (size_t)n, o->has_seed ? o->seed : cli_clock_seed(),
                       o->max_steps);
    if (rc == NQ_ENOSOLUTION) {
        cli_error(err, "n = %llu has no solution", (unsigned long long)n);
        status = CLI_EXIT_FAILURE;
    } else if (rc == NQ_ELIMIT) {
        cli_error(err, "n = %llu: no solution found within the step limit "
                          "(raise --max-steps or try another --seed)",
                     (unsigned long long)n);
        status = CLI_EXIT_FAILURE;
    } else if (rc != NQ_OK) {
        cli_error(err, "n = %llu: %s", (unsigned long long)n, nq_strerror(rc));
        status = CLI_EXIT_FAILURE;
    } else if (format_placement(&buf, cols, (size_t)n, o->board, o->compact) != 0) {
        cli_error(err, "out of memory");
        status = CLI_EXIT_FAILURE;
    } else {
        fwrite(buf.p, 1, buf.len, out);
        status = cli_flush(out, err);
    }
    free(buf.p);
    free(cols);
    return status;
}

/* ------------------------------------------------------------------------
 * --verify
 * ------------------------------------------------------------------------ */
/* Reads one line of any length; the newline is dropped. 1 = a line,
 * 0 = end of input, -1 = out of memory, -2 = read error. */
static int read_line(line_buf *b, FILE *in)
{
    int c;
    b->len = 0;
    while ((c = getc(in)) != EOF) {
        if (c == '\n')
            return 1;
        if (b->len == b->cap && reserve(b, 1) != 0)
            return -1;
        b->p[b->len++] = (char)c;
    }
    if (ferror(in))
        return -2;
    return b->len > 0 ? 1 : 0;
}

int cli_verify(const cli_opts *o, FILE *in, FILE *out, FILE *err)
{
    uint64_t want_n = 0, lineno = 0, valid = 0, invalid = 0, malformed = 0;
    int have_n = 0, status = CLI_EXIT_OK, rc;
    line_buf line = {NULL, 0, 0};
    char q[64];

    /* '-' names standard input, where the placements come from anyway */
    for (size_t i = 0; i < o->noperands; i++) {
        const char *s = o->operands[i];
        if (strcmp(s, "-") == 0)
            continue;
        if (have_n) {
            cli_usage_error(err, "--verify takes at most one board size (the length "
                                 "every line must have)");
            return CLI_EXIT_USAGE;
        }
        if (nqc_parse_u64(&want_n, s, strlen(s)) != 0) {
            cli_usage_error(err, "'%s' is not a board size", CLI_QUOTE(q, s));
            return CLI_EXIT_USAGE;
        }
        have_n = 1;
    }
    while ((rc = read_line(&line, in)) == 1) {
        uint32_t *cols = NULL;
        size_t n = 0;
        nq_placement_error pe = NQ_PLACEMENT_ERROR_INIT;
        nq_violation v = NQ_VIOLATION_INIT;
        char why[256];

        lineno++;
        rc = nq_parse_placement(&cols, &n, &pe, line.p, line.len);
        if (rc == NQ_EFORMAT) {
            nq_placement_error_format(why, sizeof why, &pe);
            cli_error(err, "line %llu: not a placement: %s",
                         (unsigned long long)lineno, why);
            malformed++;
            continue;
        }
        if (rc != NQ_OK) {
            cli_error(err, "line %llu: %s", (unsigned long long)lineno, nq_strerror(rc));
            free(line.p);
            return CLI_EXIT_FAILURE;
        }
        if (have_n && n != want_n) {
            fprintf(out, "line %llu: invalid: wrong length: %llu queens, expected %llu\n",
                    (unsigned long long)lineno, (unsigned long long)n,
                    (unsigned long long)want_n);
            invalid++;
        } else if ((rc = nq_verify(&v, cols, n)) != NQ_OK) {
            cli_error(err, "line %llu: %s", (unsigned long long)lineno, nq_strerror(rc));
            free(cols);
            free(line.p);
            return CLI_EXIT_FAILURE;
        } else if (v.fault != NQ_VERIFY_OK) {
            nq_violation_format(why, sizeof why, &v, cols, n);
            fprintf(out, "line %llu: invalid: %s\n", (unsigned long long)lineno, why);
            invalid++;
        } else {
            valid++;
        }
        free(cols);
    }
    free(line.p);
    if (rc == -1) {
        cli_error(err, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    if (rc == -2) {
        cli_error(err, "cannot read standard input: %s", strerror(errno));
        return CLI_EXIT_USAGE;
    }
    /* no line at all is no placement to refuse: "0 valid", as a filter
     * given nothing prints nothing wrong */
    fprintf(out, "%llu valid, %llu invalid, %llu malformed\n",
            (unsigned long long)valid, (unsigned long long)invalid,
            (unsigned long long)malformed);
    if ((status = cli_flush(out, err)) != CLI_EXIT_OK)
        return status;
    if (malformed)
        status = CLI_EXIT_USAGE;
    else if (invalid)
        status = CLI_EXIT_FAILURE;
    return status;
}

