/*
 * sym.c - the symmetry counting method: unit list, small-n path, the
 * constellations fixed by a turn, and the symmetry bookkeeping. The interior
 * walk itself is a kernel (sym_kernel.h: sym_scalar.c, sym_avx2.c, ...).
 *
 * Design note
 * -----------
 * The walk. Rows are filled top to bottom; a row is a bit mask over the n
 * columns (bit c = column c). Three masks describe what the queens placed
 * so far attack in the current row: `cols` (their columns), `ld` (the
 * diagonals running down-right, which move one column left-to-right, i.e.
 * one bit up, per row) and `rd` (down-left, one bit down per row). The free
 * squares of a row are ~(cols | ld | rd) & allowed, and `f & -f` isolates
 * the lowest of them in two instructions, with no loop over columns. The
 * walk keeps its own stack of (free, cols, ld, rd) instead of recursing;
 * the last row is never entered: from the last-but-one row, each candidate
 * is completed or not by a single mask test.
 *
 * Constellations. Every solution has exactly one queen on each border line
 * of the board: row 0, row n-1, column 0 and column n-1 (a corner queen
 * serves two lines). Call this set of two to four queens the solution's
 * constellation. The eight symmetries of the square map border lines onto
 * border lines, so the constellation of g(S) is g(constellation of S), and
 * g is a bijection between the solutions of a constellation C and those of
 * g(C). Hence the solutions of the whole orbit of C number
 * |orbit(C)| * count(C) with |orbit(C)| = 8 / |H|, H the stabiliser of C.
 * We list all border placements of non-attacking queens, keep the smallest
 * (by an encoding of its four border positions, nq_sym_key) of each orbit,
 * and search only its interior: the rows without a border queen, with
 * every square a border queen attacks removed in advance (`allowed`), and
 * with the diagonal masks moved by 2 or 3 rows at once where rows are
 * skipped. The four border queens prune the interior from its first row on.
 *
 * Sharing the top rows. Searched one by one, constellations that differ
 * only in their bottom queen (row n-1) repeat the same search of the upper
 * rows, which the bottom queen prunes little: at n = 16 the interior
 * walks visited 336 million nodes, against 563 million of the plain walk,
 * which only halves its work by the mirror. So all canonical constellations
 * with the same (a, c, d) (row-0 queen, the rows of the side queens) and a
 * trivial stabiliser form one group, walked once: the bottom row becomes the walk's last level, its
 * allowed squares the group's bottom columns. Every solution found is then
 * one of a canonical constellation of the group, with weight 8. A queen in
 * a bottom corner is also a side queen, so it stays in its own
 * constellation, as does every constellation with a nontrivial stabiliser.
 *
 * The canonical form is chosen for these groups. Which member of an orbit
 * is smallest decides which queens are fixed and which row is shared, and
 * that changes the work by a large factor: the key puts the row-0 queen as
 * near the middle column as the orbit allows, then the side queens as low
 * as possible, then the bottom queen. This order was chosen by measuring
 * the alternatives (lexicographic (a, b, c, d), which puts the row-0 queen
 * nearest a corner; side queens high; side queens low with the row-0 queen
 * near a corner): at n = 15 the interior walks visit 51.5 million nodes
 * ungrouped, 38.3 million grouped under the lexicographic key, 34.9 with
 * the side queens low, 30.9 with this key (bench/nq_nodes counts them).
 *
 * Unique solutions. Burnside within one orbit of constellations: the
 * solutions of the orbit fall into (1/8) * sum over g of fix(g) classes,
 * and only g that fix a constellation can fix one of its solutions, which
 * gives, per canonical C, (count + sum over h != 1 in H of fix_C(h)) / |H|.
 * No solution of n >= 2 is fixed by a reflection (a mirror-symmetric
 * placement would need a queen on the axis in every row, or two queens on
 * one diagonal), so for H without rotations this is count / |H|, and H has
 * order 1 or 2 then. Only the rare C fixed by a quarter or half turn need
 * the fixed solutions themselves: they are walked by a slower scalar search
 * that keeps the queens' columns and tests each solution for the turn.
 *
 * Units. A unit is one group or one single constellation. From n =
 * NQ_SYM_SPLIT_N on, entries with a trivial stabiliser are split further:
 * groups by the columns of their first two interior queens up to n = 27,
 * single constellations (and groups at n = 28) by the first one only. That
 * keeps units short (at n = 20 some 10 ms on average with AVX-512, the
 * longest, unsplit constellations fixed by a turn and walked by the scalar
 * search below, about 0.2 s) and the list below a million units (849,057 at
 * n = 27; 63,750 at n = 28, where two levels would give 1.06 million).
 * Constellations with a nontrivial stabiliser are never split, because
 * their unique share ((count + fixed) / |H|) is only an integer for the
 * whole constellation. The list depends on n alone: entries in the order of
 * the nested loops over (a, c, d), for each first the group, then the
 * single constellations by bottom queen, splits in increasing columns.
 *
 * n <= 5 is one unit solved by brute force with an explicit symmetry test
 * of each solution: the border argument needs distinct border lines and an
 * interior, and these boards are tiny anyway.
 */
#include "sym.h"

#include <stdlib.h>

#include "platform/cpu.h"
#include "sym_border.h"
#include "sym_kernel.h"

/* Boards from this size on split constellations by their first interior
 * queen (see the design note). */
#define NQ_SYM_SPLIT_N 20u
/* Below this size, groups are split by their first two interior queens;
 * from it on by the first only (see the design note). */
#define NQ_SYM_SPLIT2_MAX_N 28u
/* Boards up to this size are a single brute-force unit. */
#define NQ_SYM_SMALL_N 5u
/* Marks a unit that is a whole constellation. */
#define NQ_SYM_NO_SPLIT 0xffu

/* The eight symmetries, as maps of square (r, c): 0 identity, 1-3 quarter,
 * half and three-quarter turns, 4-7 the reflections. */
#define NQ_SYM_ROTATIONS 0x0eu

typedef struct nq_sym_unit {
    uint32_t constellation; /* index into plan->cons */
    uint8_t first;          /* column of the queen of level 0, or NQ_SYM_NO_SPLIT */
    uint8_t second;         /* column of the queen of level 1, or NQ_SYM_NO_SPLIT */
} nq_sym_unit;

struct nq_sym_plan {
    unsigned n;
    /* nq_cpu_simd_best(), asked once: CPUID is slow where a hypervisor
     * traps it (some 0.2 ms a call), far too slow to ask per unit. */
    nq_simd cpu_best;
    size_t ncons;
    nq_sym_constellation *cons;
    uint64_t nunits;
    nq_sym_unit *units;
};

/* ========================================================================
 * Plan
 * ======================================================================== */

/* How many levels of a unit's walk its unit fixes: 0, 1 or 2 (see the
 * design note). Only entries with a trivial stabiliser are split. */
static unsigned nq_sym_split_depth(unsigned n, const nq_sym_constellation *cn)
{
    if (n < NQ_SYM_SPLIT_N || cn->stab != 1)
        return 0;
    return cn->bottom && n < NQ_SYM_SPLIT2_MAX_N ? 2 : 1;
}

/* Lists the units of constellation i from index k on (when units is not
 * NULL). @return how many there are. */
static uint64_t nq_sym_list_units(unsigned n, const nq_sym_constellation *cn,
                                  uint32_t i, nq_sym_unit *units, uint64_t k)
{
    unsigned depth = nq_sym_split_depth(n, cn);
    if (depth == 0) {
        if (units)
            units[k] = (nq_sym_unit){ i, NQ_SYM_NO_SPLIT, NQ_SYM_NO_SPLIT };
        return 1;
    }
    nq_sym_board bd;
    nq_sym_make_board(&bd, NULL, n, cn);
    uint64_t m = 0;
    for (uint32_t f = bd.allowed[0]; f; f &= f - 1) {
        uint32_t bit = f & (0u - f);
        if (depth == 1) {
            if (units)
                units[k + m] = (nq_sym_unit){ i, (uint8_t)__builtin_ctz(bit),
                                              NQ_SYM_NO_SPLIT };
            m++;
            continue;
        }
        const unsigned s = bd.shift[0];
        uint32_t g = bd.allowed[1] & ~(bit | (bit << s) | (bit >> s));
        for (; g; g &= g - 1) {
            if (units)
                units[k + m] = (nq_sym_unit){ i, (uint8_t)__builtin_ctz(bit),
                                              (uint8_t)__builtin_ctz(g) };
            m++;
        }
    }
    return m;
}

int nq_sym_plan_build(nq_sym_plan **out, unsigned n)
{
    if (!out)
        return NQ_EINVAL;
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    nq_sym_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ENOMEM;
    p->n = n;
    p->cpu_best = nq_cpu_simd_best();
    if (n <= NQ_SYM_SMALL_N) {
        /* One brute-force unit; it needs no list. */
        p->nunits = 1;
        *out = p;
        return NQ_OK;
    }
    p->ncons = nq_sym_enumerate(n, NULL);
    p->cons = malloc(p->ncons * sizeof *p->cons);
    if (!p->cons) {
        nq_sym_plan_free(p);
        return NQ_ENOMEM;
    }
    nq_sym_enumerate(n, p->cons);

    /* Two passes over the constellations: count the units, then list them. */
    uint64_t k = 0;
    for (size_t i = 0; i < p->ncons; i++)
        k += nq_sym_list_units(n, &p->cons[i], (uint32_t)i, NULL, 0);
    p->nunits = k;
    p->units = malloc((size_t)k * sizeof *p->units);
    if (!p->units) {
        nq_sym_plan_free(p);
        return NQ_ENOMEM;
    }
    k = 0;
    for (size_t i = 0; i < p->ncons; i++)
        k += nq_sym_list_units(n, &p->cons[i], (uint32_t)i, p->units, k);
    *out = p;
    return NQ_OK;
}

uint64_t nq_sym_plan_size(const nq_sym_plan *plan)
{
    return plan ? plan->nunits : 0;
}

void nq_sym_plan_free(nq_sym_plan *plan)
{
    if (!plan)
        return;
    free(plan->cons);
    free(plan->units);
    free(plan);
}

/* ========================================================================
 * Constellations fixed by a turn: walk keeping the queens' columns
 * ======================================================================== */

typedef struct nq_sym_track {
    const nq_sym_board *bd;
    const unsigned *rows; /* board row of each level */
    unsigned n;
    unsigned col[NQ_MAX_N]; /* column of the queen in each board row */
    uint64_t count, fix90, fix180;
    unsigned poll;
    const nq_stop_flag *stop;
} nq_sym_track;

static int nq_sym_track_walk(nq_sym_track *t, unsigned d, uint32_t cols,
                             uint32_t ld, uint32_t rd)
{
    const nq_sym_board *bd = t->bd;
    uint32_t f = bd->allowed[d] & ~(cols | ld | rd);
    if (--t->poll == 0) {
        t->poll = NQ_SYM_POLL_STEPS;
        if (nq_stopped(t->stop))
            return NQ_ECANCELED;
    }
    while (f) {
        uint32_t bit = f & (0u - f);
        f ^= bit;
        t->col[t->rows[d]] = (unsigned)__builtin_ctz(bit);
        if (d + 1 < bd->levels) {
            unsigned s = bd->shift[d];
            int rc = nq_sym_track_walk(t, d + 1, cols | bit, (ld | bit) << s,
                                       (rd | bit) >> s);
            if (rc != NQ_OK)
                return rc;
            continue;
        }
        const unsigned n = t->n, m = n - 1;
        int half = 1, quarter = 1;
        for (unsigned r = 0; r < n; r++) {
            half &= t->col[m - r] == m - t->col[r];
            quarter &= t->col[t->col[r]] == m - r;
        }
        t->count++;
        t->fix180 += (unsigned)half;
        t->fix90 += (unsigned)quarter;
    }
    return NQ_OK;
}

/* ========================================================================
 * n <= 5: brute force with an explicit symmetry test
 * ======================================================================== */

/* Adds to *total the solutions completing rows 0..r-1 of col, and to *fixed
 * the sum of their stabiliser orders (Burnside: unique = fixed / 8). */
static void nq_sym_small_walk(unsigned n, unsigned r, unsigned col[],
                              uint64_t *total, uint64_t *fixed)
{
    if (r == n) {
        for (unsigned g = 0; g < 8; g++) {
            unsigned img[NQ_SYM_SMALL_N];
            for (unsigned i = 0; i < n; i++) {
                unsigned ir, ic;
                nq_sym_map(g, n, i, col[i], &ir, &ic);
                img[ir] = ic;
            }
            unsigned same = 1;
            for (unsigned i = 0; i < n; i++)
                same &= img[i] == col[i];
            *fixed += same;
        }
        ++*total;
        return;
    }
    for (unsigned c = 0; c < n; c++) {
        unsigned ok = 1;
        for (unsigned i = 0; i < r; i++)
            ok &= !nq_sym_attack(i, col[i], r, c);
        if (ok) {
            col[r] = c;
            nq_sym_small_walk(n, r + 1, col, total, fixed);
        }
    }
}

/* ========================================================================
 * Units
 * ======================================================================== */

/* The start node of unit u on its board bd: the queens it fixes placed. */
static void nq_sym_start(nq_sym_node *start, const nq_sym_board *bd,
                         const nq_sym_unit *u)
{
    *start = (nq_sym_node){ 0, 0, 0, 0 };
    if (u->first != NQ_SYM_NO_SPLIT) {
        uint32_t bit = 1u << u->first;
        start->level = 1;
        start->cols = bit;
        start->ld = bit << bd->shift[0];
        start->rd = bit >> bd->shift[0];
    }
    if (u->second != NQ_SYM_NO_SPLIT) {
        uint32_t bit = 1u << u->second;
        start->level = 2;
        start->cols |= bit;
        start->ld = (start->ld | bit) << bd->shift[1];
        start->rd = (start->rd | bit) >> bd->shift[1];
    }
}

int nq_sym_unit_walk(const nq_sym_plan *plan, uint64_t unit,
                     nq_sym_board *board, nq_sym_node *start)
{
    if (!plan || !board || !start || unit >= plan->nunits ||
        plan->n <= NQ_SYM_SMALL_N)
        return NQ_EINVAL;
    const nq_sym_unit *u = &plan->units[unit];
    nq_sym_make_board(board, NULL, plan->n, &plan->cons[u->constellation]);
    nq_sym_start(start, board, u);
    return NQ_OK;
}

int nq_sym_solve_unit(const nq_sym_plan *plan, uint64_t unit, nq_simd simd,
                      const nq_stop_flag *stop, nq_unit_result *out)
{
    if (!plan || !out || unit >= plan->nunits)
        return NQ_EINVAL;
    if (simd == NQ_SIMD_AUTO || !nq_simd_name(simd))
        return NQ_EINVAL;
    const nq_sym_kernel_fn kernel = nq_sym_kernel_of(simd);
    if (!kernel || !nq_cpu_runs(plan->cpu_best, simd))
        return NQ_EUNSUPPORTED;
    if (nq_stopped(stop))
        return NQ_ECANCELED;

    const unsigned n = plan->n;
    if (n <= NQ_SYM_SMALL_N) {
        unsigned col[NQ_SYM_SMALL_N];
        uint64_t total = 0, fixed = 0;
        nq_sym_small_walk(n, 0, col, &total, &fixed);
        out->total = total;
        out->unique = fixed / 8;
        return NQ_OK;
    }

    const nq_sym_unit *u = &plan->units[unit];
    const nq_sym_constellation *cn = &plan->cons[u->constellation];
    nq_sym_board bd;
    unsigned rows[NQ_SYM_MAX_LEVELS];
    nq_sym_make_board(&bd, rows, n, cn);
    const unsigned order = nq_sym_order(cn->stab);

    if (cn->stab & NQ_SYM_ROTATIONS) {
        nq_sym_track t;
        t.bd = &bd;
        t.rows = rows;
        t.n = n;
        t.count = t.fix90 = t.fix180 = 0;
        t.poll = NQ_SYM_POLL_STEPS;
        t.stop = stop;
        t.col[0] = cn->a;
        t.col[n - 1] = cn->b;
        t.col[cn->c] = 0;
        t.col[cn->d] = n - 1;
        int rc = nq_sym_track_walk(&t, 0, 0, 0, 0);
        if (rc != NQ_OK)
            return rc;
        /* fix(90) = fix(270): a placement fixed by one turn is fixed by its
         * inverse. Reflections fix no solution. */
        uint64_t fixed = 0;
        if (cn->stab & 0x02u)
            fixed += 2 * t.fix90;
        if (cn->stab & 0x04u)
            fixed += t.fix180;
        out->total = t.count * (8 / order);
        out->unique = (t.count + fixed) / order;
        return NQ_OK;
    }

    nq_sym_node start;
    nq_sym_start(&start, &bd, u);
    uint64_t count = 0;
    int rc = kernel(&bd, &start, stop, &count);
    if (rc != NQ_OK)
        return rc;
    out->total = count * (8 / order);
    out->unique = count / order;
    return NQ_OK;
}

/* ========================================================================
 * The method's row (method.h)
 * ======================================================================== */

static int nq_sym_build_any(void **plan, unsigned n)
{
    return nq_sym_plan_build((nq_sym_plan **)plan, n);
}

static uint64_t nq_sym_size_any(const void *plan)
{
    return nq_sym_plan_size(plan);
}

static int nq_sym_solve_any(const void *plan, uint64_t unit, nq_simd simd,
                            const nq_stop_flag *stop, nq_unit_result *out)
{
    return nq_sym_solve_unit(plan, unit, simd, stop, out);
}

static void nq_sym_free_any(void *plan) { nq_sym_plan_free(plan); }

static int nq_sym_has_simd(nq_simd simd) { return nq_sym_kernel_of(simd) != NULL; }

const nq_method_ops nq_sym_method = {
    .id = NQ_METHOD_SYMMETRY,
    .name = "symmetry",
    .list_version = NQ_SYM_UNIT_LIST_VERSION,
    .has_unique = 1,
    .build = nq_sym_build_any,
    .size = nq_sym_size_any,
    .solve = nq_sym_solve_any,
    .destroy = nq_sym_free_any,
    .has_simd = nq_sym_has_simd,
};
