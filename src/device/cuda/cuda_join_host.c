/*
 * cuda_join_host.c - the join's row splits on an opened GPU
 * (cuda_join.cu): the kernels loaded, and a batch counted. The batch's
 * splits are listed once to count their keys (each half in parts, a
 * thread a part: join_gpu.h); the host lays the lists out and cuts the
 * batch into pieces whose keys and jobs fit the GPU's memory; each piece
 * is listed into place, and its jobs (32 keys of a split's longer list
 * each) meet the other lists.
 */
#ifdef NQ_HAVE_CUDA

#include "device/cuda/cuda_internal.h"
#include "device/cuda/cuda_join.h"

#include <stdlib.h>

/* The embedded kernels of the join (generated from cuda_join.cu at build
 * time). */
extern const unsigned char nq_cuda_join_image[];

/* The join's kernels: a listing thread's frames (a level each), and a
 * pairs thread's table of up to NQ_JG_MAX_CHUNKS chunks: 43 KiB and 44
 * KiB a block, within the 48 KiB any launch may ask for. */
#define JOIN_LIST_THREADS 128u
#define JOIN_PAIRS_THREADS 32u
#define JOIN_LIST_SHARED ((size_t)JOIN_LIST_THREADS * NQ_JG_MAX_H * sizeof(nq_jg_frame))
#define JOIN_PAIRS_SHARED \
    ((size_t)JOIN_PAIRS_THREADS * NQ_JG_MAX_CHUNKS * NQ_JG_CHUNK_VALUES * sizeof(uint32_t))

/* The join's module and kernels. */
int nq_cuda_open_join(cuda_gpu *g, unsigned sms)
{
    int rc = nq_cuda_status(g->d.ModuleLoadData(&g->join_module, nq_cuda_join_image));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.ModuleGetFunction(&g->join_list, g->join_module,
                                              "nq_join_list_kernel"));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.ModuleGetFunction(&g->join_pairs, g->join_module,
                                              "nq_join_pairs_kernel"));
    if (rc == NQ_OK)
        rc = nq_cuda_fill_card(g, g->join_list, JOIN_LIST_THREADS, JOIN_LIST_SHARED, sms,
                       &g->join_list_blocks);
    if (rc == NQ_OK)
        rc = nq_cuda_fill_card(g, g->join_pairs, JOIN_PAIRS_THREADS, JOIN_PAIRS_SHARED, sms,
                       &g->join_pairs_blocks);
    return rc;
}

/* The keys of split i of the batch, by the listing's sizes (a task's three
 * classes), and how many jobs its pairs take: a job per 32 keys of the
 * longer list (per class, when that is the west list). */
static uint64_t split_keys(const uint64_t *sizes, size_t i, int half)
{
    const uint64_t *t = sizes + (2 * i + (size_t)half) * 3;
    return t[0] + t[1] + t[2];
}

static uint64_t split_jobs(const uint64_t *sizes, size_t i)
{
    const uint64_t e = split_keys(sizes, i, 0), w = split_keys(sizes, i, 1);
    const uint64_t *west = sizes + (2 * i + 1) * 3;
    if (!e || !w)
        return 0;
    if (w <= e)
        return (e + NQ_JG_BLOCK - 1) / NQ_JG_BLOCK;
    return (west[0] + NQ_JG_BLOCK - 1) / NQ_JG_BLOCK + (west[1] + NQ_JG_BLOCK - 1) / NQ_JG_BLOCK +
           (west[2] + NQ_JG_BLOCK - 1) / NQ_JG_BLOCK;
}

/* The jobs of split i (r within its piece of the batch), whose tasks'
 * lists start at offs[(2r + half) * 3 + class], into *jobs; returns how
 * many. The longer list is stored, as the host's count does
 * (join_gpu.c). */
static size_t make_jobs(const uint64_t *sizes, const uint64_t *offs, size_t i, size_t r,
                        nq_join_job *jobs)
{
    const uint64_t e = split_keys(sizes, i, 0), w = split_keys(sizes, i, 1);
    const int west_stored = w > e;
    const uint64_t *east_at = offs + 2 * r * 3, *west_at = offs + (2 * r + 1) * 3;
    size_t n = 0;
    if (!e || !w)
        return 0;
    for (unsigned c = 0; c < (west_stored ? 3u : 1u); c++) {
        const uint64_t count = west_stored ? sizes[(2 * i + 1) * 3 + c] : e;
        for (uint64_t k = 0; k < count; k += NQ_JG_BLOCK) {
            nq_join_job *j = &jobs[n++];
            j->stored = (west_stored ? west_at[c] : east_at[0]) + k;
            j->count = (uint16_t)(count - k < NQ_JG_BLOCK ? count - k : NQ_JG_BLOCK);
            j->items = west_stored ? east_at[0] : west_at[0];
            j->nitems = west_stored ? e : w;
            j->split = (uint32_t)r;
            j->cls = (uint16_t)(west_stored ? c : 3u);
        }
    }
    return n;
}

/* The splits first .. end - 1 of the batch, whose keys and jobs fit:
 * listed into place (each list's cursor starting at its offset), then
 * met pair by pair. */
static int join_piece(cuda_gpu *g, const uint64_t *sizes, uint64_t *offs, nq_join_job *jobs,
                     size_t first, size_t end, unsigned parts, const nq_stop_flag *stop)
{
    unsigned long long nsplits = end - first, njobs = 0;
    uint64_t at = 0;
    CUdeviceptr splits = g->splits + first * sizeof(nq_jg_split);
    CUdeviceptr counts = g->counts + first * sizeof(uint64_t);
    size_t keys_bytes, jobs_bytes;
    int rc;
    for (size_t t = 0; t < nsplits * 6; t++) {
        offs[t] = at;
        at += sizes[first * 6 + t];
    }
    for (size_t i = first; i < end; i++)
        njobs += make_jobs(sizes, offs, i, i - first, jobs + njobs);
    keys_bytes = (size_t)at * sizeof(uint64_t);
    jobs_bytes = (size_t)njobs * sizeof(nq_join_job);
    rc = nq_cuda_reserve(g, &g->keys, &g->keys_cap, keys_bytes ? keys_bytes : sizeof(uint64_t));
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->jobs, &g->jobs_cap, jobs_bytes ? jobs_bytes : sizeof(nq_join_job));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->sizes, offs, (size_t)nsplits * 6 * sizeof *offs,
                                            g->stream));
    if (rc == NQ_OK) {
        void *args[] = { &splits, &nsplits, &parts, &g->sizes, &g->keys, &g->next, &g->stop_dev };
        rc = nq_cuda_launch(g, g->join_list, g->join_list_blocks, JOIN_LIST_THREADS, JOIN_LIST_SHARED,
                    args, stop);
    }
    if (rc == NQ_OK && njobs)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->jobs, jobs, jobs_bytes, g->stream));
    if (rc == NQ_OK && njobs) {
        void *args[] = { &splits, &g->jobs, &njobs, &g->keys, &counts, &g->next, &g->stop_dev };
        rc = nq_cuda_launch(g, g->join_pairs, g->join_pairs_blocks, JOIN_PAIRS_THREADS,
                    JOIN_PAIRS_SHARED, args, stop);
    }
    return rc;
}

static int join_in_context(cuda_gpu *g, const nq_join_batch *b, uint64_t *counts,
                           const nq_stop_flag *stop)
{
    const size_t n = b->nsplits;
    const size_t split_bytes = n * sizeof(nq_jg_split), size_bytes = n * 6 * sizeof(uint64_t),
                 count_bytes = n * sizeof(uint64_t);
    unsigned long long nsplits = n;
    unsigned parts = 1;
    CUdeviceptr none = 0;
    uint64_t *sizes = malloc(size_bytes), *offs = malloc(size_bytes), room, most_jobs = 0;
    nq_join_job *jobs = NULL;
    int rc = sizes && offs ? NQ_OK : NQ_ENOMEM;
    /* the keys and jobs of a piece get what the rest leaves of the memory */
    if (rc == NQ_OK && (uint64_t)split_bytes + size_bytes + count_bytes + 4096 > g->memory)
        rc = NQ_EDEVICEMEM;
    room = rc == NQ_OK ? (g->memory - split_bytes - size_bytes - count_bytes) / 2 : 0;
    /* within the memory: the symmetry method's buffers go, and the keys'
     * and jobs' of an earlier batch when they hold more than this one's room */
    nq_cuda_drop(g, &g->boards, &g->boards_cap);
    nq_cuda_drop(g, &g->tasks, NULL);
    g->tasks_cap = 0;
    if (g->keys_cap > room)
        nq_cuda_drop(g, &g->keys, &g->keys_cap);
    if (g->jobs_cap > room)
        nq_cuda_drop(g, &g->jobs, &g->jobs_cap);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->splits, &g->splits_cap, split_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->sizes, &g->sizes_cap, size_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->counts, &g->counts_cap, count_bytes);
    *g->stop = 0;
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->splits, b->splits, split_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->counts, 0, count_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->sizes, 0, size_bytes, g->stream));
    for (size_t i = 0; i < n; i++)
        if (nq_jg_parts(&b->splits[i]) > parts)
            parts = nq_jg_parts(&b->splits[i]);
    if (rc == NQ_OK) { /* the listing, counting only */
        void *args[] = { &g->splits, &nsplits, &parts, &g->sizes, &none, &g->next, &g->stop_dev };
        rc = nq_cuda_launch(g, g->join_list, g->join_list_blocks, JOIN_LIST_THREADS, JOIN_LIST_SHARED,
                    args, stop);
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(sizes, g->sizes, size_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    /* the jobs of the largest piece: of the whole batch, or what the room holds */
    for (size_t i = 0; rc == NQ_OK && i < n; i++)
        most_jobs += split_jobs(sizes, i);
    if (most_jobs > room / sizeof(nq_join_job))
        most_jobs = room / sizeof(nq_join_job);
    if (rc == NQ_OK && !(jobs = malloc((most_jobs ? most_jobs : 1) * sizeof *jobs)))
        rc = NQ_ENOMEM;
    /* pieces of the batch whose keys fit half the room, and jobs the other */
    for (size_t first = 0; rc == NQ_OK && first < n;) {
        uint64_t keys = 0, njobs = 0;
        size_t end = first;
        while (end < n) {
            const uint64_t k = split_keys(sizes, end, 0) + split_keys(sizes, end, 1);
            const uint64_t j = split_jobs(sizes, end);
            if ((keys + k) * sizeof(uint64_t) > room || (njobs + j) * sizeof(nq_join_job) > room)
                break;
            keys += k;
            njobs += j;
            end++;
        }
        if (end == first)
            rc = NQ_EDEVICEMEM; /* one split's keys alone are too many */
        else
            rc = join_piece(g, sizes, offs, jobs, first, end, parts, stop);
        first = end;
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(counts, g->counts, count_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    else
        g->d.StreamSynchronize(g->stream);
    free(sizes);
    free(offs);
    free(jobs);
    return rc;
}

int nq_cuda_join_splits(void *state, const nq_join_batch *batch, uint64_t *counts,
                            const nq_stop_flag *stop)
{
    cuda_gpu *g = state;
    uint64_t *sums;
    CUcontext dummy;
    int rc;
    if (batch->nsplits == 0)
        return NQ_OK;
    sums = malloc(batch->nsplits * sizeof *sums);
    if (!sums)
        return NQ_ENOMEM;
    rc = nq_cuda_status(g->d.CtxPushCurrent(g->ctx));
    if (rc == NQ_OK) {
        rc = join_in_context(g, batch, sums, stop);
        g->d.CtxPopCurrent(&dummy);
    }
    if (rc == NQ_OK)
        for (size_t i = 0; i < batch->nsplits; i++)
            counts[i] += sums[i];
    free(sums);
    return rc;
}

#else
/* Built without CUDA: this file defines nothing (ISO C wants a
 * declaration in every translation unit). */
typedef int nq_cuda_join_host_unused;
#endif /* NQ_HAVE_CUDA */
