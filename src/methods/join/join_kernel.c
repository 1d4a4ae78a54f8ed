/*
 * join_kernel.c - the join method's kernels, one row per SIMD level. An
 * empty row means this build has no kernels of that level: the level is
 * then unsupported (NQ_EUNSUPPORTED), and nq_simd_best() never names it.
 *
 * A row's fill_items weighs a filled block against the items its match
 * meets in the cost model: fitted to the thread CPU time of the matches
 * (time = a * items + b * fills, fill_items = b / a) on exact splits of
 * n = 20 to 24 (and 26 at AVX-512), an AMD EPYC (Zen 5) with the other
 * core idle, `bench/nq_prices N SPLITS LEVEL WALKS RUN` with
 * NQ_PRICES_TABLE=0 (docs/performance.md, "The cost model's prices").
 * The fit was within 3% at every n; with the old weight of 40 the price
 * per item fell by a third from n = 20 to 26, where blocks meet far more
 * items each.
 */
#include "join_kernel.h"

#include "join_avx2.h"
#include "join_avx512.h"
#include "join_scalar.h"

static const nq_join_kernel nq_join_kernels[] = {
    [NQ_SIMD_NONE] = {
        .take = nq_join_take_scalar,
        .pairs = nq_join_pairs_scalar,
        .fill = nq_join_fill_scalar,
        .match = nq_join_match_scalar,
        .bins = nq_join_bins_scalar,
        .fill_items = 280.0,
        .rows_at_once = 0,
    },
#if NQ_X86
    [NQ_SIMD_AVX2] = {
        .take = nq_join_take_avx2,
        .pairs = nq_join_pairs_avx2,
        .fill = nq_join_fill_avx2,
        .match = nq_join_match_avx2,
        .bins = nq_join_bins_avx2,
        .fill_items = 550.0,
        .rows_at_once = 1,
    },
    /* popcounts of 512 bits need VPOPCNTDQ, beyond the AVX-512 level:
     * without it the AVX2 match runs (AVX-512 includes AVX2) */
    [NQ_SIMD_AVX512] = {
        .take = nq_join_take_avx512,
        .pairs = nq_join_pairs_avx512,
        .fill = nq_join_fill_avx512,
        .match = nq_join_match_avx2,
        .match_vpopcnt = nq_join_match_avx512,
        .bins = nq_join_bins_avx512,
        .fill_items = 550.0,
        .fill_items_vpopcnt = 650.0,
        .rows_at_once = 1,
    },
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
