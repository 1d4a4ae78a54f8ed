/*
 * sym_kernel.c - the symmetry method's kernels, one row per SIMD level.
 * An empty row means this build has no kernel of that level: the level is
 * then unsupported (NQ_EUNSUPPORTED), and nq_simd_best() never names it.
 * Declared in sym_kernel.h; each level's kernel in its own header.
 */
#include "sym_kernel.h"

#include <stddef.h>

#include "sym_avx2.h"
#include "sym_avx512.h"
#include "sym_scalar.h"

static const nq_sym_kernel_fn nq_sym_kernels[] = {
    [NQ_SIMD_NONE] = nq_sym_count_scalar,
#if NQ_X86
    [NQ_SIMD_AVX2] = nq_sym_count_avx2,
    [NQ_SIMD_AVX512] = nq_sym_count_avx512,
#endif
};

nq_sym_kernel_fn nq_sym_kernel_of(nq_simd simd)
{
    size_t i = (size_t)simd;
    if (simd == NQ_SIMD_AUTO ||
        i >= sizeof nq_sym_kernels / sizeof nq_sym_kernels[0])
        return NULL;
    return nq_sym_kernels[i];
}
