/*
 * test_join.c - the join method's unit list and its counts unit by unit
 * (cuts, batches), and the half-board keys, listed from the table, the
 * walk and the quarters per split, and a unit counted on a sample of its
 * blocks and east batches (nq_join_sample_unit(), for the samplers of
 * benches: over all the phases, the samples add up to the steps times
 * the exact count): what is particular to it. Its kernels are
 * test_join_kernels.c's, its table test_join_table.c's; what every
 * method must do is in test_method_contract.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "methods/join/join_half.h"
#include "methods/join/join_kernel.h"
#include "methods/join/join_keys.h"
#include "methods/join/join_plan.h"
#include "methods/join/join_quarter.h"
#include "methods/join/join_rowset.h"
#include "methods/join/join_sieve.h"
#include "known_values.h"
#include "test_join.h"
#include "test_sizes.h"

/* Unit by unit: bucketing the keys on any number of bits gives the counts
 * of no bucketing, at every SIMD level, with the table and with the walk;
 * and so does the default, which counts the splits whose east list fits
 * one block weighted, unsorted (cuts set by hand sort every split).
 * (Boards this small pick no buckets by themselves: their lists are short.) */
static void test_cuts_agree(void **state)
{
    nq_simd lv[3];
    unsigned nl = levels(lv);
    (void)state;
    for (unsigned n = 5; n <= NQ_TEST_CROSS_N; n++) {
        nq_join_plan *plan = build(n, 0), *walk = build(n, 1);
        uint64_t total = 0;
        for (uint64_t u = 0; u < nq_join_plan_size(plan); u++) {
            uint64_t t;
            assert_int_equal(nq_join_plan_set_cuts(plan, 0), NQ_OK);
            t = solve(plan, u, NQ_SIMD_NONE);
            for (int cuts = 1; cuts <= (int)NQ_JOIN_MAX_CUTS; cuts++) {
                assert_int_equal(nq_join_plan_set_cuts(plan, cuts), NQ_OK);
                for (unsigned l = 0; l < nl; l++)
                    assert_int_equal(solve(plan, u, lv[l]), t);
            }
            assert_int_equal(nq_join_plan_set_cuts(plan, -1), NQ_OK);
            for (unsigned l = 0; l < nl; l++)
                assert_int_equal(solve(plan, u, lv[l]), t);
            if (n <= 12) {
                assert_int_equal(nq_join_plan_set_cuts(walk, (int)(u % 7)), NQ_OK);
                assert_int_equal(solve(walk, u, lv[nl - 1]), t);
                assert_int_equal(nq_join_plan_set_cuts(walk, -1), NQ_OK);
                assert_int_equal(solve(walk, u, lv[u % nl]), t);
            }
            total += t;
        }
        assert_int_equal(total, test_known[n].total);
        assert_int_equal(nq_join_plan_set_cuts(plan, -2), NQ_EINVAL);
        assert_int_equal(nq_join_plan_set_cuts(plan, (int)NQ_JOIN_MAX_CUTS + 1), NQ_EINVAL);
        assert_int_equal(nq_join_plan_set_cuts(NULL, 0), NQ_EINVAL);
        nq_join_plan_free(plan);
        nq_join_plan_free(walk);
    }
}

/* Unit by unit: listing the halves' keys in batches of any size (every
 * east batch meeting every west batch, in list order or by pattern) gives
 * the counts of whole lists, with the table and with the walk, at every
 * SIMD level. */
static void test_batches_agree(void **state)
{
    static const size_t sizes[] = { 1, 2, 7, 64, 1000 };
    nq_simd lv[3];
    unsigned nl = levels(lv);
    (void)state;
    for (unsigned n = 4; n <= NQ_TEST_CROSS_N; n++) {
        /* the table; quarters listed per split; the walk alone; and
         * slots so small that most quarters are walked, some listed */
        nq_join_plan *plan = build(n, 0), *walk[3] = { build(n, 1), build(n, 1), build(n, 1) };
        uint64_t total = 0;
        assert_int_equal(nq_join_plan_set_rowset_pieces(walk[1], 0), NQ_OK);
        assert_int_equal(nq_join_plan_set_rowset_pieces(walk[2], 40), NQ_OK);
        for (uint64_t u = 0; u < nq_join_plan_size(plan); u++) {
            uint64_t t;
            assert_int_equal(nq_join_plan_set_batch(plan, (size_t)1 << 20), NQ_OK);
            t = solve(plan, u, NQ_SIMD_NONE);
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                if (n > 11 && sizes[i] < 1000)
                    continue; /* many batches: quadratic in the list */
                assert_int_equal(nq_join_plan_set_batch(plan, sizes[i]), NQ_OK);
                assert_int_equal(solve(plan, u, lv[u % nl]), t);
                /* long lists met in list order, not by pattern */
                assert_int_equal(nq_join_plan_set_passes(plan, 0), NQ_OK);
                assert_int_equal(solve(plan, u, lv[(u + 1) % nl]), t);
                assert_int_equal(nq_join_plan_set_passes(plan, 1), NQ_OK);
                for (unsigned w = 0; w < 3; w++) {
                    assert_int_equal(nq_join_plan_set_batch(walk[w], sizes[i]), NQ_OK);
                    assert_int_equal(solve(walk[w], u, lv[(u + 1 + w) % nl]), t);
                }
            }
            total += t;
        }
        assert_int_equal(total, test_known[n].total);
        assert_int_equal(nq_join_plan_set_batch(plan, 0), NQ_EINVAL);
        assert_int_equal(nq_join_plan_set_batch(NULL, 5), NQ_EINVAL);
        assert_int_equal(nq_join_plan_set_rowset_pieces(NULL, 5), NQ_EINVAL);
        assert_int_equal(nq_join_plan_set_passes(NULL, 1), NQ_EINVAL);
        nq_join_plan_free(plan);
        for (unsigned w = 0; w < 3; w++)
            nq_join_plan_free(walk[w]);
    }
}

static int compare_keys(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* All of a half's keys, batch after batch of at most cap (more only as
 * the cursor allows: the walk's last row, the table's widest cell), from
 * the table q or (NULL) the walk. */
static void list_all(nq_join_keys *all, const nq_join_quarter *q,
                     nq_join_pieces *pieces, const nq_join_half *g, uint32_t rows,
                     size_t cap)
{
    nq_join_cursor at = { 0 };
    nq_join_keys batch = { NULL, 0, 0 };
    all->count = 0;
    while (!at.done) {
        size_t most = cap;
        if (q) {
            assert_int_equal(nq_join_half_keys(&batch, pieces, q, g, rows,
                                               nq_join_kernel_of(NQ_SIMD_NONE), &at, cap),
                             NQ_OK);
            if (most < (size_t)q->largest + 8)
                most = (size_t)q->largest + 8;
        } else {
            assert_int_equal(nq_join_walk_keys(&batch, g, rows, &at, cap), NQ_OK);
            if (most < g->n / 2)
                most = g->n / 2;
        }
        assert_true(batch.count <= most);
        assert_true(batch.count > 0 || at.done);
        assert_int_equal(nq_join_keys_reserve(all, batch.count), NQ_OK);
        for (size_t i = 0; i < batch.count; i++)
            all->keys[all->count++] = batch.keys[i];
    }
    free(batch.keys);
}

/* A half's keys listed in batches are its whole list, in the same order,
 * from the table and from the walk, and the two hold the same keys. */
static void test_batches_list_all(void **state)
{
    static const size_t caps[] = { 1, 5, 100, SIZE_MAX };
    (void)state;
    for (unsigned n = 6; n <= 12; n++) {
        const unsigned h = n / 2, t = n - h;
        nq_join_quarter q;
        nq_join_pieces pieces;
        nq_join_piece_list *lists[2] = { &pieces.top, &pieces.bottom };
        nq_join_sieve sv;
        nq_join_half g = { 0 }; /* need 0: every key listed */
        uint32_t rows = 0;
        assert_int_equal(nq_join_quarter_build(&q, t, h, UINT64_MAX, NULL), NQ_OK);
        for (unsigned i = 0; i < 2; i++) {
            lists[i]->d1 = malloc((q.largest + 8) * sizeof(uint64_t));
            lists[i]->d2 = malloc((q.largest + 8) * sizeof(uint64_t));
            lists[i]->key = malloc((q.largest + 8) * sizeof(uint64_t));
            assert_non_null(lists[i]->d1);
            assert_non_null(lists[i]->d2);
            assert_non_null(lists[i]->key);
        }
        nq_join_sieve_holes(&sv, 0, 0, 2 * h - 1, 2 * h - 1);
        for (unsigned r = 0; r < n; r += 2) /* every other row, then the last */
            rows |= 1u << r;
        while ((unsigned)__builtin_popcount(rows) > h)
            rows &= rows - 1;
        rows |= 1u << (n - 1);
        while ((unsigned)__builtin_popcount(rows) > h)
            rows &= rows - 1;
        for (unsigned side = 0; side < 2; side++) {
            nq_join_keys whole[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
            g.n = n;
            g.c0 = side ? n - h : 0;
            g.lo1 = g.lo2 = n - h;
            g.len1 = g.len2 = 2 * h - 1;
            g.bar1 = g.bar2 = 0;
            g.sieve = &sv;
            list_all(&whole[0], &q, &pieces, &g, rows, SIZE_MAX);
            list_all(&whole[1], NULL, NULL, &g, rows, SIZE_MAX);
            assert_true(whole[0].count > 0);
            for (size_t c = 0; c < sizeof caps / sizeof *caps; c++)
                for (unsigned walk = 0; walk < 2; walk++) {
                    nq_join_keys part = { NULL, 0, 0 };
                    list_all(&part, walk ? NULL : &q, &pieces, &g, rows, caps[c]);
                    assert_int_equal(part.count, whole[walk].count);
                    assert_memory_equal(part.keys, whole[walk].keys,
                                        part.count * sizeof *part.keys);
                    free(part.keys);
                }
            assert_int_equal(whole[0].count, whole[1].count);
            qsort(whole[0].keys, whole[0].count, sizeof *whole[0].keys, compare_keys);
            qsort(whole[1].keys, whole[1].count, sizeof *whole[1].keys, compare_keys);
            assert_memory_equal(whole[0].keys, whole[1].keys,
                                whole[0].count * sizeof *whole[0].keys);
            free(whole[0].keys);
            free(whole[1].keys);
            rows = ((1u << n) - 1u) & ~rows; /* the other half's rows (less */
            while ((unsigned)__builtin_popcount(rows) > h) /* a middle row) */
                rows &= rows - 1;
        }
        for (unsigned i = 0; i < 2; i++) {
            free(lists[i]->d1);
            free(lists[i]->d2);
            free(lists[i]->key);
        }
        nq_join_quarter_free(&q);
    }
}

/* Every key of half g on `rows` from its quarters listed per split
 * (join_rowset.c), batch after batch of at most cap (or the widest
 * cell); *walk when a quarter would not fit `max_pieces`. */
static void list_rowsets(nq_join_keys *all, nq_join_rowset *slot, size_t max_pieces,
                         nq_join_pieces *pieces, const nq_join_half *g, uint32_t rows,
                         size_t cap, int *walk)
{
    nq_join_cursor at = { 0 };
    nq_join_keys batch = { NULL, 0, 0 };
    all->count = 0;
    *walk = 0;
    while (!at.done && !*walk) {
        assert_int_equal(nq_join_rowset_keys(&batch, pieces, slot, max_pieces, g, rows,
                                             nq_join_kernel_of(NQ_SIMD_NONE), &at, cap, walk),
                         NQ_OK);
        if (*walk)
            break;
        assert_true(batch.count <= cap || batch.count <= pieces->room + 8);
        assert_true(batch.count > 0 || at.done);
        assert_int_equal(nq_join_keys_reserve(all, batch.count), NQ_OK);
        for (size_t i = 0; i < batch.count; i++)
            all->keys[all->count++] = batch.keys[i];
    }
    free(batch.keys);
}

/* A half's keys from its quarters listed per split are the walk's, for
 * every row set of the half (sampled beyond n = 11), either side, with
 * diagonals barred at random; in batches, the same list in the same
 * order; and a quarter too large for its slot is refused, to be walked. */
static void test_rowsets_list_all(void **state)
{
    static const size_t caps[] = { 3, 100, SIZE_MAX };
    uint64_t seed = 99;
    (void)state;
    for (unsigned n = 5; n <= 14; n++) {
        const unsigned h = n / 2;
        nq_join_rowset slot[2];
        nq_join_pieces pieces = { { NULL, NULL, NULL }, { NULL, NULL, NULL }, 0 };
        nq_join_sieve sv;
        unsigned listed = 0, refused = 0;
        memset(slot, 0, sizeof slot);
        nq_join_sieve_holes(&sv, 0, 0, 2 * h - 1, 2 * h - 1);
        for (uint32_t rows = 0; rows < (1u << n); rows++) {
            if ((unsigned)__builtin_popcount(rows) != h || (n > 11 && rows % 61 != 0))
                continue;
            for (unsigned side = 0; side < 2; side++) {
                nq_join_half g = { 0 };
                nq_join_keys ref = { NULL, 0, 0 }, got = { NULL, 0, 0 };
                int walk;
                g.n = n;
                g.c0 = side ? n - h : 0;
                g.lo1 = g.lo2 = n - h;
                g.len1 = g.len2 = 2 * h - 1;
                /* one diagonal of each direction barred, now and then */
                g.bar1 = rows % 3 ? 0 : 1ull << (n - h + next_random(&seed) % (2 * h - 1));
                g.bar2 = rows % 5 ? 0 : 1ull << (n - h + next_random(&seed) % (2 * h - 1));
                g.sieve = &sv;
                list_all(&ref, NULL, NULL, &g, rows, SIZE_MAX);
                for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
                    nq_join_keys part = { NULL, 0, 0 };
                    list_rowsets(&part, slot, SIZE_MAX, &pieces, &g, rows, caps[c], &walk);
                    assert_false(walk); /* (no quarter is too tall below n = 20) */
                    if (c == 0) {
                        got = part;
                        continue;
                    }
                    assert_int_equal(part.count, got.count);
                    assert_memory_equal(part.keys, got.keys, part.count * sizeof *part.keys);
                    free(part.keys);
                }
                assert_int_equal(got.count, ref.count);
                if (ref.count) {
                    qsort(ref.keys, ref.count, sizeof *ref.keys, compare_keys);
                    qsort(got.keys, got.count, sizeof *got.keys, compare_keys);
                    assert_memory_equal(got.keys, ref.keys, ref.count * sizeof *ref.keys);
                }
                /* slots of 2 pieces: a quarter with more is refused */
                {
                    nq_join_keys small = { NULL, 0, 0 };
                    list_rowsets(&small, slot, 2, &pieces, &g, rows, SIZE_MAX, &walk);
                    if (walk)
                        refused++;
                    else {
                        listed++;
                        assert_int_equal(small.count, ref.count);
                    }
                    free(small.keys);
                }
                free(ref.keys);
                free(got.keys);
            }
        }
        /* at n = 5 every quarter is a row of 2 squares at most: all fit */
        assert_true(n == 5 ? listed > 0 && refused == 0 : refused > 0);
        for (unsigned i = 0; i < 2; i++)
            nq_join_rowset_free(&slot[i]);
        free(pieces.top.d1);
        free(pieces.top.d2);
        free(pieces.top.key);
        free(pieces.bottom.d1);
        free(pieces.bottom.d2);
        free(pieces.bottom.key);
    }
}

static void test_bad_arguments(void **state)
{
    nq_join_plan *plan = NULL;
    nq_unit_result r;
    (void)state;
    assert_int_equal(nq_join_plan_build(&plan, NQ_MAX_N + 1), NQ_ERANGE);
    assert_null(plan);
    plan = build(10, 0);
    assert_int_equal(nq_join_solve_unit(NULL, 0, NQ_SIMD_NONE, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_join_solve_unit(plan, 0, NQ_SIMD_NONE, NULL, NULL), NQ_EINVAL);
    assert_int_equal(nq_join_solve_unit(plan, 0, NQ_SIMD_AUTO, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_join_plan_size(NULL), 0);
    nq_join_plan_free(plan);
    nq_join_plan_free(NULL);
}

/* The list depends on n alone: at most 65,536 units up to n = 23 (as in
 * version 1 of the list), then between a million and 2^21 (version 2). */
static void test_list_sizes(void **state)
{
    (void)state;
    assert_int_equal(NQ_JOIN_UNIT_LIST_VERSION, 2);
    for (unsigned n = 0; n <= NQ_MAX_N; n++) {
        nq_join_plan *a = build(n, 0), *b = build(n, 0);
        assert_int_equal(nq_join_plan_size(a), nq_join_plan_size(b));
        if (n < 24) {
            assert_true(nq_join_plan_size(a) <= 65536);
        } else {
            assert_true(nq_join_plan_size(a) >= 1000000);
            assert_true(nq_join_plan_size(a) <= (1u << 21));
        }
        nq_join_plan_free(a);
        nq_join_plan_free(b);
    }
}

/* Up to n = 23 unit u counts the u-th run of splits; from n = 24 on the
 * runs are taken in an order (heaviest first by a proxy) that is a
 * permutation of them, the same in every plan of n: every split is
 * counted by exactly one unit. */
static void test_unit_order(void **state)
{
    static const unsigned sizes[] = { 13, 20, 24, 26 };
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        nq_join_plan *a = build(sizes[i], 0), *b = build(sizes[i], 1);
        const uint64_t units = nq_join_plan_size(a), splits = nq_join_plan_splits(a);
        const uint64_t group = (splits + units - 1) / units;
        unsigned char *seen = calloc(units, 1);
        uint64_t first, end, covered = 0, moved = 0;
        assert_non_null(seen);
        for (uint64_t u = 0; u < units; u++) {
            uint64_t f2, e2;
            assert_int_equal(nq_join_plan_unit_splits(a, u, &first, &end), NQ_OK);
            assert_int_equal(nq_join_plan_unit_splits(b, u, &f2, &e2), NQ_OK);
            assert_int_equal(first, f2);
            assert_int_equal(end, e2);
            assert_int_equal(first % group, 0);
            assert_true(end > first && end <= splits && end - first <= group);
            assert_int_equal(seen[first / group], 0);
            seen[first / group] = 1;
            covered += end - first;
            moved += first != u * group;
        }
        assert_int_equal(covered, splits);
        if (sizes[i] < 24)
            assert_int_equal(moved, 0);
        else
            assert_true(moved > units / 2);
        assert_int_equal(nq_join_plan_unit_splits(a, units, &first, &end), NQ_EINVAL);
        assert_int_equal(nq_join_plan_unit_splits(NULL, 0, &first, &end), NQ_EINVAL);
        free(seen);
        nq_join_plan_free(a);
        nq_join_plan_free(b);
    }
}

/* ---- a unit on a sample of its blocks and east batches ---- */

/* Every phase of the steps (of blocks, of east batches, of both): their
 * estimates average to the exact count of the unit, at each level this
 * CPU runs (in turn); on even and odd boards, with the table and walking,
 * with buckets (cuts 2) so that the sieve's match meets blocks, and with
 * the default cuts (weighted splits, counted whole). */
static void test_phases_add_up(void **state)
{
    static const unsigned sizes[] = { 16, 17 };
    static const int cuts[] = { 2, -1 };
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int walk = 0; walk < 2; walk++)
            for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
                nq_join_plan *plan = build(sizes[i], walk);
                const uint64_t units = nq_join_plan_size(plan);
                nq_simd level[3];
                const unsigned nlevels = levels(level);
                assert_int_equal(nq_join_plan_set_cuts(plan, cuts[c]), NQ_OK);
                /* a smaller batch: several east batches meet the west ones */
                assert_int_equal(nq_join_plan_set_batch(plan, 1500), NQ_OK);
                for (uint64_t u = 0, k = 0; u < units; u += units / 7 + 1, k++) {
                    const nq_simd simd = level[k % nlevels]; /* each level in turn */
                    /* blocks alone, east batches alone, and both */
                    static const unsigned steps[][2] = { { 3, 1 }, { 1, 3 }, { 2, 2 } };
                    nq_unit_result exact, r;
                    nq_join_sampling one = { .step = 1, .east_step = 1 };
                    assert_int_equal(nq_join_solve_unit(plan, u, simd, NULL, &exact), NQ_OK);
                    assert_int_equal(nq_join_sample_unit(plan, u, simd, &one, NULL, &r), NQ_OK);
                    assert_int_equal(r.total, exact.total);
                    assert_true(one.match_seconds >= 0.0 && one.east_seconds == 0.0);
                    for (size_t j = 0; j < sizeof steps / sizeof *steps; j++) {
                        uint64_t sum = 0;
                        for (unsigned ph = 0; ph < steps[j][0] * steps[j][1]; ph++) {
                            nq_join_sampling smp = { .step = steps[j][0],
                                                     .phase = ph % steps[j][0],
                                                     .east_step = steps[j][1],
                                                     .east_phase = ph / steps[j][0] };
                            assert_int_equal(nq_join_sample_unit(plan, u, simd, &smp, NULL, &r),
                                             NQ_OK);
                            assert_true(smp.match_seconds >= 0.0 &&
                                        smp.east_seconds >= smp.east_match_seconds &&
                                        smp.east_match_seconds >= 0.0);
                            sum += r.total;
                        }
                        assert_int_equal(sum, (uint64_t)steps[j][0] * steps[j][1] * exact.total);
                    }
                    /* the unit's scratch counts every block again after */
                    assert_int_equal(nq_join_solve_unit(plan, u, simd, NULL, &r), NQ_OK);
                    assert_int_equal(r.total, exact.total);
                }
                nq_join_plan_free(plan);
            }
}

/* A sample leaves blocks out, and one of east batches leaves batches
 * out: some phase of some unit of n = 18 (lists of thousands of keys;
 * with batches of 1,500 keys, several east batches) differs from the
 * exact count, so that the test above would see a sample that took every
 * block or batch; and the east batches' work is timed. */
static void test_sample_leaves_out(void **state)
{
    nq_join_plan *plan = build(18, 0);
    const uint64_t units = nq_join_plan_size(plan);
    int differs = 0, east_differs = 0, east_timed = 0;
    (void)state;
    assert_int_equal(nq_join_plan_set_cuts(plan, 2), NQ_OK);
    assert_int_equal(nq_join_plan_set_batch(plan, 1500), NQ_OK);
    for (uint64_t u = units / 3; u < units && !(differs && east_differs && east_timed);
         u += units / 5) {
        nq_unit_result exact, r;
        nq_join_sampling blocks = { .step = 4, .phase = 1, .east_step = 1 };
        assert_int_equal(nq_join_solve_unit(plan, u, nq_cpu_simd_best(), NULL, &exact),
                         NQ_OK);
        assert_int_equal(nq_join_sample_unit(plan, u, nq_cpu_simd_best(), &blocks, NULL, &r),
                         NQ_OK);
        differs |= r.total != exact.total;
        for (unsigned phase = 0; phase < 3; phase++) { /* some phase takes a batch */
            nq_join_sampling east = { .step = 1, .east_step = 3, .east_phase = phase };
            assert_int_equal(nq_join_sample_unit(plan, u, nq_cpu_simd_best(), &east, NULL, &r),
                             NQ_OK);
            east_differs |= r.total != exact.total;
            east_timed |= east.east_seconds > 0.0;
        }
    }
    assert_true(differs);
    assert_true(east_differs);
    assert_true(east_timed);
    nq_join_plan_free(plan);
}

static void test_sample_bad_arguments(void **state)
{
    nq_join_plan *plan = build(12, 0);
    nq_unit_result r;
    const nq_simd best = nq_cpu_simd_best();
    nq_join_sampling zero = { .step = 0, .east_step = 1 }, past = { .step = 2, .phase = 2,
                                                                     .east_step = 1 };
    nq_join_sampling east_zero = { .step = 1, .east_step = 0 },
                     east_past = { .step = 1, .east_step = 3, .east_phase = 3 },
                     fine = { .step = 2, .east_step = 2 };
    (void)state;
    assert_int_equal(nq_join_sample_unit(plan, 0, best, &zero, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, 0, best, &past, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, 0, best, &east_zero, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, 0, best, &east_past, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, 0, best, NULL, NULL, &r), NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, nq_join_plan_size(plan), best, &fine, NULL, &r),
                     NQ_EINVAL);
    assert_int_equal(nq_join_sample_unit(plan, 0, best, &fine, NULL, &r), NQ_OK);
    nq_join_plan_free(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuts_agree),
        cmocka_unit_test(test_batches_agree),
        cmocka_unit_test(test_batches_list_all),
        cmocka_unit_test(test_rowsets_list_all),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_list_sizes),
        cmocka_unit_test(test_unit_order),
        cmocka_unit_test(test_phases_add_up),
        cmocka_unit_test(test_sample_leaves_out),
        cmocka_unit_test(test_sample_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
