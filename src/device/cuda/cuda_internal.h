/*
 * cuda_internal.h - what the CUDA backend's files share. Not public,
 * never installed. The files, each calling only those below it:
 *   cuda_host.c       the backend (device.h): its GPUs listed and
 *                     opened, the symmetry method's walks;
 *   cuda_join_host.c  the join's splits on an opened GPU;
 *   cuda_driver.c     the driver loaded, its errors, buffers and
 *                     launches.
 */
#ifndef NQ_CUDA_INTERNAL_H
#define NQ_CUDA_INTERNAL_H

#include "device/backend.h"

/* --- the driver's ABI -------------------------------------------------- */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_NOT_READY = 600,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
    CU_SHAREDMEM_CARVEOUT_MAX_SHARED = 100,
    CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
    CU_STREAM_NON_BLOCKING = 0x1
};

/* The driver functions this backend calls, by their exported names. */
typedef struct driver {
    void *lib;
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceTotalMem)(size_t *, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*PrimaryCtxRelease)(CUdevice);
    CUresult (*CtxPushCurrent)(CUcontext);
    CUresult (*CtxPopCurrent)(CUcontext *);
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleUnload)(CUmodule);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
    CUresult (*FuncSetAttribute)(CUfunction, int, int);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemGetInfo)(size_t *, size_t *);
    CUresult (*MemHostAlloc)(void **, size_t, unsigned);
    CUresult (*MemFreeHost)(void *);
    CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamDestroy)(CUstream);
    CUresult (*StreamQuery)(CUstream);
    CUresult (*StreamSynchronize)(CUstream);
} driver;

/* --- an opened GPU ----------------------------------------------------- */

typedef struct cuda_gpu {
    driver d;
    CUdevice dev;
    CUcontext ctx;
    CUmodule module;
    CUfunction kernels[NQ_GPU_WALKS];
    /* blocks a launch of each for tasks of up to L levels ([L]): what
     * the card runs at once */
    unsigned blocks[NQ_GPU_WALKS][NQ_SYMW_STEP_LEVELS + 1];
    nq_gpu_walk walk;        /* the kernel that walks */
    CUmodule join_module;
    CUfunction join_list, join_lay, join_sort, join_check, join_pairs, join_pairs_warp;
    nq_gpu_pairs pairs;      /* the pairs kernel that meets */
    unsigned join_lay_blocks, join_sort_blocks, join_check_blocks;
    /* blocks a launch of the listing by the batch's most levels h (its
     * frames), of the pairs by its most chunks (their tables): the fewer,
     * the more blocks an SM runs at once */
    unsigned join_list_blocks[NQ_JG_MAX_H + 1], join_pairs_blocks[NQ_JG_MAX_CHUNKS + 1],
        join_warp_blocks[NQ_JG_MAX_CHUNKS + 1];
    unsigned join_h, join_chunks; /* the batch's, as launched */
    CUstream stream;
    uint64_t memory;         /* bytes its buffers may take */
    volatile int *stop;      /* mapped host memory the kernels look at */
    CUdeviceptr stop_dev;
    CUdeviceptr boards, tasks, counts, next;
    size_t boards_cap, counts_cap;  /* in bytes */
    uint64_t tasks_cap;             /* in tasks */
    CUdeviceptr splits, sizes, keys, jobs, lists, bounds, lays; /* the join's (counts:
                                                                    the same) */
    size_t splits_cap, sizes_cap, keys_cap, jobs_cap, lists_cap, bounds_cap,
        lays_cap; /* bytes */
} cuda_gpu;

/* --- cuda_driver.c ----------------------------------------------------- */

/* Loads and starts the driver into *d. @return NQ_OK, NQ_ENODRIVER,
 * NQ_ENODEVICE, NQ_EDEVICE. */
int nq_cuda_driver_load(driver *d);
void nq_cuda_driver_unload(driver *d);
/* The status of a driver's result: NQ_OK, NQ_EDEVICEMEM, NQ_EDEVICE. */
int nq_cuda_status(CUresult r);
/* Attribute attr of device dev into *out. @return as nq_cuda_status(). */
int nq_cuda_attribute(const driver *d, int attr, CUdevice dev, unsigned *out);
/* Frees *p (none: nothing) and sets it to 0; nq_cuda_drop() also sets
 * its capacity *cap (may be NULL) to 0. */
void nq_cuda_release(cuda_gpu *g, CUdeviceptr *p);
void nq_cuda_drop(cuda_gpu *g, CUdeviceptr *p, size_t *cap);
/* Makes *p hold at least `need` bytes (dropping what it held).
 * @return NQ_OK, NQ_EDEVICEMEM. */
int nq_cuda_reserve(cuda_gpu *g, CUdeviceptr *p, size_t *cap, size_t need);
/* Blocks of `threads` threads and `shared` bytes each of kernel f that a
 * launch takes to fill the card's `sms` SMs, into *blocks.
 * @return as nq_cuda_status(). */
int nq_cuda_fill_card(cuda_gpu *g, CUfunction f, unsigned threads, size_t shared, unsigned sms,
                      unsigned *blocks);
/* Launches f on `blocks` blocks of `threads` threads and `shared` bytes
 * of shared memory, its work counter reset, and waits for it, passing a
 * raised stop flag on to it. @return NQ_OK, NQ_ECANCELED, or as
 * nq_cuda_status(). */
int nq_cuda_launch(cuda_gpu *g, CUfunction f, unsigned blocks, unsigned threads, size_t shared,
                   void **args, const nq_stop_flag *stop);

/* Ends a batch's work on g's stream: when rc is NQ_OK, copies `bytes` of
 * the counts back into counts; then waits for the stream either way.
 * @return rc, or the first failure of the copy or the wait. */
int nq_cuda_finish(cuda_gpu *g, uint64_t *counts, size_t bytes, int rc);

/* A batch's count with g's context current: fills sums[] (one per board
 * or split of the batch). @return NQ_OK, NQ_ECANCELED, or as
 * nq_cuda_status(). */
typedef int (*nq_cuda_counting)(cuda_gpu *g, const void *batch, uint64_t *sums,
                                const nq_stop_flag *stop);
/* Counts the batch's n boards or splits by `count`, in g's context, and
 * adds them into counts[0 .. n) when it succeeds (a failed or stopped
 * count adds nothing). @return as count(), NQ_ENOMEM. */
int nq_cuda_count_batch(cuda_gpu *g, const void *batch, size_t n, nq_cuda_counting count,
                        uint64_t *counts, const nq_stop_flag *stop);

/* --- cuda_join_host.c -------------------------------------------------- */

/* Loads the join's kernels into g and sizes their launches for `sms`
 * SMs. @return as nq_cuda_status(). */
int nq_cuda_open_join(cuda_gpu *g, unsigned sms);
/* The backend's join_splits() (device.h). */
int nq_cuda_join_splits(void *gpu, const nq_join_batch *batch, uint64_t *counts,
                        const nq_stop_flag *stop);

#endif /* NQ_CUDA_INTERNAL_H */
