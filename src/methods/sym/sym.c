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

#include "cpu.h"
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

/* One canonical constellation, or a group of them that differ only in the
 * bottom queen (bottom != 0): then the walk places that queen too, in one
 * of the columns of `bottom`, and b is unused. */
typedef struct nq_sym_constellation {
    uint8_t a;       /* column of the queen in row 0 */
    uint8_t b;       /* column of the queen in row n-1 (bottom == 0) */
    uint8_t c;       /* row of the queen in column 0 */
    uint8_t d;       /* row of the queen in column n-1 */
    uint8_t stab;    /* bit g set: symmetry g maps the constellation to itself */
    uint32_t bottom; /* the group's columns for the row-(n-1) queen, or 0 */
} nq_sym_constellation;

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
 * Symmetries and constellations
 * ======================================================================== */

static void nq_sym_map(unsigned g, unsigned n, unsigned r, unsigned c,
                       unsigned *r_out, unsigned *c_out)
{
    unsigned m = n - 1;
    switch (g) {
    case 0: *r_out = r; *c_out = c; break;
    case 1: *r_out = c; *c_out = m - r; break;
    case 2: *r_out = m - r; *c_out = m - c; break;
    case 3: *r_out = m - c; *c_out = r; break;
    case 4: *r_out = r; *c_out = m - c; break;
    case 5: *r_out = c; *c_out = r; break;
    case 6: *r_out = m - r; *c_out = c; break;
    default: *r_out = m - c; *c_out = m - r; break;
    }
}

/* The queens of border placement (a, b, c, d), corners counted once. */
static unsigned nq_sym_queens(unsigned n, unsigned a, unsigned b, unsigned c,
                              unsigned d, unsigned qr[4], unsigned qc[4])
{
    unsigned k = 0;
    qr[k] = 0; qc[k++] = a;
    qr[k] = n - 1; qc[k++] = b;
    if (!(c == 0 && a == 0) && !(c == n - 1 && b == 0)) {
        qr[k] = c; qc[k++] = 0;
    }
    if (!(d == 0 && a == n - 1) && !(d == n - 1 && b == n - 1)) {
        qr[k] = d; qc[k++] = n - 1;
    }
    return k;
}

/* Encodes the border positions of the image of a queen set under g; two
 * placements are equal exactly when their keys are. The smallest key of an
 * orbit is its canonical member (see the design note): first the row-0
 * queen nearest the middle column (the left one of two), then the side
 * queens as low as possible (column 0's, then column n-1's), then the
 * bottom queen leftmost. Below n^5 <= 28^5, so it fits 32 bits. */
static uint32_t nq_sym_key(unsigned g, unsigned n, unsigned k,
                           const unsigned qr[4], const unsigned qc[4])
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    for (unsigned i = 0; i < k; i++) {
        unsigned r, col;
        nq_sym_map(g, n, qr[i], qc[i], &r, &col);
        if (r == 0) a = col;
        if (r == n - 1) b = col;
        if (col == 0) c = r;
        if (col == n - 1) d = r;
    }
    unsigned mid = 2 * a > n - 1 ? 2 * a - (n - 1) : (n - 1) - 2 * a;
    return (uint32_t)((((mid * n + a) * n + (n - 1 - c)) * n + (n - 1 - d)) * n + b);
}

static int nq_sym_attack(unsigned r1, unsigned c1, unsigned r2, unsigned c2)
{
    return r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2;
}

/* Whether (a, b, c, d) is a border placement of non-attacking queens that
 * is the smallest of its orbit; if so, *stab receives its stabiliser. */
static int nq_sym_canonical(unsigned n, unsigned a, unsigned b, unsigned c,
                            unsigned d, uint8_t *stab)
{
    unsigned qr[4], qc[4];
    /* A corner queen lies on two border lines: both must name it. */
    if ((a == 0) != (c == 0) || (a == n - 1) != (d == 0) ||
        (b == 0) != (c == n - 1) || (b == n - 1) != (d == n - 1))
        return 0;
    unsigned k = nq_sym_queens(n, a, b, c, d, qr, qc);
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = i + 1; j < k; j++)
            if (nq_sym_attack(qr[i], qc[i], qr[j], qc[j]))
                return 0;
    uint32_t own = nq_sym_key(0, n, k, qr, qc);
    unsigned s = 1;
    for (unsigned g = 1; g < 8; g++) {
        uint32_t key = nq_sym_key(g, n, k, qr, qc);
        if (key < own)
            return 0;
        if (key == own)
            s |= 1u << g;
    }
    *stab = (uint8_t)s;
    return 1;
}

static unsigned nq_sym_order(uint8_t stab)
{
    unsigned k = 0;
    for (unsigned g = 0; g < 8; g++)
        k += ((unsigned)stab >> g) & 1u;
    return k;
}

/* The interior walk of a constellation (see nq_sym_board). rows, when not
 * NULL, receives the board row of each level. */
static void nq_sym_make_board(nq_sym_board *bd, unsigned *rows, unsigned n,
                              const nq_sym_constellation *cn)
{
    unsigned qr[4], qc[4];
    unsigned k = nq_sym_queens(n, cn->a, cn->b, cn->c, cn->d, qr, qc);
    uint32_t inner = ((1u << n) - 1) & ~1u & ~(1u << (n - 1));
    inner &= ~(1u << cn->a);
    unsigned end = n - 1; /* the first row after the last level */
    if (cn->bottom) {
        k--; /* the bottom queen is the walk's (nq_sym_queens lists it second) */
        qr[1] = qr[k];
        qc[1] = qc[k];
        end = n;
    } else {
        inner &= ~(1u << cn->b);
    }
    unsigned lv = 0, prev = 0;
    for (unsigned r = 1; r < end; r++) {
        if (r == cn->c || r == cn->d)
            continue;
        uint32_t m = r == n - 1 ? inner & cn->bottom : inner;
        for (unsigned i = 0; i < k; i++) {
            unsigned t = r > qr[i] ? r - qr[i] : qr[i] - r;
            if (qc[i] >= t)
                m &= ~(1u << (qc[i] - t));
            if (qc[i] + t < n)
                m &= ~(1u << (qc[i] + t));
        }
        if (lv > 0)
            bd->shift[lv - 1] = r - prev;
        if (rows)
            rows[lv] = r;
        bd->allowed[lv++] = m;
        prev = r;
    }
    bd->shift[lv - 1] = 0;
    bd->levels = lv;
}

/* ========================================================================
 * Plan
 * ======================================================================== */

/* Whether canonical (a, b, c, d) with stabiliser stab may join the group
 * of (a, c, d) (see the design note): a trivial stabiliser and a bottom
 * queen that is not also a side queen. */
static int nq_sym_groups(unsigned n, unsigned b, unsigned c, unsigned d,
                         uint8_t stab)
{
    return stab == 1 && b != 0 && b != n - 1 && c != n - 1 && d != n - 1;
}

/* Walks the border placements in list order; fills cons when not NULL.
 * For each (a, c, d) in turn: the group of its bottom queens, if any, then
 * the canonical placements that cannot join a group, bottom queen from
 * left to right.
 * @return how many entries (groups and single constellations) there are. */
static size_t nq_sym_enumerate(unsigned n, nq_sym_constellation *cons)
{
    size_t k = 0;
    for (unsigned a = 0; a < n; a++)
        for (unsigned c = 0; c < n; c++)
            for (unsigned d = 0; d < n; d++) {
                uint32_t single = 0, bottom = 0;
                uint8_t stab[NQ_MAX_N];
                for (unsigned b = 0; b < n; b++) {
                    if (!nq_sym_canonical(n, a, b, c, d, &stab[b]))
                        continue;
                    if (nq_sym_groups(n, b, c, d, stab[b]))
                        bottom |= 1u << b;
                    else
                        single |= 1u << b;
                }
                if (bottom) {
                    if (cons)
                        cons[k] = (nq_sym_constellation){
                            (uint8_t)a, 0, (uint8_t)c, (uint8_t)d, 1, bottom };
                    k++;
                }
                for (; single; single &= single - 1) {
                    unsigned b = (unsigned)__builtin_ctz(single);
                    if (cons)
                        cons[k] = (nq_sym_constellation){
                            (uint8_t)a, (uint8_t)b, (uint8_t)c, (uint8_t)d, stab[b], 0 };
                    k++;
                }
            }
    return k;
}

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
    if (!kernel || (simd != NQ_SIMD_NONE && plan->cpu_best < simd))
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
    NQ_METHOD_SYMMETRY, "symmetry", NQ_SYM_UNIT_LIST_VERSION, 1,
    nq_sym_build_any, nq_sym_size_any, nq_sym_solve_any, nq_sym_free_any,
    nq_sym_has_simd, NULL, NULL, NULL,
};
