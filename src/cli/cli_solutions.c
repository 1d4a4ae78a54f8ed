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
#include "cli_output.h"
#include "cli_signals.h"
#include "cli_solutions.h"
#include "nqc_plural.h"
#include "nqc_signal.h"
#include "nqc_u64.h"

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
 *
 * Placements are gathered into chunks of whole lines, and each chunk goes
 * out in one write (standard output is made unbuffered for it): whatever
 * ends the listing (a stop signal, a kill, a full disk), the output ends
 * with a whole line, except where the system itself cut a write short.
 * On a terminal each line goes out at once. SIGINT and the other stop
 * signals stop the listing: the lines gathered so far are written, and
 * one message says how many placements were listed.
 * ------------------------------------------------------------------------ */
#define LIST_CHUNK (64u << 10)

typedef struct list_ctx {
    const cli_opts *o;
    FILE *out;
    line_buf buf;     /* one placement */
    line_buf chunk;   /* whole lines not yet written */
    int each_line;    /* a terminal: write every line at once */
    int no_memory;
    int write_errno;  /* a write failed with this, or 0 */
} list_ctx;

/* Writes the chunk: 0, or -1 (write_errno set). */
static int write_chunk(list_ctx *c)
{
    int failed = c->chunk.len > 0 &&
                 fwrite(c->chunk.p, 1, c->chunk.len, c->out) != c->chunk.len;
    c->chunk.len = 0;
    if (failed || fflush(c->out) != 0 || ferror(c->out)) {
        c->write_errno = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

static int list_one(const uint32_t *cols, unsigned n, void *data)
{
    list_ctx *c = data;
    if (format_placement(&c->buf, cols, n, c->o->board, c->o->compact) != 0) {
        c->no_memory = 1;
        return 1; /* stop the listing */
    }
    if (c->chunk.len + c->buf.len > LIST_CHUNK && write_chunk(c) != 0)
        return 1;
    if (reserve(&c->chunk, c->buf.len) != 0) {
        c->no_memory = 1;
        return 1;
    }
    memcpy(c->chunk.p + c->chunk.len, c->buf.p, c->buf.len);
    c->chunk.len += c->buf.len;
    return c->each_line && write_chunk(c) != 0;
}

/* Writes the lines gathered for n and says how the listing of n ended (rc
 * from nq_list(), `listed` its count of placements): the status. */
static int list_ended(list_ctx *c, unsigned n, int rc, uint64_t listed, FILE *err)
{
    int sig = cli_caught_signal();

    if (!c->write_errno)
        write_chunk(c);
    if (c->write_errno) { /* the first thing to say: the output is short */
        errno = c->write_errno;
        return cli_flush(c->out, err);
    }
    if (c->no_memory) {
        cli_error(err, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    if (rc == NQ_OK)
        return CLI_EXIT_OK;
    if (rc == NQ_ECANCELED && sig) {
        cli_error(err, "interrupted by %s; %llu %s of n = %u listed", nqc_signal_name(sig),
                  (unsigned long long)listed, nqc_plural(listed, "placement", "placements"),
                  n);
        return 128 + sig;
    }
    cli_error(err, "n = %u: %s", n, nq_strerror(rc));
    return CLI_EXIT_FAILURE;
}

int cli_list(const cli_opts *o, const cli_sizes *sizes, FILE *out,
                FILE *err)
{
    list_ctx c;
    nq_cancel *stop;
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
    c.each_line = isatty(fileno(out));
    /* nothing was written to out yet: from now on each chunk is one write */
    setvbuf(out, NULL, _IONBF, 0);
    stop = cli_catch_signals();
    /* --limit 0 lists nothing, as `head -n 0` prints nothing (the
     * library reads a limit of 0 as none) */
    for (size_t i = 0; i < sizes->len && status == CLI_EXIT_OK &&
                       !(o->has_limit && o->limit == 0); i++) {
        nq_list_options lo = NQ_LIST_OPTIONS_INIT;
        uint64_t listed = 0;
        int rc;
        lo.canonical = o->canonical;
        lo.limit = o->limit;
        lo.stop = stop;
        rc = nq_list(&listed, sizes->n[i], &lo, list_one, &c);
        status = list_ended(&c, sizes->n[i], rc, listed, err);
    }
    cli_release_signals();
    free(c.buf.p);
    free(c.chunk.p);
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
        nq_parse_error pe;
        nq_violation v;
        char why[256];

        lineno++;
        rc = nq_parse_placement(&cols, &n, &pe, line.p, line.len);
        if (rc == NQ_EFORMAT) {
            nq_parse_error_format(why, sizeof why, &pe);
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
        } else if (v.fault != NQ_FAULT_NONE) {
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

