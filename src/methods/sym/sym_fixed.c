/*
 * sym_fixed.c - the solutions of a constellation that a quarter or half
 * turn maps to themselves (sym_fixed.h).
 *
 * The unique count of a constellation fixed by a turn g needs fix(g): how
 * many of its solutions g leaves as they are (Burnside, see sym.c). Such a
 * solution is made of whole orbits of g: with a queen on (r, c) it has
 * one on g(r, c), g(g(r, c)), ... So this search places a queen and its
 * orbit at once, in the first row still empty: after a half turn's orbit
 * of (r, c) the row n-1-r is filled too, after a quarter turn's the rows
 * c, n-1-r and n-1-c, so it branches in a half (a quarter) of the rows
 * only, and its tree is tiny beside the constellation's own walk, which
 * the kernels count. Columns and both diagonal families are bit masks; the
 * centre square of an odd board is its own orbit.
 */
#include "sym_fixed.h"

/* The search's state. */
typedef struct fixed_walk {
    unsigned n, g;
    int col[NQ_MAX_N];  /* the queen's column in each row, -1: none yet */
    uint32_t cols;      /* columns taken */
    uint64_t down, up;  /* diagonals taken: r - c + n - 1, and r + c */
    uint64_t count;
    unsigned poll;
    const nq_stop_flag *stop;
} fixed_walk;

/* Whether a queen may go on (r, c): its row, column and diagonals free. */
static int is_free(const fixed_walk *w, unsigned r, unsigned c)
{
    return w->col[r] < 0 && !(w->cols >> c & 1u) &&
           !(w->down >> (r - c + w->n - 1) & 1u) && !(w->up >> (r + c) & 1u);
}

static void put(fixed_walk *w, unsigned r, unsigned c)
{
    w->col[r] = (int)c;
    w->cols |= 1u << c;
    w->down |= (uint64_t)1 << (r - c + w->n - 1);
    w->up |= (uint64_t)1 << (r + c);
}

static void take(fixed_walk *w, unsigned r, unsigned c)
{
    w->col[r] = -1;
    w->cols &= ~(1u << c);
    w->down &= ~((uint64_t)1 << (r - c + w->n - 1));
    w->up &= ~((uint64_t)1 << (r + c));
}

/* Places the orbit of (r, c) under the turn: @return how many queens it
 * put (its orbit's size), or 0 when some square of it is not free (then
 * nothing is left placed). The orbit's own queens are checked against
 * each other as they go in. */
static unsigned put_orbit(fixed_walk *w, unsigned r, unsigned c, unsigned pr[4],
                          unsigned pc[4])
{
    const unsigned m = w->n - 1, size = w->g == 1 ? 4u : 2u;
    unsigned k = 0;
    pr[0] = r;
    pc[0] = c;
    for (unsigned i = 1; i < size; i++) {
        /* quarter turn: (r, c) -> (c, m - r); half turn: (m - r, m - c) */
        if (w->g == 1) {
            pr[i] = pc[i - 1];
            pc[i] = m - pr[i - 1];
        } else {
            pr[i] = m - pr[i - 1];
            pc[i] = m - pc[i - 1];
        }
    }
    for (; k < size; k++) {
        if (k > 0 && pr[k] == pr[0] && pc[k] == pc[0])
            break; /* the centre: an orbit of one */
        if (!is_free(w, pr[k], pc[k])) {
            while (k > 0) {
                k--;
                take(w, pr[k], pc[k]);
            }
            return 0;
        }
        put(w, pr[k], pc[k]);
    }
    return k;
}

/* Counts the completions with the rows from `row` on; @return NQ_OK or
 * NQ_ECANCELED. */
static int search(fixed_walk *w, unsigned row)
{
    while (row < w->n && w->col[row] >= 0)
        row++;
    if (row == w->n) {
        w->count++;
        return NQ_OK;
    }
    if (--w->poll == 0) {
        w->poll = NQ_SYM_POLL_STEPS;
        if (nq_stopped(w->stop))
            return NQ_ECANCELED;
    }
    for (unsigned c = 0; c < w->n; c++) {
        unsigned pr[4], pc[4], k;
        int rc;
        if (w->cols >> c & 1u)
            continue;
        k = put_orbit(w, row, c, pr, pc);
        if (k == 0)
            continue;
        rc = search(w, row + 1);
        while (k > 0) {
            k--;
            take(w, pr[k], pc[k]);
        }
        if (rc != NQ_OK)
            return rc;
    }
    return NQ_OK;
}

int nq_sym_fixed(uint64_t *out, unsigned n, const nq_sym_constellation *cn,
                 unsigned g, const nq_stop_flag *stop)
{
    fixed_walk w;
    const unsigned m = n - 1;
    const unsigned qr[4] = {0, m, cn->c, cn->d}, qc[4] = {cn->a, cn->b, 0, m};
    int rc;

    if (n < 6 || n > NQ_MAX_N || (g != 1 && g != 2) || cn->bottom)
        return NQ_EINVAL;
    w.n = n;
    w.g = g;
    for (unsigned r = 0; r < n; r++)
        w.col[r] = -1;
    w.cols = 0;
    w.down = w.up = 0;
    w.count = 0;
    w.poll = NQ_SYM_POLL_STEPS;
    w.stop = stop;
    /* the border queens (a corner queen is on two border lines: once) */
    for (unsigned i = 0; i < 4; i++) {
        if (w.col[qr[i]] == (int)qc[i])
            continue;
        if (!is_free(&w, qr[i], qc[i])) {
            *out = 0;
            return NQ_OK;
        }
        put(&w, qr[i], qc[i]);
    }
    rc = search(&w, 1);
    if (rc == NQ_OK)
        *out = w.count;
    return rc;
}
