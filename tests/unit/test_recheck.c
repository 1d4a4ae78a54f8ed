/* Re-checks (nq_recheck()): the join's independent walk against its units,
 * real checkpoints found clean at every path and level this machine runs,
 * a tampered record found and named (in memory and in a file with a valid
 * checksum), the sample (seeded, uniform, without repeats, capped by what
 * is finished), and the refusals and the stop. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "known_values.h"
#include "methods/methods.h"
#include "nqueens.h"
#include "test_sizes.h"

static const nq_simd all_levels[] = { NQ_SIMD_NONE, NQ_SIMD_AVX2, NQ_SIMD_AVX512 };
#define NLEVELS (sizeof all_levels / sizeof all_levels[0])

/* What on_unit saw. */
typedef struct seen {
    uint64_t units[4096];
    size_t count;
    size_t bad;               /* units that did not match */
    nq_recheck_unit last_bad;
    uint64_t stop_after;      /* nonzero: ask to stop after so many */
    nq_cancel *raise_after_first;
} seen;

static int on_unit(const nq_recheck_unit *u, void *data)
{
    seen *s = data;
    if (s->count < sizeof s->units / sizeof s->units[0])
        s->units[s->count] = u->unit;
    s->count++;
    if (!u->match) {
        s->bad++;
        s->last_bad = *u;
    }
    if (s->raise_after_first)
        nq_cancel_raise(s->raise_after_first);
    return s->stop_after && s->count >= s->stop_after;
}

/* A memory checkpoint of the whole count of n with `method`. */
static nq_checkpoint *counted(unsigned n, nq_method method)
{
    nq_checkpoint *cp = NULL;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    assert_int_equal(nq_checkpoint_open(&cp, NULL, n, method), NQ_OK);
    o.method = method;
    o.threads = 2;
    o.checkpoint = cp;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);
    assert_int_equal(r.total, test_known[n].total);
    return cp;
}

/* Every path of every method, at every level here: a true checkpoint is
 * clean, every finished unit checked. */
static void test_clean_checkpoint_every_path_and_level(void **state)
{
    static const nq_method methods[] = { NQ_METHOD_PLAIN, NQ_METHOD_SYMMETRY,
                                         NQ_METHOD_JOIN };
    static const nq_recheck_path paths[] = { NQ_RECHECK_AUTO, NQ_RECHECK_KERNEL,
                                             NQ_RECHECK_WALK, NQ_RECHECK_INDEPENDENT };
    (void)state;
    for (size_t mi = 0; mi < 3; mi++) {
        const nq_method_ops *ops = nq_method_ops_of(methods[mi]);
        nq_checkpoint *cp = counted(10, methods[mi]);
        nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
        assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
        for (size_t pi = 0; pi < 4; pi++) {
            for (size_t li = 0; li < NLEVELS; li++) {
                nq_recheck_options o = NQ_RECHECK_OPTIONS_INIT;
                nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
                seen s;
                int want = NQ_OK, rc;
                memset(&s, 0, sizeof s);
                o.path = paths[pi];
                o.simd = all_levels[li];
                o.on_unit = on_unit;
                o.unit_data = &s;
                if ((paths[pi] == NQ_RECHECK_WALK && !ops->build_other) ||
                    (paths[pi] == NQ_RECHECK_INDEPENDENT && !ops->check))
                    want = NQ_EMETHOD;
                else if (paths[pi] != NQ_RECHECK_INDEPENDENT &&
                         all_levels[li] != NQ_SIMD_NONE &&
                         (nq_simd_best() < all_levels[li] ||
                          (ops->has_simd && !ops->has_simd(all_levels[li]))))
                    /* a level the CPU lacks is refused for every method,
                     * even one without kernels (nq_method_simd()) */
                    want = NQ_EUNSUPPORTED;
                rc = nq_recheck(&r, cp, &o);
                if (want == NQ_EUNSUPPORTED && rc == want) {
                    print_message("%s: level %s not run here\n", ops->name,
                                  nq_simd_name(all_levels[li]));
                    continue;
                }
                assert_int_equal(rc, want);
                if (rc != NQ_OK)
                    continue;
                assert_int_equal(r.checked, info.units_done);
                assert_int_equal(r.units_done, info.units_done);
                assert_int_equal(r.mismatched, 0);
                assert_int_equal(s.bad, 0);
                assert_int_equal(s.count, info.units_done);
                assert_int_equal(r.total, test_known[10].total);
                assert_int_equal(r.recorded_total, test_known[10].total);
                assert_int_equal(r.n, 10);
                assert_int_equal(r.method, methods[mi]);
                assert_true(r.path != NQ_RECHECK_AUTO);
                if (paths[pi] == NQ_RECHECK_AUTO)
                    assert_int_equal(r.path, ops->build_other ? NQ_RECHECK_WALK
                                                              : NQ_RECHECK_KERNEL);
            }
        }
        nq_checkpoint_close(cp);
    }
}

/* A copy of cp with unit `bad`'s total lowered by one. */
static void copy_tampered(nq_checkpoint *to, const nq_checkpoint *from, uint64_t bad)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    assert_int_equal(nq_checkpoint_info_get(&info, from), NQ_OK);
    for (uint64_t u = 0; u < info.units_total; u++) {
        uint64_t t, q;
        if (nq_checkpoint_unit(from, u, &t, &q) != NQ_OK)
            continue;
        if (u == bad) {
            assert_true(t > 0);
            t--;
        }
        assert_int_equal(nq_checkpoint_record(to, u, t, q), NQ_OK);
    }
}

/* The first unit with a nonzero total. */
static uint64_t some_unit(const nq_checkpoint *cp, uint64_t from)
{
    uint64_t t = 0, u = from;
    while (nq_checkpoint_unit(cp, u, &t, NULL) != NQ_OK || t == 0)
        u++;
    return u;
}

static void assert_finds(const nq_checkpoint *cp, uint64_t bad, nq_recheck_path path)
{
    nq_recheck_options o = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
    seen s;
    memset(&s, 0, sizeof s);
    o.path = path;
    o.on_unit = on_unit;
    o.unit_data = &s;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_OK);
    assert_int_equal(r.mismatched, 1);
    assert_int_equal(r.first_mismatch, bad);
    assert_int_equal(s.bad, 1);
    assert_int_equal(s.last_bad.unit, bad);
    assert_int_equal(s.last_bad.recorded_total + 1, s.last_bad.total);
    assert_int_equal(r.recorded_total + 1, r.total);
}

static void test_tampered_record_is_named(void **state)
{
    static const nq_recheck_path paths[] = { NQ_RECHECK_KERNEL, NQ_RECHECK_WALK,
                                             NQ_RECHECK_INDEPENDENT };
    nq_checkpoint *good = counted(11, NQ_METHOD_JOIN), *bad = NULL, *back = NULL;
    const uint64_t unit = some_unit(good, 37);
    char path[] = "recheck_XXXXXX";
    int fd = mkstemp(path);
    (void)state;
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    /* in memory */
    assert_int_equal(nq_checkpoint_open(&bad, NULL, 11, NQ_METHOD_JOIN), NQ_OK);
    copy_tampered(bad, good, unit);
    for (size_t i = 0; i < 3; i++)
        assert_finds(bad, unit, paths[i]);
    nq_checkpoint_close(bad);
    /* in a file, written whole with its checksum, read back as a snapshot */
    assert_int_equal(nq_checkpoint_open(&bad, path, 11, NQ_METHOD_JOIN), NQ_OK);
    copy_tampered(bad, good, unit);
    assert_int_equal(nq_checkpoint_save(bad), NQ_OK);
    /* read while the writer still holds its lock: a snapshot takes none */
    assert_int_equal(nq_checkpoint_load(&back, path), NQ_OK);
    nq_checkpoint_close(bad);
    assert_finds(back, unit, NQ_RECHECK_AUTO);
    nq_checkpoint_close(back);
    unlink(path);
    nq_checkpoint_close(good);
}

/* The units a sample of k with `seed` picks, into s. */
static void sample(seen *s, const nq_checkpoint *cp, uint64_t k, uint64_t seed)
{
    nq_recheck_options o = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
    memset(s, 0, sizeof *s);
    o.path = NQ_RECHECK_KERNEL;
    o.sample = k;
    o.seed = seed;
    o.on_unit = on_unit;
    o.unit_data = s;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_OK);
    assert_int_equal(r.checked, s->count);
    assert_int_equal(r.mismatched, 0);
    for (size_t i = 1; i < s->count; i++)
        assert_true(s->units[i - 1] < s->units[i]); /* increasing, no repeats */
}

static void test_sample_is_seeded(void **state)
{
    nq_checkpoint *cp = counted(12, NQ_METHOD_JOIN);
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    seen a, b, c;
    (void)state;
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_true(info.units_done > 100);
    sample(&a, cp, 10, 42);
    sample(&b, cp, 10, 42);
    sample(&c, cp, 10, 43);
    assert_int_equal(a.count, 10);
    assert_memory_equal(a.units, b.units, sizeof a.units[0] * 10);
    assert_memory_not_equal(a.units, c.units, sizeof a.units[0] * 10);
    /* 0, and more than there are: every finished unit */
    sample(&a, cp, 0, 1);
    assert_int_equal(a.count, info.units_done);
    sample(&a, cp, info.units_done + 1000, 1);
    assert_int_equal(a.count, info.units_done);
    nq_checkpoint_close(cp);
}

/* One unit drawn from 70 by 7000 seeds: each about 100 times. */
static void test_sample_is_uniform(void **state)
{
    nq_checkpoint *cp = counted(8, NQ_METHOD_JOIN);
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    unsigned hits[70] = { 0 };
    (void)state;
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.units_done, 70);
    for (uint64_t seed = 0; seed < 7000; seed++) {
        seen s;
        sample(&s, cp, 1, seed);
        assert_int_equal(s.count, 1);
        hits[s.units[0]]++;
    }
    for (size_t u = 0; u < 70; u++)
        if (hits[u] < 55 || hits[u] > 150)
            fail_msg("unit %zu drawn %u times of 7000 (expected about 100)", u, hits[u]);
    nq_checkpoint_close(cp);
}

/* Only finished units are drawn: a checkpoint of a part of the count. */
static void test_sample_of_unfinished_checkpoint(void **state)
{
    nq_checkpoint *cp = NULL;
    nq_count_options co = NQ_COUNT_OPTIONS_INIT;
    nq_count_result cr = NQ_COUNT_RESULT_INIT;
    seen s;
    (void)state;
    assert_int_equal(nq_checkpoint_open(&cp, NULL, 12, NQ_METHOD_JOIN), NQ_OK);
    co.method = NQ_METHOD_JOIN;
    co.checkpoint = cp;
    co.unit_first = 100;
    co.unit_count = 5;
    assert_int_equal(nq_count(&cr, 12, &co), NQ_OK);
    sample(&s, cp, 1000, 7);
    assert_int_equal(s.count, 5);
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(s.units[i], 100 + i);
    sample(&s, cp, 3, 7);
    assert_int_equal(s.count, 3);
    for (size_t i = 0; i < 3; i++)
        assert_true(s.units[i] >= 100 && s.units[i] < 105);
    nq_checkpoint_close(cp);
}

static void test_empty_checkpoint(void **state)
{
    nq_checkpoint *cp = NULL;
    nq_recheck_options o = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_checkpoint_open(&cp, NULL, 12, NQ_METHOD_JOIN), NQ_OK);
    o.sample = 10;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_OK);
    assert_int_equal(r.checked, 0);
    assert_int_equal(r.units_done, 0);
    assert_int_equal(r.mismatched, 0);
    assert_true(r.units_total > 0);
    nq_checkpoint_close(cp);
}

/* A given list: exactly those units; unfinished, repeated or out of range
 * ones are refused. */
static void test_given_units(void **state)
{
    nq_checkpoint *cp = counted(9, NQ_METHOD_SYMMETRY), *part = NULL;
    nq_recheck_options o = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    uint64_t list[3] = { 5, 1, 3 }, twice[2] = { 2, 2 }, far[1];
    seen s;
    (void)state;
    memset(&s, 0, sizeof s);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    o.units = list;
    o.units_count = 3;
    o.on_unit = on_unit;
    o.unit_data = &s;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_OK);
    assert_int_equal(r.checked, 3);
    assert_int_equal(s.units[0], 1);
    assert_int_equal(s.units[1], 3);
    assert_int_equal(s.units[2], 5);
    o.units = twice;
    o.units_count = 2;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_EINVAL);
    far[0] = info.units_total;
    o.units = far;
    o.units_count = 1;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_EINVAL);
    o.units = NULL;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_EINVAL); /* a count, no list */
    /* unit 5 not finished in a checkpoint holding only unit 1 */
    assert_int_equal(nq_checkpoint_open(&part, NULL, 9, NQ_METHOD_SYMMETRY), NQ_OK);
    {
        uint64_t t, q;
        assert_int_equal(nq_checkpoint_unit(cp, 1, &t, &q), NQ_OK);
        assert_int_equal(nq_checkpoint_record(part, 1, t, q), NQ_OK);
        assert_int_equal(nq_checkpoint_unit(part, 5, &t, &q), NQ_ENOTFOUND);
        assert_int_equal(nq_checkpoint_unit(part, info.units_total, &t, &q), NQ_EINVAL);
    }
    o.units = list;
    o.units_count = 3;
    assert_int_equal(nq_recheck(&r, part, &o), NQ_EINVAL);
    nq_checkpoint_close(part);
    nq_checkpoint_close(cp);
}

static void test_refusals(void **state)
{
    nq_checkpoint *sym = counted(8, NQ_METHOD_SYMMETRY);
    nq_recheck_options o = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
    (void)state;
    memset(&r, 0x5a, sizeof r);
    r.version = NQ_RECHECK_RESULT_VERSION;
    assert_int_equal(nq_recheck(NULL, sym, &o), NQ_EINVAL);
    assert_int_equal(nq_recheck(&r, NULL, &o), NQ_EINVAL);
    o.path = NQ_RECHECK_WALK;
    assert_int_equal(nq_recheck(&r, sym, &o), NQ_EMETHOD);
    o.path = NQ_RECHECK_INDEPENDENT;
    assert_int_equal(nq_recheck(&r, sym, &o), NQ_EMETHOD);
    o.path = (nq_recheck_path)9;
    assert_int_equal(nq_recheck(&r, sym, &o), NQ_EINVAL);
    o.path = NQ_RECHECK_KERNEL;
    o.simd = (nq_simd)9;
    assert_int_equal(nq_recheck(&r, sym, &o), NQ_EINVAL);
    o.simd = NQ_SIMD_NONE;
    o.version = 0;
    assert_int_equal(nq_recheck(&r, sym, &o), NQ_EVERSION);
    o.version = NQ_RECHECK_OPTIONS_VERSION + 1;
    assert_int_equal(nq_recheck(&r, sym, &o), NQ_EVERSION);
    assert_int_equal(r.checked, 0x5a5a5a5a5a5a5a5aull); /* out untouched */
    o.version = NQ_RECHECK_OPTIONS_VERSION;
    /* NULL options: the defaults */
    assert_int_equal(nq_recheck(&r, sym, NULL), NQ_OK);
    assert_int_equal(r.path, NQ_RECHECK_KERNEL);
    assert_int_equal(r.simd, NQ_SIMD_NONE);
    assert_int_equal(r.mismatched, 0);
    /* the init function gives the initialiser's defaults */
    {
        nq_recheck_options a = NQ_RECHECK_OPTIONS_INIT, b;
        memset(&b, 0xff, sizeof b);
        assert_int_equal(nq_recheck_options_init(&b, NQ_RECHECK_OPTIONS_VERSION), NQ_OK);
        assert_int_equal(b.simd, a.simd);
        assert_int_equal(b.path, a.path);
        assert_int_equal(b.sample, 0);
        assert_null(b.units);
        assert_int_equal(nq_recheck_options_init(&b, 0), NQ_EVERSION);
        assert_int_equal(nq_recheck_options_init(NULL, NQ_RECHECK_OPTIONS_VERSION),
                         NQ_EINVAL);
    }
    /* a memory limit that nothing fits */
    {
        nq_checkpoint *join = counted(9, NQ_METHOD_JOIN);
        o.max_memory = 1;
        for (int p = NQ_RECHECK_KERNEL; p <= NQ_RECHECK_WALK; p++) {
            o.path = (nq_recheck_path)p;
            assert_int_equal(nq_recheck(&r, join, &o), NQ_EMEMLIMIT);
        }
        o.path = NQ_RECHECK_INDEPENDENT; /* needs no table or scratch */
        assert_int_equal(nq_recheck(&r, join, &o), NQ_OK);
        assert_int_equal(r.mismatched, 0);
        o.path = NQ_RECHECK_KERNEL;
        assert_int_equal(nq_recheck(&r, sym, &o), NQ_OK); /* nothing to fit */
        o.max_memory = 0;
        nq_checkpoint_close(join);
    }
    assert_string_equal(nq_recheck_path_name(NQ_RECHECK_INDEPENDENT), "independent");
    assert_null(nq_recheck_path_name((nq_recheck_path)7));
    nq_checkpoint_close(sym);
}

/* Files that are not checkpoints of this library are refused by the
 * snapshot reader, and nothing is written. */
static void test_load_refusals(void **state)
{
    nq_checkpoint *cp = NULL;
    char path[] = "recheck_XXXXXX";
    int fd = mkstemp(path);
    FILE *f;
    (void)state;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(nq_checkpoint_load(&cp, path), NQ_EFORMAT); /* empty */
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("NQCKPT\r\nnot really a checkpoint at all, is it now?\n", f);
    fclose(f);
    assert_int_equal(nq_checkpoint_load(&cp, path), NQ_EFORMAT);
    unlink(path);
    assert_int_equal(nq_checkpoint_load(&cp, path), NQ_EIO);
    assert_int_equal(access(path, F_OK), -1); /* not created */
    assert_int_equal(nq_checkpoint_load(&cp, NULL), NQ_EINVAL);
    assert_int_equal(nq_checkpoint_load(NULL, path), NQ_EINVAL);
    assert_null(cp);
}

/* The seeds of the checkpoint fuzzers, read by the snapshot reader: each
 * takes its n and method from its own header, so the files of other
 * counts load too. Keep in step with tests/fuzz/corpus-checkpoint. */
static void test_load_corpus(void **state)
{
    static const struct {
        const char *name;
        int status;
        unsigned n;
        nq_method method;
        uint64_t done;
    } seeds[] = {
        {"flipped", NQ_EFORMAT, 0, NQ_METHOD_DEFAULT, 0},
        {"header_only", NQ_EFORMAT, 0, NQ_METHOD_DEFAULT, 0},
        {"n4_plain_one", NQ_OK, 4, NQ_METHOD_PLAIN, 1},
        {"n6_plain_whole", NQ_OK, 6, NQ_METHOD_PLAIN, 10},
        {"n8_symmetry_part", NQ_OK, 8, NQ_METHOD_SYMMETRY, 8},
        {"n8_symmetry_whole", NQ_OK, 8, NQ_METHOD_SYMMETRY, 46},
        {"truncated", NQ_EFORMAT, 0, NQ_METHOD_DEFAULT, 0},
        {"v2_n4_plain_one", NQ_OK, 4, NQ_METHOD_PLAIN, 1},
        {"v2_n8_symmetry_part", NQ_OK, 8, NQ_METHOD_SYMMETRY, 8},
        {"v2_n8_symmetry_whole", NQ_OK, 8, NQ_METHOD_SYMMETRY, 46},
        {"v2_padded", NQ_EFORMAT, 0, NQ_METHOD_DEFAULT, 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        char path[512];
        nq_checkpoint *cp = NULL;
        nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
        snprintf(path, sizeof path, "%s/corpus-checkpoint/%s", NQ_FUZZ_DIR, seeds[i].name);
        print_message("%s\n", seeds[i].name);
        assert_int_equal(nq_checkpoint_load(&cp, path), seeds[i].status);
        if (seeds[i].status != NQ_OK)
            continue;
        assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
        assert_int_equal(info.n, seeds[i].n);
        assert_int_equal(info.method, seeds[i].method);
        assert_int_equal(info.units_done, seeds[i].done);
        /* and what it holds is true */
        {
            nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
            assert_int_equal(nq_recheck(&r, cp, NULL), NQ_OK);
            assert_int_equal(r.checked, info.units_done);
            assert_int_equal(r.mismatched, 0);
        }
        nq_checkpoint_close(cp);
    }
}

static void test_cancel(void **state)
{
    nq_checkpoint *cp = counted(10, NQ_METHOD_JOIN);
    nq_cancel *flag = NULL;
    nq_recheck_options o = NQ_RECHECK_OPTIONS_INIT;
    nq_recheck_result r = NQ_RECHECK_RESULT_INIT;
    seen s;
    (void)state;
    assert_int_equal(nq_cancel_new(&flag), NQ_OK);
    o.stop = flag;
    o.on_unit = on_unit;
    o.unit_data = &s;
    /* raised before: nothing counted */
    memset(&s, 0, sizeof s);
    nq_cancel_raise(flag);
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_ECANCELED);
    assert_int_equal(s.count, 0);
    assert_int_equal(r.checked, 0); /* untouched */
    /* raised while the re-check runs, for each path */
    for (int p = NQ_RECHECK_KERNEL; p <= NQ_RECHECK_INDEPENDENT; p++) {
        nq_cancel_clear(flag);
        memset(&s, 0, sizeof s);
        s.raise_after_first = flag;
        o.path = (nq_recheck_path)p;
        assert_int_equal(nq_recheck(&r, cp, &o), NQ_ECANCELED);
        assert_int_equal(s.count, 1);
    }
    /* on_unit asks to stop */
    nq_cancel_clear(flag);
    memset(&s, 0, sizeof s);
    s.stop_after = 2;
    o.path = NQ_RECHECK_AUTO;
    assert_int_equal(nq_recheck(&r, cp, &o), NQ_ECANCELED);
    assert_int_equal(s.count, 2);
    nq_cancel_free(flag);
    nq_checkpoint_close(cp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_checkpoint_every_path_and_level),
        cmocka_unit_test(test_tampered_record_is_named),
        cmocka_unit_test(test_sample_is_seeded),
        cmocka_unit_test(test_sample_is_uniform),
        cmocka_unit_test(test_sample_of_unfinished_checkpoint),
        cmocka_unit_test(test_empty_checkpoint),
        cmocka_unit_test(test_given_units),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_load_refusals),
        cmocka_unit_test(test_load_corpus),
        cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
