/*
 * join_gpu.c - a row split counted on the host by the GPU's steps
 * (join_gpu.h): both halves listed by the step walk, the longer list
 * stored in blocks of 32 keys, every key of the other meeting every
 * block. The same count as the join's (join_split.c), by other means:
 * what the tests compare split by split, and what bench/nq_join_gpu_model
 * tallies to price a GPU's work.
 */
#include "join_gpu.h"
#include "join_internal.h"

#include <stdlib.h>

_Static_assert(NQ_JG_MAX_H * 2u >= NQ_MAX_N, "a half of the largest board fits the walk");
_Static_assert(NQ_JG_MAX_CHUNKS * NQ_JG_CHUNK_BITS >= NQ_JG_KEY_BITS, "chunks cover a key");

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

/* The weighted pairs of a block of `count` stored keys with every item. */
static uint64_t meet_block(const nq_jg_split *s, const uint64_t *block, unsigned count,
                           int west_stored, const nq_join_keys *items, unsigned chunks,
                           uint64_t *meetings)
{
    uint32_t table[NQ_JG_MAX_CHUNKS * NQ_JG_CHUNK_VALUES];
    uint64_t total = 0;
    nq_jg_fill(table, 1, block, count, chunks);
    for (size_t i = 0; i < items->count; i++) {
        const uint64_t x = items->keys[i];
        /* a block of west keys holds one class: its first key's */
        const unsigned cls = nq_jg_key_class(west_stored ? block[0] : x);
        total += (uint64_t)s->class_weight[cls] * nq_jg_match(table, 1, x, chunks);
    }
    *meetings += items->count;
    return total;
}

uint64_t nq_join_gpu_pairs(const nq_jg_split *s, const nq_join_keys *east,
                           const nq_join_keys *west, uint64_t *meetings)
{
    /* the longer list stored, as the GPU would: fewer, fuller blocks; a
     * stored west list is taken class by class */
    const int west_stored = west->count > east->count;
    const nq_join_keys *stored = west_stored ? west : east, *items = west_stored ? east : west;
    const unsigned chunks = nq_jg_chunks((unsigned)s->len1 + s->len2);
    uint64_t block[NQ_JG_BLOCK], total = 0;
    for (unsigned c = 0; c < (west_stored ? 3u : 1u); c++) {
        unsigned count = 0;
        for (size_t j = 0; j < stored->count; j++) {
            if (west_stored && nq_jg_key_class(stored->keys[j]) != c)
                continue;
            block[count++] = stored->keys[j];
            if (count == NQ_JG_BLOCK) {
                total += meet_block(s, block, count, west_stored, items, chunks, meetings);
                count = 0;
            }
        }
        if (count)
            total += meet_block(s, block, count, west_stored, items, chunks, meetings);
    }
    return total * s->weight;
}
