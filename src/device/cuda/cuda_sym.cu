/*
 * cuda_sym.cu - the GPU kernels of the symmetry method: every thread walks
 * tasks (nodes a few levels into some unit's interior walk) with the
 * shared steps of sym_steps.h, until the batch has none left. Two kernels
 * walk the same tasks to the same counts, by the two walks of sym_steps.h:
 *
 * - nq_sym_step_kernel (the default): one node a pass of its loop, the
 *   same instructions for all 32 threads of a warp (nq_symw_step: no
 *   branch), and a thread whose task is over fetches the next one within
 *   the same loop, so the warp's threads meet again at the next step
 *   rather than waiting for the one with the longest task. Its stack of
 *   frames (16 bytes each, one fewer a thread than the levels its batch's
 *   tasks walk: NQ_SYMW_STEP_FRAMES at most) takes the block's shared
 *   memory.
 * - nq_sym_walk_kernel: the byte-stack walk (nq_symw_walk), which needs
 *   26 bytes of shared memory a thread but branches three ways a pass.
 *   Kept while the two are timed against each other (bench/gpu.sh).
 *
 * Compiled by nvcc into a fat binary (a cubin per architecture named at
 * configure time, plus PTX for later ones) that the library embeds and
 * loads through the CUDA driver (cuda_host.c); nothing here is linked
 * into the library as host code.
 *
 * - Work is fetched dynamically: one 64-bit atomic counter hands out task
 *   indices, so a thread that finishes a short task takes the next one at
 *   once and long tasks do not leave the rest of the card idle.
 * - Each thread's stack lives in the block's shared memory, depth-major,
 *   so the 32 threads of a warp touch 32 neighbouring entries: no bank
 *   conflicts, and no local memory.
 * - A unit's solutions are added into its board's counter when a task
 *   ends (one atomic per task, not per solution).
 * - The host raises *stop (mapped host memory) to end a launch early: a
 *   thread looks at it before each task and every NQ_SYMW_POLL_STEPS
 *   steps of a long one, so a stop takes effect within milliseconds.
 */
#include <stddef.h>

#include "../../steps/sym_steps.h"

#if defined(__CUDACC__)
#define NQ_DEVICE static __device__
#else
#define NQ_DEVICE static /* the emulator's host build (tests/gpu/emulator) */
#endif

/* The index of the batch's next task for this thread, or ntasks when none
 * is left or the host raised *stop. */
NQ_DEVICE unsigned long long next_task(unsigned long long *next, unsigned long long ntasks,
                                       const volatile int *stop)
{
    /* both asked before either is looked at, as join_next does */
    const int stopped = *stop;
    const unsigned long long i = atomicAdd(next, 1ull);
    return stopped || i >= ntasks ? ntasks : i;
}

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
        const unsigned long long i = next_task(next, ntasks, stop);
        if (i == ntasks)
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

extern "C" __global__ void
nq_sym_step_kernel(const uint32_t *__restrict__ boards,
                   const nq_symw_task *__restrict__ tasks,
                   unsigned long long ntasks, unsigned long long *next,
                   unsigned long long *counts, const volatile int *stop)
{
    extern __shared__ nq_symw_frame frames[];
    nq_symw_frame *mine = frames + threadIdx.x;
    const unsigned stride = blockDim.x;
    const uint32_t *rows = boards;
    uint32_t board = 0;
    unsigned poll = NQ_SYMW_POLL_STEPS;
    nq_symw_cursor c;

    c.top = 0;
    c.count = 0;
    for (;;) {
        if (!c.top) {
            /* the task is over: its count out, the next one in */
            if (c.count)
                atomicAdd(&counts[board], (unsigned long long)c.count);
            const unsigned long long i = next_task(next, ntasks, stop);
            if (i == ntasks)
                return;
            const nq_symw_task t = tasks[i];
            board = t.board_level >> 8;
            rows = boards + (size_t)board * NQ_SYMW_BOARD_WORDS;
            nq_symw_start(&c, rows + 1, rows[0], t.board_level & 0xffu, t.cols, t.ld,
                          t.rd, mine, stride);
            continue;
        }
        nq_symw_step(&c, rows + 1, mine, stride);
        if (--poll == 0) {
            poll = NQ_SYMW_POLL_STEPS;
            if (*stop)
                return;
        }
    }
}
