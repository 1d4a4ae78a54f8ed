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
 * does: each fetches tasks until none is left). What a block leaves past
 * the shared memory its launch asked for is looked at after it: a write
 * there is a fault (on a GPU, an out-of-range access or another block's
 * memory).
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

/* the block's shared memory, under each name that a kernel declares it
 * by (`extern __shared__`) */
extern "C" {
thread_local unsigned char stacks[NQ_EMU_SHARED_BYTES];
}

#include "device/cuda/cuda_sym.cu"

extern "C" {
thread_local nq_symw_frame frames[NQ_EMU_SHARED_BYTES / sizeof(nq_symw_frame)];
}

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

/* What a block finds in shared memory: not zero. */
#define SHARED_FILL 0xa5

typedef void kernel_fn(const uint32_t *, const nq_symw_task *, unsigned long long,
                       unsigned long long *, unsigned long long *, const volatile int *);

static const struct {
    const char *name;
    kernel_fn *run;
} kernels[] = {
    {"nq_sym_walk_kernel", nq_sym_walk_kernel},
    {"nq_sym_step_kernel", nq_sym_step_kernel},
};

/* The shared memory of kernel k (its name in the kernel's text), on the
 * calling thread. */
static unsigned char *shared_of(size_t k)
{
    return k == 0 ? stacks : reinterpret_cast<unsigned char *>(frames);
}

static int find_kernel(const char *name)
{
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        if (std::strcmp(name, kernels[k].name) == 0)
            return (int)k;
    return -1;
}

extern "C" int nq_emu_has_kernel(const char *name)
{
    return find_kernel(name) >= 0;
}

extern "C" int nq_emu_run_block(const char *name, unsigned block, unsigned grid,
                                unsigned threads, unsigned shared, void *const *params)
{
    const int k = find_kernel(name);
    if (k < 0)
        return -1;
    unsigned char *mem = shared_of((size_t)k);
    blockIdx = {block, 0, 0};
    gridDim = {grid, 1, 1};
    blockDim = {threads, 1, 1};
    std::memset(mem, SHARED_FILL, NQ_EMU_SHARED_BYTES);
    for (unsigned t = 0; t < threads; t++) {
        threadIdx = {t, 0, 0};
        kernels[k].run(device_pointer<const uint32_t>(params, 0),
                       device_pointer<const nq_symw_task>(params, 1),
                       param<unsigned long long>(params, 2),
                       device_pointer<unsigned long long>(params, 3),
                       device_pointer<unsigned long long>(params, 4),
                       device_pointer<const volatile int>(params, 5));
    }
    for (unsigned i = shared; i < NQ_EMU_SHARED_BYTES; i++)
        if (mem[i] != SHARED_FILL)
            return -2;
    return 0;
}
