/*
 * emu.h - what the emulated driver (emu_driver.c) and the host build of
 * the CUDA kernels (emu_kernels.cc) share. Test helper, never installed.
 */
#ifndef NQ_EMU_H
#define NQ_EMU_H

#ifdef __cplusplus
extern "C" {
#endif

/* The dynamic shared memory a block may ask for (the CUDA default). */
#define NQ_EMU_SHARED_BYTES 49152u

/* The image the emulated build embeds in place of nvcc's fat binary: the
 * driver loads no other. */
#define NQ_EMU_IMAGE_MAGIC "nqueens-emulated-gpu-image"

/* Runs block `block` of a grid of `grid` blocks of `threads` threads of
 * kernel `name` with the launch's parameters `params` (pointers to each
 * value, as cuLaunchKernel takes them) and `shared` bytes of dynamic
 * shared memory, its threads one after the other on the calling thread.
 * @return 0; -1 when there is no kernel of that name; -2 when the block
 *         wrote past the shared memory the launch asked for. */
int nq_emu_run_block(const char *name, unsigned block, unsigned grid, unsigned threads,
                     unsigned shared, void *const *params);

/* A launch of kernel `name` starts (its blocks run next): its count of
 * the adds of its latest launch starts again. */
void nq_emu_launch_starts(const char *name);

/* @return 1 when there is a kernel of that name, else 0. */
int nq_emu_has_kernel(const char *name);

/* The parameters of kernel `name`: how many (at most 10), and as bit
 * masks which are values rather than device pointers, which of those are
 * 4 bytes wide (the others 8), and which pointers may be null.
 * @return 0; -1 when there is no kernel of that name. */
int nq_emu_kernel_params(const char *name, unsigned *count, unsigned *values,
                         unsigned *narrow, unsigned *nullable);

/* The emulated driver's own call (not the CUDA driver's): the launches
 * of kernel `name` in this process so far (0 for no such kernel). A test
 * takes it with dlsym() from the driver it loaded. */
unsigned long nq_emu_launches(const char *name);

/* Another: the atomic adds that kernel `kernel` made, dropped ones too,
 * its threads' fetches of tasks not: in its latest launch (`latest` not 0), or in all of this process's so
 * far (0 for no such kernel). */
unsigned long long nq_emu_adds(const char *kernel, int latest);

/* Another of its own: from the next launch of kernel `kernel` on, its
 * k-th atomicAdd (fetches aside) adds nothing, as NQ_EMU_DROP=KERNEL:K plays (kernel
 * NULL or k 0: none is dropped). Between launches only. */
void nq_emu_drop(const char *kernel, long long k);

#ifdef __cplusplus
}
#endif

#endif /* NQ_EMU_H */
