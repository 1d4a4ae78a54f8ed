/*
 * The counter: a count's options read and checked, its method and device
 * chosen, its plan built and fitted into the memory allowed (engine.h);
 * and the public nq_count(), nq_memory() and nq_count_choice() on it. The
 * run itself, its workers and the watching thread, are engine_run.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint/checkpoint.h"
#include "device/device.h"
#include "engine.h"
#include "methods/methods.h"
#include "options.h"
#include "results.h"

static int check_options(const nq_count_options *o, unsigned n)
{
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    if (!nq_method_ops_of(o->method) || !nq_simd_name(o->simd) ||
        !nq_device_name(o->device))
        return NQ_EINVAL;
    if ((o->part_m == 0) != (o->part_k == 0) || o->part_k > o->part_m)
        return NQ_EINVAL;
    if (!(o->checkpoint_interval >= 0.0))
        return NQ_EINVAL;
    return NQ_OK;
}

/* The method a GPU runs for NQ_METHOD_DEFAULT: the only one with a GPU
 * path (its row's solve_gpu). */
#define NQ_METHOD_GPU_DEFAULT NQ_METHOD_SYMMETRY

/* Whether the count goes to a GPU: for NQ_DEVICE_GPU, yes or an error
 * saying why it cannot (no support in this build, no driver, no such
 * GPU); for NQ_DEVICE_AUTO, when n is large enough and the GPU is there
 * (the method is checked once picked). */
static int want_gpu(int *out, const nq_count_options *o, unsigned n)
{
    unsigned count = 0;
    int rc;
    *out = 0;
    if (o->device == NQ_DEVICE_CPU ||
        (o->device == NQ_DEVICE_AUTO && n < NQ_GPU_AUTO_MIN_N))
        return NQ_OK;
    rc = nq_gpu_count(&count);
    if (rc == NQ_OK && o->gpu >= count)
        rc = NQ_ENODEVICE;
    if (o->device == NQ_DEVICE_AUTO)
        rc = NQ_OK, *out = count > o->gpu;
    else
        *out = rc == NQ_OK;
    return rc;
}

/* The method of the count: the one named; for the default with a
 * checkpoint that holds a method's units, that method when it gives what
 * is asked (a default run resumes as it began); else the default for n
 * and unique (on a GPU, the method the GPU runs). */
static int pick_method(const nq_method_ops **out, const nq_count_options *o,
                       unsigned n, int gpu)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    const nq_method method =
        gpu && o->method == NQ_METHOD_DEFAULT ? NQ_METHOD_GPU_DEFAULT : o->method;

    if (o->method == NQ_METHOD_DEFAULT && o->checkpoint &&
        !nq_checkpoint_is_unbound(o->checkpoint) &&
        nq_checkpoint_info_get(&info, o->checkpoint) == NQ_OK && info.n == n &&
        nq_method_pick(out, info.method, n, o->unique) == NQ_OK)
        return NQ_OK;
    return nq_method_pick(out, method, n, o->unique);
}

/* Whether GPU `index` can hold a count's buffers: each of the
 * NQ_GPU_WORKERS that drive it opens it with NQ_GPU_MEMORY_MIN at least,
 * past the margin left to the driver (the backend's open refuses less,
 * NQ_EDEVICEMEM). Judged on the card's whole memory, not on what is free
 * now: a card too small for any count, not one that others fill for a
 * while. A card whose size cannot be read is taken to hold them (opening
 * it says what is wrong). */
static int gpu_holds(unsigned index)
{
    nq_gpu_info info = NQ_GPU_INFO_INIT;
    if (nq_gpu_info_get(&info, index) != NQ_OK)
        return 1;
    return info.memory >= NQ_GPU_CARD_MARGIN + NQ_GPU_WORKERS * NQ_GPU_MEMORY_MIN;
}

/* The method and device of the count (o checked): the GPU when asked for
 * and there, or under NQ_DEVICE_AUTO when it is there, runs the method
 * and can hold the count; NQ_EMETHOD when the GPU is asked for and the
 * method (named, or a checkpoint's) has no GPU path, NQ_EDEVICEMEM when
 * its memory is too small for a count's buffers. Such a method does not
 * depend on the device, so under NQ_DEVICE_AUTO it stays, on the CPU;
 * from a GPU too small, NQ_DEVICE_AUTO goes to the CPU with the method
 * the CPU takes there, and *fallback says why (NQ_EDEVICEMEM; else
 * NQ_OK). */
static int choose(const nq_method_ops **ops, nq_device *device, int *fallback,
                  const nq_count_options *o, unsigned n)
{
    int gpu, rc = want_gpu(&gpu, o, n);
    *fallback = NQ_OK;
    if (rc != NQ_OK)
        return rc;
    rc = pick_method(ops, o, n, gpu);
    if (rc == NQ_OK && gpu && !(*ops)->solve_gpu) {
        if (o->device == NQ_DEVICE_GPU)
            return NQ_EMETHOD;
        gpu = 0;
    } else if (rc == NQ_OK && gpu && !gpu_holds(o->gpu)) {
        if (o->device == NQ_DEVICE_GPU)
            return NQ_EDEVICEMEM;
        *fallback = NQ_EDEVICEMEM;
        gpu = 0;
        rc = pick_method(ops, o, n, 0);
    }
    *device = gpu ? NQ_DEVICE_GPU : NQ_DEVICE_CPU;
    return rc;
}

/* A checkpoint opened for the default with nothing in it yet is bound to
 * the method that counts. */
static int bind_checkpoint(const nq_count_options *o, unsigned n,
                           const nq_method_ops *ops)
{
    uint64_t units;
    int rc;
    if (o->method != NQ_METHOD_DEFAULT || !o->checkpoint)
        return NQ_OK;
    rc = nq_units(&units, n, ops->id);
    if (rc == NQ_OK)
        rc = nq_checkpoint_bind(o->checkpoint, ops->id, ops->list_version, units);
    return rc == NQ_EMISMATCH ? NQ_OK : rc; /* check_checkpoint() says so */
}

/* A checkpoint must be one of this very count. */
static int check_checkpoint(const nq_checkpoint *cp, unsigned n,
                            nq_method method)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    if (!cp)
        return NQ_OK;
    if (nq_checkpoint_info_get(&info, cp) != NQ_OK)
        return NQ_EINVAL;
    if (info.n != n || info.method != method ||
        !nq_method_reads_list(method, n, info.unit_list_version))
        return NQ_EMISMATCH;
    return NQ_OK;
}

/* Bytes of the engine's own lists per unit: the unit list of the plan
 * (at most 16 bytes a unit in every method) and this run's todo list. */
#define LIST_BYTES_PER_UNIT 24u
/* The process that counts, before any count: code, libc, stacks and the
 * allocator's first pages (the nqueens command's peak resident memory on
 * a board of 4: 1.9 MiB, glibc on x86-64). */
#define PROCESS_BYTES ((uint64_t)1900u << 10)
/* Each counting thread, whatever its method: its stack, the allocator's
 * arena and a method's small scratch (measured, 16 threads of the
 * symmetry method: 120 KiB a thread at n = 15, 170 KiB at 17). */
#define THREAD_BYTES ((uint64_t)128u << 10)
/* Without max_memory, a count may take this share of physical memory. */
#define DEFAULT_MEMORY_SHARE 2u

uint64_t nq_default_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return (uint64_t)1 << 31;
    return (uint64_t)pages * (uint64_t)size / DEFAULT_MEMORY_SHARE;
}

/* The most memory a count's buffers take on GPU `index`: NQ_GPU_MEMORY,
 * or 1 / NQ_GPU_CARD_SHARE of the card where that is more (the pieces of
 * the join's large boards grow with it, and fewer of them keep more of
 * the GPU at work; buffers are taken as a count's batches need them). */
static uint64_t gpu_share(unsigned index)
{
    nq_gpu_info info = NQ_GPU_INFO_INIT;
    uint64_t share;
    if (nq_gpu_info_get(&info, index) != NQ_OK)
        return NQ_GPU_MEMORY;
    share = info.memory / NQ_GPU_CARD_SHARE;
    return share > NQ_GPU_MEMORY ? share : NQ_GPU_MEMORY;
}

int nq_counter_open(nq_counter *s, unsigned n, const nq_count_options *opts)
{
    uint64_t limit, base, method_bytes = 0;
    int rc, fallback;

    memset(s, 0, sizeof *s);
    rc = nq_count_options_load(&s->o, opts);
    if (rc != NQ_OK)
        return rc;
    s->n = n;
    rc = check_options(&s->o, n);
    if (rc != NQ_OK)
        return rc;
    /* one count at a time on a checkpoint: binding, reading and recording
     * it are not safe from two counts at once */
    if (s->o.checkpoint) {
        rc = nq_checkpoint_take(s->o.checkpoint);
        if (rc != NQ_OK)
            return rc;
        s->held = s->o.checkpoint;
    }
    rc = choose(&s->ops, &s->device, &fallback, &s->o, n);
    if (rc == NQ_OK)
        rc = bind_checkpoint(&s->o, n, s->ops);
    if (rc != NQ_OK)
        return rc;
    rc = nq_method_simd(&s->simd, s->ops, s->o.simd);
    if (rc != NQ_OK)
        return rc;
    rc = check_checkpoint(s->o.checkpoint, n, s->ops->id);
    if (rc != NQ_OK)
        return rc;
    rc = s->ops->build(&s->plan, n);
    if (rc != NQ_OK)
        return rc;
    s->size = s->ops->size(s->plan);
    s->threads = s->o.threads ? s->o.threads : nq_cpus_usable();
    if (s->device == NQ_DEVICE_GPU)
        s->threads = NQ_GPU_WORKERS; /* the threads that drive the GPU */
    if (s->size && s->threads > s->size)
        s->threads = (unsigned)s->size;
    limit = s->o.max_memory ? s->o.max_memory : nq_default_memory_limit();
    /* what any method takes: the process, its threads, the engine's lists */
    base = s->size * LIST_BYTES_PER_UNIT + PROCESS_BYTES + THREAD_BYTES * s->threads;
    rc = base > limit ? NQ_EMEMLIMIT : NQ_OK;
    /* a GPU's workers build none of the CPU's tables or scratch */
    if (s->ops->fit_memory && s->device != NQ_DEVICE_GPU)
        rc = s->ops->fit_memory(s->plan, s->threads, rc == NQ_OK ? limit - base : 0,
                                &method_bytes) != NQ_OK ? NQ_EMEMLIMIT : rc;
    if (s->device == NQ_DEVICE_GPU) {
        /* the GPU's buffers take what is left, up to their share of the
         * card */
        uint64_t used = base + method_bytes, most = gpu_share(s->o.gpu);
        s->gpu_memory = rc == NQ_OK && limit > used ? limit - used : 0;
        if (s->gpu_memory > most)
            s->gpu_memory = most;
        if (s->gpu_memory < NQ_GPU_MEMORY_MIN) {
            s->gpu_memory = NQ_GPU_MEMORY_MIN;
            rc = NQ_EMEMLIMIT;
        }
        method_bytes += s->gpu_memory;
    }
    s->memory = base + method_bytes; /* on NQ_EMEMLIMIT: the least it needs */
    if (rc != NQ_OK) {
        s->ops->destroy(s->plan);
        s->plan = NULL;
    }
    return rc;
}

int nq_counter_prepare(nq_counter *c, const nq_stop_flag *stop)
{
    return c->ops->prepare ? c->ops->prepare(c->plan, stop) : NQ_OK;
}

void nq_counter_close(nq_counter *c)
{
    if (c->plan)
        c->ops->destroy(c->plan);
    c->plan = NULL;
    for (unsigned t = 0; t < NQ_GPU_WORKERS; t++) {
        nq_gpu_close(c->gpu[t]);
        c->gpu[t] = NULL;
    }
    if (c->held)
        nq_checkpoint_give(c->held);
    c->held = NULL;
}

/* nq_count_choice() and nq_count_fallback(): the choice, and why
 * NQ_DEVICE_AUTO left the GPU. */
static int choice(nq_method *method, nq_device *device, int *fallback, unsigned n,
                  const nq_count_options *opts)
{
    nq_count_options o;
    const nq_method_ops *ops;
    nq_device dev;
    int rc, why;
    rc = nq_count_options_load(&o, opts);
    if (rc == NQ_OK)
        rc = check_options(&o, n);
    if (rc == NQ_OK)
        rc = choose(&ops, &dev, &why, &o, n);
    if (rc != NQ_OK)
        return rc;
    *method = ops->id;
    *device = dev;
    *fallback = why;
    return NQ_OK;
}

int nq_count_choice(nq_method *method, nq_device *device, unsigned n,
                    const nq_count_options *opts)
{
    int why;
    if (!method || !device)
        return NQ_EINVAL;
    return choice(method, device, &why, n, opts);
}

int nq_count_fallback(int *out, unsigned n, const nq_count_options *opts)
{
    nq_method method;
    nq_device device;
    if (!out)
        return NQ_EINVAL;
    return choice(&method, &device, out, n, opts);
}

int nq_memory(uint64_t *out, unsigned n, const nq_count_options *opts)
{
    nq_counter c;
    int rc;
    if (!out)
        return NQ_EINVAL;
    rc = nq_counter_open(&c, n, opts);
    nq_counter_close(&c);
    if (rc == NQ_OK || rc == NQ_EMEMLIMIT)
        *out = c.memory;
    return rc;
}

int nq_count(nq_count_result *out, unsigned n, const nq_count_options *opts)
{
    nq_count_result full;
    nq_counter c;
    int rc;
    if (!out)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_count_result_layout, out))
        return NQ_EVERSION;
    rc = nq_counter_open(&c, n, opts);
    if (rc == NQ_OK)
        rc = nq_counter_run(&full, &c, &c.o);
    nq_counter_close(&c);
    /* a count that differs from the published one is shown to the
     * caller, who says so */
    if (rc == NQ_OK || rc == NQ_EPUBLISHED)
        nq_result_store(out, &full, &nq_count_result_layout);
    return rc;
}
