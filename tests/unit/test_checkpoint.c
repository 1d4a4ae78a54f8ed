/* Checkpoints: round trips, resuming, and refusing files that are not
 * exactly what the run expects. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint/checkpoint.h"
#include "known_values.h"
#include "nqueens.h"
#include "test_parts.h"

static char path[256];

static int make_path(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "test_checkpoint_%ld.ckpt", (long)getpid());
    remove(path);
    return 0;
}

static int remove_path(void **state)
{
    char tmp[300];
    (void)state;
    remove(path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    remove(tmp);
    return 0;
}

static void count_units(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    (void)unit;
    (void)total;
    (void)unique;
    ++*(uint64_t *)data;
}

/* Counts n with the checkpoint file; returns how many units were computed. */
static uint64_t count_with_checkpoint(nq_count_result *r, unsigned n,
                                      nq_method method, uint64_t first,
                                      uint64_t count)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_checkpoint *cp;
    uint64_t computed = 0;

    assert_int_equal(nq_checkpoint_open(&cp, path, n, method), NQ_OK);
    o.method = method;
    o.checkpoint = cp;
    o.checkpoint_interval = 0;
    o.unit_first = first;
    o.unit_count = count;
    o.on_unit = count_units;
    o.unit_data = &computed;
    assert_int_equal(nq_count(r, n, &o), NQ_OK);
    nq_checkpoint_close(cp);
    return computed;
}

static void test_round_trip(void **state)
{
    nq_count_result r;
    nq_checkpoint *cp;
    nq_checkpoint_info info;
    uint64_t computed;
    (void)state;

    computed = count_with_checkpoint(&r, 12, NQ_METHOD_SYMMETRY, 0, 0);
    assert_int_equal(computed, r.units_total);
    assert_int_equal(r.total, test_known[12].total);

    assert_int_equal(nq_checkpoint_open(&cp, path, 12, NQ_METHOD_DEFAULT), NQ_OK);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.n, 12);
    assert_int_equal(info.method, NQ_METHOD_SYMMETRY);
    assert_int_equal(info.units_done, info.units_total);
    assert_int_equal(info.total, test_known[12].total);
    assert_int_equal(info.unique, test_known[12].unique);
    for (uint64_t u = 0; u < info.units_total; u++)
        assert_true(nq_checkpoint_is_done(cp, u));
    assert_false(nq_checkpoint_is_done(cp, info.units_total));
    nq_checkpoint_close(cp);

    /* a finished checkpoint: nothing left to compute, same answer */
    assert_int_equal(count_with_checkpoint(&r, 12, NQ_METHOD_SYMMETRY, 0, 0), 0);
    assert_int_equal(r.total, test_known[12].total);
    assert_int_equal(r.unique, test_known[12].unique);
    assert_int_equal(r.units_done, r.units_total);
}

typedef struct seen_progress {
    uint64_t resumed, done, total;
} seen_progress;

static void remember_progress(const nq_progress *p, void *data)
{
    seen_progress *seen = data;
    seen->resumed = p->units_resumed;
    seen->done = p->units_done;
    seen->total = p->units_total;
}

/* Progress counts the checkpoint's units as done, and says how many. */
static void test_progress_after_resume(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r;
    nq_checkpoint *cp;
    seen_progress seen = {0, 0, 0};
    uint64_t units;
    (void)state;
    assert_int_equal(nq_units(&units, 12, NQ_METHOD_SYMMETRY), NQ_OK);
    count_with_checkpoint(&r, 12, NQ_METHOD_SYMMETRY, 0, units / 3);
    assert_int_equal(nq_checkpoint_open(&cp, path, 12, NQ_METHOD_SYMMETRY), NQ_OK);
    o.checkpoint = cp;
    o.progress = remember_progress;
    o.progress_data = &seen;
    assert_int_equal(nq_count(&r, 12, &o), NQ_OK);
    nq_checkpoint_close(cp);
    assert_int_equal(seen.resumed, units / 3);
    assert_int_equal(seen.done, units);
    assert_int_equal(seen.total, units);
}

static void test_resume_computes_only_the_rest(void **state)
{
    for (int meth = 1; meth <= 2; meth++) {
        nq_count_result r;
        uint64_t units, first_half, rest;
        (void)state;
        remove(path);
        assert_int_equal(nq_units(&units, 13, (nq_method)meth), NQ_OK);
        first_half = units / 2;
        assert_int_equal(count_with_checkpoint(&r, 13, (nq_method)meth, 0, first_half),
                         first_half);
        rest = count_with_checkpoint(&r, 13, (nq_method)meth, 0, 0);
        assert_int_equal(rest, units - first_half);
        assert_int_equal(r.total, test_known[13].total);
        assert_int_equal(r.units_done, units);
    }
}

static unsigned char *read_whole(size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = malloc(1 << 20);
    assert_non_null(f);
    assert_non_null(buf);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static void write_whole(const unsigned char *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
}

static void test_corruption_is_refused(void **state)
{
    nq_count_result r;
    nq_checkpoint *cp = NULL;
    unsigned char *good;
    size_t len;
    (void)state;

    count_with_checkpoint(&r, 10, NQ_METHOD_SYMMETRY, 0, 0);
    good = read_whole(&len);
    assert_true(len > 48);

    /* truncations (every length in the header and the first records, then
     * a sample) and flipped bits (the same) */
    for (size_t cut = 0; cut < len; cut += (cut < 96 ? 1 : 37)) {
        write_whole(good, cut);
        assert_int_equal(nq_checkpoint_open(&cp, path, 10, NQ_METHOD_SYMMETRY), NQ_EFORMAT);
    }
    for (size_t at = 0; at < len; at += (at < 96 ? 1 : 41)) {
        for (int bit = 0; bit < 8; bit += 3) {
            good[at] ^= (unsigned char)(1u << bit);
            write_whole(good, len);
            assert_int_equal(nq_checkpoint_open(&cp, path, 10, NQ_METHOD_SYMMETRY),
                             NQ_EFORMAT);
            good[at] ^= (unsigned char)(1u << bit);
        }
    }
    /* trailing junk */
    {
        unsigned char *longer = malloc(len + 1);
        assert_non_null(longer);
        memcpy(longer, good, len);
        longer[len] = 0;
        write_whole(longer, len + 1);
        assert_int_equal(nq_checkpoint_open(&cp, path, 10, NQ_METHOD_SYMMETRY), NQ_EFORMAT);
        free(longer);
    }
    /* restored, it loads again */
    write_whole(good, len);
    assert_int_equal(nq_checkpoint_open(&cp, path, 10, NQ_METHOD_SYMMETRY), NQ_OK);
    nq_checkpoint_close(cp);
    free(good);
}

static void test_other_runs_are_refused(void **state)
{
    nq_count_result r;
    nq_checkpoint *cp = NULL;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    (void)state;

    count_with_checkpoint(&r, 10, NQ_METHOD_SYMMETRY, 0, 0);
    assert_int_equal(nq_checkpoint_open(&cp, path, 11, NQ_METHOD_SYMMETRY), NQ_EMISMATCH);
    assert_int_equal(nq_checkpoint_open(&cp, path, 10, NQ_METHOD_PLAIN), NQ_EMISMATCH);

    /* an object for n = 10 handed to a count of n = 11 */
    assert_int_equal(nq_checkpoint_open(&cp, path, 10, NQ_METHOD_SYMMETRY), NQ_OK);
    o.checkpoint = cp;
    assert_int_equal(nq_count(&r, 11, &o), NQ_EMISMATCH);
    o.method = NQ_METHOD_PLAIN;
    assert_int_equal(nq_count(&r, 10, &o), NQ_EMISMATCH);
    nq_checkpoint_close(cp);
}

static void test_record_rules(void **state)
{
    nq_checkpoint *cp;
    nq_checkpoint_info info;
    (void)state;
    assert_int_equal(nq_checkpoint_open(&cp, path, 9, NQ_METHOD_PLAIN), NQ_OK);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.units_done, 0);
    assert_int_equal(nq_checkpoint_record(cp, 0, 5, 0), NQ_OK);
    assert_int_equal(nq_checkpoint_record(cp, 0, 5, 0), NQ_OK);
    assert_int_equal(nq_checkpoint_record(cp, 0, 6, 0), NQ_EMISMATCH);
    assert_int_equal(nq_checkpoint_record(cp, info.units_total, 1, 0), NQ_EINVAL);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.units_done, 1);
    assert_int_equal(info.total, 5);
    nq_checkpoint_close(cp);
    /* nothing was saved: no file appears */
    assert_int_equal(access(path, F_OK), -1);
}

static void test_bad_paths(void **state)
{
    nq_checkpoint *cp;
    nq_count_result r;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    (void)state;
    assert_int_equal(nq_checkpoint_open(&cp, "", 8, NQ_METHOD_PLAIN), NQ_EINVAL);
    /* NULL: in memory only; saving writes nothing */
    assert_int_equal(nq_checkpoint_open(&cp, NULL, 8, NQ_METHOD_PLAIN), NQ_OK);
    assert_int_equal(nq_checkpoint_record(cp, 0, 2, 0), NQ_OK);
    assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
    nq_checkpoint_close(cp);
    assert_int_equal(nq_checkpoint_open(NULL, path, 8, NQ_METHOD_PLAIN), NQ_EINVAL);
    assert_int_equal(nq_checkpoint_open(&cp, path, NQ_MAX_N + 1, NQ_METHOD_PLAIN), NQ_ERANGE);
    /* a directory is not a checkpoint file */
    assert_int_equal(nq_checkpoint_open(&cp, ".", 8, NQ_METHOD_PLAIN), NQ_EIO);
    /* a file that cannot be written: refused at once, before any count */
    errno = 0;
    assert_int_equal(nq_checkpoint_open(&cp, "no-such-dir/x.ckpt", 8, NQ_METHOD_PLAIN), NQ_EIO);
    assert_int_equal(errno, ENOENT);
    /* a checkpoint object whose saves fail: the count reports it */
    assert_int_equal(nq_checkpoint_open(&cp, path, 8, NQ_METHOD_PLAIN), NQ_OK);
    assert_int_equal(mkdir(path, 0700), 0); /* the rename now fails */
    o.method = NQ_METHOD_PLAIN;
    o.checkpoint = cp;
    assert_int_equal(nq_count(&r, 8, &o), NQ_EIO);
    nq_checkpoint_close(cp);
    assert_int_equal(rmdir(path), 0);
    nq_checkpoint_close(NULL);
}

/* The fuzz seed corpus of the checkpoint loader, replayed: each seed is
 * read as it should be. Keep in step with tests/fuzz/corpus-checkpoint. */
static const struct {
    const char *name;
    int status;
} ckpt_seeds[] = {
    {"flipped", NQ_EFORMAT},        {"header_only", NQ_EFORMAT},
    {"n4_plain_one", NQ_EMISMATCH}, {"n6_plain_whole", NQ_EMISMATCH},
    {"n8_symmetry_part", NQ_OK},    {"n8_symmetry_whole", NQ_OK},
    {"truncated", NQ_EFORMAT},
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
        cmocka_unit_test_setup_teardown(test_round_trip, make_path, remove_path),
        cmocka_unit_test(test_checkpoint_corpus),
        cmocka_unit_test_setup_teardown(test_resume_computes_only_the_rest, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_progress_after_resume, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_corruption_is_refused, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_other_runs_are_refused, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_record_rules, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_bad_paths, make_path, remove_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
