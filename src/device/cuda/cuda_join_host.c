/*
 * cuda_join_host.c - the join's row splits on an opened GPU
 * (cuda_join.cu): the kernels loaded, and a batch counted. The batch's
 * splits are listed once to count their keys (each half in parts, a
 * thread a part: join_steps.h); the host picks each split's buckets (as
 * join_gpu.c does) and cuts the batch into pieces whose keys, twice
 * over, and buckets and jobs fit the GPU's memory. A piece is listed
 * once more, each key written loose (its list's keys in a run) and
 * counted by bucket; then, on the GPU
 * alone (the host only launches), each sub-split is laid out (its
 * buckets' starts, the bounds of the buckets its items meet, and its
 * jobs: 32 keys of one bucket of its longer list each), the loose keys
 * are moved to their buckets, every bucket is checked to end where it
 * was laid out to (a key lost or placed twice: a fault, never a wrong
 * count), and the jobs meet the other lists' buckets that can be
 * disjoint from theirs. A piece whose keys fit the memory only once (one
 * split or sub-split) is listed twice instead: to count its buckets,
 * then into place.
 *
 * A split whose keys alone do not fit (from n = 26 on, with a count's
 * usual memory) is counted in sub-splits, as the CPU counts a split in
 * batches: its halves' parts (join_steps.h) are listed once more to count
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

/* Threads a block of the join's kernels. Shared memory: a listing
 * thread's frames (nq_jg_part_frames), a pairs thread's or warp's table
 * (the chunks of the batch's longest key): at n = 20, 24 KiB a listing
 * block, 32 KiB a pairs block, 4 KiB a warp kernel's block. */
#define JOIN_LIST_THREADS 128u
#define JOIN_SORT_THREADS 256u
#define JOIN_PAIRS_THREADS 32u
#define JOIN_WARP_THREADS 128u /* JOIN_WARPS warps */
#define JOIN_WARPS (JOIN_WARP_THREADS / 32u)

static size_t list_shared(unsigned h)
{
    return (size_t)JOIN_LIST_THREADS * nq_jg_part_frames(h) * sizeof(nq_jg_frame);
}

static size_t pairs_shared(unsigned tables, unsigned chunks)
{
    return (size_t)tables * chunks * NQ_JG_CHUNK_VALUES * sizeof(uint32_t);
}

/* The join's module and kernels. */
int nq_cuda_open_join(cuda_gpu *g, unsigned sms)
{
    const struct {
        CUfunction *f;
        const char *name;
    } kernels[] = {{&g->join_list, "nq_join_list_kernel"},
                   {&g->join_lay, "nq_join_lay_kernel"},
                   {&g->join_sort, "nq_join_sort_kernel"},
                   {&g->join_check, "nq_join_check_kernel"},
                   {&g->join_pairs, "nq_join_pairs_kernel"},
                   {&g->join_pairs_warp, "nq_join_pairs_warp_kernel"}};
    int rc = nq_cuda_status(g->d.ModuleLoadData(&g->join_module, nq_cuda_join_image));
    for (size_t k = 0; rc == NQ_OK && k < sizeof kernels / sizeof kernels[0]; k++)
        rc = nq_cuda_status(
            g->d.ModuleGetFunction(kernels[k].f, g->join_module, kernels[k].name));
    for (unsigned h = 1; rc == NQ_OK && h <= NQ_JG_MAX_H; h++)
        rc = nq_cuda_fill_card(g, g->join_list, JOIN_LIST_THREADS, list_shared(h), sms,
                               &g->join_list_blocks[h]);
    if (rc == NQ_OK)
        rc = nq_cuda_fill_card(g, g->join_lay, JOIN_SORT_THREADS, 0, sms, &g->join_lay_blocks);
    if (rc == NQ_OK)
        rc = nq_cuda_fill_card(g, g->join_sort, JOIN_SORT_THREADS, 0, sms, &g->join_sort_blocks);
    if (rc == NQ_OK)
        rc = nq_cuda_fill_card(g, g->join_check, JOIN_SORT_THREADS, 0, sms,
                               &g->join_check_blocks);
    for (unsigned c = 1; rc == NQ_OK && c <= NQ_JG_MAX_CHUNKS; c++)
        rc = nq_cuda_fill_card(g, g->join_pairs, JOIN_PAIRS_THREADS,
                               pairs_shared(JOIN_PAIRS_THREADS, c), sms, &g->join_pairs_blocks[c]);
    for (unsigned c = 1; rc == NQ_OK && c <= NQ_JG_MAX_CHUNKS; c++)
        rc = nq_cuda_fill_card(g, g->join_pairs_warp, JOIN_WARP_THREADS,
                               pairs_shared(JOIN_WARPS, c), sms, &g->join_warp_blocks[c]);
    g->pairs = NQ_GPU_PAIRS_THREAD;
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

/* The job slots of a sub-split with `buckets` buckets: one for each 32
 * keys of its stored (longer) list, and one more for each bucket (of each
 * class, where the west list is stored) at most; none where either list
 * is empty. */
static uint64_t sub_slots(const join_sub *u, uint64_t buckets)
{
    const uint64_t e = list_keys(u, 0), w = list_keys(u, 1);
    const uint64_t groups = (west_stored(u) ? 3u : 1u) * buckets;
    return e && w ? (e > w ? e : w) / NQ_JG_BLOCK + groups : 0;
}

/* What it takes of a piece's memory beside its keys: its lists' layouts
 * and loose cursors, its layout (nq_join_layout), its places (a bucket's
 * count or cursor; by class on a stored west list) and the bounds of its
 * items' buckets, and its job slots. */
static uint64_t sub_meta_bytes(const nq_jg_split *s, const join_sub *u)
{
    const nq_jg_buckets b = sub_buckets(s, u);
    const uint64_t nb = (uint64_t)1 << (b.run1 + b.run2);
    const uint64_t places = (west_stored(u) ? 4u : 2u) * nb;
    return 2 * (sizeof(nq_join_list) + sizeof(uint64_t)) + sizeof(nq_join_layout) +
           places * sizeof(uint64_t) + (nb + 1) * sizeof(uint64_t) +
           sub_slots(u, nb) * sizeof(nq_join_job);
}

/* A list of a launch: half `half` of split `split`, parts first ..
 * first + count - 1, its places from `base` on (`stride` apart a part,
 * or shared by all: 0), classed or not, bucketed by b (or not), its
 * keys in place. */
static nq_join_list make_list(uint64_t base, uint32_t split, unsigned half, unsigned first,
                              unsigned count, uint32_t stride, int classed,
                              const nq_jg_buckets *b)
{
    nq_join_list l;
    l.base = base;
    l.cursor = NQ_JOIN_IN_PLACE;
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
 * g->sizes (keys 0) or writing into keys (`room` keys at most), as many
 * parts a list as the most that one has. */
static int list_launch(cuda_gpu *g, const nq_join_list *lists, unsigned long long nlists,
                       CUdeviceptr keys, unsigned long long room, const nq_stop_flag *stop)
{
    unsigned parts = 1;
    for (unsigned long long i = 0; i < nlists; i++)
        if (lists[i].count > parts)
            parts = lists[i].count;
    void *args[] = {&g->splits, &nlists, &parts, &g->lists, &g->sizes, &keys, &room, &g->next,
                    &g->stop_dev};
    return nq_cuda_launch(g, g->join_list, g->join_list_blocks[g->join_h], JOIN_LIST_THREADS,
                          list_shared(g->join_h), args, stop);
}

/* A piece as the host lays it out before any of it is listed: its lists
 * (two a sub-split, in order) and its sub-splits' layouts, its places,
 * bounds, job slots and keys, and each list's loose cursor (its keys in
 * a run, the lists' runs in order). */
typedef struct piece {
    nq_join_list *lists;
    nq_join_layout *lays;
    uint64_t *cursors;
    uint64_t places, nbounds, slots, keys;
} piece;

/* Sub-split r of the piece: its lists, their places from p->places on,
 * and its layout, from p's bounds, slots and keys on. */
static void lay_out(piece *p, const nq_join_batch *b, const join_sub *u, size_t r)
{
    const nq_jg_buckets bk = sub_buckets(&b->splits[u->split], u);
    const uint64_t nb = (uint64_t)1 << (bk.run1 + bk.run2);
    const int ws = west_stored(u);
    nq_join_layout *lay = &p->lays[r];
    for (unsigned half = 0; half < 2; half++) {
        const int classed = half == 1 && ws;
        p->lists[2 * r + half] =
            make_list(p->places, u->split, half, u->first[half], u->count[half], 0, classed, &bk);
        p->places += (classed ? 3u : 1u) * nb;
        lay->keys[half] = list_keys(u, half);
    }
    lay->start = p->keys;
    lay->bounds = p->nbounds;
    lay->jobs = p->slots;
    lay->slots = (uint32_t)sub_slots(u, nb);
    lay->stored = ws ? 1u : 0u;
    p->keys += lay->keys[0] + lay->keys[1];
    p->nbounds += nb + 1;
    p->slots += lay->slots;
}

/* The sub-splits subs[0 .. n), whose keys (twice over when `loose`),
 * buckets and jobs fit, on the GPU alone: their keys listed, loose and
 * their buckets counted; each sub-split laid out (its buckets' starts,
 * bounds and jobs); the loose keys moved to their buckets (or, not
 * loose, listed into them) and the buckets' ends checked; then met
 * bucket by bucket, each pair's count added to its split's. */
static int join_piece(cuda_gpu *g, const nq_join_batch *b, const join_sub *subs, size_t n,
                      int loose, const nq_stop_flag *stop)
{
    const size_t list_bytes = 2 * n * sizeof(nq_join_list), lay_bytes = n * sizeof(nq_join_layout);
    const uint64_t cursors = loose ? 2 * n : 0;
    unsigned long long nlists = 2 * n, nlays = n, nslots, room;
    piece p = {NULL, NULL, NULL, 0, 0, 0, 0};
    CUdeviceptr loose_keys = 0, ends = 0;
    int rc;
    p.lists = malloc(list_bytes);
    p.lays = malloc(lay_bytes);
    p.cursors = malloc((cursors ? cursors : 1) * sizeof *p.cursors);
    rc = p.lists && p.lays && p.cursors ? NQ_OK : NQ_ENOMEM;
    for (size_t r = 0; rc == NQ_OK && r < n; r++)
        lay_out(&p, b, &subs[r], r);
    /* the loose cursors, after the places: a list's loose run starts
     * where its keys' buckets will (nq_join_lay_kernel checks its end) */
    for (uint64_t l = 0; rc == NQ_OK && l < cursors; l++) {
        const nq_join_layout *lay = &p.lays[l / 2];
        p.lists[l].cursor = p.places + l;
        p.cursors[l] = lay->start + (l % 2 ? lay->keys[0] : 0);
    }
    nslots = p.slots;
    room = p.keys;
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->lists, &g->lists_cap, list_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->lays, &g->lays_cap, lay_bytes);
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->sizes, &g->sizes_cap,
                             (p.places + cursors) * sizeof(uint64_t));
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->keys, &g->keys_cap,
                             (p.keys ? p.keys : 1) * (loose ? 2 : 1) * sizeof(uint64_t));
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->bounds, &g->bounds_cap, p.nbounds * sizeof(uint64_t));
    if (rc == NQ_OK)
        rc = nq_cuda_reserve(g, &g->jobs, &g->jobs_cap,
                             (nslots ? nslots : 1) * sizeof(nq_join_job));
    if (rc == NQ_OK && loose) {
        loose_keys = g->keys + p.keys * sizeof(uint64_t);
        ends = g->sizes + p.places * sizeof(uint64_t);
    }
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->lists, p.lists, list_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(g->lays, p.lays, lay_bytes, g->stream));
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.MemsetD8Async(g->sizes, 0, p.places * sizeof(uint64_t),
                                               g->stream));
    if (rc == NQ_OK && loose)
        rc = nq_cuda_status(g->d.MemcpyHtoDAsync(ends, p.cursors, cursors * sizeof(uint64_t),
                                                 g->stream));
    /* listed: the buckets counted, and the keys loose */
    if (rc == NQ_OK)
        rc = list_launch(g, p.lists, nlists, loose_keys, room, stop);
    /* laid out */
    if (rc == NQ_OK) {
        void *args[] = {&g->lists, &g->lays, &nlays, &g->sizes, &g->bounds, &g->jobs, &g->counts,
                        &g->next, &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_lay, g->join_lay_blocks, JOIN_SORT_THREADS, 0, args,
                            stop);
    }
    /* the keys moved to their buckets, or listed into them */
    if (rc == NQ_OK && loose) {
        void *args[] = {&g->lists, &nlists, &ends, &loose_keys, &g->sizes, &g->keys, &room,
                        &g->next, &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_sort, g->join_sort_blocks, JOIN_SORT_THREADS, 0, args,
                            stop);
    } else if (rc == NQ_OK)
        rc = list_launch(g, p.lists, nlists, g->keys, room, stop);
    /* every bucket ends where its layout says */
    if (rc == NQ_OK) {
        void *args[] = {&g->lists, &g->lays, &nlays, &g->sizes, &g->bounds, &g->jobs, &g->counts,
                        &g->next, &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_check, g->join_check_blocks, JOIN_SORT_THREADS, 0, args,
                            stop);
    }
    /* the pairs, a thread or a warp a job */
    if (rc == NQ_OK && nslots && g->pairs == NQ_GPU_PAIRS_WARP) {
        void *args[] = {&g->splits, &g->jobs, &nslots, &g->keys, &g->bounds, &g->counts,
                        &g->join_chunks, &g->next, &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_pairs_warp, g->join_warp_blocks[g->join_chunks],
                            JOIN_WARP_THREADS, pairs_shared(JOIN_WARPS, g->join_chunks), args,
                            stop);
    } else if (rc == NQ_OK && nslots) {
        void *args[] = {&g->splits, &g->jobs, &nslots, &g->keys, &g->bounds, &g->counts,
                        &g->next, &g->stop_dev};
        rc = nq_cuda_launch(g, g->join_pairs, g->join_pairs_blocks[g->join_chunks],
                            JOIN_PAIRS_THREADS, pairs_shared(JOIN_PAIRS_THREADS, g->join_chunks),
                            args, stop);
    }
    /* the copies above read the host's buffers: done before they go */
    if (rc == NQ_OK)
        rc = nq_cuda_status(g->d.StreamSynchronize(g->stream));
    else
        g->d.StreamSynchronize(g->stream);
    free(p.lists);
    free(p.lays);
    free(p.cursors);
    return rc;
}

/* The sub-splits subs[0 .. n) in pieces whose keys fit `room` bytes
 * twice over (loose, and sorted), and their buckets and jobs another
 * `room`; a sub-split whose keys fit it only once, in a piece of its
 * own, listed into place. */
static int join_pieces(cuda_gpu *g, const nq_join_batch *b, const join_sub *subs, size_t n,
                       uint64_t room, const nq_stop_flag *stop)
{
    int rc = NQ_OK;
    for (size_t first = 0; rc == NQ_OK && first < n;) {
        uint64_t keys = 0, meta = 0;
        size_t end = first;
        int loose = 1;
        for (unsigned twice = 2; end == first && twice > 0; twice--) {
            loose = twice == 2;
            while (end < n && (loose || end == first)) {
                const uint64_t k = list_keys(&subs[end], 0) + list_keys(&subs[end], 1);
                const uint64_t m = sub_meta_bytes(&b->splits[subs[end].split], &subs[end]);
                if ((keys + k) * twice * sizeof(uint64_t) > room ||
                    meta + m + sizeof(uint64_t) > room)
                    break;
                keys += k;
                meta += m;
                end++;
            }
        }
        if (end == first)
            rc = NQ_EDEVICEMEM; /* a part's keys alone are too many */
        else
            rc = join_piece(g, b, subs + first, end - first, loose, stop);
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
            rc = list_launch(g, lists, 2 * k, 0, 0, stop);
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

/* The batch (an nq_join_batch) counted, each split's count into
 * counts[]: an nq_cuda_counting. */
static int join_in_context(cuda_gpu *g, const void *batch, uint64_t *counts,
                           const nq_stop_flag *stop)
{
    const nq_join_batch *b = batch;
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
    /* the launches' shared memory: the frames of the batch's deepest
     * walk, the table of its longest key */
    g->join_h = g->join_chunks = 1;
    for (size_t i = 0; i < n; i++) {
        const nq_jg_split *s = &b->splits[i];
        const unsigned chunks = nq_jg_chunks((unsigned)s->len1 + s->len2);
        g->join_h = s->h > g->join_h ? s->h : g->join_h;
        g->join_chunks = chunks > g->join_chunks ? chunks : g->join_chunks;
    }
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
        rc = list_launch(g, lists, 2 * n, 0, 0, stop);
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
    rc = nq_cuda_finish(g, counts, count_bytes, rc);
    /* a piece's listing that found other keys than the first: a fault */
    for (size_t i = 0; rc == NQ_OK && i < n; i++)
        if (counts[i] & NQ_JOIN_FAULT)
            rc = NQ_EDEVICE;
    free(sizes);
    free(lists);
    free(subs);
    free(big);
    return rc;
}

int nq_cuda_join_splits(void *state, const nq_join_batch *batch, uint64_t *counts,
                        const nq_stop_flag *stop)
{
    return nq_cuda_count_batch(state, batch, batch->nsplits, join_in_context, counts, stop);
}

#else
/* Built without CUDA: this file defines nothing (ISO C wants a
 * declaration in every translation unit). */
typedef int nq_cuda_join_host_unused;
#endif /* NQ_HAVE_CUDA */
