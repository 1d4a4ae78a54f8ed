/*
 * emu_driver.c - an emulated NVIDIA driver: the CUDA driver calls that the
 * library's CUDA backend makes (src/device/cuda/cuda_host.c), answered on
 * the CPU, built as libcuda.so.1 for the tests of a build configured with
 * NQ_CUDA_EMULATOR. Test helper, never installed.
 *
 * With it, the GPU path runs on any machine, under the sanitizers too:
 * the driver loaded at run time, the kernels' embedding, the buffers,
 * copies and launches, the stop flag in mapped memory, the errors, and
 * the kernels' own text (emu_kernels.cc). What it cannot show is what only
 * a GPU shows: the kernels' speed, and their compilation by nvcc.
 *
 * It is stricter than a driver where a stricter answer finds a fault: a
 * call that needs a context without one current, a copy outside a
 * buffer, a free of something never allocated, or a context released for
 * the last time with buffers, streams or modules still in it, ends the
 * process with one line that says so ("nq-emu: ...").
 *
 * Device memory is host memory (a device pointer is the address), so the
 * sanitizers see the kernels' reads and writes. A launch runs on host
 * threads of its own, so the caller waits and polls as it would for a GPU.
 *
 * The environment plays the machine:
 *   NQ_EMU_GPUS=K        GPUs (default 1; 0: the driver shows none)
 *   NQ_EMU_GPU_MEMORY=B  bytes of each GPU's memory (default 2 GiB)
 *   NQ_EMU_THREADS=T     host threads a launch runs on (default 2)
 *   NQ_EMU_FAIL=NAME[:K] driver function NAME fails from its K-th call on
 *                        (default the first): out of memory for an
 *                        allocation, a launch failure for the others
 *   NQ_EMU_DROP=KERNEL:K the K-th atomicAdd of kernel KERNEL's launches
 *                        (a thread's fetch of its next task aside) adds
 *                        nothing (emu_kernels.cc): a GPU that
 *                        miscounts, which the host must not believe
 *
 * Beside the driver's calls it has three of its own (see emu.h), for
 * tests that must know which way the host went, nq_emu_launches(name)
 * and nq_emu_adds(name) (the launches and the atomic adds of a kernel so
 * far, its fetches aside), and for tests that play a miscounting GPU in one case and not
 * the next, nq_emu_drop(kernel, k).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_LAUNCH_FAILED = 719
};

#define EXPORT __attribute__((visibility("default")))
#define MAX_GPUS 8
#define MAX_DEPTH 16
#define KERNEL_PARAMS 10
#define BLOCKS_PER_SM 4

/* --- the machine -------------------------------------------------------- */

typedef struct buffer {
    struct buffer *next;
    unsigned char *p;
    size_t size;
    int host; /* pinned host memory (cuMemHostAlloc) */
} buffer;

typedef struct CUctx_st {
    int gpu;
    int retained;
    size_t used; /* bytes of device memory allocated */
    buffer *buffers;
    int streams, modules;
} emu_ctx;

typedef struct CUmod_st {
    emu_ctx *ctx;
} emu_module;

typedef struct CUfunc_st {
    const char *name;
} emu_function;

/* A stream: at most one launch in flight; every later call on the stream
 * waits for it (calls on one stream run in order). */
typedef struct CUstream_st {
    emu_ctx *ctx;
    int running;
    const emu_function *fn;
    unsigned grid, threads, shared;
    unsigned long long values[KERNEL_PARAMS];
    void *params[KERNEL_PARAMS];
    atomic_uint next_block, finished;
    unsigned workers;
    pthread_t worker[64];
} emu_stream;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int started, gpus;
static size_t memory;
static unsigned host_threads;
static emu_ctx ctxs[MAX_GPUS];
/* the kernels of the image, as cuModuleGetFunction hands them out */
static const emu_function functions[] = {{"nq_sym_walk_kernel"},
                                         {"nq_sym_step_kernel"},
                                         {"nq_join_list_kernel"},
                                         {"nq_join_lay_kernel"},
                                         {"nq_join_sort_kernel"},
                                         {"nq_join_check_kernel"},
                                         {"nq_join_pairs_kernel"},
                                         {"nq_join_pairs_warp_kernel"}};
#define NFUNCTIONS (sizeof functions / sizeof functions[0])
static atomic_ulong launched[NFUNCTIONS];
static _Thread_local emu_ctx *current[MAX_DEPTH];
static _Thread_local int depth;

static void fault(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("nq-emu: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static unsigned long env_number(const char *name, unsigned long fallback)
{
    const char *s = getenv(name);
    char *end;
    unsigned long v;
    if (!s || !*s)
        return fallback;
    v = strtoul(s, &end, 10);
    if (*end)
        fault("%s=%s is not a number", name, s);
    return v;
}

/* Whether the driver function `name` is to fail now (NQ_EMU_FAIL). */
static int fails(const char *name)
{
    static atomic_ulong calls;
    const char *spec = getenv("NQ_EMU_FAIL");
    size_t len = strlen(name);
    unsigned long from = 1;
    if (!spec || strncmp(spec, name, len) != 0 || (spec[len] && spec[len] != ':'))
        return 0;
    if (spec[len] == ':')
        from = strtoul(spec + len + 1, NULL, 10);
    return atomic_fetch_add(&calls, 1) + 1 >= from;
}

static emu_ctx *context(void)
{
    return depth > 0 ? current[depth - 1] : NULL;
}

/* The buffer of context c that holds [p, p + size), or NULL. The caller
 * holds the lock. */
static buffer *find(emu_ctx *c, const void *p, size_t size)
{
    const unsigned char *q = p;
    for (buffer *b = c->buffers; b; b = b->next)
        if (q >= b->p && q <= b->p + b->size && size <= (size_t)(b->p + b->size - q))
            return b;
    return NULL;
}

static void *device_address(CUdeviceptr p)
{
    return (void *)(uintptr_t)p;
}

/* Faults when [p, p + size) is not in one buffer of the current context. */
static void check_range(const char *what, const void *p, size_t size)
{
    buffer *b;
    pthread_mutex_lock(&lock); /* another thread may allocate or free */
    b = find(context(), p, size);
    pthread_mutex_unlock(&lock);
    if (!b)
        fault("%s: %zu bytes at %p are not in one buffer of the context", what, size, p);
}

#define NEED_CONTEXT(what)                                                              \
    do {                                                                                \
        if (!context())                                                                 \
            fault("%s without a current context", what);                                \
    } while (0)

/* --- launches ----------------------------------------------------------- */

static void *run_blocks(void *arg)
{
    emu_stream *s = arg;
    for (;;) {
        unsigned b = atomic_fetch_add(&s->next_block, 1);
        if (b >= s->grid)
            break;
        if (nq_emu_run_block(s->fn->name, b, s->grid, s->threads, s->shared, s->params) != 0)
            fault("%s: block %u wrote past its %u bytes of shared memory", s->fn->name, b,
                  s->shared);
    }
    atomic_fetch_add(&s->finished, 1);
    return NULL;
}

static void finish(emu_stream *s)
{
    if (!s->running)
        return;
    for (unsigned i = 0; i < s->workers; i++)
        pthread_join(s->worker[i], NULL);
    s->running = 0;
}

/* --- the driver's functions --------------------------------------------- */

EXPORT CUresult cuInit(unsigned flags)
{
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (fails("cuInit"))
        return CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&lock);
    if (!started) {
        unsigned long k = env_number("NQ_EMU_GPUS", 1);
        gpus = k > MAX_GPUS ? MAX_GPUS : (int)k;
        memory = (size_t)env_number("NQ_EMU_GPU_MEMORY", 2048ul << 20);
        host_threads = (unsigned)env_number("NQ_EMU_THREADS", 2);
        if (host_threads < 1 || host_threads > 64)
            fault("NQ_EMU_THREADS must be 1 to 64");
        for (int i = 0; i < MAX_GPUS; i++)
            ctxs[i].gpu = i;
        started = 1;
    }
    pthread_mutex_unlock(&lock);
    return gpus > 0 ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}

#define NEED_INIT()                                                                     \
    do {                                                                                \
        if (!started)                                                                   \
            return CUDA_ERROR_NOT_INITIALIZED;                                          \
    } while (0)

/* the driver started, and dev one of its GPUs */
#define NEED_DEVICE(dev)                                                                \
    do {                                                                                \
        NEED_INIT();                                                                    \
        if ((dev) < 0 || (dev) >= gpus)                                                 \
            return CUDA_ERROR_INVALID_DEVICE;                                           \
    } while (0)

EXPORT CUresult cuDeviceGetCount(int *out)
{
    NEED_INIT();
    *out = gpus;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *out, int ordinal)
{
    NEED_DEVICE(ordinal);
    *out = ordinal;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    NEED_DEVICE(dev);
    if (len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "nqueens emulated GPU %d", dev);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *out, CUdevice dev)
{
    NEED_DEVICE(dev);
    *out = memory;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    NEED_CONTEXT("cuMemGetInfo_v2");
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    *free_bytes = memory - context()->used;
    *total = memory;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *out, int attribute, CUdevice dev)
{
    NEED_DEVICE(dev);
    switch (attribute) {
    case 16: *out = 2; break;  /* multiprocessors */
    case 19: *out = 1; break;  /* can map host memory */
    case 75: *out = 9; break;  /* compute capability */
    case 76: *out = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(emu_ctx **out, CUdevice dev)
{
    NEED_DEVICE(dev);
    if (fails("cuDevicePrimaryCtxRetain"))
        return CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    ctxs[dev].retained++;
    pthread_mutex_unlock(&lock);
    *out = &ctxs[dev];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    emu_ctx *c;
    NEED_DEVICE(dev);
    c = &ctxs[dev];
    pthread_mutex_lock(&lock);
    if (c->retained <= 0)
        fault("cuDevicePrimaryCtxRelease: GPU %d's context is not retained", dev);
    if (--c->retained == 0 && (c->buffers || c->streams || c->modules))
        fault("the last release of GPU %d's context left %zu bytes of buffers, "
              "%d streams and %d modules in it", dev, c->used, c->streams, c->modules);
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPushCurrent_v2(emu_ctx *c)
{
    if (!c || c->retained <= 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (depth == MAX_DEPTH)
        fault("cuCtxPushCurrent: %d contexts pushed and never popped", MAX_DEPTH);
    current[depth++] = c;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPopCurrent_v2(emu_ctx **out)
{
    if (depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    depth--;
    if (out)
        *out = current[depth];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleLoadData(emu_module **out, const void *image)
{
    emu_module *m;
    NEED_CONTEXT("cuModuleLoadData");
    if (memcmp(image, NQ_EMU_IMAGE_MAGIC, sizeof NQ_EMU_IMAGE_MAGIC - 1) != 0)
        return CUDA_ERROR_INVALID_IMAGE;
    m = malloc(sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->ctx = context();
    pthread_mutex_lock(&lock);
    m->ctx->modules++;
    pthread_mutex_unlock(&lock);
    *out = m;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleUnload(emu_module *m)
{
    NEED_CONTEXT("cuModuleUnload");
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&lock);
    m->ctx->modules--;
    pthread_mutex_unlock(&lock);
    free(m);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleGetFunction(const emu_function **out, emu_module *m, const char *name)
{
    NEED_CONTEXT("cuModuleGetFunction");
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!name || !nq_emu_has_kernel(name))
        return CUDA_ERROR_NOT_FOUND;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (strcmp(functions[i].name, name) == 0) {
            *out = &functions[i];
            return CUDA_SUCCESS;
        }
    fault("cuModuleGetFunction: the kernels know %s, the driver does not", name);
    return CUDA_ERROR_NOT_FOUND;
}

EXPORT CUresult cuFuncSetAttribute(const emu_function *f, int attribute, int value)
{
    NEED_CONTEXT("cuFuncSetAttribute");
    /* the one attribute the backend sets: the preferred carveout, in
     * percent of the shared memory's most (or -1, no preference) */
    if (!f || attribute != 9 || value < -1 || value > 100)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *out, const emu_function *f,
                                                             int threads, size_t shared)
{
    NEED_CONTEXT("cuOccupancyMaxActiveBlocksPerMultiprocessor");
    if (!f || threads <= 0 || threads > 1024 || shared > NQ_EMU_SHARED_BYTES)
        return CUDA_ERROR_INVALID_VALUE;
    *out = BLOCKS_PER_SM;
    return CUDA_SUCCESS;
}

static CUresult allocate(void **out, size_t size, int host, const char *name)
{
    emu_ctx *c = context();
    buffer *b;
    if (size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (fails(name))
        return CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    if (!host && size > memory - c->used) {
        pthread_mutex_unlock(&lock);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    b = malloc(sizeof *b);
    if (b)
        b->p = malloc(size);
    if (!b || !b->p) {
        free(b);
        pthread_mutex_unlock(&lock);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    /* what a buffer holds before it is written is not zero */
    memset(b->p, 0x5a, size);
    b->size = size;
    b->host = host;
    b->next = c->buffers;
    c->buffers = b;
    if (!host)
        c->used += size;
    pthread_mutex_unlock(&lock);
    *out = b->p;
    return CUDA_SUCCESS;
}

static CUresult release(const void *p, int host, const char *name)
{
    emu_ctx *c = context();
    pthread_mutex_lock(&lock);
    for (buffer **at = &c->buffers; *at; at = &(*at)->next) {
        buffer *b = *at;
        if (b->p != p)
            continue;
        if (b->host != host)
            fault("%s: %p was allocated by the other kind of allocation", name, p);
        *at = b->next;
        if (!host)
            c->used -= b->size;
        free(b->p);
        free(b);
        pthread_mutex_unlock(&lock);
        return CUDA_SUCCESS;
    }
    fault("%s: %p is not a buffer of the context", name, p);
    return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *out, size_t size)
{
    void *p = NULL;
    CUresult r;
    NEED_CONTEXT("cuMemAlloc");
    r = allocate(&p, size, 0, "cuMemAlloc_v2");
    if (r == CUDA_SUCCESS)
        *out = (CUdeviceptr)(uintptr_t)p;
    return r;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
    NEED_CONTEXT("cuMemFree");
    return release(device_address(p), 0, "cuMemFree");
}

EXPORT CUresult cuMemHostAlloc(void **out, size_t size, unsigned flags)
{
    NEED_CONTEXT("cuMemHostAlloc");
    if (flags & ~0x7u)
        return CUDA_ERROR_INVALID_VALUE;
    return allocate(out, size, 1, "cuMemHostAlloc");
}

EXPORT CUresult cuMemFreeHost(void *p)
{
    NEED_CONTEXT("cuMemFreeHost");
    return release(p, 1, "cuMemFreeHost");
}

EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *out, void *p, unsigned flags)
{
    buffer *b;
    NEED_CONTEXT("cuMemHostGetDevicePointer");
    pthread_mutex_lock(&lock);
    b = find(context(), p, 1);
    pthread_mutex_unlock(&lock);
    if (flags != 0 || !b || !b->host)
        return CUDA_ERROR_INVALID_VALUE;
    *out = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamCreate(emu_stream **out, unsigned flags)
{
    emu_stream *s;
    NEED_CONTEXT("cuStreamCreate");
    if (flags & ~1u)
        return CUDA_ERROR_INVALID_VALUE;
    s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->ctx = context();
    pthread_mutex_lock(&lock);
    s->ctx->streams++;
    pthread_mutex_unlock(&lock);
    *out = s;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamDestroy_v2(emu_stream *s)
{
    NEED_CONTEXT("cuStreamDestroy");
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    finish(s);
    pthread_mutex_lock(&lock);
    s->ctx->streams--;
    pthread_mutex_unlock(&lock);
    free(s);
    return CUDA_SUCCESS;
}

/* Every call on a stream: the stream given, the context current, the
 * launch before it finished. */
static CUresult stream_call(emu_stream *s, const char *name)
{
    if (!context())
        fault("%s without a current context", name);
    if (!s)
        fault("%s on the default stream (the backend has its own)", name);
    if (s->ctx != context())
        fault("%s on a stream of another context", name);
    finish(s);
    return fails(name) ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
}

EXPORT CUresult cuStreamQuery(emu_stream *s)
{
    if (s && s->running && atomic_load(&s->finished) < s->workers)
        return CUDA_ERROR_NOT_READY;
    return stream_call(s, "cuStreamQuery");
}

EXPORT CUresult cuStreamSynchronize(emu_stream *s)
{
    return stream_call(s, "cuStreamSynchronize");
}

EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t size,
                                     emu_stream *s)
{
    CUresult r = stream_call(s, "cuMemcpyHtoDAsync_v2");
    if (r != CUDA_SUCCESS)
        return r;
    check_range("cuMemcpyHtoDAsync", device_address(dst), size);
    memcpy(device_address(dst), src, size);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t size, emu_stream *s)
{
    CUresult r = stream_call(s, "cuMemcpyDtoHAsync_v2");
    if (r != CUDA_SUCCESS)
        return r;
    check_range("cuMemcpyDtoHAsync", device_address(src), size);
    memcpy(dst, device_address(src), size);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t size,
                                emu_stream *s)
{
    CUresult r = stream_call(s, "cuMemsetD8Async");
    if (r != CUDA_SUCCESS)
        return r;
    check_range("cuMemsetD8Async", device_address(dst), size);
    memset(device_address(dst), value, size);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuLaunchKernel(const emu_function *f, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz, unsigned shared,
                               emu_stream *s, void **params, void **extra)
{
    unsigned count, values, narrow, nullable;
    CUresult r = stream_call(s, "cuLaunchKernel");
    if (r != CUDA_SUCCESS)
        return r;
    if (!f || gx == 0 || gy != 1 || gz != 1 || bx == 0 || bx > 1024 || by != 1 ||
        bz != 1 || !params || extra)
        return CUDA_ERROR_INVALID_VALUE;
    if (shared > NQ_EMU_SHARED_BYTES)
        return CUDA_ERROR_INVALID_VALUE;
    if (nq_emu_kernel_params(f->name, &count, &values, &narrow, &nullable) != 0 ||
        count > KERNEL_PARAMS)
        fault("cuLaunchKernel: no parameters known for %s", f->name);
    /* the parameters are taken now, as the driver takes them: each of its
     * own width (a 4-byte one read as 8 would take in what lies past it) */
    for (unsigned i = 0; i < count; i++) {
        s->values[i] = 0;
        memcpy(&s->values[i], params[i], narrow >> i & 1u ? 4u : sizeof s->values[i]);
        s->params[i] = &s->values[i];
    }
    /* every pointer (all but the counts) is in a buffer of the context,
     * or null where the kernel takes null */
    pthread_mutex_lock(&lock);
    for (unsigned i = 0; i < count; i++)
        if (!(values >> i & 1u) && !(nullable >> i & 1u && s->values[i] == 0) &&
            !find(context(), device_address(s->values[i]), 1))
            fault("cuLaunchKernel: parameter %u (%#llx) is not in a buffer of the context",
                  i, s->values[i]);
    pthread_mutex_unlock(&lock);
    atomic_fetch_add(&launched[f - functions], 1);
    nq_emu_launch_starts(f->name);
    s->fn = f;
    s->grid = gx;
    s->threads = bx;
    s->shared = shared;
    s->workers = host_threads < gx ? host_threads : gx;
    atomic_store(&s->next_block, 0);
    atomic_store(&s->finished, 0);
    s->running = 1;
    for (unsigned i = 0; i < s->workers; i++)
        if (pthread_create(&s->worker[i], NULL, run_blocks, s) != 0)
            fault("cuLaunchKernel: no thread for the launch");
    return CUDA_SUCCESS;
}

EXPORT unsigned long nq_emu_launches(const char *name)
{
    for (size_t i = 0; i < NFUNCTIONS; i++)
        if (name && strcmp(functions[i].name, name) == 0)
            return atomic_load(&launched[i]);
    return 0;
}
