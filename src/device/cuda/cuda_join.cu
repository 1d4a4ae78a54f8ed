/*
 * cuda_join.cu - the GPU kernels of the join: row splits (join_steps.h)
 * counted in five kernels, launched by the host (cuda_join_host.c):
 *
 * - nq_join_list_kernel: a thread walks one part of one half of one
 *   split (join_steps.h: the subtree under a choice of its first two
 *   rows' queens) with the step walk, its frames in the block's shared
 *   memory. Tasks are taken part by part over the whole launch (task t:
 *   part t / lists of list t % lists), so that a warp's threads walk
 *   different halves. Over a whole batch it counts the keys of each list
 *   (a split's half, by class), adding a part's counts at its end; over
 *   a piece of the batch that fits the GPU's memory, it writes each key
 *   loose, to the next place of its list's run (an atomic add on the
 *   list's cursor), and counts it by bucket (and class where the west
 *   list is stored), an atomic add a key. Where a piece's keys fit the
 *   memory only once, not loose and sorted side by side, it counts the
 *   buckets in one listing and, once they are laid out, writes each key
 *   to the next place of its bucket in another.
 * - nq_join_lay_kernel: a thread lays out one sub-split of the piece
 *   from its buckets' counts: their starts, the bounds of the buckets it
 *   meets and the jobs of those it stores, all on the GPU (thousands a
 *   split at n = 20: laid out on the host, they would cross the bus
 *   twice and keep the host busy while the GPU waits).
 * - nq_join_sort_kernel: a thread moves a run of loose keys to the next
 *   places of their buckets (the order of a bucket's keys does not
 *   matter to its pairs): a sort by bucket, far cheaper than listing the
 *   keys again.
 * - nq_join_check_kernel: a thread checks that every bucket of one
 *   sub-split ends where its layout says, once the keys are in them: a
 *   key lost or placed twice by a GPU that miscounts fails the count
 *   instead of changing it.
 * - nq_join_pairs_kernel: a thread takes a run of NQ_JOIN_PAIRS_RUN job
 *   slots and, for each job (up to 32 keys of one bucket of one split's
 *   longer list, of one class when it is the west list), fills that
 *   block's table in its own part of the block's shared memory
 *   (interleaved with the other threads': a word a bank) and meets with
 *   it the keys of the other list's buckets that can be disjoint from the
 *   group's (join_steps.h), adding the weighted pairs to its split's count.
 *
 * - nq_join_pairs_warp_kernel: the same jobs a warp at a time: its lanes
 *   build one block's table together (a ballot a chunk's bit) in the
 *   warp's part of the block's shared memory, then meet the items of the
 *   buckets the job meets 32 at a time, one run over all of them. A
 *   kilobyte of shared memory a warp where the kernel above takes one a
 *   thread; the two are timed against each other (bench/nq_gpu_join).
 *
 * Every thread but the warp kernel's works alone (no barrier): tasks (and runs of jobs) are
 * fetched from one counter, as the symmetry method's kernels fetch
 * theirs (cuda_sym.cu), and a thread looks at the host's stop flag
 * before each one and every NQ_JOIN_POLL steps or keys of a long one.
 *
 * Compiled by nvcc into its own fat binary, which the library embeds
 * beside the symmetry method's (cuda_host.c loads both).
 */
#include <stddef.h>

#include "../../steps/join_steps.h"
#include "cuda_join.h"

#if defined(__CUDACC__)
#define NQ_DEVICE static __device__
#else
#define NQ_DEVICE static /* the emulator's host build (tests/gpu/emulator) */
#endif

/* The index of the next task or job for this thread, or n when none is
 * left or the host raised *stop. */
NQ_DEVICE unsigned long long join_next(unsigned long long *next, unsigned long long n,
                                       const volatile int *stop)
{
    /* both asked before either is looked at: the flag's trip to the
     * host's memory and the add's to the counter overlap (an index
     * taken after a stop is lost with the stopped batch) */
    const int stopped = *stop;
    const unsigned long long i = atomicAdd(next, 1ull);
    return stopped || i >= n ? n : i;
}

/* The buckets of list l (one when both its runs are 0). */
NQ_DEVICE unsigned join_buckets(const nq_join_list *l)
{
    return 1u << (l->run1 + l->run2);
}

/* The places of list l: its buckets, by class where it is classed. */
NQ_DEVICE unsigned join_places(const nq_join_list *l)
{
    return (l->classed ? 3u : 1u) * join_buckets(l);
}

/* A job of place i of list l, where the list is stored: the complement
 * of its bucket, and its class (3: the list is not classed). */
NQ_DEVICE unsigned join_comp(const nq_join_list *l, unsigned i)
{
    return ~i & (join_buckets(l) - 1u);
}

NQ_DEVICE unsigned join_class(const nq_join_list *l, unsigned i)
{
    return l->classed ? i / join_buckets(l) : 3u;
}

/* The place of a key of list l among the list's places from `at` on: its
 * class's buckets where the list is classed, then its bucket
 * (cuda_join.h). */
NQ_DEVICE unsigned long long *join_place(unsigned long long *at, const nq_join_list *l,
                                         uint64_t key)
{
    const nq_jg_buckets b = {l->cut1, l->run1, l->cut2, l->run2};
    return at + (l->classed ? nq_jg_key_class(key) * join_buckets(l) : 0u) +
           nq_jg_bucket(&b, key);
}

/* The lists[0 .. nlists) (cuda_join.h), `parts` parts a list at most:
 * with keys NULL, adds the keys of each place into at[place]; else
 * writes each key to keys[at[its place]++], or, for a list written
 * loose, to keys[at[its cursor]++] and adds it into at[its place]. A key
 * whose place is past keys[room - 1] (more keys than counted: a fault,
 * which the layout's and the check's kernels find) is not written. */
extern "C" __global__ void
nq_join_list_kernel(const nq_jg_split *__restrict__ splits, unsigned long long nlists,
                    unsigned parts, const nq_join_list *__restrict__ lists,
                    unsigned long long *at, uint64_t *__restrict__ keys, unsigned long long room,
                    unsigned long long *next, const volatile int *stop)
{
    extern __shared__ nq_jg_frame join_frames[];
    nq_jg_frame *mine = join_frames + threadIdx.x;
    const unsigned stride = blockDim.x;
    const unsigned long long ntasks = nlists * parts;

    for (;;) {
        const unsigned long long t = join_next(next, ntasks, stop);
        if (t == ntasks)
            return;
        const nq_join_list where = lists[t % nlists];
        const unsigned q = (unsigned)(t / nlists);
        if (q >= where.count)
            continue; /* past the list's parts */
        const nq_jg_split *s = splits + where.split;
        const unsigned buckets = join_buckets(&where);
        const bool loose = keys && where.cursor != NQ_JOIN_IN_PLACE;
        const bool tally = !keys || loose; /* the keys counted at their places */
        unsigned long long *place = at + where.base + (unsigned long long)q * where.stride;
        /* one bucket: a part's counts added at its end */
        unsigned long long n0 = 0, n1 = 0, n2 = 0;
        unsigned poll = NQ_JOIN_POLL;
        nq_jg_walk w;
        uint64_t key;
        nq_jg_start_part(&w, s, where.half, mine, stride, where.first + q);
        while (w.top) {
            if (nq_jg_step(&w, s, mine, stride, &key)) {
                const unsigned c = nq_jg_key_class(key);
                unsigned long long *mine_at = join_place(place, &where, key);
                if (keys) {
                    const unsigned long long i = atomicAdd(loose ? at + where.cursor : mine_at, 1ull);
                    if (i < room)
                        keys[i] = key;
                }
                if (tally && buckets > 1u)
                    atomicAdd(mine_at, 1ull);
                n0 += c == 0;
                n1 += c == 1;
                n2 += c == 2;
            }
            if (--poll == 0) {
                poll = NQ_JOIN_POLL;
                if (*stop)
                    return;
            }
        }
        if (tally && buckets == 1u) {
            const unsigned step = where.classed ? 1u : 0u;
            if (n0)
                atomicAdd(place, n0);
            if (n1)
                atomicAdd(place + step, n1);
            if (n2)
                atomicAdd(place + 2u * step, n2);
        }
    }
}

/* Lays out each sub-split of a piece (lays[0 .. nlays): cuda_join.h)
 * once its lists' keys are counted by bucket, at[] holding each place's
 * count: each count becomes its place's start, the items list's bucket
 * starts and its end go to bounds[], and the stored list's jobs to
 * jobs[] (one each 32 keys of a bucket, of a class where the west list
 * is stored), the sub-split's other slots emptied. A list whose buckets
 * or loose run hold other than the keys counted first marks its split's
 * count with NQ_JOIN_FAULT, as do jobs past the sub-split's slots, and
 * empties all the sub-split's slots. A task a sub-split. */
extern "C" __global__ void
nq_join_lay_kernel(const nq_join_list *__restrict__ lists,
                   const nq_join_layout *__restrict__ lays, unsigned long long nlays,
                   unsigned long long *at, uint64_t *__restrict__ bounds,
                   nq_join_job *__restrict__ jobs, unsigned long long *counts,
                   unsigned long long *next, const volatile int *stop)
{
    for (;;) {
        const unsigned long long r = join_next(next, nlays, stop);
        if (r == nlays)
            return;
        const nq_join_layout lay = lays[r];
        const bool pairs = lay.keys[0] && lay.keys[1];
        const unsigned long long last = lay.jobs + lay.slots;
        unsigned long long start = lay.start, job = lay.jobs;
        bool fault = false;
        for (unsigned half = 0; half < 2; half++) {
            const nq_join_list l = lists[2u * r + half];
            const unsigned places = join_places(&l);
            const bool stored = half == lay.stored;
            const unsigned long long first = start;
            for (unsigned i = 0; i < places; i++) {
                const unsigned long long count = at[l.base + i];
                at[l.base + i] = start;
                if (!stored)
                    bounds[lay.bounds + i] = start;
                for (unsigned long long k = 0; stored && pairs && k < count; k += NQ_JG_BLOCK) {
                    nq_join_job j;
                    if (job == last) {
                        fault = true;
                        break;
                    }
                    j.stored = start + k;
                    j.items = lay.bounds;
                    j.split = l.split;
                    j.comp = join_comp(&l, i);
                    j.count = (uint16_t)(count - k < NQ_JG_BLOCK ? count - k : NQ_JG_BLOCK);
                    j.cls = (uint16_t)join_class(&l, i);
                    j.pad = 0;
                    jobs[job++] = j;
                }
                start += count;
            }
            if (!stored)
                bounds[lay.bounds + places] = start;
            /* its buckets hold the keys counted first, and its loose run
             * (where it has one: as long, from the same place) ends there */
            fault |= start - first != lay.keys[half];
            fault |= l.cursor != NQ_JOIN_IN_PLACE && at[l.cursor] != start;
        }
        /* a fault's starts may lie past the keys: no job of it reads them */
        for (job = fault ? lay.jobs : job; job < last; job++)
            jobs[job].count = 0;
        if (fault)
            atomicOr(counts + lists[2u * r].split, NQ_JOIN_FAULT);
    }
}

/* Moves the loose keys of lists[0 .. nlists) to their buckets: list l's
 * are loose[ends[l - 1] .. ends[l]) (from 0 for the first list), and one
 * of class c in bucket x goes to keys[at[base + (classed ? c x buckets :
 * 0) + x]++], at[] holding each place's start. Both loose[] and keys[]
 * hold `room` keys: nothing past them is read or written (where the
 * listing found more keys than it counted, a fault). A task is
 * NQ_JOIN_SORT_KEYS loose keys in a row. */
extern "C" __global__ void
nq_join_sort_kernel(const nq_join_list *__restrict__ lists, unsigned long long nlists,
                    const unsigned long long *__restrict__ ends,
                    const uint64_t *__restrict__ loose, unsigned long long *at,
                    uint64_t *__restrict__ keys, unsigned long long room,
                    unsigned long long *next, const volatile int *stop)
{
    const unsigned long long listed = nlists ? ends[nlists - 1] : 0;
    const unsigned long long total = listed < room ? listed : room;
    const unsigned long long ntasks = (total + NQ_JOIN_SORT_KEYS - 1) / NQ_JOIN_SORT_KEYS;

    for (;;) {
        const unsigned long long t = join_next(next, ntasks, stop);
        if (t == ntasks)
            return;
        unsigned long long i = t * NQ_JOIN_SORT_KEYS;
        const unsigned long long end =
            total - i < NQ_JOIN_SORT_KEYS ? total : i + NQ_JOIN_SORT_KEYS;
        /* the list of loose key i: the first that ends past it */
        unsigned long long l = 0, hi = nlists - 1;
        while (l < hi) {
            const unsigned long long mid = l + (hi - l) / 2u;
            if (ends[mid] > i)
                hi = mid;
            else
                l = mid + 1u;
        }
        for (; i < end; l++) {
            const nq_join_list where = lists[l];
            const unsigned long long last = ends[l] < end ? ends[l] : end;
            for (; i < last; i++) {
                const uint64_t key = loose[i];
                const unsigned long long to =
                    atomicAdd(join_place(at + where.base, &where, key), 1ull);
                if (to < room)
                    keys[to] = key;
            }
        }
    }
}

/* Checks each sub-split of a piece (lays[0 .. nlays): cuda_join.h) once
 * its keys are in their buckets (sorted, or listed into place), at[]
 * holding where each place's keys end: every bucket of the items list
 * ends where its bounds say, and every bucket of the stored list ends
 * where its jobs (by bucket and class, in order) say. A key lost or
 * written twice on its way to its bucket (a miscounting GPU) ends some
 * bucket elsewhere: the split's count is marked with NQ_JOIN_FAULT. A
 * sub-split with an empty list meets nothing and is not looked at. A
 * task a sub-split. */
extern "C" __global__ void
nq_join_check_kernel(const nq_join_list *__restrict__ lists,
                     const nq_join_layout *__restrict__ lays, unsigned long long nlays,
                     const unsigned long long *__restrict__ at,
                     const uint64_t *__restrict__ bounds, const nq_join_job *__restrict__ jobs,
                     unsigned long long *counts, unsigned long long *next,
                     const volatile int *stop)
{
    for (;;) {
        const unsigned long long r = join_next(next, nlays, stop);
        if (r == nlays)
            return;
        const nq_join_layout lay = lays[r];
        if (!lay.keys[0] || !lay.keys[1])
            continue;
        const unsigned long long last = lay.jobs + lay.slots;
        unsigned long long end = lay.start, job = lay.jobs;
        bool fault = false;
        for (unsigned half = 0; half < 2; half++) {
            const nq_join_list l = lists[2u * r + half];
            const bool stored = half == lay.stored;
            const unsigned long long first = end;
            for (unsigned i = 0; i < join_places(&l); i++) {
                if (!stored) {
                    end = bounds[lay.bounds + i + 1u];
                } else {
                    /* the bucket's jobs: 32 keys each from its start on */
                    const unsigned comp = join_comp(&l, i), cls = join_class(&l, i);
                    for (; job < last && jobs[job].count && jobs[job].comp == comp &&
                           jobs[job].cls == cls;
                         job++) {
                        fault |= jobs[job].stored != end;
                        end += jobs[job].count;
                    }
                }
                fault |= at[l.base + i] != end;
            }
            fault |= end - first != lay.keys[half];
        }
        fault |= job < last && jobs[job].count != 0;
        if (fault)
            atomicOr(counts + lists[2u * r].split, NQ_JOIN_FAULT);
    }
}

/* The runs of NQ_JOIN_PAIRS_RUN job slots that njobs slots make, a run
 * the pairs kernels' one fetch; run r is slots r * NQ_JOIN_PAIRS_RUN up
 * to join_run_end(r, njobs). */
NQ_DEVICE unsigned long long join_runs(unsigned long long njobs)
{
    return (njobs + NQ_JOIN_PAIRS_RUN - 1u) / NQ_JOIN_PAIRS_RUN;
}

NQ_DEVICE unsigned long long join_run_end(unsigned long long r, unsigned long long njobs)
{
    return njobs - r * NQ_JOIN_PAIRS_RUN < NQ_JOIN_PAIRS_RUN ? njobs : (r + 1u) * NQ_JOIN_PAIRS_RUN;
}

/* All the lanes of a warp, which every warp call of the warp kernel
 * names: its lanes always make the same calls. */
#define JOIN_WARP 0xffffffffu

/* The table of the block of stored keys[0 .. count) (count <= 32), as
 * nq_jg_fill makes it at stride 1, made by a warp: lane j holds key j,
 * a ballot says which keys hold each bit of a chunk, and lane v writes
 * the word of value v. */
NQ_DEVICE void join_fill_warp(uint32_t *table, const uint64_t *keys, unsigned count,
                              unsigned chunks, unsigned lane)
{
    const uint64_t key = lane < count ? keys[lane] : 0u;
    const uint32_t all = count >= 32u ? 0xffffffffu : (1u << count) - 1u;
    for (unsigned c = 0; c < chunks; c++) {
        const unsigned v = (unsigned)(key >> (c * NQ_JG_CHUNK_BITS)) & (NQ_JG_CHUNK_VALUES - 1u);
        uint32_t w = all;
        for (unsigned b = 0; b < NQ_JG_CHUNK_BITS; b++) {
            const uint32_t with = __ballot_sync(JOIN_WARP, (int)(v >> b & 1u));
            w &= lane >> b & 1u ? ~with : 0xffffffffu;
        }
        table[c * NQ_JG_CHUNK_VALUES + lane] = w;
    }
}

/* The t-th submask of comp (t < 2^popcount(comp)): t's bits laid into
 * comp's, the lowest first. */
NQ_DEVICE unsigned join_submask(unsigned long long t, unsigned comp)
{
    unsigned sub = 0;
    for (unsigned m = comp; m; m &= m - 1u, t >>= 1)
        sub |= t & 1u ? m & (0u - m) : 0u;
    return sub;
}

/* As nq_join_pairs_kernel, a warp a run of NQ_JOIN_PAIRS_RUN job slots
 * (blocks of whole warps; each warp's table, `chunks` chunks, in its
 * part of the block's shared memory). For each job the lanes build its
 * table, then take the buckets that can be disjoint from its group 32
 * at a time (lane t the t-th submask of its complement), add up their
 * sizes across the warp, and meet their items as one run, 32 at a time:
 * the item of run place f is met by lane f mod 32, whatever its bucket.
 * The lanes' sums meet at the end of the job, and one atomic add takes
 * the job's count to its split's. */
extern "C" __global__ void
nq_join_pairs_warp_kernel(const nq_jg_split *__restrict__ splits,
                          const nq_join_job *__restrict__ jobs, unsigned long long njobs,
                          const uint64_t *__restrict__ keys, const uint64_t *__restrict__ bounds,
                          unsigned long long *counts, unsigned chunks_most,
                          unsigned long long *next, const volatile int *stop)
{
    extern __shared__ uint32_t join_warp_tables[];
    const unsigned lane = threadIdx.x % 32u;
    uint32_t *table = join_warp_tables + (threadIdx.x / 32u) * chunks_most * NQ_JG_CHUNK_VALUES;
    const unsigned long long runs = join_runs(njobs);
    unsigned poll = NQ_JOIN_POLL / 32u;

    for (;;) {
        unsigned long long r = lane == 0 ? join_next(next, runs, stop) : 0u;
        r = __shfl_sync(JOIN_WARP, r, 0);
        if (r == runs)
            return;
        const unsigned long long last = join_run_end(r, njobs);
        for (unsigned long long j = r * NQ_JOIN_PAIRS_RUN; j < last; j++) {
            const nq_join_job job = jobs[j];
            if (!job.count)
                continue; /* an empty slot */
            const nq_jg_split *s = splits + job.split;
            const unsigned chunks = nq_jg_chunks((unsigned)s->len1 + s->len2);
            const uint64_t *items = bounds + job.items;
            const unsigned long long subs = 1ull << nq_symw_popcount(job.comp);
            unsigned long long sum = 0;
            join_fill_warp(table, keys + job.stored, job.count, chunks, lane);
            __syncwarp(JOIN_WARP);
            for (unsigned long long first = 0; first < subs; first += 32u) {
                uint64_t lo = 0, size = 0, end, total, start;
                if (first + lane < subs) {
                    const unsigned sub = join_submask(first + lane, job.comp);
                    lo = items[sub];
                    size = items[sub + 1u] - lo;
                }
                /* where each lane's bucket ends in the run: a scan */
                end = size;
                for (unsigned d = 1; d < 32u; d <<= 1) {
                    const uint64_t below = __shfl_sync(JOIN_WARP, end, lane >= d ? lane - d : lane);
                    end += lane >= d ? below : 0u;
                }
                total = __shfl_sync(JOIN_WARP, end, 31);
                start = end - size;
                for (uint64_t base = 0; base < total; base += 32u) {
                    const uint64_t f = base + lane;
                    unsigned owner = 0; /* the first lane whose bucket ends past f */
                    for (unsigned step = 16; step; step >>= 1)
                        owner += __shfl_sync(JOIN_WARP, end, owner + step - 1u) <= f ? step : 0u;
                    const uint64_t at = __shfl_sync(JOIN_WARP, lo, owner) +
                                        (f - __shfl_sync(JOIN_WARP, start, owner));
                    if (f < total) {
                        const uint64_t x = keys[at];
                        const unsigned cls = job.cls < 3u ? job.cls : nq_jg_key_class(x);
                        sum += (unsigned long long)s->class_weight[cls] *
                               nq_jg_match(table, 1u, x, chunks);
                    }
                    if (--poll == 0) {
                        poll = NQ_JOIN_POLL / 32u;
                        if (__ballot_sync(JOIN_WARP, *stop != 0))
                            return;
                    }
                }
            }
            for (unsigned d = 16; d; d >>= 1)
                sum += __shfl_xor_sync(JOIN_WARP, sum, (int)d);
            if (lane == 0 && sum)
                atomicAdd(&counts[job.split], sum * s->weight);
            __syncwarp(JOIN_WARP); /* its table read before the next job's */
        }
    }
}

extern "C" __global__ void
nq_join_pairs_kernel(const nq_jg_split *__restrict__ splits, const nq_join_job *__restrict__ jobs,
                     unsigned long long njobs, const uint64_t *__restrict__ keys,
                     const uint64_t *__restrict__ bounds, unsigned long long *counts,
                     unsigned long long *next, const volatile int *stop)
{
    extern __shared__ uint32_t join_tables[];
    uint32_t *table = join_tables + threadIdx.x;
    const unsigned stride = blockDim.x;

    const unsigned long long runs = join_runs(njobs);

    for (;;) {
        const unsigned long long r = join_next(next, runs, stop);
        if (r == runs)
            return;
        const unsigned long long last = join_run_end(r, njobs);
        for (unsigned long long j = r * NQ_JOIN_PAIRS_RUN; j < last; j++) {
            const nq_join_job job = jobs[j];
            if (!job.count)
                continue; /* an empty slot */
            const nq_jg_split *s = splits + job.split;
            const unsigned chunks = nq_jg_chunks((unsigned)s->len1 + s->len2);
            const uint64_t *items = bounds + job.items;
            unsigned long long sum = 0;
            unsigned poll = NQ_JOIN_POLL;
            /* the weights in registers: the split's are another lane's
             * memory than the keys', a load an item otherwise */
            const unsigned w0 = s->class_weight[0], w1 = s->class_weight[1],
                           w2 = s->class_weight[2];
            nq_jg_fill(table, stride, keys + job.stored, job.count, chunks);
            /* the buckets whose keys can be disjoint from the group's: the
             * submasks of its complement */
            for (unsigned sub = job.comp;; sub = (sub - 1u) & job.comp) {
                for (uint64_t i = items[sub]; i < items[sub + 1u]; i++) {
                    const uint64_t x = keys[i];
                    const unsigned cls = job.cls < 3u ? job.cls : nq_jg_key_class(x);
                    const unsigned w = cls == 0u ? w0 : cls == 1u ? w1 : w2;
                    sum += (unsigned long long)w * nq_jg_match(table, stride, x, chunks);
                    if (--poll == 0) {
                        poll = NQ_JOIN_POLL;
                        if (*stop)
                            return;
                    }
                }
                if (!sub)
                    break;
            }
            if (sum)
                atomicAdd(&counts[job.split], sum * s->weight);
        }
    }
}
