/* Checkpoints, the formats byte by byte: file images built by hand, as
 * docs/checkpoint-format.md describes them, read or refused; the bytes the
 * store writes; format 1 resumed as format 2; and the fuzz seed corpus of
 * the checkpoint loader, replayed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_format.h"
#include "known_values.h"
#include "nqueens.h"
#include "test_parts.h"
/* (after test_parts.h, whose functions name a parameter `path`) */
#include "test_checkpoint.h"

/* ---- the formats, byte by byte --------------------------------------------
 * File images built by hand, as docs/checkpoint-format.md describes them:
 * format 1 as the writer of older releases wrote it, format 2 with a
 * varint writer of the test's own. */
typedef struct image {
    unsigned char b[1 << 16];
    size_t len;
} image;

static void img_u(image *im, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        im->b[im->len++] = (unsigned char)(v >> (8 * i));
}

static void img_bytes(image *im, const char *hex)
{
    unsigned x;
    for (; *hex; hex += hex[2] ? 3 : 2) {
        assert_int_equal(sscanf(hex, "%2x", &x), 1);
        im->b[im->len++] = (unsigned char)x;
    }
}

static void img_varint(image *im, uint64_t v)
{
    for (; v >= 0x80; v >>= 7)
        im->b[im->len++] = (unsigned char)(0x80 | (v & 0x7f));
    im->b[im->len++] = (unsigned char)v;
}

static void img_header(image *im, uint32_t format, unsigned n, nq_method m, uint32_t version,
                       uint64_t units, uint64_t records)
{
    im->len = 0;
    memcpy(im->b, "NQCKPT\r\n", 8);
    im->len = 8;
    img_u(im, format, 4);
    img_u(im, n, 4);
    img_u(im, (uint64_t)m, 4);
    img_u(im, version, 4);
    img_u(im, units, 8);
    img_u(im, records, 8);
}

static void img_seal(image *im)
{
    img_u(im, nq_ckpt_fnv1a(im->b, im->len), 8);
}

/* The count of the refusal tests: n = 30, which has no published count,
 * so that totals may reach 2^64 - 1; the symmetry method, with unique
 * counts; 1000 units. */
#define IMG_UNITS 1000u

static nq_ckpt_expect img_want(void)
{
    nq_ckpt_expect w;
    w.n = 30;
    w.method = NQ_METHOD_SYMMETRY;
    w.list_version = nq_unit_list_version(NQ_METHOD_SYMMETRY);
    w.units_total = IMG_UNITS;
    w.has_unique = 1;
    w.max_total = UINT64_MAX;
    w.list_version_kept = 0;
    return w;
}

/* How nq_ckpt_decode() takes a file of format 2 of `records` records
 * whose bytes after the header are `hex` (then the checksum). */
static int decode_v2(uint64_t records, const char *hex)
{
    image im;
    nq_ckpt_expect want = img_want();
    img_header(&im, 2, 30, NQ_METHOD_SYMMETRY, want.list_version, IMG_UNITS, records);
    img_bytes(&im, hex);
    img_seal(&im);
    return nq_ckpt_decode(im.b, im.len, &want, NULL, NULL);
}

/* The bytes of a file of format 2, exactly: gaps, totals and unique
 * counts as varints, the checksum of the rest. */
static void test_v2_known_bytes(void **state)
{
    nq_checkpoint *cp;
    image im;
    unsigned char *got;
    size_t len;
    (void)state;
    assert_int_equal(nq_checkpoint_open_list(&cp, path, 30, NQ_METHOD_SYMMETRY,
                                             nq_unit_list_version(NQ_METHOD_SYMMETRY), 300),
                     NQ_OK);
    assert_int_equal(nq_checkpoint_record(cp, 200, 300, 1), NQ_OK);
    assert_int_equal(nq_checkpoint_record(cp, 0, 1, 0), NQ_OK);
    assert_int_equal(nq_checkpoint_record(cp, 201, UINT64_C(1) << 63, 127), NQ_OK);
    assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
    nq_checkpoint_close(cp);
    img_header(&im, 2, 30, NQ_METHOD_SYMMETRY, nq_unit_list_version(NQ_METHOD_SYMMETRY), 300, 3);
    img_bytes(&im, "00 01 00"             /* unit 0: gap 0, total 1, unique 0 */
                   " c7 01 ac 02 01"      /* unit 200: gap 199, total 300, unique 1 */
                   " 00 80 80 80 80 80 80 80 80 80 01 7f"); /* 201: 2^63, 127 */
    img_seal(&im);
    got = read_whole(&len);
    assert_int_equal(len, im.len);
    assert_memory_equal(got, im.b, len);
    free(got);
}

/* A checkpoint saved and opened again, through the store: every record
 * as recorded, and a file of exactly the size its varints make. */
static void round_trip_v2(uint64_t units, const uint64_t *rec, size_t count)
{
    const uint32_t version = nq_unit_list_version(NQ_METHOD_SYMMETRY);
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    unsigned char *got;
    size_t len, expect = 48;
    uint64_t next = 0;
    image v;

    remove(path);
    assert_int_equal(nq_checkpoint_open_list(&cp, path, 30, NQ_METHOD_SYMMETRY, version, units),
                     NQ_OK);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(nq_checkpoint_record(cp, rec[3 * i], rec[3 * i + 1], rec[3 * i + 2]),
                         NQ_OK);
        v.len = 0;
        img_varint(&v, rec[3 * i] - next);
        img_varint(&v, rec[3 * i + 1]);
        img_varint(&v, rec[3 * i + 2]);
        expect += v.len;
        next = rec[3 * i] + 1;
    }
    assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
    nq_checkpoint_close(cp);
    got = read_whole(&len);
    assert_int_equal(len, expect);
    assert_int_equal(got[8], 2); /* format 2 */
    free(got);
    assert_int_equal(nq_checkpoint_open_list(&cp, path, 30, NQ_METHOD_SYMMETRY, version, units),
                     NQ_OK);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.units_done, count);
    for (size_t i = 0; i < count; i++) {
        uint64_t t = 0, q = 0;
        assert_int_equal(nq_checkpoint_unit(cp, rec[3 * i], &t, &q), NQ_OK);
        assert_true(t == rec[3 * i + 1] && q == rec[3 * i + 2]);
    }
    nq_checkpoint_close(cp);
}

static void test_v2_round_trips(void **state)
{
    static const uint64_t one[] = {999, UINT64_MAX, UINT64_MAX}; /* the last unit */
    static const uint64_t sparse[] = {
        0, 0, 0,
        1, 127, 127,
        129, 128, 1,
        16513, UINT64_C(1) << 32, 0,
        (UINT64_C(1) << 21) + 16513, UINT64_C(1) << 62, (UINT64_C(1) << 62) - 1,
        (UINT64_C(1) << 22) - 1, UINT64_C(1) << 61, 12345,
    };
    uint64_t *dense = malloc(3 * 5000 * sizeof *dense);
    (void)state;
    assert_non_null(dense);
    round_trip_v2(10, NULL, 0);
    round_trip_v2(1000, one, 1);
    round_trip_v2(UINT64_C(1) << 22, sparse, sizeof sparse / sizeof sparse[0] / 3);
    for (uint64_t u = 0; u < 5000; u++) {
        dense[3 * u] = u;
        dense[3 * u + 1] = u * u * u;
        dense[3 * u + 2] = u * u;
    }
    round_trip_v2(5000, dense, 5000);
    free(dense);
}

/* A file of format 1, as older releases wrote it, is read (opened, peeked
 * at, loaded), resumed, and saved again in format 2 with the same records
 * and the new ones. */
typedef struct unit_results {
    uint64_t *total, *unique;
} unit_results;

static void remember_unit(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    unit_results *r = data;
    r->total[unit] = total;
    r->unique[unit] = unique;
}

static void test_v1_file_resumes_as_v2(void **state)
{
    const unsigned n = 10;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    unit_results all;
    uint64_t units, half, sum = 0, usum = 0;
    image im;
    unsigned char *got;
    size_t len;
    (void)state;
    assert_int_equal(nq_units(&units, n, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_true(units <= 2000); /* fits the image */
    half = units / 2;
    all.total = calloc(units, sizeof *all.total);
    all.unique = calloc(units, sizeof *all.unique);
    assert_true(all.total && all.unique);
    o.method = NQ_METHOD_SYMMETRY;
    o.on_unit = remember_unit;
    o.unit_data = &all;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);

    /* the first half, every other unit */
    img_header(&im, 1, n, NQ_METHOD_SYMMETRY, nq_unit_list_version(NQ_METHOD_SYMMETRY), units,
               (half + 1) / 2);
    for (uint64_t u = 0; u < half; u += 2) {
        img_u(&im, u, 8);
        img_u(&im, all.total[u], 8);
        img_u(&im, all.unique[u], 8);
        sum += all.total[u];
        usum += all.unique[u];
    }
    img_seal(&im);
    write_whole(im.b, im.len);

    assert_int_equal(nq_checkpoint_peek(&info, path), NQ_OK);
    assert_int_equal(info.n, n);
    assert_int_equal(info.units_done, (half + 1) / 2);
    assert_int_equal(nq_checkpoint_load(&cp, path), NQ_OK);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.total, sum);
    nq_checkpoint_close(cp);
    assert_int_equal(nq_checkpoint_open(&cp, path, n, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.units_done, (half + 1) / 2);
    assert_int_equal(info.total, sum);
    assert_int_equal(info.unique, usum);
    nq_checkpoint_close(cp);

    /* resumed: only the rest is counted, and the file is of format 2 */
    assert_int_equal(count_with_checkpoint(&r, n, NQ_METHOD_SYMMETRY, 0, 0),
                     units - (half + 1) / 2);
    assert_int_equal(r.total, test_known[n].total);
    assert_int_equal(r.unique, test_known[n].unique);
    got = read_whole(&len);
    assert_int_equal(got[8], 2);
    assert_true(len < im.len + 24 * (units - (half + 1) / 2));
    free(got);
    assert_int_equal(nq_checkpoint_open(&cp, path, n, NQ_METHOD_SYMMETRY), NQ_OK);
    for (uint64_t u = 0; u < units; u++) {
        uint64_t t = 0, q = 0;
        assert_int_equal(nq_checkpoint_unit(cp, u, &t, &q), NQ_OK);
        assert_true(t == all.total[u] && q == all.unique[u]);
    }
    nq_checkpoint_close(cp);
    free(all.total);
    free(all.unique);
}

/* Format 1's own refusals: a size that is not 48 + 24 R, records out of
 * order or past the list. */
static void test_v1_refusals(void **state)
{
    nq_ckpt_expect want = img_want();
    const uint64_t units[][2] = {{5, 5}, {6, 5}, {5, IMG_UNITS}};
    image im;
    (void)state;
    for (int k = 0; k < 4; k++) {
        img_header(&im, 1, 30, NQ_METHOD_SYMMETRY, want.list_version, IMG_UNITS, 2);
        for (int i = 0; i < 2; i++) {
            img_u(&im, k < 3 ? units[k][i] : (uint64_t)i, 8);
            img_u(&im, 1, 8);
            img_u(&im, 0, 8);
        }
        if (k == 3)
            img_u(&im, 0, 1); /* one byte too many */
        img_seal(&im);
        assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), NQ_EFORMAT);
    }
    /* and the same records in order: read */
    img_header(&im, 1, 30, NQ_METHOD_SYMMETRY, want.list_version, IMG_UNITS, 2);
    for (int i = 0; i < 2; i++) {
        img_u(&im, 5 + (uint64_t)i, 8);
        img_u(&im, 1, 8);
        img_u(&im, 0, 8);
    }
    img_seal(&im);
    assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), NQ_OK);
}

/* Each refusal of format 2 on its own, beside a file that differs only
 * there and is read. */
static void test_v2_refuses_overlong_varint(void **state)
{
    (void)state;
    /* 2^63 + 1 in 10 bytes, then an 11th */
    assert_int_equal(decode_v2(1, "00 81 80 80 80 80 80 80 80 80 01 00"), NQ_OK);
    assert_int_equal(decode_v2(1, "00 81 80 80 80 80 80 80 80 80 81 01 00"), NQ_EFORMAT);
    assert_int_equal(decode_v2(1, "00 ff ff ff ff ff ff ff ff ff ff ff 00 00"), NQ_EFORMAT);
}

static void test_v2_refuses_64_bit_overflow(void **state)
{
    (void)state;
    assert_int_equal(decode_v2(1, "00 ff ff ff ff ff ff ff ff ff 01 00"), NQ_OK); /* 2^64 - 1 */
    assert_int_equal(decode_v2(1, "00 ff ff ff ff ff ff ff ff ff 02 00"), NQ_EFORMAT);
    assert_int_equal(decode_v2(1, "00 80 80 80 80 80 80 80 80 80 7e 00"), NQ_EFORMAT);
}

static void test_v2_refuses_non_minimal_varint(void **state)
{
    (void)state;
    assert_int_equal(decode_v2(1, "05 05 01"), NQ_OK);
    assert_int_equal(decode_v2(1, "85 00 05 01"), NQ_EFORMAT);    /* the gap */
    assert_int_equal(decode_v2(1, "05 85 00 01"), NQ_EFORMAT);    /* the total */
    assert_int_equal(decode_v2(1, "05 05 81 80 00"), NQ_EFORMAT); /* the unique count */
    assert_int_equal(decode_v2(1, "80 00 05 01"), NQ_EFORMAT);    /* zero, padded */
}

static void test_v2_refuses_gap_past_the_list(void **state)
{
    (void)state;
    /* units 998 and 999 (gap 0) of 1000 */
    assert_int_equal(decode_v2(2, "e6 07 01 00 00 01 00"), NQ_OK);
    assert_int_equal(decode_v2(2, "e6 07 01 00 01 01 00"), NQ_EFORMAT); /* 1000 */
    assert_int_equal(decode_v2(1, "e7 07 01 00"), NQ_OK);               /* the first: 999 */
    assert_int_equal(decode_v2(1, "e8 07 01 00"), NQ_EFORMAT);          /* 1000 */
    /* gaps that would wrap 64 bits back into the list */
    assert_int_equal(decode_v2(2, "e6 07 01 00 ff ff ff ff ff ff ff ff ff 01 01 00"),
                     NQ_EFORMAT);
    assert_int_equal(decode_v2(2, "e6 07 01 00 fe ff ff ff ff ff ff ff ff 01 01 00"),
                     NQ_EFORMAT);
}

static void test_v2_refuses_trailing_bytes(void **state)
{
    (void)state;
    assert_int_equal(decode_v2(2, "00 01 00 00 01 00"), NQ_OK);
    assert_int_equal(decode_v2(2, "00 01 00 00 01 00 00"), NQ_EFORMAT);
    assert_int_equal(decode_v2(1, "00 01 00 00 01 00"), NQ_EFORMAT); /* a record */
}

static void test_v2_refuses_missing_bytes(void **state)
{
    (void)state;
    assert_int_equal(decode_v2(3, "00 01 00 00 01 00 00 81"), NQ_EFORMAT); /* in a varint */
    assert_int_equal(decode_v2(3, "00 01 00 00 01 00 00 81 01"), NQ_EFORMAT);
    assert_int_equal(decode_v2(3, "00 01 00 00 01 00 00 81 01 00"), NQ_OK);
}

static void test_v2_refuses_too_many_records(void **state)
{
    nq_ckpt_header h;
    image im;
    nq_ckpt_expect want = img_want();
    (void)state;
    /* R above what the bytes can hold (3 a record): refused by the header */
    for (uint64_t r = 3; r <= 4; r++) {
        img_header(&im, 2, 30, NQ_METHOD_SYMMETRY, want.list_version, IMG_UNITS,
                   r == 4 ? UINT64_MAX : r);
        img_bytes(&im, "00 01 00 00 01 00 00"); /* 7 bytes: two records at most */
        img_seal(&im);
        assert_int_equal(nq_ckpt_read_header(&h, im.b, im.len), NQ_EFORMAT);
        assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), NQ_EFORMAT);
    }
    /* and more records than units */
    want.units_total = 1;
    img_header(&im, 2, 30, NQ_METHOD_SYMMETRY, want.list_version, 1, 2);
    img_bytes(&im, "00 01 00 00 01 00");
    img_seal(&im);
    assert_int_equal(nq_ckpt_read_header(&h, im.b, im.len), NQ_OK);
    assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), NQ_EFORMAT);
}

static void test_v2_refuses_bad_checksum(void **state)
{
    image im;
    nq_ckpt_expect want = img_want();
    (void)state;
    img_header(&im, 2, 30, NQ_METHOD_SYMMETRY, want.list_version, IMG_UNITS, 1);
    img_bytes(&im, "00 01 00");
    img_seal(&im);
    assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), NQ_OK);
    im.b[im.len - 8] ^= 1;
    assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), NQ_EFORMAT);
    im.b[im.len - 8] ^= 1;
    im.b[41] ^= 1; /* the total: 1 becomes 0, the checksum stays */
    assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), NQ_EFORMAT);
}

/* Format 3 (or 0) is no format of this library: refused by every reader,
 * intact or not, and never taken for a file of another count. */
static void test_unknown_format_refused(void **state)
{
    nq_ckpt_expect want = img_want();
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    nq_checkpoint *cp = NULL;
    nq_ckpt_header h;
    image im;
    (void)state;
    for (uint32_t format = 0; format <= 3; format++) {
        int rc = format == 1 || format == 2 ? NQ_OK : NQ_EFORMAT;
        img_header(&im, format, 30, NQ_METHOD_SYMMETRY, want.list_version, IMG_UNITS, 0);
        img_seal(&im);
        assert_int_equal(nq_ckpt_read_header(&h, im.b, im.len), rc);
        assert_int_equal(nq_ckpt_decode(im.b, im.len, &want, NULL, NULL), rc);
        assert_int_equal(nq_ckpt_header_matches(im.b, im.len, &want), 1);
        want.n = 29;
        assert_int_equal(nq_ckpt_header_matches(im.b, im.len, &want), rc != NQ_OK);
        want.n = 30;
        write_whole(im.b, im.len);
        assert_int_equal(nq_checkpoint_peek(&info, path), rc);
        if (rc != NQ_OK)
            assert_int_equal(nq_checkpoint_load(&cp, path), NQ_EFORMAT);
        assert_null(cp);
    }
}

/* NQ_CKPT_MAX_BYTES, what peek and load read at most before they know the
 * list, holds the longest file of any list in either format. */
static void test_max_bytes_is_a_bound(void **state)
{
    nq_ckpt_header h = {2, 30, 3, 2, NQ_CKPT_MAX_UNITS, 1};
    nq_ckpt_writer w;
    size_t max;
    (void)state;
    assert_int_equal(nq_ckpt_max_size(&max, NQ_CKPT_MAX_UNITS, NQ_CKPT_MAX_UNITS), NQ_OK);
    assert_int_equal(max, NQ_CKPT_MAX_BYTES);
    /* the longest record of such a list: the last unit, counts of 10 bytes */
    nq_ckpt_write_begin(&w, NULL, &h);
    nq_ckpt_write_record(&w, NQ_CKPT_MAX_UNITS - 1, UINT64_MAX, UINT64_MAX);
    assert_int_equal(nq_ckpt_write_end(&w), 48 + 24);
    /* longer lists have longer gaps */
    assert_int_equal(nq_ckpt_max_size(&max, 1, UINT64_C(1) << 40), NQ_OK);
    assert_int_equal(max, 48 + 6 + 20);
    assert_int_equal(nq_ckpt_max_size(&max, 1, UINT64_MAX), NQ_OK);
    assert_int_equal(max, 48 + 30);
    assert_int_equal(nq_ckpt_max_size(&max, SIZE_MAX / 24, 10), NQ_ENOMEM);
}

/* The fuzz seed corpus of the checkpoint loader, replayed: each seed is
 * read as it should be (the files without a prefix are of format 1, those
 * named v2_ of format 2; v2_padded has a non-minimal varint). Keep in step with tests/fuzz/corpus-checkpoint. */
static const struct {
    const char *name;
    int status;
} ckpt_seeds[] = {
    {"flipped", NQ_EFORMAT},        {"header_only", NQ_EFORMAT},
    {"n4_plain_one", NQ_EMISMATCH}, {"n6_plain_whole", NQ_EMISMATCH},
    {"n8_symmetry_part", NQ_OK},    {"n8_symmetry_whole", NQ_OK},
    {"truncated", NQ_EFORMAT},      {"v2_n4_plain_one", NQ_EMISMATCH},
    {"v2_n8_symmetry_part", NQ_OK}, {"v2_n8_symmetry_whole", NQ_OK},
    {"v2_padded", NQ_EFORMAT},
};

static void test_checkpoint_corpus(void **state)
{
    uint64_t units;
    nq_ckpt_expect want;
    (void)state;
    assert_int_equal(nq_units(&units, 8, NQ_METHOD_SYMMETRY), NQ_OK);
    want.n = 8;
    want.method = NQ_METHOD_SYMMETRY;
    want.list_version = nq_unit_list_version(NQ_METHOD_SYMMETRY);
    /* the seeds are of the symmetry method's list version 2, which
     * version 3 keeps below n = 28 */
    want.list_version_kept = nq_ckpt_kept_version(8, NQ_METHOD_SYMMETRY, want.list_version);
    assert_int_equal(want.list_version_kept, 2);
    want.units_total = units;
    want.has_unique = 1;
    want.max_total = test_known[8].total;
    for (size_t f = 0; f < sizeof ckpt_seeds / sizeof ckpt_seeds[0]; f++) {
        size_t len;
        unsigned char *buf =
            (unsigned char *)slurp(NQ_FUZZ_DIR "/corpus-checkpoint", ckpt_seeds[f].name, &len);
        print_message("%s\n", ckpt_seeds[f].name);
        assert_int_equal(nq_ckpt_decode(buf, len, &want, NULL, NULL), ckpt_seeds[f].status);
        free(buf);
    }
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checkpoint_corpus),
        cmocka_unit_test_setup_teardown(test_v2_known_bytes, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_v2_round_trips, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_v1_file_resumes_as_v2, make_path, remove_path),
        cmocka_unit_test(test_v1_refusals),
        cmocka_unit_test(test_v2_refuses_overlong_varint),
        cmocka_unit_test(test_v2_refuses_64_bit_overflow),
        cmocka_unit_test(test_v2_refuses_non_minimal_varint),
        cmocka_unit_test(test_v2_refuses_gap_past_the_list),
        cmocka_unit_test(test_v2_refuses_trailing_bytes),
        cmocka_unit_test(test_v2_refuses_missing_bytes),
        cmocka_unit_test(test_v2_refuses_too_many_records),
        cmocka_unit_test(test_v2_refuses_bad_checksum),
        cmocka_unit_test_setup_teardown(test_unknown_format_refused, make_path, remove_path),
        cmocka_unit_test(test_max_bytes_is_a_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
