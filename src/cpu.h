/*
 * cpu.h - which SIMD levels this CPU and its operating system can run.
 *
 * A level is a set of instruction-set extensions plus the register state
 * the OS must save on a context switch. Kernels are compiled with function
 * target attributes (the binary runs on any CPU of its architecture), so
 * this run-time check is what keeps a wide kernel from ever being entered
 * where it would fault. A kernel of level X may use exactly the extensions
 * of NQ_TARGET_X: the check below tests those same extensions. (A kernel
 * that wants one more extension adds it to both, here and in cpu.c.)
 */
#ifndef NQ_CPU_H
#define NQ_CPU_H

#include "nqueens.h"

#if defined(__x86_64__) || defined(__i386__)
#  define NQ_X86 1
#else
#  define NQ_X86 0
#endif

/* Target attributes of the kernels of each level: the extensions that
 * nq_cpu_simd_best() checks for that level. */
#define NQ_TARGET_AVX2 "avx2,bmi,bmi2,popcnt"
#define NQ_TARGET_AVX512 \
    "avx512f,avx512bw,avx512dq,avx512vl,avx2,bmi,bmi2,popcnt"

/* @return the widest level this CPU and OS run: NQ_SIMD_AVX512 when CPUID
 * reports AVX-512 F, BW, DQ and VL (and everything of AVX2) and the
 * OS saves the opmask and ZMM state (XCR0 bits 5, 6, 7 with 1, 2);
 * NQ_SIMD_AVX2 for AVX2, BMI1/2 and POPCNT with the YMM state saved (XCR0
 * bits 1, 2); else NQ_SIMD_NONE (always on other architectures). Whether
 * the library has a kernel of that level is another matter: see
 * nq_simd_best(). */
nq_simd nq_cpu_simd_best(void);

#endif /* NQ_CPU_H */
