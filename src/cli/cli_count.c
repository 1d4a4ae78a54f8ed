/*
 * Counting: one line per size as each count ends, flushed at once so that
 * a pipeline sees it; progress on stderr; SIGINT and SIGTERM stop the
 * count and leave the checkpoint saved.
 */
#include "cli_count.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_devices.h"
#include "cli_exit.h"
#include "cli_estimate.h"
#include "nqc_clock.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "cli_signals.h"
#include "nqc_checkpoint.h"
#include "nqc_plural.h"
#include "nqc_signal.h"

static void print_count(const cli_opts *o, unsigned n,
                        const nq_count_result *r, double seconds, FILE *out)
{
    switch (o->format) {
    case CLI_FORMAT_BARE:
        fprintf(out, "%llu\n",
                (unsigned long long)(o->unique ? r->unique : r->total));
        break;
    case CLI_FORMAT_LABELS:
        fprintf(out, "%u\t%llu", n, (unsigned long long)r->total);
        if (o->unique)
            fprintf(out, "\t%llu", (unsigned long long)r->unique);
        if (o->part_m)
            fprintf(out, "\t%lu/%lu\t%s\t%lu", (unsigned long)o->part_k,
                    (unsigned long)o->part_m, nq_method_name(r->method),
                    (unsigned long)nq_unit_list_version(r->method));
        fputc('\n', out);
        break;
    case CLI_FORMAT_JSON:
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
        fprintf(out, ",\"seconds\":%.3f", seconds);
        if (!o->part_m) { /* a part's count is the same on either device */
            fprintf(out, ",\"device\":\"%s\"", nq_device_name(r->device));
        } else {
            /* a hash of the line's content: --merge refuses a damaged one */
            nq_part p = NQ_PART_INIT;
            p.n = n;
            p.method = r->method;
            p.unit_list_version = nq_unit_list_version(r->method);
            p.part = o->part_k;
            p.parts = o->part_m;
            p.total = r->total;
            p.has_unique = o->unique || r->has_unique;
            p.unique = p.has_unique ? r->unique : 0;
            fprintf(out, ",\"check\":\"%016llx\"", (unsigned long long)nq_part_checksum(&p));
        }
        fputs("}\n", out);
        break;
    }
}

/* Opens --checkpoint for n with co's method, with a message for each way
 * it can fail; `file` is the file's header as peeked before (NULL if it
 * could not be read), which names what a mismatch is. */
static int open_checkpoint(nq_checkpoint **cp, const char *path, unsigned n,
                           const nq_count_options *co, const nq_checkpoint_info *file,
                           FILE *err)
{
    char name[CLI_QUOTE_SIZE], why[CLI_QUOTE_SIZE + 256];
    int rc = nq_checkpoint_open(cp, path, n, co->method), e = errno;

    if (rc == NQ_OK)
        return 0;
    CLI_QUOTE(name, path);
    if (rc == NQ_EMISMATCH) {
        nqc_checkpoint_mismatch(why, sizeof why, file, n, co->method, co->unique);
        cli_error(err, "%s %s; refusing to use it", name, why);
    } else {
        nqc_checkpoint_open_error(why, sizeof why, rc, e, path, name);
        cli_error(err, "%s%s", why, rc == NQ_EFORMAT ? "; refusing to use it" : "");
    }
    return -1;
}

/* One line on stderr when a checkpoint already holds finished work;
 * @return 1 if it did. */
static int say_resuming(const nq_checkpoint *cp, FILE *err)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    if (nq_checkpoint_info_get(&info, cp) != NQ_OK || info.units_done == 0)
        return 0;
    cli_error(err, "resuming: %llu of %llu units already done",
              (unsigned long long)info.units_done, (unsigned long long)info.units_total);
    return 1;
}

/* A count that is not the published one (NQ_EPUBLISHED: r holds it), or
 * a checkpoint whose records and this run's units add up past it
 * (NQ_EOVERFLOW after `resumed` units were read from the file): one line
 * that names the file at fault (`name`, NULL without one: it holds every
 * unit now, for --recheck) and the way out, never "run the same command
 * again", which would end the same way. @return the exit status,
 * 2 where the checkpoint held finished units before this run (the file
 * cannot be used as it is), else 1; -1 for another rc. */
static int wrong_count(const nq_count_result *r, unsigned n, int rc, const char *name,
                       uint64_t resumed, FILE *err)
{
    char why[3 * CLI_QUOTE_SIZE + 512];
    uint64_t kt = 0, ku = 0;

    if (nq_known(&kt, &ku, n) != NQ_OK || (rc == NQ_EOVERFLOW && (!name || !resumed)))
        return -1;
    if (rc == NQ_EPUBLISHED)
        nqc_published_mismatch(why, sizeof why, n, r->total, r->unique, r->has_unique, kt, ku,
                               name);
    else if (rc == NQ_EOVERFLOW)
        nqc_published_passed(why, sizeof why, n, kt, name);
    else
        return -1;
    cli_error(err, "%s", why);
    return name && resumed ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

/* Why a count failed, on err; `resumed`: the units the checkpoint held
 * before the count. @return the exit status. */
static int count_failed(const cli_opts *o, const nq_count_options *co,
                        nq_checkpoint *cp, uint64_t resumed, unsigned n,
                        const nq_count_result *r, int rc, FILE *err)
{
    char name[CLI_QUOTE_SIZE];
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    int sig = cli_caught_signal(), status;

    if (o->checkpoint)
        CLI_QUOTE(name, o->checkpoint);
    status = wrong_count(r, n, rc, o->checkpoint ? name : NULL, resumed, err);
    if (status >= 0)
        return status;
    if (rc == NQ_ECANCELED && sig) {
        /* the library saved the checkpoint before it answered NQ_ECANCELED
         * (a failed save answers NQ_EIO instead): the file is there */
        if (cp && nq_checkpoint_info_get(&info, cp) == NQ_OK)
            cli_error(err, "interrupted by %s; %llu of %llu units are saved in %s: "
                           "run the same command again to resume",
                      nqc_signal_name(sig), (unsigned long long)info.units_done,
                      (unsigned long long)info.units_total, name);
        else
            cli_error(err, "interrupted by %s (use --checkpoint FILE to make long "
                           "runs resumable)", nqc_signal_name(sig));
        return 128 + sig;
    }
    if (rc == NQ_EMEMLIMIT) { /* refused before counting: no rerun fits */
        cli_say_memory_refusal(co, n, err);
        return CLI_EXIT_USAGE;
    }
    if (rc == NQ_EIO && cp)
        cli_error(err, "%s: cannot save the checkpoint: %s", name, strerror(errno));
    else if (cp && nq_checkpoint_info_get(&info, cp) == NQ_OK && info.units_done > 0 &&
             nq_checkpoint_save(cp) == NQ_OK)
        /* a count that failed midway (a GPU lost, memory gone) keeps its
         * finished units: saved once more here, so that the line is true
         * even where the library's own last save failed */
        cli_error(err, "n = %u: %s; %llu of %llu units are saved in %s: run the same "
                       "command again to resume", n, nq_strerror(rc),
                  (unsigned long long)info.units_done, (unsigned long long)info.units_total,
                  name);
    else
        cli_error(err, "n = %u: %s", n, nq_strerror(rc));
    return CLI_EXIT_FAILURE;
}

/* --part K/M splits each size's unit list in M: M must not pass the
 * number of units, or some parts would hold none. Checked for every size
 * before the first count; @return 0, or -1 after the message. */
static int check_parts(const cli_opts *o, const nq_count_options *co,
                       const cli_sizes *sizes, FILE *err)
{
    for (size_t i = 0; o->part_m && i < sizes->len; i++) {
        uint64_t units;
        nq_method m;
        nq_device d;
        /* the unit list of the method the count will run (the default's
         * depends on the device) */
        int rc = nq_count_choice(&m, &d, sizes->n[i], co);
        if (rc == NQ_OK)
            rc = nq_units(&units, sizes->n[i], m);
        if (rc != NQ_OK) {
            cli_error(err, "n = %u: %s", sizes->n[i], nq_strerror(rc));
            return -1;
        }
        if (o->part_m > units && units == 0) {
            cli_usage_error(err, "--part %lu/%lu: n = %u has no work units to split",
                            (unsigned long)o->part_k, (unsigned long)o->part_m,
                            sizes->n[i]);
            return -1;
        }
        if (o->part_m > units) {
            cli_usage_error(err, "--part %lu/%lu: n = %u has %llu work unit%s, so M "
                                 "can be at most %llu",
                            (unsigned long)o->part_k, (unsigned long)o->part_m,
                            sizes->n[i], (unsigned long long)units,
                            nqc_plural(units, "", "s"), (unsigned long long)units);
            return -1;
        }
    }
    return 0;
}

/* The count options of a plain count: the command line's, with the
 * method a checkpoint file was made by; everything that checks or
 * estimates the count then reads these, and nothing patches them later. */
static nq_count_options count_options(const cli_opts *o, const cli_sizes *sizes,
                                      nq_checkpoint_info *file, int *has_file)
{
    nq_count_options co = cli_count_options(o);
    co.part_k = o->part_k;
    co.part_m = o->part_m;
    co.checkpoint_interval = o->checkpoint_interval;
    *has_file = o->checkpoint && sizes->len == 1 &&
                nq_checkpoint_peek(file, o->checkpoint) == NQ_OK;
    if (o->checkpoint && sizes->len == 1)
        co.method = nqc_checkpoint_method(co.method, sizes->n[0], *has_file ? file : NULL);
    return co;
}

int cli_count(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err)
{
    nq_checkpoint_info file = NQ_CHECKPOINT_INFO_INIT;
    int has_file = 0;
    nq_count_options co;
    cli_progress_state ps;
    nq_checkpoint *cp = NULL;
    nq_checkpoint_info held = NQ_CHECKPOINT_INFO_INIT;
    nq_estimate_result *forecast = NULL;
    int status = CLI_EXIT_OK, notice = !o->no_notice, rc;

    if (o->checkpoint && sizes->len != 1) {
        cli_usage_error(err, "--checkpoint takes one board size, not %zu", sizes->len);
        return CLI_EXIT_USAGE;
    }
    co = count_options(o, sizes, &file, &has_file);
    if (cli_check_choice(o, &co, sizes, err) != 0 || check_parts(o, &co, sizes, err) != 0)
        return CLI_EXIT_USAGE;
    /* a part printed bare or with labels is for a person to read: on a
     * terminal, where one reads it, say what a merge needs */
    if (o->part_m && o->format != CLI_FORMAT_JSON && isatty(fileno(err)))
        cli_error(err, "note: --merge reads only parts printed with --json");
    if (cli_check_memory(&co, sizes, err) != 0)
        return CLI_EXIT_USAGE;
    /* caught before the forecast and before the lock is taken: a stop while
     * the forecast samples stops the count at once, with the usual message,
     * and no stop leaves the lock behind */
    co.stop = cli_catch_signals();
    if ((rc = cli_forecast_counts(&forecast, o, &co, sizes, err)) != 0)
        status = rc;
    else if (o->checkpoint && open_checkpoint(&cp, o->checkpoint, sizes->n[0], &co,
                                              has_file ? &file : NULL, err) != 0)
        status = CLI_EXIT_USAGE;
    if (status != CLI_EXIT_OK) {
        cli_release_signals();
        free(forecast);
        return status;
    }
    co.checkpoint = cp;
    if (cp) /* what the file held: a wrong count then blames it */
        (void)nq_checkpoint_info_get(&held, cp);
    cli_progress_init(&ps, err, o->progress == 1);
    if (o->progress == 1 || (o->progress == -1 && ps.tty)) {
        co.progress = cli_progress;
        co.progress_data = &ps;
        /* a resumed count has less left than the forecast says */
        if (cp && say_resuming(cp, err))
            notice = 0;
    }

    for (size_t i = 0; i < sizes->len && status == CLI_EXIT_OK; i++) {
        nq_count_result r = NQ_COUNT_RESULT_INIT;
        double start;
        if (notice)
            cli_notice_long_count(o, sizes->n[i], &forecast[i], ps.tty, err);
        start = nqc_now();
        ps.n = sizes->n[i];
        rc = nq_count(&r, sizes->n[i], &co);
        cli_progress_end(&ps);
        if (rc != NQ_OK) {
            status = count_failed(o, &co, cp, held.units_done, sizes->n[i], &r, rc, err);
        } else {
            if (i == 0 && o->format == CLI_FORMAT_LABELS) {
                /* the header with the first line: a count that fails
                 * leaves nothing on stdout */
                fputs(o->unique ? "n\ttotal\tunique" : "n\ttotal", out);
                fputs(o->part_m ? "\tpart\tmethod\tunit_list_version\n" : "\n", out);
            }
            print_count(o, sizes->n[i], &r, nqc_now() - start, out);
            status = cli_flush(out, err);
        }
    }
    /* the lock goes before the handlers: no stop can leave it behind */
    nq_checkpoint_close(cp);
    free(forecast);
    cli_release_signals();
    return status;
}

/* --check with the options co: the lines, then the verdict. */
static int check_sizes(const cli_opts *o, const nq_count_options *co,
                       const nq_estimate_result *forecast, const cli_sizes *sizes,
                       FILE *out, FILE *err)
{
    int mismatches = 0, status, tty = isatty(fileno(err));

    for (size_t i = 0; i < sizes->len; i++) {
        unsigned n = sizes->n[i];
        nq_count_result r = NQ_COUNT_RESULT_INIT;
        uint64_t kt = 0, ku = 0;
        int known = nq_known(&kt, &ku, n) == NQ_OK;
        double seconds;
        int rc;
        const char *verdict;
        char unique[24] = "-", ktext[24] = "-", utext[24] = "-";

        cli_notice_long_count(o, n, &forecast[i], tty, err);
        seconds = nqc_now();
        rc = nq_count(&r, n, co);
        seconds = nqc_now() - seconds;
        if (rc == NQ_ECANCELED && cli_caught_signal()) {
            cli_error(err, "interrupted by %s", nqc_signal_name(cli_caught_signal()));
            return 128 + cli_caught_signal();
        }
        if (rc == NQ_EMEMLIMIT) {
            cli_say_memory_refusal(co, n, err);
            return CLI_EXIT_USAGE;
        }
        if (rc != NQ_OK && rc != NQ_EPUBLISHED) { /* a mismatch is shown below */
            cli_error(err, "n = %u: %s", n, nq_strerror(rc));
            return CLI_EXIT_FAILURE;
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
        if (o->format == CLI_FORMAT_JSON) {
            fprintf(out, "{\"n\":%u,\"total\":%llu", n, (unsigned long long)r.total);
            if (r.has_unique)
                fprintf(out, ",\"unique\":%s", unique);
            if (known)
                fprintf(out, ",\"known_total\":%s,\"known_unique\":%s", ktext, utext);
            fprintf(out,
                    ",\"method\":\"%s\",\"status\":\"%s\",\"seconds\":%.3f,\"device\":\"%s\"}\n",
                    nq_method_name(r.method), verdict, seconds, nq_device_name(r.device));
        } else {
            if (i == 0) /* the header with the first line, as in cli_count() */
                fputs("n\ttotal\tunique\tknown_total\tknown_unique\tstatus\n", out);
            fprintf(out, "%u\t%llu\t%s\t%s\t%s\t%s\n", n,
                    (unsigned long long)r.total, unique, ktext, utext, verdict);
        }
        if ((status = cli_flush(out, err)) != CLI_EXIT_OK)
            return status;
    }
    if (mismatches) {
        cli_error(err, "%d count%s differ%s from the known values", mismatches,
                  nqc_plural((uint64_t)mismatches, "", "s"),
                  nqc_plural((uint64_t)mismatches, "s", ""));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

int cli_check(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err)
{
    nq_count_options co = cli_count_options(o);
    nq_estimate_result *forecast = NULL;
    int status, rc;

    /* both sequences are checked unless a method without unique counts
     * is named */
    if (co.method == NQ_METHOD_DEFAULT) {
        co.method = NQ_METHOD_SYMMETRY;
        co.unique = 1;
    }
    /* a size with no published value has nothing to be checked against:
     * its count (years of work) could only end in "unknown" */
    for (size_t i = 0; i < sizes->len; i++)
        if (nq_known(NULL, NULL, sizes->n[i]) != NQ_OK) {
            cli_usage_error(err, "--check %u: n = %u has no published count to "
                                 "compare with (known: n <= 27)", sizes->n[i],
                            sizes->n[i]);
            return CLI_EXIT_USAGE;
        }
    if (cli_check_choice(o, &co, sizes, err) != 0 || cli_check_memory(&co, sizes, err) != 0)
        return CLI_EXIT_USAGE;
    co.stop = cli_catch_signals();
    if ((rc = cli_forecast_counts(&forecast, o, &co, sizes, err)) != 0)
        status = rc;
    else
        status = check_sizes(o, &co, forecast, sizes, out, err);
    free(forecast);
    cli_release_signals();
    return status;
}
