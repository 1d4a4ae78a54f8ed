/*
 * cuda_host.h - the CUDA backend's row of the table of backends
 * (cuda_host.c; device.c lists it). Not public, never installed.
 */
#ifndef NQ_CUDA_HOST_H
#define NQ_CUDA_HOST_H

#include "device/backend.h"

extern const nq_gpu_backend nq_cuda_backend;

#endif /* NQ_CUDA_HOST_H */
