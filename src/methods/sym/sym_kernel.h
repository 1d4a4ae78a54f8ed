/*
 * sym_kernel.h - the symmetry method's kernels, one per SIMD level: the
 * table of sym_kernel.c. Not public, never installed.
 *
 * sym_unit.c reduces a unit to a board (the free rows of one
 * constellation) and a start node (sym_walk.h), and hands both to the
 * kernel of the level asked for. Every kernel counts the same
 * completions; they differ only in how. Each level is one file
 * (sym_scalar.c for every architecture, sym_avx2.c, sym_avx512.c) with a
 * header of its own, and one row of the table in sym_kernel.c. Kernels
 * call nothing above sym_walk.h and their own headers: a kernel that
 * falls back to another level calls that kernel, never sym_unit.c or
 * this table.
 *
 * Adding a kernel: one source file (sym_LEVEL.c) that defines a function of
 * type nq_sym_kernel_fn (sym_walk.h) compiled with the target attribute
 * NQ_FN_LEVEL (platform/cpu.h), its header (sym_LEVEL.h) that declares
 * it under the architecture's guard, and its row in sym_kernel.c. See
 * docs/conventions.md.
 */
#ifndef NQ_SYM_KERNEL_H
#define NQ_SYM_KERNEL_H

#include "platform/cpu.h"
#include "sym_walk.h"

/* The kernel of level `simd` in this build (sym_kernel.c), or NULL when
 * there is none. The CPU is not asked: see nq_cpu_simd_best(). */
nq_sym_kernel_fn nq_sym_kernel_of(nq_simd simd);

#endif /* NQ_SYM_KERNEL_H */
