/*
 * nq_match: the join's match kernel alone, level by level and for every
 * key length, in nanoseconds per meeting of one item with a full block of
 * 512 stored keys and per chunk of such a meeting (a meeting's work in
 * the cost model, join_profile.c). The block and its items stay in
 * cache (ITEMS items, default 4,096), so this is the kernel's own speed:
 * a key length whose price per chunk stands out from the others' is
 * worth a look (keys of 9 chunks, n = 28, once took 2 to 3 times the
 * price of 8).
 *
 * Keys and items are pseudo-random, each bit set with chance 1/4 (about
 * the density of a squeezed key). Each figure is the median of ROUNDS
 * (default 5) timed runs of about 20 million meetings each, thread CPU
 * time. Levels this CPU lacks are skipped with a line that says so; the
 * AVX-512 level is timed with its VPOPCNTDQ match where the CPU has one,
 * and its AVX2 match as well.
 *
 * usage: nq_match [ITEMS [ROUNDS]]
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "bench_median.h"
#include "common/nqc_random.h"
#include "methods/join/join_kernel.h"
#include "methods/join/join_profile.h"
#include "platform/cpu.h"

#define MEETINGS 20000000.0
#define MAX_ROUNDS 99u

/* Median ns per meeting of `match` on keys of `chunks` chunks. */
static double time_match(const nq_join_kernel *k, nq_join_match_fn match, unsigned chunks,
                         nq_join_block *block, uint64_t *items, size_t count,
                         unsigned rounds, uint64_t *sink)
{
    const uint64_t mask = (1ull << (chunks * NQ_JOIN_CHUNK_BITS)) - 1u;
    uint64_t keys[NQ_JOIN_BLOCK], s = 0x9E3779B97F4A7C15ull * chunks;
    double t[MAX_ROUNDS];
    const size_t reps = (size_t)(MEETINGS / (double)count) + 1;
    for (unsigned i = 0; i < NQ_JOIN_BLOCK; i++)
        keys[i] = nqc_splitmix64(&s) & nqc_splitmix64(&s) & mask;
    for (size_t i = 0; i < count; i++)
        items[i] = nqc_splitmix64(&s) & nqc_splitmix64(&s) & mask;
    k->fill(block, keys, NQ_JOIN_BLOCK, chunks);
    for (unsigned r = 0; r < rounds; r++) {
        const double t0 = nq_join_cpu_now();
        for (size_t q = 0; q < reps; q++)
            *sink += match(block, chunks, items, count, 0);
        t[r] = (nq_join_cpu_now() - t0) / ((double)reps * (double)count) * 1e9;
    }
    return bench_median(t, rounds);
}

int main(int argc, char **argv)
{
    uint64_t count = 4096, rounds = 5, sink = 0;
    static const struct {
        nq_simd level;
        int vpopcnt;
        const char *name;
    } rows[] = { { NQ_SIMD_NONE, 0, "none" },
                 { NQ_SIMD_AVX2, 0, "avx2" },
                 { NQ_SIMD_AVX512, 0, "avx512 (AVX2 match)" },
                 { NQ_SIMD_AVX512, 1, "avx512 (VPOPCNTDQ match)" } };
    const nq_simd best = nq_cpu_simd_best();
    nq_join_block *block;
    uint64_t *items;

    if (argc > 3) {
        fputs("usage: nq_match [ITEMS [ROUNDS]]\n", stderr);
        return 2;
    }
    if (argc > 1)
        count = bench_arg("nq_match", argv[1], "ITEMS");
    if (argc > 2)
        rounds = bench_arg("nq_match", argv[2], "ROUNDS");
    if (count < 1 || count > 1u << 24 || rounds < 1 || rounds > MAX_ROUNDS) {
        fputs("nq_match: ITEMS from 1 to 2^24, ROUNDS from 1 to 99\n", stderr);
        return 2;
    }
    block = aligned_alloc(64, sizeof *block);
    items = malloc((size_t)count * sizeof *items);
    if (!block || !items) {
        fputs("nq_match: out of memory\n", stderr);
        free(block);
        free(items);
        return 1;
    }
    printf("# the match kernel: ns per meeting of an item with a block of %u keys "
           "(per chunk of it), %llu items in cache, median of %llu rounds\n",
           NQ_JOIN_BLOCK, (unsigned long long)count, (unsigned long long)rounds);
    printf("level\tchunks\tns\tns_per_chunk\n");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const nq_join_kernel *k;
        nq_join_match_fn match;
        if (rows[r].level > best || (rows[r].vpopcnt && !nq_cpu_has_vpopcnt())) {
            printf("# %s: skipped, this CPU lacks it\n", rows[r].name);
            continue;
        }
        k = nq_join_kernel_of(rows[r].level);
        match = !k ? NULL : rows[r].vpopcnt ? k->match_vpopcnt : k->match;
        if (!match) {
            printf("# %s: skipped, no such kernel in this build\n", rows[r].name);
            continue;
        }
        for (unsigned c = 1; c <= NQ_JOIN_MAX_CHUNKS; c++) {
            const double ns = time_match(k, match, c, block, items, (size_t)count,
                                         (unsigned)rounds, &sink);
            printf("%s\t%u\t%.3f\t%.3f\n", rows[r].name, c, ns, ns / c);
            fflush(stdout);
        }
    }
    printf("# pairs counted in all: %llu\n", (unsigned long long)sink);
    free(items);
    free(block);
    return 0;
}
