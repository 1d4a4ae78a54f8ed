/*
 * Merging part results into counts.
 *
 * The parts are sorted (by n, then part number) through an array of keys,
 * so that each board size's parts lie side by side in increasing order.
 * One pass over each group then sees everything: a part from another split
 * differs from the group's first part, a repeated part equals its
 * predecessor, and the missing parts are the gaps between neighbours,
 * which are counted by subtraction and named only up to a few. Nothing
 * loops up to a number read from the input, so a line claiming 2^32 - 1
 * parts costs what any other line costs. Sums are added with a check for
 * overflow, and a finished sum is compared with the published count of
 * its n when there is one: a merge never reports a wrapped or impossible
 * total as a count.
 */
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "results.h"

typedef struct key {
    unsigned n;
    uint32_t part;
    size_t index; /* into the caller's array */
} key;

static int by_n_part_index(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    if (x->part != y->part)
        return x->part < y->part ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int fault(nq_merge_error *err, nq_merge_fault f, unsigned n, size_t a,
                 size_t b)
{
    err->fault = f;
    err->n = n;
    err->a = a;
    err->b = b;
    return f == NQ_MERGE_OVERFLOW ? NQ_EOVERFLOW : NQ_EMISMATCH;
}

/* Counts the parts missing from a sorted group and names the first few. */
static uint64_t find_missing(nq_merge_error *err, const key *k, size_t len,
                             uint32_t parts)
{
    uint64_t missing = (uint64_t)parts - len, named = 0, expect = 1;
    for (size_t i = 0; i <= len && named < 8 && named < missing; i++) {
        uint64_t next = i < len ? k[i].part : (uint64_t)parts + 1;
        for (; expect < next && named < 8; expect++)
            err->first_missing[named++] = (uint32_t)expect;
        expect = next + 1;
    }
    return missing;
}

/* Checks and adds up one board size's parts k[0..len). */
static int merge_group(nq_merge_summary *out, nq_merge_error *err,
                       const nq_part *parts, const key *k, size_t len)
{
    const nq_part *first = &parts[k[0].index];
    uint64_t total = 0, unique = 0, units, known_total, known_unique;
    int has_unique = 1, rc;

    for (size_t i = 0; i < len; i++) {
        const nq_part *p = &parts[k[i].index];
        if (p->parts != first->parts || p->method != first->method ||
            p->unit_list_version != first->unit_list_version)
            return fault(err, NQ_MERGE_SPLIT, first->n, k[0].index, k[i].index);
        if (i > 0 && k[i].part == k[i - 1].part)
            return fault(err, NQ_MERGE_TWICE, first->n, k[i - 1].index, k[i].index);
    }
    rc = nq_units(&units, first->n, first->method);
    if (rc != NQ_OK)
        return rc;
    if (first->parts > units) {
        fault(err, NQ_MERGE_UNITS, first->n, k[0].index, k[0].index);
        err->expected = units;
        return NQ_EMISMATCH;
    }
    if (len < first->parts) {
        fault(err, NQ_MERGE_MISSING, first->n, k[0].index, k[0].index);
        err->missing = find_missing(err, k, len, first->parts);
        return NQ_EMISMATCH;
    }
    for (size_t i = 0; i < len; i++) {
        const nq_part *p = &parts[k[i].index];
        if (p->total > UINT64_MAX - total || p->unique > UINT64_MAX - unique)
            return fault(err, NQ_MERGE_OVERFLOW, first->n, k[i].index, k[i].index);
        total += p->total;
        unique += p->unique;
        has_unique &= p->has_unique != 0;
    }
    if (nq_known(&known_total, &known_unique, first->n) == NQ_OK &&
        (total != known_total || (has_unique && unique != known_unique))) {
        fault(err, NQ_MERGE_KNOWN, first->n, k[0].index, k[0].index);
        err->unique_known = total == known_total;
        err->expected = err->unique_known ? known_unique : known_total;
        err->got = err->unique_known ? unique : total;
        return NQ_EMISMATCH;
    }
    memset(out, 0, sizeof *out);
    out->version = NQ_MERGE_SUMMARY_VERSION;
    out->n = first->n;
    out->method = first->method;
    out->unit_list_version = first->unit_list_version;
    out->parts = first->parts;
    out->total = total;
    out->unique = has_unique ? unique : 0;
    out->has_unique = has_unique;
    return NQ_OK;
}

/* A part as nq_part_parse() returns them. */
static int plausible(const nq_part *p)
{
    return p->n <= NQ_MAX_N && nq_method_name(p->method) &&
           p->method != NQ_METHOD_DEFAULT &&
           p->unit_list_version == nq_unit_list_version(p->method) &&
           p->part >= 1 && p->part <= p->parts;
}

/* nq_merge_parts() on parts of the current version, into *err (the
 * current version) and, element by element, out (of its caller's). */
static int merge(nq_merge_summary *out, size_t *out_len, nq_merge_error *err,
                 const nq_part *parts, size_t count)
{
    key *k;
    size_t groups = 0, lo = 0;
    int rc = NQ_OK;

    for (size_t i = 0; i < count; i++)
        if (!plausible(&parts[i]))
            return NQ_EINVAL;
    k = malloc(count * sizeof *k);
    if (!k)
        return NQ_ENOMEM;
    for (size_t i = 0; i < count; i++) {
        k[i].n = parts[i].n;
        k[i].part = parts[i].part;
        k[i].index = i;
    }
    qsort(k, count, sizeof *k, by_n_part_index);
    for (size_t i = 1; i <= count && rc == NQ_OK; i++) {
        if (i == count || k[i].n != k[lo].n) {
            nq_merge_summary sum;
            rc = merge_group(&sum, err, parts, k + lo, i - lo);
            if (rc == NQ_OK)
                nq_result_store_at(out, groups, &sum, &nq_merge_summary_layout);
            groups++;
            lo = i;
        }
    }
    free(k);
    if (rc != NQ_OK)
        return rc;
    *out_len = groups;
    return NQ_OK;
}

int nq_merge_parts(nq_merge_summary *out, size_t *out_len, nq_merge_error *err,
                   const nq_part *parts, size_t count)
{
    nq_merge_error e;
    nq_part *full;
    size_t stride;
    int rc;

    if (!out || !out_len || !parts || count == 0 ||
        count > SIZE_MAX / (sizeof *full > sizeof(key) ? sizeof *full : sizeof(key)))
        return NQ_EINVAL;
    stride = nq_layout_size(&nq_part_layout, parts);
    if (!stride || !nq_layout_size(&nq_merge_summary_layout, out) ||
        (err && !nq_layout_size(&nq_merge_error_layout, err)))
        return NQ_EVERSION;
    for (size_t i = 1; i < count; i++)
        if (nq_result_version((const unsigned char *)parts + i * stride) !=
            nq_result_version(parts))
            return NQ_EVERSION;
    memset(&e, 0, sizeof e);
    e.version = NQ_MERGE_ERROR_VERSION;
    full = malloc(count * sizeof *full);
    if (!full) {
        rc = NQ_ENOMEM;
    } else {
        for (size_t i = 0; i < count; i++)
            nq_result_load(&full[i], sizeof full[i], (const unsigned char *)parts + i * stride,
                           &nq_part_layout);
        rc = merge(out, out_len, &e, full, count);
        free(full);
    }
    if (err)
        nq_result_store(err, &e, &nq_merge_error_layout);
    return rc;
}
