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
