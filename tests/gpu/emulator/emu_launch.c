/*
 * emu_launch.c - the emulated driver's modules, streams, copies and
 * launches (emu_driver.c has the rest): the image's kernels, as
 * cuModuleGetFunction hands them out; streams with at most one launch in
 * flight, every later call on the stream waiting for it; copies and sets
 * checked against the context's buffers; and a launch's blocks run on
 * host threads of its own (emu_kernels.cc runs each block), its
 * parameters checked as the kernel takes them. Test helper, never
 * installed.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "emu_driver.h"

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

static void *run_blocks(void *arg)
{
    emu_stream *s = arg;
    for (;;) {
        unsigned b = atomic_fetch_add(&s->next_block, 1);
        if (b >= s->grid)
            break;
        if (nq_emu_run_block(s->fn->name, b, s->grid, s->threads, s->shared, s->params) != 0)
            emu_fault("%s: block %u wrote past its %u bytes of shared memory", s->fn->name, b,
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

EXPORT CUresult cuModuleLoadData(emu_module **out, const void *image)
{
    emu_module *m;
    NEED_CONTEXT("cuModuleLoadData");
    if (memcmp(image, NQ_EMU_IMAGE_MAGIC, sizeof NQ_EMU_IMAGE_MAGIC - 1) != 0)
        return CUDA_ERROR_INVALID_IMAGE;
    m = malloc(sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->ctx = emu_context();
    pthread_mutex_lock(&emu_lock);
    m->ctx->modules++;
    pthread_mutex_unlock(&emu_lock);
    *out = m;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleUnload(emu_module *m)
{
    NEED_CONTEXT("cuModuleUnload");
    if (!m)
        return CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&emu_lock);
    m->ctx->modules--;
    pthread_mutex_unlock(&emu_lock);
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
    emu_fault("cuModuleGetFunction: the kernels know %s, the driver does not", name);
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

EXPORT CUresult cuStreamCreate(emu_stream **out, unsigned flags)
{
    emu_stream *s;
    NEED_CONTEXT("cuStreamCreate");
    if (flags & ~1u)
        return CUDA_ERROR_INVALID_VALUE;
    s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->ctx = emu_context();
    pthread_mutex_lock(&emu_lock);
    s->ctx->streams++;
    pthread_mutex_unlock(&emu_lock);
    *out = s;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamDestroy_v2(emu_stream *s)
{
    NEED_CONTEXT("cuStreamDestroy");
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    finish(s);
    pthread_mutex_lock(&emu_lock);
    s->ctx->streams--;
    pthread_mutex_unlock(&emu_lock);
    free(s);
    return CUDA_SUCCESS;
}

/* Every call on a stream: the stream given, the context current, the
 * launch before it finished. */
static CUresult stream_call(emu_stream *s, const char *name)
{
    if (!emu_context())
        emu_fault("%s without a current context", name);
    if (!s)
        emu_fault("%s on the default stream (the backend has its own)", name);
    if (s->ctx != emu_context())
        emu_fault("%s on a stream of another context", name);
    finish(s);
    return emu_fails(name) ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
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
    emu_check_range("cuMemcpyHtoDAsync", emu_device_address(dst), size);
    memcpy(emu_device_address(dst), src, size);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t size, emu_stream *s)
{
    CUresult r = stream_call(s, "cuMemcpyDtoHAsync_v2");
    if (r != CUDA_SUCCESS)
        return r;
    emu_check_range("cuMemcpyDtoHAsync", emu_device_address(src), size);
    memcpy(dst, emu_device_address(src), size);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t size,
                                emu_stream *s)
{
    CUresult r = stream_call(s, "cuMemsetD8Async");
    if (r != CUDA_SUCCESS)
        return r;
    emu_check_range("cuMemsetD8Async", emu_device_address(dst), size);
    memset(emu_device_address(dst), value, size);
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
        emu_fault("cuLaunchKernel: no parameters known for %s", f->name);
    /* the parameters are taken now, as the driver takes them: each of its
     * own width (a 4-byte one read as 8 would take in what lies past it) */
    for (unsigned i = 0; i < count; i++) {
        s->values[i] = 0;
        memcpy(&s->values[i], params[i], narrow >> i & 1u ? 4u : sizeof s->values[i]);
        s->params[i] = &s->values[i];
    }
    /* every pointer (all but the counts) is in a buffer of the context,
     * or null where the kernel takes null */
    pthread_mutex_lock(&emu_lock);
    for (unsigned i = 0; i < count; i++)
        if (!(values >> i & 1u) && !(nullable >> i & 1u && s->values[i] == 0) &&
            !emu_find(emu_context(), emu_device_address(s->values[i]), 1))
            emu_fault("cuLaunchKernel: parameter %u (%#llx) is not in a buffer of the context",
                      i, s->values[i]);
    pthread_mutex_unlock(&emu_lock);
    atomic_fetch_add(&launched[f - functions], 1);
    nq_emu_launch_starts(f->name);
    s->fn = f;
    s->grid = gx;
    s->threads = bx;
    s->shared = shared;
    s->workers = emu_host_threads < gx ? emu_host_threads : gx;
    atomic_store(&s->next_block, 0);
    atomic_store(&s->finished, 0);
    s->running = 1;
    for (unsigned i = 0; i < s->workers; i++)
        if (pthread_create(&s->worker[i], NULL, run_blocks, s) != 0)
            emu_fault("cuLaunchKernel: no thread for the launch");
    return CUDA_SUCCESS;
}

EXPORT unsigned long nq_emu_launches(const char *name)
{
    for (size_t i = 0; i < NFUNCTIONS; i++)
        if (name && strcmp(functions[i].name, name) == 0)
            return atomic_load(&launched[i]);
    return 0;
}
