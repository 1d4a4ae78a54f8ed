/*
 * Random solutions: min-conflicts local search.
 *
 * The board keeps one queen per row and counts, for every line (column,
 * diagonal r + c, anti-diagonal r - c + n - 1), how many queens it holds;
 * a row is in conflict when one of its queen's three lines holds another
 * queen. `excess`, the sum over lines of (count - 1) for the occupied ones,
 * is zero exactly for a solution, and every move updates it in O(1).
 *
 * Start: rows are filled in order, each taking an empty column whose two
 * diagonals are free, tried among up to INIT_TRIES random empty columns;
 * failing that, the least-attacked one tried. This greedy start leaves a
 * permutation with only a few dozen conflicts, even for n = 10^6.
 *
 * Repair: pick a random row from the list of conflicted rows, and move its
 * queen to the column with the fewest queens on its three lines, ties
 * broken at random, the current column excluded (a forced move cannot get
 * stuck on a square that is a strict local minimum). For n <= FULL_SCAN_N
 * every column is a candidate; for larger n, SAMPLES random columns and
 * SAMPLES random empty columns are (the empty columns are where conflicts
 * are resolved, and a uniform sample would rarely hit them), which keeps a
 * step O(1). A search that has made no progress for a while restarts from
 * a fresh greedy start; the step bound covers all restarts together.
 *
 * Finding who is hurt: each line also keeps the XOR of the rows on it, so
 * when a line goes from one queen to two, the row of the queen that was
 * already there is that XOR, and it joins the conflict list. Rows that stop
 * being in conflict are dropped from the list lazily, when picked.
 *
 * Determinism: the generator is splitmix64 seeded with the seed, kept on the
 * stack, and only integer arithmetic is used, so the same seed and n give
 * the same placement on every platform and compiler.
 */
#include "nqueens.h"

#include <stdlib.h>

#define INIT_TRIES 8u
#define FULL_SCAN_N 1024u
#define SAMPLES 32u
#define NO_POS UINT32_MAX

/* ---- generator ---------------------------------------------------------- */

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *g)
{
    uint64_t z = (g->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A number in [0, m), m >= 1: the high 32 bits scaled by m (bias < 2^-32
 * relative, irrelevant here, and the same on every platform). */
static uint32_t rng_below(rng *g, uint32_t m)
{
    return (uint32_t)(((rng_next(g) >> 32) * (uint64_t)m) >> 32);
}

/* ---- board ---------------------------------------------------------------- */

/* A set of uint32_t values below n with O(1) insert, remove and random pick. */
typedef struct set {
    uint32_t *item; /* the members, item[0 .. len) */
    uint32_t *pos;  /* pos[v] = index of v in item, or NO_POS */
    uint32_t len;
} set;

static void set_add(set *s, uint32_t v)
{
    if (s->pos[v] == NO_POS) {
        s->pos[v] = s->len;
        s->item[s->len++] = v;
    }
}

static void set_remove(set *s, uint32_t v)
{
    const uint32_t i = s->pos[v];
    if (i != NO_POS) {
        const uint32_t last = s->item[--s->len];
        s->item[i] = last;
        s->pos[last] = i;
        s->pos[v] = NO_POS;
    }
}

typedef struct board {
    uint32_t n;
    uint32_t *col;   /* col[r]: the queen of row r (the caller's array) */
    uint32_t *count; /* queens per line: columns, diagonals, anti-diagonals */
    uint32_t *rows;  /* XOR of the rows of the queens on each line */
    set conflicted;  /* rows that may be in conflict (all that are) */
    set empty;       /* columns without a queen */
    uint64_t excess; /* sum of (count - 1) over occupied lines */
    rng g;
} board;

/* The three lines of square (r, c). */
static void lines_of(const board *b, uint32_t r, uint32_t c, size_t line[3])
{
    const size_t n = b->n;
    line[0] = c;
    line[1] = n + (size_t)r + c;
    line[2] = 3 * n + (size_t)r + (n - 1) - c;
}

static uint32_t attacks(const board *b, uint32_t r, uint32_t c)
{
    size_t line[3];
    lines_of(b, r, c, line);
    return b->count[line[0]] + b->count[line[1]] + b->count[line[2]];
}

static int in_conflict(const board *b, uint32_t r)
{
    size_t line[3];
    lines_of(b, r, b->col[r], line);
    return b->count[line[0]] > 1 || b->count[line[1]] > 1
           || b->count[line[2]] > 1;
}

static void place(board *b, uint32_t r, uint32_t c)
{
    size_t line[3];
    int k, hit = 0;
    lines_of(b, r, c, line);
    for (k = 0; k < 3; k++) {
        const size_t l = line[k];
        if (b->count[l] > 0) {
            hit = 1;
            b->excess++;
            if (b->count[l] == 1)
                set_add(&b->conflicted, b->rows[l]);
        }
        b->count[l]++;
        b->rows[l] ^= r;
    }
    if (hit)
        set_add(&b->conflicted, r);
    set_remove(&b->empty, c);
    b->col[r] = c;
}

static void lift(board *b, uint32_t r)
{
    size_t line[3];
    int k;
    lines_of(b, r, b->col[r], line);
    for (k = 0; k < 3; k++) {
        const size_t l = line[k];
        b->count[l]--;
        b->rows[l] ^= r;
        if (b->count[l] > 0)
            b->excess--;
    }
    if (b->count[line[0]] == 0)
        set_add(&b->empty, b->col[r]);
}

/* Consider candidate column c for row r: keep it if it is strictly better
 * than the best so far, or equal and wins a fair draw among the ties. */
static void consider(board *b, uint32_t r, uint32_t c, uint32_t *best,
                     uint32_t *best_cost, uint32_t *ties)
{
    const uint32_t cost = attacks(b, r, c);
    if (cost < *best_cost) {
        *best = c;
        *best_cost = cost;
        *ties = 1;
    } else if (cost == *best_cost) {
        ++*ties;
        if (rng_below(&b->g, *ties) == 0)
            *best = c;
    }
}

static uint32_t best_column(board *b, uint32_t r)
{
    const uint32_t n = b->n, old = b->col[r];
    uint32_t best = old, best_cost = UINT32_MAX, ties = 0, k;

    if (n <= FULL_SCAN_N) {
        for (k = 0; k < n; k++) {
            if (k != old)
                consider(b, r, k, &best, &best_cost, &ties);
        }
        return best;
    }
    for (k = 0; k < SAMPLES; k++) {
        const uint32_t c = rng_below(&b->g, n);
        if (c != old)
            consider(b, r, c, &best, &best_cost, &ties);
    }
    for (k = 0; k < SAMPLES && b->empty.len > 0; k++) {
        const uint32_t c = b->empty.item[rng_below(&b->g, b->empty.len)];
        consider(b, r, c, &best, &best_cost, &ties);
    }
    return best;
}

/* Empties the board and fills it by the greedy start. */
static void greedy_start(board *b)
{
    const uint32_t n = b->n;
    const size_t lines = 5 * (size_t)n;
    uint32_t r, k;
    size_t i;

    for (i = 0; i < lines; i++) {
        b->count[i] = 0;
        b->rows[i] = 0;
    }
    b->excess = 0;
    b->conflicted.len = 0;
    b->empty.len = 0;
    for (r = 0; r < n; r++) {
        b->conflicted.pos[r] = NO_POS;
        b->empty.pos[r] = NO_POS;
    }
    for (r = 0; r < n; r++)
        set_add(&b->empty, r);

    for (r = 0; r < n; r++) {
        const uint32_t m = b->empty.len;
        const uint32_t tries = m < INIT_TRIES ? m : INIT_TRIES;
        uint32_t best = b->empty.item[0], best_cost = UINT32_MAX;
        for (k = 0; k < tries && best_cost > 0; k++) {
            const uint32_t c =
                b->empty.item[m <= INIT_TRIES ? k : rng_below(&b->g, m)];
            const uint32_t cost = attacks(b, r, c);
            if (cost < best_cost) {
                best = c;
                best_cost = cost;
            }
        }
        place(b, r, best);
    }
}

/* Moves without a new lowest excess before a restart. */
static uint64_t patience(uint32_t n) { return 20 * (uint64_t)n + 2000; }

static int search(board *b, uint64_t max_steps)
{
    uint64_t steps = 0;

    for (;;) {
        uint64_t best_excess, since_best = 0;
        greedy_start(b);
        best_excess = b->excess;
        while (b->excess > 0) {
            uint32_t i, r;
            if (b->conflicted.len == 0)
                return NQ_EINVAL; /* cannot happen: every conflict is listed */
            i = rng_below(&b->g, b->conflicted.len);
            r = b->conflicted.item[i];
            if (!in_conflict(b, r)) {
                set_remove(&b->conflicted, r);
                continue;
            }
            if (steps == max_steps)
                return NQ_ELIMIT;
            steps++;
            {
                const uint32_t c = best_column(b, r);
                lift(b, r);
                place(b, r, c);
            }
            if (b->excess < best_excess) {
                best_excess = b->excess;
                since_best = 0;
            } else if (++since_best > patience(b->n)) {
                break;
            }
        }
        if (b->excess == 0)
            return NQ_OK;
    }
}

int nq_random(uint32_t *out, size_t n, uint64_t seed, uint64_t max_steps)
{
    board b;
    uint32_t *mem;
    int status;

    if (n == 0)
        return NQ_OK;
    if (!out)
        return NQ_EINVAL;
#if SIZE_MAX > UINT32_MAX
    if (n >= UINT32_MAX)
        return NQ_EINVAL; /* rows and NO_POS must fit in uint32_t */
#endif
    if (n == 2 || n == 3)
        return NQ_ENOSOLUTION;
    if (n == 1) {
        out[0] = 0;
        return NQ_OK;
    }
    if (max_steps == 0)
        max_steps = 100 * (uint64_t)n + 1000000;
    if (n > SIZE_MAX / 14 / sizeof *mem)
        return NQ_ENOMEM;

    /* count and rows: 5n each (n columns, 2n diagonal slots twice); the two
     * sets: 2n each. */
    mem = malloc(14 * n * sizeof *mem);
    if (!mem)
        return NQ_ENOMEM;
    b.n = (uint32_t)n;
    b.col = out;
    b.count = mem;
    b.rows = mem + 5 * n;
    b.conflicted.item = mem + 10 * n;
    b.conflicted.pos = mem + 11 * n;
    b.empty.item = mem + 12 * n;
    b.empty.pos = mem + 13 * n;
    b.g.state = seed;

    status = search(&b, max_steps);
    free(mem);
    return status;
}
