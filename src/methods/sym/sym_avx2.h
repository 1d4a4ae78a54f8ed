/*
 * sym_avx2.h - the kernel of sym_avx2.c (its job: sym_walk.h). Not
 * public, never installed.
 */
#ifndef NQ_SYM_AVX2_H
#define NQ_SYM_AVX2_H

#include "platform/cpu.h"
#include "sym_walk.h"

#if NQ_X86
/* sym_avx2.c: eight AVX2 lanes. Only when nq_cpu_simd_best() >= AVX2. */
NQ_SYM_LEVEL_KERNEL(avx2);
#endif

#endif /* NQ_SYM_AVX2_H */
