/*
 * cuda_driver.c - the CUDA driver as the backend's files use it
 * (cuda_internal.h): loaded at run time with dlopen() and its functions
 * taken with dlsym(), its results as status codes, buffers on the GPU,
 * and launches that the calling thread waits for while it watches the
 * count's stop flag.
 */
#ifdef NQ_HAVE_CUDA

#include "device/cuda/cuda_internal.h"

#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long the waiting thread looks at the stream without sleeping
 * (yielding the core between looks), then how long it sleeps between
 * two looks: a launch of a millisecond is seen done within a few
 * microseconds, not up to a sleep later, and a long one costs the host
 * no core. */
#define SPIN_NS 1000000L
#define POLL_NS 200000L

/* Takes symbol `name` of the driver into *slot (a function pointer's
 * bytes: ISO C has no cast from void * to a function pointer). */
static int take(void *lib, const char *name, void *slot, size_t size)
{
    void *sym = dlsym(lib, name);
    if (!sym)
        return 0;
    memcpy(slot, &sym, size);
    return 1;
}

#define TAKE(d, field, name) take((d)->lib, name, &(d)->field, sizeof (d)->field)

void nq_cuda_driver_unload(driver *d)
{
    /* RTLD_NODELETE keeps the driver mapped (it cannot be unloaded once
     * started); this only drops the handle */
    if (d->lib)
        dlclose(d->lib);
    d->lib = NULL;
}

/* Loads and starts the driver. @return NQ_OK, NQ_ENODRIVER, NQ_ENODEVICE,
 * NQ_EDEVICE. */
int nq_cuda_driver_load(driver *d)
{
    CUresult r;
    memset(d, 0, sizeof *d);
    d->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!d->lib)
        return NQ_ENODRIVER;
    if (!(TAKE(d, Init, "cuInit") && TAKE(d, DeviceGetCount, "cuDeviceGetCount") &&
          TAKE(d, DeviceGet, "cuDeviceGet") &&
          TAKE(d, DeviceGetName, "cuDeviceGetName") &&
          TAKE(d, DeviceTotalMem, "cuDeviceTotalMem_v2") &&
          TAKE(d, DeviceGetAttribute, "cuDeviceGetAttribute") &&
          TAKE(d, PrimaryCtxRetain, "cuDevicePrimaryCtxRetain") &&
          TAKE(d, PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2") &&
          TAKE(d, CtxPushCurrent, "cuCtxPushCurrent_v2") &&
          TAKE(d, CtxPopCurrent, "cuCtxPopCurrent_v2") &&
          TAKE(d, ModuleLoadData, "cuModuleLoadData") &&
          TAKE(d, ModuleUnload, "cuModuleUnload") &&
          TAKE(d, ModuleGetFunction, "cuModuleGetFunction") &&
          TAKE(d, OccupancyMaxActiveBlocksPerMultiprocessor,
               "cuOccupancyMaxActiveBlocksPerMultiprocessor") &&
          TAKE(d, FuncSetAttribute, "cuFuncSetAttribute") &&
          TAKE(d, MemAlloc, "cuMemAlloc_v2") && TAKE(d, MemFree, "cuMemFree_v2") &&
          TAKE(d, MemGetInfo, "cuMemGetInfo_v2") &&
          TAKE(d, MemHostAlloc, "cuMemHostAlloc") &&
          TAKE(d, MemFreeHost, "cuMemFreeHost") &&
          TAKE(d, MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2") &&
          TAKE(d, MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2") &&
          TAKE(d, MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2") &&
          TAKE(d, MemsetD8Async, "cuMemsetD8Async") &&
          TAKE(d, LaunchKernel, "cuLaunchKernel") &&
          TAKE(d, StreamCreate, "cuStreamCreate") &&
          TAKE(d, StreamDestroy, "cuStreamDestroy_v2") &&
          TAKE(d, StreamQuery, "cuStreamQuery") &&
          TAKE(d, StreamSynchronize, "cuStreamSynchronize"))) {
        nq_cuda_driver_unload(d);
        return NQ_ENODRIVER; /* a driver older than CUDA 11 */
    }
    r = d->Init(0);
    if (r != CUDA_SUCCESS) {
        nq_cuda_driver_unload(d);
        return r == CUDA_ERROR_NO_DEVICE ? NQ_ENODEVICE
               : r == CUDA_ERROR_INSUFFICIENT_DRIVER ? NQ_ENODRIVER
               : NQ_EDEVICE;
    }
    return NQ_OK;
}

int nq_cuda_status(CUresult r)
{
    return r == CUDA_SUCCESS ? NQ_OK
           : r == CUDA_ERROR_OUT_OF_MEMORY ? NQ_EDEVICEMEM
           : NQ_EDEVICE;
}

int nq_cuda_attribute(const driver *d, int attr, CUdevice dev, unsigned *out)
{
    int v = 0;
    CUresult r = d->DeviceGetAttribute(&v, attr, dev);
    *out = v > 0 ? (unsigned)v : 0u;
    return nq_cuda_status(r);
}

void nq_cuda_release(cuda_gpu *g, CUdeviceptr *p)
{
    if (*p)
        g->d.MemFree(*p);
    *p = 0;
}

/* Frees *p, and sets its capacity *cap (may be NULL) to 0. */
void nq_cuda_drop(cuda_gpu *g, CUdeviceptr *p, size_t *cap)
{
    nq_cuda_release(g, p);
    if (cap)
        *cap = 0;
}

/* Makes *p hold at least `need` bytes (dropping what it held). */
int nq_cuda_reserve(cuda_gpu *g, CUdeviceptr *p, size_t *cap, size_t need)
{
    if (*cap >= need)
        return NQ_OK;
    nq_cuda_release(g, p);
    *cap = 0;
    if (g->d.MemAlloc(p, need) != CUDA_SUCCESS) {
        *p = 0;
        return NQ_EDEVICEMEM;
    }
    *cap = need;
    return NQ_OK;
}

/* Blocks of `threads` threads and `shared` bytes each of kernel f that
 * a launch of it takes to fill the card's `sms` SMs. */
int nq_cuda_fill_card(cuda_gpu *g, CUfunction f, unsigned threads, size_t shared, unsigned sms,
                     unsigned *blocks)
{
    int per_sm = 0;
    /* as much of each SM's L1 as shared memory as it takes to hold the
     * blocks: a hint, which a driver may round */
    int rc = nq_cuda_status(g->d.FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                             CU_SHAREDMEM_CARVEOUT_MAX_SHARED));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, (int)threads,
                                                                      shared));
    *blocks = sms * (unsigned)(per_sm > 0 ? per_sm : 1);
    return rc;
}

/* Waits for the stream, passing a raised stop flag on to the kernels. */
static int wait_stream(cuda_gpu *g, const nq_stop_flag *stop)
{
    const struct timespec pause = { 0, POLL_NS };
    struct timespec t0, t;
    int spinning = clock_gettime(CLOCK_MONOTONIC, &t0) == 0;
    for (;;) {
        CUresult r = g->d.StreamQuery(g->stream);
        if (r != CUDA_ERROR_NOT_READY)
            return nq_cuda_status(r);
        if (nq_stopped(stop))
            *g->stop = 1;
        if (spinning && clock_gettime(CLOCK_MONOTONIC, &t) == 0 &&
            (t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < SPIN_NS)
            sched_yield();
        else {
            spinning = 0;
            nanosleep(&pause, NULL);
        }
    }
}

/* Launches f on `blocks` blocks of `threads` threads and `shared` bytes
 * of shared memory, its work counter reset, and waits for it.
 * @return NQ_OK, NQ_ECANCELED, or the driver's error. */
int nq_cuda_launch(cuda_gpu *g, CUfunction f, unsigned blocks, unsigned threads, size_t shared,
                  void **args, const nq_stop_flag *stop)
{
    int rc = nq_cuda_status(g->d.MemsetD8Async(g->next, 0, sizeof(unsigned long long), g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.LaunchKernel(f, blocks, 1, 1, threads, 1, 1, (unsigned)shared,
                                         g->stream, args, NULL));
    if (rc == NQ_OK)
        rc = wait_stream(g, stop);
    if (rc == NQ_OK && nq_stopped(stop))
        rc = NQ_ECANCELED;
    return rc;
}

int nq_cuda_count_batch(cuda_gpu *g, const void *batch, size_t n, nq_cuda_counting count,
                        uint64_t *counts, const nq_stop_flag *stop)
{
    uint64_t *sums;
    CUcontext dummy;
    int rc;
    if (n == 0)
        return NQ_OK;
    sums = malloc(n * sizeof *sums);
    if (!sums)
        return NQ_ENOMEM;
    rc = nq_cuda_status(g->d.CtxPushCurrent(g->ctx));
    if (rc == NQ_OK) {
        rc = count(g, batch, sums, stop);
        g->d.CtxPopCurrent(&dummy);
    }
    if (rc == NQ_OK)
        for (size_t i = 0; i < n; i++)
            counts[i] += sums[i];
    free(sums);
    return rc;
}

int nq_cuda_finish(cuda_gpu *g, uint64_t *counts, size_t bytes, int rc)
{
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(counts, g->counts, bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    else
        g->d.StreamSynchronize(g->stream);
    return rc;
}

#else
/* Built without CUDA: this file defines nothing (ISO C wants a
 * declaration in every translation unit). */
typedef int nq_cuda_driver_unused;
#endif /* NQ_HAVE_CUDA */
