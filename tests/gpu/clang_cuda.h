/*
 * clang_cuda.h - the few CUDA declarations that the kernels use, for
 * clang's CUDA front end without a CUDA toolkit (-nocudainc), so that
 * tests/gpu/kernel_ptx.sh compiles src/device/cuda for the GPU on any
 * machine with clang. Test helper; nvcc builds never see it.
 */
#define __CUDACC__ 1
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))

#include <__clang_cuda_builtin_vars.h>

__device__ static inline int __ffs(int x) { return __builtin_ffs(x); }
__device__ static inline int __popc(unsigned x) { return __builtin_popcount(x); }
__device__ static inline unsigned long long atomicAdd(unsigned long long *p,
                                                      unsigned long long v)
{
    return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
__device__ static inline unsigned long long atomicOr(unsigned long long *p,
                                                     unsigned long long v)
{
    return (unsigned long long)__nvvm_atom_or_gen_ll((long long *)p, (long long)v);
}
/* a warp's calls (full masks only: the kernels' lanes always meet) */
__device__ static inline void __syncwarp(unsigned mask = 0xffffffffu)
{
    __nvvm_bar_warp_sync(mask);
}
__device__ static inline unsigned __ballot_sync(unsigned mask, int pred)
{
    return __nvvm_vote_ballot_sync(mask, pred);
}
__device__ static inline unsigned long long __shfl_sync(unsigned mask, unsigned long long v,
                                                        int src)
{
    const unsigned lo = (unsigned)__nvvm_shfl_sync_idx_i32(mask, (int)(unsigned)v, src, 0x1f);
    const unsigned hi = (unsigned)__nvvm_shfl_sync_idx_i32(mask, (int)(unsigned)(v >> 32), src, 0x1f);
    return (unsigned long long)hi << 32 | lo;
}
__device__ static inline unsigned long long __shfl_xor_sync(unsigned mask, unsigned long long v,
                                                            int x)
{
    const unsigned lo = (unsigned)__nvvm_shfl_sync_bfly_i32(mask, (int)(unsigned)v, x, 0x1f);
    const unsigned hi = (unsigned)__nvvm_shfl_sync_bfly_i32(mask, (int)(unsigned)(v >> 32), x, 0x1f);
    return (unsigned long long)hi << 32 | lo;
}
