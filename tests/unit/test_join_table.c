/*
 * test_join_table.c - the join method's quarter-board table: its size and
 * limit, a count's memory fit, the table built whole, part by part and by
 * threads sharing the parts against a naive one, and a plan's table built
 * by the units that first need it, stops included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "methods/join/join_plan.h"
#include "methods/join/join_quarter.h"
#include "known_values.h"
#include "test_join.h"
#include "test_sizes.h"

/* A table larger than allowed is refused, not built. */
static void test_table_limit(void **state)
{
    nq_join_quarter q;
    (void)state;
    assert_int_equal(nq_join_quarter_build(&q, 6, 6, 1000, NULL), NQ_ENOMEM);
    assert_null(q.entry);
    /* the index fits, the entries do not: refused after the count */
    assert_int_equal(nq_join_quarter_build(&q, 6, 6, ((1u << 12) + 1) * 4 + 1000, NULL),
                     NQ_ENOMEM);
    assert_null(q.start);
    assert_null(q.entry);
    assert_int_equal(nq_join_quarter_build(&q, 6, 6, (uint64_t)1 << 30, NULL), NQ_OK);
    assert_int_equal(q.count, 2635); /* placements on a 6 x 6 board */
    nq_join_quarter_free(&q);
}

/* A count's memory fit, over board sizes, threads and limits: what it
 * says a count takes never passes the limit, and a refusal says more than
 * the limit; without the table a larger limit never gets smaller slots
 * or batches (what a thread takes only grows); n = 26 and 28 never build
 * the table, and 64 MiB is too tight for 64 threads at n = 26 (its unit
 * order alone takes 40 MiB). */
static void test_fit_memory(void **state)
{
    /* (limits that a table nearly fits take seconds to rule it out: the
     * size is counted up to the limit) */
    static const unsigned sizes[] = { 20, 26, 28 }, threads[] = { 1, 2, 64 };
    static const uint64_t mib[] = { 16, 64, 256, 1024 };
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof threads / sizeof *threads; j++) {
            uint64_t last = 0;
            for (size_t k = 0; k < sizeof mib / sizeof *mib; k++) {
                const uint64_t limit = mib[k] << 20;
                nq_join_plan *plan = build(sizes[i], 0);
                uint64_t need = 0;
                int rc = nq_join_plan_fit_memory(plan, threads[j], limit, &need);
                if (rc == NQ_OK) {
                    assert_true(need <= limit);
                    if (nq_join_plan_walks(plan)) {
                        assert_true(need >= last);
                        last = need;
                    }
                } else {
                    assert_int_equal(rc, NQ_EMEMLIMIT);
                    assert_true(need > limit);
                }
                if (sizes[i] >= 26)
                    assert_true(rc != NQ_OK || nq_join_plan_walks(plan));
                if (sizes[i] == 26 && threads[j] == 64 && mib[k] == 64)
                    assert_int_equal(rc, NQ_EMEMLIMIT);
                nq_join_plan_free(plan);
            }
        }
    /* from n = 26 the batch comes before the slots: 64 threads in 4, 8
     * and 16 GiB (a node's share) get the largest batch that fits, and
     * the largest slots beside it */
    static const struct {
        unsigned n, gib;
        size_t batch, pieces;
    } node[] = { { 26, 4, 1u << 21, 1u << 18 },  { 26, 8, 1u << 22, 1u << 19 },
                 { 26, 16, 1u << 22, 1u << 22 }, { 28, 4, 1u << 21, 1u << 18 },
                 { 28, 8, 1u << 22, 1u << 19 },  { 28, 16, 1u << 22, 1u << 22 } };
    for (size_t i = 0; i < sizeof node / sizeof *node; i++) {
        nq_join_plan *plan = build(node[i].n, 0);
        uint64_t need = 0;
        assert_int_equal(nq_join_plan_fit_memory(plan, 64, (uint64_t)node[i].gib << 30, &need),
                         NQ_OK);
        assert_true(nq_join_plan_walks(plan));
        assert_int_equal(nq_join_plan_batch(plan), node[i].batch);
        assert_int_equal(nq_join_plan_rowset_pieces(plan), node[i].pieces);
        nq_join_plan_free(plan);
    }
}

/* The size of a table, worked out without building it, is the size that
 * the build takes; a cap below it gives UINT64_MAX. A raised stop flag
 * stops a build. */
static void test_table_bytes(void **state)
{
    nq_join_quarter q;
    nq_stop_flag stop = 1;
    (void)state;
    /* every shape the count takes (rows = n - h, cols = h) and its
     * neighbours, from one row, where the last-row shortcut is all */
    for (unsigned shape = 0; shape < 27; shape++) {
        unsigned rows = 1 + shape / 3, cols = rows + shape % 3 - (rows > 1);
        uint64_t bytes = nq_join_quarter_bytes(rows, cols, UINT64_MAX);
        assert_int_equal(nq_join_quarter_build(&q, rows, cols, UINT64_MAX, NULL), NQ_OK);
        assert_int_equal(bytes, (((uint64_t)1 << (rows + cols)) + 1) * sizeof(uint32_t) +
                                    q.count * sizeof(uint64_t));
        assert_int_equal(nq_join_quarter_bytes(rows, cols, bytes), bytes);
        assert_int_equal(nq_join_quarter_bytes(rows, cols, bytes - 1), UINT64_MAX);
        nq_join_quarter_free(&q);
    }
    assert_int_equal(nq_join_quarter_bytes(6, 6, 100), UINT64_MAX);
    assert_int_equal(nq_join_quarter_build(&q, 9, 9, UINT64_MAX, &stop), NQ_ECANCELED);
    assert_null(q.entry);
}

/* The table by another way: every placement on a rows x cols board, found
 * row by row (the row left empty first, then a queen on each free column
 * from the lowest), filed into its cell in the order found. */
typedef struct naive_table {
    unsigned rows, cols;
    uint32_t *count;  /* entries of each cell */
    uint64_t *entry;  /* in order found, each with its cell in `cell` */
    uint32_t *cell;
    size_t n, cap;
} naive_table;

static void naive_place(naive_table *t, unsigned r, uint32_t rows, uint32_t cols,
                        uint32_t d1, uint32_t d2)
{
    if (r == t->rows) {
        const uint32_t i = rows << t->cols | cols;
        assert_true(t->n < t->cap);
        t->entry[t->n] = (uint64_t)d2 << 32 | d1;
        t->cell[t->n++] = i;
        t->count[i]++;
        return;
    }
    naive_place(t, r + 1, rows, cols, d1, d2);
    for (unsigned c = 0; c < t->cols; c++) {
        const uint32_t a = 1u << (c + r), b = 1u << (c + t->rows - 1 - r);
        if (!(cols >> c & 1u) && !(d1 & a) && !(d2 & b))
            naive_place(t, r + 1, rows | 1u << r, cols | 1u << c, d1 | a, d2 | b);
    }
}

/* Checks q against the naive table: every cell's entries, in order. */
static void expect_table(const nq_join_quarter *q, const naive_table *t)
{
    const size_t cells = (size_t)1 << (t->rows + t->cols);
    uint32_t *at = calloc(cells, sizeof *at);
    assert_non_null(at);
    assert_int_equal(q->count, t->n);
    assert_int_equal(q->start[0], 0);
    for (size_t i = 0; i < cells; i++)
        assert_int_equal(q->start[i + 1] - q->start[i], t->count[i]);
    for (size_t k = 0; k < t->n; k++) {
        const uint32_t i = t->cell[k];
        assert_int_equal(q->entry[q->start[i] + at[i]++], t->entry[k]);
    }
    free(at);
}

typedef struct part_job {
    nq_join_quarter *q;
    atomic_uint next;
    int fill;
} part_job;

static void *file_parts(void *arg)
{
    part_job *job = arg;
    unsigned part;
    while ((part = atomic_fetch_add(&job->next, 1u)) < nq_join_quarter_parts(job->q))
        if ((job->fill ? nq_join_quarter_fill_part(job->q, part, NULL)
                       : nq_join_quarter_count_part(job->q, part, NULL)) != NQ_OK)
            return job;
    return NULL;
}

/* The table is the same, entry for entry and in the same order within
 * each cell, built whole, built part by part in reverse order, and built
 * by three threads sharing the parts; and it is the naive table. */
static void test_table_parts(void **state)
{
    static const unsigned shapes[][2] = { {1, 1}, {2, 3}, {4, 4}, {5, 5}, {6, 5}, {7, 7}, {8, 8} };
    (void)state;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        const unsigned rows = shapes[s][0], cols = shapes[s][1];
        naive_table t = { rows, cols, NULL, NULL, NULL, 0, 1u << 22 };
        nq_join_quarter whole, reversed, shared;
        unsigned parts;
        t.count = calloc((size_t)1 << (rows + cols), sizeof *t.count);
        t.entry = malloc(t.cap * sizeof *t.entry);
        t.cell = malloc(t.cap * sizeof *t.cell);
        assert_true(t.count && t.entry && t.cell);
        naive_place(&t, 0, 0, 0, 0, 0);

        assert_int_equal(nq_join_quarter_build(&whole, rows, cols, UINT64_MAX, NULL), NQ_OK);
        expect_table(&whole, &t);

        assert_int_equal(nq_join_quarter_begin(&reversed, rows, cols, UINT64_MAX), NQ_OK);
        parts = nq_join_quarter_parts(&reversed);
        assert_true(parts > 1u && parts <= 32u);
        for (unsigned p = parts; p-- > 0;)
            assert_int_equal(nq_join_quarter_count_part(&reversed, p, NULL), NQ_OK);
        assert_int_equal(nq_join_quarter_index(&reversed, UINT64_MAX), NQ_OK);
        for (unsigned p = parts; p-- > 0;)
            assert_int_equal(nq_join_quarter_fill_part(&reversed, p, NULL), NQ_OK);
        nq_join_quarter_end(&reversed);
        expect_table(&reversed, &t);

        assert_int_equal(nq_join_quarter_begin(&shared, rows, cols, UINT64_MAX), NQ_OK);
        for (int fill = 0; fill < 2; fill++) {
            part_job job = { &shared, 0, fill };
            pthread_t th[3];
            void *failed;
            if (fill)
                assert_int_equal(nq_join_quarter_index(&shared, UINT64_MAX), NQ_OK);
            for (int k = 0; k < 3; k++)
                assert_int_equal(pthread_create(&th[k], NULL, file_parts, &job), 0);
            for (int k = 0; k < 3; k++) {
                assert_int_equal(pthread_join(th[k], &failed), 0);
                assert_null(failed);
            }
        }
        nq_join_quarter_end(&shared);
        expect_table(&shared, &t);
        assert_int_equal(shared.largest, whole.largest);
        assert_int_equal(shared.largest_rows, whole.largest_rows);

        nq_join_quarter_free(&whole);
        nq_join_quarter_free(&reversed);
        nq_join_quarter_free(&shared);
        free(t.count);
        free(t.entry);
        free(t.cell);
    }
}

/* Counts units of a plan, taking them in turn with other threads. */
typedef struct unit_job {
    const nq_join_plan *plan;
    atomic_uint_fast64_t next;
    uint64_t *totals;
    nq_simd simd;
    int rc;
} unit_job;

static void *count_units(void *arg)
{
    unit_job *job = arg;
    nq_stop_flag stop = 0;
    uint64_t u;
    while ((u = atomic_fetch_add(&job->next, 1u)) < nq_join_plan_size(job->plan)) {
        nq_unit_result r;
        const int rc = nq_join_solve_unit(job->plan, u, job->simd, &stop, &r);
        if (rc != NQ_OK) {
            job->rc = rc;
            break;
        }
        job->totals[u] = r.total;
    }
    return NULL;
}

typedef struct late_stop {
    nq_stop_flag flag;
    long after_ns;
} late_stop;

static void *raise_late(void *arg)
{
    late_stop *s = arg;
    struct timespec pause = { 0, s->after_ns };
    nanosleep(&pause, NULL);
    atomic_store(&s->flag, 1);
    return NULL;
}

/* A stop raised at moments spread over the first 1.4 ms of a plan's first
 * unit, most of it the table's build at n = 16 in the optimised build:
 * the unit returns its count or NQ_ECANCELED, and the plan's next unit
 * (with no stop) counts what the walk counts. */
static void stop_during_build(void)
{
    const unsigned n = NQ_TEST_CROSS_N + 2u;
    nq_join_plan *walk = build(n, 1);
    const uint64_t want = solve(walk, 0, NQ_SIMD_NONE);
    for (long k = 0; k < 24; k++) {
        nq_join_plan *plan = build(n, 0);
        late_stop s = { 0, k * k * 2500 };
        nq_unit_result r = { 7, 7 };
        pthread_t th;
        int rc;
        assert_int_equal(pthread_create(&th, NULL, raise_late, &s), 0);
        rc = nq_join_solve_unit(plan, 0, NQ_SIMD_NONE, &s.flag, &r);
        assert_int_equal(pthread_join(th, NULL), 0);
        assert_true(rc == NQ_ECANCELED || (rc == NQ_OK && r.total == want));
        assert_int_equal(solve(plan, 0, NQ_SIMD_NONE), want);
        nq_join_plan_free(plan);
    }
    nq_join_plan_free(walk);
}

/* Units of a new plan counted by several threads at once share the
 * table's build: each unit's count is the walk's, and the totals are
 * known. A unit stopped while the table is built returns NQ_ECANCELED,
 * and the plan's next units build it again. */
static void test_table_shared_build(void **state)
{
    static const unsigned sizes[] = { 8, 11, NQ_TEST_CROSS_N };
    nq_simd lv[3];
    const unsigned nlevels = levels(lv);
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const unsigned n = sizes[i];
        nq_join_plan *walk = build(n, 1);
        const uint64_t units = nq_join_plan_size(walk);
        for (unsigned l = 0; l < nlevels; l++) {
            nq_join_plan *plan = build(n, 0);
            unit_job job = { plan, 0, calloc(units, sizeof(uint64_t)), lv[l], NQ_OK };
            nq_stop_flag raised = 1;
            nq_unit_result r = { 7, 7 };
            pthread_t th[4];
            uint64_t sum = 0;
            assert_non_null(job.totals);
            assert_false(nq_join_plan_walks(plan));
            /* a stop while the table is built, before any thread counts */
            assert_int_equal(nq_join_solve_unit(plan, 0, lv[l], &raised, &r), NQ_ECANCELED);
            for (int k = 0; k < 4; k++)
                assert_int_equal(pthread_create(&th[k], NULL, count_units, &job), 0);
            for (int k = 0; k < 4; k++)
                assert_int_equal(pthread_join(th[k], NULL), 0);
            assert_int_equal(job.rc, NQ_OK);
            assert_false(nq_join_plan_walks(plan));
            for (uint64_t u = 0; u < units; u++) {
                assert_int_equal(job.totals[u], solve(walk, u, NQ_SIMD_NONE));
                sum += job.totals[u];
            }
            assert_int_equal(sum, test_known[n].total);
            free(job.totals);
            nq_join_plan_free(plan);
        }
        nq_join_plan_free(walk);
    }
    stop_during_build();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_limit),
        cmocka_unit_test(test_fit_memory),
        cmocka_unit_test(test_table_bytes),
        cmocka_unit_test(test_table_parts),
        cmocka_unit_test(test_table_shared_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
