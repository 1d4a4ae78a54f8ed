/*
 * libFuzzer target: the checkpoint loader (nq_ckpt_decode(), in
 * src/checkpoint/checkpoint_file.c), on whole file images of either format.
 *
 * Each input is tried twice: against the count its own header names (so
 * that intact-looking files reach the records), and against a fixed count
 * (n = 8, symmetry). What decode accepts must obey every rule of
 * docs/checkpoint-format.md, checked here again by simple code: records in
 * strictly increasing unit order below the unit count, unique counts
 * possible, totals adding up without wrapping to no more than the bound.
 * An accepted file of format 2, written again from its records, gives the
 * very same bytes (each content has one encoding); one of format 1 holds
 * its records at their fixed places, and written again (in format 2) reads
 * back as the same records. The other way round, the input read as a list
 * of records (unit, total, unique) goes through the writers' check
 * (nq_ckpt_check_record(), as nq_checkpoint_record() does): whatever it
 * lets through, written as a file, must decode to exactly those records.
 * Each input is also tried with its checksum put right, so that mutations
 * reach the records. A broken rule aborts. Build from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *       tests/fuzz/fuzz_checkpoint.c src/checkpoint/checkpoint_file.c -o fuzz_checkpoint
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_format.h"
#include "nqueens.h"
#include "fuzz_check.h"

/* The records a decode passed on, checked as they come. */
typedef struct seen {
    const nq_ckpt_expect *want;
    uint64_t count, sum, cap;
    uint64_t *rec; /* unit, total, unique; cap records at most */
} seen;

static int on_record(void *data, uint64_t unit, uint64_t total, uint64_t unique)
{
    seen *s = data;
    CHECK(unit < s->want->units_total);
    CHECK(s->count == 0 || unit > s->rec[3 * (s->count - 1)]);
    CHECK(s->want->has_unique ? unique <= total : unique == 0);
    CHECK(total <= s->want->max_total - s->sum);
    CHECK(s->count < s->cap);
    s->sum += total;
    s->rec[3 * s->count] = unit;
    s->rec[3 * s->count + 1] = total;
    s->rec[3 * s->count + 2] = unique;
    s->count++;
    return NQ_OK;
}

static void seen_init(seen *s, const nq_ckpt_expect *want, uint64_t cap)
{
    s->want = want;
    s->count = s->sum = 0;
    s->cap = cap;
    s->rec = malloc(3 * sizeof *s->rec * (cap ? cap : 1));
    CHECK(s->rec);
}

/* The records of s written as a file of format 2 for h, in a new buffer
 * of *len bytes: measured first, then written. */
static unsigned char *write_file(const seen *s, const nq_ckpt_header *h, size_t *len)
{
    nq_ckpt_writer w;
    unsigned char *b = NULL;
    for (int pass = 0; pass < 2; pass++) {
        nq_ckpt_write_begin(&w, b, h);
        for (uint64_t i = 0; i < s->count; i++)
            nq_ckpt_write_record(&w, s->rec[3 * i], s->rec[3 * i + 1], s->rec[3 * i + 2]);
        *len = nq_ckpt_write_end(&w);
        if (!b)
            CHECK((b = malloc(*len)) != NULL);
    }
    return b;
}

static uint64_t take64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Decodes again what s holds, written anew: the same records. */
static void check_rewrite(const seen *s, const nq_ckpt_header *h)
{
    seen again;
    size_t len;
    unsigned char *file = write_file(s, h, &len);
    seen_init(&again, s->want, s->count);
    CHECK(nq_ckpt_decode(file, len, s->want, on_record, &again) == NQ_OK);
    CHECK(again.count == s->count &&
          memcmp(again.rec, s->rec, 3 * sizeof *s->rec * s->count) == 0);
    free(again.rec);
    free(file);
}

static void try_decode(const uint8_t *data, size_t size, const nq_ckpt_expect *want)
{
    seen s;
    nq_ckpt_header h;
    int rc;

    /* a record takes 3 bytes at least */
    seen_init(&s, want, size / 3);
    rc = nq_ckpt_decode(data, size, want, on_record, &s);
    CHECK(rc == NQ_OK || rc == NQ_EFORMAT || rc == NQ_EMISMATCH);
    if (rc == NQ_OK) {
        CHECK(nq_ckpt_read_header(&h, data, size) == NQ_OK);
        CHECK(s.count == h.records && h.records <= want->units_total);
        if (h.format == 1) {
            for (uint64_t i = 0; i < s.count; i++)
                for (int k = 0; k < 3; k++)
                    CHECK(take64(data + 40 + 24 * i + 8 * (unsigned)k) == s.rec[3 * i + k]);
        } else {
            size_t len;
            unsigned char *copy = write_file(&s, &h, &len);
            CHECK(len == size && memcmp(copy, data, size) == 0);
            free(copy);
        }
        check_rewrite(&s, &h);
    }
    if (rc == NQ_EMISMATCH)
        CHECK(nq_ckpt_header_matches(data, size, want) == 0);
    free(s.rec);
}

/* The input as records offered to a writer of a file for `want`: the
 * ones the check lets through are written, and must read back. */
static void try_write(const uint8_t *data, size_t size, const nq_ckpt_expect *want)
{
    uint64_t last = 0;
    seen s;

    seen_init(&s, want, 64);
    for (size_t off = 0; off + 17 <= size && s.count < 64; off += 17) {
        /* a unit step of one byte keeps the order increasing, as a
         * writer's walk over its bitmap does; the step 3 is a long gap;
         * small totals are likely */
        uint64_t step = data[off] % 4 == 3 ? want->units_total / 2 : data[off] % 4;
        uint64_t unit = (s.count ? last + 1 : 0) + step;
        uint64_t total = take64(data + off + 1) >> (data[off] >> 2 & 63);
        uint64_t unique = take64(data + off + 9) >> (data[off] >> 2 & 63);
        if (unit >= want->units_total || unit < last)
            break;
        if (nq_ckpt_check_record(want, s.sum, total, unique) != NQ_OK)
            continue;
        on_record(&s, unit, total, unique);
        last = unit;
    }
    {
        nq_ckpt_header h = {NQ_CKPT_FORMAT, want->n, want->method, want->list_version,
                            want->units_total, s.count};
        size_t len, max;
        unsigned char *file = write_file(&s, &h, &len);
        CHECK(nq_ckpt_max_size(&max, s.count, want->units_total) == NQ_OK && len <= max);
        free(file);
        check_rewrite(&s, &h);
    }
    free(s.rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Tries the input with its checksum made right, so that mutated records
 * reach the record parsers rather than stop at the checksum. */
static void try_sealed(const uint8_t *data, size_t size, const nq_ckpt_expect *fixed)
{
    unsigned char *copy;
    nq_ckpt_header h;
    uint64_t sum;

    if (size < 48)
        return;
    copy = malloc(size);
    CHECK(copy);
    memcpy(copy, data, size);
    sum = nq_ckpt_fnv1a(copy, size - 8);
    for (int i = 0; i < 8; i++)
        copy[size - 8 + (unsigned)i] = (unsigned char)(sum >> (8 * i));
    try_decode(copy, size, fixed);
    if (nq_ckpt_read_header(&h, copy, size) == NQ_OK) {
        nq_ckpt_expect own = {h.n, h.method, h.list_version, h.units_total, h.method == 2,
                              UINT64_MAX};
        try_decode(copy, size, &own);
    }
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nq_ckpt_expect fixed = {8, 2, 2, 46, 1, 92}; /* n = 8, symmetry */
    nq_ckpt_header h;

    try_decode(data, size, &fixed);
    try_sealed(data, size, &fixed);
    {
        nq_ckpt_expect plain = {8, 1, 1, 56, 0, 92}; /* n = 8, plain: no unique */
        nq_ckpt_expect open = {30, 2, 2, 1u << 20, 1, UINT64_MAX}; /* no known count */
        nq_ckpt_expect huge = {30, 3, 2, UINT64_MAX, 0, UINT64_MAX}; /* 10-byte gaps */
        try_write(data, size, &fixed);
        try_write(data, size, &plain);
        try_write(data, size, &open);
        try_write(data, size, &huge);
    }
    if (nq_ckpt_read_header(&h, data, size) == NQ_OK) {
        nq_ckpt_expect own = {h.n, h.method, h.list_version, h.units_total,
                              h.method == 2, (size > 0 ? data[size - 1] : 0) & 1
                                                 ? UINT64_MAX : 1000};
        size_t body = size - 48;
        CHECK(h.format == 1 || h.format == 2);
        CHECK(h.format == 1 ? body == 24 * h.records : body >= 3 * h.records);
        try_decode(data, size, &own);
    }
    return 0;
}
