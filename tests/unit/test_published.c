/*
 * test_published.c - a finished count is the published one or an error:
 * nq_count() answers NQ_EPUBLISHED, with the wrong counts in *out, when
 * a count that covers every unit (a checkpoint's records included: here a
 * record lowered or raised, as a miscounting GPU or a damaged file would
 * leave it) differs from nq_known(); a part of M > 1 is not compared. And
 * one checkpoint object serves one count at a time: a second nq_count()
 * on it from another thread gets NQ_EBUSY.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>

#include "nqueens.h"

/* A memory-only checkpoint of the whole count of n by `method`, with the
 * first unit that has solutions changed by `total_delta` (and its unique
 * count by `unique_delta`); with `leave`, the last unit with solutions is
 * left out of it. */
static nq_checkpoint *forged(unsigned n, nq_method method, int64_t total_delta,
                             int64_t unique_delta, int leave)
{
    nq_checkpoint *all = NULL, *cp = NULL;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    uint64_t last = UINT64_MAX;
    int changed = 0;

    assert_int_equal(nq_checkpoint_open(&all, NULL, n, method), NQ_OK);
    o.method = method;
    o.unique = method == NQ_METHOD_SYMMETRY;
    o.checkpoint = all;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);
    assert_int_equal(nq_checkpoint_info_get(&info, all), NQ_OK);
    for (uint64_t u = 0; u < info.units_total; u++) {
        uint64_t t = 0;
        assert_int_equal(nq_checkpoint_unit(all, u, &t, NULL), NQ_OK);
        if (t > 0)
            last = u;
    }
    assert_int_equal(nq_checkpoint_open(&cp, NULL, n, method), NQ_OK);
    for (uint64_t u = 0; u < info.units_total; u++) {
        uint64_t t = 0, q = 0;
        if (leave && u == last)
            continue;
        assert_int_equal(nq_checkpoint_unit(all, u, &t, &q), NQ_OK);
        if (!changed && t > 1 && (unique_delta == 0 || q > 1) &&
            !(leave && u == last)) {
            t = (uint64_t)((int64_t)t + total_delta);
            q = (uint64_t)((int64_t)q + unique_delta);
            changed = 1;
        }
        assert_int_equal(nq_checkpoint_record(cp, u, t, q), NQ_OK);
    }
    assert_true(changed || (total_delta == 0 && unique_delta == 0));
    nq_checkpoint_close(all);
    return cp;
}

/* The options of a count by method m over checkpoint cp. */
static nq_count_options over(nq_checkpoint *cp, nq_method m)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    o.method = m;
    o.checkpoint = cp;
    return o;
}

/* Every unit from a checkpoint with a record one short: NQ_EPUBLISHED,
 * and the wrong total in *out. */
static void test_resumed_total_differs(void **state)
{
    nq_checkpoint *cp = forged(10, NQ_METHOD_JOIN, -1, 0, 0);
    nq_count_options o = over(cp, NQ_METHOD_JOIN);
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_count(&r, 10, &o), NQ_EPUBLISHED);
    assert_int_equal(r.total, 723);
    assert_int_equal(r.units_done, r.units_total);
    /* a part 1/1 is the whole count */
    o.part_k = 1;
    o.part_m = 1;
    r.total = 0;
    assert_int_equal(nq_count(&r, 10, &o), NQ_EPUBLISHED);
    assert_int_equal(r.total, 723);
    /* a part of two is not compared alone */
    o.part_m = 2;
    assert_int_equal(nq_count(&r, 10, &o), NQ_OK);
    nq_checkpoint_close(cp);
    assert_string_not_equal(nq_strerror(NQ_EPUBLISHED), nq_strerror(12345));
}

/* A unit counted now with a checkpoint whose records are lower: the
 * finished count is compared too, not only the records. */
static void test_counted_and_resumed_differs(void **state)
{
    nq_checkpoint *cp = forged(11, NQ_METHOD_PLAIN, -2, 0, 1);
    nq_count_options o = over(cp, NQ_METHOD_PLAIN);
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_count(&r, 11, &o), NQ_EPUBLISHED);
    assert_int_equal(r.total, 2678);
    nq_checkpoint_close(cp);
}

/* The unique count is compared as well, where it is counted. */
static void test_unique_differs(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint *cp = forged(10, NQ_METHOD_SYMMETRY, 0, -1, 0);
    (void)state;
    o.method = NQ_METHOD_SYMMETRY;
    o.unique = 1;
    o.checkpoint = cp;
    assert_int_equal(nq_count(&r, 10, &o), NQ_EPUBLISHED);
    assert_int_equal(r.total, 724);
    assert_int_equal(r.unique, 91);
    assert_true(r.has_unique);
    nq_checkpoint_close(cp);
}

/* Records that pass the published count with the units left: the record
 * of the last one is refused (NQ_EOVERFLOW), never a total above it. */
static void test_records_pass_published(void **state)
{
    nq_checkpoint *cp = forged(10, NQ_METHOD_JOIN, 1, 0, 1);
    nq_count_options o = over(cp, NQ_METHOD_JOIN);
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_count(&r, 10, &o), NQ_EOVERFLOW);
    nq_checkpoint_close(cp);
}

/* ---- one checkpoint, two counts at once --------------------------------- */
typedef struct shared {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int first_in;    /* the first count is inside its first unit's callback */
    int second_done; /* the second count has returned */
    nq_checkpoint *cp;
    int rc1;
    nq_count_result r1;
} shared;

/* The first count's callback: holds the count inside its run until the
 * second count has returned. */
static void hold(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    shared *s = data;
    (void)unit;
    (void)total;
    (void)unique;
    pthread_mutex_lock(&s->lock);
    s->first_in = 1;
    pthread_cond_broadcast(&s->cond);
    while (!s->second_done)
        pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

static void *first_count(void *arg)
{
    shared *s = arg;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    o.method = NQ_METHOD_PLAIN;
    o.threads = 2;
    o.checkpoint = s->cp;
    o.on_unit = hold;
    o.unit_data = s;
    s->rc1 = nq_count(&s->r1, 12, &o);
    return NULL;
}

static void test_checkpoint_busy(void **state)
{
    shared s;
    pthread_t t;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    uint64_t bytes = 0;
    int rc;
    (void)state;
    s.first_in = s.second_done = 0;
    s.rc1 = NQ_EINVAL;
    s.r1 = (nq_count_result)NQ_COUNT_RESULT_INIT;
    assert_int_equal(pthread_mutex_init(&s.lock, NULL), 0);
    assert_int_equal(pthread_cond_init(&s.cond, NULL), 0);
    assert_int_equal(nq_checkpoint_open(&s.cp, NULL, 12, NQ_METHOD_PLAIN), NQ_OK);
    assert_int_equal(pthread_create(&t, NULL, first_count, &s), 0);
    pthread_mutex_lock(&s.lock);
    while (!s.first_in)
        pthread_cond_wait(&s.cond, &s.lock);
    pthread_mutex_unlock(&s.lock);

    /* the first count holds the checkpoint: a second is refused and
     * touches nothing */
    o.method = NQ_METHOD_PLAIN;
    o.checkpoint = s.cp;
    rc = nq_count(&r, 12, &o);
    assert_int_equal(nq_memory(&bytes, 12, &o), NQ_EBUSY);
    pthread_mutex_lock(&s.lock);
    s.second_done = 1;
    pthread_cond_broadcast(&s.cond);
    pthread_mutex_unlock(&s.lock);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(rc, NQ_EBUSY);
    assert_int_equal(s.rc1, NQ_OK);
    assert_int_equal(s.r1.total, 14200);
    assert_int_equal(nq_checkpoint_info_get(&info, s.cp), NQ_OK);
    assert_int_equal(info.units_done, info.units_total);
    assert_int_equal(info.total, 14200);

    /* let go once the first count returned: the next one may take it */
    assert_int_equal(nq_count(&r, 12, &o), NQ_OK);
    assert_int_equal(r.total, 14200);
    nq_checkpoint_close(s.cp);
    pthread_cond_destroy(&s.cond);
    pthread_mutex_destroy(&s.lock);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resumed_total_differs),
        cmocka_unit_test(test_counted_and_resumed_differs),
        cmocka_unit_test(test_unique_differs),
        cmocka_unit_test(test_records_pass_published),
        cmocka_unit_test(test_checkpoint_busy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
