/*
 * join_avx2.h - the kernels of join_avx2.c: four lanes of 64 bits, only
 * when nq_cpu_simd_best() >= AVX2 (their jobs: join_block.h). Not public.
 */
#ifndef NQ_JOIN_AVX2_H
#define NQ_JOIN_AVX2_H

#include "platform/cpu.h"
#include "join_block.h"

#if NQ_X86
NQ_JOIN_LEVEL_KERNELS(avx2);
#endif

#endif /* NQ_JOIN_AVX2_H */
