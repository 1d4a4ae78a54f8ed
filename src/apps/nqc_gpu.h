/*
 * nqc_gpu.h - why no GPU can count, in words, for nqueens and nqueens-mpi
 * alike (a status of nq_gpu_count(), or of a count with NQ_DEVICE_GPU).
 */
#ifndef NQC_GPU_H
#define NQC_GPU_H

#include "nqueens.h"

/* @return a phrase for status (NQ_EUNSUPPORTED: no GPU support in this
 * build; NQ_ENODRIVER, NQ_ENODEVICE), or nq_strerror()'s sentence for
 * any other. */
static inline const char *nqc_no_gpu_reason(int status)
{
    switch (status) {
    case NQ_EUNSUPPORTED:
        return "this build has no GPU support (build it with CUDA: see the README)";
    case NQ_ENODRIVER:
        return "no NVIDIA driver that this build can use (libcuda.so.1 from "
               "CUDA 11 or later)";
    case NQ_ENODEVICE: return "the NVIDIA driver shows no GPU";
    default: return nq_strerror(status);
    }
}

/* Whether a count on a GPU can run method m (NQ_METHOD_DEFAULT: the one
 * the GPU runs by default), so that nqueens and nqueens-mpi refuse the
 * others before they start; the library refuses them too (NQ_EMETHOD).
 * NQC_GPU_METHODS names them for the message. */
#define NQC_GPU_METHODS "the symmetry and join methods"
static inline int nqc_gpu_runs(nq_method m)
{
    return m == NQ_METHOD_DEFAULT || m == NQ_METHOD_SYMMETRY || m == NQ_METHOD_JOIN;
}

#endif /* NQC_GPU_H */
