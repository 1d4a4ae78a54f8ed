/*
 * cuda_host.c - the CUDA backend (device.h): NVIDIA GPUs through the CUDA
 * driver, loaded at run time.
 *
 * The library links no CUDA library. The kernels (cuda_sym.cu) are
 * compiled by nvcc at build time into a fat binary that the build embeds
 * (nq_cuda_image, generated), and this file loads the driver
 * (libcuda.so.1, installed with the NVIDIA driver) with dlopen() when a
 * GPU is first asked for, takes the dozen driver calls it needs with
 * dlsym(), and loads the image into the GPU's primary context. So the
 * same library runs on a machine without a driver (nq_gpu_count() says
 * NQ_ENODRIVER) and needs only libc, and a program that uses the CUDA
 * runtime itself shares the GPU's context with the count.
 *
 * The driver's types and constants below are those of its stable ABI
 * (cuda.h of CUDA 11 to 13 has the same values); only functions that the
 * driver has exported under these names since CUDA 11 are used.
 *
 * A launch walks a chunk of the batch's tasks with a grid sized to what
 * the card runs at once (every thread fetches tasks until none is left:
 * see cuda_sym.cu). The caller's thread polls the stream rather than
 * blocking in the driver, so that it sees the count's stop flag and
 * passes it on to the kernel through one word of mapped host memory.
 */
#ifdef NQ_HAVE_CUDA

#include "device/device.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* The embedded kernels (generated from cuda_sym.cu at build time). */
extern const unsigned char nq_cuda_image[];

/* Threads a block: a warp multiple. Each takes the shared memory of its
 * walk's stack (kernel_shared). */
#define BLOCK_THREADS 128u

/* The kernels of cuda_sym.cu, by nq_gpu_walk, and the dynamic shared
 * memory a block of each takes: NQ_SYMW_STEP_FRAMES frames a thread for
 * the step walk (28 KiB a block: 7 blocks fit an H100's SM), a byte a
 * level for the other. */
static const char *const kernel_names[NQ_GPU_WALKS] = {
    [NQ_GPU_WALK_STEP] = "nq_sym_step_kernel",
    [NQ_GPU_WALK_STACK] = "nq_sym_walk_kernel",
};

static size_t kernel_shared(nq_gpu_walk walk)
{
    return walk == NQ_GPU_WALK_STEP
               ? (size_t)BLOCK_THREADS * NQ_SYMW_STEP_FRAMES * sizeof(nq_symw_frame)
               : (size_t)BLOCK_THREADS * NQ_SYMW_MAX_LEVELS;
}
/* How long the waiting thread sleeps between two looks at the stream. */
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

static void driver_unload(driver *d)
{
    /* RTLD_NODELETE keeps the driver mapped (it cannot be unloaded once
     * started); this only drops the handle */
    if (d->lib)
        dlclose(d->lib);
    d->lib = NULL;
}

/* Loads and starts the driver. @return NQ_OK, NQ_ENODRIVER, NQ_ENODEVICE,
 * NQ_EDEVICE. */
static int driver_load(driver *d)
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
        driver_unload(d);
        return NQ_ENODRIVER; /* a driver older than CUDA 11 */
    }
    r = d->Init(0);
    if (r != CUDA_SUCCESS) {
        driver_unload(d);
        return r == CUDA_ERROR_NO_DEVICE ? NQ_ENODEVICE
               : r == CUDA_ERROR_INSUFFICIENT_DRIVER ? NQ_ENODRIVER
               : NQ_EDEVICE;
    }
    return NQ_OK;
}

static int status_of(CUresult r)
{
    return r == CUDA_SUCCESS ? NQ_OK
           : r == CUDA_ERROR_OUT_OF_MEMORY ? NQ_EDEVICEMEM
           : NQ_EDEVICE;
}

/* --- listing ----------------------------------------------------------- */

static int cuda_count(unsigned *out)
{
    driver d;
    int n = 0, rc = driver_load(&d);
    *out = 0;
    if (rc != NQ_OK)
        return rc;
    rc = status_of(d.DeviceGetCount(&n));
    driver_unload(&d);
    if (rc != NQ_OK)
        return rc;
    if (n <= 0)
        return NQ_ENODEVICE;
    *out = (unsigned)n;
    return NQ_OK;
}

static int attribute(const driver *d, int attr, CUdevice dev, unsigned *out)
{
    int v = 0;
    CUresult r = d->DeviceGetAttribute(&v, attr, dev);
    *out = v > 0 ? (unsigned)v : 0u;
    return status_of(r);
}

static int cuda_info(nq_gpu_info *out, unsigned index)
{
    driver d;
    nq_gpu_info info;
    CUdevice dev;
    size_t bytes = 0;
    int rc = driver_load(&d);
    if (rc != NQ_OK)
        return rc;
    memset(&info, 0, sizeof info);
    info.version = NQ_GPU_INFO_VERSION;
    info.index = index;
    rc = d.DeviceGet(&dev, (int)index) == CUDA_SUCCESS ? NQ_OK : NQ_ENODEVICE;
    if (rc == NQ_OK)
        rc = status_of(d.DeviceGetName(info.name, (int)sizeof info.name - 1, dev));
    if (rc == NQ_OK)
        rc = status_of(d.DeviceTotalMem(&bytes, dev));
    if (rc == NQ_OK)
        rc = attribute(&d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev,
                       &info.multiprocessors);
    if (rc == NQ_OK)
        rc = attribute(&d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev,
                       &info.compute_major);
    if (rc == NQ_OK)
        rc = attribute(&d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev,
                       &info.compute_minor);
    driver_unload(&d);
    if (rc != NQ_OK)
        return rc;
    info.memory = bytes;
    *out = info;
    return NQ_OK;
}

/* --- an opened GPU ----------------------------------------------------- */

typedef struct cuda_gpu {
    driver d;
    CUdevice dev;
    CUcontext ctx;
    CUmodule module;
    CUfunction kernels[NQ_GPU_WALKS];
    unsigned blocks[NQ_GPU_WALKS]; /* blocks a launch of each: what the
                                      card runs at once */
    nq_gpu_walk walk;        /* the kernel that walks */
    CUstream stream;
    uint64_t memory;         /* bytes its buffers may take */
    volatile int *stop;      /* mapped host memory the kernels look at */
    CUdeviceptr stop_dev;
    CUdeviceptr boards, tasks, counts, next;
    size_t boards_cap, counts_cap;  /* in bytes */
    uint64_t tasks_cap;             /* in tasks */
} cuda_gpu;

static void release(cuda_gpu *g, CUdeviceptr *p)
{
    if (*p)
        g->d.MemFree(*p);
    *p = 0;
}

static void cuda_close(void *state)
{
    cuda_gpu *g = state;
    CUcontext dummy;
    if (!g)
        return;
    if (g->ctx && g->d.CtxPushCurrent(g->ctx) == CUDA_SUCCESS) {
        release(g, &g->boards);
        release(g, &g->tasks);
        release(g, &g->counts);
        release(g, &g->next);
        if (g->stop)
            g->d.MemFreeHost((void *)(uintptr_t)g->stop);
        if (g->stream)
            g->d.StreamDestroy(g->stream);
        if (g->module)
            g->d.ModuleUnload(g->module);
        g->d.CtxPopCurrent(&dummy);
        g->d.PrimaryCtxRelease(g->dev);
    }
    driver_unload(&g->d);
    free(g);
}

/* The rest of cuda_open(), with the context current. */
static int open_in_context(cuda_gpu *g)
{
    unsigned sms = 0, can_map = 0;
    void *stop = NULL;
    int rc = status_of(g->d.ModuleLoadData(&g->module, nq_cuda_image));
    for (int k = 0; rc == NQ_OK && k < NQ_GPU_WALKS; k++)
        rc = status_of(g->d.ModuleGetFunction(&g->kernels[k], g->module, kernel_names[k]));
    if (rc == NQ_OK)
        rc = status_of(g->d.StreamCreate(&g->stream, CU_STREAM_NON_BLOCKING));
    if (rc == NQ_OK)
        rc = attribute(&g->d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev, &sms);
    if (rc == NQ_OK)
        rc = attribute(&g->d, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, g->dev, &can_map);
    if (rc == NQ_OK && !can_map)
        rc = NQ_EDEVICE;
    for (int k = 0; rc == NQ_OK && k < NQ_GPU_WALKS; k++) {
        int per_sm = 0;
        /* as much of each SM's L1 as shared memory as it takes to hold
         * the blocks: a hint, which a driver may round */
        rc = status_of(g->d.FuncSetAttribute(g->kernels[k],
                                             CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                             CU_SHAREDMEM_CARVEOUT_MAX_SHARED));
        if (rc == NQ_OK)
            rc = status_of(g->d.OccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, g->kernels[k], (int)BLOCK_THREADS, kernel_shared((nq_gpu_walk)k)));
        g->blocks[k] = sms * (unsigned)(per_sm > 0 ? per_sm : 1);
    }
    if (rc == NQ_OK)
        rc = status_of(g->d.MemHostAlloc(&stop, sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP));
    if (rc == NQ_OK) {
        g->stop = stop;
        *g->stop = 0;
        rc = status_of(g->d.MemHostGetDevicePointer(&g->stop_dev, stop, 0));
    }
    if (rc == NQ_OK)
        rc = status_of(g->d.MemAlloc(&g->next, sizeof(unsigned long long)));
    g->walk = NQ_GPU_WALK_STEP;
    return rc;
}

static int cuda_open(void **out, unsigned index, uint64_t memory)
{
    cuda_gpu *g = calloc(1, sizeof *g);
    CUcontext dummy;
    int rc;
    if (!g)
        return NQ_ENOMEM;
    g->memory = memory;
    rc = driver_load(&g->d);
    if (rc == NQ_OK)
        rc = g->d.DeviceGet(&g->dev, (int)index) == CUDA_SUCCESS ? NQ_OK : NQ_ENODEVICE;
    if (rc == NQ_OK)
        rc = status_of(g->d.PrimaryCtxRetain(&g->ctx, g->dev));
    if (rc == NQ_OK) {
        rc = status_of(g->d.CtxPushCurrent(g->ctx));
        if (rc == NQ_OK) {
            rc = open_in_context(g);
            g->d.CtxPopCurrent(&dummy);
        } else {
            g->d.PrimaryCtxRelease(g->dev);
            g->ctx = NULL;
        }
    }
    if (rc != NQ_OK) {
        cuda_close(g);
        return rc;
    }
    *out = g;
    return NQ_OK;
}

static uint64_t cuda_threads(const void *state)
{
    const cuda_gpu *g = state;
    return (uint64_t)g->blocks[g->walk] * BLOCK_THREADS;
}

static int cuda_use_walk(void *state, nq_gpu_walk walk)
{
    cuda_gpu *g = state;
    g->walk = walk;
    return NQ_OK;
}

/* Makes *p hold at least `need` bytes (dropping what it held). */
static int reserve(cuda_gpu *g, CUdeviceptr *p, size_t *cap, size_t need)
{
    if (*cap >= need)
        return NQ_OK;
    release(g, p);
    *cap = 0;
    if (g->d.MemAlloc(p, need) != CUDA_SUCCESS) {
        *p = 0;
        return NQ_EDEVICEMEM;
    }
    *cap = need;
    return NQ_OK;
}

/* Waits for the stream, passing a raised stop flag on to the kernels. */
static int wait_stream(cuda_gpu *g, const nq_stop_flag *stop)
{
    const struct timespec pause = { 0, POLL_NS };
    for (;;) {
        CUresult r = g->d.StreamQuery(g->stream);
        if (r != CUDA_ERROR_NOT_READY)
            return status_of(r);
        if (nq_stopped(stop))
            *g->stop = 1;
        nanosleep(&pause, NULL);
    }
}

static int walk_in_context(cuda_gpu *g, const nq_symw_batch *b,
                           uint64_t *counts, const nq_stop_flag *stop)
{
    const size_t board_bytes = b->nboards * NQ_SYMW_BOARD_WORDS * sizeof(uint32_t);
    const size_t count_bytes = b->nboards * sizeof(uint64_t);
    size_t tasks_bytes;
    uint64_t fixed, chunk;
    int rc;

    /* the tasks get what the boards and counts leave of the memory */
    fixed = (uint64_t)board_bytes + count_bytes * 2;
    if (fixed + 1024u * sizeof(nq_symw_task) > g->memory)
        return NQ_EDEVICEMEM;
    chunk = (g->memory - fixed) / sizeof(nq_symw_task);
    if (chunk > b->ntasks)
        chunk = b->ntasks;
    tasks_bytes = g->tasks_cap * sizeof(nq_symw_task);
    rc = reserve(g, &g->boards, &g->boards_cap, board_bytes);
    if (rc == NQ_OK)
        rc = reserve(g, &g->counts, &g->counts_cap, count_bytes);
    if (rc == NQ_OK && chunk > g->tasks_cap) {
        rc = reserve(g, &g->tasks, &tasks_bytes, (size_t)chunk * sizeof(nq_symw_task));
        g->tasks_cap = tasks_bytes / sizeof(nq_symw_task);
    }
    if (rc != NQ_OK)
        return rc;
    *g->stop = 0;
    rc = status_of(g->d.MemcpyHtoDAsync(g->boards, b->boards, board_bytes, g->stream));
    if (rc == NQ_OK)
        rc = status_of(g->d.MemsetD8Async(g->counts, 0, count_bytes, g->stream));
    for (uint64_t first = 0; rc == NQ_OK && first < b->ntasks; first += chunk) {
        unsigned long long ntasks = b->ntasks - first < chunk ? b->ntasks - first : chunk;
        void *args[] = { &g->boards, &g->tasks, &ntasks, &g->next, &g->counts,
                         &g->stop_dev };
        rc = status_of(g->d.MemcpyHtoDAsync(g->tasks, b->tasks + first,
                                            (size_t)ntasks * sizeof(nq_symw_task),
                                            g->stream));
        if (rc == NQ_OK)
            rc = status_of(g->d.MemsetD8Async(g->next, 0, sizeof(unsigned long long),
                                              g->stream));
        if (rc == NQ_OK)
            rc = status_of(g->d.LaunchKernel(g->kernels[g->walk], g->blocks[g->walk], 1, 1,
                                             BLOCK_THREADS, 1, 1,
                                             (unsigned)kernel_shared(g->walk), g->stream,
                                             args, NULL));
        if (rc == NQ_OK)
            rc = wait_stream(g, stop);
        if (rc == NQ_OK && nq_stopped(stop))
            rc = NQ_ECANCELED;
    }
    if (rc == NQ_OK)
        rc = status_of(g->d.MemcpyDtoHAsync(counts, g->counts, count_bytes, g->stream));
    if (rc == NQ_OK)
        rc = status_of(g->d.StreamSynchronize(g->stream));
    else
        g->d.StreamSynchronize(g->stream);
    return rc;
}

static int cuda_sym_walk(void *state, const nq_symw_batch *batch, uint64_t *counts,
                         const nq_stop_flag *stop)
{
    cuda_gpu *g = state;
    uint64_t *sums;
    CUcontext dummy;
    int rc;
    if (batch->nboards == 0)
        return NQ_OK;
    sums = malloc(batch->nboards * sizeof *sums);
    if (!sums)
        return NQ_ENOMEM;
    rc = status_of(g->d.CtxPushCurrent(g->ctx));
    if (rc == NQ_OK) {
        rc = walk_in_context(g, batch, sums, stop);
        g->d.CtxPopCurrent(&dummy);
    }
    if (rc == NQ_OK)
        for (size_t i = 0; i < batch->nboards; i++)
            counts[i] += sums[i];
    free(sums);
    return rc;
}

const nq_gpu_backend nq_cuda_backend = {
    .name = "cuda",
    .count = cuda_count,
    .info = cuda_info,
    .open = cuda_open,
    .close = cuda_close,
    .threads = cuda_threads,
    .use_walk = cuda_use_walk,
    .sym_walk = cuda_sym_walk,
};

#else
/* Built without CUDA: this file defines nothing (ISO C wants a
 * declaration in every translation unit). */
typedef int nq_cuda_host_unused;
#endif /* NQ_HAVE_CUDA */
