/*
 * test_join_pass.c - a long east list met by pattern (join_pass.c): the
 * passes cover every east key exactly once, fit their batch where the
 * bits allow, split further only where it pays, leave the buckets' bits
 * alone, are chosen by the weights of the walks that stand for the
 * lists, keep what they say and bar the diagonals of the right bits.
 * That the counts do not change is test_join.c's (test_batches_agree).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "methods/join/join_half.h"
#include "methods/join/join_pass.h"
#include "methods/join/join_sieve.h"

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* n weights of 1. */
static double *ones(size_t n)
{
    double *w = malloc(n * sizeof *w);
    assert_non_null(w);
    for (size_t i = 0; i < n; i++)
        w[i] = 1.0;
    return w;
}

/* n keys of `bits` bits, bit b set with chance about share[b % 4] / 8. */
static uint64_t *keys_of(size_t n, unsigned bits, uint64_t seed)
{
    static const unsigned share[4] = { 6, 4, 2, 5 };
    uint64_t *k = malloc(n * sizeof *k);
    assert_non_null(k);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = 0;
        for (unsigned b = 0; b < bits; b++)
            x |= (uint64_t)((next(&seed) & 7u) < share[b % 4]) << b;
        k[i] = x | (uint64_t)(i & 3u) << NQ_JOIN_CLASS_SHIFT; /* flags: ignored */
    }
    return k;
}

static void test_passes_cover_once(void **state)
{
    static const size_t batches[] = { 1, 5, 100, 3000, 100000 };
    nq_join_sieve sv;
    nq_join_passes *ps = malloc(sizeof *ps);
    const size_t n = 20000;
    uint64_t *east = keys_of(n, 40, 1), *west = keys_of(n, 40, 2);
    double *w = ones(n);
    unsigned char *seen = malloc(n);
    (void)state;
    assert_non_null(ps);
    assert_non_null(seen);
    memset(&sv, 0, sizeof sv);
    nq_join_sieve_holes(&sv, 0, 0, 20, 20);
    nq_join_sieve_cuts(&sv, 6);
    for (size_t bi = 0; bi < sizeof batches / sizeof *batches; bi++) {
        const size_t batch = batches[bi];
        nq_join_passes_bits(ps, &sv, east, w, n, west, w, n);
        assert_true(ps->bits > 0 && ps->bits <= NQ_JOIN_PASS_BITS);
        for (unsigned i = 0; i < ps->bits; i++) {
            const unsigned b = ps->bit[i];
            assert_true(b < sv.bits);
            assert_false(b >= sv.cut1 && b < sv.cut1 + sv.run1); /* not a bucket bit */
            assert_false(b >= sv.cut2 && b < sv.cut2 + sv.run2);
            assert_true(b % 4 != 2); /* the rarest bits are left out */
            for (unsigned j = 0; j < i; j++)
                assert_int_not_equal(ps->bit[j], b);
        }
        nq_join_passes_count(ps, ps->count, east, n);
        nq_join_passes_count(ps, ps->west, west, n);
        nq_join_passes_plan(ps, batch);
        assert_true(ps->npass >= 1 && ps->npass <= 1u << ps->bits);
        memset(seen, 0, n);
        for (unsigned i = 0; i < ps->npass; i++) {
            uint64_t mask, want;
            size_t in = 0;
            nq_join_pass_filter(ps, i, &mask, &want);
            assert_int_equal(want & ~mask, 0);
            for (size_t j = 0; j < n; j++)
                if ((east[j] & mask) == want) {
                    seen[j]++;
                    in++;
                }
            assert_true(in > 0); /* no empty pass */
            assert_true(in <= batch || ps->pass[i].depth == ps->bits);
        }
        for (size_t j = 0; j < n; j++)
            assert_int_equal(seen[j], 1);
        if (batch >= n)
            assert_int_equal(ps->npass, 1);
    }
    free(east);
    free(west);
    free(w);
    free(seen);
    free(ps);
}

/* The bits are chosen by the keys' weights (random walks: a key stands
 * for as many as its weight, a dead end for none), not by their number. */
static void test_bits_by_weight(void **state)
{
    nq_join_sieve sv;
    nq_join_passes *ps = malloc(sizeof *ps);
    const size_t n = 4000;
    uint64_t *east = keys_of(n, 40, 3), *west = keys_of(n, 40, 4);
    double *we = ones(n), *ww = ones(n);
    (void)state;
    assert_non_null(ps);
    memset(&sv, 0, sizeof sv);
    nq_join_sieve_holes(&sv, 0, 0, 20, 20);
    nq_join_sieve_cuts(&sv, 6);
    /* bit 2 is one of the rarest: never chosen with equal weights */
    nq_join_passes_bits(ps, &sv, east, we, n, west, ww, n);
    for (unsigned i = 0; i < ps->bits; i++)
        assert_int_not_equal(ps->bit[i], 2);
    /* the keys that hold it weigh 20 times the others: chosen first */
    for (size_t i = 0; i < n; i++) {
        we[i] = east[i] >> 2 & 1u ? 20.0 : 1.0;
        ww[i] = west[i] >> 2 & 1u ? 20.0 : 1.0;
    }
    nq_join_passes_bits(ps, &sv, east, we, n, west, ww, n);
    assert_true(ps->bits > 0);
    assert_int_equal(ps->bit[0], 2);
    /* bit 0, the commonest, held only by keys of weight 0 (dead ends):
     * never chosen */
    for (size_t i = 0; i < n; i++) {
        we[i] = east[i] & 1u ? 0.0 : 1.0;
        ww[i] = west[i] & 1u ? 0.0 : 1.0;
    }
    nq_join_passes_bits(ps, &sv, east, we, n, west, ww, n);
    assert_true(ps->bits > 0);
    for (unsigned i = 0; i < ps->bits; i++)
        assert_int_not_equal(ps->bit[i], 0);
    free(east);
    free(west);
    free(we);
    free(ww);
    free(ps);
}

/* Lists that fit their batch are still cut where the pairs dropped cost
 * more to meet than the listings added (NQ_JOIN_PASS_PAIR_PER_KEY), and
 * only there. */
static void test_split_where_it_pays(void **state)
{
    nq_join_passes *ps = calloc(1, sizeof *ps);
    (void)state;
    assert_non_null(ps);
    ps->bits = 4;
    for (unsigned i = 0; i < 4; i++)
        ps->bit[i] = (uint8_t)i;
    /* long lists: every split pays, down to the last bit */
    for (unsigned q = 0; q < 16; q++)
        ps->count[q] = ps->west[q] = 100000000u;
    nq_join_passes_plan(ps, (size_t)1 << 40);
    assert_int_equal(ps->npass, 16);
    for (unsigned i = 0; i < ps->npass; i++)
        assert_int_equal(ps->pass[i].depth, 4);
    /* short lists: none does, one pass */
    for (unsigned q = 0; q < 16; q++)
        ps->count[q] = ps->west[q] = 10u;
    nq_join_passes_plan(ps, (size_t)1 << 40);
    assert_int_equal(ps->npass, 1);
    assert_int_equal(ps->pass[0].depth, 0);
    /* what they cost: one pass meets every pair, lists each list once */
    {
        double pairs, east, west;
        nq_join_passes_cost(ps, (size_t)1 << 40, &pairs, &east, &west);
        assert_true(pairs == 160.0 * 160.0);
        assert_true(east == 160.0 && west == 160.0);
        /* a batch of 16 keys: the east list must be cut, and the passes
         * meet fewer pairs */
        nq_join_passes_plan(ps, 16);
        assert_true(ps->npass > 1);
        nq_join_passes_cost(ps, 16, &pairs, &east, &west);
        assert_true(pairs < 160.0 * 160.0);
    }
    free(ps);
}

static void test_no_bits_worth_it(void **state)
{
    nq_join_sieve sv;
    nq_join_passes *ps = malloc(sizeof *ps);
    uint64_t east[64], west[64];
    double w[64];
    (void)state;
    assert_non_null(ps);
    memset(&sv, 0, sizeof sv);
    nq_join_sieve_holes(&sv, 0, 0, 20, 20);
    nq_join_sieve_cuts(&sv, 4);
    /* no key bit that both lists hold: no pattern helps */
    for (unsigned i = 0; i < 64; i++) {
        east[i] = 0x5555555555ull;
        west[i] = 0xAAAAAAAAAAull;
        w[i] = 1.0;
    }
    nq_join_passes_bits(ps, &sv, east, w, 64, west, w, 64);
    assert_int_equal(ps->bits, 0);
    nq_join_passes_bits(ps, &sv, east, w, 0, west, w, 64);
    assert_int_equal(ps->bits, 0);
    /* keys that share every bit, but all of weight 0: nothing to go by */
    for (unsigned i = 0; i < 64; i++) {
        west[i] = east[i];
        w[i] = 0.0;
    }
    nq_join_passes_bits(ps, &sv, east, w, 64, west, w, 64);
    assert_int_equal(ps->bits, 0);
    free(ps);
}

/* Squeezed key bits back to the diagonals they stand for: holes skipped,
 * direction 1's bits from lo1, direction 2's from lo2. */
static void test_bars_of_bits(void **state)
{
    nq_join_sieve sv;
    nq_join_half g;
    uint64_t b1, b2;
    (void)state;
    memset(&sv, 0, sizeof sv);
    memset(&g, 0, sizeof g);
    g.lo1 = 3;
    g.len1 = 5;
    g.lo2 = 7;
    g.len2 = 4;
    /* unsqueezed bits 1 and 6 are holes: squeezed bit j stands for
     * unsqueezed 0, 2, 3, 4, 5, 7, 8 */
    nq_join_sieve_holes(&sv, 1u << 1 | 1u << 6, 0, 5, 4);
    nq_join_pass_bars(&sv, &g, 1u << 1 | 1u << 4 | 1u << 6, &b1, &b2);
    assert_int_equal(b1, 1u << 5);           /* unsqueezed 2: diagonal 2 + 3 */
    assert_int_equal(b2, 1u << 7 | 1u << 10); /* unsqueezed 5 and 8: 0 + 7, 3 + 7 */
    nq_join_pass_bars(&sv, &g, 1u << 0 | 1u << 5, &b1, &b2);
    assert_int_equal(b1, 1u << 3);
    assert_int_equal(b2, 1u << 9);
    nq_join_pass_bars(&sv, &g, 0, &b1, &b2);
    assert_int_equal(b1 | b2, 0);
}

static void test_keep(void **state)
{
    uint64_t k[9] = { 0, 1, 2, 3, 5, 7, 8, 9, 15 }, all[9];
    size_t m;
    (void)state;
    memcpy(all, k, sizeof k);
    m = nq_join_keep(k, 9, 3, 1); /* low two bits 01 */
    assert_int_equal(m, 3);
    assert_int_equal(k[0], 1);
    assert_int_equal(k[1], 5);
    assert_int_equal(k[2], 9);
    memcpy(k, all, sizeof k);
    m = nq_join_keep(k, 9, 9, 0); /* neither bit 0 nor bit 3 */
    assert_int_equal(m, 2);
    assert_int_equal(k[0], 0);
    assert_int_equal(k[1], 2);
    memcpy(k, all, sizeof k);
    assert_int_equal(nq_join_keep(k, 9, 0, 0), 9);
    assert_memory_equal(k, all, sizeof k);
    assert_int_equal(nq_join_keep(k, 0, 1, 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_passes_cover_once),
        cmocka_unit_test(test_bits_by_weight),
        cmocka_unit_test(test_split_where_it_pays),
        cmocka_unit_test(test_no_bits_worth_it),
        cmocka_unit_test(test_bars_of_bits),
        cmocka_unit_test(test_keep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
