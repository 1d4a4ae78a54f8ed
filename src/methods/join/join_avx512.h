/*
 * join_avx512.h - the kernels of join_avx512.c: eight lanes, only when
 * nq_cpu_simd_best() >= AVX512 (their jobs: join_block.h). Not public.
 */
#ifndef NQ_JOIN_AVX512_H
#define NQ_JOIN_AVX512_H

#include "platform/cpu.h"
#include "join_block.h"

#if NQ_X86
NQ_JOIN_LEVEL_KERNELS(avx512);
#endif

#endif /* NQ_JOIN_AVX512_H */
