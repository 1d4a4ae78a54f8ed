/*
 * cuda_host.c - the CUDA backend (device.h): NVIDIA GPUs through the CUDA
 * driver, loaded at run time.
 *
 * The library links no CUDA library. The kernels (cuda_sym.cu, and the
 * join's cuda_join.cu) are compiled by nvcc at build time into fat
 * binaries that the build embeds (nq_cuda_image, nq_cuda_join_image,
 * generated); the driver (libcuda.so.1, installed with the NVIDIA driver)
 * is loaded with dlopen() when a GPU is first asked for, the dozen driver
 * calls the backend needs taken with dlsym() (cuda_driver.c), and the
 * images loaded into the GPU's primary context. So the same library runs
 * on a machine without a driver (nq_gpu_count() says NQ_ENODRIVER) and
 * needs only libc, and a program that uses the CUDA runtime itself shares
 * the GPU's context with the count.
 *
 * The driver's types and constants (cuda_internal.h) are those of its
 * stable ABI (cuda.h of CUDA 11 to 13 has the same values); only
 * functions that the driver has exported under these names since CUDA 11
 * are used.
 *
 * A launch walks a chunk of the batch's tasks with a grid sized to what
 * the card runs at once (every thread fetches tasks until none is left:
 * see cuda_sym.cu). The caller's thread polls the stream rather than
 * blocking in the driver, so that it sees the count's stop flag and
 * passes it on to the kernel through one word of mapped host memory.
 */
#ifdef NQ_HAVE_CUDA

#include "device/cuda/cuda_host.h"

#include "device/cuda/cuda_internal.h"

#include <stdlib.h>
#include <string.h>

/* The embedded kernels of the symmetry method (generated from cuda_sym.cu
 * at build time). */
extern const unsigned char nq_cuda_image[];

/* Threads a block: a warp multiple. Each takes the shared memory of its
 * walk's stack (kernel_shared). */
#define BLOCK_THREADS 128u

/* The kernels of cuda_sym.cu, by nq_gpu_walk, and the dynamic shared
 * memory a block of each takes for tasks of `levels` levels at most:
 * levels - 1 frames a thread for the step walk (at the default 15, 28
 * KiB a block: 7 blocks fit an H100's SM; at 13, 24 KiB: 9), a byte a
 * level of the whole board for the other. */
static const char *const kernel_names[NQ_GPU_WALKS] = {
    [NQ_GPU_WALK_STEP] = "nq_sym_step_kernel",
    [NQ_GPU_WALK_STACK] = "nq_sym_walk_kernel",
};

static size_t kernel_shared(nq_gpu_walk walk, unsigned levels)
{
    return walk == NQ_GPU_WALK_STEP
               ? (size_t)BLOCK_THREADS * (levels > 1u ? levels - 1u : 1u) * sizeof(nq_symw_frame)
               : (size_t)BLOCK_THREADS * NQ_SYMW_MAX_LEVELS;
}

/* --- listing ----------------------------------------------------------- */

static int cuda_count(unsigned *out)
{
    driver d;
    int n = 0, rc = nq_cuda_driver_load(&d);
    *out = 0;
    if (rc != NQ_OK)
        return rc;
    rc = nq_cuda_status(d.DeviceGetCount(&n));
    nq_cuda_driver_unload(&d);
    if (rc != NQ_OK)
        return rc;
    if (n <= 0)
        return NQ_ENODEVICE;
    *out = (unsigned)n;
    return NQ_OK;
}

static int cuda_info(nq_gpu_info *out, unsigned index)
{
    driver d;
    nq_gpu_info info;
    CUdevice dev;
    size_t bytes = 0;
    int rc = nq_cuda_driver_load(&d);
    if (rc != NQ_OK)
        return rc;
    memset(&info, 0, sizeof info);
    info.version = NQ_GPU_INFO_VERSION;
    info.index = index;
    rc = d.DeviceGet(&dev, (int)index) == CUDA_SUCCESS ? NQ_OK : NQ_ENODEVICE;
    if (rc == NQ_OK)
        rc = nq_cuda_status(d.DeviceGetName(info.name, (int)sizeof info.name - 1, dev));
    if (rc == NQ_OK)
        rc = nq_cuda_status(d.DeviceTotalMem(&bytes, dev));
    if (rc == NQ_OK)
        rc = nq_cuda_attribute(&d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev,
                       &info.multiprocessors);
    if (rc == NQ_OK)
        rc = nq_cuda_attribute(&d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev,
                       &info.compute_major);
    if (rc == NQ_OK)
        rc = nq_cuda_attribute(&d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev,
                       &info.compute_minor);
    nq_cuda_driver_unload(&d);
    if (rc != NQ_OK)
        return rc;
    info.memory = bytes;
    *out = info;
    return NQ_OK;
}

/* --- an opened GPU ----------------------------------------------------- */

static void cuda_close(void *state)
{
    cuda_gpu *g = state;
    CUcontext dummy;
    if (!g)
        return;
    if (g->ctx && g->d.CtxPushCurrent(g->ctx) == CUDA_SUCCESS) {
        nq_cuda_release(g, &g->boards);
        nq_cuda_release(g, &g->tasks);
        nq_cuda_release(g, &g->counts);
        nq_cuda_release(g, &g->next);
        nq_cuda_release(g, &g->splits);
        nq_cuda_release(g, &g->sizes);
        nq_cuda_release(g, &g->keys);
        nq_cuda_release(g, &g->jobs);
        nq_cuda_release(g, &g->lists);
        nq_cuda_release(g, &g->bounds);
        nq_cuda_release(g, &g->lays);
        if (g->stop)
            g->d.MemFreeHost((void *)(uintptr_t)g->stop);
        if (g->stream)
            g->d.StreamDestroy(g->stream);
        if (g->module)
            g->d.ModuleUnload(g->module);
        if (g->join_module)
            g->d.ModuleUnload(g->join_module);
        g->d.CtxPopCurrent(&dummy);
        g->d.PrimaryCtxRelease(g->dev);
    }
    nq_cuda_driver_unload(&g->d);
    free(g);
}

/* Keeps g's buffers within what the card has free now, shared by the
 * workers of a count (each opens the GPU before the others fill it) and
 * less a margin for the driver: another process on the card, or a
 * smaller card than the count's memory allows, then shrinks the pieces
 * the count is cut into, not the count. */
static int fit_card(cuda_gpu *g)
{
    size_t free_bytes = 0, total = 0;
    uint64_t share;
    int rc = nq_cuda_status(g->d.MemGetInfo(&free_bytes, &total));
    if (rc != NQ_OK)
        return rc;
    share = free_bytes > NQ_GPU_CARD_MARGIN ? (free_bytes - NQ_GPU_CARD_MARGIN) / NQ_GPU_WORKERS
                                            : 0;
    if (share >= g->memory)
        return NQ_OK;
    if (share < NQ_GPU_MEMORY_MIN)
        return NQ_EDEVICEMEM;
    g->memory = share;
    return NQ_OK;
}

/* The rest of cuda_open(), with the context current. */
static int open_in_context(cuda_gpu *g)
{
    unsigned sms = 0, can_map = 0;
    void *stop = NULL;
    int rc = nq_cuda_status(g->d.ModuleLoadData(&g->module, nq_cuda_image));
    for (int k = 0; rc == NQ_OK && k < NQ_GPU_WALKS; k++)
        rc = nq_cuda_status(g->d.ModuleGetFunction(&g->kernels[k], g->module, kernel_names[k]));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamCreate(&g->stream, CU_STREAM_NON_BLOCKING));
    if (rc == NQ_OK)
        rc = nq_cuda_attribute(&g->d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev, &sms);
    if (rc == NQ_OK)
        rc = nq_cuda_attribute(&g->d, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, g->dev, &can_map);
    if (rc == NQ_OK && !can_map)
        rc = NQ_EDEVICE;
    for (int k = 0; rc == NQ_OK && k < NQ_GPU_WALKS; k++)
        for (unsigned levels = 1; rc == NQ_OK && levels <= NQ_SYMW_STEP_LEVELS; levels++)
            rc = nq_cuda_fill_card(g, g->kernels[k], BLOCK_THREADS,
                                   kernel_shared((nq_gpu_walk)k, levels), sms,
                                   &g->blocks[k][levels]);
    if (rc == NQ_OK)
        rc = nq_cuda_open_join(g, sms);
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemHostAlloc(&stop, sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP));
    if (rc == NQ_OK) {
        g->stop = stop;
        *g->stop = 0;
        rc = nq_cuda_status(g->d.MemHostGetDevicePointer(&g->stop_dev, stop, 0));
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemAlloc(&g->next, sizeof(unsigned long long)));
    g->walk = NQ_GPU_WALK_STEP;
    return rc == NQ_OK ? fit_card(g) : rc;
}

static int cuda_open(void **out, unsigned index, uint64_t memory)
{
    cuda_gpu *g = calloc(1, sizeof *g);
    CUcontext dummy;
    int rc;
    if (!g)
        return NQ_ENOMEM;
    g->memory = memory;
    rc = nq_cuda_driver_load(&g->d);
    if (rc == NQ_OK)
        rc = g->d.DeviceGet(&g->dev, (int)index) == CUDA_SUCCESS ? NQ_OK : NQ_ENODEVICE;
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.PrimaryCtxRetain(&g->ctx, g->dev));
    if (rc == NQ_OK) {
        rc = nq_cuda_status(g->d.CtxPushCurrent(g->ctx));
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
    return (uint64_t)g->blocks[g->walk][NQ_SYMW_STEP_LEVELS] * BLOCK_THREADS;
}

static int cuda_use_pairs(void *state, nq_gpu_pairs pairs)
{
    cuda_gpu *g = state;
    g->pairs = pairs;
    return NQ_OK;
}

static int cuda_use_walk(void *state, nq_gpu_walk walk)
{
    cuda_gpu *g = state;
    g->walk = walk;
    return NQ_OK;
}

/* The batch (an nq_symw_batch) walked, each board's count into
 * counts[]: an nq_cuda_counting. */
static int walk_in_context(cuda_gpu *g, const void *batch, uint64_t *counts,
                           const nq_stop_flag *stop)
{
    const nq_symw_batch *b = batch;
    const size_t board_bytes = b->nboards * NQ_SYMW_BOARD_WORDS * sizeof(uint32_t);
    const size_t count_bytes = b->nboards * sizeof(uint64_t);
    size_t tasks_bytes;
    uint64_t fixed, chunk;
    int rc;

    /* within the memory: the join's buffers go */
    nq_cuda_drop(g, &g->splits, &g->splits_cap);
    nq_cuda_drop(g, &g->sizes, &g->sizes_cap);
    nq_cuda_drop(g, &g->keys, &g->keys_cap);
    nq_cuda_drop(g, &g->jobs, &g->jobs_cap);
    nq_cuda_drop(g, &g->lists, &g->lists_cap);
    nq_cuda_drop(g, &g->bounds, &g->bounds_cap);
    nq_cuda_drop(g, &g->lays, &g->lays_cap);
    /* the tasks get what the boards and counts leave of the memory */
    fixed = (uint64_t)board_bytes + count_bytes * 2;
    if (fixed + 1024u * sizeof(nq_symw_task) > g->memory)
        return NQ_EDEVICEMEM;
    chunk = (g->memory - fixed) / sizeof(nq_symw_task);
    if (chunk > b->ntasks)
        chunk = b->ntasks;
    tasks_bytes = g->tasks_cap * sizeof(nq_symw_task);
    rc = nq_cuda_reserve(g, &g->boards, &g->boards_cap, board_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->counts, &g->counts_cap, count_bytes);
    if (rc == NQ_OK && chunk > g->tasks_cap) {
        rc = nq_cuda_reserve(g, &g->tasks, &tasks_bytes, (size_t)chunk * sizeof(nq_symw_task));
        g->tasks_cap = tasks_bytes / sizeof(nq_symw_task);
    }
    if (rc != NQ_OK)
        return rc;
    *g->stop = 0;
    rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->boards, b->boards, board_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->counts, 0, count_bytes, g->stream));
    for (uint64_t first = 0; rc == NQ_OK && first < b->ntasks; first += chunk) {
        unsigned long long ntasks = b->ntasks - first < chunk ? b->ntasks - first : chunk;
        void *args[] = { &g->boards, &g->tasks, &ntasks, &g->next, &g->counts,
                         &g->stop_dev };
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->tasks, b->tasks + first,
                                            (size_t)ntasks * sizeof(nq_symw_task),
                                            g->stream));
        if (rc == NQ_OK)
            rc = nq_cuda_launch(g, g->kernels[g->walk], g->blocks[g->walk][b->levels],
                                BLOCK_THREADS, kernel_shared(g->walk, b->levels), args, stop);
    }
    rc = nq_cuda_finish(g, counts, count_bytes, rc);
    return rc;
}

static int cuda_sym_walk(void *state, const nq_symw_batch *batch, uint64_t *counts,
                         const nq_stop_flag *stop)
{
    return nq_cuda_count_batch(state, batch, batch->nboards, walk_in_context, counts, stop);
}

const nq_gpu_backend nq_cuda_backend = {
    .name = "cuda",
    .count = cuda_count,
    .info = cuda_info,
    .open = cuda_open,
    .close = cuda_close,
    .threads = cuda_threads,
    .use_walk = cuda_use_walk,
    .use_pairs = cuda_use_pairs,
    .sym_walk = cuda_sym_walk,
    .join_splits = nq_cuda_join_splits,
};

#else
/* Built without CUDA: this file defines nothing (ISO C wants a
 * declaration in every translation unit). */
typedef int nq_cuda_host_unused;
#endif /* NQ_HAVE_CUDA */
