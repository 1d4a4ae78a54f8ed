/*
 * The solution modes of the command: --list, --one, --random, --verify.
 *
 * Placements are printed in the line format, the 1-based column of the
 * queen in each row ("1 5 8 6 3 7 2 4"), which --verify reads back; or, with
 * --compact and n <= 9, as one digit per row ("15863724"); or, with --board,
 * as a drawing of Q and '.', one row per line and a blank line between
 * boards; or, with --json, as an object whose "columns" are an array.
 * Lines are built in memory and written whole, so that a placement of ten
 * million queens prints in about a second. --verify reads the files named
 * (or standard input) and reports each line that is no solution, and then
 * how many were valid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_exit.h"
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

/* Formats one placement into b (replacing its content), as o asks: a
 * drawing (--board), one digit per row (--compact), the line format, or
 * with --json an object: `head`, its fields before the columns
 * ("{\"n\":8,"), then "columns":[1,5,...]. */
static int format_placement(line_buf *b, const uint32_t *cols, size_t n, const cli_opts *o,
                            const char *head)
{
    static const char open_columns[] = "\"columns\":[";
    const int json = o->format == CLI_FORMAT_JSON;
    size_t head_len = json ? strlen(head) + sizeof open_columns : 0;

    b->len = 0;
    if (o->board) {
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
    if (reserve(b, head_len + n * 11 + 3) != 0)
        return -1;
    if (json)
        b->len = (size_t)snprintf(b->p, b->cap, "%s%s", head, open_columns);
    for (size_t r = 0; r < n; r++) {
        if (r && json)
            b->p[b->len++] = ',';
        else if (r && !o->compact)
            b->p[b->len++] = ' ';
        b->len += put_u64(b->p + b->len, (uint64_t)cols[r] + 1);
    }
    if (json) {
        b->p[b->len++] = ']';
        b->p[b->len++] = '}';
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
    char head[32];    /* --json: the fields before the columns */
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
    if (format_placement(&c->buf, cols, n, c->o, c->head) != 0) {
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
        snprintf(c.head, sizeof c.head, "{\"n\":%u,", sizes->n[i]);
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
    uint64_t n, max, seed = o->has_seed ? o->seed : cli_clock_seed();
    uint32_t *cols = NULL;
    line_buf buf = {NULL, 0, 0};
    char head[64];
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
        rc = nq_random(cols, (size_t)n, seed, o->max_steps);
    /* --json: the seed of a random one, so that it can be drawn again */
    if (o->mode == CLI_MODE_ONE)
        snprintf(head, sizeof head, "{\"n\":%llu,", (unsigned long long)n);
    else
        snprintf(head, sizeof head, "{\"n\":%llu,\"seed\":%llu,", (unsigned long long)n,
                 (unsigned long long)seed);
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
    } else if (format_placement(&buf, cols, (size_t)n, o, head) != 0) {
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

/* Where the lines of --verify come from, and the tallies of every line
 * read from all of them. */
typedef struct verifier {
    const cli_opts *o;
    FILE *out, *err;
    uint64_t want_n;   /* with have_n: the length every line must have */
    int have_n;
    int named;         /* FILE operands given: lines are named "FILE:K" */
    uint64_t valid, invalid, malformed;
    line_buf line;
} verifier;

/* "line K", or "NAME:K" when files are named. */
static const char *where(char *buf, size_t size, const verifier *v, const char *name,
                         uint64_t lineno)
{
    if (v->named)
        snprintf(buf, size, "%s:%llu", name, (unsigned long long)lineno);
    else
        snprintf(buf, size, "line %llu", (unsigned long long)lineno);
    return buf;
}

/* The names of faults in JSON: nq_verify_fault's, then nq_placement_fault's. */
static const char *const fault_names[] = {"none", "range", "column", "diagonal"};
static const char *const parse_fault_names[] = {"none", "character", "zero", "overflow"};

/* Reports a line that is not a valid placement: `at` names it for the
 * text formats; with --json, `file` (as given; "-" for standard input)
 * and `lineno` do, and `fault` says what is wrong in one word. */
static void report_line(const verifier *v, const char *at, const char *file,
                        uint64_t lineno, int malformed, const char *fault, const char *why)
{
    if (v->o->format == CLI_FORMAT_JSON) {
        fputs("{\"file\":", v->out);
        cli_json_string(v->out, file, strlen(file));
        fprintf(v->out, ",\"line\":%llu,\"verdict\":\"%s\",\"fault\":\"%s\",\"reason\":",
                (unsigned long long)lineno, malformed ? "malformed" : "invalid", fault);
        cli_json_string(v->out, why, strlen(why));
        fputs("}\n", v->out);
    } else if (malformed) {
        cli_error(v->err, "%s: not a placement: %s", at, why);
    } else {
        fprintf(v->out, "%s: invalid: %s\n", at, why);
    }
}

/* Checks every line of f: `file` is its name as given ("-" for standard
 * input), `name` the same quoted for messages. @return CLI_EXIT_OK, or
 * the status after the message of a read error or of no memory. */
static int verify_stream(verifier *v, FILE *f, const char *file, const char *name)
{
    uint64_t lineno = 0;
    char at[CLI_QUOTE_SIZE + 24];
    int rc;

    while ((rc = read_line(&v->line, f)) == 1) {
        uint32_t *cols = NULL;
        size_t n = 0;
        nq_placement_error pe = NQ_PLACEMENT_ERROR_INIT;
        nq_violation fault = NQ_VIOLATION_INIT;
        char why[256];

        where(at, sizeof at, v, name, ++lineno);
        rc = nq_parse_placement(&cols, &n, &pe, v->line.p, v->line.len);
        if (rc == NQ_EFORMAT) {
            nq_placement_error_format(why, sizeof why, &pe);
            report_line(v, at, file, lineno, 1, parse_fault_names[pe.fault], why);
            v->malformed++;
            continue;
        }
        if (rc != NQ_OK) {
            cli_error(v->err, "%s: %s", at, nq_strerror(rc));
            return CLI_EXIT_FAILURE;
        }
        if (v->have_n && n != v->want_n) {
            snprintf(why, sizeof why, "wrong length: %llu queens, expected %llu",
                     (unsigned long long)n, (unsigned long long)v->want_n);
            report_line(v, at, file, lineno, 0, "length", why);
            v->invalid++;
        } else if ((rc = nq_verify(&fault, cols, n)) != NQ_OK) {
            cli_error(v->err, "%s: %s", at, nq_strerror(rc));
            free(cols);
            return CLI_EXIT_FAILURE;
        } else if (fault.fault != NQ_VERIFY_OK) {
            nq_violation_format(why, sizeof why, &fault, cols, n);
            report_line(v, at, file, lineno, 0, fault_names[fault.fault], why);
            v->invalid++;
        } else {
            v->valid++;
        }
        free(cols);
    }
    if (rc == -1) {
        cli_error(v->err, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    if (rc == -2) {
        if (v->named)
            cli_error(v->err, "%s: %s", name, strerror(errno));
        else
            cli_error(v->err, "cannot read standard input: %s", strerror(errno));
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* Whether the operand s of --verify is the board size N (all digits) or
 * a file; a file whose name is all digits is given as ./NAME. */
static int is_size_operand(const char *s)
{
    return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

/* Every FILE operand is there, readable and no folder: checked before
 * the first line is read, so that a mistyped name leaves nothing
 * half-reported on stdout. By stat() and access(), not by opening: a
 * named pipe opened and closed here would lose what its writer sent.
 * 0, or -1 after the message. */
static int check_files(const cli_opts *o, FILE *err)
{
    char q[CLI_QUOTE_SIZE];
    for (size_t i = 0; i < o->noperands; i++) {
        const char *s = o->operands[i];
        struct stat st;
        int e = 0;
        if (strcmp(s, "-") == 0 || is_size_operand(s))
            continue;
        if (stat(s, &st) != 0 || access(s, R_OK) != 0)
            e = errno;
        else if (S_ISDIR(st.st_mode))
            e = EISDIR;
        if (e) {
            cli_error(err, "%s: %s", CLI_QUOTE(q, s), strerror(e));
            return -1;
        }
    }
    return 0;
}

int cli_verify(const cli_opts *o, FILE *in, FILE *out, FILE *err)
{
    verifier v;
    int status = CLI_EXIT_OK, stdin_read = 0;
    char q[CLI_QUOTE_SIZE];

    memset(&v, 0, sizeof v);
    v.o = o;
    v.out = out;
    v.err = err;
    for (size_t i = 0; i < o->noperands; i++) {
        const char *s = o->operands[i];
        if (strcmp(s, "-") == 0)
            continue; /* standard input, where placements come from anyway */
        if (!is_size_operand(s)) {
            v.named = 1;
            continue;
        }
        if (v.have_n) {
            cli_usage_error(err, "--verify takes at most one board size (the length "
                                 "every line must have)");
            return CLI_EXIT_USAGE;
        }
        if (nqc_parse_u64(&v.want_n, s, strlen(s)) != 0) {
            cli_usage_error(err, "'%s' is not a board size: it passes 2^64 - 1",
                            CLI_QUOTE(q, s));
            return CLI_EXIT_USAGE;
        }
        v.have_n = 1;
    }
    if (check_files(o, err) != 0)
        return CLI_EXIT_USAGE;
    /* the files and '-' in order; with neither, standard input */
    for (size_t i = 0; i < o->noperands && status == CLI_EXIT_OK; i++) {
        const char *s = o->operands[i];
        FILE *f;
        if (strcmp(s, "-") == 0) {
            if (!stdin_read)
                status = verify_stream(&v, in, "-", "standard input");
            stdin_read = 1;
            continue;
        }
        if (is_size_operand(s))
            continue;
        CLI_QUOTE(q, s);
        if ((f = fopen(s, "r")) == NULL) {
            cli_error(err, "%s: %s", q, strerror(errno));
            status = CLI_EXIT_USAGE;
            break;
        }
        status = verify_stream(&v, f, s, q);
        fclose(f);
    }
    if (!v.named && !stdin_read && status == CLI_EXIT_OK)
        status = verify_stream(&v, in, "-", "standard input");
    free(v.line.p);
    if (status != CLI_EXIT_OK)
        return status;
    /* no line at all is no placement to refuse: "0 valid", as a filter
     * given nothing prints nothing wrong */
    fprintf(out, o->format == CLI_FORMAT_JSON
                     ? "{\"valid\":%llu,\"invalid\":%llu,\"malformed\":%llu}\n"
                     : "%llu valid, %llu invalid, %llu malformed\n",
            (unsigned long long)v.valid, (unsigned long long)v.invalid,
            (unsigned long long)v.malformed);
    if ((status = cli_flush(out, err)) != CLI_EXIT_OK)
        return status;
    if (v.malformed)
        status = CLI_EXIT_USAGE;
    else if (v.invalid)
        status = CLI_EXIT_FAILURE;
    return status;
}
