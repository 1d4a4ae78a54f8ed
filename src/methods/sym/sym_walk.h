/*
 * sym_walk.h - the interior walk of the symmetry method as its kernels
 * see it: the board and the start node of a unit's walk, and the type of
 * a kernel that counts it (nq_sym_kernel_fn). Types and constants only:
 * no .c implements this header. The kernels are sym_scalar.c's,
 * sym_avx2.c's and sym_avx512.c's, their table sym_kernel.c's (see
 * sym_kernel.h); sym_unit.c and sym_border.c lay out the boards. Not
 * public, never installed.
 */
#ifndef NQ_SYM_WALK_H
#define NQ_SYM_WALK_H

#include <stdint.h>

#include "nqueens.h" /* NQ_MAX_N, the status codes */
#include "stop.h"

/* Deepest interior search: n - 2 rows at most. */
#define NQ_SYM_MAX_LEVELS 26
/* Scalar walk steps between two polls of the stop flag (well under a
 * millisecond of work). */
#define NQ_SYM_POLL_STEPS 4096u

/* The interior of one unit, as a walk over `levels` free rows (the rows
 * without a fixed border queen; a grouped unit's bottom row is one, see
 * sym.c), top to bottom. Masks are over the n board columns (bit c =
 * column c). allowed[i] holds the columns of level i that no fixed queen
 * holds or attacks (and, for a grouped bottom row, that the group allows);
 * the columns that no fixed queen holds are exactly as many as the levels,
 * so two levels from the bottom at most two candidates are left. shift[i]
 * is the row distance from level i to level i + 1 (1, 2 or 3: rows with a
 * fixed border queen are jumped), by which the diagonal masks move between
 * the two levels. */
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

/* A kernel: counts the completions of `start` (level < levels) on `board`
 * and adds them to *count. Polls *stop (may be NULL) well under a
 * millisecond apart. Thread-safe.
 * @return NQ_OK, NQ_ECANCELED (then *count is meaningless), NQ_ENOMEM. */
typedef int (*nq_sym_kernel_fn)(const nq_sym_board *board,
                                const nq_sym_node *start,
                                const nq_stop_flag *stop, uint64_t *count);

/* Declares the kernel of one SIMD level, of type nq_sym_kernel_fn:
 * nq_sym_count_LEVEL (sym_scalar.h, sym_avx2.h, sym_avx512.h). */
#define NQ_SYM_LEVEL_KERNEL(level)                                                  \
    int nq_sym_count_##level(const nq_sym_board *board, const nq_sym_node *start, \
                             const nq_stop_flag *stop, uint64_t *count)

#endif /* NQ_SYM_WALK_H */
