/*
 * The checkpoint file format: bytes in, checked records out, and back.
 *
 * This file knows the layout of docs/checkpoint-format.md and nothing else:
 * no files, no locks, no unit lists. The reader trusts nothing in the
 * bytes. The record count must agree with the size, the checksum with the
 * content, each record must lie in the list and follow the previous one,
 * each unit's unique count must be possible for its method, and the sum of
 * the totals may neither wrap around 64 bits nor pass the bound the caller
 * knows (the published count of that n, when there is one). Work and
 * memory depend on the length of the bytes only, never on a number written
 * in them.
 */
#include <string.h>

#include "checkpoint.h"

#define CKPT_MAGIC "NQCKPT\r\n"
#define CKPT_FORMAT 1u

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

int nq_ckpt_size(size_t *out, uint64_t records)
{
    const uint64_t fixed = NQ_CKPT_HEADER + NQ_CKPT_TRAILER;
    if (records > (SIZE_MAX - fixed) / NQ_CKPT_RECORD)
        return NQ_ENOMEM;
    *out = (size_t)(fixed + records * NQ_CKPT_RECORD);
    return NQ_OK;
}

void nq_ckpt_put_header(unsigned char *b, const nq_ckpt_header *h)
{
    memcpy(b, CKPT_MAGIC, 8);
    put32(b + 8, CKPT_FORMAT);
    put32(b + 12, h->n);
    put32(b + 16, h->method);
    put32(b + 20, h->list_version);
    put64(b + 24, h->units_total);
    put64(b + 32, h->records);
}

void nq_ckpt_put_record(unsigned char *b, uint64_t i, uint64_t unit,
                        uint64_t total, uint64_t unique)
{
    unsigned char *r = b + NQ_CKPT_HEADER + i * NQ_CKPT_RECORD;
    put64(r, unit);
    put64(r + 8, total);
    put64(r + 16, unique);
}

void nq_ckpt_put_trailer(unsigned char *b, size_t len)
{
    put64(b + len - NQ_CKPT_TRAILER, nq_ckpt_fnv1a(b, len - NQ_CKPT_TRAILER));
}

int nq_ckpt_read_header(nq_ckpt_header *out, const unsigned char *b,
                        size_t len)
{
    uint64_t records;

    if (len < NQ_CKPT_HEADER + NQ_CKPT_TRAILER || memcmp(b, CKPT_MAGIC, 8) != 0)
        return NQ_EFORMAT;
    if (get32(b + 8) != CKPT_FORMAT)
        return NQ_EFORMAT;
    records = get64(b + 32);
    /* the division first: records * 24 could wrap */
    if (records > (len - NQ_CKPT_HEADER - NQ_CKPT_TRAILER) / NQ_CKPT_RECORD ||
        len != NQ_CKPT_HEADER + records * NQ_CKPT_RECORD + NQ_CKPT_TRAILER)
        return NQ_EFORMAT;
    if (nq_ckpt_fnv1a(b, len - NQ_CKPT_TRAILER) != get64(b + len - NQ_CKPT_TRAILER))
        return NQ_EFORMAT;
    out->n = get32(b + 12);
    out->method = get32(b + 16);
    out->list_version = get32(b + 20);
    out->units_total = get64(b + 24);
    out->records = records;
    return NQ_OK;
}

int nq_ckpt_header_matches(const unsigned char *b, size_t len,
                           const nq_ckpt_expect *want)
{
    if (len < NQ_CKPT_HEADER || memcmp(b, CKPT_MAGIC, 8) != 0 ||
        get32(b + 8) != CKPT_FORMAT)
        return 1; /* no header to compare: say nothing of a mismatch */
    return get32(b + 12) == want->n && get32(b + 16) == want->method &&
           get32(b + 20) == want->list_version && get64(b + 24) == want->units_total;
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

int nq_ckpt_decode(const unsigned char *b, size_t len,
                   const nq_ckpt_expect *want, nq_ckpt_record_fn fn,
                   void *data)
{
    nq_ckpt_header h;
    uint64_t prev = 0, sum = 0;
    int rc = nq_ckpt_read_header(&h, b, len);

    if (rc != NQ_OK)
        return rc;
    /* an intact file: now, is it ours? */
    if (h.n != want->n || h.method != want->method ||
        h.list_version != want->list_version || h.units_total != want->units_total)
        return NQ_EMISMATCH;
    if (h.records > h.units_total)
        return NQ_EFORMAT;
    for (uint64_t i = 0; i < h.records; i++) {
        const unsigned char *r = b + NQ_CKPT_HEADER + i * NQ_CKPT_RECORD;
        uint64_t unit = get64(r), total = get64(r + 8), unique = get64(r + 16);
        if (unit >= h.units_total || (i > 0 && unit <= prev))
            return NQ_EFORMAT;
        if (nq_ckpt_check_record(want, sum, total, unique) != NQ_OK)
            return NQ_EFORMAT;
        sum += total;
        if (fn) {
            rc = fn(data, unit, total, unique);
            if (rc != NQ_OK)
                return rc;
        }
        prev = unit;
    }
    return NQ_OK;
}
