/*
 * nq_join_gpu_model - what a GPU join of n would cost a GPU's threads,
 * without a GPU: row splits spread over the join's list, each counted by
 * the GPU's steps (src/methods/join/join_steps.h, run here on the host:
 * join_gpu.c), with what each step did tallied and priced in PTX
 * instructions of the loops a kernel runs (bench/nq_join_gpu_loops.cu).
 *
 * Per split, as a GPU would count it:
 * - both halves listed by the step walk: a node a step;
 * - the longer list stored in groups of BLOCKS blocks of 32 keys (a
 *   stored west list class by class), the tables of a group shared by a
 *   warp, each filled once;
 * - every key of the other list meeting every group ("meetings", 32
 *   pairs a block) - or, sorted into 2^B buckets by B diagonals in the
 *   middle of the key's window, only the groups of buckets it can be
 *   disjoint from (a bucket's groups hold its keys only). B is what the
 *   longer list's size asks for: buckets of half a group to a group on
 *   average, B at most NQ_JG_MAX_BUCKET_BITS (nq_jg_pick_bits()).
 *
 * Printed: the splits counted (of all the splits looked at; the others
 * are images counted by another), their solutions (the whole count when
 * every split was looked at: checked against the known value), listing
 * steps and keys, the pairs met without buckets and with them, and the
 * issue slots (32 x the warp instructions at every lane at work, which
 * these loops reach: no branch but the loop's and the list's append) of
 * listing, and of the pairs with buckets (sorting, filling, meeting) and
 * without (filling, meeting), and each split's pairs the cheaper way
 * (short lists gain nothing from buckets: a GPU would choose by the
 * lists' sizes), scaled to the whole list. Compare with the symmetry
 * method's walk on the GPU, nodes times issue slots a node
 * (bench/nq_warp_model); then the layout the GPU's kernels make of a
 * split (its buckets' places, its items' bounds and its job slots, made
 * on the GPU), and the whole count as those kernels count it. A model of
 * issue slots only: latency, memory traffic and occupancy are the GPU's
 * to show.
 *
 * usage: nq_join_gpu_model N [SPLITS [FIRST [BLOCKS]]]
 *   SPLITS splits spread evenly over the list from FIRST (0 or none: all);
 *   BLOCKS (1 or 4, default 4) blocks of 32 keys that a warp shares, which
 *   its threads' items meet together: a bucket is stored in groups of
 *   that many blocks.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "methods/join/join_gpu.h"
#include "methods/join/join_half.h"
#include "methods/join/join_plan.h"
#include "steps/join_steps.h"

/* Q(n), OEIS A000170, up to n = 21 (a model of every split of 21 takes a
 * few minutes of one core). */
static const uint64_t known[] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                  73712, 365596, 2279184, 14772512, 95815104,
                                  666090624, 4968057848ull, 39029188884ull,
                                  314666222712ull };

/* PTX instructions (moves not counted) of each loop, from `nvcc -ptx -O3
 * -std=c++17 -arch=sm_90` (CUDA 13.0) of bench/nq_join_gpu_loops.cu: a
 * step of the east walk and of the west one (its keys classed), each with
 * the append of a listed key; a thread's item meeting the B blocks its
 * warp shares, at C chunks: for B = 1, 35, 49, 66 and 90 at C = 4, 6, 8
 * and 11; for B = 4, 65, 91, 120 and 162 (the item's chunks cut once for
 * the four blocks). Priced by the line through C = 4 and 11, within 2
 * instructions of the other two. */
#define PRICE_STEP_EAST 65.0
#define PRICE_STEP_WEST 80.0
static double price_meeting(unsigned blocks, unsigned chunks)
{
    return blocks == 1 ? 35.0 + (90.0 - 35.0) / 7.0 * (chunks - 4.0)
                       : 65.0 + (162.0 - 65.0) / 7.0 * (chunks - 4.0);
}
/* A loose key's move to its bucket (its load, its bucket and class, an
 * atomic add on the bucket's cursor and its store): the loop of
 * nq_join_sort_kernel (src/device/cuda/cuda_join.cu, `nvcc -ptx -O3
 * -std=c++17 -arch=sm_90`, CUDA 13.0), 110 instructions for the 4 keys
 * of its unrolled body. Not measured (the kernel fills its tables its own
 * way): a block's table, a chunk at a time, by a warp in shared memory:
 * 32 keys' bits cleared from the words of 5 values, then 32 words built
 * each from two others. */
#define PRICE_SORT_KEY (110.0 / 4.0)
#define PRICE_FILL_CHUNK (32.0 * 5.0 * 3.0 + 32.0 * 4.0)


typedef struct tally {
    double splits, counted, steps_east, steps_west, keys, naive, meetings, pairs_met,
        bucket_bits;
    double sort, fill, meet, fill0, meet0, best; /* issue slots of the pairs */
    double places, bounds, slots; /* the kernels' layouts of the splits */
    unsigned blocks; /* blocks a warp shares (1 or 4) */
    uint64_t total;
} tally;

static void model_split(const nq_join_plan *plan, uint64_t k, nq_join_keys *east,
                        nq_join_keys *west, tally *t)
{
    nq_jg_split s;
    nq_jg_tally with = { 0, 0, 0 }, without = { 0, 0, 0 };
    uint64_t east_steps = 0, west_steps = 0, total, total0;
    unsigned chunks;
    if (nq_join_plan_gpu_split(plan, k, &s) != NQ_OK) {
        fputs("nq_join_gpu_model: no such split\n", stderr);
        exit(1);
    }
    t->splits++;
    if (!s.weight)
        return;
    t->counted++;
    if (nq_join_gpu_list(&s, 0, east, &east_steps) != NQ_OK ||
        nq_join_gpu_list(&s, 1, west, &west_steps) != NQ_OK ||
        nq_join_gpu_pairs(&s, east, west, t->blocks, -1, &with, &total) != NQ_OK ||
        nq_join_gpu_pairs(&s, east, west, t->blocks, 0, &without, &total0) != NQ_OK) {
        fputs("nq_join_gpu_model: out of memory\n", stderr);
        exit(1);
    }
    if (total != total0) {
        fprintf(stderr, "nq_join_gpu_model: split %llu: %llu with buckets, %llu without\n",
                (unsigned long long)k, (unsigned long long)total, (unsigned long long)total0);
        exit(1);
    }
    t->steps_east += (double)east_steps;
    t->steps_west += (double)west_steps;
    t->keys += (double)(east->count + west->count);
    t->naive += (double)east->count * (double)west->count;
    t->total += total;
    chunks = nq_jg_chunks((unsigned)s.len1 + s.len2);
    {
        /* the layout the GPU's kernels make of the split (cuda_join_host.c:
         * one block a group, the west list stored by class when longer) */
        const uint64_t longer = east->count > west->count ? east->count : west->count;
        const nq_jg_buckets b = nq_jg_bucket_bits(&s, nq_jg_pick_bits(longer, NQ_JG_BLOCK));
        const double nb = (double)(1u << (b.run1 + b.run2));
        const int ws = west->count > east->count;
        t->places += (ws ? 4.0 : 2.0) * nb;
        t->bounds += nb + 1.0;
        if (east->count && west->count)
            t->slots += (double)(longer / NQ_JG_BLOCK) + (ws ? 3.0 : 1.0) * nb;
    }
    {
        const double group = 32.0 * t->blocks;
        const double fill_price = t->blocks * chunks * PRICE_FILL_CHUNK,
                     meet_price = price_meeting(t->blocks, chunks);
        const double sort = (double)(east->count + west->count) * PRICE_SORT_KEY;
        const double cost = sort + (double)with.groups * fill_price +
                            (double)with.meetings * meet_price;
        const double cost0 = (double)without.groups * fill_price +
                             (double)without.meetings * meet_price;
        t->meetings += (double)with.meetings;
        t->pairs_met += (double)with.meetings * group;
        t->bucket_bits += (double)with.bucket_bits;
        t->sort += sort;
        t->fill += (double)with.groups * fill_price;
        t->meet += (double)with.meetings * meet_price;
        t->fill0 += (double)without.groups * fill_price;
        t->meet0 += (double)without.meetings * meet_price;
        t->best += cost < cost0 ? cost : cost0;
    }
}

int main(int argc, char **argv)
{
    nq_join_plan *plan;
    nq_join_keys east = { 0 }, west = { 0 };
    unsigned long long n, want, first = 0;
    uint64_t splits;
    double scale, list;
    tally t;
    if (argc < 2 || argc > 5) {
        fputs("usage: nq_join_gpu_model N [SPLITS [FIRST [BLOCKS]]]\n", stderr);
        return 2;
    }
    n = bench_arg("nq_join_gpu_model", argv[1], "N");
    if (n < NQ_JOIN_MIN_N || n > NQ_MAX_N) {
        fputs("nq_join_gpu_model: N from 4 to NQ_MAX_N\n", stderr);
        return 2;
    }
    if (nq_join_plan_build_walk(&plan, (unsigned)n) != NQ_OK) {
        fputs("nq_join_gpu_model: no plan\n", stderr);
        return 1;
    }
    splits = nq_join_plan_splits(plan);
    want = argc > 2 ? bench_arg("nq_join_gpu_model", argv[2], "SPLITS") : splits;
    if (argc > 3)
        first = bench_arg("nq_join_gpu_model", argv[3], "FIRST");
    if (want == 0 || want > splits)
        want = splits;
    memset(&t, 0, sizeof t);
    t.blocks = argc > 4 ? (unsigned)bench_arg("nq_join_gpu_model", argv[4], "BLOCKS") : 4u;
    if (t.blocks != 1 && t.blocks != 4) {
        fputs("nq_join_gpu_model: BLOCKS is 1 or 4\n", stderr);
        return 2;
    }
    for (uint64_t i = 0; i < want; i++)
        model_split(plan, (splits / want * i + first) % splits, &east, &west, &t);
    scale = (double)splits / t.splits;
    list = (t.steps_east * PRICE_STEP_EAST + t.steps_west * PRICE_STEP_WEST) * scale;
    printf("n = %llu: %.0f of %llu splits looked at, %.0f of them counted; %u block%s a "
           "warp\n",
           n, t.splits, (unsigned long long)splits, t.counted, t.blocks,
           t.blocks == 1 ? "" : "s");
    if (want == splits)
        printf("solutions: %llu (%s)\n", (unsigned long long)t.total,
               n < sizeof known / sizeof known[0]
                   ? (t.total == known[n] ? "the known value" : "NOT the known value")
                   : "no known value here");
    else
        printf("solutions of these splits: %llu\n", (unsigned long long)t.total);
    printf("the whole list, scaled from these splits:\n");
    printf("  listing steps %.4g, keys %.4g\n", (t.steps_east + t.steps_west) * scale,
           t.keys * scale);
    printf("  pairs met: without buckets %.4g (every east key with every west key)\n",
           t.naive * scale);
    printf("             with buckets %.4g (%.3f of them; %.1f bucket bits a split on "
           "average)\n",
           t.pairs_met * scale, t.pairs_met / t.naive, t.bucket_bits / t.counted);
    printf("  issue slots: listing %.4g\n", list);
    printf("    pairs with buckets: sorting %.4g, filling %.4g, meeting %.4g\n",
           t.sort * scale, t.fill * scale, t.meet * scale);
    printf("    pairs without buckets: filling %.4g, meeting %.4g\n", t.fill0 * scale,
           t.meet0 * scale);
    printf("    pairs, each split the cheaper way: %.4g\n", t.best * scale);
    printf("  issue slots in all: %.4g (listing, and each split's pairs the cheaper way)\n",
           list + t.best * scale);
    printf("  a split's layout on the GPU, on average: %.0f places, %.0f bounds, %.0f job "
           "slots (%.0f bytes, %.2f a key)\n",
           t.places / t.counted, t.bounds / t.counted, t.slots / t.counted,
           ((t.places + t.bounds) * 8.0 + t.slots * 32.0) / t.counted,
           ((t.places + t.bounds) * 8.0 + t.slots * 32.0) / t.keys);
    printf("  as the GPU's kernels count (two listings, the sort, the pairs with buckets): "
           "%.4g\n",
           2.0 * list + (t.sort + t.fill + t.meet) * scale);
    free(east.keys);
    free(west.keys);
    nq_join_plan_free(plan);
    return t.total == known[n < sizeof known / sizeof known[0] ? n : 0] || want != splits ||
                   n >= sizeof known / sizeof known[0]
               ? 0
               : 1;
}
