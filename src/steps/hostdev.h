/*
 * hostdev.h - the mark of a function that both the host compiler and a
 * GPU's compiler build from one text (the steps of src/steps/). Not
 * public, never installed.
 *
 * The steps are plain C: under nvcc (or clang's CUDA mode) NQ_HOST_DEVICE
 * makes a function callable from kernels and from the host alike; under a
 * C compiler it is a static inline function like any other, so the tests
 * without a GPU run the very steps a kernel runs.
 */
#ifndef NQ_HOSTDEV_H
#define NQ_HOSTDEV_H

#if defined(__CUDACC__)
#define NQ_HOST_DEVICE static inline __host__ __device__
#else
#define NQ_HOST_DEVICE static inline
#endif

#endif /* NQ_HOSTDEV_H */
