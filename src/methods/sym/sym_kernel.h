/*
 * sym_kernel.h - the interior walk of the symmetry method, and its kernels
 * (one per SIMD level). Not public, never installed.
 *
 * sym.c reduces a unit to a board (the free rows of one constellation) and
 * a start node, and hands both to the kernel of the level asked for. Every
 * kernel counts the same completions; they differ only in how. Kernels
 * call nothing above this header: a kernel that falls back to another
 * level calls that kernel, never sym.c.
 *
 * Adding a kernel: one source file (sym_LEVEL.c) that defines a function of
 * type nq_sym_kernel_fn compiled with the target attribute NQ_TARGET_LEVEL
 * (platform/cpu.h), its declaration below, and its row in sym_kernel.c. See
 * docs/conventions.md.
 */
#ifndef NQ_SYM_KERNEL_H
#define NQ_SYM_KERNEL_H

#include <stdint.h>

#include "platform/cpu.h"
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

/* sym_scalar.c: plain C, every architecture. */
int nq_sym_count_scalar(const nq_sym_board *board, const nq_sym_node *start,
                        const nq_stop_flag *stop, uint64_t *count);

#if NQ_X86
/* sym_avx2.c: eight AVX2 lanes. Only when nq_cpu_simd_best() >= AVX2. */
int nq_sym_count_avx2(const nq_sym_board *board, const nq_sym_node *start,
                      const nq_stop_flag *stop, uint64_t *count);
/* sym_avx512.c: three groups of sixteen AVX-512 lanes. Only when
 * nq_cpu_simd_best() >= AVX512. */
int nq_sym_count_avx512(const nq_sym_board *board, const nq_sym_node *start,
                        const nq_stop_flag *stop, uint64_t *count);
#endif

/* The kernel of level `simd` in this build (sym_kernel.c), or NULL when
 * there is none. The CPU is not asked: see nq_cpu_simd_best(). */
nq_sym_kernel_fn nq_sym_kernel_of(nq_simd simd);

#endif /* NQ_SYM_KERNEL_H */
