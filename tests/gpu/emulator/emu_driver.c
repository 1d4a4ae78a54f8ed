/*
 * emu_driver.c - an emulated NVIDIA driver: the CUDA driver calls that the
 * library's CUDA backend makes (src/device/cuda/cuda_host.c), answered on
 * the CPU, built as libcuda.so.1 for the tests of a build configured with
 * NQ_CUDA_EMULATOR. Test helper, never installed. This file: the driver's
 * start, its GPUs, contexts and memory, and the checks that end the
 * process on a fault; emu_launch.c: modules, streams, copies and launches
 * (emu_driver.h is what the two share).
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
 *   NQ_EMU_DROP=KERNEL:K+ every K-th such add: a fault that every run of
 *                        K adds or more meets, however runs are cut
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
#include "emu_driver.h"

pthread_mutex_t emu_lock = PTHREAD_MUTEX_INITIALIZER;
unsigned emu_host_threads;
static int started, gpus;
static size_t memory;
static emu_ctx ctxs[MAX_GPUS];
static _Thread_local emu_ctx *current[MAX_DEPTH];
static _Thread_local int depth;

void emu_fault(const char *fmt, ...)
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
        emu_fault("%s=%s is not a number", name, s);
    return v;
}

int emu_fails(const char *name)
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

emu_ctx *emu_context(void)
{
    return depth > 0 ? current[depth - 1] : NULL;
}

buffer *emu_find(emu_ctx *c, const void *p, size_t size)
{
    const unsigned char *q = p;
    for (buffer *b = c->buffers; b; b = b->next)
        if (q >= b->p && q <= b->p + b->size && size <= (size_t)(b->p + b->size - q))
            return b;
    return NULL;
}

void *emu_device_address(CUdeviceptr p)
{
    return (void *)(uintptr_t)p;
}

void emu_check_range(const char *what, const void *p, size_t size)
{
    buffer *b;
    pthread_mutex_lock(&emu_lock); /* another thread may allocate or free */
    b = emu_find(emu_context(), p, size);
    pthread_mutex_unlock(&emu_lock);
    if (!b)
        emu_fault("%s: %zu bytes at %p are not in one buffer of the context", what, size, p);
}

/* --- the driver's functions --------------------------------------------- */

EXPORT CUresult cuInit(unsigned flags)
{
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (emu_fails("cuInit"))
        return CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&emu_lock);
    if (!started) {
        unsigned long k = env_number("NQ_EMU_GPUS", 1);
        gpus = k > MAX_GPUS ? MAX_GPUS : (int)k;
        memory = (size_t)env_number("NQ_EMU_GPU_MEMORY", 2048ul << 20);
        emu_host_threads = (unsigned)env_number("NQ_EMU_THREADS", 2);
        if (emu_host_threads < 1 || emu_host_threads > 64)
            emu_fault("NQ_EMU_THREADS must be 1 to 64");
        for (int i = 0; i < MAX_GPUS; i++)
            ctxs[i].gpu = i;
        started = 1;
    }
    pthread_mutex_unlock(&emu_lock);
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
    pthread_mutex_lock(&emu_lock);
    *free_bytes = memory - emu_context()->used;
    *total = memory;
    pthread_mutex_unlock(&emu_lock);
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
    if (emu_fails("cuDevicePrimaryCtxRetain"))
        return CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&emu_lock);
    ctxs[dev].retained++;
    pthread_mutex_unlock(&emu_lock);
    *out = &ctxs[dev];
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    emu_ctx *c;
    NEED_DEVICE(dev);
    c = &ctxs[dev];
    pthread_mutex_lock(&emu_lock);
    if (c->retained <= 0)
        emu_fault("cuDevicePrimaryCtxRelease: GPU %d's context is not retained", dev);
    if (--c->retained == 0 && (c->buffers || c->streams || c->modules))
        emu_fault("the last release of GPU %d's context left %zu bytes of buffers, "
                  "%d streams and %d modules in it", dev, c->used, c->streams, c->modules);
    pthread_mutex_unlock(&emu_lock);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPushCurrent_v2(emu_ctx *c)
{
    if (!c || c->retained <= 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (depth == MAX_DEPTH)
        emu_fault("cuCtxPushCurrent: %d contexts pushed and never popped", MAX_DEPTH);
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

static CUresult allocate(void **out, size_t size, int host, const char *name)
{
    emu_ctx *c = emu_context();
    buffer *b;
    if (size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (emu_fails(name))
        return CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&emu_lock);
    if (!host && size > memory - c->used) {
        pthread_mutex_unlock(&emu_lock);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    b = malloc(sizeof *b);
    if (b)
        b->p = malloc(size);
    if (!b || !b->p) {
        free(b);
        pthread_mutex_unlock(&emu_lock);
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
    pthread_mutex_unlock(&emu_lock);
    *out = b->p;
    return CUDA_SUCCESS;
}

static CUresult release(const void *p, int host, const char *name)
{
    emu_ctx *c = emu_context();
    pthread_mutex_lock(&emu_lock);
    for (buffer **at = &c->buffers; *at; at = &(*at)->next) {
        buffer *b = *at;
        if (b->p != p)
            continue;
        if (b->host != host)
            emu_fault("%s: %p was allocated by the other kind of allocation", name, p);
        *at = b->next;
        if (!host)
            c->used -= b->size;
        free(b->p);
        free(b);
        pthread_mutex_unlock(&emu_lock);
        return CUDA_SUCCESS;
    }
    emu_fault("%s: %p is not a buffer of the context", name, p);
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
    return release(emu_device_address(p), 0, "cuMemFree");
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
    pthread_mutex_lock(&emu_lock);
    b = emu_find(emu_context(), p, 1);
    pthread_mutex_unlock(&emu_lock);
    if (flags != 0 || !b || !b->host)
        return CUDA_ERROR_INVALID_VALUE;
    *out = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}
