/*
 * The join's GPU steps (src/methods/join/join_steps.h), run on the host:
 * every row split counted by them against the join's own count of the
 * same split (with buckets and without, in groups of blocks of either
 * size), the step walk against a plain recursive walk, and the
 * bit-sliced blocks against a pair-by-pair count. No GPU is needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "methods/join/join_gpu.h"
#include "methods/join/join_half.h"
#include "methods/join/join_plan.h"
#include "methods/join/join_profile.h"
#include "steps/join_steps.h"
#include "platform/cpu.h"
#include "test_sizes.h"

/* Q(n), OEIS A000170, n = 0 .. 18. */
static const uint64_t known[] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                  73712, 365596, 2279184, 14772512, 95815104,
                                  666090624 };

/* Split `split` of plan counted by the GPU's steps (0 when another image
 * of its orbit is counted), adding the walk's steps and keys: with the
 * buckets the lists' sizes ask for, and again without buckets, with 3
 * bucket bits, in groups of 1 and 4 blocks: the same count each way. */
static uint64_t gpu_count(const nq_join_plan *plan, uint64_t split, uint64_t *steps,
                          uint64_t *keys)
{
    static const struct {
        unsigned blocks;
        int bits;
    } ways[] = { { 4, -1 }, { 1, -1 }, { 1, 0 }, { 4, 0 }, { 1, 3 }, { 4, 3 } };
    nq_jg_split s;
    nq_join_keys east = { 0 }, west = { 0 };
    nq_jg_tally tally = { 0, 0, 0 };
    uint64_t total = 0;
    assert_int_equal(nq_join_plan_gpu_split(plan, split, &s), NQ_OK);
    if (!s.weight)
        return 0;
    assert_int_equal(nq_join_gpu_list(&s, 0, &east, steps), NQ_OK);
    assert_int_equal(nq_join_gpu_list(&s, 1, &west, steps), NQ_OK);
    *keys += east.count + west.count;
    for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
        uint64_t count;
        assert_int_equal(nq_join_gpu_pairs(&s, &east, &west, ways[w].blocks, ways[w].bits,
                                           &tally, &count),
                         NQ_OK);
        if (w == 0)
            total = count;
        else if (count != total)
            fail_msg("split %llu: %llu in groups of %u blocks with %d bucket bits, %llu "
                     "with the bits its lists ask for",
                     (unsigned long long)split, (unsigned long long)count, ways[w].blocks,
                     ways[w].bits, (unsigned long long)total);
    }
    assert_true(tally.meetings >= (east.count && west.count ? 1u : 0u));
    free(east.keys);
    free(west.keys);
    return total;
}

/* The join's own count of one split. */
static uint64_t join_count(const nq_join_plan *plan, uint64_t split)
{
    nq_join_profile p;
    uint64_t total;
    memset(&p, 0, sizeof p);
    p.match = 1;
    assert_int_equal(nq_join_profile_split(plan, split, nq_cpu_simd_best(), 0, NULL, &p),
                     NQ_OK);
    total = p.total;
    nq_join_profile_end(&p);
    return total;
}

/* Splits first, first + step, ... of n: each split's count by the GPU's
 * steps is the join's; returns the sum. */
static uint64_t check_splits(unsigned n, uint64_t step, uint64_t first)
{
    nq_join_plan *plan;
    uint64_t sum = 0, steps = 0, keys = 0, splits;
    assert_int_equal(nq_join_plan_build_walk(&plan, n), NQ_OK);
    splits = nq_join_plan_splits(plan);
    for (uint64_t k = first; k < splits; k += step) {
        const uint64_t g = gpu_count(plan, k, &steps, &keys), j = join_count(plan, k);
        if (g != j)
            fail_msg("n = %u, split %llu: %llu by the GPU's steps, %llu by the join", n,
                     (unsigned long long)k, (unsigned long long)g, (unsigned long long)j);
        sum += g;
    }
    assert_true(steps >= keys);
    nq_join_plan_free(plan);
    return sum;
}

/* Every split of every board from 4 to NQ_TEST_CROSS_N, and so every
 * board's total. */
static void test_every_split(void **state)
{
    (void)state;
    for (unsigned n = NQ_JOIN_MIN_N; n <= NQ_TEST_CROSS_N; n++) {
        const uint64_t total = check_splits(n, 1, 0);
        if (total != known[n])
            fail_msg("n = %u: %llu, not %llu", n, (unsigned long long)total,
                     (unsigned long long)known[n]);
    }
}

/* Splits spread over the lists of larger boards, odd and even, whose keys
 * take more chunks. */
static void test_larger_boards(void **state)
{
    (void)state;
#ifdef NQ_TEST_SLOW
    check_splits(14, 97, 5);
    check_splits(15, 997, 11);
#else
    check_splits(16, 211, 3);
    check_splits(17, 1499, 7);
    check_splits(18, 4861, 13);
#endif
}

/* ------------------------------------------------------------------------
 * The step walk against a recursive walk
 * ------------------------------------------------------------------------ */

typedef struct listing {
    uint64_t keys[4096];
    size_t count;
    uint64_t nodes;
} listing;

/* Places a queen on each of rows[i .. h) of half `half` (columns c0 ..
 * c0 + h - 1) off its bars, every key of a whole half into *out. */
static void walk(const nq_jg_split *s, const unsigned *rows, unsigned i, unsigned c0,
                 uint32_t cols, uint64_t d1, uint64_t d2, unsigned half, listing *out)
{
    const int west = half == 1;
    if (i == s->h) {
        const unsigned cls = west ? nq_jg_class(s, d1, d2) : 0u;
        if (!west || s->class_weight[cls]) {
            assert_true(out->count < sizeof out->keys / sizeof out->keys[0]);
            out->keys[out->count++] = nq_jg_key(s, d1, d2) | (uint64_t)cls << NQ_JG_CLASS_SHIFT;
        }
        return;
    }
    for (unsigned j = 0; j < s->h; j++) {
        const unsigned c = c0 + j, r = rows[i];
        const uint64_t b1 = 1ull << (r + c), b2 = 1ull << (c + s->n - 1 - r);
        if (cols >> j & 1u || (d1 | s->bar1[half]) & b1 || (d2 | s->bar2[half]) & b2)
            continue;
        out->nodes++;
        walk(s, rows, i + 1, c0, cols | 1u << j, d1 | b1, d2 | b2, half, out);
    }
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Each half of every split of n = 4, 5, 9 and 10, and a spread of 13's:
 * the step walk lists the recursive walk's keys, a step a node, its stack
 * never past h frames; and so do its h x h parts together (those past
 * them empty), each on a stack of frames `stride` apart, never past
 * nq_jg_part_frames(h) of them (what a GPU's block holds a thread).
 * Returns the most frames a part held. */
static unsigned check_parts(const nq_jg_split *s, unsigned half, const listing *want)
{
    static listing got;
    enum { stride = 3 };
    const unsigned room = nq_jg_part_frames(s->h);
    nq_jg_frame frames[(NQ_JG_MAX_H + 1) * stride];
    unsigned most = 0;
    got.count = 0;
    assert_int_equal(nq_jg_parts(s), s->h * s->h);
    for (unsigned part = 0; part < nq_jg_parts(s) + s->h + 1; part++) {
        nq_jg_walk w;
        uint64_t key;
        const size_t before = got.count;
        frames[room * stride].cols = 0xdeadu; /* past the room: never reached */
        nq_jg_start_part(&w, s, half, frames, stride, part);
        while (w.top) {
            assert_true(w.top <= room); /* its first two rows' frames are gone */
            most = w.top > most ? w.top : most;
            if (nq_jg_step(&w, s, frames, stride, &key))
                got.keys[got.count++] = key;
        }
        assert_int_equal(frames[room * stride].cols, 0xdeadu);
        if (part >= nq_jg_parts(s))
            assert_int_equal(got.count, before);
    }
    assert_int_equal(got.count, want->count);
    qsort(got.keys, got.count, sizeof got.keys[0], by_value);
    assert_memory_equal(got.keys, want->keys, got.count * sizeof got.keys[0]);
    return most;
}

static void test_step_walk(void **state)
{
    static const unsigned sizes[] = { 4, 5, 9, 10, 13 };
    static listing want, got;
    (void)state;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        nq_join_plan *plan;
        const unsigned n = sizes[z];
        unsigned most = 0; /* frames a part held: the room, at some split */
        assert_int_equal(nq_join_plan_build_walk(&plan, n), NQ_OK);
        for (uint64_t k = 0; k < nq_join_plan_splits(plan); k += n < 13 ? 1u : 37u) {
            nq_jg_split s;
            assert_int_equal(nq_join_plan_gpu_split(plan, k, &s), NQ_OK);
            if (!s.weight)
                continue;
            for (unsigned half = 0; half < 2; half++) {
                nq_jg_frame frames[NQ_JG_MAX_H + 1];
                unsigned rows[NQ_JG_MAX_H], i = 0;
                nq_jg_walk w;
                uint64_t key;
                for (uint32_t r = s.rows[half]; r; r &= r - 1)
                    rows[i++] = (unsigned)__builtin_ctz(r);
                assert_int_equal(i, s.h);
                want.count = got.count = 0;
                want.nodes = got.nodes = 0;
                walk(&s, rows, 0, half ? 0u : n - s.h, 0, 0, 0, half, &want);
                frames[s.h].cols = 0xdeadu; /* the walk must not reach it */
                nq_jg_start(&w, &s, half, frames);
                while (w.top) {
                    assert_true(w.top <= s.h);
                    if (nq_jg_step(&w, &s, frames, 1, &key))
                        got.keys[got.count++] = key;
                    got.nodes++;
                }
                assert_int_equal(frames[s.h].cols, 0xdeadu);
                assert_int_equal(got.nodes, want.nodes);
                assert_int_equal(got.count, want.count);
                qsort(want.keys, want.count, sizeof want.keys[0], by_value);
                qsort(got.keys, got.count, sizeof got.keys[0], by_value);
                assert_memory_equal(got.keys, want.keys, got.count * sizeof got.keys[0]);
                {
                    const unsigned held = check_parts(&s, half, &want);
                    most = held > most ? held : most;
                }
            }
        }
        assert_int_equal(most, nq_jg_part_frames(n / 2));
        nq_join_plan_free(plan);
    }
}

/* The splits' windows at every size hold at most NQ_JG_KEY_BITS bits,
 * and each half has h rows, the two apart. */
static void test_windows(void **state)
{
    (void)state;
    for (unsigned n = NQ_JOIN_MIN_N; n <= NQ_MAX_N; n++) {
        nq_join_plan *plan;
        uint64_t splits, counted = 0;
        assert_int_equal(nq_join_plan_build_walk(&plan, n), NQ_OK);
        splits = nq_join_plan_splits(plan);
        for (uint64_t k = 0; k < splits; k += splits / 4096 + 1) {
            nq_jg_split s;
            assert_int_equal(nq_join_plan_gpu_split(plan, k, &s), NQ_OK);
            if (!s.weight)
                continue;
            counted++;
            assert_true(s.len1 + s.len2 <= NQ_JG_KEY_BITS);
            /* each window fits the walk's 32-bit k1, k2 and holds the
             * long diagonals when keys are classed */
            assert_true(s.len1 < 32 && s.len2 < 32);
            assert_true(s.class1 < 1ull << s.len1 && s.class2 < 1ull << s.len2);
            assert_true(!s.class1 == !s.class2);
            assert_true(s.weight <= 4);
            assert_int_equal(__builtin_popcount(s.rows[0]), n / 2);
            assert_int_equal(__builtin_popcount(s.rows[1]), n / 2);
            assert_int_equal(s.rows[0] & s.rows[1], 0);
            assert_true((s.rows[0] | s.rows[1]) >> n == 0);
        }
        assert_true(counted > 0);
        nq_join_plan_free(plan);
    }
}

static void test_bad_calls(void **state)
{
    nq_join_plan *plan;
    nq_jg_split s;
    (void)state;
    assert_int_equal(nq_join_plan_build(&plan, 3), NQ_OK);
    assert_int_equal(nq_join_plan_gpu_split(plan, 0, &s), NQ_EINVAL);
    nq_join_plan_free(plan);
    assert_int_equal(nq_join_plan_build_walk(&plan, 8), NQ_OK);
    assert_int_equal(nq_join_plan_gpu_split(plan, nq_join_plan_splits(plan), &s), NQ_EINVAL);
    assert_int_equal(nq_join_plan_gpu_split(plan, 0, NULL), NQ_EINVAL);
    assert_int_equal(nq_join_plan_gpu_split(NULL, 0, &s), NQ_EINVAL);
    nq_join_plan_free(plan);
}

/* ------------------------------------------------------------------------
 * Blocks
 * ------------------------------------------------------------------------ */

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Random blocks of 1 to 32 keys of 1 to 54 bits, sparse and dense, with
 * class bits above: a block's match of an item is the number of its keys
 * that share no key bit with it, at strides 1 and 3. */
static void test_blocks(void **state)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    (void)state;
    for (unsigned round = 0; round < 2000; round++) {
        const unsigned bits = 1u + (unsigned)(next_random(&x) % NQ_JG_KEY_BITS);
        const unsigned count = 1u + (unsigned)(next_random(&x) % NQ_JG_BLOCK);
        const unsigned chunks = nq_jg_chunks(bits), sparse = 1u + round % 4u;
        const uint64_t mask = (1ull << bits) - 1u;
        static uint32_t table[NQ_JG_MAX_CHUNKS * NQ_JG_CHUNK_VALUES * 3];
        uint64_t keys[NQ_JG_BLOCK];
        assert_true(chunks * NQ_JG_CHUNK_BITS >= bits);
        for (unsigned j = 0; j < count; j++) {
            uint64_t k = mask;
            for (unsigned t = 0; t < sparse; t++)
                k &= next_random(&x);
            keys[j] = k | (next_random(&x) & 3u) << NQ_JG_CLASS_SHIFT;
        }
        for (unsigned stride = 1; stride <= 3; stride += 2) {
            nq_jg_fill(table, stride, keys, count, chunks);
            for (unsigned i = 0; i < 16; i++) {
                uint64_t item = mask;
                unsigned want = 0;
                for (unsigned t = 0; t < sparse; t++)
                    item &= next_random(&x);
                item |= (next_random(&x) & 3u) << NQ_JG_CLASS_SHIFT;
                for (unsigned j = 0; j < count; j++)
                    want += (keys[j] & item & mask) == 0;
                assert_int_equal(nq_jg_match(table, stride, item, chunks), want);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_split),
        cmocka_unit_test(test_larger_boards),
        cmocka_unit_test(test_step_walk),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_bad_calls),
        cmocka_unit_test(test_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
