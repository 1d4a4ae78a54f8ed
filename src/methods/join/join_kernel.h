/*
 * join_kernel.h - the join method's kernels, one set per SIMD level. Not
 * public, never installed.
 *
 * Five jobs make up the inner loops of a unit: taking a cell's pieces of
 * the quarter table (join_quarter.c), pairing a top piece with the bottom
 * pieces that miss it, working out the bins that sort a list by, filling
 * a block of stored keys and counting the items disjoint from it
 * (join_sieve.c). A level's kernels do the same
 * jobs with the same results; they differ only in how. Each level is one
 * file (join_scalar.c for every architecture, join_avx2.c, join_avx512.c)
 * and one row of the table in join_kernel.c. Kernels call nothing above
 * this header: one that falls back to another level for a tail calls that
 * level's kernel.
 *
 * Adding a level: its file, compiled with NQ_FN_LEVEL from
 * platform/cpu.h, its declarations below under the architecture's guard,
 * and its row. See docs/conventions.md.
 */
#ifndef NQ_JOIN_KERNEL_H
#define NQ_JOIN_KERNEL_H

#include "platform/cpu.h"
#include "join_block.h"

/* The kernels of level `simd` in this build (join_kernel.c), or NULL when
 * there are none. The CPU is not asked: see nq_cpu_simd_best(). */
const nq_join_kernel *nq_join_kernel_of(nq_simd simd);

#endif /* NQ_JOIN_KERNEL_H */
