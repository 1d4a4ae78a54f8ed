/*
 * sym_avx512.h - the kernel of sym_avx512.c (its job: sym_walk.h). Not
 * public, never installed.
 */
#ifndef NQ_SYM_AVX512_H
#define NQ_SYM_AVX512_H

#include "platform/cpu.h"
#include "sym_walk.h"

#if NQ_X86
/* sym_avx512.c: three groups of sixteen AVX-512 lanes. Only when
 * nq_cpu_simd_best() >= AVX512. */
NQ_SYM_LEVEL_KERNEL(avx512);
#endif

#endif /* NQ_SYM_AVX512_H */
