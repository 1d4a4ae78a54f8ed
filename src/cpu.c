/*
 * cpu.c - which SIMD kernels this CPU can run.
 *
 * The SIMD kernels are compiled with function-level target attributes, so
 * the binary itself runs on any CPU of its architecture; this run-time test
 * is what keeps a wide kernel from ever being entered where it would fault.
 */
#include "sym.h"

nq_simd nq_cpu_simd_best(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    /* Needed when called before libgcc's own constructor has run. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"))
        return NQ_SIMD_AVX2;
#endif
    return NQ_SIMD_NONE;
}
