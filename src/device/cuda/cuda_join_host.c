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
 *
 * A split whose keys alone do not fit (from n = 26 on, with a count's
 * usual memory) is counted in sub-splits, as the CPU counts a split in
 * batches: its halves' parts (join_gpu.h) are listed once more to count
 * each part's keys, cut into runs of parts whose keys fit half the room,
 * and every run of the east half is met with every run of the west.
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

/* What a piece counts: split `split` of the batch, or the part of its
 * pairs between parts first[0] .. first[0] + count[0] - 1 of its east
 * half and first[1] .. of its west (a sub-split; the whole split: all
 * parts of both), with the keys of its two lists by class. */
typedef struct join_sub {
    uint64_t sizes[6];
    uint32_t split;
    uint8_t first[2], count[2];
} join_sub;

static uint64_t list_keys(const join_sub *u, unsigned half)
{
    return u->sizes[half * 3] + u->sizes[half * 3 + 1] + u->sizes[half * 3 + 2];
}

/* Whether the sub-split stores its west list (the longer), class by
 * class. */
static int west_stored(const join_sub *u)
{
    return list_keys(u, 1) > list_keys(u, 0);
}

/* Its buckets (nq_jg_pick_bits for groups of one block). */
static nq_jg_buckets sub_buckets(const nq_jg_split *s, const join_sub *u)
{
    const uint64_t e = list_keys(u, 0), w = list_keys(u, 1);
    return nq_jg_bucket_bits(s, nq_jg_pick_bits(e > w ? e : w, NQ_JG_BLOCK));
}

/* What it takes of a piece's memory beside its keys: its lists'
 * layouts, its places (a bucket's count or cursor; by class on a stored
 * west list) and the bounds of its items' buckets, and its jobs at most
 * (one per 32 keys of a stored bucket, rounded up). */
static uint64_t sub_meta_bytes(const nq_jg_split *s, const join_sub *u)
{
    const nq_jg_buckets b = sub_buckets(s, u);
    const uint64_t nb = (uint64_t)1 << (b.run1 + b.run2);
    const uint64_t e = list_keys(u, 0), w = list_keys(u, 1);
    const uint64_t groups = (west_stored(u) ? 3u : 1u) * nb;
    const uint64_t jobs = e && w ? (e > w ? e : w) / NQ_JG_BLOCK + groups : 0;
    return 2 * sizeof(nq_join_list) + (nb + groups) * sizeof(uint64_t) +
           (nb + 1) * sizeof(uint64_t) + jobs * sizeof(nq_join_job);
}

/* A list of a launch: half `half` of split `split`, parts first ..
 * first + count - 1, its places from `base` on (`stride` apart a part,
 * or shared by all: 0), classed or not, bucketed by b (or not). */
static nq_join_list make_list(uint64_t base, uint32_t split, unsigned half, unsigned first,
                              unsigned count, uint32_t stride, int classed,
                              const nq_jg_buckets *b)
{
    nq_join_list l;
    l.base = base;
    l.split = split;
    l.stride = stride;
    l.half = (uint8_t)half;
    l.classed = (uint8_t)(classed != 0);
    l.cut1 = (uint8_t)(b ? b->cut1 : 0u);
    l.run1 = (uint8_t)(b ? b->run1 : 0u);
    l.cut2 = (uint8_t)(b ? b->cut2 : 0u);
    l.run2 = (uint8_t)(b ? b->run2 : 0u);
    l.first = (uint8_t)first;
    l.count = (uint8_t)count;
    return l;
}

/* Launches the listing of `nlists` lists (in g->lists), counting into
 * g->sizes (keys 0) or writing into g->keys, as many parts a list as
 * the most that one has. */
static int list_launch(cuda_gpu *g, const nq_join_list *lists, unsigned long long nlists,
                       int write, const nq_stop_flag *stop)
{
    unsigned parts = 1;
    CUdeviceptr none = 0;
    for (unsigned long long i = 0; i < nlists; i++)
        if (lists[i].count > parts)
            parts = lists[i].count;
    void *args[] = {&g->splits, &nlists, &parts, &g->lists, &g->sizes,
                    write ? &g->keys : &none, &g->next, &g->stop_dev};
    return nq_cuda_launch(g, g->join_list, g->join_list_blocks, JOIN_LIST_THREADS,
                          JOIN_LIST_SHARED, args, stop);
}

/* The host's copy of a piece's layout: the lists', their places (counts,
 * then starts, and the piece's keys at the end), bounds and jobs. */
typedef struct piece {
    nq_join_list *lists;
    uint64_t *at, *bounds;
    nq_join_job *jobs;
    uint64_t places, nbounds, njobs;
} piece;

/* Lays out sub-split r of the piece from p->places on; adds its bounds
 * to p->nbounds and its jobs at most to *jobs. */
static void lay_out(piece *p, const nq_join_batch *b, const join_sub *u, size_t r,
                    uint64_t *jobs)
{
    const nq_jg_buckets bk = sub_buckets(&b->splits[u->split], u);
    const uint64_t nb = (uint64_t)1 << (bk.run1 + bk.run2);
    const int ws = west_stored(u);
    for (unsigned half = 0; half < 2; half++) {
        const int classed = half == 1 && ws;
        p->lists[2 * r + half] =
            make_list(p->places, u->split, half, u->first[half], u->count[half], 0, classed, &bk);
        p->places += (classed ? 3u : 1u) * nb;
    }
    p->nbounds += nb + 1;
    if (list_keys(u, 0) && list_keys(u, 1))
        *jobs += (ws ? list_keys(u, 1) : list_keys(u, 0)) / NQ_JG_BLOCK + (ws ? 3u : 1u) * nb;
}

/* The jobs and bounds of sub-split r of the piece, once p->at holds the
 * starts of its places. */
static void make_jobs(piece *p, const join_sub *u, size_t r, uint64_t *bounds_at)
{
    const int ws = west_stored(u);
    const nq_join_list *stored = &p->lists[2 * r + (ws ? 1u : 0u)];
    const nq_join_list *items = &p->lists[2 * r + (ws ? 0u : 1u)];
    const uint64_t nb = (uint64_t)1 << (stored->run1 + stored->run2);
    const uint64_t first = *bounds_at;
    for (uint64_t x = 0; x <= nb; x++) /* the next list's start ends the last */
        p->bounds[(*bounds_at)++] = p->at[items->base + x];
    if (!list_keys(u, 0) || !list_keys(u, 1))
        return;
    for (unsigned c = 0; c < (stored->classed ? 3u : 1u); c++)
        for (uint64_t x = 0; x < nb; x++) {
            const uint64_t at = stored->base + c * nb + x, end = p->at[at + 1];
            for (uint64_t k = p->at[at]; k < end; k += NQ_JG_BLOCK) {
                nq_join_job *j = &p->jobs[p->njobs++];
                j->stored = k;
                j->count = (uint16_t)(end - k < NQ_JG_BLOCK ? end - k : NQ_JG_BLOCK);
                j->items = first;
                j->split = u->split;
                j->comp = (uint32_t)(~x & (nb - 1));
                j->cls = (uint16_t)(ws ? c : 3u);
                j->pad = 0;
            }
        }
}

/* The sub-splits subs[0 .. n), whose keys, buckets and jobs fit: their
 * buckets counted and laid out, their keys listed into place, then met
 * bucket by bucket, each pair's count added to its split's. */
static int join_piece(cuda_gpu *g, const nq_join_batch *b, const join_sub *subs, size_t n,
                      const nq_stop_flag *stop)
{
    const size_t list_bytes = 2 * n * sizeof(nq_join_list);
    unsigned long long njobs, nlists = 2 * n;
    piece p = {NULL, NULL, NULL, NULL, 0, 0, 0};
    uint64_t most_jobs = 0, bounds_at = 0;
    int rc;
    p.lists = malloc(list_bytes);
    for (size_t r = 0; p.lists && r < n; r++)
        lay_out(&p, b, &subs[r], r, &most_jobs);
    p.at = malloc((p.places + 1) * sizeof *p.at);
    p.bounds = malloc((p.nbounds ? p.nbounds : 1) * sizeof *p.bounds);
    p.jobs = malloc((most_jobs ? most_jobs : 1) * sizeof *p.jobs);
    rc = p.lists && p.at && p.bounds && p.jobs ? NQ_OK : NQ_ENOMEM;
    /* the buckets counted */
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->lists, &g->lists_cap, list_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->sizes, &g->sizes_cap, (p.places + 1) * sizeof *p.at);
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->lists, p.lists, list_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->sizes, 0, p.places * sizeof *p.at, g->stream));
    if (rc == NQ_OK)
        rc = list_launch(g, p.lists, nlists, 0, stop);
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(p.at, g->sizes, p.places * sizeof *p.at,
                                                 g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    /* laid out: each place's start, the keys of the piece at the end */
    if (rc == NQ_OK) {
        uint64_t at = 0;
        for (uint64_t k = 0; k <= p.places; k++) {
            const uint64_t count = k < p.places ? p.at[k] : 0;
            p.at[k] = at;
            at += count;
        }
        for (size_t r = 0; r < n; r++)
            make_jobs(&p, &subs[r], r, &bounds_at);
        rc = nq_cuda_reserve(g, &g->keys, &g->keys_cap,
                             (p.at[p.places] ? p.at[p.places] : 1) * sizeof(uint64_t));
    }
    /* the keys listed into place */
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->sizes, p.at, p.places * sizeof *p.at,
                                                 g->stream));
    if (rc == NQ_OK)
        rc = list_launch(g, p.lists, nlists, 1, stop);
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
        void *args[] = {&g->splits, &g->jobs, &njobs, &g->keys, &g->bounds, &g->counts, &g->next,
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

/* The sub-splits subs[0 .. n) in pieces whose keys fit `room` bytes, and
 * their buckets and jobs another `room`. */
static int join_pieces(cuda_gpu *g, const nq_join_batch *b, const join_sub *subs, size_t n,
                       uint64_t room, const nq_stop_flag *stop)
{
    int rc = NQ_OK;
    for (size_t first = 0; rc == NQ_OK && first < n;) {
        uint64_t keys = 0, meta = 0;
        size_t end = first;
        while (end < n) {
            const uint64_t k = list_keys(&subs[end], 0) + list_keys(&subs[end], 1);
            const uint64_t m = sub_meta_bytes(&b->splits[subs[end].split], &subs[end]);
            if ((keys + k) * sizeof(uint64_t) > room || meta + m + sizeof(uint64_t) > room)
                break;
            keys += k;
            meta += m;
            end++;
        }
        if (end == first)
            rc = NQ_EDEVICEMEM; /* a part's keys alone are too many */
        else
            rc = join_piece(g, b, subs + first, end - first, stop);
        first = end;
    }
    return rc;
}

/* Runs of the half's parts (sizes by class: 3 a part) whose keys fit
 * `most`, into first[] and count[]; returns how many, or 0 when one part
 * alone does not fit. */
static unsigned part_runs(const uint64_t *sizes, unsigned parts, uint64_t most,
                          uint8_t *first, uint8_t *count)
{
    unsigned runs = 0;
    uint64_t keys = 0;
    for (unsigned q = 0; q < parts; q++) {
        const uint64_t k = sizes[3 * q] + sizes[3 * q + 1] + sizes[3 * q + 2];
        if (k > most)
            return 0;
        if (runs == 0 || keys + k > most) {
            first[runs] = (uint8_t)q;
            count[runs++] = 0;
            keys = 0;
        }
        count[runs - 1]++;
        keys += k;
    }
    return runs;
}

/* Splits big[0 .. n) of the batch, whose keys do not fit `room` bytes,
 * in sub-splits: each half's parts counted (at most a room's worth of
 * places at once), cut into runs whose keys fit half the room, and every
 * east run met with every west run. */
static int join_big(cuda_gpu *g, const nq_join_batch *b, const size_t *big, size_t n,
                    uint64_t room, const nq_stop_flag *stop)
{
    size_t per_split = 0, chunk;
    uint64_t *sizes = NULL;
    nq_join_list *lists = NULL;
    join_sub *subs = NULL;
    int rc = NQ_OK;
    for (size_t i = 0; i < n; i++) /* places: a part's three classes, two halves */
        if (6 * nq_jg_parts(&b->splits[big[i]]) > per_split)
            per_split = 6 * nq_jg_parts(&b->splits[big[i]]);
    chunk = room / (per_split * sizeof(uint64_t) + 2 * sizeof(nq_join_list));
    if (chunk > n)
        chunk = n;
    if (chunk == 0)
        return NQ_EDEVICEMEM;
    sizes = malloc(chunk * per_split * sizeof *sizes);
    lists = malloc(2 * chunk * sizeof *lists);
    rc = sizes && lists ? NQ_OK : NQ_ENOMEM;
    for (size_t at = 0; rc == NQ_OK && at < n; at += chunk) {
        const size_t k = n - at < chunk ? n - at : chunk;
        uint64_t places = 0, nsubs = 0, most = 0;
        for (size_t i = 0; i < k; i++)
            for (unsigned half = 0; half < 2; half++) {
                const unsigned parts = nq_jg_parts(&b->splits[big[at + i]]);
                lists[2 * i + half] =
                    make_list(places, (uint32_t)big[at + i], half, 0, parts, 3, 1, NULL);
                places += 3u * parts;
            }
        rc = nq_cuda_reserve(g, &g->lists, &g->lists_cap, 2 * k * sizeof *lists);
        if (rc == NQ_OK)
            rc = nq_cuda_reserve(g, &g->sizes, &g->sizes_cap, places * sizeof *sizes);
        if (rc == NQ_OK)
            rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->lists, lists, 2 * k * sizeof *lists,
                                                     g->stream));
        if (rc == NQ_OK)
            rc = nq_cuda_status(g->d.MemsetD8Async(g->sizes, 0, places * sizeof *sizes,
                                                   g->stream));
        if (rc == NQ_OK)
            rc = list_launch(g, lists, 2 * k, 0, stop);
        if (rc == NQ_OK)
            rc = nq_cuda_status(g->d.MemcpyDtoHAsync(sizes, g->sizes, places * sizeof *sizes,
                                                     g->stream));
        if (rc == NQ_OK)
            rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
        /* the runs of each half, and their pairings */
        for (size_t i = 0; rc == NQ_OK && i < k; i++) {
            const unsigned parts = lists[2 * i].count;
            uint8_t first[2][NQ_JG_MAX_H * NQ_JG_MAX_H], count[2][NQ_JG_MAX_H * NQ_JG_MAX_H];
            unsigned runs[2];
            for (unsigned half = 0; half < 2; half++)
                runs[half] = part_runs(sizes + lists[2 * i + half].base, parts,
                                       room / sizeof(uint64_t) / 2, first[half], count[half]);
            if (!runs[0] || !runs[1]) {
                rc = NQ_EDEVICEMEM; /* a part's keys alone are too many */
                break;
            }
            if (nsubs + (uint64_t)runs[0] * runs[1] > most) {
                join_sub *more;
                most = (nsubs + (uint64_t)runs[0] * runs[1]) * 2;
                more = realloc(subs, most * sizeof *subs);
                if (!more) {
                    rc = NQ_ENOMEM;
                    break;
                }
                subs = more;
            }
            for (unsigned e = 0; e < runs[0]; e++)
                for (unsigned w = 0; w < runs[1]; w++) {
                    join_sub *u = &subs[nsubs++];
                    const unsigned pick[2] = {e, w};
                    u->split = (uint32_t)big[at + i];
                    for (unsigned half = 0; half < 2; half++) {
                        const unsigned r = pick[half];
                        const uint64_t *t = sizes + lists[2 * i + half].base + 3u * first[half][r];
                        u->first[half] = first[half][r];
                        u->count[half] = count[half][r];
                        u->sizes[3 * half] = u->sizes[3 * half + 1] = u->sizes[3 * half + 2] = 0;
                        for (unsigned q = 0; q < count[half][r]; q++)
                            for (unsigned c = 0; c < 3; c++)
                                u->sizes[3 * half + c] += t[3 * q + c];
                    }
                }
        }
        if (rc == NQ_OK)
            rc = join_pieces(g, b, subs, nsubs, room, stop);
    }
    free(sizes);
    free(lists);
    free(subs);
    return rc;
}

static int join_in_context(cuda_gpu *g, const nq_join_batch *b, uint64_t *counts,
                           const nq_stop_flag *stop)
{
    const size_t n = b->nsplits;
    const size_t split_bytes = n * sizeof(nq_jg_split), size_bytes = n * 6 * sizeof(uint64_t),
                 count_bytes = n * sizeof(uint64_t), list_bytes = 2 * n * sizeof(nq_join_list);
    uint64_t *sizes = malloc(size_bytes), room;
    nq_join_list *lists = malloc(list_bytes);
    join_sub *subs = malloc((n ? n : 1) * sizeof *subs);
    size_t *big = malloc((n ? n : 1) * sizeof *big), nsubs = 0, nbig = 0;
    int rc = sizes && lists && subs && big ? NQ_OK : NQ_ENOMEM;
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
    /* the first listing: each list's keys by class, no buckets */
    for (size_t i = 0; rc == NQ_OK && i < n; i++)
        for (unsigned half = 0; half < 2; half++)
            lists[2 * i + half] = make_list((2 * i + half) * 3, (uint32_t)i, half, 0,
                                            nq_jg_parts(&b->splits[i]), 0, 1, NULL);
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->splits, b->splits, split_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->lists, lists, list_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->counts, 0, count_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->sizes, 0, size_bytes, g->stream));
    if (rc == NQ_OK)
        rc = list_launch(g, lists, 2 * n, 0, stop);
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(sizes, g->sizes, size_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    /* the splits whose keys fit a piece whole, then the others */
    for (size_t i = 0; rc == NQ_OK && i < n; i++) {
        join_sub *u = &subs[nsubs];
        for (unsigned k = 0; k < 6; k++)
            u->sizes[k] = sizes[6 * i + k];
        u->split = (uint32_t)i;
        u->first[0] = u->first[1] = 0;
        u->count[0] = u->count[1] = (uint8_t)nq_jg_parts(&b->splits[i]);
        if ((list_keys(u, 0) + list_keys(u, 1)) * sizeof(uint64_t) <= room &&
            sub_meta_bytes(&b->splits[i], u) + sizeof(uint64_t) <= room)
            nsubs++;
        else
            big[nbig++] = i;
    }
    if (rc == NQ_OK)
        rc = join_pieces(g, b, subs, nsubs, room, stop);
    if (rc == NQ_OK && nbig)
        rc = join_big(g, b, big, nbig, room, stop);
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyDtoHAsync(counts, g->counts, count_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    else
        g->d.StreamSynchronize(g->stream);
    free(sizes);
    free(lists);
    free(subs);
    free(big);
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
