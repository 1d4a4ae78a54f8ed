/*
 * test_cpu.c - the CPU check (src/platform/cpu.h): the SIMD level and the
 * VPOPCNTDQ extension that nq_cpu_simd_best() and nq_cpu_has_vpopcnt()
 * read from CPUID and XCR0 agree with the compiler's own reading, and
 * nq_cpu_runs(), the one test of a level's support, answers as its
 * contract says. Under qemu (tests/run.sh) these run on CPUs with AVX2
 * and without, whatever this machine is.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "platform/cpu.h"

static const nq_simd levels[] = { NQ_SIMD_NONE, NQ_SIMD_AVX2, NQ_SIMD_AVX512 };
#define NLEVELS (sizeof levels / sizeof levels[0])

/* Our CPUID + XGETBV check against the compiler's (which also asks XCR0). */
static void test_simd_best_is_the_compilers(void **state)
{
    const nq_simd cpu = nq_cpu_simd_best();
    (void)state;
#if NQ_X86 && defined(__GNUC__)
    __builtin_cpu_init();
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                     __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    const int avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                       __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512dq") &&
                       __builtin_cpu_supports("avx512vl");
    assert_int_equal(cpu, avx512 ? NQ_SIMD_AVX512 : avx2 ? NQ_SIMD_AVX2 : NQ_SIMD_NONE);
    /* VPOPCNTDQ counts only beyond the AVX-512 level */
    assert_int_equal(nq_cpu_has_vpopcnt() != 0,
                     avx512 && __builtin_cpu_supports("avx512vpopcntdq"));
#else
    assert_int_equal(cpu, NQ_SIMD_NONE);
    assert_int_equal(nq_cpu_has_vpopcnt(), 0);
#endif
    print_message("this CPU and OS run up to %s%s\n", nq_simd_name(cpu),
                  nq_cpu_has_vpopcnt() ? " (with VPOPCNTDQ)" : "");
}

/* AUTO and NONE run everywhere; a wider level exactly up to the best. */
static void test_runs(void **state)
{
    (void)state;
    for (size_t b = 0; b < NLEVELS; b++) {
        const nq_simd best = levels[b];
        assert_true(nq_cpu_runs(best, NQ_SIMD_AUTO));
        assert_true(nq_cpu_runs(best, NQ_SIMD_NONE));
        for (size_t l = 1; l < NLEVELS; l++)
            assert_int_equal(nq_cpu_runs(best, levels[l]) != 0, l <= b);
    }
    /* this CPU runs its own best level and nothing wider */
    for (size_t l = 0; l < NLEVELS; l++)
        assert_int_equal(nq_cpu_runs(nq_cpu_simd_best(), levels[l]) != 0,
                         levels[l] <= nq_cpu_simd_best());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simd_best_is_the_compilers),
        cmocka_unit_test(test_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
