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

#include "cli.h"
#include "cli_estimate.h"
#include "nqc_clock.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "cli_signals.h"

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
        if (o->part_m) {
            /* a hash of the line's content: --merge refuses a damaged one */
            nq_part p;
            memset(&p, 0, sizeof p);
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

/* Names what differs between the file and this count ("FILE holds
 * n = 17, not 16"), as far as the file can be read. */
static void say_mismatch(const char *name, const cli_opts *o, unsigned n,
                         nq_method method, FILE *err)
{
    nq_checkpoint_info file, want;
    nq_checkpoint *mem = NULL;
    int known = nq_checkpoint_peek(&file, o->checkpoint) == NQ_OK &&
                nq_checkpoint_open(&mem, NULL, n, method) == NQ_OK &&
                nq_checkpoint_info_get(&want, mem) == NQ_OK;
    const char *fm = known ? nq_method_name(file.method) : NULL;

    nq_checkpoint_close(mem);
    if (known && file.n != want.n)
        cli_error(err, "%s holds n = %u, not %u; refusing to use it", name, file.n, want.n);
    else if (known && file.method != want.method)
        cli_error(err, "%s holds method %s, not %s; refusing to use it", name,
                  fm ? fm : "(unknown)", nq_method_name(want.method));
    else if (known && file.unit_list_version != want.unit_list_version)
        cli_error(err, "%s holds unit list version %lu, not %lu (made by another "
                       "version of nqueens); refusing to use it", name,
                  (unsigned long)file.unit_list_version,
                  (unsigned long)want.unit_list_version);
    else if (known && file.units_total != want.units_total)
        cli_error(err, "%s holds %llu units, not %llu; refusing to use it", name,
                  (unsigned long long)file.units_total,
                  (unsigned long long)want.units_total);
    else
        cli_error(err, "%s: this checkpoint belongs to another board size, method "
                       "or version of the unit list; refusing to use it", name);
}

/* The method of a count with --checkpoint: the one named, else the one
 * that made the file (a run of an older default resumes as it began, if
 * that method gives what is asked), else the default. */
static nq_method checkpoint_method(const cli_opts *o, unsigned n)
{
    nq_count_options co = cli_count_options(o);
    nq_checkpoint_info file;
    if (co.method == NQ_METHOD_DEFAULT &&
        nq_checkpoint_peek(&file, o->checkpoint) == NQ_OK && file.n == n &&
        nq_method_name(file.method) != NULL)
        return file.method;
    return co.method;
}

/* Opens --checkpoint for n, with a message for each way it can fail. */
static int open_checkpoint(nq_checkpoint **cp, const cli_opts *o,
                           unsigned n, nq_method method, FILE *err)
{
    char name[CLI_QUOTE_SIZE];
    int rc = nq_checkpoint_open(cp, o->checkpoint, n, method);

    CLI_QUOTE(name, o->checkpoint);
    switch (rc) {
    case NQ_OK: return 0;
    case NQ_EFORMAT:
        cli_error(err, "%s: not a checkpoint, or truncated or corrupted; refusing to use it",
                  name);
        break;
    case NQ_EMISMATCH:
        say_mismatch(name, o, n, method, err);
        break;
    case NQ_EIO:
        cli_error(err, "%s: %s", name, strerror(errno));
        break;
    default:
        cli_error(err, "%s: %s", name, nq_strerror(rc));
        break;
    }
    return -1;
}

/* One line on stderr when a checkpoint already holds finished work;
 * @return 1 if it did. */
static int say_resuming(const nq_checkpoint *cp, FILE *err)
{
    nq_checkpoint_info info;
    if (nq_checkpoint_info_get(&info, cp) != NQ_OK || info.units_done == 0)
        return 0;
    fprintf(err, "resuming: %llu of %llu units already done\n",
            (unsigned long long)info.units_done, (unsigned long long)info.units_total);
    fflush(err);
    return 1;
}

/* Why a count failed, on err; @return the exit status. */
static int count_failed(const cli_opts *o, const nq_count_options *co,
                        const nq_checkpoint *cp, unsigned n, int rc, FILE *err)
{
    char name[CLI_QUOTE_SIZE];
    nq_checkpoint_info info;
    int sig = cli_caught_signal();

    if (o->checkpoint)
        CLI_QUOTE(name, o->checkpoint);
    if (rc == NQ_ECANCELED && sig) {
        if (cp && nq_checkpoint_info_get(&info, cp) == NQ_OK)
            cli_error(err, "interrupted; %llu of %llu units are saved in %s: "
                           "run the same command again to resume",
                      (unsigned long long)info.units_done,
                      (unsigned long long)info.units_total, name);
        else
            cli_error(err, "interrupted (use --checkpoint FILE to make long runs resumable)");
        return 128 + sig;
    }
    if (rc == NQ_EIO && cp)
        cli_error(err, "%s: cannot save the checkpoint: %s", name, strerror(errno));
    else if (rc == NQ_EMEMLIMIT)
        cli_say_memory_refusal(o, co, n, err);
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
        int rc = nq_units(&units, sizes->n[i], co->method);
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
                            units == 1 ? "" : "s", (unsigned long long)units);
            return -1;
        }
    }
    return 0;
}

int cli_count(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err)
{
    nq_count_options co = cli_count_options(o);
    cli_progress_state ps;
    nq_checkpoint *cp = NULL;
    nq_estimate_result *forecast = NULL;
    int status = CLI_EXIT_OK, notice = !o->no_notice;

    co.part_k = o->part_k;
    co.part_m = o->part_m;
    co.checkpoint_interval = o->checkpoint_interval;
    if (check_parts(o, &co, sizes, err) != 0)
        return CLI_EXIT_USAGE;
    if (o->checkpoint && sizes->len != 1) {
        cli_usage_error(err, "--checkpoint takes one board size, not %zu", sizes->len);
        return CLI_EXIT_USAGE;
    }
    if (o->checkpoint)
        co.method = checkpoint_method(o, sizes->n[0]);
    if (cli_check_memory(o, &co, sizes, err) != 0)
        return CLI_EXIT_FAILURE;
    /* caught from the forecast on: a stop while it samples stops the
     * count at once, with the usual message and the checkpoint saved */
    co.stop = cli_catch_signals();
    if (cli_forecast_counts(&forecast, o, &co, sizes, err) != 0)
        status = CLI_EXIT_FAILURE;
    else if (o->checkpoint && open_checkpoint(&cp, o, sizes->n[0], co.method, err) != 0)
        status = CLI_EXIT_USAGE;
    if (status != CLI_EXIT_OK) {
        cli_release_signals();
        free(forecast);
        return status;
    }
    co.checkpoint = cp;
    cli_progress_init(&ps, err, o->progress == 1);
    if (o->progress == 1 || (o->progress == -1 && ps.tty)) {
        co.progress = cli_progress;
        co.progress_data = &ps;
        /* a resumed count has less left than the forecast says */
        if (cp && say_resuming(cp, err))
            notice = 0;
    }

    if (o->format == CLI_FORMAT_LABELS) {
        fputs(o->unique ? "n\ttotal\tunique" : "n\ttotal", out);
        fputs(o->part_m ? "\tpart\tmethod\tunit_list_version\n" : "\n", out);
        status = cli_flush(out, err);
    }
    for (size_t i = 0; i < sizes->len && status == CLI_EXIT_OK; i++) {
        nq_count_result r;
        double start;
        int rc;
        if (notice)
            cli_notice_long_count(o, sizes->n[i], &forecast[i], ps.tty, err);
        start = nqc_now();
        ps.n = sizes->n[i];
        rc = nq_count(&r, sizes->n[i], &co);
        cli_progress_end(&ps);
        if (rc != NQ_OK) {
            status = count_failed(o, &co, cp, sizes->n[i], rc, err);
        } else {
            print_count(o, sizes->n[i], &r, nqc_now() - start, out);
            status = cli_flush(out, err);
        }
    }
    cli_release_signals();
    nq_checkpoint_close(cp);
    free(forecast);
    return status;
}

int cli_check(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err)
{
    nq_count_options co = cli_count_options(o);
    nq_estimate_result *forecast = NULL;
    int mismatches = 0, status = CLI_EXIT_OK, tty = isatty(fileno(err));

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
    if (cli_check_memory(o, &co, sizes, err) != 0 ||
        cli_forecast_counts(&forecast, o, &co, sizes, err) != 0)
        return CLI_EXIT_FAILURE;
    if (o->format == CLI_FORMAT_LABELS || o->format == CLI_FORMAT_BARE)
        fputs("n\ttotal\tunique\tknown_total\tknown_unique\tstatus\n", out);
    for (size_t i = 0; i < sizes->len && status == CLI_EXIT_OK; i++) {
        unsigned n = sizes->n[i];
        nq_count_result r;
        uint64_t kt = 0, ku = 0;
        int known = nq_known(&kt, &ku, n) == NQ_OK;
        double seconds;
        int rc;
        const char *verdict;
        char unique[24] = "-", ktext[24] = "-", utext[24] = "-";

        cli_notice_long_count(o, n, &forecast[i], tty, err);
        seconds = nqc_now();
        rc = nq_count(&r, n, &co);
        seconds = nqc_now() - seconds;
        if (rc == NQ_EMEMLIMIT)
            cli_say_memory_refusal(o, &co, n, err);
        else if (rc != NQ_OK)
            cli_error(err, "n = %u: %s", n, nq_strerror(rc));
        if (rc != NQ_OK) {
            status = CLI_EXIT_FAILURE;
            break;
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
            fprintf(out, ",\"method\":\"%s\",\"status\":\"%s\",\"seconds\":%.3f}\n",
                    nq_method_name(r.method), verdict, seconds);
        } else {
            fprintf(out, "%u\t%llu\t%s\t%s\t%s\t%s\n", n,
                    (unsigned long long)r.total, unique, ktext, utext, verdict);
        }
        status = cli_flush(out, err);
    }
    free(forecast);
    if (status != CLI_EXIT_OK)
        return status;
    if (mismatches) {
        cli_error(err, "%d count%s differ from the known values", mismatches,
                     mismatches == 1 ? "" : "s");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}
