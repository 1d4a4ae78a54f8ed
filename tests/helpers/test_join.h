/* Helpers of the join method's tests (test_join.c, test_join_kernels.c,
 * test_join_table.c): plans built and units counted through the internal
 * API, the SIMD levels this build and CPU run, and a small random source.
 * Static functions in a header, for test programs only: include cmocka.h
 * first. */
#ifndef NQ_TEST_JOIN_H
#define NQ_TEST_JOIN_H

#include <stdint.h>

#include "platform/cpu.h"
#include "methods/join/join_plan.h"

static inline nq_join_plan *build(unsigned n, int walk)
{
    nq_join_plan *plan = NULL;
    assert_int_equal(walk ? nq_join_plan_build_walk(&plan, n)
                          : nq_join_plan_build(&plan, n), NQ_OK);
    assert_non_null(plan);
    assert_true(nq_join_plan_size(plan) > 0);
    return plan;
}

static inline uint64_t solve(const nq_join_plan *plan, uint64_t unit, nq_simd simd)
{
    nq_stop_flag stop = 0;
    nq_unit_result r = { 7, 7 };
    assert_int_equal(nq_join_solve_unit(plan, unit, simd, &stop, &r), NQ_OK);
    assert_int_equal(r.unique, 0);
    return r.total;
}

/* The SIMD levels this build and CPU run, scalar first. */
static inline unsigned levels(nq_simd out[3])
{
    unsigned k = 0;
    out[k++] = NQ_SIMD_NONE;
#if NQ_X86
    if (nq_cpu_runs(nq_cpu_simd_best(), NQ_SIMD_AVX2))
        out[k++] = NQ_SIMD_AVX2;
    if (nq_cpu_runs(nq_cpu_simd_best(), NQ_SIMD_AVX512))
        out[k++] = NQ_SIMD_AVX512;
#endif
    return k;
}

static inline uint64_t next_random(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

#endif
