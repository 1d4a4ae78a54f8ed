/*
 * test_versions.c - structs that grow (include/nqueens.h): every struct the
 * library fills or reads back is refused, untouched, at a version the
 * library does not know (0: not started from its INIT; one above the
 * header's); the structs a callback receives carry the library's version;
 * and the copies of src/results.c keep to a caller's version, tried on a
 * struct with two versions (the public structs have one so far).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"

/* ------------------------------------------------------------------------
 * The copies, on a struct of two versions
 * ------------------------------------------------------------------------ */

typedef struct grown {
    unsigned version;
    uint64_t a;       /* version 1 */
    uint64_t b;       /* added by version 2 */
} grown;

static const size_t grown_sizes[3] = { 0, offsetof(grown, b), sizeof(grown) };
static const nq_layout grown_layout = { grown_sizes, 2 };

/* A version-1 caller's struct is as long as version 1: nothing past it is
 * written, and its version stays 1. */
static void test_store_keeps_to_the_version(void **state)
{
    unsigned char buf[sizeof(grown) + 8];
    const grown full = { 2, 11, 22 };
    grown old;
    (void)state;
    memset(buf, 0xee, sizeof buf);
    old.version = 1;
    memcpy(buf, &old.version, sizeof old.version);
    assert_int_equal(nq_layout_size(&grown_layout, buf), offsetof(grown, b));
    nq_result_store(buf, &full, &grown_layout);
    memcpy(&old.version, buf, sizeof old.version);
    memcpy(&old.a, buf + offsetof(grown, a), sizeof old.a);
    assert_int_equal(old.version, 1);
    assert_int_equal(old.a, 11);
    for (size_t i = offsetof(grown, b); i < sizeof buf; i++)
        assert_int_equal(buf[i], 0xee);
}

/* A version-1 struct read back: the later field 0, the version current. */
static void test_load_fills_the_rest(void **state)
{
    grown in = { 1, 11, 99 }, out;
    (void)state;
    nq_result_load(&out, sizeof out, &in, &grown_layout);
    assert_int_equal(out.version, 2);
    assert_int_equal(out.a, 11);
    assert_int_equal(out.b, 0);
}

/* An array of version-1 structs is written at version 1's stride. */
static void test_store_at_the_first_elements_stride(void **state)
{
    const size_t stride = offsetof(grown, b);
    unsigned char buf[3 * sizeof(grown)];
    const grown full = { 2, 7, 8 };
    unsigned v = 1;
    (void)state;
    memset(buf, 0xee, sizeof buf);
    memcpy(buf, &v, sizeof v);
    for (size_t i = 0; i < 3; i++)
        nq_result_store_at(buf, i, &full, &grown_layout);
    for (size_t i = 0; i < 3; i++) {
        uint64_t a;
        memcpy(&v, buf + i * stride, sizeof v);
        memcpy(&a, buf + i * stride + offsetof(grown, a), sizeof a);
        assert_int_equal(v, 1);
        assert_int_equal(a, 7);
    }
    for (size_t i = 3 * stride; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0xee);
}

/* Versions 0 and above the current are none of the layout's. */
static void test_unknown_versions(void **state)
{
    grown g = { 0, 0, 0 };
    (void)state;
    assert_int_equal(nq_layout_size(&grown_layout, &g), 0);
    g.version = 3;
    assert_int_equal(nq_layout_size(&grown_layout, &g), 0);
    g.version = 2;
    assert_int_equal(nq_layout_size(&grown_layout, &g), sizeof(grown));
}

/* ------------------------------------------------------------------------
 * The public entry points
 * ------------------------------------------------------------------------ */

/* The two unknown versions of a struct at `current`: 0 (i = 0, a struct
 * not started from its INIT) and the one after it (i = 1). */
static unsigned bad(unsigned i, unsigned current)
{
    return i ? current + 1 : 0;
}

static void test_counts_refuse(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        nq_count_result r;
        nq_estimate_result e;
        memset(&r, 0x5a, sizeof r);
        r.version = bad(i, NQ_COUNT_RESULT_VERSION);
        assert_int_equal(nq_count(&r, 8, NULL), NQ_EVERSION);
        assert_int_equal(r.total, 0x5a5a5a5a5a5a5a5aull);
        memset(&e, 0x5a, sizeof e);
        e.version = bad(i, NQ_ESTIMATE_RESULT_VERSION);
        assert_int_equal(nq_estimate(&e, 8, NULL, 0.01, 1), NQ_EVERSION);
        assert_int_equal(e.units_total, 0x5a5a5a5a5a5a5a5aull);
    }
}

static void test_checkpoints_refuse(void **state)
{
    char path[] = "/tmp/nq_versions_XXXXXX";
    nq_checkpoint *cp = NULL;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint_info ok = NQ_CHECKPOINT_INFO_INIT;
    int fd = mkstemp(path);
    (void)state;
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(nq_checkpoint_open(&cp, path, 8, NQ_METHOD_SYMMETRY), NQ_OK);
    o.checkpoint = cp;
    assert_int_equal(nq_count(&r, 8, &o), NQ_OK);
    for (unsigned i = 0; i < 2; i++) {
        nq_checkpoint_info info;
        nq_recheck_result rr;
        memset(&info, 0x5a, sizeof info);
        info.version = bad(i, NQ_CHECKPOINT_INFO_VERSION);
        assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_EVERSION);
        assert_int_equal(nq_checkpoint_peek(&info, path), NQ_EVERSION);
        assert_int_equal(info.n, 0x5a5a5a5au);
        memset(&rr, 0x5a, sizeof rr);
        rr.version = bad(i, NQ_RECHECK_RESULT_VERSION);
        assert_int_equal(nq_recheck(&rr, cp, NULL), NQ_EVERSION);
        assert_int_equal(rr.checked, 0x5a5a5a5a5a5a5a5aull);
    }
    assert_int_equal(nq_checkpoint_peek(&ok, path), NQ_OK);
    assert_int_equal(ok.version, NQ_CHECKPOINT_INFO_VERSION);
    assert_int_equal(ok.n, 8);
    nq_checkpoint_close(cp);
    unlink(path);
}

static void test_parts_refuse(void **state)
{
    static const char line[] =
        "{\"n\":8,\"total\":92,\"method\":\"symmetry\",\"part\":1,\"parts\":1,"
        "\"unit_list_version\":2}";
    nq_part good = NQ_PART_INIT;
    nq_partline_error ge = NQ_PARTLINE_ERROR_INIT;
    char text[80];
    (void)state;
    assert_int_equal(nq_part_parse(&good, &ge, line, strlen(line)), NQ_OK);
    assert_int_equal(good.version, NQ_PART_VERSION);
    assert_int_equal(ge.version, NQ_PARTLINE_ERROR_VERSION);
    assert_true(nq_part_checksum(&good) != 0);
    for (unsigned i = 0; i < 2; i++) {
        nq_part p = NQ_PART_INIT, two[2];
        nq_partline_error e = NQ_PARTLINE_ERROR_INIT;
        nq_merge_summary sums[2] = { NQ_MERGE_SUMMARY_INIT };
        nq_merge_error me = NQ_MERGE_ERROR_INIT;
        size_t len = 77;
        p.version = bad(i, NQ_PART_VERSION);
        assert_int_equal(nq_part_parse(&p, NULL, line, strlen(line)), NQ_EVERSION);
        assert_int_equal(p.n, 0);
        p.version = NQ_PART_VERSION;
        e.version = bad(i, NQ_PARTLINE_ERROR_VERSION);
        assert_int_equal(nq_part_parse(&p, &e, line, strlen(line)), NQ_EVERSION);
        assert_int_equal(nq_partline_error_format(text, sizeof text, &e), NQ_EVERSION);
        p = good;
        p.version = bad(i, NQ_PART_VERSION);
        assert_int_equal(nq_part_checksum(&p), 0);
        /* out[0], a part, the error, or parts of two versions */
        sums[0].version = bad(i, NQ_MERGE_SUMMARY_VERSION);
        assert_int_equal(nq_merge_parts(sums, &len, NULL, &good, 1), NQ_EVERSION);
        sums[0].version = NQ_MERGE_SUMMARY_VERSION;
        assert_int_equal(nq_merge_parts(sums, &len, NULL, &p, 1), NQ_EVERSION);
        me.version = bad(i, NQ_MERGE_ERROR_VERSION);
        assert_int_equal(nq_merge_parts(sums, &len, &me, &good, 1), NQ_EVERSION);
        two[0] = good;
        two[1] = good;
        two[1].version = bad(i, NQ_PART_VERSION);
        assert_int_equal(nq_merge_parts(sums, &len, NULL, two, 2), NQ_EVERSION);
        assert_int_equal(len, 77);
    }
}

static void test_solutions_refuse(void **state)
{
    static const uint32_t cols[4] = { 1, 3, 0, 2 };
    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        nq_violation viol;
        nq_placement_error pe = NQ_PLACEMENT_ERROR_INIT;
        uint32_t *got = NULL;
        size_t n = 99;
        char text[80];
        memset(&viol, 0x5a, sizeof viol);
        viol.version = bad(i, NQ_VIOLATION_VERSION);
        assert_int_equal(nq_verify(&viol, cols, 4), NQ_EVERSION);
        assert_int_equal(viol.row_a, (size_t)0x5a5a5a5a5a5a5a5aull);
        assert_int_equal(nq_violation_format(text, sizeof text, &viol, cols, 4), NQ_EVERSION);
        pe.version = bad(i, NQ_PLACEMENT_ERROR_VERSION);
        assert_int_equal(nq_parse_placement(&got, &n, &pe, "2 4 1 3", 7), NQ_EVERSION);
        assert_null(got);
        assert_int_equal(n, 99);
        assert_int_equal(nq_placement_error_format(text, sizeof text, &pe), NQ_EVERSION);
    }
}

/* The structs that callbacks receive carry the library's versions. */
static void on_progress(const nq_progress *p, void *data)
{
    *(unsigned *)data = p->version;
}

static int on_recheck(const nq_recheck_unit *u, void *data)
{
    *(unsigned *)data = u->version;
    return 0;
}

static void test_callbacks_carry_versions(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_recheck_options ro = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result rr = NQ_RECHECK_RESULT_INIT;
    nq_checkpoint *cp = NULL;
    unsigned progress = 0, unit = 0;
    (void)state;
    assert_int_equal(nq_checkpoint_open(&cp, NULL, 8, NQ_METHOD_SYMMETRY), NQ_OK);
    o.progress = on_progress;
    o.progress_data = &progress;
    o.checkpoint = cp;
    assert_int_equal(nq_count(&r, 8, &o), NQ_OK);
    assert_int_equal(progress, NQ_PROGRESS_VERSION);
    ro.on_unit = on_recheck;
    ro.unit_data = &unit;
    assert_int_equal(nq_recheck(&rr, cp, &ro), NQ_OK);
    assert_int_equal(unit, NQ_RECHECK_UNIT_VERSION);
    assert_int_equal(rr.version, NQ_RECHECK_RESULT_VERSION);
    nq_checkpoint_close(cp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_keeps_to_the_version),
        cmocka_unit_test(test_load_fills_the_rest),
        cmocka_unit_test(test_store_at_the_first_elements_stride),
        cmocka_unit_test(test_unknown_versions),
        cmocka_unit_test(test_counts_refuse),
        cmocka_unit_test(test_checkpoints_refuse),
        cmocka_unit_test(test_parts_refuse),
        cmocka_unit_test(test_solutions_refuse),
        cmocka_unit_test(test_callbacks_carry_versions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
