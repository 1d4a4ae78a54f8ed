/*
 * cuda_join_host.c - the join's row splits on an opened GPU
 * (cuda_join.cu): the kernels loaded, and a batch counted. The batch's
 * splits are listed once to count their keys (each half in parts, a
 * thread a part: join_gpu.h); the host picks each split's buckets (as
 * many bits as leave 32 keys or fewer a bucket of its longer list, as
 * the host's count by the same steps picks them: join_gpu.c) and cuts
 * the batch into pieces whose keys, buckets and jobs fit the GPU's
 * memory. A piece is listed twice more: once to count its buckets,
 * which the host lays out (and makes the jobs of: 32 keys of one bucket
 * of a split's longer list each), then into place; then its jobs meet
 * the other lists' buckets that can be disjoint from theirs.
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

/* The keys of list (split i, half) of the batch by the first listing's
 * sizes (three classes a list). */
static uint64_t list_keys(const uint64_t *sizes, size_t i, unsigned half)
{
    const uint64_t *t = sizes + (2 * i + half) * 3;
    return t[0] + t[1] + t[2];
}

/* Whether split i stores its west list (the longer), class by class. */
static int west_stored(const uint64_t *sizes, size_t i)
{
    return list_keys(sizes, i, 1) > list_keys(sizes, i, 0);
}

/* Split i's buckets (nq_jg_pick_bits for groups of one block). */
static nq_jg_buckets split_buckets(const nq_jg_split *s, const uint64_t *sizes, size_t i)
{
    const uint64_t e = list_keys(sizes, i, 0), w = list_keys(sizes, i, 1);
    return nq_jg_bucket_bits(s, nq_jg_pick_bits(e > w ? e : w, NQ_JG_BLOCK));
}

/* What split i takes of a piece's memory beside its keys: its lists'
 * layouts, its places (a bucket's count or cursor; by class on a stored
 * west list) and the bounds of its items' buckets, and its jobs at most
 * (one per 32 keys of a stored bucket, rounded up). */
static uint64_t split_meta_bytes(const nq_jg_split *s, const uint64_t *sizes, size_t i)
{
    const nq_jg_buckets b = split_buckets(s, sizes, i);
    const uint64_t nb = (uint64_t)1 << (b.run1 + b.run2);
    const uint64_t e = list_keys(sizes, i, 0), w = list_keys(sizes, i, 1);
    const uint64_t groups = (west_stored(sizes, i) ? 3u : 1u) * nb;
    const uint64_t jobs = e && w ? (e > w ? e : w) / NQ_JG_BLOCK + groups : 0;
    return 2 * sizeof(nq_join_list) + (nb + groups) * sizeof(uint64_t) +
           (nb + 1) * sizeof(uint64_t) + jobs * sizeof(nq_join_job);
}

/* The host's copy of a piece's layout: the lists', their places (counts,
 * then starts, and the piece's keys at the end), bounds and jobs. */
typedef struct piece {
    nq_join_list *lists;
    uint64_t *at, *bounds;
    nq_join_job *jobs;
    uint64_t places, nbounds, njobs;
} piece;

/* Lays out split r of the piece (batch split i) from *places on; adds
 * its bounds to *nbounds. */
static void lay_out(piece *p, const nq_jg_split *s, const uint64_t *sizes, size_t i, size_t r)
{
    const nq_jg_buckets b = split_buckets(s, sizes, i);
    const uint64_t nb = (uint64_t)1 << (b.run1 + b.run2);
    const int ws = west_stored(sizes, i);
    for (unsigned half = 0; half < 2; half++) {
        nq_join_list *l = &p->lists[2 * r + half];
        l->base = p->places;
        l->cut1 = (uint8_t)b.cut1;
        l->run1 = (uint8_t)b.run1;
        l->cut2 = (uint8_t)b.cut2;
        l->run2 = (uint8_t)b.run2;
        l->classed = (uint8_t)(half == 1 && ws);
        l->pad[0] = l->pad[1] = l->pad[2] = 0;
        p->places += (l->classed ? 3u : 1u) * nb;
    }
    p->nbounds += nb + 1;
}

/* The jobs and bounds of split r of the piece (batch split i), once
 * p->at holds the starts of its places. */
static void make_jobs(piece *p, const uint64_t *sizes, size_t i, size_t r, uint64_t *bounds_at)
{
    const int ws = west_stored(sizes, i);
    const nq_join_list *stored = &p->lists[2 * r + (ws ? 1u : 0u)];
    const nq_join_list *items = &p->lists[2 * r + (ws ? 0u : 1u)];
    const uint64_t nb = (uint64_t)1 << (stored->run1 + stored->run2);
    const uint64_t first = *bounds_at;
    for (uint64_t x = 0; x <= nb; x++) /* the next list's start ends the last */
        p->bounds[(*bounds_at)++] = p->at[items->base + x];
    if (!list_keys(sizes, i, 0) || !list_keys(sizes, i, 1))
        return;
    for (unsigned c = 0; c < (stored->classed ? 3u : 1u); c++)
        for (uint64_t x = 0; x < nb; x++) {
            const uint64_t at = stored->base + c * nb + x, end = p->at[at + 1];
            for (uint64_t k = p->at[at]; k < end; k += NQ_JG_BLOCK) {
                nq_join_job *j = &p->jobs[p->njobs++];
                j->stored = k;
                j->count = (uint16_t)(end - k < NQ_JG_BLOCK ? end - k : NQ_JG_BLOCK);
                j->items = first;
                j->split = (uint32_t)r;
                j->comp = (uint32_t)(~x & (nb - 1));
                j->cls = (uint16_t)(ws ? c : 3u);
                j->pad = 0;
            }
        }
}

/* The splits first .. end - 1 of the batch, whose keys, buckets and jobs
 * fit: their buckets counted and laid out, their keys listed into place,
 * then met bucket by bucket. */
static int join_piece(cuda_gpu *g, const nq_join_batch *b, const uint64_t *sizes, size_t first,
                      size_t end, unsigned parts, const nq_stop_flag *stop)
{
    unsigned long long nsplits = end - first, njobs;
    CUdeviceptr splits = g->splits + first * sizeof(nq_jg_split);
    CUdeviceptr counts = g->counts + first * sizeof(uint64_t), none = 0;
    piece p = {NULL, NULL, NULL, NULL, 0, 0, 0};
    uint64_t most_jobs = 0, bounds_at = 0;
    int rc;
    p.lists = malloc(2 * (size_t)nsplits * sizeof *p.lists);
    for (size_t i = first; p.lists && i < end; i++) {
        const uint64_t e = list_keys(sizes, i, 0), w = list_keys(sizes, i, 1);
        lay_out(&p, &b->splits[i], sizes, i, i - first);
        if (e && w)
            most_jobs += (e > w ? e : w) / NQ_JG_BLOCK +
                         (west_stored(sizes, i) ? 3u : 1u) *
                             ((uint64_t)1 << (p.lists[2 * (i - first)].run1 +
                                              p.lists[2 * (i - first)].run2));
    }
    p.at = malloc((p.places + 1) * sizeof *p.at);
    p.bounds = malloc((p.nbounds ? p.nbounds : 1) * sizeof *p.bounds);
    p.jobs = malloc((most_jobs ? most_jobs : 1) * sizeof *p.jobs);
    rc = p.lists && p.at && p.bounds && p.jobs ? NQ_OK : NQ_ENOMEM;
    /* the buckets counted */
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->lists, &g->lists_cap, 2 * (size_t)nsplits * sizeof *p.lists);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->sizes, &g->sizes_cap, (p.places + 1) * sizeof *p.at);
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->lists, p.lists,
                                                 2 * (size_t)nsplits * sizeof *p.lists, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->sizes, 0, p.places * sizeof *p.at, g->stream));
    if (rc == NQ_OK) {
        void *args[] = {&splits, &nsplits, &parts, &g->lists, &g->sizes, &none, &g->next,
                        &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_list, g->join_list_blocks, JOIN_LIST_THREADS,
                            JOIN_LIST_SHARED, args, stop);
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(p.at, g->sizes, p.places * sizeof *p.at,
                                                 g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    /* laid out: each place's start, the keys of the piece at the end */
    if (rc == NQ_OK) {
        uint64_t at = 0;
        for (uint64_t k = 0; k <= p.places; k++) {
            const uint64_t n = k < p.places ? p.at[k] : 0;
            p.at[k] = at;
            at += n;
        }
        for (size_t i = first; i < end; i++)
            make_jobs(&p, sizes, i, i - first, &bounds_at);
        rc = nq_cuda_reserve(g, &g->keys, &g->keys_cap,
                             (p.at[p.places] ? p.at[p.places] : 1) * sizeof(uint64_t));
    }
    /* the keys listed into place */
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->sizes, p.at, p.places * sizeof *p.at,
                                                 g->stream));
    if (rc == NQ_OK) {
        void *args[] = {&splits, &nsplits, &parts, &g->lists, &g->sizes, &g->keys, &g->next,
                        &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_list, g->join_list_blocks, JOIN_LIST_THREADS,
                            JOIN_LIST_SHARED, args, stop);
    }
    /* the pairs */
    njobs = p.njobs;
    if (rc == NQ_OK && njobs)
        rc = nq_cuda_reserve(g, &g->jobs, &g->jobs_cap, njobs * sizeof *p.jobs);
    if (rc == NQ_OK && njobs)
        rc = nq_cuda_reserve(g, &g->bounds, &g->bounds_cap, p.nbounds * sizeof *p.bounds);
    if (rc == NQ_OK && njobs)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->jobs, p.jobs, njobs * sizeof *p.jobs,
                                                 g->stream));
    if (rc == NQ_OK && njobs)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->bounds, p.bounds,
                                                 p.nbounds * sizeof *p.bounds, g->stream));
    if (rc == NQ_OK && njobs) {
        void *args[] = {&splits, &g->jobs, &njobs, &g->keys, &g->bounds, &counts, &g->next,
                        &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_pairs, g->join_pairs_blocks, JOIN_PAIRS_THREADS,
                            JOIN_PAIRS_SHARED, args, stop);
    }
    /* the copies above read the host's buffers: done before they go */
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    else
        g->d.StreamSynchronize(g->stream);
    free(p.lists);
    free(p.at);
    free(p.bounds);
    free(p.jobs);
    return rc;
}

static int join_in_context(cuda_gpu *g, const nq_join_batch *b, uint64_t *counts,
                           const nq_stop_flag *stop)
{
    const size_t n = b->nsplits;
    const size_t split_bytes = n * sizeof(nq_jg_split), size_bytes = n * 6 * sizeof(uint64_t),
                 count_bytes = n * sizeof(uint64_t), list_bytes = 2 * n * sizeof(nq_join_list);
    unsigned long long nsplits = n;
    unsigned parts = 1;
    CUdeviceptr none = 0;
    uint64_t *sizes = malloc(size_bytes), room;
    nq_join_list *lists = malloc(list_bytes);
    int rc = sizes && lists ? NQ_OK : NQ_ENOMEM;
    /* a piece's keys get half of what the rest leaves of the memory, its
     * buckets and jobs the other half */
    if (rc == NQ_OK &&
        (uint64_t)split_bytes + size_bytes + count_bytes + list_bytes + 4096 > g->memory)
        rc = NQ_EDEVICEMEM;
    room = rc == NQ_OK ? (g->memory - split_bytes - size_bytes - count_bytes - list_bytes) / 2
                       : 0;
    /* within the memory: the symmetry method's buffers go, and the join's
     * of an earlier batch when they hold more than this one's room */
    nq_cuda_drop(g, &g->boards, &g->boards_cap);
    nq_cuda_drop(g, &g->tasks, NULL);
    g->tasks_cap = 0;
    if (g->keys_cap > room)
        nq_cuda_drop(g, &g->keys, &g->keys_cap);
    if (g->jobs_cap > room)
        nq_cuda_drop(g, &g->jobs, &g->jobs_cap);
    if (g->bounds_cap > room)
        nq_cuda_drop(g, &g->bounds, &g->bounds_cap);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->splits, &g->splits_cap, split_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->sizes, &g->sizes_cap, size_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->counts, &g->counts_cap, count_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->lists, &g->lists_cap, list_bytes);
    *g->stop = 0;
    for (size_t i = 0; rc == NQ_OK && i < n; i++) {
        if (nq_jg_parts(&b->splits[i]) > parts)
            parts = nq_jg_parts(&b->splits[i]);
        /* the first listing: a list's keys by class, no buckets */
        for (unsigned half = 0; half < 2; half++) {
            nq_join_list *l = &lists[2 * i + half];
            l->base = (2 * i + half) * 3;
            l->cut1 = l->run1 = l->cut2 = l->run2 = 0;
            l->classed = 1;
            l->pad[0] = l->pad[1] = l->pad[2] = 0;
        }
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->splits, b->splits, split_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->lists, lists, list_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->counts, 0, count_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->sizes, 0, size_bytes, g->stream));
    if (rc == NQ_OK) {
        void *args[] = {&g->splits, &nsplits, &parts, &g->lists, &g->sizes, &none, &g->next,
                        &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_list, g->join_list_blocks, JOIN_LIST_THREADS,
                            JOIN_LIST_SHARED, args, stop);
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(sizes, g->sizes, size_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    /* pieces of the batch whose keys fit half the room, and the rest the
     * other */
    for (size_t first = 0; rc == NQ_OK && first < n;) {
        uint64_t keys = 0, meta = 0;
        size_t end = first;
        while (end < n) {
            const uint64_t k = list_keys(sizes, end, 0) + list_keys(sizes, end, 1);
            const uint64_t m = split_meta_bytes(&b->splits[end], sizes, end);
            if ((keys + k) * sizeof(uint64_t) > room || meta + m + sizeof(uint64_t) > room)
                break;
            keys += k;
            meta += m;
            end++;
        }
        if (end == first)
            rc = NQ_EDEVICEMEM; /* one split's keys alone are too many */
        else
            rc = join_piece(g, b, sizes, first, end, parts, stop);
        first = end;
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(counts, g->counts, count_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    else
        g->d.StreamSynchronize(g->stream);
    free(sizes);
    free(lists);
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
