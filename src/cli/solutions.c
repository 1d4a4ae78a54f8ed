/*
 * The command's solution modes: --list, --one, --random, --verify, --check.
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
#include "cli_internal.h"

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
    const nq_cli_opts *o;
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

int nq_cli_list(const nq_cli_opts *o, const nq_sizes *sizes, FILE *out,
                FILE *err)
{
    list_ctx c;
    int status = NQ_EXIT_OK;

    for (size_t i = 0; i < sizes->len; i++)
        if (o->compact && sizes->n[i] > 9) {
            nq_cli_error(err, "--compact needs n <= 9 (one digit per row); n = %u",
                         sizes->n[i]);
            return NQ_EXIT_USAGE;
        }
    memset(&c, 0, sizeof c);
    c.o = o;
    c.out = out;
    for (size_t i = 0; i < sizes->len && status == NQ_EXIT_OK; i++) {
        nq_list_options lo = NQ_LIST_OPTIONS_INIT;
        int rc;
        lo.canonical = o->canonical;
        lo.limit = o->limit;
        rc = nq_list(NULL, sizes->n[i], &lo, list_one, &c);
        if (c.failed) {
            status = nq_cli_flush(out, err);
            if (status == NQ_EXIT_OK) {
                nq_cli_error(err, "out of memory");
                status = NQ_EXIT_FAILURE;
            }
        } else if (rc != NQ_OK) {
            nq_cli_error(err, "n = %u: %s", sizes->n[i], nq_strerror(rc));
            status = NQ_EXIT_FAILURE;
        } else {
            status = nq_cli_flush(out, err);
        }
    }
    free(c.buf.p);
    return status;
}

/* ------------------------------------------------------------------------
 * --one and --random
 * ------------------------------------------------------------------------ */
static uint64_t default_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000007) ^ (uint64_t)ts.tv_nsec ^
           ((uint64_t)getpid() << 32);
}

int nq_cli_construct(const nq_cli_opts *o, FILE *out, FILE *err)
{
    char q[64];
    uint64_t n;
    uint32_t *cols = NULL;
    line_buf buf = {NULL, 0, 0};
    int rc, status;

    if (o->noperands != 1) {
        nq_cli_error(err, "--%s takes exactly one board size, e.g. 'nqueens --%s 1000'",
                     o->mode_name, o->mode_name);
        return NQ_EXIT_USAGE;
    }
    if (nq_cli_parse_u64(&n, o->operands[0], strlen(o->operands[0])) != 0 ||
        n > UINT32_MAX) {
        nq_cli_error(err, "'%s' is not a board size (expected 0..%lu)",
                     nq_cli_quote(q, sizeof q, o->operands[0], strlen(o->operands[0])),
                     (unsigned long)UINT32_MAX);
        return NQ_EXIT_USAGE;
    }
    if (o->compact && n > 9) {
        nq_cli_error(err, "--compact needs n <= 9 (one digit per row)");
        return NQ_EXIT_USAGE;
    }
    if (n > 0 && (n > SIZE_MAX / sizeof *cols ||
                  (cols = malloc((size_t)n * sizeof *cols)) == NULL)) {
        nq_cli_error(err, "out of memory for n = %llu", (unsigned long long)n);
        return NQ_EXIT_FAILURE;
    }
    if (o->mode == NQ_MODE_ONE)
        rc = nq_construct(cols, (size_t)n);
    else
        rc = nq_random(cols, (size_t)n, o->has_seed ? o->seed : default_seed(),
                       o->max_steps);
    if (rc == NQ_ENOSOLUTION) {
        nq_cli_error(err, "n = %llu has no solution", (unsigned long long)n);
        status = NQ_EXIT_FAILURE;
    } else if (rc == NQ_ELIMIT) {
        nq_cli_error(err, "n = %llu: no solution found within the step limit "
                          "(raise --max-steps or try another --seed)",
                     (unsigned long long)n);
        status = NQ_EXIT_FAILURE;
    } else if (rc != NQ_OK) {
        nq_cli_error(err, "n = %llu: %s", (unsigned long long)n, nq_strerror(rc));
        status = NQ_EXIT_FAILURE;
    } else if (format_placement(&buf, cols, (size_t)n, o->board, o->compact) != 0) {
        nq_cli_error(err, "out of memory");
        status = NQ_EXIT_FAILURE;
    } else {
        fwrite(buf.p, 1, buf.len, out);
        status = nq_cli_flush(out, err);
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

int nq_cli_verify(const nq_cli_opts *o, FILE *in, FILE *out, FILE *err)
{
    uint64_t want_n = 0, lineno = 0, valid = 0, invalid = 0, malformed = 0;
    int have_n = 0, status = NQ_EXIT_OK, rc;
    line_buf line = {NULL, 0, 0};
    char q[64];

    if (o->noperands > 1) {
        nq_cli_error(err, "--verify takes at most one board size (the length every line must have)");
        return NQ_EXIT_USAGE;
    }
    if (o->noperands == 1) {
        if (nq_cli_parse_u64(&want_n, o->operands[0], strlen(o->operands[0])) != 0) {
            nq_cli_error(err, "'%s' is not a board size",
                         nq_cli_quote(q, sizeof q, o->operands[0], strlen(o->operands[0])));
            return NQ_EXIT_USAGE;
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
            nq_cli_error(err, "line %llu: not a placement: %s",
                         (unsigned long long)lineno, why);
            malformed++;
            continue;
        }
        if (rc != NQ_OK) {
            nq_cli_error(err, "line %llu: %s", (unsigned long long)lineno, nq_strerror(rc));
            free(line.p);
            return NQ_EXIT_FAILURE;
        }
        if (have_n && n != want_n) {
            fprintf(out, "line %llu: invalid: wrong length: %llu queens, expected %llu\n",
                    (unsigned long long)lineno, (unsigned long long)n,
                    (unsigned long long)want_n);
            invalid++;
        } else if ((rc = nq_verify(&v, cols, n)) != NQ_OK) {
            nq_cli_error(err, "line %llu: %s", (unsigned long long)lineno, nq_strerror(rc));
            free(cols);
            free(line.p);
            return NQ_EXIT_FAILURE;
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
        nq_cli_error(err, "out of memory");
        return NQ_EXIT_FAILURE;
    }
    if (rc == -2) {
        nq_cli_error(err, "cannot read standard input: %s", strerror(errno));
        return NQ_EXIT_USAGE;
    }
    if (lineno == 0) {
        nq_cli_error(err, "standard input holds no placement");
        return NQ_EXIT_USAGE;
    }
    fprintf(out, "%llu valid, %llu invalid, %llu malformed\n",
            (unsigned long long)valid, (unsigned long long)invalid,
            (unsigned long long)malformed);
    if (nq_cli_flush(out, err) != NQ_EXIT_OK)
        return NQ_EXIT_FAILURE;
    if (malformed)
        status = NQ_EXIT_USAGE;
    else if (invalid)
        status = NQ_EXIT_FAILURE;
    return status;
}

/* ------------------------------------------------------------------------
 * --check
 * ------------------------------------------------------------------------ */
int nq_cli_check(const nq_cli_opts *o, const nq_sizes *sizes, FILE *out,
                 FILE *err)
{
    nq_count_options co = nq_cli_count_options(o);
    int mismatches = 0;

    if (o->format == NQ_FORMAT_LABELS || o->format == NQ_FORMAT_BARE)
        fputs("n\ttotal\tunique\tknown_total\tknown_unique\tstatus\n", out);
    for (size_t i = 0; i < sizes->len; i++) {
        unsigned n = sizes->n[i];
        nq_count_result r;
        uint64_t kt = 0, ku = 0;
        int known = nq_known(&kt, &ku, n) == NQ_OK;
        int rc = nq_count(&r, n, &co);
        const char *verdict;
        char unique[24] = "-", ktext[24] = "-", utext[24] = "-";

        if (rc != NQ_OK) {
            nq_cli_error(err, "n = %u: %s", n, nq_strerror(rc));
            return NQ_EXIT_FAILURE;
        }
        if (!known)
            verdict = "unknown";
        else if (r.total != kt || (r.has_unique && r.unique != ku))
            verdict = "MISMATCH";
        else
            verdict = "ok";
        if (known && strcmp(verdict, "MISMATCH") == 0)
            mismatches++;
        if (r.has_unique)
            snprintf(unique, sizeof unique, "%llu", (unsigned long long)r.unique);
        if (known) {
            snprintf(ktext, sizeof ktext, "%llu", (unsigned long long)kt);
            snprintf(utext, sizeof utext, "%llu", (unsigned long long)ku);
        }
        if (o->format == NQ_FORMAT_JSON) {
            fprintf(out, "{\"n\":%u,\"total\":%llu", n, (unsigned long long)r.total);
            if (r.has_unique)
                fprintf(out, ",\"unique\":%s", unique);
            if (known)
                fprintf(out, ",\"known_total\":%s,\"known_unique\":%s", ktext, utext);
            fprintf(out, ",\"method\":\"%s\",\"status\":\"%s\"}\n",
                    nq_method_name(r.method), verdict);
        } else {
            fprintf(out, "%u\t%llu\t%s\t%s\t%s\t%s\n", n,
                    (unsigned long long)r.total, unique, ktext, utext, verdict);
        }
        if (nq_cli_flush(out, err) != NQ_EXIT_OK)
            return NQ_EXIT_FAILURE;
    }
    if (mismatches) {
        nq_cli_error(err, "%d count%s differ from the known values", mismatches,
                     mismatches == 1 ? "" : "s");
        return NQ_EXIT_FAILURE;
    }
    return NQ_EXIT_OK;
}
