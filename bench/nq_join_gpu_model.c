/*
 * nq_join_gpu_model - what a GPU join of n would cost a GPU's threads,
 * without a GPU: row splits spread over the join's list, each counted by
 * the GPU's steps (src/methods/join/join_gpu.h, run here on the host:
 * join_gpu.c), with what each step did tallied and priced in PTX
 * instructions of the loops a kernel runs (bench/nq_join_gpu_loops.cu).
 *
 * Per split, as a GPU would count it:
 * - both halves listed by the step walk: a node a step;
 * - the longer list stored in blocks of 32 keys (a stored west list class
 *   by class), each block's table filled once;
 * - every key of the other list meeting every block ("meetings", 32
 *   pairs each) - or, sorted into 2^B buckets by B diagonals in the
 *   middle of the key's window, only the blocks of buckets it can be
 *   disjoint from (a bucket's blocks hold its keys only). B is what the
 *   longer list's size asks for: buckets of 16 to 32 keys on average, B
 *   at most NQ_MODEL_MAX_B (at n = 20, buckets of 32 to 64 or of 8 to 16
 *   keys cost 5% more, of 64 to 128 keys 20% more).
 *
 * Printed: the splits counted (of all the splits looked at; the others
 * are images counted by another), their solutions (the whole count when
 * every split was looked at: checked against the known value), listing
 * steps and keys, the pairs met without buckets and with them, and the
 * issue slots (32 x the warp instructions at every lane at work, which
 * these loops reach: no branch but the loop's and the list's append) of
 * listing, sorting, filling and meeting, scaled to the whole list.
 * Compare with the symmetry method's walk on the GPU, nodes times issue
 * slots a node (bench/nq_warp_model). A model of issue slots only:
 * latency, memory traffic and occupancy are the GPU's to show.
 *
 * usage: nq_join_gpu_model N [SPLITS [FIRST]]
 *   SPLITS splits spread evenly over the list from FIRST (default: all).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "methods/join/join.h"
#include "methods/join/join_gpu.h"
#include "methods/join/join_internal.h"

/* Q(n), OEIS A000170, up to n = 21 (a model of every split of 21 takes a
 * few minutes of one core). */
static const uint64_t known[] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                  73712, 365596, 2279184, 14772512, 95815104,
                                  666090624, 4968057848ull, 39029188884ull,
                                  314666222712ull };

/* PTX instructions (moves not counted) of each loop, from `nvcc -ptx -O3
 * -std=c++17 -arch=sm_90` (CUDA 13.0) of bench/nq_join_gpu_loops.cu: a
 * step of the east walk and of the west one (its keys classed), each with
 * the append of a listed key; a meeting at 1 to 9 chunks (3 to 9
 * measured, the loops unrolled four or two times; 1 and 2 by the same
 * 7 a chunk). */
#define PRICE_STEP_EAST 63.0
#define PRICE_STEP_WEST 78.0
static const double price_meeting[NQ_JG_MAX_CHUNKS + 1] = { 0,    11.0, 18.0, 25.5, 32.5,
                                                             39.5, 51.0, 60.0, 69.0, 78.0 };
/* Not measured (no kernel yet): a key's sort into buckets (a count and a
 * place, an atomic each, and its copy), and a table's fill, by a warp in
 * shared memory: 32 keys' bits cleared from 6 words a chunk, then 64
 * words a chunk built each from two others. Both small beside the rest. */
#define PRICE_SORT_KEY 24.0
#define PRICE_FILL_CHUNK (32.0 * 6.0 * 3.0 + 64.0 * 4.0)

#define NQ_MODEL_MAX_B 14u
#define BLOCK_KEYS 32u

typedef struct tally {
    double splits, counted, steps_east, steps_west, keys, naive, meetings, fills,
        fill_chunks, pairs_met, bucket_bits;
    double meet_price, meet_price0;
    uint64_t total;
} tally;

/* Bucket bits of a key: run1 diagonals from the middle of direction 1's
 * window, run2 of direction 2's. */
typedef struct buckets {
    unsigned cut1, run1, cut2, run2;
} buckets;

static buckets pick(const nq_jg_split *s, size_t longer)
{
    buckets b;
    unsigned want = 0;
    while (want < NQ_MODEL_MAX_B && longer > ((size_t)BLOCK_KEYS << want))
        want++;
    b.run1 = want / 2 < s->len1 ? want / 2 : s->len1;
    b.run2 = want - b.run1 < s->len2 ? want - b.run1 : s->len2;
    b.cut1 = (s->len1 - b.run1) / 2;
    b.cut2 = s->len1 + (s->len2 - b.run2) / 2;
    return b;
}

static unsigned bucket_of(const buckets *b, uint64_t key)
{
    return (unsigned)(key >> b->cut1 & ((1ull << b->run1) - 1u)) |
           (unsigned)(key >> b->cut2 & ((1ull << b->run2) - 1u)) << b->run1;
}

/* Meetings of the split's lists sorted into the buckets of b: each block
 * of a stored bucket (and class) meets the items of every bucket disjoint
 * from it. Also counts the blocks filled. */
static double bucket_meetings(const nq_join_keys *stored, int west_stored,
                              const nq_join_keys *items, const buckets *b, double *fills)
{
    const unsigned bits = b->run1 + b->run2, nb = 1u << bits;
    double *items_in = calloc(nb, sizeof *items_in);
    uint32_t *stored_in = calloc((size_t)nb * 3u, sizeof *stored_in);
    double meetings = 0;
    if (!items_in || !stored_in) {
        fputs("nq_join_gpu_model: out of memory\n", stderr);
        exit(1);
    }
    for (size_t i = 0; i < items->count; i++)
        items_in[bucket_of(b, items->keys[i])] += 1.0;
    for (size_t i = 0; i < stored->count; i++) {
        const unsigned c = west_stored ? nq_jg_key_class(stored->keys[i]) : 0u;
        stored_in[(size_t)c * nb + bucket_of(b, stored->keys[i])]++;
    }
    /* items_in[x] becomes the items of all buckets within x (subset sums) */
    for (unsigned bit = 1; bit < nb; bit <<= 1)
        for (unsigned x = 0; x < nb; x++)
            if (x & bit)
                items_in[x] += items_in[x ^ bit];
    for (unsigned c = 0; c < 3; c++)
        for (unsigned x = 0; x < nb; x++) {
            const double blocks = (stored_in[(size_t)c * nb + x] + BLOCK_KEYS - 1u) / BLOCK_KEYS;
            meetings += blocks * items_in[~x & (nb - 1u)];
            *fills += blocks;
        }
    free(items_in);
    free(stored_in);
    return meetings;
}

static void model_split(const nq_join_plan *plan, uint64_t k, nq_join_keys *east,
                        nq_join_keys *west, tally *t)
{
    nq_jg_split s;
    uint64_t east_steps = 0, west_steps = 0, meetings0 = 0;
    double fills = 0, meetings;
    int west_stored;
    unsigned chunks;
    buckets b;
    if (nq_join_plan_gpu_split(plan, k, &s) != NQ_OK) {
        fputs("nq_join_gpu_model: no such split\n", stderr);
        exit(1);
    }
    t->splits++;
    if (!s.weight)
        return;
    t->counted++;
    if (nq_join_gpu_list(&s, 0, east, &east_steps) != NQ_OK ||
        nq_join_gpu_list(&s, 1, west, &west_steps) != NQ_OK) {
        fputs("nq_join_gpu_model: out of memory\n", stderr);
        exit(1);
    }
    t->steps_east += (double)east_steps;
    t->steps_west += (double)west_steps;
    t->keys += (double)(east->count + west->count);
    t->naive += (double)east->count * (double)west->count;
    t->total += nq_join_gpu_pairs(&s, east, west, &meetings0);
    west_stored = west->count > east->count;
    chunks = nq_jg_chunks((unsigned)s.len1 + s.len2);
    b = pick(&s, west_stored ? west->count : east->count);
    meetings = bucket_meetings(west_stored ? west : east, west_stored,
                               west_stored ? east : west, &b, &fills);
    t->meetings += meetings;
    t->fills += fills;
    t->fill_chunks += fills * chunks;
    t->pairs_met += meetings * BLOCK_KEYS;
    t->bucket_bits += b.run1 + b.run2;
    t->meet_price += meetings * price_meeting[chunks];
    t->meet_price0 += (double)meetings0 * price_meeting[chunks];
}

int main(int argc, char **argv)
{
    nq_join_plan *plan;
    nq_join_keys east = { 0 }, west = { 0 };
    unsigned long long n, want, first = 0;
    uint64_t splits;
    double scale, list, sort, fill, meet, meet0;
    tally t;
    if (argc < 2 || argc > 4) {
        fputs("usage: nq_join_gpu_model N [SPLITS [FIRST]]\n", stderr);
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
    for (uint64_t i = 0; i < want; i++)
        model_split(plan, (splits / want * i + first) % splits, &east, &west, &t);
    scale = (double)splits / t.splits;
    list = (t.steps_east * PRICE_STEP_EAST + t.steps_west * PRICE_STEP_WEST) * scale;
    sort = t.keys * PRICE_SORT_KEY * scale;
    fill = t.fill_chunks * PRICE_FILL_CHUNK * scale;
    meet = t.meet_price * scale;
    meet0 = t.meet_price0 * scale;
    printf("n = %llu: %.0f of %llu splits looked at, %.0f of them counted\n", n, t.splits,
           (unsigned long long)splits, t.counted);
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
    printf("  issue slots: listing %.4g, sorting %.4g, filling %.4g, meeting %.4g\n", list,
           sort, fill, meet);
    printf("  issue slots in all: %.4g (without buckets: %.4g)\n", list + sort + fill + meet,
           list + meet0);
    free(east.keys);
    free(west.keys);
    nq_join_plan_free(plan);
    return t.total == known[n < sizeof known / sizeof known[0] ? n : 0] || want != splits ||
                   n >= sizeof known / sizeof known[0]
               ? 0
               : 1;
}
