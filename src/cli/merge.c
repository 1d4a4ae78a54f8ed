/*
 * --merge: adds up the results of a count split into parts (--part K/M
 * --json) on many machines. It reads JSON lines from the files given, or
 * from standard input, checks that every part of every size is there once
 * and that all come from the same split, and prints the sums.
 */
#include "merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nqc_stream.h"
#include "nqc_u64.h"
#include "output.h"

typedef struct part_line {
    uint64_t n, total, unique, part, parts, list_version;
    int has_unique;
    char method[16];
    const char *file;
    uint64_t line;
} part_line;

typedef struct part_list {
    part_line *v;
    size_t len, cap;
} part_list;

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* Parses one line of the form {"key":value,...} with unsigned integer or
 * plain string values. 0 = parsed, 1 = blank line, -1 = malformed. */
static int parse_part_line(part_line *pl, const char *p, const char *end,
                      const char **why)
{
    int seen_n = 0, seen_total = 0, seen_part = 0, seen_parts = 0,
        seen_method = 0, seen_version = 0;

    memset(pl, 0, sizeof *pl);
    p = skip_ws(p, end);
    if (p == end)
        return 1;
    if (*p++ != '{') {
        *why = "not a JSON object";
        return -1;
    }
    for (;;) {
        const char *key, *kend;
        p = skip_ws(p, end);
        if (p < end && *p == '}' && !seen_n)
            break;
        if (p == end || *p != '"') {
            *why = "expected a key";
            return -1;
        }
        key = ++p;
        while (p < end && *p != '"')
            p++;
        if (p == end) {
            *why = "unterminated key";
            return -1;
        }
        kend = p++;
        p = skip_ws(p, end);
        if (p == end || *p++ != ':') {
            *why = "expected ':'";
            return -1;
        }
        p = skip_ws(p, end);
        if (p < end && *p == '"') {
            const char *v = ++p;
            while (p < end && *p != '"')
                p++;
            if (p == end) {
                *why = "unterminated string";
                return -1;
            }
            if ((size_t)(kend - key) == 6 && memcmp(key, "method", 6) == 0) {
                size_t vl = (size_t)(p - v);
                if (vl >= sizeof pl->method) {
                    *why = "unknown method";
                    return -1;
                }
                memcpy(pl->method, v, vl);
                pl->method[vl] = '\0';
                seen_method = 1;
            }
            p++;
        } else if ((size_t)(kend - key) == 7 && memcmp(key, "seconds", 7) == 0) {
            /* the time the part took: digits, a point, digits; not summed */
            const char *v = p;
            int dots = 0;
            while (p < end && ((*p >= '0' && *p <= '9') || *p == '.'))
                dots += *p++ == '.';
            if (p == v || *v == '.' || p[-1] == '.' || dots > 1) {
                *why = "\"seconds\" is not a decimal number";
                return -1;
            }
        } else {
            const char *v = p;
            uint64_t x;
            size_t kl = (size_t)(kend - key);
            while (p < end && *p >= '0' && *p <= '9')
                p++;
            if (nqc_parse_u64(&x, v, (size_t)(p - v)) != 0) {
                *why = "expected a whole number or a string";
                return -1;
            }
            if (kl == 1 && key[0] == 'n') { pl->n = x; seen_n = 1; }
            else if (kl == 5 && memcmp(key, "total", 5) == 0) { pl->total = x; seen_total = 1; }
            else if (kl == 6 && memcmp(key, "unique", 6) == 0) { pl->unique = x; pl->has_unique = 1; }
            else if (kl == 4 && memcmp(key, "part", 4) == 0) { pl->part = x; seen_part = 1; }
            else if (kl == 5 && memcmp(key, "parts", 5) == 0) { pl->parts = x; seen_parts = 1; }
            else if (kl == 17 && memcmp(key, "unit_list_version", 17) == 0) { pl->list_version = x; seen_version = 1; }
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        if (p < end && *p == '}')
            break;
        *why = "expected ',' or '}'";
        return -1;
    }
    p = skip_ws(p + 1, end);
    if (p != end) {
        *why = "text after the object";
        return -1;
    }
    if (!seen_n || !seen_total || !seen_method) {
        *why = "missing \"n\", \"total\" or \"method\"";
        return -1;
    }
    if (!seen_part || !seen_parts || !seen_version) {
        *why = "not a part result (no \"part\", \"parts\" or \"unit_list_version\": count with --part K/M --json)";
        return -1;
    }
    if (pl->parts == 0 || pl->part == 0 || pl->part > pl->parts) {
        *why = "part out of range";
        return -1;
    }
    return 0;
}

static int read_parts(part_list *list, const char *name, FILE *f, FILE *err)
{
    char *buf;
    size_t len, i = 0;
    uint64_t lineno = 0;
    int rc = nqc_read_all(&buf, &len, f);

    if (rc != 0) {
        cli_error(err, "%s: %s", name, rc == -1 ? "out of memory" : strerror(errno));
        return rc == -1 ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    while (i < len) {
        const char *why = NULL, *nl = memchr(buf + i, '\n', len - i);
        size_t j = nl ? (size_t)(nl - buf) : len;
        part_line pl;
        lineno++;
        rc = parse_part_line(&pl, buf + i, buf + j, &why);
        i = j + 1;
        if (rc == 1)
            continue;
        if (rc < 0) {
            cli_error(err, "%s:%llu: %s", name, (unsigned long long)lineno, why);
            free(buf);
            return CLI_EXIT_USAGE;
        }
        if (list->len == list->cap) {
            size_t cap = list->cap ? list->cap * 2 : 16;
            part_line *v = realloc(list->v, cap * sizeof *v);
            if (!v) {
                free(buf);
                cli_error(err, "out of memory");
                return CLI_EXIT_FAILURE;
            }
            list->v = v;
            list->cap = cap;
        }
        pl.file = name;
        pl.line = lineno;
        list->v[list->len++] = pl;
    }
    free(buf);
    return CLI_EXIT_OK;
}

static int by_n_then_part(const void *a, const void *b)
{
    const part_line *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    if (x->part != y->part)
        return x->part < y->part ? -1 : 1;
    return 0;
}

/* Counts the parts [from, to) as missing and names them in buf, as many as
 * fit ("3, 4, 9"). */
static void list_missing(char *buf, size_t size, size_t *len, size_t *count,
                         uint64_t from, uint64_t to)
{
    for (uint64_t k = from; k < to; k++, ++*count)
        if (*len + 24 < size)
            *len += (size_t)snprintf(buf + *len, size - *len, "%s%llu",
                                     *len ? ", " : "", (unsigned long long)k);
}

/* Checks one size's parts [lo, hi) and, unless out is NULL, prints their sum. */
static int merge_group(const cli_opts *o, const part_line *v, size_t lo,
                       size_t hi, FILE *out, FILE *err)
{
    const part_line *a = &v[lo];
    uint64_t total = 0, unique = 0, expect = 1;
    int has_unique = 1;
    char missing[160] = "";
    size_t mlen = 0, nmissing = 0;

    for (size_t i = lo; i < hi; i++) {
        const part_line *b = &v[i];
        if (b->parts != a->parts || b->list_version != a->list_version ||
            strcmp(b->method, a->method) != 0) {
            cli_error(err, "n = %llu: %s:%llu and %s:%llu come from different splits "
                              "(parts %llu/%llu, method %s/%s, unit list %llu/%llu)",
                         (unsigned long long)a->n, a->file, (unsigned long long)a->line,
                         b->file, (unsigned long long)b->line,
                         (unsigned long long)a->parts, (unsigned long long)b->parts,
                         a->method, b->method, (unsigned long long)a->list_version,
                         (unsigned long long)b->list_version);
            return CLI_EXIT_FAILURE;
        }
        if (i > lo && b->part == v[i - 1].part) {
            cli_error(err, "n = %llu: part %llu/%llu appears twice (%s:%llu and %s:%llu)",
                         (unsigned long long)a->n, (unsigned long long)b->part,
                         (unsigned long long)b->parts, v[i - 1].file,
                         (unsigned long long)v[i - 1].line, b->file,
                         (unsigned long long)b->line);
            return CLI_EXIT_FAILURE;
        }
        list_missing(missing, sizeof missing, &mlen, &nmissing, expect, b->part);
        expect = b->part + 1;
        total += b->total;
        unique += b->unique;
        has_unique &= b->has_unique;
    }
    list_missing(missing, sizeof missing, &mlen, &nmissing, expect, a->parts + 1);
    if (nmissing) {
        cli_error(err, "n = %llu: %zu of %llu parts missing: %s%s",
                     (unsigned long long)a->n, nmissing, (unsigned long long)a->parts,
                     missing, mlen + 24 >= sizeof missing ? ", ..." : "");
        return CLI_EXIT_FAILURE;
    }
    if (o->unique && !has_unique) {
        cli_error(err, "n = %llu: the parts carry no unique counts", (unsigned long long)a->n);
        return CLI_EXIT_FAILURE;
    }
    if (!out)
        return CLI_EXIT_OK;
    switch (o->format) {
    case CLI_FORMAT_BARE:
        fprintf(out, "%llu\n", (unsigned long long)(o->unique ? unique : total));
        break;
    case CLI_FORMAT_LABELS:
        fprintf(out, "%llu\t%llu", (unsigned long long)a->n, (unsigned long long)total);
        if (o->unique)
            fprintf(out, "\t%llu", (unsigned long long)unique);
        fputc('\n', out);
        break;
    case CLI_FORMAT_JSON:
        fprintf(out, "{\"n\":%llu,\"total\":%llu", (unsigned long long)a->n,
                (unsigned long long)total);
        if (has_unique)
            fprintf(out, ",\"unique\":%llu", (unsigned long long)unique);
        fprintf(out, ",\"method\":\"%s\",\"parts\":%llu}\n", a->method,
                (unsigned long long)a->parts);
        break;
    }
    return CLI_EXIT_OK;
}

int cli_merge(const cli_opts *o, FILE *in, FILE *out, FILE *err)
{
    part_list list = {NULL, 0, 0};
    int status = CLI_EXIT_OK;
    size_t lo = 0;
    /* file names as messages show them: escaped, one line each */
    char (*names)[CLI_QUOTE_SIZE] = calloc(o->noperands ? o->noperands : 1,
                                           sizeof *names);

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
    if (status == CLI_EXIT_OK) {
        qsort(list.v, list.len, sizeof *list.v, by_n_then_part);
        /* check every size before printing any */
        for (size_t i = 1; i <= list.len && status == CLI_EXIT_OK; i++)
            if (i == list.len || list.v[i].n != list.v[lo].n) {
                status = merge_group(o, list.v, lo, i, NULL, err);
                lo = i;
            }
        lo = 0;
        if (status == CLI_EXIT_OK && o->format == CLI_FORMAT_LABELS)
            fputs(o->unique ? "n\ttotal\tunique\n" : "n\ttotal\n", out);
        for (size_t i = 1; i <= list.len && status == CLI_EXIT_OK; i++)
            if (i == list.len || list.v[i].n != list.v[lo].n) {
                status = merge_group(o, list.v, lo, i, out, err);
                lo = i;
            }
        if (status == CLI_EXIT_OK)
            status = cli_flush(out, err);
    }
    free(list.v);
    free(names);
    return status;
}
