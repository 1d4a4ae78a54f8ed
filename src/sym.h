/*
 * sym.h - internal interface of the symmetry counting method (sym.c,
 * sym_avx2.c, cpu.c). Not public, never installed.
 *
 * A plan is the ordered list of work units for one board size; a unit is
 * solved on its own, by any thread, at any SIMD level, always with the same
 * result. See the design note at the top of sym.c.
 */
#ifndef NQ_SYM_H
#define NQ_SYM_H

#include <stdatomic.h>
#include <stdint.h>

#include "nqueens.h"

typedef struct nq_unit_result {
    uint64_t total;  /* solutions of the unit, times its symmetry weight */
    uint64_t unique; /* the unit's share of the count up to symmetry */
} nq_unit_result;

typedef struct nq_sym_plan nq_sym_plan;

/* Bumped whenever the unit list of some n changes (order, shape, count),
 * because checkpoints and "part k of m" runs address units by index. */
#define NQ_SYM_UNIT_LIST_VERSION 1u

/* Builds the ordered unit list for n (0..NQ_MAX_N).
 * @return NQ_OK, NQ_ERANGE, NQ_ENOMEM (or NQ_EINVAL for a NULL out). */
int nq_sym_plan_build(nq_sym_plan **out, unsigned n);

/* @return the number of units of the plan (0 for NULL). */
uint64_t nq_sym_plan_size(const nq_sym_plan *plan);

/* Solves unit `unit` (< size) at SIMD level `simd` (NQ_SIMD_NONE or
 * NQ_SIMD_AVX2; never AUTO). out->total is already multiplied by the
 * unit's symmetry weight; out->unique is the unit's share of the unique
 * count. Polls *stop (relaxed) every few milliseconds of work at most; a
 * raised flag ends the call with NQ_ECANCELED and leaves out untouched.
 * Thread-safe: scratch memory lives on the stack.
 * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL (NULL plan/out, unit out of
 *         range, bad level), NQ_EUNSUPPORTED (level not on this CPU). */
int nq_sym_solve_unit(const nq_sym_plan *plan, uint64_t unit, nq_simd simd,
                      const atomic_int *stop, nq_unit_result *out);

void nq_sym_plan_free(nq_sym_plan *plan);

/* Widest SIMD level this CPU supports (NQ_SIMD_NONE on non-x86). */
nq_simd nq_cpu_simd_best(void);

/* ------------------------------------------------------------------------
 * Between sym.c and the SIMD kernels only.
 * ------------------------------------------------------------------------ */

/* Deepest interior search: n - 2 rows at most. */
#define NQ_SYM_MAX_LEVELS 26

/* The interior of one unit, as a walk over `levels` free rows (the rows
 * without a border queen), top to bottom. Masks are over the n board
 * columns (bit c = column c). allowed[i] holds the columns of level i that
 * no border queen attacks; shift[i] is the row distance from level i to
 * level i + 1 (1, 2 or 3: rows with a border queen are jumped), by which
 * the diagonal masks move between the two levels. */
typedef struct nq_sym_board {
    unsigned levels;
    uint32_t allowed[NQ_SYM_MAX_LEVELS];
    uint32_t shift[NQ_SYM_MAX_LEVELS];
} nq_sym_board;

/* A search state at level `level`: the interior queens placed above it
 * given as occupied columns and the two diagonal masks already moved down
 * to this level. */
typedef struct nq_sym_node {
    unsigned level;
    uint32_t cols, ld, rd;
} nq_sym_node;

/* Counts the completions of `start` (level < levels) on `board`; adds them
 * to *count. @return NQ_OK or NQ_ECANCELED (then *count is meaningless). */
int nq_sym_count_scalar(const nq_sym_board *board, const nq_sym_node *start,
                        const atomic_int *stop, uint64_t *count);

#if defined(__x86_64__) || defined(__i386__)
/* Same contract as nq_sym_count_scalar, on AVX2 lanes. Only call it when
 * nq_cpu_simd_best() >= NQ_SIMD_AVX2. */
int nq_sym_count_avx2(const nq_sym_board *board, const nq_sym_node *start,
                      const atomic_int *stop, uint64_t *count);
#endif

#endif /* NQ_SYM_H */
