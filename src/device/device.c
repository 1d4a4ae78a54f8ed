/*
 * device.c - the table of GPU backends built in (device.h), and the public
 * nq_gpu_count(), nq_gpu_info_get() and nq_device_name() on it.
 */
#include "device.h"

#include <stdlib.h>

#include "results.h"

#ifdef NQ_HAVE_CUDA
#include "cuda/cuda_host.h"
#endif

/* The backends of this build, in the order they are asked. */
static const nq_gpu_backend *const backends[] = {
#ifdef NQ_HAVE_CUDA
    &nq_cuda_backend,
#endif
    NULL,
};

/* The first backend that shows a GPU, with its answer in *rc; when none
 * does, NULL and the first backend's error (NQ_EUNSUPPORTED without any). */
static const nq_gpu_backend *first_backend(unsigned *count, int *rc)
{
    *rc = NQ_EUNSUPPORTED;
    *count = 0;
    for (size_t i = 0; backends[i]; i++) {
        unsigned k = 0;
        int r = backends[i]->count(&k);
        if (r == NQ_OK && k > 0) {
            *count = k;
            *rc = NQ_OK;
            return backends[i];
        }
        if (i == 0)
            *rc = r == NQ_OK ? NQ_ENODEVICE : r;
    }
    return NULL;
}

int nq_gpu_support(void) { return backends[0] != NULL; }

int nq_gpu_count(unsigned *out)
{
    int rc;
    if (!out)
        return NQ_EINVAL;
    (void)first_backend(out, &rc);
    return rc;
}

int nq_gpu_info_get(nq_gpu_info *out, unsigned index)
{
    nq_gpu_info full;
    unsigned count;
    int rc;
    const nq_gpu_backend *b;
    if (!out)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_gpu_info_layout, out))
        return NQ_EVERSION;
    b = first_backend(&count, &rc);
    if (!b)
        return rc;
    if (index >= count)
        return NQ_ENODEVICE;
    rc = b->info(&full, index);
    if (rc == NQ_OK)
        nq_result_store(out, &full, &nq_gpu_info_layout);
    return rc;
}

const char *nq_device_name(nq_device device)
{
    switch (device) {
    case NQ_DEVICE_CPU: return "cpu";
    case NQ_DEVICE_GPU: return "gpu";
    case NQ_DEVICE_AUTO: return "auto";
    default: return NULL;
    }
}

int nq_gpu_open(nq_gpu **out, unsigned index, uint64_t memory)
{
    unsigned count;
    int rc;
    const nq_gpu_backend *b = first_backend(&count, &rc);
    nq_gpu *g;
    if (!b)
        return rc;
    if (index >= count)
        return NQ_ENODEVICE;
    g = malloc(sizeof *g);
    if (!g)
        return NQ_ENOMEM;
    g->backend = b;
    rc = b->open(&g->state, index,
                 memory < NQ_GPU_MEMORY_MIN ? NQ_GPU_MEMORY_MIN : memory);
    if (rc != NQ_OK) {
        free(g);
        return rc;
    }
    *out = g;
    return NQ_OK;
}

void nq_gpu_close(nq_gpu *gpu)
{
    if (!gpu)
        return;
    gpu->backend->close(gpu->state);
    free(gpu);
}

uint64_t nq_gpu_threads(const nq_gpu *gpu)
{
    return gpu->backend->threads(gpu->state);
}

const char *nq_gpu_walk_name(nq_gpu_walk walk)
{
    static const char *const names[NQ_GPU_WALKS] = {
        [NQ_GPU_WALK_STEP] = "step",
        [NQ_GPU_WALK_STACK] = "stack",
    };
    return (unsigned)walk < NQ_GPU_WALKS ? names[walk] : NULL;
}

int nq_gpu_use_walk(nq_gpu *gpu, nq_gpu_walk walk)
{
    if (!gpu || (unsigned)walk >= NQ_GPU_WALKS)
        return NQ_EINVAL;
    return gpu->backend->use_walk(gpu->state, walk);
}

const char *nq_gpu_pairs_name(nq_gpu_pairs pairs)
{
    static const char *const names[NQ_GPU_PAIRS_KINDS] = {
        [NQ_GPU_PAIRS_THREAD] = "thread",
        [NQ_GPU_PAIRS_WARP] = "warp",
    };
    return (unsigned)pairs < NQ_GPU_PAIRS_KINDS ? names[pairs] : NULL;
}

int nq_gpu_use_pairs(nq_gpu *gpu, nq_gpu_pairs pairs)
{
    if (!gpu || (unsigned)pairs >= NQ_GPU_PAIRS_KINDS)
        return NQ_EINVAL;
    return gpu->backend->use_pairs(gpu->state, pairs);
}

/* A GPU checks none of what nq_symw_batch_fits() does: a task past its
 * bounds would read another board, or write into another thread's frames
 * and count wrong without a word. */
int nq_symw_batch_fits(const nq_symw_batch *b)
{
    if (b->levels < 1u || b->levels > NQ_SYMW_STEP_LEVELS)
        return 0;
    for (uint64_t i = 0; i < b->ntasks; i++) {
        const uint32_t board = b->tasks[i].board_level >> 8;
        const unsigned level = b->tasks[i].board_level & 0xffu;
        unsigned levels;
        if (board >= b->nboards)
            return 0;
        levels = b->boards[(size_t)board * NQ_SYMW_BOARD_WORDS];
        if (levels > NQ_SYMW_MAX_LEVELS || level >= levels ||
            levels - level > b->levels)
            return 0;
    }
    return 1;
}

int nq_gpu_sym_walk(nq_gpu *gpu, const nq_symw_batch *batch, uint64_t *counts,
                    const nq_stop_flag *stop)
{
    if (!nq_symw_batch_fits(batch))
        return NQ_EINVAL;
    return gpu->backend->sym_walk(gpu->state, batch, counts, stop);
}

/* The kernels trust a split's tables: a window past a walk's 32-bit
 * words, or a step word with bits past its fields (nq_jg_step_word),
 * would list wrong keys without a word. */
static int split_fits(const nq_jg_split *s)
{
    const unsigned h = s->n / 2u;
    if (s->n < 4u || s->n > NQ_MAX_N || s->h != h || !s->weight)
        return 0;
    if (s->len1 > 31u || s->len2 > 31u || s->len1 + s->len2 > NQ_JG_KEY_BITS)
        return 0;
    if ((s->rows[0] & s->rows[1]) || (s->rows[0] | s->rows[1]) >> s->n ||
        (unsigned)__builtin_popcount(s->rows[0]) != h ||
        (unsigned)__builtin_popcount(s->rows[1]) != h)
        return 0;
    for (unsigned half = 0; half < 2; half++)
        for (unsigned level = 0; level < h; level++)
            if (s->step[half][level] >> 31)
                return 0;
    return 1;
}

int nq_join_batch_fits(const nq_join_batch *b)
{
    for (size_t i = 0; i < b->nsplits; i++)
        if (!split_fits(&b->splits[i]))
            return 0;
    return 1;
}

int nq_gpu_join_splits(nq_gpu *gpu, const nq_join_batch *batch, uint64_t *counts,
                       const nq_stop_flag *stop)
{
    if (!nq_join_batch_fits(batch))
        return NQ_EINVAL;
    return gpu->backend->join_splits(gpu->state, batch, counts, stop);
}
