/*
 * The checkpoint file format: bytes in, checked records out, and back.
 *
 * This file knows the layout of docs/checkpoint-format.md and nothing else:
 * no files, no locks, no unit lists. It reads two formats, 1 (fixed
 * records of 24 bytes, from older releases) and 2 (each record three
 * unsigned LEB128 varints: the gap from the previous unit, the total, the
 * unique count), and writes format 2 only.
 *
 * The reader trusts nothing in the bytes. The record count must agree with
 * the size, the checksum with the content, each varint must be minimal and
 * fit 64 bits, the records must end exactly at the checksum, each record
 * must lie in the list and follow the previous one, each unit's unique
 * count must be possible for its method, and the sum of the totals may
 * neither wrap around 64 bits nor pass the bound the caller knows (the
 * published count of that n, when there is one). Each format has its own
 * loop over the records, which turns them into units and checks those;
 * the rules of the results are shared (take()). Work and memory depend on
 * the length of the bytes only, never on a number written in them.
 */
#include <string.h>

#include "checkpoint_file.h"
#include "checkpoint_format.h"
#include "nqueens.h"

#define CKPT_MAGIC "NQCKPT\r\n"

uint64_t nq_ckpt_fnv1a(const unsigned char *p, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Writes v as a minimal varint at p, or nothing if p is NULL; returns its
 * length, 1 to 10 bytes. */
static size_t put_varint(unsigned char *p, uint64_t v)
{
    size_t k = 0;
    while (v >= 0x80) {
        if (p)
            p[k] = (unsigned char)(v | 0x80);
        k++;
        v >>= 7;
    }
    if (p)
        p[k] = (unsigned char)v;
    return k + 1;
}

/* Reads a varint from *p, before end, and moves *p past it. NQ_EFORMAT
 * when it runs past end, is longer than 10 bytes, overflows 64 bits, or
 * is not minimal (ends in a zero byte after the first: each number has
 * one encoding, so each content one file). */
static int get_varint(uint64_t *out, const unsigned char **p, const unsigned char *end)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        unsigned c;
        if (*p == end)
            return NQ_EFORMAT;
        c = *(*p)++;
        if (shift == 63 && (c & 0x7f) > 1)
            return NQ_EFORMAT; /* past 64 bits */
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            if (c == 0 && shift > 0)
                return NQ_EFORMAT; /* padded */
            *out = v;
            return NQ_OK;
        }
    }
    return NQ_EFORMAT; /* an 11th byte would follow */
}

int nq_ckpt_max_size(size_t *out, uint64_t records, uint64_t units_total)
{
    const uint64_t fixed = NQ_CKPT_HEADER + NQ_CKPT_TRAILER;
    /* format 2: a gap is below units_total, a count takes 10 bytes at most */
    uint64_t record = put_varint(NULL, units_total ? units_total - 1 : 0) + 20;
    if (record < NQ_CKPT_RECORD_V1)
        record = NQ_CKPT_RECORD_V1;
    if (records > (SIZE_MAX - fixed) / record)
        return NQ_ENOMEM;
    *out = (size_t)(fixed + records * record);
    return NQ_OK;
}

void nq_ckpt_write_begin(nq_ckpt_writer *w, unsigned char *b, const nq_ckpt_header *h)
{
    w->b = b;
    w->len = NQ_CKPT_HEADER;
    w->next = 0;
    if (!b)
        return;
    memcpy(b, CKPT_MAGIC, 8);
    put32(b + 8, NQ_CKPT_FORMAT);
    put32(b + 12, h->n);
    put32(b + 16, h->method);
    put32(b + 20, h->list_version);
    put64(b + 24, h->units_total);
    put64(b + 32, h->records);
}

void nq_ckpt_write_record(nq_ckpt_writer *w, uint64_t unit, uint64_t total,
                          uint64_t unique)
{
    const uint64_t v[3] = {unit - w->next, total, unique};
    for (int i = 0; i < 3; i++)
        w->len += put_varint(w->b ? w->b + w->len : NULL, v[i]);
    w->next = unit + 1;
}

size_t nq_ckpt_write_end(nq_ckpt_writer *w)
{
    if (w->b)
        put64(w->b + w->len, nq_ckpt_fnv1a(w->b, w->len));
    w->len += NQ_CKPT_TRAILER;
    return w->len;
}

/* A format this file reads, at b + 8. */
static int known_format(uint32_t format)
{
    return format == 1 || format == NQ_CKPT_FORMAT;
}

int nq_ckpt_read_header(nq_ckpt_header *out, const unsigned char *b,
                        size_t len)
{
    uint64_t records, body;
    uint32_t format;

    if (len < NQ_CKPT_HEADER + NQ_CKPT_TRAILER || memcmp(b, CKPT_MAGIC, 8) != 0)
        return NQ_EFORMAT;
    format = get32(b + 8);
    if (!known_format(format))
        return NQ_EFORMAT;
    records = get64(b + 32);
    body = len - NQ_CKPT_HEADER - NQ_CKPT_TRAILER;
    /* the divisions first: records * 24 could wrap */
    if (format == 1 ? records > body / NQ_CKPT_RECORD_V1 || records * NQ_CKPT_RECORD_V1 != body
                    : records > body / NQ_CKPT_RECORD_MIN)
        return NQ_EFORMAT;
    if (nq_ckpt_fnv1a(b, len - NQ_CKPT_TRAILER) != get64(b + len - NQ_CKPT_TRAILER))
        return NQ_EFORMAT;
    out->format = format;
    out->n = get32(b + 12);
    out->method = get32(b + 16);
    out->list_version = get32(b + 20);
    out->units_total = get64(b + 24);
    out->records = records;
    return NQ_OK;
}

/* Whether a file's unit list `version` is the list `want` counts: the
 * same version, or an older one of an unchanged list. */
static int same_list(const nq_ckpt_expect *want, uint32_t version)
{
    return version == want->list_version ||
           (want->list_version_kept != 0 && version == want->list_version_kept);
}

int nq_ckpt_header_matches(const unsigned char *b, size_t len,
                           const nq_ckpt_expect *want)
{
    if (len < NQ_CKPT_HEADER || memcmp(b, CKPT_MAGIC, 8) != 0 ||
        !known_format(get32(b + 8)))
        return 1; /* no header to compare: say nothing of a mismatch */
    return get32(b + 12) == want->n && get32(b + 16) == want->method &&
           same_list(want, get32(b + 20)) && get64(b + 24) == want->units_total;
}

int nq_ckpt_check_record(const nq_ckpt_expect *want, uint64_t sum, uint64_t total,
                         uint64_t unique)
{
    /* a unit counts each of its classes once in unique and at least once
     * in total; a method without unique counts (plain, join) counts no
     * classes */
    if (want->has_unique ? unique > total : unique != 0)
        return NQ_EINVAL;
    if (sum > want->max_total || total > want->max_total - sum)
        return NQ_EOVERFLOW; /* more than the whole count: not a real one */
    return NQ_OK;
}

/* A walk over the records of a file, in either format. */
typedef struct walk {
    const nq_ckpt_expect *want;
    uint64_t next; /* the smallest unit the next record may name */
    uint64_t sum;  /* of the totals so far */
    nq_ckpt_record_fn fn;
    void *data;
} walk;

/* A record whose unit the format's loop has found in the list, at or after
 * w->next: the rules of its results, then on to fn. */
static int take(walk *w, uint64_t unit, uint64_t total, uint64_t unique)
{
    if (nq_ckpt_check_record(w->want, w->sum, total, unique) != NQ_OK)
        return NQ_EFORMAT;
    w->sum += total;
    w->next = unit + 1;
    return w->fn ? w->fn(w->data, unit, total, unique) : NQ_OK;
}

/* Format 1: the size is exact (nq_ckpt_read_header()); each record is the
 * unit, the total and the unique count, 8 bytes each. */
static int decode_v1(walk *w, const unsigned char *b, uint64_t records)
{
    for (uint64_t i = 0; i < records; i++) {
        const unsigned char *r = b + NQ_CKPT_HEADER + i * NQ_CKPT_RECORD_V1;
        uint64_t unit = get64(r);
        int rc;
        if (unit < w->next || unit >= w->want->units_total)
            return NQ_EFORMAT;
        rc = take(w, unit, get64(r + 8), get64(r + 16));
        if (rc != NQ_OK)
            return rc;
    }
    return NQ_OK;
}

/* Format 2: three varints a record, the first the gap from w->next; the
 * records end exactly at the checksum. */
static int decode_v2(walk *w, const unsigned char *b, size_t len, uint64_t records)
{
    const unsigned char *p = b + NQ_CKPT_HEADER, *end = b + len - NQ_CKPT_TRAILER;
    for (uint64_t i = 0; i < records; i++) {
        uint64_t gap, total, unique;
        int rc;
        if (get_varint(&gap, &p, end) != NQ_OK || get_varint(&total, &p, end) != NQ_OK ||
            get_varint(&unique, &p, end) != NQ_OK)
            return NQ_EFORMAT;
        /* w->next <= units_total: no wrap on either side */
        if (gap >= w->want->units_total - w->next)
            return NQ_EFORMAT; /* past the list */
        rc = take(w, w->next + gap, total, unique);
        if (rc != NQ_OK)
            return rc;
    }
    return p == end ? NQ_OK : NQ_EFORMAT;
}

int nq_ckpt_decode(const unsigned char *b, size_t len,
                   const nq_ckpt_expect *want, nq_ckpt_record_fn fn,
                   void *data)
{
    nq_ckpt_header h;
    walk w;
    int rc = nq_ckpt_read_header(&h, b, len);

    if (rc != NQ_OK)
        return rc;
    /* an intact file: now, is it ours? */
    if (h.n != want->n || h.method != want->method ||
        !same_list(want, h.list_version) || h.units_total != want->units_total)
        return NQ_EMISMATCH;
    if (h.records > h.units_total)
        return NQ_EFORMAT;
    w.want = want;
    w.next = 0;
    w.sum = 0;
    w.fn = fn;
    w.data = data;
    return h.format == 1 ? decode_v1(&w, b, h.records) : decode_v2(&w, b, len, h.records);
}
