/* Checkpoints through the store: round trips, resuming, refusing files
 * that are not exactly what the run expects, and the rules of recording.
 * The file formats byte by byte are test_checkpoint_format.c's. */
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
#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_format.h"
#include "known_values.h"
#include "nqc_random.h"
#include "nqueens.h"
#include "test_parts.h"
/* (after test_parts.h, whose functions name a parameter `path`) */
#include "test_checkpoint.h"

static void test_round_trip(void **state)
{
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
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
    nq_count_result r = NQ_COUNT_RESULT_INIT;
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
        nq_count_result r = NQ_COUNT_RESULT_INIT;
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
static void test_corruption_is_refused(void **state)
{
    nq_count_result r = NQ_COUNT_RESULT_INIT;
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
    nq_count_result r = NQ_COUNT_RESULT_INIT;
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

/* A checkpoint of the join's unit list version 1 (the list before n = 24
 * got its long one) is refused by a count of version 2, whatever n, and
 * nq_checkpoint_peek() names the version it holds; its units are never
 * read as units of the new list. */
static void test_old_list_version_is_refused(void **state)
{
    static const unsigned sizes[] = { 12, 24 };
    (void)state;
    assert_true(nq_unit_list_version(NQ_METHOD_JOIN) >= 2);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        nq_checkpoint *cp = NULL;
        nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
        uint64_t units;
        assert_int_equal(nq_units(&units, sizes[i], NQ_METHOD_JOIN), NQ_OK);
        assert_int_equal(nq_checkpoint_open_list(&cp, path, sizes[i], NQ_METHOD_JOIN, 1,
                                                 units),
                         NQ_OK);
        assert_int_equal(nq_checkpoint_record(cp, 0, 0, 0), NQ_OK);
        assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
        nq_checkpoint_close(cp);
        cp = NULL;
        assert_int_equal(nq_checkpoint_open(&cp, path, sizes[i], NQ_METHOD_JOIN),
                         NQ_EMISMATCH);
        assert_null(cp);
        assert_int_equal(nq_checkpoint_peek(&info, path), NQ_OK);
        assert_int_equal(info.unit_list_version, 1);
        assert_int_equal(info.method, NQ_METHOD_JOIN);
        assert_int_equal(unlink(path), 0);
    }
}

/* The symmetry method's list version 3 changed n = 28 alone: a file of
 * version 2 resumes below 28 (and is written as version 3 again) and is
 * refused at 28. */
static void test_kept_list_version_resumes(void **state)
{
    nq_checkpoint *cp = NULL;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    uint64_t units;
    (void)state;
    assert_int_equal(nq_unit_list_version(NQ_METHOD_SYMMETRY), 3);
    assert_int_equal(nq_units(&units, 12, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_int_equal(nq_checkpoint_open_list(&cp, path, 12, NQ_METHOD_SYMMETRY, 2, units),
                     NQ_OK);
    assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
    nq_checkpoint_close(cp);
    /* nothing recorded: every unit is counted, and the total is right */
    assert_int_equal(count_with_checkpoint(&r, 12, NQ_METHOD_SYMMETRY, 0, 0), units);
    assert_int_equal(r.total, 14200);
    assert_int_equal(r.unique, 1787);
    assert_int_equal(nq_checkpoint_peek(&info, path), NQ_OK);
    assert_int_equal(info.unit_list_version, 3);
    assert_int_equal(unlink(path), 0);

    cp = NULL;
    assert_int_equal(nq_units(&units, 28, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_int_equal(nq_checkpoint_open_list(&cp, path, 28, NQ_METHOD_SYMMETRY, 2, units),
                     NQ_OK);
    assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
    nq_checkpoint_close(cp);
    cp = NULL;
    assert_int_equal(nq_checkpoint_open(&cp, path, 28, NQ_METHOD_SYMMETRY), NQ_EMISMATCH);
    assert_null(cp);
    assert_int_equal(unlink(path), 0);
}

static void test_record_rules(void **state)
{
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
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
    /* the first save writes the file even with nothing recorded, so that a
     * run stopped before its first unit leaves the file it names */
    assert_int_equal(nq_checkpoint_open(&cp, path, 9, NQ_METHOD_PLAIN), NQ_OK);
    assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
    nq_checkpoint_close(cp);
    assert_int_equal(access(path, F_OK), 0);
    assert_int_equal(nq_checkpoint_open(&cp, path, 9, NQ_METHOD_PLAIN), NQ_OK);
    nq_checkpoint_close(cp);
}

/* The library refuses to record what it could not read back: a unique
 * count above the total, a unique count from a method that counts none
 * (plain, join), a sum past the published count. Each example that once
 * saved a file that reopening refused. */
static void test_record_refuses_what_cannot_be_read(void **state)
{
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    (void)state;
    for (int m = 1; nq_method_name((nq_method)m) != NULL; m++) {
        int has_unique = m == NQ_METHOD_SYMMETRY;
        remove(path);
        assert_int_equal(nq_checkpoint_open(&cp, path, 8, (nq_method)m), NQ_OK);
        assert_int_equal(nq_checkpoint_record(cp, 0, 5, 6), NQ_EINVAL);
        assert_int_equal(nq_checkpoint_record(cp, 0, 5, 3), has_unique ? NQ_OK : NQ_EINVAL);
        assert_int_equal(nq_checkpoint_record(cp, 1, 4, 0), NQ_OK);
        /* 92 solutions at n = 8 in all: 4 + 5 (if recorded) + 84 passes */
        assert_int_equal(nq_checkpoint_record(cp, 2, 92, 0), NQ_EOVERFLOW);
        assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
        assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
        nq_checkpoint_close(cp);
        /* what was saved reads back, every result as recorded */
        assert_int_equal(nq_checkpoint_open(&cp, path, 8, (nq_method)m), NQ_OK);
        {
            nq_checkpoint_info again = NQ_CHECKPOINT_INFO_INIT;
            assert_int_equal(nq_checkpoint_info_get(&again, cp), NQ_OK);
            assert_int_equal(again.units_done, info.units_done);
            assert_int_equal(again.units_done, has_unique ? 2 : 1);
            assert_int_equal(again.total, info.total);
            assert_int_equal(again.unique, info.unique);
        }
        nq_checkpoint_close(cp);
    }
}

/* Fuzzed: random records (units in and out of range, totals small and
 * huge, unique counts around the total) on every method; whatever the
 * library accepts is saved, and the file must reopen to exactly what was
 * accepted. A seeded loop, so that a failure repeats. */
static void test_record_save_reopen_fuzzed(void **state)
{
    static const unsigned sizes[] = {0, 1, 4, 8, 11, 30};
    uint64_t seed = 20261124;
    (void)state;
    for (unsigned round = 0; round < 240; round++) {
        nq_method m = (nq_method)(1 + round % 3);
        unsigned n = sizes[(round / 3) % (sizeof sizes / sizeof sizes[0])];
        nq_checkpoint *cp;
        nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT, again = NQ_CHECKPOINT_INFO_INIT;
        uint64_t *totals, *uniques;
        uint8_t *done;
        int rc;

        if (nq_method_name(m) == NULL)
            continue;
        remove(path);
        rc = nq_checkpoint_open(&cp, path, n, m);
        if (rc != NQ_OK) {
            /* a size or method that has no unit list */
            assert_true(rc == NQ_ERANGE || rc == NQ_EINVAL || rc == NQ_EUNSUPPORTED);
            continue;
        }
        assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
        totals = calloc((size_t)info.units_total + 1, sizeof *totals);
        uniques = calloc((size_t)info.units_total + 1, sizeof *uniques);
        done = calloc((size_t)info.units_total + 1, 1);
        assert_non_null(totals);
        assert_non_null(uniques);
        assert_non_null(done);
        for (int i = 0; i < 64; i++) {
            uint64_t r = nqc_splitmix64(&seed);
            uint64_t unit = r % (info.units_total + 2);
            uint64_t total = (r >> 8) % 4 == 0 ? nqc_splitmix64(&seed) : (r >> 16) % 50;
            uint64_t unique = (r >> 24) % 3 == 0 ? 0 : total / 2 + (r >> 32) % 3;
            if ((r >> 40) % 5 == 0)
                unique = total + 1;
            rc = nq_checkpoint_record(cp, unit, total, unique);
            if (rc == NQ_OK && !done[unit]) {
                done[unit] = 1;
                totals[unit] = total;
                uniques[unit] = unique;
            } else if (rc == NQ_OK) {
                assert_true(totals[unit] == total && uniques[unit] == unique);
            } else {
                assert_true(rc == NQ_EINVAL || rc == NQ_EMISMATCH || rc == NQ_EOVERFLOW);
            }
        }
        assert_int_equal(nq_checkpoint_save(cp), NQ_OK);
        assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
        nq_checkpoint_close(cp);
        assert_int_equal(nq_checkpoint_open(&cp, path, n, m), NQ_OK);
        assert_int_equal(nq_checkpoint_info_get(&again, cp), NQ_OK);
        assert_int_equal(again.units_done, info.units_done);
        assert_int_equal(again.total, info.total);
        assert_int_equal(again.unique, info.unique);
        for (uint64_t u = 0; u < info.units_total; u++) {
            assert_int_equal(nq_checkpoint_is_done(cp, u), done[u]);
            /* a result recorded again reads as the same one */
            if (done[u])
                assert_int_equal(nq_checkpoint_record(cp, u, totals[u], uniques[u]), NQ_OK);
        }
        nq_checkpoint_close(cp);
        free(totals);
        free(uniques);
        free(done);
    }
}

/* A checkpoint opened for the default method is resolved as the count
 * resolves it: at n = 18 the default is the join for totals but the
 * symmetry method for unique counts. */
static void test_default_method_resolves_as_the_count(void **state)
{
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    /* a new file: a unique count takes it for the symmetry method */
    assert_int_equal(nq_checkpoint_open(&cp, path, 18, NQ_METHOD_DEFAULT), NQ_OK);
    o.unique = 1;
    o.checkpoint = cp;
    o.part_k = 1;
    o.part_m = 256; /* a few units are enough */
    assert_int_equal(nq_count(&r, 18, &o), NQ_OK);
    assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.method, NQ_METHOD_SYMMETRY);
    assert_true(info.units_done > 0);
    nq_checkpoint_close(cp);
    /* opened again for the default: the file's method, and a default count
     * of totals resumes with it */
    assert_int_equal(nq_checkpoint_open(&cp, path, 18, NQ_METHOD_DEFAULT), NQ_OK);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.method, NQ_METHOD_SYMMETRY);
    o.unique = 0;
    o.checkpoint = cp;
    o.part_k = 2;
    assert_int_equal(nq_count(&r, 18, &o), NQ_OK);
    assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
    nq_checkpoint_close(cp);
    /* a method named otherwise is still refused */
    assert_int_equal(nq_checkpoint_open(&cp, path, 18, NQ_METHOD_JOIN), NQ_EMISMATCH);
    /* in memory only, the same */
    assert_int_equal(nq_checkpoint_open(&cp, NULL, 18, NQ_METHOD_DEFAULT), NQ_OK);
    o.unique = 1;
    o.checkpoint = cp;
    o.part_k = 1;
    assert_int_equal(nq_count(&r, 18, &o), NQ_OK);
    assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
    nq_checkpoint_close(cp);
}

static void test_bad_paths(void **state)
{
    nq_checkpoint *cp;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
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
    /* a file that cannot be written: refused at once, before any count
     * (the first file made there is the lock file) */
    errno = 0;
    assert_int_equal(nq_checkpoint_open(&cp, "no-such-dir/x.ckpt", 8, NQ_METHOD_PLAIN),
                     NQ_ELOCK);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_resume_computes_only_the_rest, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_progress_after_resume, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_corruption_is_refused, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_other_runs_are_refused, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_kept_list_version_resumes, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_old_list_version_is_refused, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_record_rules, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_record_refuses_what_cannot_be_read, make_path,
                                        remove_path),
        cmocka_unit_test_setup_teardown(test_record_save_reopen_fuzzed, make_path, remove_path),
        cmocka_unit_test_setup_teardown(test_default_method_resolves_as_the_count, make_path,
                                        remove_path),
        cmocka_unit_test_setup_teardown(test_bad_paths, make_path, remove_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
