/*
 * emu_kernels.cc - the CUDA kernels of src/device/cuda, compiled for the
 * host as C++ from their own text, for the emulated driver. Test helper.
 *
 * The few words of CUDA the kernels use are given host meanings before
 * the kernel file is included: threadIdx, blockIdx, blockDim and gridDim
 * are the running thread's (set by nq_emu_run_block), a block's shared
 * memory is a buffer of the host thread that runs the block, and
 * atomicAdd is an atomic add. The threads of a block run one after the
 * other, so a kernel must not wait for its block's other threads (none
 * does: each fetches tasks until none is left).
 */
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "emu.h"

namespace {
struct emu_dim3 {
    unsigned x, y, z;
};
thread_local emu_dim3 threadIdx, blockIdx, blockDim, gridDim;

unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
} // namespace

#define __global__
#define __shared__ thread_local
#define __restrict__ __restrict

/* the block's shared memory; the kernels declare it `extern __shared__` */
extern "C" {
thread_local unsigned char stacks[NQ_EMU_SHARED_BYTES];
}

#include "device/cuda/cuda_sym.cu"

namespace {
/* A launch parameter: the value that params[i] points to. */
template <typename T> T param(void *const *params, int i)
{
    T v;
    std::memcpy(&v, params[i], sizeof v);
    return v;
}

template <typename T> T *device_pointer(void *const *params, int i)
{
    return reinterpret_cast<T *>(static_cast<uintptr_t>(param<unsigned long long>(params, i)));
}
} // namespace

extern "C" int nq_emu_has_kernel(const char *name)
{
    return std::strcmp(name, "nq_sym_walk_kernel") == 0;
}

extern "C" int nq_emu_run_block(const char *name, unsigned block, unsigned grid,
                                unsigned threads, void *const *params)
{
    if (!nq_emu_has_kernel(name))
        return -1;
    blockIdx = {block, 0, 0};
    gridDim = {grid, 1, 1};
    blockDim = {threads, 1, 1};
    /* what a block finds in shared memory is not zero */
    std::memset(stacks, 0xa5, sizeof stacks);
    for (unsigned t = 0; t < threads; t++) {
        threadIdx = {t, 0, 0};
        nq_sym_walk_kernel(device_pointer<const uint32_t>(params, 0),
                           device_pointer<const nq_symw_task>(params, 1),
                           param<unsigned long long>(params, 2),
                           device_pointer<unsigned long long>(params, 3),
                           device_pointer<unsigned long long>(params, 4),
                           device_pointer<const volatile int>(params, 5));
    }
    return 0;
}
