/*
 * join_method.c - the join counting method: totals by meeting in the
 * middle. This file is the method's face: the design note below and the
 * method's row. The files that do the work, from the ground up (each
 * includes and calls only files above it in this list, never one below;
 * every .c has a header of its own, and tests/source/layers.sh checks
 * that no include or call runs the other way):
 *   join_bits.h     bit sets and subsets: ranks of row sets, stretch;
 *   join_half.h     a half's data: keys, the sieve's layout, cursor, pieces;
 *   join_block.h    the bit-sliced block and the kernels' job;
 *   join_slices.h   helpers the kernels of every level share;
 *   join_scalar.c, join_avx2.c, join_avx512.c   the kernels of each level;
 *   join_kernel.c   the kernels' table, one row per SIMD level;
 *   join_keys.c     the key list, a half's keys by a walk, small boards;
 *   join_sieve.c    keys squeezed and bucketed, buckets matched;
 *   join_pass.c     a long east list met in passes, by pattern;
 *   join_quarter.c  the table of quarter-board pieces, a half's keys from it;
 *   join_rowset.c   a half's quarters listed for the split at hand;
 *   join_profile.c  the cost model's hooks in a split, and its probes;
 *   join_geometry.c a split's orbit, bars and key window;
 *   join_split.c    one row split counted: a unit's scratch and work;
 *   join_order.c    the order of the units from n = 24 on;
 *   join_memory.c   what a unit's scratch takes, and its release;
 *   join_plan.c     the plan: its unit list, table, scratch pool, a unit
 *                   solved, a split profiled, a count fitted to memory;
 *   join_check.c    a unit counted again by a plain walk (nq_recheck());
 *   join_cost.c     the cost model of nq_estimate();
 *   join_gpu.c      the GPU's description of a split, a split counted on
 *                   the host by the GPU's steps (src/steps/join_steps.h),
 *                   and units counted on a GPU through device.h;
 *   join_method.c   this file.
 *
 * Design note
 * -----------
 * Halves. Cut the columns into a west half W (columns 0 .. h-1) and an east
 * half E (the last h columns), h = floor(n / 2); on an odd board the middle
 * column h stays between them. Every solution puts exactly h queens in
 * each half, one per column, and each row has its queen in W or in E (or,
 * on an odd board, the one row m that holds the middle column's queen). So
 * a solution is: a row split (the set R of rows whose queen is in E, h of
 * them), a placement of the east half (a queen in each row of R, one per
 * column of E, no two on a diagonal), a placement of the west half on the
 * other rows, and the condition that the two halves occupy no diagonal in
 * common. Columns and rows cannot clash across halves by construction.
 *
 * Keys. Only the diagonals that cross both halves can clash: 2h - 1 of each
 * direction (r + c and c - r between n - h and n + h - 2, in board
 * indices). A half's key is the bit set of those it occupies, 4h - 2 bits
 * (at most 54 at n = 28), and an east and a west placement join into a
 * solution exactly when their keys are disjoint. A row split is counted by
 * listing the keys of each half (a small backtracking walk over h rows and
 * h columns), then counting the disjoint pairs; that count is the costly
 * part, and the kernels (join_kernel.h) do it bit-sliced, 512 stored keys
 * per step.
 *
 * Smaller keys, fewer pairs. Per split, each direction's key keeps only
 * the span of diagonals that both halves' rows reach; the few diagonals
 * inside it that one side never holds are squeezed out, and both lists are
 * sorted into buckets by a few middle diagonals, so that a stored block
 * meets only the items that can be disjoint from it (join_sieve.c). How
 * many bucket bits a split uses depends on its lists' sizes; the count
 * does not. A split whose east list fits one block (most splits up to
 * n = 17) sorts nothing: the block meets the whole west list, each west
 * key's pairs weighted by the symmetry class below in the match itself
 * (join_split.c).
 *
 * Odd boards. The middle column's queen, in row m, is placed first; its
 * two diagonals are barred in both halves' walks and left out of the keys,
 * and the row splits are those of the other n - 1 rows.
 *
 * Symmetry. The flip of the board top to bottom maps a solution with split
 * (m, R) to one with (n-1-m, reversed R); the flip left to right maps it to
 * (m, complement of R among the free rows), since the halves trade places
 * and the middle column stays. Both are bijections, so these four images
 * have equal counts: only the smallest image of each orbit (in the order
 * of (m, R)) is counted, times the number of distinct images. This does a
 * quarter of the work and is exact; unique counts are not available here
 * (the other four symmetries of the square do not respect the split).
 *
 * Units. The splits are numbered: for an even board, the h-subsets of the
 * n rows in colexicographic order; for an odd one, (m, R) with m = 0..h
 * (larger m are never the smallest image) and R among the other n - 1 rows,
 * m major. A unit is a run of consecutive numbers, as many per unit as it
 * takes to keep the list at most NQ_JOIN_MAX_UNITS long (65,536: one split
 * per unit up to n = 19), or from n = 24 on NQ_JOIN_MAX_UNITS_MANY (2^21:
 * from 1.35 million units at n = 24 to 2.08 million at n = 27, 2 to 70
 * splits a unit), so that tens of thousands of workers can share a count
 * evenly (docs/performance.md, the simulator bench/nq_sim.c); and those
 * units are taken heaviest first, by a cost proxy of their splits
 * (join_order.c), since nqueens-mpi deals them in list order. The list
 * depends on n alone; NQ_JOIN_UNIT_LIST_VERSION names it (version 2 made
 * the lists of n >= 24 longer and ordered them, and kept those of smaller
 * boards).
 *
 * Batches. A unit's scratch holds a half's keys in batches of at most
 * 2^22 keys (2^20 or fewer under a tight --max-memory): the listing
 * stops when a batch is full and goes on from there (a cursor,
 * join_half.h), and every east batch is matched against every west
 * batch, the west list listed again for each east batch unless it is one
 * batch. Listing is linear and matching quadratic in the list, so this
 * costs little, and it bounds a thread's key lists at 96 MiB at any n
 * (24 MiB with batches of 2^20; 3 GiB at n = 27 with whole lists). The
 * counts do not depend on it.
 *
 * Passes. Where the east list takes two batches or more and the west
 * list several (n = 28, or smaller boards under a tight --max-memory),
 * the east list is not cut in list order but by a pattern of a few key
 * bits outside the buckets (join_pass.c): each pass holds the east keys
 * of one pattern and meets only the west keys that hold none of its
 * ones, both listed with the other bits' diagonals barred. A west key
 * that shares a pattern bit with every east key of a batch never meets
 * it: at n = 28 the units took a fifth of their time in list order
 * (docs/performance.md, "Passes by pattern").
 *
 * Listing a half. A half's placements are a top quarter's joined with a
 * bottom quarter's (complementary column sets, disjoint diagonals). Up
 * to n = 25, where it fits, one table of every quarter of every row set
 * serves all splits (join_quarter.c); without it, each split lists the
 * four quarters it needs and keeps them for the next split of its unit
 * (join_rowset.c), within 5% to 10% of the table's time. A plain walk of
 * the half (join_keys.c) is the fallback for a quarter too large for its
 * slot, and the re-check's other way.
 *
 * n < 4 is one unit, counted by a plain walk: the halves are too small for
 * keys.
 */
#include "join_method.h"

#include "join_check.h"
#include "join_cost.h"
#include "join_gpu.h"
#include "join_kernel.h"
#include "join_plan.h"

/* ========================================================================
 * The method's row (method.h)
 * ======================================================================== */

static int nq_join_build_any(void **plan, unsigned n)
{
    return nq_join_plan_build((nq_join_plan **)plan, n);
}

static uint64_t nq_join_size_any(const void *plan)
{
    return nq_join_plan_size(plan);
}

static int nq_join_solve_any(const void *plan, uint64_t unit, nq_simd simd,
                             const nq_stop_flag *stop, nq_unit_result *out)
{
    return nq_join_solve_unit(plan, unit, simd, stop, out);
}

/* The re-check's other way (--by walk): no table, and no quarters listed
 * per split either, but the plain walk of each half (join_keys.c), so
 * that it shares no listing code with the count. */
static int nq_join_build_walk_any(void **plan, unsigned n)
{
    int rc = nq_join_plan_build_walk((nq_join_plan **)plan, n);
    if (rc == NQ_OK)
        rc = nq_join_plan_set_rowset_pieces(*plan, 0);
    return rc;
}

static void nq_join_free_any(void *plan) { nq_join_plan_free(plan); }

static int nq_join_fit_any(void *plan, unsigned threads, uint64_t limit,
                           uint64_t *out)
{
    return nq_join_plan_fit_memory(plan, threads, limit, out);
}

static int nq_join_prepare_any(void *plan, const nq_stop_flag *stop)
{
    return nq_join_plan_prepare(plan, stop);
}

static int nq_join_has_simd(nq_simd simd) { return nq_join_kernel_of(simd) != NULL; }

const nq_method_ops nq_join_method = {
    .id = NQ_METHOD_JOIN,
    .name = "join",
    .list_version = NQ_JOIN_UNIT_LIST_VERSION,
    .has_unique = 0,
    .build = nq_join_build_any,
    .size = nq_join_size_any,
    .solve = nq_join_solve_any,
    .destroy = nq_join_free_any,
    .has_simd = nq_join_has_simd,
    .fit_memory = nq_join_fit_any,
    .prepare = nq_join_prepare_any,
    .model = nq_join_model,
    .build_other = nq_join_build_walk_any,
    .check = nq_join_check_unit,
    .solve_gpu = nq_join_solve_gpu,
};
