/*
 * The nqueens command: argument parsing and dispatch.
 *
 * Every operand is checked before anything is computed, so a bad operand
 * never leaves half a result on stdout. Errors are one line on stderr that
 * starts with "nqueens: ". Output is flushed after each line, so a pipeline
 * sees each count as soon as it is known.
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_internal.h"
#include "nqueens.h"

/* ------------------------------------------------------------------------
 * Usage
 * ------------------------------------------------------------------------ */
static const char usage_text[] =
    "Usage: nqueens [OPTION]... [N | A-B]...\n"
    "       nqueens --list [--board | --compact] [--canonical] [--limit K] N...\n"
    "       nqueens --one N | --random N [--seed S]\n"
    "       nqueens --verify [N] < PLACEMENTS\n"
    "       nqueens --check [N | A-B]...\n"
    "       nqueens --part K/M --json N > part-K.json; nqueens --merge part-*.json\n"
    "Count the solutions of the N-queens problem for each board size N\n"
    "(0.." NQ_STRINGIFY(NQ_MAX_N) ") or inclusive range A-B, one line per size, in order.\n"
    "With no operand, or with '-', sizes are read from standard input.\n"
    "\n"
    "Counting:\n"
    "  -u, --unique          count solutions unique up to rotation and reflection\n"
    "                        (bare format: printed instead of the total; labels\n"
    "                        and JSON: an extra field)\n"
    "  -l, --labels          print 'n<TAB>total' lines under a header line\n"
    "      --json            print one JSON object per size (JSON Lines)\n"
    "  -f, --format=FMT      bare (default: the count alone), labels or json\n"
    "  -j, --threads=N       worker threads (default: all online CPUs)\n"
    "  -m, --method=M        symmetry (default, fastest) or plain (reference)\n"
    "      --simd=LEVEL      auto (default), none, avx2 or avx512\n"
    "\n"
    "Long runs:\n"
    "      --progress        show progress on stderr (default: on a terminal,\n"
    "                        for runs longer than a second)\n"
    "      --no-progress     never show progress\n"
    "      --checkpoint=FILE record finished work in FILE; run the same command\n"
    "                        again to resume after a stop or a crash\n"
    "      --checkpoint-interval=SEC  seconds between saves (default 10)\n"
    "      --part=K/M        count only part K of M (for many machines); use\n"
    "                        with --json and add the parts up with --merge\n"
    "      --merge           add up part results (JSON lines) from the files\n"
    "                        given, or from standard input\n"
    "\n"
    "Solutions:\n"
    "      --list            print every solution of each N, one per line: the\n"
    "                        1-based column of the queen in each row\n"
    "      --board           draw boards ('Q' and '.') instead of lines\n"
    "      --compact         one digit per row, no spaces (N <= 9)\n"
    "      --canonical       only one solution per rotation/reflection class\n"
    "      --limit=K         stop after K solutions of each N\n"
    "      --one             print one solution of N (any size, by formula)\n"
    "      --random          print a random solution of N (local search)\n"
    "      --seed=S          seed of --random (default: from the clock)\n"
    "      --max-steps=K     step bound of --random\n"
    "      --verify          check placements read from standard input, one per\n"
    "                        line; with N, every line must have N queens\n"
    "      --check           count each N and compare with the known values\n"
    "                        (OEIS A000170 and A002562, n <= 27)\n"
    "\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and exit\n"
    "\n"
    "Exit status: 0 success; 1 runtime failure, a --check mismatch, an invalid\n"
    "placement, no solution or incomplete parts; 2 usage error or unreadable\n"
    "input; 130 or 143 stopped by SIGINT or SIGTERM.\n"
    "\n"
    "Examples:\n"
    "  nqueens 13                      prints 73712\n"
    "  nqueens 8 10-12                 prints 92, 724, 2680 and 14200, one per line\n"
    "  seq 1 12 | nqueens              reads the sizes from standard input\n"
    "  nqueens --labels --unique 1-10  a table of totals and unique counts\n"
    "  nqueens --list --limit=3 8      the first three solutions of n = 8\n"
    "  nqueens --one 1000000 | nqueens --verify\n"
    "  nqueens --check 1-16            exits 1 if any count is wrong\n";

static void print_usage_hint(FILE *err)
{
    fputs("Try 'nqueens --help' for more information.\n", err);
}

/* ------------------------------------------------------------------------
 * Messages and output
 * ------------------------------------------------------------------------ */
void nq_cli_error(FILE *err, const char *fmt, ...)
{
    va_list ap;
    fputs("nqueens: ", err);
    va_start(ap, fmt);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputc('\n', err);
    fflush(err);
}

/* Copies at most `max` characters of s into buf, escaping what is not
 * printable, so that a message quoting user input stays one clean line. */
const char *nq_cli_quote(char *buf, size_t size, const char *s, size_t len)
{
    size_t k = 0;
    const size_t max = 40;

    for (size_t i = 0; i < len && k + 5 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == max) {
            memcpy(buf + k, "...", 3);
            k += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            buf[k++] = (char)c;
        } else {
            static const char hex[] = "0123456789abcdef";
            buf[k++] = '\\';
            buf[k++] = 'x';
            buf[k++] = hex[c >> 4];
            buf[k++] = hex[c & 15];
        }
    }
    buf[k] = '\0';
    return buf;
}

int nq_cli_flush(FILE *out, FILE *err)
{
    if (fflush(out) == 0 && !ferror(out))
        return NQ_EXIT_OK;
    /* A reader that went away (`nqueens 20 | head -1`) is no error to
     * report: stop quietly. */
    if (errno != EPIPE)
        nq_cli_error(err, "write error: %s", strerror(errno));
    return NQ_EXIT_FAILURE;
}

/* ------------------------------------------------------------------------
 * Numbers and board-size operands
 * ------------------------------------------------------------------------ */
int nq_cli_parse_u64(uint64_t *out, const char *s, size_t len)
{
    uint64_t v = 0;
    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned d;
        if (s[i] < '0' || s[i] > '9')
            return -1;
        d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int push_size(nq_sizes *v, unsigned n)
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

/* Parses one board size; on failure writes why into why[]. */
static int parse_size(unsigned *out, const char *s, size_t len, char *why,
                      size_t whysize)
{
    uint64_t v;
    int rc = nq_cli_parse_u64(&v, s, len);
    if (rc == -2 || (rc == 0 && v > NQ_MAX_N)) {
        char q[64];
        snprintf(why, whysize, "board size %s is out of range (0..%d)",
                 nq_cli_quote(q, sizeof q, s, len), NQ_MAX_N);
        return -1;
    }
    if (rc != 0) {
        snprintf(why, whysize, "not a board size");
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

int nq_cli_parse_sizes(nq_sizes *v, const char *s, size_t len, FILE *err,
                       const char *where)
{
    char why[160], q[64];
    const char *dash = len ? memchr(s + 1, '-', len - 1) : NULL;
    unsigned a, b;

    if (len == 0) {
        nq_cli_error(err, "%sempty operand: expected a board size (0..%d) or a range A-B",
                     where, NQ_MAX_N);
        return -1;
    }
    if (s[0] == '-') {
        nq_cli_error(err, "%s'%s' is not a board size: sizes are not negative",
                     where, nq_cli_quote(q, sizeof q, s, len));
        return -1;
    }
    if (!dash) {
        if (parse_size(&a, s, len, why, sizeof why) != 0) {
            if (strcmp(why, "not a board size") == 0)
                nq_cli_error(err, "%s'%s' is not a board size (expected 0..%d or a range A-B)",
                             where, nq_cli_quote(q, sizeof q, s, len), NQ_MAX_N);
            else
                nq_cli_error(err, "%s%s", where, why);
            return -1;
        }
        b = a;
    } else {
        size_t la = (size_t)(dash - s);
        if (parse_size(&a, s, la, why, sizeof why) != 0 ||
            parse_size(&b, dash + 1, len - la - 1, why, sizeof why) != 0) {
            if (strcmp(why, "not a board size") == 0)
                nq_cli_error(err, "%s'%s' is not a board size or a range A-B",
                             where, nq_cli_quote(q, sizeof q, s, len));
            else
                nq_cli_error(err, "%s%s", where, why);
            return -1;
        }
        if (a > b) {
            nq_cli_error(err, "%srange '%s' is reversed (write %u-%u)", where,
                         nq_cli_quote(q, sizeof q, s, len), b, a);
            return -1;
        }
    }
    for (unsigned n = a;; n++) {
        if (push_size(v, n) != 0) {
            nq_cli_error(err, "out of memory");
            return -1;
        }
        if (n == b)
            break;
    }
    return 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

int nq_cli_read_all(char **out, size_t *len, FILE *in)
{
    size_t cap = 4096, k = 0;
    char *buf = malloc(cap);
    if (!buf)
        return -1;
    for (;;) {
        size_t got;
        if (k == cap) {
            char *p = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                return -1;
            }
            buf = p;
            cap *= 2;
        }
        got = fread(buf + k, 1, cap - k, in);
        k += got;
        if (got == 0)
            break;
    }
    if (ferror(in)) {
        free(buf);
        return -2;
    }
    *out = buf;
    *len = k;
    return 0;
}

/* Reads whitespace-separated sizes and ranges from `in`. */
static int read_sizes(nq_sizes *v, FILE *in, FILE *err)
{
    char *buf;
    size_t len, i = 0;
    int rc = nq_cli_read_all(&buf, &len, in);

    if (rc == -1) {
        nq_cli_error(err, "out of memory");
        return -1;
    }
    if (rc == -2) {
        nq_cli_error(err, "cannot read standard input: %s", strerror(errno));
        return -1;
    }
    while (i < len) {
        size_t j;
        while (i < len && is_space(buf[i]))
            i++;
        if (i == len)
            break;
        j = i;
        while (j < len && !is_space(buf[j]))
            j++;
        if (nq_cli_parse_sizes(v, buf + i, j - i, err, "standard input: ") != 0) {
            free(buf);
            return -1;
        }
        i = j;
    }
    free(buf);
    if (v->len == 0) {
        nq_cli_error(err, "standard input holds no board size");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------ */
enum opt_id {
    OPT_HELP, OPT_VERSION, OPT_UNIQUE, OPT_LABELS, OPT_JSON, OPT_FORMAT,
    OPT_THREADS, OPT_METHOD, OPT_SIMD,
    OPT_LIST, OPT_ONE, OPT_RANDOM, OPT_VERIFY, OPT_CHECK, OPT_BOARD,
    OPT_COMPACT, OPT_CANONICAL, OPT_LIMIT, OPT_SEED, OPT_MAX_STEPS,
    OPT_PROGRESS, OPT_NO_PROGRESS, OPT_CHECKPOINT, OPT_CHECKPOINT_INTERVAL,
    OPT_PART, OPT_MERGE
};

typedef struct opt_spec {
    const char *name;
    char short_name;
    int has_arg;
    enum opt_id id;
} opt_spec;

static const opt_spec options[] = {
    {"help", 'h', 0, OPT_HELP},
    {"version", 'V', 0, OPT_VERSION},
    {"unique", 'u', 0, OPT_UNIQUE},
    {"labels", 'l', 0, OPT_LABELS},
    {"json", 0, 0, OPT_JSON},
    {"format", 'f', 1, OPT_FORMAT},
    {"threads", 'j', 1, OPT_THREADS},
    {"method", 'm', 1, OPT_METHOD},
    {"simd", 0, 1, OPT_SIMD},
    {"list", 0, 0, OPT_LIST},
    {"one", 0, 0, OPT_ONE},
    {"random", 0, 0, OPT_RANDOM},
    {"verify", 0, 0, OPT_VERIFY},
    {"check", 0, 0, OPT_CHECK},
    {"board", 0, 0, OPT_BOARD},
    {"compact", 0, 0, OPT_COMPACT},
    {"canonical", 0, 0, OPT_CANONICAL},
    {"limit", 0, 1, OPT_LIMIT},
    {"seed", 0, 1, OPT_SEED},
    {"max-steps", 0, 1, OPT_MAX_STEPS},
    {"progress", 0, 0, OPT_PROGRESS},
    {"no-progress", 0, 0, OPT_NO_PROGRESS},
    {"checkpoint", 0, 1, OPT_CHECKPOINT},
    {"checkpoint-interval", 0, 1, OPT_CHECKPOINT_INTERVAL},
    {"part", 0, 1, OPT_PART},
    {"merge", 0, 0, OPT_MERGE},
};

/* "K/M" with 1 <= K <= M. */
static int parse_part(nq_cli_opts *o, const char *arg, FILE *err)
{
    const char *slash = strchr(arg, '/');
    uint64_t k, m;
    char q[64];
    if (!slash || nq_cli_parse_u64(&k, arg, (size_t)(slash - arg)) != 0 ||
        nq_cli_parse_u64(&m, slash + 1, strlen(slash + 1)) != 0 || k < 1 ||
        m < 1 || k > m || m > UINT32_MAX) {
        nq_cli_error(err, "--part: '%s' is not K/M with 1 <= K <= M (e.g. 3/8)",
                     nq_cli_quote(q, sizeof q, arg, strlen(arg)));
        return -1;
    }
    o->part_k = (uint32_t)k;
    o->part_m = (uint32_t)m;
    return 0;
}

static int set_mode(nq_cli_opts *o, nq_mode mode, const char *name, FILE *err)
{
    if (o->mode != NQ_MODE_COUNT && o->mode != mode) {
        nq_cli_error(err, "options --%s and --%s cannot be combined",
                     o->mode_name, name);
        return -1;
    }
    o->mode = mode;
    o->mode_name = name;
    return 0;
}

static int parse_number_arg(uint64_t *out, const char *arg, const char *name,
                            FILE *err)
{
    char q[64];
    int rc = nq_cli_parse_u64(out, arg, strlen(arg));
    if (rc == 0)
        return 0;
    nq_cli_error(err, "--%s: '%s' is %s", name,
                 nq_cli_quote(q, sizeof q, arg, strlen(arg)),
                 rc == -2 ? "too large" : "not a non-negative whole number");
    return -1;
}

static int apply_option(nq_cli_opts *o, enum opt_id id, const char *arg,
                        FILE *err)
{
    char q[64];
    uint64_t v;

    switch (id) {
    case OPT_HELP: o->help = 1; return 0;
    case OPT_VERSION: o->version = 1; return 0;
    case OPT_UNIQUE: o->unique = 1; return 0;
    case OPT_LABELS: o->format = NQ_FORMAT_LABELS; return 0;
    case OPT_JSON: o->format = NQ_FORMAT_JSON; return 0;
    case OPT_FORMAT:
        if (strcmp(arg, "bare") == 0) o->format = NQ_FORMAT_BARE;
        else if (strcmp(arg, "labels") == 0) o->format = NQ_FORMAT_LABELS;
        else if (strcmp(arg, "json") == 0) o->format = NQ_FORMAT_JSON;
        else {
            nq_cli_error(err, "unknown format '%s' (expected bare, labels or json)",
                         nq_cli_quote(q, sizeof q, arg, strlen(arg)));
            return -1;
        }
        return 0;
    case OPT_THREADS:
        if (nq_cli_parse_u64(&v, arg, strlen(arg)) != 0 || v < 1 || v > 1024) {
            nq_cli_error(err, "thread count '%s' is not a number from 1 to 1024",
                         nq_cli_quote(q, sizeof q, arg, strlen(arg)));
            return -1;
        }
        o->threads = (unsigned)v;
        return 0;
    case OPT_METHOD:
        if (strcmp(arg, "plain") == 0) o->method = NQ_METHOD_PLAIN;
        else if (strcmp(arg, "symmetry") == 0) o->method = NQ_METHOD_SYMMETRY;
        else {
            nq_cli_error(err, "unknown method '%s' (expected symmetry or plain)",
                         nq_cli_quote(q, sizeof q, arg, strlen(arg)));
            return -1;
        }
        return 0;
    case OPT_LIST: return set_mode(o, NQ_MODE_LIST, "list", err);
    case OPT_ONE: return set_mode(o, NQ_MODE_ONE, "one", err);
    case OPT_RANDOM: return set_mode(o, NQ_MODE_RANDOM, "random", err);
    case OPT_VERIFY: return set_mode(o, NQ_MODE_VERIFY, "verify", err);
    case OPT_CHECK: return set_mode(o, NQ_MODE_CHECK, "check", err);
    case OPT_BOARD: o->board = 1; return 0;
    case OPT_COMPACT: o->compact = 1; return 0;
    case OPT_CANONICAL: o->canonical = 1; return 0;
    case OPT_LIMIT: return parse_number_arg(&o->limit, arg, "limit", err);
    case OPT_SEED:
        o->has_seed = 1;
        return parse_number_arg(&o->seed, arg, "seed", err);
    case OPT_MAX_STEPS:
        return parse_number_arg(&o->max_steps, arg, "max-steps", err);
    case OPT_PROGRESS: o->progress = 1; return 0;
    case OPT_NO_PROGRESS: o->progress = 0; return 0;
    case OPT_CHECKPOINT:
        if (!*arg) {
            nq_cli_error(err, "--checkpoint needs a file name");
            return -1;
        }
        o->checkpoint = arg;
        return 0;
    case OPT_CHECKPOINT_INTERVAL:
        if (nq_cli_parse_u64(&v, arg, strlen(arg)) != 0 || v > 86400) {
            nq_cli_error(err, "--checkpoint-interval: '%s' is not a number of seconds (0..86400)",
                         nq_cli_quote(q, sizeof q, arg, strlen(arg)));
            return -1;
        }
        o->checkpoint_interval = (double)v;
        return 0;
    case OPT_PART: return parse_part(o, arg, err);
    case OPT_MERGE: return set_mode(o, NQ_MODE_MERGE, "merge", err);
    case OPT_SIMD:
        if (strcmp(arg, "auto") == 0) o->simd = NQ_SIMD_AUTO;
        else if (strcmp(arg, "none") == 0) o->simd = NQ_SIMD_NONE;
        else if (strcmp(arg, "avx2") == 0) o->simd = NQ_SIMD_AVX2;
        else if (strcmp(arg, "avx512") == 0) o->simd = NQ_SIMD_AVX512;
        else {
            nq_cli_error(err, "unknown SIMD level '%s' (expected auto, none, avx2 or avx512)",
                         nq_cli_quote(q, sizeof q, arg, strlen(arg)));
            return -1;
        }
        return 0;
    }
    return -1;
}

/* Parses argv into o; operands are collected in o->operands. */
static int parse_args(nq_cli_opts *o, int argc, char **argv, FILE *err)
{
    int only_operands = 0;
    char q[64];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const opt_spec *spec = NULL;
        const char *arg = NULL;

        if (only_operands || a[0] != '-' || a[1] == '\0' ||
            (a[1] >= '0' && a[1] <= '9')) {
            /* an operand: a size, a range, '-', or a negative number that
             * the operand parser rejects with a clear message */
            o->operands[o->noperands++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_operands = 1;
            continue;
        }
        if (a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t nl = eq ? (size_t)(eq - name) : strlen(name);
            for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
                if (strlen(options[k].name) == nl &&
                    strncmp(options[k].name, name, nl) == 0)
                    spec = &options[k];
            if (!spec) {
                nq_cli_error(err, "unknown option '%s'",
                             nq_cli_quote(q, sizeof q, a, eq ? (size_t)(eq - a) : strlen(a)));
                print_usage_hint(err);
                return -1;
            }
            if (eq && !spec->has_arg) {
                nq_cli_error(err, "option '--%s' takes no value", spec->name);
                return -1;
            }
            if (eq)
                arg = eq + 1;
        } else {
            for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
                if (options[k].short_name && options[k].short_name == a[1])
                    spec = &options[k];
            if (!spec) {
                nq_cli_error(err, "unknown option '%s'",
                             nq_cli_quote(q, sizeof q, a, strlen(a)));
                print_usage_hint(err);
                return -1;
            }
            if (a[2] != '\0') {
                if (!spec->has_arg) {
                    nq_cli_error(err, "unknown option '%s' (short options do not combine)",
                                 nq_cli_quote(q, sizeof q, a, strlen(a)));
                    return -1;
                }
                arg = a + 2;
            }
        }
        if (spec->has_arg && !arg) {
            if (i + 1 >= argc) {
                nq_cli_error(err, "option '--%s' needs a value", spec->name);
                return -1;
            }
            arg = argv[++i];
        }
        if (apply_option(o, spec->id, arg, err) != 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Counting
 * ------------------------------------------------------------------------ */
nq_count_options nq_cli_count_options(const nq_cli_opts *o)
{
    nq_count_options co = NQ_COUNT_OPTIONS_INIT;
    co.threads = o->threads;
    co.method = o->method;
    co.simd = o->simd;
    return co;
}

static void print_count(const nq_cli_opts *o, unsigned n,
                        const nq_count_result *r, FILE *out)
{
    switch (o->format) {
    case NQ_FORMAT_BARE:
        fprintf(out, "%llu\n",
                (unsigned long long)(o->unique ? r->unique : r->total));
        break;
    case NQ_FORMAT_LABELS:
        fprintf(out, "%u\t%llu", n, (unsigned long long)r->total);
        if (o->unique)
            fprintf(out, "\t%llu", (unsigned long long)r->unique);
        if (o->part_m)
            fprintf(out, "\t%lu/%lu\t%s\t%lu", (unsigned long)o->part_k,
                    (unsigned long)o->part_m, nq_method_name(r->method),
                    (unsigned long)nq_unit_list_version(r->method));
        fputc('\n', out);
        break;
    case NQ_FORMAT_JSON:
        fprintf(out, "{\"n\":%u,\"total\":%llu", n,
                (unsigned long long)r->total);
        /* a part always carries its unique share, so that merges can */
        if (o->unique || (o->part_m && r->has_unique))
            fprintf(out, ",\"unique\":%llu", (unsigned long long)r->unique);
        fprintf(out, ",\"method\":\"%s\"", nq_method_name(r->method));
        if (o->part_m)
            fprintf(out, ",\"part\":%lu,\"parts\":%lu,\"unit_list_version\":%lu",
                    (unsigned long)o->part_k, (unsigned long)o->part_m,
                    (unsigned long)nq_unit_list_version(r->method));
        fputs("}\n", out);
        break;
    }
}

/* Opens --checkpoint for n, with a message for each way it can fail. */
static int open_checkpoint(nq_checkpoint **cp, const nq_cli_opts *o,
                           unsigned n, FILE *err)
{
    int rc = nq_checkpoint_open(cp, o->checkpoint, n, o->method);
    switch (rc) {
    case NQ_OK: return 0;
    case NQ_EFORMAT:
        nq_cli_error(err, "%s: not a checkpoint, or truncated or corrupted; refusing to use it",
                     o->checkpoint);
        break;
    case NQ_EMISMATCH:
        nq_cli_error(err, "%s: this checkpoint belongs to another board size, method "
                          "or version of the unit list; refusing to use it",
                     o->checkpoint);
        break;
    case NQ_EIO:
        nq_cli_error(err, "%s: %s", o->checkpoint, strerror(errno));
        break;
    default:
        nq_cli_error(err, "%s: %s", o->checkpoint, nq_strerror(rc));
        break;
    }
    return -1;
}

static int run_count(const nq_cli_opts *o, const nq_sizes *sizes, FILE *out,
                     FILE *err)
{
    nq_count_options co = nq_cli_count_options(o);
    nq_cli_progress_state ps;
    nq_checkpoint *cp = NULL;
    int status = NQ_EXIT_OK;

    co.part_k = o->part_k;
    co.part_m = o->part_m;
    co.checkpoint_interval = o->checkpoint_interval;
    if (o->unique && o->method == NQ_METHOD_PLAIN) {
        nq_cli_error(err, "--unique needs the symmetry method (the plain method counts totals only)");
        return NQ_EXIT_USAGE;
    }
    if (o->checkpoint && sizes->len != 1) {
        nq_cli_error(err, "--checkpoint takes one board size, not %zu", sizes->len);
        return NQ_EXIT_USAGE;
    }
    if (o->checkpoint && open_checkpoint(&cp, o, sizes->n[0], err) != 0)
        return NQ_EXIT_USAGE;
    co.checkpoint = cp;

    memset(&ps, 0, sizeof ps);
    ps.err = err;
    ps.tty = isatty(fileno(err));
    ps.forced = o->progress == 1;
    if (o->progress == 1 || (o->progress == -1 && ps.tty)) {
        co.progress = nq_cli_progress;
        co.progress_data = &ps;
    }
    co.cancel = nq_cli_catch_signals();

    if (o->format == NQ_FORMAT_LABELS) {
        fputs(o->unique ? "n\ttotal\tunique" : "n\ttotal", out);
        fputs(o->part_m ? "\tpart\tmethod\tunit_list_version\n" : "\n", out);
        status = nq_cli_flush(out, err);
    }
    for (size_t i = 0; i < sizes->len && status == NQ_EXIT_OK; i++) {
        nq_count_result r;
        int rc;
        ps.n = sizes->n[i];
        rc = nq_count(&r, sizes->n[i], &co);
        nq_cli_progress_end(&ps);
        if (rc == NQ_ECANCELED && nq_cli_caught_signal()) {
            int sig = nq_cli_caught_signal();
            nq_checkpoint_info info;
            if (cp && nq_checkpoint_info_get(&info, cp) == NQ_OK)
                nq_cli_error(err, "interrupted; %llu of %llu units are saved in %s: "
                                  "run the same command again to resume",
                             (unsigned long long)info.units_done,
                             (unsigned long long)info.units_total, o->checkpoint);
            else
                nq_cli_error(err, "interrupted (use --checkpoint FILE to make long runs resumable)");
            status = 128 + sig;
        } else if (rc != NQ_OK) {
            if (rc == NQ_EIO && cp)
                nq_cli_error(err, "%s: cannot save the checkpoint: %s", o->checkpoint,
                             strerror(errno));
            else
                nq_cli_error(err, "n = %u: %s", sizes->n[i], nq_strerror(rc));
            status = NQ_EXIT_FAILURE;
        } else {
            print_count(o, sizes->n[i], &r, out);
            status = nq_cli_flush(out, err);
        }
    }
    nq_cli_release_signals();
    nq_checkpoint_close(cp);
    return status;
}

/* ------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------ */
int nq_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    nq_cli_opts o;
    nq_sizes sizes = {NULL, 0, 0};
    int status = NQ_EXIT_USAGE;
    int stdin_read = 0;

    memset(&o, 0, sizeof o);
    o.method = NQ_METHOD_DEFAULT;
    o.simd = NQ_SIMD_AUTO;
    o.format = NQ_FORMAT_BARE;
    o.progress = -1;
    o.checkpoint_interval = 10.0;
    o.operands = calloc((size_t)(argc > 0 ? argc : 1), sizeof *o.operands);
    if (!o.operands) {
        nq_cli_error(err, "out of memory");
        return NQ_EXIT_FAILURE;
    }
    if (parse_args(&o, argc, argv, err) != 0)
        goto done;
    if (o.help) {
        fputs(usage_text, out);
        status = nq_cli_flush(out, err);
        goto done;
    }
    if (o.version) {
        fprintf(out, "nqueens %s\n", nq_version_string());
        status = nq_cli_flush(out, err);
        goto done;
    }

    if (o.mode == NQ_MODE_ONE || o.mode == NQ_MODE_RANDOM) {
        status = nq_cli_construct(&o, out, err);
        goto done;
    }
    if (o.mode == NQ_MODE_MERGE) {
        status = nq_cli_merge(&o, in, out, err);
        goto done;
    }
    if (o.mode == NQ_MODE_VERIFY) {
        status = nq_cli_verify(&o, in, out, err);
        goto done;
    }
    if (o.noperands == 0) {
        if (isatty(fileno(in))) {
            fputs(usage_text, err);
            goto done;
        }
        if (read_sizes(&sizes, in, err) != 0)
            goto done;
    }
    for (size_t i = 0; i < o.noperands; i++) {
        if (strcmp(o.operands[i], "-") == 0) {
            /* standard input, in its place among the operands, once */
            if (!stdin_read && read_sizes(&sizes, in, err) != 0)
                goto done;
            stdin_read = 1;
        } else if (nq_cli_parse_sizes(&sizes, o.operands[i],
                                      strlen(o.operands[i]), err, "") != 0) {
            goto done;
        }
    }
    if (o.simd != NQ_SIMD_AUTO && o.simd != NQ_SIMD_NONE &&
        o.simd > nq_simd_best() && o.mode != NQ_MODE_LIST) {
        nq_cli_error(err, "this CPU does not support --simd=%s", nq_simd_name(o.simd));
        goto done;
    }
    switch (o.mode) {
    case NQ_MODE_LIST: status = nq_cli_list(&o, &sizes, out, err); break;
    case NQ_MODE_CHECK: status = nq_cli_check(&o, &sizes, out, err); break;
    default: status = run_count(&o, &sizes, out, err); break;
    }
done:
    free(sizes.n);
    free(o.operands);
    return status;
}
