/*
 * nq_join_gpu_loops.cu - the two inner loops of a GPU join as a kernel
 * would run them, compiled only to read their instructions: the prices of
 * bench/nq_join_gpu_model.c. Not built by CMake; by hand:
 *
 *   nvcc -ptx -O3 -std=c++17 -arch=sm_90 -Isrc bench/nq_join_gpu_loops.cu -o loops.ptx
 *
 * - jg_list: a thread walks half `half` of the block's split with the step
 *   walk (join_steps.h), its frames in shared memory at the block's stride,
 *   each key it lists appended to a list in global memory.
 * - jg_match<C, B>: a warp shares the tables of B blocks of keys (shared
 *   memory), and each thread meets them with every 32nd item of a list,
 *   C chunks a key.
 */
#include "steps/join_steps.h"

extern "C" __global__ void jg_list(const nq_jg_split *splits, unsigned half,
                                   unsigned long long *keys, unsigned long long *count)
{
    extern __shared__ nq_jg_frame frames[];
    __shared__ nq_jg_split s;
    nq_jg_frame *mine = frames + threadIdx.x;
    nq_jg_walk w;
    uint64_t key;
    if (threadIdx.x == 0)
        s = splits[blockIdx.x];
    __syncthreads();
    nq_jg_start(&w, &s, half, mine);
    while (w.top)
        if (nq_jg_step(&w, &s, mine, blockDim.x, &key))
            keys[atomicAdd(count, 1ull)] = key;
}

/* A warp's 32 threads share the tables of B blocks (B x C x 32 words, in
 * shared memory), and each thread meets them with its own items: a
 * chunk's words are loaded without a bank conflict (join_steps.h). */
template <unsigned C, unsigned B>
__device__ void match(const unsigned long long *items, unsigned nitems,
                      unsigned long long *count)
{
    extern __shared__ uint32_t tables[];
    const uint32_t *mine = tables + (threadIdx.x / 32u) * B * C * NQ_JG_CHUNK_VALUES;
    unsigned long long n = 0;
    for (unsigned i = threadIdx.x % 32u; i < nitems; i += 32u)
        for (unsigned b = 0; b < B; b++)
            n += nq_jg_match(mine + b * C * NQ_JG_CHUNK_VALUES, 1, items[i], C);
    atomicAdd(count, n);
}

/* Or each thread meets its own block (its table's words interleaved with
 * the other threads', a word a bank: no conflict either) with its own
 * list of items: no warp need share anything, at a kilobyte or so of
 * shared memory a thread. */
template <unsigned C>
__device__ void match_own(const unsigned long long *items, unsigned nitems,
                          unsigned long long *count)
{
    extern __shared__ uint32_t tables[];
    unsigned long long n = 0;
    for (unsigned i = 0; i < nitems; i++)
        n += nq_jg_match(tables + threadIdx.x, blockDim.x, items[i], C);
    atomicAdd(count, n);
}

#define JG_MATCH_OWN(C)                                                                \
    extern "C" __global__ void jg_own##C(const unsigned long long *items, unsigned nitems, \
                                         unsigned long long *count)                    \
    {                                                                                  \
        match_own<C>(items, nitems, count);                                            \
    }
JG_MATCH_OWN(4)
JG_MATCH_OWN(11)

#define JG_MATCH(C, B)                                                                 \
    extern "C" __global__ void jg_match##C##_##B(const unsigned long long *items,      \
                                                 unsigned nitems,                      \
                                                 unsigned long long *count)            \
    {                                                                                  \
        match<C, B>(items, nitems, count);                                             \
    }
JG_MATCH(4, 1)
JG_MATCH(6, 1)
JG_MATCH(8, 1)
JG_MATCH(11, 1)
JG_MATCH(4, 4)
JG_MATCH(6, 4)
JG_MATCH(8, 4)
JG_MATCH(11, 4)
