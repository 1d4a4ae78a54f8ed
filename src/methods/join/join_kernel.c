/*
 * join_kernel.c - the join method's kernels, one row per SIMD level. An
 * empty row means this build has no kernels of that level: the level is
 * then unsupported (NQ_EUNSUPPORTED), and nq_simd_best() never names it.
 */
#include "join_kernel.h"

static const nq_join_kernel nq_join_kernels[] = {
    [NQ_SIMD_NONE] = { nq_join_take_scalar, nq_join_pairs_scalar,
                       nq_join_fill_scalar, nq_join_match_scalar, NULL, 0 },
#if NQ_X86
    [NQ_SIMD_AVX2] = { nq_join_take_avx2, nq_join_pairs_avx2,
                       nq_join_fill_avx2, nq_join_match_avx2, NULL, 1 },
    /* popcounts of 512 bits need VPOPCNTDQ, beyond the AVX-512 level:
     * without it the AVX2 match runs (AVX-512 includes AVX2) */
    [NQ_SIMD_AVX512] = { nq_join_take_avx512, nq_join_pairs_avx512,
                         nq_join_fill_avx512, nq_join_match_avx2,
                         nq_join_match_avx512, 1 },
#endif
};

const nq_join_kernel *nq_join_kernel_of(nq_simd simd)
{
    size_t i = (size_t)simd;
    if (simd == NQ_SIMD_AUTO ||
        i >= sizeof nq_join_kernels / sizeof nq_join_kernels[0] ||
        !nq_join_kernels[i].take)
        return NULL;
    return &nq_join_kernels[i];
}
