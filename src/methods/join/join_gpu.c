/*
 * join_gpu.c - a row split counted on the host by the GPU's steps
 * (join_steps.h): both halves listed by the step walk, both lists sorted
 * into buckets, the longer stored in groups of blocks of 32 keys, every
 * key of the other list meeting the groups of the buckets it can be
 * disjoint from. The same count as the join's (join_split.c), by other means:
 * what the tests compare split by split, and what bench/nq_join_gpu_model
 * tallies to price a GPU's work. And the method's GPU path: a batch of
 * units becomes the row splits they count, described on the host and
 * counted on the GPU (device.h), and each unit's result is the sum of its
 * splits' counts, the same number as on the CPU.
 */
#include "join_gpu.h"

#include "device/device.h"
#include "join_bits.h"
#include "join_geometry.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(NQ_JG_MAX_H * 2u >= NQ_MAX_N, "a half of the largest board fits the walk");
_Static_assert(NQ_JG_MAX_CHUNKS * NQ_JG_CHUNK_BITS >= NQ_JG_KEY_BITS, "chunks cover a key");

int nq_join_plan_gpu_split(const nq_join_plan *plan, uint64_t split,
                           struct nq_jg_split *out)
{
    const unsigned n = nq_join_plan_n(plan);
    const uint64_t splits = nq_join_plan_splits(plan);
    if (!plan || !out || n < NQ_JOIN_MIN_N || split >= splits)
        return NQ_EINVAL;
    /* the splits of each middle row (n odd: rows 0 .. h), or all of them */
    nq_join_split_gpu(n, (n & 1u) ? splits / (n / 2 + 1) : splits, split, out);
    return NQ_OK;
}

int nq_join_gpu_list(const nq_jg_split *s, unsigned half, nq_join_keys *out,
                     uint64_t *steps)
{
    nq_jg_frame frames[NQ_JG_MAX_H];
    nq_jg_walk w;
    uint64_t key;
    out->count = 0;
    nq_jg_start(&w, s, half, frames);
    while (w.top) {
        const int listed = nq_jg_step(&w, s, frames, 1, &key);
        ++*steps;
        if (listed) {
            if (out->count == out->cap && nq_join_keys_reserve(out, 1) != NQ_OK)
                return NQ_ENOMEM;
            out->keys[out->count++] = key;
        }
    }
    return NQ_OK;
}

/* Sorts keys[0 .. count) by (class when `classed`, bucket) into out
 * (room for count), starts of the bins (classes x buckets + 1) into off. */
static void sort_keys(const uint64_t *keys, size_t count, int classed,
                      const nq_jg_buckets *b, uint64_t *out, size_t *off, size_t bins)
{
    const unsigned nb = 1u << (b->run1 + b->run2);
    memset(off, 0, (bins + 1) * sizeof *off);
    for (size_t i = 0; i < count; i++)
        off[1 + (classed ? nq_jg_key_class(keys[i]) * nb : 0u) + nq_jg_bucket(b, keys[i])]++;
    for (size_t i = 1; i <= bins; i++)
        off[i] += off[i - 1];
    for (size_t i = 0; i < count; i++)
        out[off[(classed ? nq_jg_key_class(keys[i]) * nb : 0u) + nq_jg_bucket(b, keys[i])]++] =
            keys[i];
    memmove(off + 1, off, bins * sizeof *off);
    off[0] = 0;
}

/* A group of up to 32 x blocks stored keys (`count`, all of class `cls`
 * when the stored list is the west one) meeting the items of every
 * bucket within `comp` (the complement of its own). */
static uint64_t meet_group(const nq_jg_split *s, const uint64_t *group, size_t count,
                           int west_stored, unsigned cls, const uint64_t *items,
                           const size_t *ioff, unsigned comp, unsigned chunks,
                           nq_jg_tally *tally)
{
    uint32_t table[NQ_JG_MAX_BLOCKS][NQ_JG_MAX_CHUNKS * NQ_JG_CHUNK_VALUES];
    const unsigned blocks = (unsigned)((count + NQ_JG_BLOCK - 1) / NQ_JG_BLOCK);
    uint64_t total = 0;
    for (unsigned k = 0; k < blocks; k++) {
        const size_t first = (size_t)k * NQ_JG_BLOCK;
        nq_jg_fill(table[k], 1, group + first,
                   (unsigned)(count - first < NQ_JG_BLOCK ? count - first : NQ_JG_BLOCK),
                   chunks);
    }
    for (unsigned sub = comp;; sub = (sub - 1u) & comp) {
        for (size_t i = ioff[sub]; i < ioff[sub + 1]; i++) {
            const uint64_t x = items[i];
            const unsigned w = s->class_weight[west_stored ? cls : nq_jg_key_class(x)];
            for (unsigned k = 0; k < blocks; k++)
                total += (uint64_t)w * nq_jg_match(table[k], 1, x, chunks);
        }
        tally->meetings += ioff[sub + 1] - ioff[sub];
        if (!sub)
            break;
    }
    return total;
}

int nq_join_gpu_pairs(const nq_jg_split *s, const nq_join_keys *east, const nq_join_keys *west,
                      unsigned blocks, int bits, nq_jg_tally *tally, uint64_t *out)
{
    /* the longer list stored, in groups of `blocks` blocks, class by
     * class when it is the west list */
    const int west_stored = west->count > east->count;
    const nq_join_keys *stored = west_stored ? west : east, *items = west_stored ? east : west;
    const unsigned chunks = nq_jg_chunks((unsigned)s->len1 + s->len2);
    const size_t group = (size_t)NQ_JG_BLOCK * blocks;
    const nq_jg_buckets b = nq_jg_bucket_bits(
        s, bits < 0 ? nq_jg_pick_bits(stored->count, (unsigned)group) : (unsigned)bits);
    const unsigned nb = 1u << (b.run1 + b.run2), classes = west_stored ? 3u : 1u;
    uint64_t *sk = malloc((stored->count + 1) * sizeof *sk);
    uint64_t *ik = malloc((items->count + 1) * sizeof *ik);
    size_t *soff = malloc(((size_t)classes * nb + 1) * sizeof *soff);
    size_t *ioff = malloc(((size_t)nb + 1) * sizeof *ioff);
    uint64_t total = 0;
    int rc = sk && ik && soff && ioff ? NQ_OK : NQ_ENOMEM;
    if (rc == NQ_OK) {
        sort_keys(stored->keys, stored->count, west_stored, &b, sk, soff, (size_t)classes * nb);
        sort_keys(items->keys, items->count, 0, &b, ik, ioff, nb);
        tally->bucket_bits += b.run1 + b.run2;
        for (unsigned c = 0; c < classes; c++)
            for (unsigned x = 0; x < nb; x++) {
                const size_t end = soff[c * nb + x + 1];
                for (size_t g = soff[c * nb + x]; g < end; g += group) {
                    total += meet_group(s, sk + g, end - g < group ? end - g : group,
                                        west_stored, c, ik, ioff, ~x & (nb - 1u), chunks,
                                        tally);
                    tally->groups++;
                }
            }
        *out = total * s->weight;
    }
    free(sk);
    free(ik);
    free(soff);
    free(ioff);
    return rc;
}

/* ========================================================================
 * The method's GPU path
 * ======================================================================== */

/* Splits described between two looks at the stop flag. */
#define JOIN_GPU_POLL 256u

typedef struct gpu_batch {
    nq_jg_split *splits;
    size_t *owner;     /* the run of each */
    uint64_t *counts;
    size_t count, cap;
} gpu_batch;

/* Counts the splits gathered so far on the GPU and adds each to its
 * run's total. */
static int gpu_flush(nq_gpu *gpu, gpu_batch *b, const nq_stop_flag *stop, uint64_t *totals)
{
    const nq_join_batch work = {b->splits, b->count};
    int rc;
    memset(b->counts, 0, b->count * sizeof *b->counts);
    rc = nq_gpu_join_splits(gpu, &work, b->counts, stop);
    for (size_t i = 0; rc == NQ_OK && i < b->count; i++)
        totals[b->owner[i]] += b->counts[i];
    b->count = 0;
    return rc;
}

int nq_join_gpu_runs(const nq_join_plan *plan, struct nq_gpu *gpu, const uint64_t *first,
                     const uint64_t *end, size_t count, size_t most, const nq_stop_flag *stop,
                     uint64_t *totals)
{
    gpu_batch b = {NULL, NULL, NULL, 0, 0};
    uint64_t splits = 0;
    int rc;
    if (!plan || !gpu || !totals || !most || (count && (!first || !end)))
        return NQ_EINVAL;
    for (size_t i = 0; i < count; i++) {
        if (first[i] > end[i] || end[i] > nq_join_plan_splits(plan))
            return NQ_EINVAL;
        totals[i] = 0;
        if (splits < most)
            splits += end[i] - first[i];
    }
    /* room for the runs' splits, up to a GPU call's */
    b.cap = splits < most ? (size_t)splits : most;
    b.splits = malloc((b.cap ? b.cap : 1) * sizeof *b.splits);
    b.owner = malloc((b.cap ? b.cap : 1) * sizeof *b.owner);
    b.counts = malloc((b.cap ? b.cap : 1) * sizeof *b.counts);
    rc = b.splits && b.owner && b.counts ? NQ_OK : NQ_ENOMEM;
    for (size_t i = 0; rc == NQ_OK && i < count; i++)
        for (uint64_t split = first[i]; rc == NQ_OK && split < end[i]; split++) {
            if ((split - first[i]) % JOIN_GPU_POLL == 0 && nq_stopped(stop)) {
                rc = NQ_ECANCELED;
                break;
            }
            rc = nq_join_plan_gpu_split(plan, split, &b.splits[b.count]);
            if (rc != NQ_OK || !b.splits[b.count].weight)
                continue; /* another image of its orbit counts it */
            b.owner[b.count++] = i;
            if (b.count == b.cap)
                rc = gpu_flush(gpu, &b, stop, totals);
        }
    if (rc == NQ_OK && b.count)
        rc = gpu_flush(gpu, &b, stop, totals);
    free(b.splits);
    free(b.owner);
    free(b.counts);
    return rc;
}

int nq_join_solve_gpu(const void *plan, struct nq_gpu *gpu, const uint64_t *units,
                      size_t count, nq_simd simd, const nq_stop_flag *stop,
                      nq_unit_result *out)
{
    const nq_join_plan *p = plan;
    uint64_t *first, *end, *totals;
    int rc = NQ_OK;
    (void)simd; /* nothing of a unit is counted on the host's lanes */

    if (!p || !gpu || !out || (!units && count))
        return NQ_EINVAL;
    for (size_t i = 0; i < count; i++)
        if (units[i] >= nq_join_plan_size(p))
            return NQ_EINVAL;
    if (nq_join_plan_n(p) < NQ_JOIN_MIN_N) { /* the one unit, a plain walk */
        for (size_t i = 0; i < count; i++) {
            out[i].total = nq_join_small_count(nq_join_plan_n(p), 0, 0, 0, 0);
            out[i].unique = 0;
        }
        return NQ_OK;
    }
    first = malloc((count ? count : 1) * sizeof *first);
    end = malloc((count ? count : 1) * sizeof *end);
    totals = malloc((count ? count : 1) * sizeof *totals);
    rc = first && end && totals ? NQ_OK : NQ_ENOMEM;
    for (size_t i = 0; rc == NQ_OK && i < count; i++)
        rc = nq_join_plan_unit_splits(p, units[i], &first[i], &end[i]);
    if (rc == NQ_OK)
        rc = nq_join_gpu_runs(p, gpu, first, end, count, NQ_JOIN_GPU_SPLITS, stop, totals);
    for (size_t i = 0; rc == NQ_OK && i < count; i++) {
        out[i].total = totals[i];
        out[i].unique = 0;
    }
    free(first);
    free(end);
    free(totals);
    return rc;
}

/* ========================================================================
 * A split described for the GPU's steps (join_steps.h)
 * ======================================================================== */

/* 32 + a - b, within 0 .. 63: the shift down that moves a bit raised 32
 * from where a board diagonal b's column 0 lands to key bit b - a of a
 * window from a (a bit shifted out of the 32 is past the window). */
static uint8_t key_shift(unsigned a, unsigned b)
{
    const int t = 32 + (int)a - (int)b;
    return (uint8_t)(t < 0 ? 0 : t > 63 ? 63 : t);
}

/* The walk's tables of half `half` of split s (nq_jg_split). */
static void gpu_walk_tables(nq_jg_split *s, unsigned half)
{
    const unsigned n = s->n, h = s->h, c0 = half ? 0u : n - h;
    const uint32_t all = (1u << h) - 1u;
    unsigned row[NQ_JG_MAX_H] = { 0 }, level = 0;
    uint32_t barred[NQ_JG_MAX_H + 1];
    for (uint32_t left = s->rows[half]; left; left &= left - 1u)
        row[level++] = (unsigned)__builtin_ctz(left);
    for (level = 0; level < h; level++) {
        const unsigned s1 = row[level] + c0, s2 = c0 + n - 1 - row[level];
        barred[level] = (uint32_t)((s->bar1[half] >> s1) | (s->bar2[half] >> s2)) & all;
    }
    barred[h] = all;
    s->barred0[half] = (uint16_t)barred[0];
    for (level = 0; level < h; level++) {
        const unsigned s1 = row[level] + c0, s2 = c0 + n - 1 - row[level];
        s->step[half][level] =
            nq_jg_step_word(level + 1 < h ? row[level + 1] - row[level] : 0,
                            key_shift(s->lo1, s1), key_shift(s->lo2, s2), barred[level + 1]);
    }
}

void nq_join_split_gpu(unsigned n, uint64_t per_m, uint64_t split, nq_jg_split *out)
{
    const unsigned h = n / 2;
    const unsigned m = (n & 1u) ? (unsigned)(split / per_m) : 0;
    uint32_t rows = nq_join_unrank(split % per_m, h), free_rows = (1u << n) - 1u;
    uint64_t weight, bar1[2], bar2[2];
    unsigned classes, lo1, len1, lo2, len2;
    int none_weight;
    if (n & 1u) {
        rows = nq_join_stretch(rows, m);
        free_rows &= ~(1u << m);
    }
    memset(out, 0, sizeof *out);
    weight = nq_join_split_orbit(n, m, rows, free_rows, &none_weight);
    if (!weight)
        return; /* another image of its orbit is counted */
    classes = none_weight >= 0 ? 3u : 1u;
    nq_join_split_bars(n, m, classes, bar1, bar2);
    (void)nq_join_split_window(n, rows, free_rows & ~rows, bar1[0] | bar1[1], bar2[0] | bar2[1],
                       classes, &lo1, &len1, &lo2, &len2);
    for (unsigned i = 0; i < 2; i++) {
        out->bar1[i] = bar1[i];
        out->bar2[i] = bar2[i];
    }
    out->rows[0] = rows;
    out->rows[1] = free_rows & ~rows;
    out->n = (uint8_t)n;
    out->h = (uint8_t)h;
    out->lo1 = (uint8_t)lo1;
    out->len1 = (uint8_t)len1;
    out->lo2 = (uint8_t)lo2;
    out->len2 = (uint8_t)len2;
    out->weight = (uint8_t)weight;
    out->class_weight[0] = (uint8_t)(classes > 1 ? none_weight : 1);
    out->class_weight[1] = (uint8_t)(classes > 1 ? 2 : 1);
    out->class_weight[2] = (uint8_t)(classes > 1 ? 4 : 1);
    if (classes > 1) { /* inside the window (split_window() keeps them) */
        out->class1 = 1u << (n - 1 - lo1);
        out->class2 = 1u << (n - 1 - lo2);
    }
    for (unsigned half = 0; half < 2; half++)
        gpu_walk_tables(out, half);
}
