/*
 * nq_list(): totals, order, validity, canonical listing, limit and stop.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "nqueens.h"

static const uint64_t totals[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
static const uint64_t uniques[] = {1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92};

/* Checks each solution as it arrives: valid, and after the previous one. */
typedef struct collector {
    uint64_t seen;
    uint32_t prev[NQ_MAX_N];
    unsigned n;
    int stop_after; /* return nonzero from the callback at this count; 0 = never */
    uint32_t first[3][NQ_MAX_N]; /* the first three solutions */
} collector;

static int lexicographically_less(const uint32_t *a, const uint32_t *b,
                                  unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        if (a[i] != b[i])
            return a[i] < b[i];
    }
    return 0;
}

static int collect(const uint32_t *cols, unsigned n, void *data)
{
    collector *c = data;
    nq_violation v = NQ_VIOLATION_INIT;

    assert_int_equal(n, c->n);
    assert_non_null(cols);
    assert_int_equal(nq_verify(&v, cols, n), NQ_OK);
    assert_int_equal(v.fault, NQ_VERIFY_OK);
    if (c->seen > 0)
        assert_true(lexicographically_less(c->prev, cols, n));
    if (n > 0)
        memcpy(c->prev, cols, n * sizeof *cols);
    if (c->seen < 3 && n > 0)
        memcpy(c->first[c->seen], cols, n * sizeof *cols);
    c->seen++;
    return c->stop_after != 0 && c->seen >= (uint64_t)c->stop_after;
}

static uint64_t list_count(unsigned n, int canonical, uint64_t limit,
                           collector *c)
{
    nq_list_options opts = NQ_LIST_OPTIONS_INIT;
    uint64_t count = UINT64_MAX;
    opts.canonical = canonical;
    opts.limit = limit;
    c->n = n;
    assert_int_equal(nq_list(&count, n, &opts, collect, c), NQ_OK);
    assert_int_equal(count, c->seen);
    return count;
}

static void test_totals(void **state)
{
    unsigned n;
    (void)state;
    for (n = 0; n <= 10; n++) {
        collector c = {0};
        assert_int_equal(list_count(n, 0, 0, &c), totals[n]);
    }
}

static void test_canonical_counts(void **state)
{
    unsigned n;
    (void)state;
    for (n = 0; n <= 10; n++) {
        collector c = {0};
        assert_int_equal(list_count(n, 1, 0, &c), uniques[n]);
    }
}

/* Brute force over the eight images: canonical means smallest of them. */
static int smallest_of_images(const uint32_t *p, unsigned n)
{
    uint32_t img[NQ_MAX_N];
    unsigned r;
    int sym;
    for (sym = 1; sym < 8; sym++) {
        for (r = 0; r < n; r++) {
            uint32_t row = r, col = p[r];
            if (sym & 1)
                col = n - 1 - col;
            if (sym & 2)
                row = n - 1 - row;
            if (sym & 4) {
                uint32_t t = row;
                row = col;
                col = t;
            }
            img[row] = col;
        }
        if (lexicographically_less(img, p, n))
            return 0;
    }
    return 1;
}

typedef struct canon_check {
    uint64_t canonical_seen;
    uint32_t list[128][NQ_MAX_N];
    uint64_t listed;
} canon_check;

static int gather(const uint32_t *cols, unsigned n, void *data)
{
    canon_check *c = data;
    assert_true(c->listed < 128);
    memcpy(c->list[c->listed++], cols, n * sizeof *cols);
    return 0;
}

static int count_smallest(const uint32_t *cols, unsigned n, void *data)
{
    canon_check *c = data;
    if (smallest_of_images(cols, n)) {
        /* it must be exactly the next canonical one listed */
        assert_true(c->canonical_seen < c->listed);
        assert_memory_equal(c->list[c->canonical_seen], cols,
                            n * sizeof *cols);
        c->canonical_seen++;
    }
    return 0;
}

/* The canonical listing is exactly the full listing filtered by brute force. */
static void test_canonical_matches_brute_force(void **state)
{
    static canon_check c;
    nq_list_options opts = NQ_LIST_OPTIONS_INIT;
    unsigned n;
    (void)state;
    for (n = 1; n <= 10; n++) {
        memset(&c, 0, sizeof c);
        opts.canonical = 1;
        assert_int_equal(nq_list(NULL, n, &opts, gather, &c), NQ_OK);
        opts.canonical = 0;
        assert_int_equal(nq_list(NULL, n, &opts, count_smallest, &c), NQ_OK);
        assert_int_equal(c.canonical_seen, c.listed);
    }
}

static void test_first_solutions_of_eight(void **state)
{
    /* 1-based: 1 5 8 6 3 7 2 4 / 1 6 8 3 7 4 2 5 / 1 7 4 6 8 2 5 3 */
    static const uint32_t expected[3][8] = {
        {0, 4, 7, 5, 2, 6, 1, 3},
        {0, 5, 7, 2, 6, 3, 1, 4},
        {0, 6, 3, 5, 7, 1, 4, 2},
    };
    collector c = {0};
    (void)state;
    assert_int_equal(list_count(8, 0, 0, &c), 92);
    assert_memory_equal(c.first[0], expected[0], sizeof expected[0]);
    assert_memory_equal(c.first[1], expected[1], sizeof expected[1]);
    assert_memory_equal(c.first[2], expected[2], sizeof expected[2]);
}

static void test_limit(void **state)
{
    collector c = {0};
    collector d = {0};
    (void)state;
    assert_int_equal(list_count(8, 0, 5, &c), 5);
    assert_int_equal(list_count(8, 1, 100, &d), 12); /* limit above the total */
}

static void test_callback_stop(void **state)
{
    collector c = {0};
    (void)state;
    c.stop_after = 3;
    assert_int_equal(list_count(10, 0, 0, &c), 3);
}

static void test_cancel(void **state)
{
    nq_list_options opts = NQ_LIST_OPTIONS_INIT;
    collector c = {0};
    uint64_t count = 99;
    (void)state;
    assert_int_equal(nq_cancel_new(&opts.stop), NQ_OK);
    nq_cancel_raise(opts.stop);
    c.n = 8;
    assert_int_equal(nq_list(&count, 8, &opts, collect, &c), NQ_ECANCELED);
    assert_int_equal(count, 0);
    nq_cancel_free(opts.stop);
}

static int collect_nothing(const uint32_t *cols, unsigned n, void *data)
{
    (void)cols;
    (void)n;
    (void)data;
    return 0;
}

static int raise_stop(const uint32_t *cols, unsigned n, void *data)
{
    (void)cols;
    (void)n;
    nq_cancel_raise(data);
    return 0;
}

/* A flag raised during the walk stops it well before the end; cleared,
 * the same flag lets the next listing run. */
static void test_cancel_during_walk(void **state)
{
    nq_list_options opts = NQ_LIST_OPTIONS_INIT;
    nq_cancel *flag = NULL;
    uint64_t count = 0;
    (void)state;
    assert_int_equal(nq_cancel_new(&flag), NQ_OK);
    opts.stop = flag;
    assert_int_equal(nq_list(&count, 14, &opts, raise_stop, flag), NQ_ECANCELED);
    assert_true(count >= 1);
    assert_true(count < 365596); /* Q(14) */
    assert_int_equal(nq_list(&count, 8, &opts, raise_stop, flag), NQ_ECANCELED);
    assert_int_equal(count, 0);
    nq_cancel_clear(flag);
    opts.limit = 3;
    assert_int_equal(nq_list(&count, 8, &opts, collect_nothing, NULL), NQ_OK);
    assert_int_equal(count, 3);
    nq_cancel_free(flag);
}

static void test_errors(void **state)
{
    nq_list_options opts = NQ_LIST_OPTIONS_INIT;
    collector c = {0};
    uint64_t count = 99;
    (void)state;
    assert_int_equal(nq_list(&count, NQ_MAX_N + 1, NULL, collect, &c),
                     NQ_ERANGE);
    assert_int_equal(nq_list(&count, 29, NULL, collect, &c), NQ_ERANGE);
    assert_int_equal(nq_list(&count, 8, NULL, NULL, &c), NQ_EINVAL);
    opts.version = 999;
    assert_int_equal(nq_list(&count, 8, &opts, collect, &c), NQ_EVERSION);
    assert_int_equal(c.seen, 0);
}

/* Every options version from NQ_LIST_OPTIONS_VERSION_MIN to the current
 * one is accepted; the layouts before the first release are refused. */
static void test_options_versions(void **state)
{
    static const struct { unsigned version; int rc; } cases[] = {
        { 0, NQ_EVERSION },
        { 1, NQ_EVERSION },
        { 2, NQ_EVERSION },
        { NQ_LIST_OPTIONS_VERSION_MIN, NQ_OK },
        { NQ_LIST_OPTIONS_VERSION, NQ_OK },
        { NQ_LIST_OPTIONS_VERSION + 1, NQ_EVERSION },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nq_list_options opts = NQ_LIST_OPTIONS_INIT;
        collector c = {0};
        uint64_t count = 0;
        c.n = 6;
        opts.version = cases[i].version;
        assert_int_equal(nq_list(&count, 6, &opts, collect, &c), cases[i].rc);
        assert_int_equal(count, cases[i].rc == NQ_OK ? 4u : 0u);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_totals),
        cmocka_unit_test(test_canonical_counts),
        cmocka_unit_test(test_canonical_matches_brute_force),
        cmocka_unit_test(test_first_solutions_of_eight),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_callback_stop),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_cancel_during_walk),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_options_versions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
