/*
 * emu_driver.h - what the emulated driver's two files share (emu_driver.c:
 * the driver's start, GPUs, contexts and memory; emu_launch.c: modules,
 * streams, copies and launches): the driver's types, the machine's
 * structures, and the checks that end the process on a fault. Private to
 * tests/gpu/emulator; test helper, never installed.
 */
#ifndef NQ_EMU_DRIVER_H
#define NQ_EMU_DRIVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

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
/* Held for the contexts' buffers, streams and modules (another thread may
 * allocate or free). */
extern pthread_mutex_t emu_lock;
/* The host threads a launch runs on (NQ_EMU_THREADS). */
extern unsigned emu_host_threads;

/* Ends the process with one line that says why ("nq-emu: ..."). */
void emu_fault(const char *fmt, ...);

/* Whether the driver function `name` is to fail now (NQ_EMU_FAIL). */
int emu_fails(const char *name);

/* The calling thread's current context, or NULL. */
emu_ctx *emu_context(void);

/* The buffer of context c that holds [p, p + size), or NULL. The caller
 * holds the lock. */
buffer *emu_find(emu_ctx *c, const void *p, size_t size);

/* The host address of device pointer p (device memory is host memory). */
void *emu_device_address(CUdeviceptr p);

/* Faults when [p, p + size) is not in one buffer of the current context. */
void emu_check_range(const char *what, const void *p, size_t size);

#define NEED_CONTEXT(what)                                                              \
    do {                                                                                \
        if (!emu_context())                                                             \
            emu_fault("%s without a current context", what);                            \
    } while (0)

#endif /* NQ_EMU_DRIVER_H */
