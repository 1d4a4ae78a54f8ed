/*
 * join_keys.c - the growing list of a half-board's keys, and the keys of a
 * half listed by a plain backtracking walk over its rows and columns.
 *
 * The walk is the fallback of join_quarter.c's table: it takes no memory
 * beyond the keys, but repeats the same small searches for every split, so
 * the join uses it only when the table would not fit in the memory allowed
 * (and the tests, to check the table against it). Like the table's, its
 * listing comes in batches: it keeps its stack in a cursor, stops when a
 * batch is full and goes on from there in the next call.
 */
#include "join_keys.h"

#include "join_bits.h"
#include "nqc_random.h"

#include <stdlib.h>

int nq_join_keys_reserve(nq_join_keys *k, size_t more)
{
    size_t cap = k->cap ? k->cap : 1024;
    uint64_t *keys;
    if (k->count + more <= k->cap)
        return NQ_OK;
    while (cap < k->count + more)
        cap *= 2;
    keys = realloc(k->keys, cap * sizeof *keys);
    if (!keys)
        return NQ_ENOMEM;
    k->keys = keys;
    k->cap = cap;
    return NQ_OK;
}

/* The free columns of the half's row r, its columns `cols` taken and
 * diagonals d1, d2 held. Diagonal masks are in board indices: bit r + c of
 * d1, bit c - r + n - 1 of d2, so a row's free columns are two shifts
 * away. */
static uint32_t free_cols(const nq_join_half *g, unsigned r, uint32_t cols,
                          uint64_t d1, uint64_t d2)
{
    const uint32_t all = (1u << g->n / 2) - 1u;
    return all & ~cols & ~(uint32_t)(d1 >> (r + g->c0)) &
           ~(uint32_t)(d2 >> (g->c0 + g->n - 1 - r));
}

/* The walk keeps its stack in *cur, so that it can stop between two keys
 * (when the batch is full) and go on from there in the next call. The
 * last row's free columns are pushed all at once. */
int nq_join_walk_keys(nq_join_keys *out, const nq_join_half *g, uint32_t rows,
                      nq_join_cursor *cur, size_t cap)
{
    const uint64_t mask1 = (1ull << g->len1) - 1u, mask2 = (1ull << g->len2) - 1u;
    unsigned row[NQ_MAX_N / 2], nrows = 0, i;
    for (unsigned r = 0; r < g->n; r++)
        if (rows >> r & 1u)
            row[nrows++] = r;
    out->count = 0;
    if (cur->done || nrows == 0) {
        cur->done = 1;
        return NQ_OK;
    }
    if (!cur->started) {
        cur->started = 1;
        cur->depth = 0;
        cur->cols[0] = 0;
        cur->d1[0] = g->bar1;
        cur->d2[0] = g->bar2;
        cur->free[0] = free_cols(g, row[0], 0, g->bar1, g->bar2);
    }
    i = cur->depth;
    for (;;) {
        const unsigned r = row[i];
        const unsigned s1 = r + g->c0, s2 = g->c0 + g->n - 1 - r;
        uint32_t f = cur->free[i];
        if (!f) {
            if (i == 0) {
                cur->done = 1;
                break;
            }
            i--;
            continue;
        }
        if (i + 1 == nrows) {
            const unsigned k = (unsigned)__builtin_popcount(f);
            if (out->count && out->count + k > cap)
                break; /* the batch is full: go on here next time */
            if (nq_join_keys_reserve(out, k) != NQ_OK)
                return NQ_ENOMEM;
            for (; f; f &= f - 1) {
                const uint64_t bit = f & (0u - f);
                const uint64_t d1 = (cur->d1[i] | bit << s1) & ~g->bar1;
                const uint64_t d2 = (cur->d2[i] | bit << s2) & ~g->bar2;
                const uint64_t key = nq_join_squeeze(
                    g->sieve, (d1 >> g->lo1 & mask1) | (d2 >> g->lo2 & mask2) << g->len1);
                out->keys[out->count] = key;
                out->count += !g->need || (key & g->need);
            }
            cur->free[i] = 0;
            continue;
        }
        {
            const uint32_t bit = f & (0u - f);
            cur->free[i] = f & (f - 1);
            cur->cols[i + 1] = cur->cols[i] | bit;
            cur->d1[i + 1] = cur->d1[i] | (uint64_t)bit << s1;
            cur->d2[i + 1] = cur->d2[i] | (uint64_t)bit << s2;
            i++;
            cur->free[i] = free_cols(g, row[i], cur->cols[i], cur->d1[i], cur->d2[i]);
        }
    }
    cur->depth = i;
    return NQ_OK;
}

/* One random walk down half g on rows r[0 .. nrows): at each row a free
 * column at random; @return the product of the numbers of free columns
 * met (0 at a dead end, *key then 0), and sets *key to the leaf's key. */
static double probe(const nq_join_half *g, const unsigned *r, unsigned nrows,
                    uint64_t *seed, uint64_t *key)
{
    uint64_t d1 = g->bar1, d2 = g->bar2;
    uint32_t cols = 0;
    uint64_t weight = 1; /* each row takes one of the half's n / 2 <= 14
                            columns: at most 14! < 2^37 */
    *key = 0;
    for (unsigned i = 0; i < nrows; i++) {
        uint32_t free = free_cols(g, r[i], cols, d1, d2);
        const unsigned options = nq_join_bits32(free);
        if (!options)
            return 0.0;
        /* a column at random: the high bits of a 32 x 32-bit product
         * (Lemire), not a division */
        for (unsigned skip = (unsigned)((nqc_splitmix64(seed) >> 32) * options >> 32); skip;
             skip--)
            free &= free - 1;
        free &= 0u - free;
        cols |= free;
        d1 |= (uint64_t)free << (r[i] + g->c0);
        d2 |= (uint64_t)free << (g->c0 + g->n - 1 - r[i]);
        weight *= options;
    }
    *key = nq_join_squeeze(g->sieve,
                           ((d1 & ~g->bar1) >> g->lo1 & ((1ull << g->len1) - 1u)) |
                           ((d2 & ~g->bar2) >> g->lo2 & ((1ull << g->len2) - 1u))
                               << g->len1);
    return (double)weight;
}

double nq_join_probe_keys(const nq_join_half *g, uint32_t rows, unsigned count,
                          uint64_t *seed, uint64_t *keys, double *weights)
{
    unsigned r[32], nrows = 0;
    double sum = 0.0;
    for (unsigned i = 0; i < g->n && i < 32u; i++)
        if (rows >> i & 1u)
            r[nrows++] = i;
    for (unsigned i = 0; i < count; i++) {
        weights[i] = probe(g, r, nrows, seed, &keys[i]);
        if (g->need && !(keys[i] & g->need)) /* a key the listing leaves out */
            weights[i] = 0.0, keys[i] = 0;
        sum += weights[i];
    }
    return count ? sum / count : 0.0;
}

uint64_t nq_join_small_count(unsigned n, unsigned row, uint32_t cols, uint32_t ld,
                             uint32_t rd)
{
    uint64_t c = 0;
    if (row == n)
        return 1;
    for (uint32_t f = ((1u << n) - 1u) & ~(cols | ld | rd); f; f &= f - 1) {
        uint32_t bit = f & (0u - f);
        c += nq_join_small_count(n, row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return c;
}
