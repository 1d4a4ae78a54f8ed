/*
 * test_join.c - the join method's unit list, half-board keys and its
 * kernels, every row of the kernel table (src/methods/join/join_kernel.h)
 * against the scalar one and against naive loops: what is particular to
 * it. What every method must do is in test_method_contract.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "platform/cpu.h"
#include "methods/join/join_block.h"
#include "methods/join/join_half.h"
#include "methods/join/join_kernel.h"
#include "methods/join/join_keys.h"
#include "methods/join/join_plan.h"
#include "methods/join/join_quarter.h"
#include "methods/join/join_rowset.h"
#include "methods/join/join_scalar.h"
#include "methods/join/join_sieve.h"
#include "known_values.h"
#include "test_sizes.h"

static nq_join_plan *build(unsigned n, int walk)
{
    nq_join_plan *plan = NULL;
    assert_int_equal(walk ? nq_join_plan_build_walk(&plan, n)
                          : nq_join_plan_build(&plan, n), NQ_OK);
    assert_non_null(plan);
    assert_true(nq_join_plan_size(plan) > 0);
    return plan;
}

static uint64_t solve(const nq_join_plan *plan, uint64_t unit, nq_simd simd)
{
    nq_stop_flag stop = 0;
    nq_unit_result r = { 7, 7 };
    assert_int_equal(nq_join_solve_unit(plan, unit, simd, &stop, &r), NQ_OK);
    assert_int_equal(r.unique, 0);
    return r.total;
}

/* The SIMD levels this build and CPU run, scalar first. */
static unsigned levels(nq_simd out[3])
{
    unsigned k = 0;
    out[k++] = NQ_SIMD_NONE;
#if NQ_X86
    if (nq_cpu_runs(nq_cpu_simd_best(), NQ_SIMD_AVX2))
        out[k++] = NQ_SIMD_AVX2;
    if (nq_cpu_runs(nq_cpu_simd_best(), NQ_SIMD_AVX512))
        out[k++] = NQ_SIMD_AVX512;
#endif
    return k;
}

/* Pairs of keys with no common bit, counted one pair at a time. */
static uint64_t naive_pairs(const uint64_t *a, size_t na, const uint64_t *b,
                            size_t nb)
{
    uint64_t c = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            c += (a[i] & b[j]) == 0;
    return c;
}

static uint64_t next_random(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

/* The rows of the kernel table that this build and CPU run, scalar first,
 * with their levels; a level the build or the CPU lacks is named. */
static unsigned kernels(const nq_join_kernel *out[3], nq_simd lv[3])
{
    static const nq_simd all[] = { NQ_SIMD_NONE, NQ_SIMD_AVX2, NQ_SIMD_AVX512 };
    unsigned k = 0;
    for (unsigned i = 0; i < 3; i++) {
        const nq_join_kernel *row = nq_join_kernel_of(all[i]);
        if (!row)
            print_message("no join kernels of %s in this build\n", nq_simd_name(all[i]));
        else if (!nq_cpu_runs(nq_cpu_simd_best(), all[i]))
            print_message("no %s on this CPU: its join kernels are not tested\n",
                          nq_simd_name(all[i]));
        else {
            lv[k] = all[i];
            out[k++] = row;
        }
    }
    return k;
}

/* Random keys of each width and density, blocks full and partial (up to
 * and past 256 keys, where the wide fills leave the rows' high words
 * alone), an item of key 0: every row's fill and match (and the faster
 * match, where the CPU runs it) count what the naive loop counts, and a
 * block filled by one wide row reads the same through another's match. */
static void test_kernels_match_naive(void **state)
{
    static const size_t sizes[] = { 1, 63, 64, 65, 255, 256, 257, 300, 512 };
    const nq_join_kernel *k[3];
    nq_simd lv[3];
    const unsigned nk_rows = kernels(k, lv);
    nq_join_block *block = aligned_alloc(64, sizeof *block);
    /* 600 items: past the 127 that the AVX2 weighted match sums at once */
    uint64_t keys[512], items[600], flagged[600], seed = 12345;
    (void)state;
    assert_non_null(block);
    assert_null(nq_join_kernel_of(NQ_SIMD_AUTO));
    assert_null(nq_join_kernel_of((nq_simd)99));
    /* every chunk count: the wide matches unroll each one on its own */
    for (unsigned chunks = 1; chunks <= NQ_JOIN_MAX_CHUNKS; chunks++) {
        const unsigned bits = chunks * NQ_JOIN_CHUNK_BITS - 2; /* as keys are */
        const uint64_t mask = (1ull << bits) - 1u;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const size_t nk = sizes[s];
            for (size_t i = 0; i < nk; i++) /* sparse keys, so pairs exist */
                keys[i] = next_random(&seed) & next_random(&seed) &
                          next_random(&seed) & mask;
            for (size_t i = 0; i < 600; i++)
                items[i] = i == 0 ? 0 : next_random(&seed) & next_random(&seed) & mask;
            const uint64_t want = naive_pairs(keys, nk, items, 200);
            /* weighted: random class flags, a random shift for each */
            const unsigned shifts = 1u + (unsigned)(next_random(&seed) % 255u);
            uint64_t want_w = 0;
            for (size_t i = 0; i < 600; i++) {
                flagged[i] = items[i] | (next_random(&seed) & 3u) << NQ_JOIN_CLASS_SHIFT;
                want_w += naive_pairs(keys, nk, &items[i], 1)
                          << nq_join_item_shift(shifts, flagged[i]);
            }
            for (unsigned f = 0; f < nk_rows; f++) {
                /* what a fill may leave unwritten holds garbage: every
                 * match must leave it out */
                memset(block, 0xa5, sizeof *block);
                k[f]->fill(block, keys, nk, chunks);
                for (unsigned m = 0; m < nk_rows; m++) {
                    /* the portable match reads every word of a row, and
                     * is only given the portable fill's blocks */
                    if (lv[m] == NQ_SIMD_NONE && lv[f] != NQ_SIMD_NONE)
                        continue;
                    assert_int_equal(k[m]->match(block, chunks, items, 200, 0), want);
                    assert_int_equal(k[m]->match(block, chunks, flagged, 600, shifts), want_w);
                    if (k[m]->match_vpopcnt && nq_cpu_has_vpopcnt()) {
                        assert_int_equal(k[m]->match_vpopcnt(block, chunks, items, 200, 0),
                                         want);
                        assert_int_equal(k[m]->match_vpopcnt(block, chunks, flagged, 600,
                                                             shifts),
                                         want_w);
                    }
                }
            }
        }
    }
    free(block);
}

/* Random table entries, frames, bars, holes and diagonal masks, lists of
 * every length from 0 to 40 (whole vectors and tails): every row takes the
 * pieces the scalar row takes, in the same order, and pairs them the same. */
static void test_kernels_take_and_pair(void **state)
{
    enum { MAXN = 40 };
    const nq_join_kernel *k[3];
    nq_simd lv[3];
    const unsigned nrows = kernels(k, lv);
    uint64_t src[MAXN], seed = 4242;
    uint64_t want_d1[MAXN + 8], want_d2[MAXN + 8], want_key[MAXN + 8];
    uint64_t got_d1[MAXN + 8], got_d2[MAXN + 8], got_key[MAXN + 8];
    uint64_t want_pairs[3 * MAXN + 8], got_pairs[3 * MAXN + 8];
    (void)state;
    for (unsigned trial = 0; trial < 200; trial++) {
        const size_t n = trial % (MAXN + 1);
        const unsigned len1 = 1 + (unsigned)(next_random(&seed) % 26);
        const unsigned len2 = 1 + (unsigned)(next_random(&seed) % 26);
        nq_join_sieve sv;
        nq_join_frame fr;
        nq_join_piece_list want = { want_d1, want_d2, want_key };
        for (size_t i = 0; i < n; i++)
            src[i] = next_random(&seed) & 0x00ffffff00ffffffull;
        nq_join_sieve_holes(&sv, next_random(&seed) & next_random(&seed) &
                                     ((1ull << (len1 + len2)) - 1u),
                            trial % 2 ? 1ull | 1ull << len1 : 0, len1, len2);
        fr.shift1 = (unsigned)(next_random(&seed) % 8);
        fr.shift2 = (unsigned)(next_random(&seed) % 8);
        fr.bar1 = next_random(&seed) & next_random(&seed) & next_random(&seed);
        fr.bar2 = next_random(&seed) & next_random(&seed) & next_random(&seed);
        fr.s1 = (unsigned)(next_random(&seed) % 8);
        fr.s2 = (unsigned)(next_random(&seed) % 8);
        fr.len1 = len1;
        fr.mask1 = (1ull << len1) - 1u;
        fr.mask2 = (1ull << len2) - 1u;
        fr.sieve = &sv;
        /* a third of the trials keep every piece and mark the barred */
        fr.keep = trial % 3 == 2;
        fr.own = fr.keep ? NQ_JOIN_MARK_TOP : 0;
        fr.other = fr.keep ? NQ_JOIN_MARK_BOTTOM : 0;
        /* some ask for class flags: pieces without one are marked */
        fr.need = trial % 4 == 1 || trial % 12 == 5 ? 3ull << NQ_JOIN_CLASS_SHIFT : 0;
        const size_t m = nq_join_take_scalar(&want, src, n, &fr);
        for (size_t i = 0; i < m; i++)
            assert_int_equal(!!(want_d1[i] & NQ_JOIN_MARK_PLAIN),
                             fr.need && !(want_key[i] & fr.need));
        if (fr.keep) {
            assert_int_equal(m, n);
            for (size_t i = 0; i < n; i++) {
                const uint64_t d1 = (src[i] & 0xffffffffu) << fr.shift1,
                               d2 = (src[i] >> 32) << fr.shift2;
                const int barred = ((d1 & fr.bar1) | (d2 & fr.bar2)) != 0;
                assert_int_equal(want_d1[i] & ~NQ_JOIN_MARK_PLAIN,
                                 d1 | NQ_JOIN_MARK_TOP | (barred ? NQ_JOIN_MARK_BOTTOM : 0));
            }
        }
        /* outer pieces: the first no of the list, their keys moved up so
         * that the pairs show which outer piece made them */
        const size_t no = m < 3 ? m : 3;
        uint64_t outer_key[3], outer_d1[3], outer_d2[3];
        for (size_t i = 0; i < no; i++) {
            outer_key[i] = want_key[i] << 8 | (next_random(&seed) & 0xffu);
            outer_d1[i] = next_random(&seed) & next_random(&seed);
            outer_d2[i] = next_random(&seed) & next_random(&seed);
        }
        if (fr.keep && no) /* the bottom list's mark: it meets no barred piece */
            outer_d1[0] |= NQ_JOIN_MARK_BOTTOM;
        const nq_join_piece_list outer = { outer_d1, outer_d2, outer_key };
        const size_t p = nq_join_pairs_scalar(want_pairs, &outer, no, &want, m);
        assert_true(m <= n && p <= no * m);
        size_t q = 0;
        for (size_t i = 0; i < no; i++) /* each pair, by hand */
            for (size_t j = 0; j < m; j++)
                if (((outer_d1[i] & want_d1[j]) | (outer_d2[i] & want_d2[j])) == 0)
                    assert_int_equal(want_pairs[q++], outer_key[i] | want_key[j]);
        assert_int_equal(q, p);
        for (unsigned r = 0; r < nrows; r++) {
            nq_join_piece_list got = { got_d1, got_d2, got_key };
            assert_int_equal(k[r]->take(&got, src, n, &fr), m);
            assert_memory_equal(got_d1, want_d1, m * sizeof *got_d1);
            assert_memory_equal(got_d2, want_d2, m * sizeof *got_d2);
            assert_memory_equal(got_key, want_key, m * sizeof *got_key);
            assert_int_equal(k[r]->pairs(got_pairs, &outer, no, &want, m), p);
            assert_memory_equal(got_pairs, want_pairs, p * sizeof *got_pairs);
        }
    }
}

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
 * east batch meeting every west batch) gives the counts of whole lists,
 * with the table and with the walk, at every SIMD level. */
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

/* Pairs (e, w) of class c whose keys share no bit outside `holes`, one
 * pair at a time. */
static uint64_t naive_class_pairs(const uint64_t *e, size_t ne, const uint64_t *w,
                                  size_t nw, uint64_t holes, uint64_t class_bits,
                                  unsigned c)
{
    uint64_t n = 0;
    for (size_t j = 0; j < nw; j++) {
        if ((unsigned)__builtin_popcountll(w[j] & class_bits) != c)
            continue;
        for (size_t i = 0; i < ne; i++)
            n += (e[i] & w[j] & ~holes) == 0;
    }
    return n;
}

/* Random lists, holes, class bits and bucket bits: squeezing, sorting and
 * matching bucket against bucket counts what the naive loop counts, class
 * by class, with every kernel. */
static void test_sieve_matches_naive(void **state)
{
    enum { NE = 1100, NW = 900 };
    const nq_join_kernel *rows[3];
    nq_simd lv[3];
    unsigned nl = kernels(rows, lv);
    nq_join_block *block = aligned_alloc(64, sizeof *block);
    uint64_t raw_e[NE], raw_w[NW], seed = 777;
    nq_join_keys e = { NULL, 0, 0 }, w = { NULL, 0, 0 }, spare = { NULL, 0, 0 };
    size_t *eoff = malloc((NQ_JOIN_MAX_BUCKETS + 1) * sizeof *eoff);
    size_t *woff = malloc((NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS + 1) * sizeof *woff);
    size_t *count = malloc(NQ_JOIN_SORT_STREAMS * NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS *
                           sizeof *count);
    (void)state;
    assert_non_null(block);
    assert_true(eoff && woff && count);
    for (unsigned trial = 0; trial < 60; trial++) {
        const unsigned len1 = 1 + (unsigned)(next_random(&seed) % 27);
        const unsigned len2 = 1 + (unsigned)(next_random(&seed) % 27);
        const uint64_t all = (1ull << (len1 + len2)) - 1u;
        const unsigned classes = trial % 2 ? 3u : 1u;
        /* a class bit in each direction (holes: the east half never holds
         * them), and a few more holes */
        const uint64_t class_bits = classes > 1 ?
            1ull << (next_random(&seed) % len1) | 1ull << (len1 + next_random(&seed) % len2) : 0;
        const uint64_t holes = (class_bits |
            (next_random(&seed) & next_random(&seed) & next_random(&seed))) & all;
        nq_join_sieve sv;
        const size_t ne = 1 + next_random(&seed) % NE, nw = 1 + next_random(&seed) % NW;
        for (size_t i = 0; i < ne; i++)
            raw_e[i] = next_random(&seed) & next_random(&seed) & all & ~class_bits;
        for (size_t i = 0; i < nw; i++)
            raw_w[i] = next_random(&seed) & next_random(&seed) & all;
        nq_join_sieve_holes(&sv, holes, class_bits, len1, len2);
        assert_int_equal(sv.bits, len1 + len2 - (unsigned)__builtin_popcountll(holes));
        nq_join_sieve_cuts(&sv, trial % (NQ_JOIN_MAX_CUTS + 1));
        assert_true(sv.buckets <= NQ_JOIN_MAX_BUCKETS);
        assert_int_equal(nq_join_keys_reserve(&e, ne), NQ_OK);
        assert_int_equal(nq_join_keys_reserve(&w, nw), NQ_OK);
        for (size_t i = 0; i < ne; i++)
            e.keys[i] = nq_join_squeeze(&sv, raw_e[i]);
        for (size_t i = 0; i < nw; i++)
            w.keys[i] = nq_join_squeeze(&sv, raw_w[i]);
        e.count = ne;
        w.count = nw;
        assert_int_equal(nq_join_keys_reserve(&spare, ne > nw ? ne : nw), NQ_OK);
        nq_join_sieve_sort(&sv, &e, &spare, 1, eoff, count);
        assert_int_equal(nq_join_keys_reserve(&spare, ne > nw ? ne : nw), NQ_OK);
        nq_join_sieve_sort(&sv, &w, &spare, classes, woff, count);
        assert_int_equal(eoff[sv.buckets], ne);
        assert_int_equal(woff[classes * sv.buckets], nw);
        for (size_t i = 0; i < ne; i++)
            assert_true(e.keys[i] < 1ull << sv.bits || sv.bits == 0);
        /* every east key lies in its bucket's range */
        for (unsigned b = 0; b < sv.buckets; b++)
            for (size_t i = eoff[b]; i < eoff[b + 1]; i++) {
                const uint64_t y = e.keys[i];
                const unsigned got_b =
                    (unsigned)((y >> sv.cut1) & ((1ull << sv.run1) - 1u)) |
                    (unsigned)((y >> sv.cut2) & ((1ull << sv.run2) - 1u)) << sv.run1;
                assert_int_equal(got_b, b);
            }
        for (unsigned c = 0; c < classes; c++) {
            const uint64_t want = naive_class_pairs(raw_e, ne, raw_w, nw, holes,
                                                    class_bits, classes > 1 ? c : 0);
            for (unsigned l = 0; l < nl; l++) {
                nq_join_matcher mt;
                uint64_t got = 0, got2 = 0;
                mt.block = block;
                mt.fill = rows[l]->fill;
                mt.match = nq_join_match_of(rows[l], nq_cpu_has_vpopcnt());
                mt.chunks = sv.bits ? (sv.bits + NQ_JOIN_CHUNK_BITS - 1) / NQ_JOIN_CHUNK_BITS : 1;
                mt.stop = NULL;
                assert_int_equal(nq_join_sieve_match(&mt, e.keys, eoff, w.keys,
                                                     woff + c * sv.buckets, sv.buckets, &got), NQ_OK);
                assert_int_equal(got, want);
                /* either list may be the stored one */
                assert_int_equal(nq_join_sieve_match(&mt, w.keys, woff + c * sv.buckets,
                                                     e.keys, eoff, sv.buckets, &got2), NQ_OK);
                assert_int_equal(got2, want);
            }
        }
    }
    free(e.keys);
    free(w.keys);
    free(spare.keys);
    free(block);
    free(eoff);
    free(woff);
    free(count);
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_match_naive),
        cmocka_unit_test(test_kernels_take_and_pair),
        cmocka_unit_test(test_cuts_agree),
        cmocka_unit_test(test_batches_agree),
        cmocka_unit_test(test_batches_list_all),
        cmocka_unit_test(test_rowsets_list_all),
        cmocka_unit_test(test_sieve_matches_naive),
        cmocka_unit_test(test_table_limit),
        cmocka_unit_test(test_fit_memory),
        cmocka_unit_test(test_table_bytes),
        cmocka_unit_test(test_table_parts),
        cmocka_unit_test(test_table_shared_build),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_list_sizes),
        cmocka_unit_test(test_unit_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
