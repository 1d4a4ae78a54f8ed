/*
 * sym.c - the symmetry counting method: its design note and its row in
 * the method table (sym.h). The files that do the work, each with a
 * header of its own that declares what it defines:
 *   sym_walk.h     the interior walk's board and node, and the kernels'
 *                  type (no .c: types and constants only);
 *   sym_scalar.c, sym_avx2.c, sym_avx512.c   the kernels of each level;
 *   sym_kernel.c   the kernels' table, one row per SIMD level;
 *   sym_border.c   the constellations and the board each leaves to walk;
 *   sym_fixed.c    the solutions fixed by a turn;
 *   sym_unit.c     the unit list and a unit's count;
 *   sym_gpu.c      the GPU's cut of units into tasks, and its results;
 *   sym_cost.c     the cost model of nq_estimate();
 *   sym.c          this file.
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
 * the fixed solutions themselves: their walk is counted by the kernels as
 * any other, and the solutions a turn fixes by a search of their own that
 * places each queen with its whole orbit (sym_fixed.c), so it branches in
 * a half or a quarter of the rows (at n = 20 their 81 units took 84 s of
 * one core with a walk that tested each solution for the turn, 5.9 s so).
 *
 * Units. A unit is one group or one single constellation. From n =
 * NQ_SYM_SPLIT_N on, entries with a trivial stabiliser are split further:
 * groups by the columns of their first two interior queens, single
 * constellations by the first one only. That keeps units short (at n = 20
 * some 2 ms on average with AVX-512; the longest are the unsplit
 * constellations fixed by a turn) and the list long enough for tens of
 * thousands of workers: 849,057 units at n = 27, 1,062,722 at n = 28,
 * whose units take some five core-hours on average (until unit list
 * version 3, n = 28 split groups by one queen only: 63,750 units of some
 * 90 core-hours).
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

#include "sym_cost.h"
#include "sym_gpu.h"
#include "sym_unit.h"

/* ========================================================================
 * The method's row (method.h)
 * ======================================================================== */

const nq_method_ops nq_sym_method = {
    .id = NQ_METHOD_SYMMETRY,
    .name = "symmetry",
    .list_version = NQ_SYM_UNIT_LIST_VERSION,
    .list_kept_below = NQ_SYM_UNIT_LIST_KEPT_BELOW,
    .has_unique = 1,
    .build = nq_sym_build_any,
    .size = nq_sym_size_any,
    .solve = nq_sym_solve_any,
    .destroy = nq_sym_free_any,
    .has_simd = nq_sym_has_simd,
    .model = nq_sym_model,
    .model_gpu = nq_sym_model_gpu,
    .solve_gpu = nq_sym_solve_gpu,
};
