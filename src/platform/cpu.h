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
 * nq_cpu_simd_best() checks for that level. NQ_TARGET_AVX512_VPOPCNT adds
 * VPOPCNTDQ, which nq_cpu_has_vpopcnt() checks beyond the level. */
#define NQ_TARGET_AVX2 "avx2,bmi,bmi2,popcnt"
#define NQ_TARGET_AVX512 \
    "avx512f,avx512bw,avx512dq,avx512vl,avx2,bmi,bmi2,popcnt"
#define NQ_TARGET_AVX512_VPOPCNT NQ_TARGET_AVX512 ",avx512vpopcntdq"

/* The one way the library's kernels are compiled for a level: NQ_FN_X
 * before a function compiles it with the extensions of NQ_TARGET_X;
 * NQ_INLINE_X declares a static helper of such functions that is always
 * inlined into them (a helper of another target could not be). Only
 * inside #if NQ_X86. */
#if NQ_X86
#  define NQ_FN_AVX2 __attribute__((target(NQ_TARGET_AVX2)))
#  define NQ_FN_AVX512 __attribute__((target(NQ_TARGET_AVX512)))
#  define NQ_FN_AVX512_VPOPCNT __attribute__((target(NQ_TARGET_AVX512_VPOPCNT)))
#  define NQ_INLINE_AVX2 \
    static inline __attribute__((always_inline, target(NQ_TARGET_AVX2)))
#  define NQ_INLINE_AVX512 \
    static inline __attribute__((always_inline, target(NQ_TARGET_AVX512)))
#endif

/* @return the widest level this CPU and OS run: NQ_SIMD_AVX512 when CPUID
 * reports AVX-512 F, BW, DQ and VL (and everything of AVX2) and the
 * OS saves the opmask and ZMM state (XCR0 bits 5, 6, 7 with 1, 2);
 * NQ_SIMD_AVX2 for AVX2, BMI1/2 and POPCNT with the YMM state saved (XCR0
 * bits 1, 2); else NQ_SIMD_NONE (always on other architectures). Whether
 * the library has a kernel of that level is another matter: see
 * nq_simd_best(). */
nq_simd nq_cpu_simd_best(void);

/* @return nonzero when code of level `simd` runs where the widest level
 * is `best` (nq_cpu_simd_best(), or nq_simd_best() for the library's
 * kernels): NQ_SIMD_AUTO and NQ_SIMD_NONE always, a wider level up to
 * `best`. The one test of a level's support: the methods' units, the
 * choice of a count's level and nq_simd_supported() all ask it. */
static inline int nq_cpu_runs(nq_simd best, nq_simd simd)
{
    return simd == NQ_SIMD_AUTO || simd == NQ_SIMD_NONE || simd <= best;
}

/* @return nonzero when nq_cpu_simd_best() reaches NQ_SIMD_AVX512 and the
 * CPU has VPOPCNTDQ too (a kernel of NQ_TARGET_AVX512_VPOPCNT runs); 0
 * else, and always on other architectures. */
int nq_cpu_has_vpopcnt(void);

#endif /* NQ_CPU_H */
