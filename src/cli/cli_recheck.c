/*
 * --recheck: reads a checkpoint as a snapshot (nq_checkpoint_load(): no
 * lock, nothing written, so the count that owns it may keep running),
 * has the library count a sample of its finished units again by another
 * way (nq_recheck()), and prints a line per unit as it is done, then the
 * verdict. Every operand and option is checked before the first line: a
 * file that is not an intact checkpoint of this version, a unit of --pick
 * that is not finished, a way or level that the method or CPU lacks. A
 * unit whose counts differ is also named on stderr at once, and the exit
 * status is 1.
 */
#include "cli_recheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_exit.h"
#include "cli_output.h"
#include "cli_signals.h"
#include "nqc_checkpoint.h"
#include "nqc_plural.h"
#include "nqc_signal.h"
#include "nqc_u64.h"

typedef struct printer {
    const cli_opts *o;
    FILE *out, *err;
    const char *name;      /* the file, quoted */
    unsigned n;
    nq_method method;
    int has_unique;        /* the units carry unique counts */
    int header_done;
    int write_failed;
} printer;

static void header(printer *p)
{
    if (p->header_done || p->o->format != CLI_FORMAT_LABELS)
        return;
    p->header_done = 1;
    fputs(p->has_unique ? "unit\trecorded\trecounted\trecorded_unique\trecounted_unique"
                          "\tverdict\n"
                        : "unit\trecorded\trecounted\tverdict\n",
          p->out);
}

static int on_unit(const nq_recheck_unit *u, void *data)
{
    printer *p = data;
    const unsigned long long unit = u->unit, rec = u->recorded_total, got = u->total;
    if (!u->match) {
        if (p->has_unique)
            cli_error(p->err, "MISMATCH: unit %llu of n = %u (%s): recorded %llu "
                              "(unique %llu), recounted %llu (unique %llu)",
                      unit, p->n, nq_method_name(p->method), rec,
                      (unsigned long long)u->recorded_unique, got,
                      (unsigned long long)u->unique);
        else
            cli_error(p->err, "MISMATCH: unit %llu of n = %u (%s): recorded %llu, "
                              "recounted %llu",
                      unit, p->n, nq_method_name(p->method), rec, got);
        fflush(p->err);
    }
    header(p);
    switch (p->o->format) {
    case CLI_FORMAT_BARE:
        if (p->has_unique)
            fprintf(p->out, "unit %llu: recorded %llu (unique %llu), recounted %llu "
                            "(unique %llu): %s\n",
                    unit, rec, (unsigned long long)u->recorded_unique, got,
                    (unsigned long long)u->unique, u->match ? "ok" : "MISMATCH");
        else
            fprintf(p->out, "unit %llu: recorded %llu, recounted %llu: %s\n", unit, rec,
                    got, u->match ? "ok" : "MISMATCH");
        break;
    case CLI_FORMAT_LABELS:
        fprintf(p->out, "%llu\t%llu\t%llu", unit, rec, got);
        if (p->has_unique)
            fprintf(p->out, "\t%llu\t%llu", (unsigned long long)u->recorded_unique,
                    (unsigned long long)u->unique);
        fprintf(p->out, "\t%s\n", u->match ? "ok" : "MISMATCH");
        break;
    case CLI_FORMAT_JSON:
        fprintf(p->out, "{\"unit\":%llu,\"recorded\":%llu,\"recounted\":%llu", unit, rec,
                got);
        if (p->has_unique)
            fprintf(p->out, ",\"recorded_unique\":%llu,\"recounted_unique\":%llu",
                    (unsigned long long)u->recorded_unique,
                    (unsigned long long)u->unique);
        fprintf(p->out, ",\"match\":%s,\"seconds\":%.3f}\n", u->match ? "true" : "false",
                u->seconds);
        break;
    }
    /* a long re-check shows each unit as it is done; a reader that went
     * away stops it */
    if (fflush(p->out) != 0 || ferror(p->out)) {
        p->write_failed = 1;
        return 1;
    }
    return 0;
}

/* The verdict line. `sampled`: the units were drawn with the seed. */
static void print_verdict(const printer *p, const nq_recheck_result *r, int sampled,
                          uint64_t seed)
{
    const unsigned long long checked = r->checked, bad = r->mismatched;
    switch (p->o->format) {
    case CLI_FORMAT_BARE:
        fprintf(p->out, "n = %u, %s: %llu of %llu finished %s re-checked by %s %s%s",
                r->n, nq_method_name(r->method), checked,
                (unsigned long long)r->units_done, nqc_plural(r->units_done, "unit", "units"),
                nq_recheck_path_name(r->path),
                r->simd == NQ_SIMD_NONE ? "without SIMD" : "at SIMD level ",
                r->simd == NQ_SIMD_NONE ? "" : nq_simd_name(r->simd));
        if (sampled)
            fprintf(p->out, ", seed %llu", (unsigned long long)seed);
        if (bad)
            fprintf(p->out, ": %llu MISMATCH%s (first: unit %llu)\n", bad,
                    bad == 1 ? "" : "ES", (unsigned long long)r->first_mismatch);
        else if (checked)
            fprintf(p->out, ": all match\n");
        else
            fprintf(p->out, ": nothing to compare\n");
        break;
    case CLI_FORMAT_LABELS:
        fprintf(p->out, "total\t%llu\t%llu", (unsigned long long)r->recorded_total,
                (unsigned long long)r->total);
        if (p->has_unique)
            fputs("\t-\t-", p->out);
        fprintf(p->out, "\t%s\n", bad ? "MISMATCH" : "ok");
        break;
    case CLI_FORMAT_JSON:
        fprintf(p->out, "{\"n\":%u,\"method\":\"%s\",\"units\":%llu,\"finished\":%llu,"
                        "\"checked\":%llu,\"by\":\"%s\",\"simd\":\"%s\"",
                r->n, nq_method_name(r->method), (unsigned long long)r->units_total,
                (unsigned long long)r->units_done, checked, nq_recheck_path_name(r->path),
                nq_simd_name(r->simd));
        if (sampled)
            fprintf(p->out, ",\"seed\":%llu", (unsigned long long)seed);
        fprintf(p->out, ",\"mismatched\":%llu", bad);
        if (bad)
            fprintf(p->out, ",\"first_mismatch\":%llu", (unsigned long long)r->first_mismatch);
        fprintf(p->out, ",\"recorded\":%llu,\"recounted\":%llu,\"seconds\":%.3f,"
                        "\"match\":%s}\n",
                (unsigned long long)r->recorded_total, (unsigned long long)r->total,
                r->seconds, bad ? "false" : "true");
        break;
    }
}

/* Loads the checkpoint, with a message for each way it can fail.
 * @return a CLI_EXIT_* status. */
static int load(nq_checkpoint **cp, const char *path, const char *name, FILE *err)
{
    nq_checkpoint_info file = NQ_CHECKPOINT_INFO_INIT;
    char why[CLI_QUOTE_SIZE + 256];
    int rc = nq_checkpoint_load(cp, path), e = errno;
    switch (rc) {
    case NQ_OK: return CLI_EXIT_OK;
    case NQ_EIO:
        nqc_checkpoint_open_error(why, sizeof why, rc, e, path, name);
        cli_error(err, "%s", why);
        return CLI_EXIT_USAGE;
    case NQ_EFORMAT:
        if (nq_checkpoint_peek(&file, path) == NQ_OK && !nq_method_name(file.method)) {
            cli_error(err, "%s holds method number %u, which this version does not know",
                      name, (unsigned)file.method);
        } else {
            nqc_checkpoint_open_error(why, sizeof why, rc, e, path, name);
            cli_error(err, "%s", why);
        }
        return CLI_EXIT_USAGE;
    case NQ_EMISMATCH:
        if (nq_checkpoint_peek(&file, path) == NQ_OK) {
            nqc_checkpoint_mismatch(why, sizeof why, &file, file.n, file.method, 0);
            cli_error(err, "%s %s", name, why);
        } else {
            cli_error(err, "%s: made by another version of nqueens", name);
        }
        return CLI_EXIT_USAGE;
    default:
        cli_error(err, "%s: %s", name, nq_strerror(rc));
        return CLI_EXIT_FAILURE;
    }
}

/* --pick: comma-separated finished units of cp, into a new array.
 * @return a CLI_EXIT_* status. */
static int parse_units(uint64_t **out, size_t *count, const char *list,
                       const nq_checkpoint *cp, const char *name, FILE *err)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    size_t n = 1, k = 0;
    uint64_t *u;
    char q[64];
    for (const char *s = list; *s; s++)
        n += *s == ',';
    u = malloc(n * sizeof *u);
    if (!u) {
        cli_error(err, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    nq_checkpoint_info_get(&info, cp);
    for (const char *s = list;; s++) {
        size_t len = strcspn(s, ",");
        if (nqc_parse_u64(&u[k], s, len) != 0) {
            cli_quote(q, sizeof q, s, len);
            cli_usage_error(err, "--pick: '%s' is not a unit index", q);
            break;
        }
        if (u[k] >= info.units_total) {
            cli_usage_error(err, "--pick: unit %llu is out of range (%s has units 0..%llu)",
                            (unsigned long long)u[k], name,
                            (unsigned long long)(info.units_total - 1));
            break;
        }
        if (!nq_checkpoint_is_done(cp, u[k])) {
            cli_usage_error(err, "--pick: unit %llu is not finished in %s",
                            (unsigned long long)u[k], name);
            break;
        }
        for (size_t i = 0; i < k; i++)
            if (u[i] == u[k]) {
                cli_usage_error(err, "--pick: unit %llu is given twice",
                                (unsigned long long)u[k]);
                free(u);
                return CLI_EXIT_USAGE;
            }
        k++;
        s += len;
        if (!*s) {
            *out = u;
            *count = k;
            return CLI_EXIT_OK;
        }
    }
    free(u);
    return CLI_EXIT_USAGE;
}

/* Why nq_recheck() failed. @return the exit status. */
static int report(int rc, const cli_opts *o, const nq_recheck_options *ro,
                  nq_method method, FILE *err)
{
    if (rc == NQ_ECANCELED && cli_caught_signal()) {
        cli_error(err, "interrupted by %s", nqc_signal_name(cli_caught_signal()));
        return 128 + cli_caught_signal();
    }
    if (rc == NQ_EMETHOD) {
        /* another level runs other code: named where this CPU has one */
        cli_usage_error(err, "--by=%s: the %s method's units cannot be counted that way "
                             "(try --by=kernel%s)",
                        nq_recheck_path_name(o->recheck_by), nq_method_name(method),
                        o->recheck_by == NQ_RECHECK_INDEPENDENT &&
                                method == NQ_METHOD_SYMMETRY && nq_simd_best() > NQ_SIMD_NONE
                            ? " at another --simd"
                            : "");
        return CLI_EXIT_USAGE;
    }
    if (rc == NQ_EUNSUPPORTED) {
        cli_usage_error(err, "--simd=%s: this CPU or the %s method lacks that level",
                        nq_simd_name(ro->simd), nq_method_name(method));
        return CLI_EXIT_USAGE;
    }
    if (rc == NQ_EMEMLIMIT) { /* no rerun with the same limit fits */
        cli_error(err, "the re-count does not fit in %s; a larger --max-memory lets it",
                  o->max_memory ? "--max-memory" : "half of this machine's memory");
        return CLI_EXIT_USAGE;
    }
    cli_error(err, "%s", nq_strerror(rc));
    return CLI_EXIT_FAILURE;
}

int cli_recheck(const cli_opts *o, FILE *out, FILE *err)
{
    nq_recheck_options ro = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    nq_checkpoint *cp = NULL;
    uint64_t *units = NULL;
    size_t nunits = 0;
    char name[CLI_QUOTE_SIZE];
    printer p;
    int status, rc;

    if (o->noperands != 1) {
        if (o->noperands == 0)
            cli_usage_error(err, "--recheck needs a checkpoint FILE");
        else
            cli_usage_error(err, "--recheck takes one checkpoint FILE, not %zu", o->noperands);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(o->operands[0], "-") == 0) {
        cli_usage_error(err, "--recheck reads a checkpoint from a file, not from "
                             "standard input");
        return CLI_EXIT_USAGE;
    }
    CLI_QUOTE(name, o->operands[0]);
    status = load(&cp, o->operands[0], name, err);
    if (status == CLI_EXIT_OK && o->units)
        status = parse_units(&units, &nunits, o->units, cp, name, err);
    if (status != CLI_EXIT_OK) {
        nq_checkpoint_close(cp);
        return status;
    }
    nq_checkpoint_info_get(&info, cp);
    memset(&p, 0, sizeof p);
    p.o = o;
    p.out = out;
    p.err = err;
    p.name = name;
    p.n = info.n;
    p.method = info.method;
    p.has_unique = o->recheck_by != NQ_RECHECK_INDEPENDENT && info.method == NQ_METHOD_SYMMETRY;
    ro.path = o->recheck_by;
    ro.simd = o->simd_given ? o->simd : NQ_SIMD_NONE;
    ro.sample = o->sample;
    ro.seed = o->has_seed ? o->seed : cli_clock_seed();
    ro.units = units;
    ro.units_count = nunits;
    ro.on_unit = on_unit;
    ro.unit_data = &p;
    ro.max_memory = o->max_memory;
    ro.stop = cli_catch_signals();
    rc = nq_recheck(&r, cp, &ro);
    cli_release_signals();
    if (rc == NQ_ECANCELED && p.write_failed)
        status = cli_flush(out, err);
    else if (rc != NQ_OK)
        status = report(rc, o, &ro, info.method, err);
    if (rc == NQ_OK) {
        header(&p);
        print_verdict(&p, &r, !units && o->sample && o->sample < r.units_done, ro.seed);
        status = cli_flush(out, err);
        if (r.checked == 0 && status == CLI_EXIT_OK)
            cli_error(err, "warning: %s holds no finished unit: nothing was re-checked",
                      name);
        if (r.mismatched && status == CLI_EXIT_OK) {
            cli_error(err, "%llu of %llu re-checked %s of %s differ%s from %s record%s "
                           "(first: unit %llu): do not trust its total",
                      (unsigned long long)r.mismatched, (unsigned long long)r.checked,
                      nqc_plural(r.checked, "unit", "units"), name,
                      r.mismatched == 1 ? "s" : "", r.mismatched == 1 ? "its" : "their",
                      r.mismatched == 1 ? "" : "s", (unsigned long long)r.first_mismatch);
            status = CLI_EXIT_FAILURE;
        }
    }
    free(units);
    nq_checkpoint_close(cp);
    return status;
}
