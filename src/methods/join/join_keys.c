/*
 * join_keys.c - the growing list of a half-board's keys, and the keys of a
 * half listed by a plain backtracking walk over its rows and columns.
 *
 * The walk is the fallback of join_quarter.c's table: it takes no memory
 * beyond the keys, but repeats the same small searches for every split, so
 * the join uses it only when the table would not fit in the memory allowed
 * (and the tests, to check the table against it).
 */
#include "join_internal.h"

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

typedef struct half_walk {
    const nq_join_half *g;
    nq_join_keys *out;
    unsigned nrows;
    unsigned rows[NQ_MAX_N / 2]; /* the half's h rows, top to bottom */
    uint32_t all;       /* the half's h columns, as bits 0 .. h-1 */
    int nomem;
} half_walk;

static void push_key(half_walk *w, uint64_t d1, uint64_t d2)
{
    const nq_join_half *g = w->g;
    if (nq_join_keys_reserve(w->out, 1) != NQ_OK) {
        w->nomem = 1;
        return;
    }
    w->out->keys[w->out->count++] = nq_join_squeeze(
        g->sieve, ((d1 & ~g->bar1) >> g->lo1 & ((1ull << g->len1) - 1u)) |
                  ((d2 & ~g->bar2) >> g->lo2 & ((1ull << g->len2) - 1u)) << g->len1);
}

/* Diagonal masks are in board indices: bit r + c of d1, bit c - r + n - 1
 * of d2, so a row's free columns are two shifts away. */
static void walk(half_walk *w, unsigned i, uint32_t cols, uint64_t d1,
                 uint64_t d2)
{
    const unsigned r = w->rows[i];
    const unsigned s1 = r + w->g->c0, s2 = w->g->c0 + w->g->n - 1 - r;
    uint32_t free = w->all & ~cols & ~(uint32_t)(d1 >> s1) & ~(uint32_t)(d2 >> s2);
    if (i + 1 == w->nrows) {
        for (; free; free &= free - 1) {
            uint64_t bit = free & (0u - free);
            push_key(w, d1 | bit << s1, d2 | bit << s2);
        }
        return;
    }
    for (; free; free &= free - 1) {
        uint32_t bit = free & (0u - free);
        walk(w, i + 1, cols | bit, d1 | (uint64_t)bit << s1,
             d2 | (uint64_t)bit << s2);
    }
}

int nq_join_walk_keys(nq_join_keys *out, const nq_join_half *g, uint32_t rows)
{
    half_walk w;
    w.g = g;
    w.out = out;
    w.nrows = 0;
    w.all = (1u << g->n / 2) - 1u;
    w.nomem = 0;
    for (unsigned r = 0; r < g->n; r++)
        if (rows >> r & 1u)
            w.rows[w.nrows++] = r;
    out->count = 0;
    walk(&w, 0, 0, g->bar1, g->bar2);
    return w.nomem ? NQ_ENOMEM : NQ_OK;
}
