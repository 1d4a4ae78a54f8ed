/*
 * --merge: adds up the results of a count split into parts (--part K/M
 * --json) on many machines. It reads JSON lines from the files given, or
 * from standard input; the library reads each line strictly
 * (nq_part_parse()) and checks that the parts are exactly the parts of
 * whole counts, with sums that neither wrap nor differ from a published
 * count (nq_merge_parts()). This file says where each line came from and
 * prints. Nothing reaches stdout unless every size adds up.
 */
#include "cli_merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_exit.h"
#include "nqc_plural.h"
#include "nqc_stream.h"
#include "cli_output.h"

/* Where a part came from, for messages. */
typedef struct origin {
    const char *file; /* quoted */
    unsigned long long line;
} origin;

typedef struct part_list {
    nq_part *v;
    origin *from;
    size_t len, cap;
    size_t unchecked;   /* lines without a "check" field ... */
    origin first_unchecked; /* ... the first of them */
} part_list;

static int append(part_list *list, const nq_part *p, origin at)
{
    if (list->len == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        nq_part *v = cap <= SIZE_MAX / sizeof *v ? realloc(list->v, cap * sizeof *v) : NULL;
        origin *f;
        if (!v)
            return -1;
        list->v = v;
        f = realloc(list->from, cap * sizeof *f);
        if (!f)
            return -1;
        list->from = f;
        list->cap = cap;
    }
    if (!p->has_check && list->unchecked++ == 0)
        list->first_unchecked = at;
    list->v[list->len] = *p;
    list->from[list->len++] = at;
    return 0;
}

/* The longest line read: a part line is a few hundred bytes. A longer one
 * is refused as soon as it passes this, so that an endless input
 * (/dev/zero) cannot fill memory. */
#define CLI_PART_LINE_MAX 4096

static int read_parts(part_list *list, const char *name, FILE *f, FILE *err)
{
    char line[CLI_PART_LINE_MAX + 1];
    size_t len;
    unsigned long long lineno = 0;
    int rc;

    while ((rc = nqc_read_line(line, sizeof line, &len, f)) == 1) {
        nq_part p = NQ_PART_INIT;
        nq_partline_error pe = NQ_PARTLINE_ERROR_INIT;
        origin at;
        lineno++;
        rc = nq_part_parse(&p, &pe, line, len);
        if (rc != NQ_OK && pe.fault == NQ_PARTLINE_BLANK)
            continue;
        if (rc != NQ_OK) {
            char why[160];
            nq_partline_error_format(why, sizeof why, &pe);
            /* not JSON, or the JSON of something else (a count's line): the
             * parts were likely counted without --json */
            cli_error(err, "%s:%llu: not a part result: %s%s", name, lineno, why,
                      pe.fault == NQ_PARTLINE_SYNTAX || pe.fault == NQ_PARTLINE_MISSING
                          ? "; --merge reads the lines of 'nqueens --part K/M --json N'"
                          : "");
            return CLI_EXIT_USAGE;
        }
        at.file = name;
        at.line = lineno;
        if (append(list, &p, at) != 0) {
            cli_error(err, "out of memory");
            return CLI_EXIT_FAILURE;
        }
    }
    if (rc == -1) {
        cli_error(err, "%s:%llu: not a part result: longer than %d bytes", name,
                  lineno + 1, CLI_PART_LINE_MAX);
        return CLI_EXIT_USAGE;
    }
    if (rc == -2) {
        cli_error(err, "%s: %s", name, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* Says why the parts do not add up, naming the lines concerned. */
static void report(const part_list *list, const nq_merge_error *e, int rc, FILE *err)
{
    const nq_part *a = &list->v[e->a], *b = &list->v[e->b];
    const origin *fa = &list->from[e->a], *fb = &list->from[e->b];
    char missing[160] = "";
    size_t mlen = 0;

    switch (rc == NQ_OK ? NQ_MERGE_OK : e->fault) {
    case NQ_MERGE_SPLIT:
        /* the default method depends on the SIMD level: parts counted on
         * different CPUs without --method may differ in it */
        cli_error(err, "n = %u: %s:%llu and %s:%llu come from different splits "
                       "(parts %lu/%lu, method %s/%s, unit list %lu/%lu)%s",
                  e->n, fa->file, fa->line, fb->file, fb->line, (unsigned long)a->parts,
                  (unsigned long)b->parts, nq_method_name(a->method), nq_method_name(b->method),
                  (unsigned long)a->unit_list_version, (unsigned long)b->unit_list_version,
                  a->method != b->method
                      ? "; count every part with the same --method (the default "
                        "depends on the CPU's SIMD level)"
                      : "");
        break;
    case NQ_MERGE_TWICE:
        cli_error(err, "n = %u: part %lu/%lu appears twice (%s:%llu and %s:%llu)", e->n,
                  (unsigned long)a->part, (unsigned long)a->parts, fa->file, fa->line,
                  fb->file, fb->line);
        break;
    case NQ_MERGE_UNITS:
        cli_error(err, "n = %u: %s:%llu: no split into %lu parts exists: the %s method has "
                       "%llu units",
                  e->n, fa->file, fa->line, (unsigned long)a->parts, nq_method_name(a->method),
                  (unsigned long long)e->expected);
        break;
    case NQ_MERGE_MISSING:
        for (uint64_t k = 0; k < e->missing && k < 8; k++)
            mlen += (size_t)snprintf(missing + mlen, sizeof missing - mlen, "%s%lu",
                                     k ? ", " : "", (unsigned long)e->first_missing[k]);
        cli_error(err, "n = %u: %llu of %lu parts missing: %s%s", e->n,
                  (unsigned long long)e->missing, (unsigned long)a->parts, missing,
                  e->missing > 8 ? ", ..." : "");
        break;
    case NQ_MERGE_OVERFLOW:
        cli_error(err, "n = %u: the sum passes 2^64 - 1 at %s:%llu: a part is wrong", e->n,
                  fa->file, fa->line);
        break;
    case NQ_MERGE_KNOWN:
        cli_error(err, "n = %u: the parts add up to %llu %s, but the published count is %llu: "
                       "a part is wrong",
                  e->n, (unsigned long long)e->got, e->unique_known ? "unique solutions" : "solutions",
                  (unsigned long long)e->expected);
        break;
    default:
        cli_error(err, "%s", nq_strerror(rc));
        break;
    }
}

static void print_sum(const cli_opts *o, const nq_merge_summary *m, FILE *out)
{
    switch (o->format) {
    case CLI_FORMAT_BARE:
        fprintf(out, "%llu\n", (unsigned long long)(o->unique ? m->unique : m->total));
        break;
    case CLI_FORMAT_LABELS:
        fprintf(out, "%u\t%llu", m->n, (unsigned long long)m->total);
        if (o->unique)
            fprintf(out, "\t%llu", (unsigned long long)m->unique);
        fputc('\n', out);
        break;
    case CLI_FORMAT_JSON:
        fprintf(out, "{\"n\":%u,\"total\":%llu", m->n, (unsigned long long)m->total);
        /* as a count prints it: unique with --unique only */
        if (o->unique)
            fprintf(out, ",\"unique\":%llu", (unsigned long long)m->unique);
        fprintf(out, ",\"method\":\"%s\",\"parts\":%lu}\n", nq_method_name(m->method),
                (unsigned long)m->parts);
        break;
    }
}

/* --unique, when some parts of m's count carry no unique count: how many
 * of how many do, and where the missing ones come from. */
static void say_missing_unique(const part_list *list, const nq_merge_summary *m, FILE *err)
{
    size_t with = 0, all = 0;
    for (size_t i = 0; i < list->len; i++)
        if (list->v[i].n == m->n) {
            all++;
            with += list->v[i].has_unique != 0;
        }
    if (with == 0 && all == 1)
        cli_error(err, "n = %u: its one part carries no unique count", m->n);
    else if (with == 0)
        cli_error(err, "n = %u: none of its %zu parts carries a unique count", m->n, all);
    else
        cli_error(err, "n = %u: only %zu of the %zu parts carry a unique count, so the "
                       "unique counts cannot be added up", m->n, with, all);
}

/* Adds up the parts read and prints the sums. */
static int merge_and_print(const cli_opts *o, const part_list *list, FILE *out, FILE *err)
{
    nq_merge_summary *sums = malloc(list->len * sizeof *sums);
    nq_merge_error e = NQ_MERGE_ERROR_INIT;
    size_t nsums = 0;
    int rc, status = CLI_EXIT_OK;

    if (!sums) {
        cli_error(err, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    sums[0].version = NQ_MERGE_SUMMARY_VERSION; /* list->len > 0: every sum's */
    rc = nq_merge_parts(sums, &nsums, &e, list->v, list->len);
    if (rc != NQ_OK) {
        report(list, &e, rc, err);
        free(sums);
        /* a line whose M no split of its n has is not a part line (2);
         * parts that do not add up are a failure (1) */
        return e.fault == NQ_MERGE_UNITS ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
    for (size_t i = 0; i < nsums; i++)
        if (o->unique && !sums[i].has_unique) {
            say_missing_unique(list, &sums[i], err);
            free(sums);
            return CLI_EXIT_FAILURE;
        }
    if (list->unchecked)
        cli_error(err, "warning: %zu part line%s %s no \"check\" field (the first: %s:%llu), "
                       "so damage to %s cannot be seen",
                  list->unchecked, nqc_plural(list->unchecked, "", "s"),
                  nqc_plural(list->unchecked, "carries", "carry"),
                  list->first_unchecked.file, list->first_unchecked.line,
                  nqc_plural(list->unchecked, "it", "them"));
    if (o->format == CLI_FORMAT_LABELS)
        fputs(o->unique ? "n\ttotal\tunique\n" : "n\ttotal\n", out);
    for (size_t i = 0; i < nsums; i++)
        print_sum(o, &sums[i], out);
    status = cli_flush(out, err);
    free(sums);
    return status;
}

int cli_merge(const cli_opts *o, FILE *in, FILE *out, FILE *err)
{
    part_list list;
    int status = CLI_EXIT_OK;
    /* file names as messages show them: escaped, one line each */
    char (*names)[CLI_QUOTE_SIZE] = calloc(o->noperands ? o->noperands : 1,
                                           sizeof *names);

    memset(&list, 0, sizeof list);
    if (!names) {
        cli_error(err, "out of memory");
        return CLI_EXIT_FAILURE;
    }
    if (o->noperands == 0)
        status = read_parts(&list, "standard input", in, err);
    for (size_t i = 0; i < o->noperands && status == CLI_EXIT_OK; i++) {
        const char *name = CLI_QUOTE(names[i], o->operands[i]);
        FILE *f;
        if (strcmp(o->operands[i], "-") == 0) {
            status = read_parts(&list, "standard input", in, err);
            continue;
        }
        f = fopen(o->operands[i], "r");
        if (!f) {
            cli_error(err, "%s: %s", name, strerror(errno));
            status = CLI_EXIT_USAGE;
            break;
        }
        status = read_parts(&list, name, f, err);
        fclose(f);
    }
    if (status == CLI_EXIT_OK && list.len == 0) {
        cli_error(err, "no part results to merge");
        status = CLI_EXIT_USAGE;
    }
    if (status == CLI_EXIT_OK)
        status = merge_and_print(o, &list, out, err);
    free(list.v);
    free(list.from);
    free(names);
    return status;
}
