/*
 * cuda_sym.cu - the GPU kernel of the symmetry method: every thread walks
 * tasks (nodes a few levels into some unit's interior walk) with the
 * shared steps of sym_walk.h, until the batch has none left.
 *
 * Compiled by nvcc into a fat binary (a cubin per architecture named at
 * configure time, plus PTX for later ones) that the library embeds and
 * loads through the CUDA driver (cuda_host.c); nothing here is linked
 * into the library as host code.
 *
 * - Work is fetched dynamically: one 64-bit atomic counter hands out task
 *   indices, so a thread that finishes a short task takes the next one at
 *   once and long tasks do not leave the rest of the card idle.
 * - Each thread's stack (one byte a level) lives in the block's shared
 *   memory, level-major, so the 32 threads of a warp read and write 32
 *   neighbouring bytes: no bank conflicts, and no local memory.
 * - A unit's solutions are added into its board's counter when a task
 *   ends (one atomic per task, not per solution).
 * - The host raises *stop (mapped host memory) to end a launch early: a
 *   thread looks at it before each task and every NQ_SYMW_POLL_STEPS
 *   steps of a long one, so a stop takes effect within milliseconds.
 */
#include <stddef.h>

#include "../../methods/sym/sym_walk.h"

extern "C" __global__ void
nq_sym_walk_kernel(const uint32_t *__restrict__ boards,
                   const nq_symw_task *__restrict__ tasks,
                   unsigned long long ntasks, unsigned long long *next,
                   unsigned long long *counts, const volatile int *stop)
{
    extern __shared__ unsigned char stacks[];
    unsigned char *stack = stacks + threadIdx.x;
    const unsigned stride = blockDim.x;

    for (;;) {
        if (*stop)
            return;
        const unsigned long long i = atomicAdd(next, 1ull);
        if (i >= ntasks)
            return;
        const nq_symw_task t = tasks[i];
        const uint32_t board = t.board_level >> 8;
        const unsigned level = t.board_level & 0xffu;
        const uint32_t *rows = boards + (size_t)board * NQ_SYMW_BOARD_WORDS;
        const unsigned levels = rows[0];
        uint64_t count = 0;
        if (nq_symw_walk(rows + 1, levels, level, t.cols, t.ld, t.rd, stack,
                         stride, stop, &count))
            return;
        if (count)
            atomicAdd(&counts[board], (unsigned long long)count);
    }
}
