/*
 * test_method_contract.c - the contract of src/method.h, checked for every
 * row of the method table: a method added to the table gets these checks
 * without a line here.
 *
 * The rows are found as the command finds them, counting up from the
 * first nq_method value until nq_method_ops_of() answers NULL. For each
 * row, at every SIMD level that the row has and this CPU runs (a level
 * left out is named, with the reason):
 *   - the unit list of n = 0..NQ_TEST_CROSS_N is not empty and the same
 *     for the same n (two plans give every unit the same result), and its
 *     units, each counted alone, add up to the
 *     published totals (and unique counts, where the row counts them;
 *     else its units' unique counts are 0);
 *   - every unit gives the scalar level's result at every other level;
 *   - a raised stop flag ends a unit with NQ_ECANCELED, the result
 *     untouched; and a count can be stopped before it starts;
 *   - bad arguments are refused with the codes the contract names, and
 *     the public count honours has_unique (NQ_EMETHOD without it);
 *   - a cost model, where the row has one, models a board or says
 *     NQ_EUNSUPPORTED, gives an interval around its point, and stops on a
 *     raised flag;
 *   - the other build, where the row has one (build_other), lists the same
 *     units, and each gives the counts of build()'s unit at every level;
 *   - the independent check, where the row has one (check), gives every
 *     unit's counts of the small boards, stops on a raised flag and
 *     refuses a unit out of range.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdatomic.h>

#include "platform/cpu.h"
#include "known_values.h"
#include "methods/methods.h"
#include "test_sizes.h"

static const nq_simd all_levels[] = { NQ_SIMD_NONE, NQ_SIMD_AVX2, NQ_SIMD_AVX512 };
#define NLEVELS (sizeof all_levels / sizeof all_levels[0])

/* The rows of the method table, in nq_method order. */
static size_t rows(const nq_method_ops *out[8])
{
    size_t k = 0;
    for (int m = NQ_METHOD_DEFAULT + 1; k < 8; m++) {
        const nq_method_ops *ops = nq_method_ops_of((nq_method)m);
        if (!ops)
            break;
        out[k++] = ops;
    }
    return k;
}

/* The levels at which a row runs here, scalar first; prints each level
 * left out and why (once per row, when `say`). */
static size_t levels(const nq_method_ops *ops, nq_simd out[NLEVELS], int say)
{
    size_t k = 0;
    for (size_t i = 0; i < NLEVELS; i++) {
        const nq_simd l = all_levels[i];
        if (l != NQ_SIMD_NONE && (!ops->has_simd || !ops->has_simd(l))) {
            if (say)
                print_message("%s: no kernel of level %s in this build\n",
                              ops->name, nq_simd_name(l));
        } else if (!nq_cpu_runs(nq_cpu_simd_best(), l)) {
            if (say)
                print_message("%s: level %s not run, this CPU or OS lacks it\n",
                              ops->name, nq_simd_name(l));
        } else {
            out[k++] = l;
        }
    }
    return k;
}

static void *build(const nq_method_ops *ops, unsigned n)
{
    void *plan = NULL;
    assert_int_equal(ops->build(&plan, n), NQ_OK);
    assert_non_null(plan);
    return plan;
}

static nq_unit_result solve(const nq_method_ops *ops, const void *plan,
                            uint64_t unit, nq_simd simd)
{
    atomic_int stop;
    nq_unit_result r = { 0, 0 };
    atomic_init(&stop, 0);
    assert_int_equal(ops->solve(plan, unit, simd, &stop, &r), NQ_OK);
    return r;
}

/* Each row names itself as the public helpers do. */
static void test_rows_are_whole(void **state)
{
    const nq_method_ops *ops[8];
    const size_t nrows = rows(ops);
    (void)state;
    assert_true(nrows >= 1);
    for (size_t i = 0; i < nrows; i++) {
        assert_int_not_equal(ops[i]->id, NQ_METHOD_DEFAULT);
        assert_non_null(ops[i]->name);
        assert_string_equal(nq_method_name(ops[i]->id), ops[i]->name);
        assert_int_equal(nq_unit_list_version(ops[i]->id), ops[i]->list_version);
        assert_true(ops[i]->list_version > 0);
        assert_non_null(ops[i]->build);
        assert_non_null(ops[i]->size);
        assert_non_null(ops[i]->solve);
        assert_non_null(ops[i]->destroy);
        assert_true(ops[i]->has_simd == NULL || ops[i]->has_simd(NQ_SIMD_NONE));
        assert_true(ops[i]->has_simd == NULL || !ops[i]->has_simd(NQ_SIMD_AUTO));
    }
}

/* Every unit counted alone, at every level: the sums are the published
 * counts, and each unit gives the scalar result at every level. */
static void test_units_add_up_at_every_level(void **state)
{
    const nq_method_ops *ops[8];
    const size_t nrows = rows(ops);
    (void)state;
    for (size_t i = 0; i < nrows; i++) {
        nq_simd lv[NLEVELS];
        const size_t nl = levels(ops[i], lv, 1);
        for (unsigned n = 0; n <= NQ_TEST_CROSS_N; n++) {
            void *plan = build(ops[i], n), *again = build(ops[i], n);
            const uint64_t size = ops[i]->size(plan);
            uint64_t total = 0, unique = 0, units = 0;
            assert_true(size > 0);
            assert_int_equal(ops[i]->size(again), size);
            assert_int_equal(nq_units(&units, n, ops[i]->id), NQ_OK);
            assert_int_equal(units, size);
            for (uint64_t u = 0; u < size; u++) {
                const nq_unit_result r = solve(ops[i], plan, u, NQ_SIMD_NONE);
                const nq_unit_result a = solve(ops[i], again, u, NQ_SIMD_NONE);
                assert_int_equal(a.total, r.total);
                assert_int_equal(a.unique, r.unique);
                for (size_t l = 1; l < nl; l++) {
                    const nq_unit_result w = solve(ops[i], plan, u, lv[l]);
                    assert_int_equal(w.total, r.total);
                    assert_int_equal(w.unique, r.unique);
                }
                total += r.total;
                unique += r.unique;
            }
            assert_int_equal(total, test_known[n].total);
            assert_int_equal(unique, ops[i]->has_unique ? test_known[n].unique : 0u);
            ops[i]->destroy(again);
            ops[i]->destroy(plan);
        }
    }
}

/* A raised flag ends a unit at once, at every level, and leaves the
 * result as it was; on a board of one unit and on a larger one. */
static void test_stop_flag(void **state)
{
    static const unsigned sizes[] = { 4, 12 };
    const nq_method_ops *ops[8];
    const size_t nrows = rows(ops);
    (void)state;
    for (size_t i = 0; i < nrows; i++) {
        nq_simd lv[NLEVELS];
        const size_t nl = levels(ops[i], lv, 0);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            void *plan = build(ops[i], sizes[s]);
            const uint64_t last = ops[i]->size(plan) - 1;
            atomic_int stop;
            atomic_init(&stop, 1);
            if (ops[i]->prepare) {
                const int rc = ops[i]->prepare(plan, &stop);
                assert_true(rc == NQ_OK || rc == NQ_ECANCELED);
            }
            for (size_t l = 0; l < nl; l++) {
                nq_unit_result r = { 12345, 678 };
                assert_int_equal(ops[i]->solve(plan, last, lv[l], &stop, &r),
                                 NQ_ECANCELED);
                assert_int_equal(r.total, 12345);
                assert_int_equal(r.unique, 678);
            }
            ops[i]->destroy(plan);
        }
    }
}

/* What the contract refuses, and how; what the public count does with
 * has_unique. */
static void test_refusals(void **state)
{
    const nq_method_ops *ops[8];
    const size_t nrows = rows(ops);
    (void)state;
    for (size_t i = 0; i < nrows; i++) {
        void *plan = NULL;
        nq_unit_result r = { 1, 2 };
        nq_count_options o = NQ_COUNT_OPTIONS_INIT;
        nq_count_result cr = NQ_COUNT_RESULT_INIT;
        assert_int_equal(ops[i]->build(NULL, 8), NQ_EINVAL);
        assert_int_equal(ops[i]->build(&plan, NQ_MAX_N + 1), NQ_ERANGE);
        plan = build(ops[i], 8);
        assert_int_equal(ops[i]->solve(plan, ops[i]->size(plan), NQ_SIMD_NONE,
                                       NULL, &r), NQ_EINVAL);
        assert_int_equal(r.total, 1);
        for (size_t l = 1; l < NLEVELS; l++)
            if (ops[i]->has_simd && ops[i]->has_simd(all_levels[l]) &&
                !nq_cpu_runs(nq_cpu_simd_best(), all_levels[l]))
                assert_int_equal(ops[i]->solve(plan, 0, all_levels[l], NULL, &r),
                                 NQ_EUNSUPPORTED);
        if (ops[i]->fit_memory) {
            uint64_t need = 0;
            assert_int_equal(ops[i]->fit_memory(plan, 1, UINT64_MAX / 2, &need), NQ_OK);
            assert_int_equal(ops[i]->fit_memory(plan, 1, 0, &need), NQ_EMEMLIMIT);
            assert_true(need > 0);
        }
        ops[i]->destroy(plan);
        ops[i]->destroy(NULL);

        o.method = ops[i]->id;
        o.threads = 2;
        o.unique = 1;
        if (ops[i]->has_unique) {
            assert_int_equal(nq_count(&cr, 10, &o), NQ_OK);
            assert_true(cr.has_unique);
            assert_int_equal(cr.unique, test_known[10].unique);
        } else {
            assert_int_equal(nq_count(&cr, 10, &o), NQ_EMETHOD);
        }
        o.unique = 0;
        assert_int_equal(nq_count(&cr, 10, &o), NQ_OK);
        assert_int_equal(cr.method, ops[i]->id);
        assert_int_equal(cr.total, test_known[10].total);
        assert_int_equal(nq_cancel_new(&o.stop), NQ_OK);
        nq_cancel_raise(o.stop);
        assert_int_equal(nq_count(&cr, 12, &o), NQ_ECANCELED);
        nq_cancel_free(o.stop);
    }
}

/* The row's cost model, where it has one: on a small board and on one
 * beyond n = 20 (with a raised flag, so that it ends at once), it models
 * the count or says NQ_EUNSUPPORTED (nq_estimate() then times units). */
static void test_cost_model(void **state)
{
    static const unsigned sizes[] = { 8, 21 };
    const nq_method_ops *ops[8];
    const size_t nrows = rows(ops);
    (void)state;
    for (size_t i = 0; i < nrows; i++) {
        if (!ops[i]->model)
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            void *plan = build(ops[i], sizes[s]);
            nq_cost_model m = { -1.0, -1.0, -1.0, 0, 0 };
            atomic_int stop;
            int rc;
            atomic_init(&stop, s > 0);
            rc = ops[i]->model(plan, NQ_SIMD_NONE, 0.05, 1, &stop, &m);
            if (s > 0) {
                assert_true(rc == NQ_ECANCELED || rc == NQ_EUNSUPPORTED);
            } else {
                assert_true(rc == NQ_OK || rc == NQ_EUNSUPPORTED);
                if (rc == NQ_OK)
                    assert_true(m.low <= m.cpu_seconds && m.cpu_seconds <= m.high);
            }
            ops[i]->destroy(plan);
        }
    }
}

/* The other build, where the row has one: the same unit list, each unit
 * with build()'s counts at every level here. */
static void test_other_build(void **state)
{
    const nq_method_ops *ops[8];
    const size_t nrows = rows(ops);
    (void)state;
    for (size_t i = 0; i < nrows; i++) {
        nq_simd lv[NLEVELS];
        size_t nl;
        void *other = NULL;
        if (!ops[i]->build_other)
            continue;
        nl = levels(ops[i], lv, 0);
        assert_int_equal(ops[i]->build_other(NULL, 8), NQ_EINVAL);
        assert_int_equal(ops[i]->build_other(&other, NQ_MAX_N + 1), NQ_ERANGE);
        for (unsigned n = 0; n <= NQ_TEST_CROSS_N; n++) {
            void *plan = build(ops[i], n);
            assert_int_equal(ops[i]->build_other(&other, n), NQ_OK);
            assert_non_null(other);
            assert_int_equal(ops[i]->size(other), ops[i]->size(plan));
            for (uint64_t u = 0; u < ops[i]->size(plan); u++) {
                const nq_unit_result r = solve(ops[i], plan, u, NQ_SIMD_NONE);
                for (size_t l = 0; l < nl; l++) {
                    const nq_unit_result o = solve(ops[i], other, u, lv[l]);
                    if (o.total != r.total || o.unique != r.unique)
                        fail_msg("%s, n = %u, unit %llu at %s: other build %llu/%llu, "
                                 "build %llu/%llu", ops[i]->name, n,
                                 (unsigned long long)u, nq_simd_name(lv[l]),
                                 (unsigned long long)o.total,
                                 (unsigned long long)o.unique,
                                 (unsigned long long)r.total,
                                 (unsigned long long)r.unique);
                }
            }
            ops[i]->destroy(other);
            ops[i]->destroy(plan);
        }
    }
}

/* The independent check, where the row has one: unit by unit the counts
 * of solve() on every small board; a raised flag ends it with the result
 * untouched; a unit out of range is refused. */
static void test_check(void **state)
{
    const nq_method_ops *ops[8];
    const size_t nrows = rows(ops);
    (void)state;
    for (size_t i = 0; i < nrows; i++) {
        if (!ops[i]->check)
            continue;
        for (unsigned n = 0; n <= NQ_TEST_CROSS_N; n++) {
            void *plan = build(ops[i], n);
            uint64_t total = 0;
            for (uint64_t u = 0; u < ops[i]->size(plan); u++) {
                const nq_unit_result r = solve(ops[i], plan, u, NQ_SIMD_NONE);
                nq_unit_result c = { 0, 0 };
                assert_int_equal(ops[i]->check(plan, u, NULL, &c), NQ_OK);
                if (c.total != r.total || c.unique != r.unique)
                    fail_msg("%s, n = %u, unit %llu: check %llu/%llu, solve %llu/%llu",
                             ops[i]->name, n, (unsigned long long)u,
                             (unsigned long long)c.total, (unsigned long long)c.unique,
                             (unsigned long long)r.total, (unsigned long long)r.unique);
                total += c.total;
            }
            assert_int_equal(total, test_known[n].total);
            ops[i]->destroy(plan);
        }
        {
            void *plan = build(ops[i], 10);
            nq_unit_result u = { 7, 7 };
            atomic_int raised;
            atomic_init(&raised, 1);
            assert_int_equal(ops[i]->check(plan, 0, &raised, &u), NQ_ECANCELED);
            assert_int_equal(u.total, 7);
            assert_int_equal(u.unique, 7);
            assert_int_equal(ops[i]->check(plan, ops[i]->size(plan), NULL, &u), NQ_EINVAL);
            assert_int_equal(ops[i]->check(plan, 0, NULL, NULL), NQ_EINVAL);
            assert_int_equal(u.total, 7);
            ops[i]->destroy(plan);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_are_whole),
        cmocka_unit_test(test_units_add_up_at_every_level),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_cost_model),
        cmocka_unit_test(test_other_build),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
