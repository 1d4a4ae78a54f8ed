/*
 * cpu.c - the SIMD levels this CPU and OS can run (see cpu.h).
 *
 * Two questions for each level. Does the CPU have the instructions (CPUID
 * feature bits)? And does the OS save the registers they use when it
 * switches threads (XCR0, read with XGETBV, which is only allowed once
 * CPUID reports OSXSAVE)? A CPU may have AVX-512 while the OS, or a
 * hypervisor, leaves the ZMM and opmask state off: running AVX-512 code
 * there faults. Nothing is cached: the check is a handful of instructions,
 * and the library keeps no global state.
 */
#include "cpu.h"

#if NQ_X86 && defined(__GNUC__)
#include <cpuid.h>

/* CPUID leaf 1, ECX */
#define NQ_CPUID1_POPCNT (1u << 23)
#define NQ_CPUID1_OSXSAVE (1u << 27)
#define NQ_CPUID1_AVX (1u << 28)
/* CPUID leaf 7 sub-leaf 0, EBX */
#define NQ_CPUID7_BMI1 (1u << 3)
#define NQ_CPUID7_AVX2 (1u << 5)
#define NQ_CPUID7_BMI2 (1u << 8)
#define NQ_CPUID7_AVX512F (1u << 16)
#define NQ_CPUID7_AVX512DQ (1u << 17)
#define NQ_CPUID7_AVX512BW (1u << 30)
#define NQ_CPUID7_AVX512VL (1u << 31)
/* CPUID leaf 7 sub-leaf 0, ECX */
#define NQ_CPUID7C_VPOPCNTDQ (1u << 14)
/* XCR0: SSE and AVX (YMM upper halves) state; opmask, ZMM_Hi256, Hi16_ZMM */
#define NQ_XCR0_YMM 0x06u
#define NQ_XCR0_ZMM 0xe0u

static int nq_has(unsigned have, unsigned want) { return (have & want) == want; }

static unsigned nq_xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

nq_simd nq_cpu_simd_best(void)
{
    unsigned a, b, c, d, xcr0;
    unsigned b7;

    if (!__get_cpuid(1, &a, &b, &c, &d))
        return NQ_SIMD_NONE;
    if (!nq_has(c, NQ_CPUID1_OSXSAVE | NQ_CPUID1_AVX | NQ_CPUID1_POPCNT))
        return NQ_SIMD_NONE;
    xcr0 = nq_xcr0();
    if (!nq_has(xcr0, NQ_XCR0_YMM))
        return NQ_SIMD_NONE;
    if (!__get_cpuid_count(7, 0, &a, &b7, &c, &d))
        return NQ_SIMD_NONE;
    if (!nq_has(b7, NQ_CPUID7_AVX2 | NQ_CPUID7_BMI1 | NQ_CPUID7_BMI2))
        return NQ_SIMD_NONE;
    if (nq_has(b7, NQ_CPUID7_AVX512F | NQ_CPUID7_AVX512DQ |
                   NQ_CPUID7_AVX512BW | NQ_CPUID7_AVX512VL) &&
        nq_has(xcr0, NQ_XCR0_ZMM))
        return NQ_SIMD_AVX512;
    return NQ_SIMD_AVX2;
}

int nq_cpu_has_vpopcnt(void)
{
    unsigned a, b, c, d;
    if (nq_cpu_simd_best() < NQ_SIMD_AVX512)
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return nq_has(c, NQ_CPUID7C_VPOPCNTDQ);
}

#else

nq_simd nq_cpu_simd_best(void) { return NQ_SIMD_NONE; }

int nq_cpu_has_vpopcnt(void) { return 0; }

#endif
