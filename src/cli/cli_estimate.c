/*
 * --estimate: the library times a sample of each count, or prices it by
 * the method's cost model (nq_estimate); this file prints it, and, before
 * a count, warns of one that will take long and refuses one that cannot
 * finish (--max-time).
 */
#include "cli_estimate.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli_devices.h"
#include "cli_exit.h"
#include "cli_output.h"
#include "cli_signals.h"
#include "nqc_memory.h"
#include "nqc_plural.h"
#include "nqc_signal.h"

/* Seconds of sampling per size: --estimate, and the notice. */
#define ESTIMATE_BUDGET 2.0
#define NOTICE_BUDGET 0.2
/* The sample of --estimate is seeded by n alone, so that two runs look at
 * the same work and differ only by the machine's speed. */
#define ESTIMATE_SEED UINT64_C(0x6e7165737469)
/* Estimates below this many seconds are said to be under it: the sample's
 * precision is not finer. */
#define QUICK_SECONDS 0.1
/* Counts longer than this also say their core-hours. */
#define CORE_HOURS_FROM 3600.0
/* Counts below this n take seconds at most: no notice, no sampling. Off
 * a terminal, where only a day or --max-time matters, sampling starts
 * higher (n = 21 takes minutes on two cores: a day would need a machine a
 * few hundred times slower), so that a script's mid-sized counts pay
 * nothing for it; an explicit --max-time samples from NOTICE_MIN_N. */
#define NOTICE_MIN_N 17
#define NOTICE_MIN_N_OFF_TTY 21
/* The notice: on a terminal, where someone waits, from a minute on; in a
 * script or a batch job, from a day on. */
#define NOTICE_TTY_SECONDS 60.0
#define NOTICE_SECONDS 86400.0

/* The units of a duration, largest first, and their names. */
static const double unit_seconds[] = {31557600.0, 86400.0, 3600.0, 60.0, 1.0};
static const char *const unit_names[] = {"years", "days", "hours", "minutes", "seconds"};
#define UNITS (sizeof unit_seconds / sizeof unit_seconds[0])

/* The unit that a duration of s seconds is written in: the largest of
 * which it holds 1.5 or more, else seconds. */
static size_t duration_unit(double s)
{
    size_t i = 0;
    while (i + 1 < UNITS && s < 1.5 * unit_seconds[i])
        i++;
    return i;
}

/* v seconds in unit i of duration_unit(), without the unit's name: no
 * decimals from 10 on, one below, two significant digits below 0.1. */
static void format_in_unit(char *buf, size_t size, double v, size_t i)
{
    v /= unit_seconds[i];
    snprintf(buf, size, v >= 10 || v <= 0 ? "%.0f" : v >= 0.1 ? "%.1f" : "%.2g", v);
}

void cli_format_duration(char *buf, size_t size, double s)
{
    const size_t i = duration_unit(s);
    char v[24];
    format_in_unit(v, sizeof v, s, i);
    snprintf(buf, size, "%s %s", v, unit_names[i]);
}

/* Where the count would run, in the sentence's words: "with 2 threads",
 * or "on one GPU". */
static void say_where(char *buf, size_t size, const nq_estimate_result *e)
{
    if (e->device == NQ_DEVICE_GPU)
        snprintf(buf, size, "on one GPU");
    else
        snprintf(buf, size, "with %u thread%s", e->threads, nqc_plural(e->threads, "", "s"));
}

void cli_estimate_sentence(char *buf, size_t size, const nq_estimate_result *e,
                           uint64_t memory)
{
    const size_t u = duration_unit(e->seconds);
    char when[48], lo[24], hi[24], bytes[32], core[48] = "", where[32];
    int n;

    cli_format_duration(when, sizeof when, e->seconds);
    nqc_format_bytes(bytes, sizeof bytes, memory);
    say_where(where, sizeof where, e);
    if (e->cpu_seconds >= CORE_HOURS_FROM)
        snprintf(core, sizeof core, ", %.3g %s-hours", e->cpu_seconds / 3600.0,
                 e->device == NQ_DEVICE_GPU ? "GPU" : "core");
    if (e->kind == NQ_ESTIMATE_LOWER_BOUND) {
        n = snprintf(buf, size, "at least %s", when);
    } else if (e->seconds < QUICK_SECONDS && (e->kind == NQ_ESTIMATE_EXACT || !(e->high >= QUICK_SECONDS))) {
        /* no one waits for it: the start of a process takes as long */
        n = snprintf(buf, size, "under %.1f seconds", QUICK_SECONDS);
    } else if (e->kind == NQ_ESTIMATE_EXACT || !(e->high > e->low)) {
        n = snprintf(buf, size, "about %s", when);
    } else {
        format_in_unit(lo, sizeof lo, e->low, u);
        format_in_unit(hi, sizeof hi, e->high, u);
        n = snprintf(buf, size, "about %s (%s to %s %s)", when, lo, hi, unit_names[u]);
    }
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " %s, %s of memory%s", where, bytes, core);
}

/* The refusal of a count of n with co that needs `need` bytes at least;
 * when one thread would fit, it is named as the way out. */
static void say_refusal(const nq_count_options *co, unsigned n, uint64_t need, FILE *err)
{
    nq_count_options one = *co;
    unsigned threads = co->threads ? co->threads : nq_cpus_usable();
    uint64_t need_one = 0;
    char text[256];

    one.threads = 1;
    if (co->device == NQ_DEVICE_GPU) {
        /* -j changes nothing there: name what does */
        nqc_gpu_memory_refusal(text, sizeof text, n, need, co->max_memory, "this machine");
        cli_error(err, "%s", text);
        return;
    }
    if (threads == 1 || nq_memory(&need_one, n, &one) != NQ_OK)
        need_one = 0;
    nqc_memory_refusal(text, sizeof text, n, need, threads, co->max_memory, need_one,
                       "this machine");
    cli_error(err, "%s", text);
}

void cli_say_memory_refusal(const nq_count_options *co, unsigned n, FILE *err)
{
    uint64_t need = 0;
    if (nq_memory(&need, n, co) != NQ_EMEMLIMIT)
        cli_error(err, "n = %u: %s", n, nq_strerror(NQ_EMEMLIMIT));
    else
        say_refusal(co, n, need, err);
}

int cli_check_memory(const nq_count_options *co, const cli_sizes *sizes, FILE *err)
{
    for (size_t i = 0; i < sizes->len; i++) {
        uint64_t need = 0;
        if (nq_memory(&need, sizes->n[i], co) == NQ_EMEMLIMIT) {
            say_refusal(co, sizes->n[i], need, err);
            return -1;
        }
    }
    return 0;
}

/* Every format says "at least" of a lower bound, or gives the interval:
 * the bare one in words, in the unit that suits the time ("n = 24: about
 * 46 hours (41 to 52 hours) with 2 threads, ..."), --labels and --json in
 * seconds as well, for scripts. */
static void print_estimate(const cli_opts *o, unsigned n, const nq_estimate_result *e,
                           FILE *out)
{
    const uint64_t memory = e->memory;
    const char *method = nq_method_name(e->method);
    const int lower_bound = e->kind == NQ_ESTIMATE_LOWER_BOUND;
    const char *bound = lower_bound ? "at least " : "";
    char sentence[160], high[32];

    cli_estimate_sentence(sentence, sizeof sentence, e, memory);
    if (lower_bound)
        snprintf(high, sizeof high, o->format == CLI_FORMAT_JSON ? "null" : "-");
    else
        snprintf(high, sizeof high, "%.3f", e->high);
    switch (o->format) {
    case CLI_FORMAT_BARE: /* for a person; scripts read --labels or --json */
        fprintf(out, "n = %u: %s\n", n, sentence);
        break;
    case CLI_FORMAT_LABELS:
        fprintf(out, "%u\t%s%.3f\t%u\t%s\t%.3f\t%s\t%.4g\t%s\n", n, bound, e->seconds,
                e->threads, method, e->low, high, e->cpu_seconds / 3600.0, sentence);
        break;
    case CLI_FORMAT_JSON:
        fprintf(out, "{\"n\":%u,\"seconds\":%.3f,\"threads\":%u,\"method\":\"%s\","
                     "\"device\":\"%s\",\"units\":%llu,\"units_sampled\":%llu,\"exact\":%s,\"lower_bound\":%s,"
                     "\"memory\":%llu,\"low\":%.3f,\"high\":%s,\"core_hours\":%.4g,"
                     "\"modelled\":%s,\"samples\":%llu,\"text\":\"%s\"}\n",
                n, e->seconds, e->threads, method, nq_device_name(e->device),
                (unsigned long long)e->units_total,
                (unsigned long long)e->units_sampled,
                e->kind == NQ_ESTIMATE_EXACT ? "true" : "false",
                lower_bound ? "true" : "false", (unsigned long long)memory, e->low, high,
                e->cpu_seconds / 3600.0, e->kind == NQ_ESTIMATE_MODELLED ? "true" : "false",
                (unsigned long long)e->samples, sentence);
        break;
    }
}

int cli_estimate(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err)
{
    nq_count_options co = cli_count_options(o);
    int status = CLI_EXIT_OK;

    if (cli_check_choice(o, &co, sizes, err) != 0)
        return CLI_EXIT_USAGE;
    /* several sizes: refuse any that cannot fit before printing any (one
     * size is refused by nq_estimate(), which works the memory out too) */
    if (sizes->len > 1 && cli_check_memory(&co, sizes, err) != 0)
        return CLI_EXIT_USAGE;
    co.stop = cli_catch_signals();
    for (size_t i = 0; i < sizes->len && status == CLI_EXIT_OK; i++) {
        nq_estimate_result e = NQ_ESTIMATE_RESULT_INIT;
        int rc = nq_estimate(&e, sizes->n[i], &co, ESTIMATE_BUDGET,
                             ESTIMATE_SEED + sizes->n[i]);
        if (rc == NQ_ECANCELED && cli_caught_signal()) {
            cli_error(err, "interrupted by %s", nqc_signal_name(cli_caught_signal()));
            status = 128 + cli_caught_signal();
        } else if (rc == NQ_EMEMLIMIT) {
            cli_say_memory_refusal(&co, sizes->n[i], err);
            status = CLI_EXIT_USAGE;
        } else if (rc == NQ_EPUBLISHED) {
            /* the sample was the whole count, and it came out wrong */
            cli_error(err, "n = %u: the estimate counted every unit, and the count is not "
                           "the published one: the device or the program miscounts (`nqueens "
                           "--check` with the same options shows both numbers)",
                      sizes->n[i]);
            status = CLI_EXIT_FAILURE;
        } else if (rc != NQ_OK) {
            cli_error(err, "n = %u: %s", sizes->n[i], nq_strerror(rc));
            status = CLI_EXIT_FAILURE;
        } else {
            /* the header with the first line: an estimate refused before
             * it leaves nothing on standard output */
            if (i == 0 && o->format == CLI_FORMAT_LABELS)
                fputs("n\tseconds\tthreads\tmethod\tlow\thigh\tcore_hours\testimate\n", out);
            print_estimate(o, sizes->n[i], &e, out);
            status = cli_flush(out, err);
        }
    }
    cli_release_signals();
    return status;
}

int cli_forecast_counts(nq_estimate_result **out, const cli_opts *o,
                        const nq_count_options *co, const cli_sizes *sizes, FILE *err)
{
    nq_estimate_result *f = calloc(sizes->len ? sizes->len : 1, sizeof *f);
    uint64_t seed = cli_clock_seed();
    char when[64], limit[64], where[32];
    unsigned min_n = isatty(fileno(err)) || o->max_time != CLI_DEFAULT_MAX_TIME
                         ? NOTICE_MIN_N : NOTICE_MIN_N_OFF_TTY;

    *out = f;
    if (!f) {
        cli_error(err, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    if (o->no_notice && o->max_time <= 0.0)
        return 0; /* nothing would be said: no sampling */
    for (size_t i = 0; i < sizes->len; i++) {
        nq_estimate_result *e = &f[i];
        unsigned n = sizes->n[i];
        int rc;
        if (n < min_n)
            continue; /* known to be quick: a zero forecast */
        e->version = NQ_ESTIMATE_RESULT_VERSION;
        rc = nq_estimate(e, n, co, NOTICE_BUDGET, seed + i);
        if (rc != NQ_OK)
            memset(e, 0, sizeof *e);
        if (rc == NQ_ECANCELED)
            break; /* stopped: the count will stop too, and say so */
        if (rc != NQ_OK)
            continue; /* the count fails on its own, with its own message */
        if (co->part_m > 1) { /* the sample is of the whole count */
            e->seconds /= co->part_m;
            e->low /= co->part_m;
            e->high /= co->part_m;
            e->cpu_seconds /= co->part_m;
        }
        if (o->max_time > 0.0 && e->seconds > o->max_time) {
            cli_format_duration(when, sizeof when, e->seconds);
            cli_format_duration(limit, sizeof limit, o->max_time);
            say_where(where, sizeof where, e);
            cli_error(err, "n = %u: %s %s %s, more than --max-time "
                           "allows (%s); --max-time=none counts anyway", n,
                      e->kind == NQ_ESTIMATE_LOWER_BOUND ? "at least" : "about", when,
                      where, limit);
            free(f);
            *out = NULL;
            return CLI_EXIT_USAGE;
        }
    }
    return 0;
}

void cli_notice_long_count(const cli_opts *o, unsigned n, const nq_estimate_result *e,
                           int tty, FILE *err)
{
    char sentence[160];

    if (o->no_notice || e->seconds < (tty ? NOTICE_TTY_SECONDS : NOTICE_SECONDS))
        return;
    cli_estimate_sentence(sentence, sizeof sentence, e, e->memory);
    cli_error(err, "n = %u: %s", n, sentence);
}
