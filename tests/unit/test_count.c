/* nq_count() through the public API: known values, both methods against
 * each other, thread counts, parts and ranges, callbacks, the default
 * method, the memory limit and cancellation (the options and statuses
 * themselves are test_options.c's). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "known_values.h"
#include "test_sizes.h"
#include "nqueens.h"

static nq_count_result count_with(unsigned n, nq_method method, unsigned threads)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    o.method = method;
    o.threads = threads;
    memset(&r, 0xa5, sizeof r);
    r.version = NQ_COUNT_RESULT_VERSION;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);
    return r;
}

static void test_plain_known_totals(void **state)
{
    (void)state;
    for (unsigned n = 0; n <= NQ_TEST_MAX_N; n++) {
        nq_count_result r = count_with(n, NQ_METHOD_PLAIN, 0);
        assert_int_equal(r.total, test_known[n].total);
        assert_int_equal(r.method, NQ_METHOD_PLAIN);
        assert_false(r.has_unique);
    }
}

static void test_symmetry_known_totals_and_unique(void **state)
{
    (void)state;
    for (unsigned n = 0; n <= NQ_TEST_MAX_N; n++) {
        nq_count_result r = count_with(n, NQ_METHOD_SYMMETRY, 0);
        assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
        assert_true(r.has_unique);
        assert_int_equal(r.total, test_known[n].total);
        assert_int_equal(r.unique, test_known[n].unique);
    }
}

static void test_join_known_totals(void **state)
{
    (void)state;
    for (unsigned n = 0; n <= 16; n++) {
        nq_count_result r = count_with(n, NQ_METHOD_JOIN, 0);
        assert_int_equal(r.total, test_known[n].total);
        assert_int_equal(r.method, NQ_METHOD_JOIN);
        assert_false(r.has_unique);
        assert_int_equal(r.unique, 0);
        assert_int_equal(r.units_done, r.units_total);
    }
}

typedef struct unit_totals {
    uint64_t *total; /* per unit */
    uint64_t calls;
} unit_totals;

static void record_unit(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    unit_totals *t = data;
    (void)unique;
    t->total[unit] = total;
    t->calls++;
}

/* Join units solved one by one in a shuffled order, and all at once by
 * many threads: the same total for each unit, and the known sum. */
static void test_join_units_any_order(void **state)
{
    (void)state;
    for (unsigned n = 11; n <= 12; n++) {
        nq_count_options o = NQ_COUNT_OPTIONS_INIT;
        nq_count_result r = NQ_COUNT_RESULT_INIT;
        uint64_t units, sum = 0, seed = n;
        unit_totals t = { NULL, 0 };
        uint64_t *order;
        assert_int_equal(nq_units(&units, n, NQ_METHOD_JOIN), NQ_OK);
        t.total = calloc(units, sizeof *t.total);
        order = malloc(units * sizeof *order);
        assert_non_null(t.total);
        assert_non_null(order);
        for (uint64_t u = 0; u < units; u++)
            order[u] = u;
        for (uint64_t u = units - 1; u > 0; u--) { /* Fisher-Yates */
            uint64_t j, tmp;
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            j = (seed >> 33) % (u + 1);
            tmp = order[u];
            order[u] = order[j];
            order[j] = tmp;
        }
        o.method = NQ_METHOD_JOIN;
        o.threads = 1;
        for (uint64_t i = 0; i < units; i++) {
            o.unit_first = order[i];
            o.unit_count = 1;
            assert_int_equal(nq_count(&r, n, &o), NQ_OK);
            assert_int_equal(r.units_done, 1);
            order[i] = r.total; /* now: the total of unit order[i] */
            sum += r.total;
        }
        assert_int_equal(sum, test_known[n].total);
        o.unit_first = o.unit_count = 0;
        o.threads = 8;
        o.on_unit = record_unit;
        o.unit_data = &t;
        assert_int_equal(nq_count(&r, n, &o), NQ_OK);
        assert_int_equal(r.total, test_known[n].total);
        assert_int_equal(t.calls, units);
        sum = 0;
        for (uint64_t u = 0; u < units; u++)
            sum += t.total[u];
        assert_int_equal(sum, test_known[n].total);
        free(order);
        free(t.total);
    }
}

static void test_methods_agree(void **state)
{
    (void)state;
    for (unsigned n = 0; n <= NQ_TEST_CROSS_N; n++) {
        nq_count_result a = count_with(n, NQ_METHOD_PLAIN, 1);
        nq_count_result b = count_with(n, NQ_METHOD_SYMMETRY, 1);
        assert_int_equal(a.total, b.total);
    }
}

/* Every SIMD level a method has gives the scalar counts. */
static void test_simd_levels_agree(void **state)
{
    static const nq_method methods[] = {NQ_METHOD_SYMMETRY, NQ_METHOD_JOIN};
    (void)state;
    if (nq_simd_best() == NQ_SIMD_NONE)
        skip();
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        unsigned ran = 0;
        for (int s = NQ_SIMD_AVX2; s <= (int)nq_simd_best(); s++)
            for (unsigned n = 0; n <= NQ_TEST_CROSS_N; n++) {
                nq_count_options o = NQ_COUNT_OPTIONS_INIT;
                nq_count_result a = NQ_COUNT_RESULT_INIT, b = NQ_COUNT_RESULT_INIT;
                int rc;
                o.method = methods[m];
                o.simd = NQ_SIMD_NONE;
                assert_int_equal(nq_count(&a, n, &o), NQ_OK);
                o.simd = (nq_simd)s;
                rc = nq_count(&b, n, &o);
                if (rc == NQ_EUNSUPPORTED) /* the method lacks this level */
                    break;
                assert_int_equal(rc, NQ_OK);
                assert_int_equal(a.simd, NQ_SIMD_NONE);
                assert_int_equal(b.simd, s);
                assert_int_equal(a.total, b.total);
                assert_int_equal(a.unique, b.unique);
                ran++;
            }
        assert_true(ran > 0);
    }
}

static void test_thread_counts_agree(void **state)
{
    static const unsigned threads[] = {1, 2, 3, 8};
    (void)state;
    for (unsigned m = 0; m < 2; m++) {
        nq_method method = m ? NQ_METHOD_SYMMETRY : NQ_METHOD_PLAIN;
        for (unsigned n = 10; n <= 13; n++)
            for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
                nq_count_result r = count_with(n, method, threads[t]);
                assert_int_equal(r.total, test_known[n].total);
                if (method == NQ_METHOD_SYMMETRY)
                    assert_int_equal(r.unique, test_known[n].unique);
            }
    }
}

static void test_out_of_range(void **state)
{
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    uint64_t units;
    (void)state;
    for (unsigned n = NQ_MAX_N + 1; n <= 40; n++) {
        assert_int_equal(nq_count(&r, n, NULL), NQ_ERANGE);
        assert_int_equal(nq_units(&units, n, NQ_METHOD_PLAIN), NQ_ERANGE);
        assert_int_equal(nq_units(&units, n, NQ_METHOD_SYMMETRY), NQ_ERANGE);
    }
    assert_int_equal(nq_count(&r, 4000000000u, NULL), NQ_ERANGE);
}

/* The default method: the symmetry method when unique counts are asked
 * for, the join for totals from n = 16; a method without unique counts
 * refuses them with NQ_EMETHOD, whose message names the method as the
 * cause. */
static void test_default_method(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    o.threads = 2;
    /* at n = 18, one unit of each is enough to see which method ran */
    o.unit_count = 1;
    assert_int_equal(nq_count(&r, 18, &o), NQ_OK);
    assert_int_equal(r.method, NQ_METHOD_JOIN);
    assert_false(r.has_unique);
    o.unique = 1;
    assert_int_equal(nq_count(&r, 18, &o), NQ_OK);
    assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
    o.unit_count = 0;
    for (unsigned n = 12; n <= 16; n += 4) {
        o.unique = 0;
        assert_int_equal(nq_count(&r, n, &o), NQ_OK);
        assert_int_equal(r.method, n >= 16 ? NQ_METHOD_JOIN : NQ_METHOD_SYMMETRY);
        assert_int_equal(r.total, test_known[n].total);
        o.unique = 1;
        assert_int_equal(nq_count(&r, n, &o), NQ_OK);
        assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
        assert_true(r.has_unique);
        assert_int_equal(r.unique, test_known[n].unique);
    }
    o.unique = 1;
    o.method = NQ_METHOD_JOIN;
    assert_int_equal(nq_count(&r, 10, &o), NQ_EMETHOD);
    assert_int_equal(nq_memory(&r.total, 10, &o), NQ_EMETHOD);
    o.method = NQ_METHOD_PLAIN;
    assert_int_equal(nq_count(&r, 10, &o), NQ_EMETHOD);
    assert_non_null(strstr(nq_strerror(NQ_EMETHOD), "method"));
    assert_null(strstr(nq_strerror(NQ_EMETHOD), "CPU"));
    assert_null(strstr(nq_strerror(NQ_EUNSUPPORTED), "method"));
}

/* The default for totals, at every SIMD level this CPU runs (it may
 * follow the level; today it is the same at each): the symmetry method up
 * to n = 15, the join from 16, 17 included. And a checkpoint bound by a
 * default count to another method resumes with that method: the unit
 * list never changes under a checkpoint. */
static void test_default_by_level(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint *cp = NULL;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    (void)state;
    o.threads = 1;
    o.unit_count = 1;
    for (int s = NQ_SIMD_NONE; s <= NQ_SIMD_AVX512; s++) {
        if (s > (int)nq_simd_best()) {
            print_message("no %s on this CPU: the default there is not tested\n",
                          nq_simd_name((nq_simd)s));
            continue;
        }
        o.simd = (nq_simd)s;
        for (unsigned n = 15; n <= 17; n++) {
            const nq_method want = n >= 16 ? NQ_METHOD_JOIN : NQ_METHOD_SYMMETRY;
            assert_int_equal(nq_method_default(n, 0, o.simd), want);
            assert_int_equal(nq_method_default(n, 1, o.simd), NQ_METHOD_SYMMETRY);
            assert_int_equal(nq_count(&r, n, &o), NQ_OK);
            assert_int_equal(r.method, want);
        }
    }
    /* bound to the symmetry method by a unique count, resumed by a count
     * of totals at another level: still it */
    o.simd = nq_simd_best();
    assert_int_equal(nq_checkpoint_open(&cp, NULL, 17, NQ_METHOD_DEFAULT), NQ_OK);
    o.checkpoint = cp;
    o.unique = 1;
    assert_int_equal(nq_count(&r, 17, &o), NQ_OK);
    assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
    o.unique = 0;
    o.simd = NQ_SIMD_NONE;
    o.unit_first = 1;
    assert_int_equal(nq_count(&r, 17, &o), NQ_OK);
    assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
    assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
    assert_int_equal(info.method, NQ_METHOD_SYMMETRY);
    assert_int_equal(info.units_done, 2);
    nq_checkpoint_close(cp);
}

/* max_memory: a count that cannot fit is refused before it starts, and
 * says how much it needs; one whose table does not fit walks instead and
 * gets the same count. */
static void test_max_memory(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    uint64_t need = 0, lean = 0, table = 0;
    (void)state;
    o.threads = 2;
    o.method = NQ_METHOD_JOIN;
    o.max_memory = 1024;
    assert_int_equal(nq_memory(&need, 14, &o), NQ_EMEMLIMIT);
    assert_true(need > 1024);
    assert_int_equal(nq_count(&r, 14, &o), NQ_EMEMLIMIT);
    o.max_memory = 0;
    assert_int_equal(nq_memory(&table, 14, &o), NQ_OK);
    /* the leanest way, and a limit just above it: no room for the table */
    o.max_memory = need + 1;
    assert_int_equal(nq_memory(&lean, 14, &o), NQ_OK);
    assert_true(lean <= need + 1);
    assert_true(lean < table);
    assert_int_equal(nq_count(&r, 14, &o), NQ_OK);
    assert_int_equal(r.total, test_known[14].total);
    /* more threads need more */
    o.max_memory = 0;
    o.threads = 1;
    assert_int_equal(nq_memory(&lean, 14, &o), NQ_OK);
    assert_true(lean < table);
    assert_int_equal(nq_memory(NULL, 14, &o), NQ_EINVAL);
    assert_int_equal(nq_memory(&lean, NQ_MAX_N + 1, &o), NQ_ERANGE);
}

static void test_known_table(void **state)
{
    uint64_t t, u;
    (void)state;
    for (unsigned n = 0; n < sizeof test_known / sizeof test_known[0]; n++) {
        assert_int_equal(nq_known(&t, &u, n), NQ_OK);
        assert_int_equal(t, test_known[n].total);
        assert_int_equal(u, test_known[n].unique);
    }
    assert_int_equal(nq_known(&t, NULL, 27), NQ_OK);
    assert_int_equal(t, UINT64_C(234907967154122528));
    assert_int_equal(nq_known(&t, &u, 28), NQ_ENOTFOUND);
}

/* Parts 1..m and unit ranges partition the list: their sums are the whole. */
static void test_parts_add_up(void **state)
{
    (void)state;
    for (unsigned m = 1; m <= 5; m++)
        for (int meth = 1; meth <= 2; meth++) {
            nq_count_options o = NQ_COUNT_OPTIONS_INIT;
            uint64_t total = 0, unique = 0, units = 0, all_units;
            o.method = (nq_method)meth;
            assert_int_equal(nq_units(&all_units, 12, o.method), NQ_OK);
            for (unsigned k = 1; k <= m; k++) {
                nq_count_result r = NQ_COUNT_RESULT_INIT;
                o.part_k = k;
                o.part_m = m;
                assert_int_equal(nq_count(&r, 12, &o), NQ_OK);
                assert_int_equal(r.units_total, all_units);
                total += r.total;
                unique += r.unique;
                units += r.units_done;
            }
            assert_int_equal(total, test_known[12].total);
            if (meth == NQ_METHOD_SYMMETRY)
                assert_int_equal(unique, test_known[12].unique);
            assert_int_equal(units, all_units);
        }
}

static void test_unit_ranges_add_up(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    uint64_t units, total = 0;
    (void)state;
    assert_int_equal(nq_units(&units, 11, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_true(units > 0);
    for (uint64_t first = 0; first < units; first += 7) {
        nq_count_result r = NQ_COUNT_RESULT_INIT;
        o.unit_first = first;
        o.unit_count = 7;
        assert_int_equal(nq_count(&r, 11, &o), NQ_OK);
        total += r.total;
    }
    assert_int_equal(total, test_known[11].total);
}

/* A split into more parts than units, or a range that starts past the
 * end of the list, is refused rather than counted as zero; the largest
 * split and a range that starts at the end are not. */
static void test_splits_beyond_the_list(void **state)
{
    static const nq_method methods[] = {NQ_METHOD_PLAIN, NQ_METHOD_SYMMETRY,
                                        NQ_METHOD_JOIN};
    (void)state;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        nq_count_options o = NQ_COUNT_OPTIONS_INIT;
        nq_count_result r = NQ_COUNT_RESULT_INIT;
        uint64_t units, total = 0;
        assert_int_equal(nq_units(&units, 9, methods[i]), NQ_OK);
        assert_true(units > 1 && units < UINT32_MAX);
        o.method = methods[i];
        o.part_m = (uint32_t)units + 1;
        o.part_k = 1;
        assert_int_equal(nq_count(&r, 9, &o), NQ_EINVAL);
        o.part_k = (uint32_t)units + 1; /* the part no unit falls in */
        assert_int_equal(nq_count(&r, 9, &o), NQ_EINVAL);
        o.part_m = (uint32_t)units;
        for (uint32_t k = 1; k <= units; k++) {
            o.part_k = k;
            assert_int_equal(nq_count(&r, 9, &o), NQ_OK);
            assert_int_equal(r.units_done, 1);
            total += r.total;
        }
        assert_int_equal(total, test_known[9].total);
        o.part_k = o.part_m = 0;
        o.unit_first = units + 1;
        assert_int_equal(nq_count(&r, 9, &o), NQ_EINVAL);
        o.unit_first = UINT64_MAX;
        o.unit_count = 2; /* first + count wraps */
        assert_int_equal(nq_count(&r, 9, &o), NQ_EINVAL);
        o.unit_first = units;
        o.unit_count = 0;
        assert_int_equal(nq_count(&r, 9, &o), NQ_OK);
        assert_int_equal(r.total, 0);
        assert_int_equal(r.units_done, 0);
    }
}

static void test_part_of_unit(void **state)
{
    (void)state;
    assert_int_equal(nq_part_of_unit(0, 3), 1);
    assert_int_equal(nq_part_of_unit(1, 3), 2);
    assert_int_equal(nq_part_of_unit(5, 3), 3);
    assert_int_equal(nq_part_of_unit(6, 3), 1);
    assert_int_equal(nq_part_of_unit(6, 0), 0);
}

typedef struct unit_sum {
    uint64_t calls, total, unique;
    uint64_t seen[4096];
} unit_sum;

static void on_unit(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    unit_sum *s = data;
    s->calls++;
    s->total += total;
    s->unique += unique;
    if (unit < 4096)
        s->seen[unit]++;
}

static void test_on_unit_callback(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    static unit_sum s;
    (void)state;
    memset(&s, 0, sizeof s);
    o.on_unit = on_unit;
    o.unit_data = &s;
    o.threads = 2;
    assert_int_equal(nq_count(&r, 12, &o), NQ_OK);
    assert_int_equal(s.calls, r.units_total);
    assert_int_equal(s.total, r.total);
    assert_int_equal(s.unique, r.unique);
    for (uint64_t u = 0; u < r.units_total && u < 4096; u++)
        assert_int_equal(s.seen[u], 1);
}

typedef struct progress_log {
    unsigned calls;
    uint64_t last_done, last_total;
    int went_back;
} progress_log;

static void on_progress(const nq_progress *p, void *data)
{
    progress_log *log = data;
    if (p->units_done < log->last_done || p->units_done > p->units_total)
        log->went_back = 1;
    log->calls++;
    log->last_done = p->units_done;
    log->last_total = p->units_total;
}

static void test_progress_callback(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    progress_log log = {0, 0, 0, 0};
    (void)state;
    o.progress = on_progress;
    o.progress_data = &log;
    assert_int_equal(nq_count(&r, 13, &o), NQ_OK);
    assert_true(log.calls >= 1);
    assert_false(log.went_back);
    /* the last report is the finished run */
    assert_int_equal(log.last_done, log.last_total);
    assert_int_equal(log.last_total, r.units_done);
}

/* ------------------------------------------------------------------------
 * Cancellation: a count that would take hours stops soon after the flag.
 * ------------------------------------------------------------------------ */
typedef struct cancel_job {
    nq_cancel *stop;
    nq_method method;
    int rc;
    nq_count_result r;
} cancel_job;

static void *count_in_background(void *arg)
{
    cancel_job *job = arg;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    o.method = job->method;
    o.stop = job->stop;
    /* counts of hours or more; the join's smaller n keeps its table, and
     * the walk that sizes it before the count starts, small */
    job->rc = nq_count(&job->r, job->method == NQ_METHOD_JOIN ? 20 : 24, &o);
    return NULL;
}

static void test_cancel_stops_promptly(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        cancel_job job;
        pthread_t t;
        struct timespec pause = {0, 200 * 1000000L};
        memset(&job, 0, sizeof job);
        job.r.version = NQ_COUNT_RESULT_VERSION;
        job.method = (nq_method)(NQ_METHOD_PLAIN + k);
        assert_int_equal(nq_cancel_new(&job.stop), NQ_OK);
        assert_int_equal(pthread_create(&t, NULL, count_in_background, &job), 0);
        nanosleep(&pause, NULL);
        nq_cancel_raise(job.stop);
        assert_int_equal(pthread_join(t, NULL), 0);
        /* these counts take hours: returning at all proves the stop */
        assert_int_equal(job.rc, NQ_ECANCELED);
        nq_cancel_free(job.stop);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_known_totals),
        cmocka_unit_test(test_symmetry_known_totals_and_unique),
        cmocka_unit_test(test_join_known_totals),
        cmocka_unit_test(test_join_units_any_order),
        cmocka_unit_test(test_methods_agree),
        cmocka_unit_test(test_simd_levels_agree),
        cmocka_unit_test(test_thread_counts_agree),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_default_method),
        cmocka_unit_test(test_default_by_level),
        cmocka_unit_test(test_max_memory),
        cmocka_unit_test(test_known_table),
        cmocka_unit_test(test_parts_add_up),
        cmocka_unit_test(test_unit_ranges_add_up),
        cmocka_unit_test(test_splits_beyond_the_list),
        cmocka_unit_test(test_part_of_unit),
        cmocka_unit_test(test_on_unit_callback),
        cmocka_unit_test(test_progress_callback),
        cmocka_unit_test(test_cancel_stops_promptly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
