/*
 * libFuzzer target: the checkpoint loader (nq_ckpt_decode(), in
 * src/checkpoint/checkpoint_file.c), on whole file images.
 *
 * Each input is tried twice: against the count its own header names (so
 * that intact-looking files reach the records), and against a fixed count
 * (n = 8, symmetry). What decode accepts must obey every rule of
 * docs/checkpoint-format.md, checked here again by simple code: records in
 * strictly increasing unit order below the unit count, unique counts
 * possible, totals adding up without wrapping to no more than the bound.
 * And an accepted file, written again from its records, gives the very
 * same bytes. The other way round, the input read as a list of records
 * (unit, total, unique) goes through the writers' check
 * (nq_ckpt_check_record(), as nq_checkpoint_record() does): whatever it
 * lets through, written as a file, must decode to exactly those records.
 * A broken rule aborts. Build from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *       tests/fuzz/fuzz_checkpoint.c src/checkpoint/checkpoint_file.c -o fuzz_checkpoint
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint/checkpoint.h"

#define CHECK(cond)       \
    do {                  \
        if (!(cond))      \
            abort();      \
    } while (0)

typedef struct seen {
    const nq_ckpt_expect *want;
    uint64_t count, last, sum;
    unsigned char *copy; /* the file written again, record by record */
} seen;

static int on_record(void *data, uint64_t unit, uint64_t total, uint64_t unique)
{
    seen *s = data;
    CHECK(unit < s->want->units_total);
    CHECK(s->count == 0 || unit > s->last);
    CHECK(s->want->has_unique ? unique <= total : unique == 0);
    CHECK(total <= s->want->max_total - s->sum);
    s->sum += total;
    nq_ckpt_put_record(s->copy, s->count, unit, total, unique);
    s->last = unit;
    s->count++;
    return NQ_OK;
}

static void try_decode(const uint8_t *data, size_t size, const nq_ckpt_expect *want)
{
    seen s = {want, 0, 0, 0, NULL};
    nq_ckpt_header h;
    int rc;

    s.copy = malloc(size ? size : 1);
    CHECK(s.copy);
    rc = nq_ckpt_decode(data, size, want, on_record, &s);
    CHECK(rc == NQ_OK || rc == NQ_EFORMAT || rc == NQ_EMISMATCH);
    if (rc == NQ_OK) {
        CHECK(nq_ckpt_read_header(&h, data, size) == NQ_OK);
        CHECK(s.count == h.records && h.records <= want->units_total);
        nq_ckpt_put_header(s.copy, &h);
        nq_ckpt_put_trailer(s.copy, size);
        CHECK(memcmp(s.copy, data, size) == 0);
    }
    if (rc == NQ_EMISMATCH)
        CHECK(nq_ckpt_header_matches(data, size, want) == 0);
    free(s.copy);
}

static uint64_t take64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The input as records offered to a writer of a file for `want`: the
 * ones the check lets through are written, and must read back. */
static void try_write(const uint8_t *data, size_t size, const nq_ckpt_expect *want)
{
    uint64_t units[64], totals[64], uniques[64], sum = 0, k = 0, last = 0;
    unsigned char *file;
    size_t len;
    seen s = {want, 0, 0, 0, NULL};

    for (size_t off = 0; off + 17 <= size && k < 64; off += 17) {
        /* a unit step of one byte keeps the order increasing, as a
         * writer's walk over its bitmap does; small totals are likely */
        uint64_t unit = (k ? last + 1 : 0) + data[off] % 4;
        uint64_t total = take64(data + off + 1) >> (data[off] >> 2 & 63);
        uint64_t unique = take64(data + off + 9) >> (data[off] >> 2 & 63);
        if (unit >= want->units_total)
            break;
        if (nq_ckpt_check_record(want, sum, total, unique) != NQ_OK)
            continue;
        units[k] = unit;
        totals[k] = total;
        uniques[k] = unique;
        sum += total;
        last = unit;
        k++;
    }
    CHECK(nq_ckpt_size(&len, k) == NQ_OK);
    file = malloc(len);
    s.copy = malloc(len);
    CHECK(file && s.copy);
    {
        nq_ckpt_header h = {want->n, want->method, want->list_version, want->units_total, k};
        nq_ckpt_put_header(file, &h);
    }
    for (uint64_t i = 0; i < k; i++)
        nq_ckpt_put_record(file, i, units[i], totals[i], uniques[i]);
    nq_ckpt_put_trailer(file, len);
    CHECK(nq_ckpt_decode(file, len, want, on_record, &s) == NQ_OK);
    CHECK(s.count == k);
    free(s.copy);
    free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nq_ckpt_expect fixed = {8, 2, 2, 46, 1, 92}; /* n = 8, symmetry */
    nq_ckpt_header h;
    size_t expect_size;

    try_decode(data, size, &fixed);
    {
        nq_ckpt_expect plain = {8, 1, 1, 56, 0, 92}; /* n = 8, plain: no unique */
        nq_ckpt_expect open = {30, 2, 2, 1u << 20, 1, UINT64_MAX}; /* no known count */
        try_write(data, size, &fixed);
        try_write(data, size, &plain);
        try_write(data, size, &open);
    }
    if (nq_ckpt_read_header(&h, data, size) == NQ_OK) {
        nq_ckpt_expect own = {h.n, h.method, h.list_version, h.units_total,
                              h.method == 2, (size > 0 ? data[size - 1] : 0) & 1
                                                 ? UINT64_MAX : 1000};
        CHECK(nq_ckpt_size(&expect_size, h.records) == NQ_OK && expect_size == size);
        try_decode(data, size, &own);
    }
    return 0;
}
