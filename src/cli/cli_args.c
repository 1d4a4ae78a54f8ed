/*
 * Parsing the command line with getopt_long(), so that options behave as
 * in every GNU tool: short options combine (-uj2), long ones may be
 * abbreviated (--uni), a value may follow '=' or come as the next word,
 * options and operands mix in any order, and "--" ends the options.
 * Errors are reported in getopt's own words, naming the option as it was
 * typed, followed by the "Try 'nqueens --help'" line.
 *
 * getopt keeps its state in globals; it is reset before each parse
 * (optind = 0 on glibc reinitialises it fully), so that nq_cli_main() can
 * run any number of times in one process.
 */
#include "cli_args.h"

#include <getopt.h>
#include <string.h>

#include "nqc_size.h"
#include "nqc_u64.h"
#include "cli_optable.h"
#include "cli_output.h"

#define LONG_BASE 256 /* getopt_long's value for a long option: LONG_BASE + id */
#define MAX_VALUES 16

/* ------------------------------------------------------------------------
 * Option values
 * ------------------------------------------------------------------------ */
/* The index of arg among the option's fixed values, or -1 after an error. */
static int pick_value(cli_opt_id id, const char *what, const char *arg,
                      const char *typed, FILE *err)
{
    const char *v[MAX_VALUES];
    char list[256] = "", q[64];
    size_t n = cli_option_values(v, MAX_VALUES, id), len = 0;

    for (size_t i = 0; i < n; i++)
        if (strcmp(arg, v[i]) == 0)
            return (int)i;
    for (size_t i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == 0 ? "" : (i + 1 == n ? " or " : ", "), v[i]);
    cli_usage_error(err, "unknown %s '%s' for %s (expected %s)", what,
                    CLI_QUOTE(q, arg), typed, list);
    return -1;
}

/* A whole number in [lo, hi], or -1 after an error. */
static int number_value(uint64_t *out, const char *arg, uint64_t lo, uint64_t hi,
                        const char *what, const char *typed, FILE *err)
{
    char q[64];
    int rc = nqc_parse_u64(out, arg, strlen(arg));
    if (rc == 0 && *out >= lo && *out <= hi)
        return 0;
    if (rc == 0 || rc == -2)
        cli_usage_error(err, "%s '%s' for %s is out of range (%llu..%llu)", what,
                        CLI_QUOTE(q, arg), typed, (unsigned long long)lo,
                        (unsigned long long)hi);
    else
        cli_usage_error(err, "%s '%s' for %s is not a whole number", what,
                        CLI_QUOTE(q, arg), typed);
    return -1;
}

/* A size in bytes (nqc_size.h): 512M, 8G, 4096B. */
static int size_value(uint64_t *out, const char *arg, const char *typed, FILE *err)
{
    char q[64];
    int rc = nqc_parse_size(out, arg);

    if (rc == -3)
        cli_usage_error(err, "%s: the size must be at least 1 byte (leave the option "
                             "out for half of this machine's memory)", typed);
    else if (rc == -2)
        cli_usage_error(err, "%s: '%s' is more than 16 EiB", typed, CLI_QUOTE(q, arg));
    else if (rc != 0)
        cli_usage_error(err, "%s: '%s' is not a size in bytes (e.g. 4096B, 512M, 8G)",
                        typed, CLI_QUOTE(q, arg));
    return rc == 0 ? 0 : -1;
}

/* A duration: digits, then optionally s, m, h, d or y (365.25 days);
 * or "none", stored as 0. The number is 1 to 2^32 - 1 of its unit; 0 and
 * numbers past that each get their own message. */
static int time_value(double *out, const char *arg, const char *typed, FILE *err)
{
    static const struct {
        char suffix;
        double seconds;
    } units[] = {{'s', 1.0}, {'m', 60.0}, {'h', 3600.0}, {'d', 86400.0},
                 {'y', 31557600.0}};
    size_t len = strspn(arg, "0123456789");
    double unit = 0.0;
    uint64_t v;
    int rc;
    char q[64];

    if (strcmp(arg, "none") == 0) {
        *out = 0.0;
        return 0;
    }
    if (len > 0 && arg[len] == '\0')
        unit = 1.0;
    for (size_t i = 0; len > 0 && i < sizeof units / sizeof units[0]; i++)
        if (arg[len] == units[i].suffix && arg[len + 1] == '\0')
            unit = units[i].seconds;
    if (unit == 0.0) {
        cli_usage_error(err, "%s: '%s' is not a duration (e.g. 90s, 12h, 10y, or none)",
                        typed, CLI_QUOTE(q, arg));
        return -1;
    }
    rc = nqc_parse_u64(&v, arg, len);
    if (rc == 0 && v > 0 && v <= UINT32_MAX) {
        *out = (double)v * unit;
        return 0;
    }
    if (rc == 0 && v == 0)
        cli_usage_error(err, "%s: '%s' is no time at all: give a positive duration "
                             "(e.g. 90s, 12h), or none for no limit",
                        typed, CLI_QUOTE(q, arg));
    else
        cli_usage_error(err, "%s: '%s' is out of range: the number before the unit "
                             "is 1 to 4294967295",
                        typed, CLI_QUOTE(q, arg));
    return -1;
}

/* "K/M" with 1 <= K <= M. */
static int part_value(cli_opts *o, const char *arg, const char *typed, FILE *err)
{
    const char *slash = strchr(arg, '/');
    uint64_t k = 0, m = 0;
    char q[64];
    int rk = slash ? nqc_parse_u64(&k, arg, (size_t)(slash - arg)) : -1;
    int rm = slash ? nqc_parse_u64(&m, slash + 1, strlen(slash + 1)) : -1;
    if (rk == 0 && k >= 1 && (rm == -2 || (rm == 0 && m > UINT32_MAX && k <= m))) {
        cli_usage_error(err, "%s: '%s' is out of range: M is at most 4294967295",
                        typed, CLI_QUOTE(q, arg));
        return -1;
    }
    if (rk != 0 || rm != 0 || k < 1 || m < 1 || k > m) {
        cli_usage_error(err, "%s: '%s' is not K/M with 1 <= K <= M (e.g. 3/8)",
                        typed, CLI_QUOTE(q, arg));
        return -1;
    }
    o->part_k = (uint32_t)k;
    o->part_m = (uint32_t)m;
    return 0;
}

static int set_mode(cli_opts *o, const cli_option *opt, FILE *err)
{
    cli_mode mode = (cli_mode)opt->mode;
    if (o->mode != CLI_MODE_COUNT && o->mode != mode) {
        cli_usage_error(err, "--%s cannot be used with --%s", opt->name,
                        o->mode_name);
        return -1;
    }
    o->mode = mode;
    o->mode_name = opt->name;
    return 0;
}

/* Stores one option; `typed` is how it was written, for messages. */
static int apply(cli_opts *o, const cli_option *opt, const char *arg,
                 const char *typed, FILE *err)
{
    uint64_t v;
    int k;

    if (opt->mode >= 0)
        return set_mode(o, opt, err);
    switch (opt->id) {
    case CLI_OPT_HELP: o->help = 1; return 0;
    case CLI_OPT_VERSION: o->version = 1; return 0;
    case CLI_OPT_UNIQUE: o->unique = 1; return 0;
    case CLI_OPT_LABELS: o->format = CLI_FORMAT_LABELS; return 0;
    case CLI_OPT_JSON: o->format = CLI_FORMAT_JSON; return 0;
    case CLI_OPT_FORMAT:
        if ((k = pick_value(opt->id, "format", arg, typed, err)) < 0)
            return -1;
        o->format = (cli_format)k; /* the values are in cli_format's order */
        return 0;
    case CLI_OPT_METHOD:
        if ((k = pick_value(opt->id, "method", arg, typed, err)) < 0)
            return -1;
        o->method = (nq_method)(k + 1); /* from NQ_METHOD_DEFAULT + 1 */
        return 0;
    case CLI_OPT_SIMD:
        if ((k = pick_value(opt->id, "SIMD level", arg, typed, err)) < 0)
            return -1;
        o->simd = (nq_simd)k; /* from NQ_SIMD_AUTO */
        o->simd_given = 1;
        return 0;
    case CLI_OPT_DEVICE:
        if ((k = pick_value(opt->id, "device", arg, typed, err)) < 0)
            return -1;
        o->device = (nq_device)k; /* from NQ_DEVICE_CPU */
        return 0;
    case CLI_OPT_BY:
        if ((k = pick_value(opt->id, "way", arg, typed, err)) < 0)
            return -1;
        o->recheck_by = (nq_recheck_path)k; /* from NQ_RECHECK_AUTO */
        return 0;
    case CLI_OPT_SAMPLE:
        return number_value(&o->sample, arg, 1, UINT64_MAX, "sample size", typed, err);
    case CLI_OPT_PICK:
        if (!*arg) {
            cli_usage_error(err, "%s needs a list of units", typed);
            return -1;
        }
        o->units = arg;
        return 0;
    case CLI_OPT_THREADS:
    case CLI_OPT_JOBS:
        if (number_value(&v, arg, 0, 1024, "thread count", typed, err) != 0)
            return -1;
        o->threads = (unsigned)v;
        return 0;
    case CLI_OPT_MAX_MEMORY: return size_value(&o->max_memory, arg, typed, err);
    case CLI_OPT_MAX_TIME: return time_value(&o->max_time, arg, typed, err);
    case CLI_OPT_NO_NOTICE: o->no_notice = 1; return 0;
    case CLI_OPT_BOARD: o->board = 1; return 0;
    case CLI_OPT_COMPACT: o->compact = 1; return 0;
    case CLI_OPT_CANONICAL: o->canonical = 1; return 0;
    case CLI_OPT_LIMIT:
        o->has_limit = 1;
        return number_value(&o->limit, arg, 0, UINT64_MAX, "limit", typed, err);
    case CLI_OPT_SEED:
        o->has_seed = 1;
        return number_value(&o->seed, arg, 0, UINT64_MAX, "seed", typed, err);
    case CLI_OPT_MAX_STEPS:
        return number_value(&o->max_steps, arg, 0, UINT64_MAX, "step count", typed, err);
    case CLI_OPT_PROGRESS: o->progress = 1; return 0;
    case CLI_OPT_QUIET:
        /* what is said on stderr beside the results; warnings and errors
         * stay */
        o->progress = 0;
        o->no_notice = 1;
        return 0;
    case CLI_OPT_NO_PROGRESS: o->progress = 0; return 0;
    case CLI_OPT_CHECKPOINT:
        if (!*arg) {
            cli_usage_error(err, "%s needs a file name", typed);
            return -1;
        }
        o->checkpoint = arg;
        return 0;
    case CLI_OPT_CHECKPOINT_INTERVAL:
        if (number_value(&v, arg, 0, 86400, "number of seconds", typed, err) != 0)
            return -1;
        o->checkpoint_interval = (double)v;
        return 0;
    case CLI_OPT_PART: return part_value(o, arg, typed, err);
    default: return -1; /* the modes, handled above */
    }
}

/* ------------------------------------------------------------------------
 * Errors of getopt_long(), in its own words (opterr is off: the messages
 * go to `err`, not to the process's stderr)
 * ------------------------------------------------------------------------ */
/* The long option named by "--name[=value]": its index, -1 (none) or -2
 * (ambiguous). */
static int find_long(const char *name, size_t len)
{
    int found = -1;
    for (int i = 0; i < CLI_OPT_COUNT_OF_OPTIONS; i++) {
        const char *full = cli_options[i].name;
        if (strncmp(full, name, len) != 0)
            continue;
        if (full[len] == '\0')
            return i; /* exact */
        found = found == -1 ? i : -2;
    }
    return found;
}

static void long_option_error(const char *word, int missing, FILE *err)
{
    char q[64], list[512] = "";
    const char *name = word + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name), k = 0;
    int i = find_long(name, len);

    cli_quote(q, sizeof q, word, (size_t)(name - word) + len);
    if (missing) {
        cli_usage_error(err, "option '%s' requires an argument", q);
    } else if (i == -1) {
        cli_usage_error(err, "unrecognized option '%s'", q);
    } else if (i == -2) {
        for (int j = 0; j < CLI_OPT_COUNT_OF_OPTIONS && k < sizeof list; j++)
            if (strncmp(cli_options[j].name, name, len) == 0)
                k += (size_t)snprintf(list + k, sizeof list - k, " '--%s'",
                                      cli_options[j].name);
        cli_usage_error(err, "option '%s' is ambiguous; possibilities:%s", q, list);
    } else {
        cli_usage_error(err, "option '%s' doesn't allow an argument", q);
    }
}

/* "-1": a negative number, which getopt takes for an option. The word is
 * the one just finished, or the one whose letters are being read. */
static void negative_error(char **argv, int argc, int c, FILE *err)
{
    const char *w = argv[optind - 1];
    char q[64];
    if (!(w[0] == '-' && w[strlen(w) - 1] == c) && optind < argc)
        w = argv[optind];
    cli_usage_error(err, "'%s' is not a board size: sizes are not negative",
                    CLI_QUOTE(q, w));
}

static void getopt_error(int rc, char **argv, int argc, FILE *err)
{
    char q[16];
    const char *word = argv[optind - 1];
    int c = optopt;

    /* getopt sets optopt to 0 (unknown, ambiguous) or to the option's
     * value (LONG_BASE + id) for a long option, to the letter for a short
     * one; after a long one, optind is past its word */
    if (c == 0 || c >= LONG_BASE) {
        long_option_error(word, rc == ':', err);
        return;
    }
    if (c >= '0' && c <= '9' && rc == '?') {
        negative_error(argv, argc, c, err);
        return;
    }
    {
        char ch = (char)c;
        cli_quote(q, sizeof q, &ch, 1);
    }
    if (rc == ':')
        cli_usage_error(err, "option requires an argument -- '%s'", q);
    else
        cli_usage_error(err, "invalid option -- '%s'", q);
}

/* ------------------------------------------------------------------------
 * Options that the mode would ignore, and pairs that exclude each other
 * ------------------------------------------------------------------------ */
enum { EXCLUDES, NEEDS };

/* The decisions beyond each option's list of modes (optable.c). Of
 * --labels, --json and --format, of --threads and --jobs, and of
 * --progress, --no-progress and --quiet, the last one given wins: no row
 * here. */
static const struct {
    cli_opt_id a, b;
    int rule;
} pairs[] = {
    {CLI_OPT_BOARD, CLI_OPT_COMPACT, EXCLUDES},
    {CLI_OPT_CHECKPOINT_INTERVAL, CLI_OPT_CHECKPOINT, NEEDS},
    {CLI_OPT_SAMPLE, CLI_OPT_PICK, EXCLUDES},
    {CLI_OPT_SEED, CLI_OPT_PICK, EXCLUDES},
};

/* "--list, --one or --random": the modes of a set. */
static void mode_names(char *buf, size_t size, unsigned modes)
{
    size_t len = 0, n = 0, total = 0;
    for (int m = 0; m < CLI_MODE_COUNT_OF_MODES; m++)
        total += (modes & CLI_IN(m)) && cli_mode_option((cli_mode)m);
    buf[0] = '\0';
    for (int m = 0; m < CLI_MODE_COUNT_OF_MODES && len < size; m++) {
        const cli_option *mo = cli_mode_option((cli_mode)m);
        if (!(modes & CLI_IN(m)) || !mo)
            continue;
        n++;
        len += (size_t)snprintf(buf + len, size - len, "%s--%s",
                                n == 1 ? "" : (n == total ? " or " : ", "), mo->name);
    }
}

static int check_conflicts(const cli_opts *o, const unsigned char *given, FILE *err)
{
    char modes[160];
    for (int i = 0; i < CLI_OPT_COUNT_OF_OPTIONS; i++) {
        const cli_option *opt = &cli_options[i];
        if (!given[i] || (opt->modes & CLI_IN(o->mode)))
            continue;
        if (o->mode == CLI_MODE_COUNT) {
            mode_names(modes, sizeof modes, opt->modes);
            cli_usage_error(err, "--%s needs %s", opt->name, modes);
        } else {
            cli_usage_error(err, "--%s cannot be used with --%s", opt->name,
                            o->mode_name);
        }
        return -1;
    }
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *a = cli_options[pairs[i].a].name, *b = cli_options[pairs[i].b].name;
        if (pairs[i].rule == EXCLUDES && given[pairs[i].a] && given[pairs[i].b]) {
            cli_usage_error(err, "--%s cannot be used with --%s", a, b);
            return -1;
        }
        if (pairs[i].rule == NEEDS && given[pairs[i].a] && !given[pairs[i].b]) {
            cli_usage_error(err, "--%s needs --%s", a, b);
            return -1;
        }
    }
    /* the solution modes print lines or JSON: no labels, no drawing in
     * JSON */
    if (o->format == CLI_FORMAT_LABELS && o->mode != CLI_MODE_COUNT &&
        !(cli_options[CLI_OPT_LABELS].modes & CLI_IN(o->mode))) {
        cli_usage_error(err, "--format=labels cannot be used with --%s", o->mode_name);
        return -1;
    }
    if (o->format == CLI_FORMAT_JSON && (o->board || o->compact)) {
        cli_usage_error(err, "--%s cannot be used with --json",
                        o->board ? "board" : "compact");
        return -1;
    }
    if (o->unique && (o->method == NQ_METHOD_PLAIN || o->method == NQ_METHOD_JOIN)) {
        cli_usage_error(err, "--unique needs the symmetry method (the %s method "
                             "counts totals only)", nq_method_name(o->method));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * The parse
 * ------------------------------------------------------------------------ */
static void defaults(cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->mode = CLI_MODE_COUNT;
    o->format = CLI_FORMAT_BARE;
    o->method = NQ_METHOD_DEFAULT;
    o->simd = NQ_SIMD_AUTO;
    o->device = NQ_DEVICE_CPU;
    o->progress = -1;
    o->checkpoint_interval = 10.0;
    o->max_time = CLI_DEFAULT_MAX_TIME;
}

/* The getopt_long() tables, built from the option table. */
static void build_tables(struct option *longopts, char *shortopts)
{
    size_t k = 0;
    shortopts[k++] = ':'; /* report a missing value as ':' */
    for (int i = 0; i < CLI_OPT_COUNT_OF_OPTIONS; i++) {
        const cli_option *opt = &cli_options[i];
        longopts[i].name = opt->name;
        longopts[i].has_arg = opt->arg ? required_argument : no_argument;
        longopts[i].flag = NULL;
        longopts[i].val = LONG_BASE + i;
        if (opt->short_name) {
            shortopts[k++] = opt->short_name;
            if (opt->arg)
                shortopts[k++] = ':';
        }
    }
    shortopts[k] = '\0';
    memset(&longopts[CLI_OPT_COUNT_OF_OPTIONS], 0, sizeof longopts[0]);
}

/* The option as typed ("-j", "--thr"), into buf. */
static const char *typed_name(char *buf, size_t size, int c, char **argv)
{
    const char *w;
    if (c < LONG_BASE) {
        snprintf(buf, size, "-%c", c);
        return buf;
    }
    /* the word just read, or the one before it when the value was the
     * next word */
    w = argv[optind - 1];
    if (optarg && optarg == w)
        w = argv[optind - 2];
    return cli_quote(buf, size, w, strcspn(w, "="));
}

int cli_parse_args(cli_opts *o, int argc, char **argv, FILE *err)
{
    struct option longopts[CLI_OPT_COUNT_OF_OPTIONS + 1];
    char shortopts[2 * CLI_OPT_COUNT_OF_OPTIONS + 2], typed[64];
    unsigned char given[CLI_OPT_COUNT_OF_OPTIONS] = {0};
    int c;

    defaults(o);
    build_tables(longopts, shortopts);
#ifdef __GLIBC__
    optind = 0; /* a full reset, permutation state included */
#else
    optind = 1;
#endif
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        const cli_option *opt = NULL;
        if (c == '?' || c == ':') {
            getopt_error(c, argv, argc, err);
            return -1;
        }
        if (c >= LONG_BASE) {
            opt = &cli_options[c - LONG_BASE];
        } else {
            for (int i = 0; i < CLI_OPT_COUNT_OF_OPTIONS && !opt; i++)
                if (cli_options[i].short_name == c)
                    opt = &cli_options[i];
        }
        if (!opt)
            return -1; /* cannot happen: getopt returns only what the tables hold */
        given[opt->id] = 1;
        if (apply(o, opt, optarg, typed_name(typed, sizeof typed, c, argv), err) != 0)
            return -1;
    }
    o->operands = argv + optind;
    o->noperands = (size_t)(argc - optind);
    if (o->help || o->version)
        return 0;
    return check_conflicts(o, given, err);
}
