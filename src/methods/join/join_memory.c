/*
 * join_memory.c - what one unit of the join takes in scratch memory, for
 * nq_memory() and the fit of a count into a memory limit (join_plan.c):
 * the key lists, measured up to n = 20 and extrapolated beyond, the
 * piece lists, as long as the quarter table's fullest cell, and without
 * the table the quarters' slots (join_rowset.c); and a scratch's release.
 */
#include "join_memory.h"
#include "join_pass.h"

#include <stdlib.h>

/* Key list capacities (east plus west, in keys) of the fullest split,
 * measured for n = 18, 19 and 20, and the growth per n beyond (the even
 * boards' rate, the larger). Below 18: NQ_JOIN_SMALL_KEYS. */
static const uint64_t nq_join_keys_measured[3] = { 33792u, 20480u, 163840u };
#define NQ_JOIN_KEYS_GROWTH_NUM 13u /* 2.6 per n */
#define NQ_JOIN_KEYS_GROWTH_DEN 5u
/* Scratch per unit besides the key lists and what the engine counts for
 * every thread (128 KiB, which holds the block's 36 KiB): 8 KiB, and two
 * piece lists (three arrays each) as long as the fullest cell of the
 * quarter table or rows_room(n), whichever is more: 946 pieces at n = 20,
 * 2020 at 21, 3571 at 22, 7714 at 23 and 15003 at 24 (measured), about
 * twice as many per n, half as many per n below 20. Below n = 18 a thread's lists stay within 2048 keys (a
 * thread's peak, measured with 16 threads, the thread itself included:
 * 143 KiB at n = 17, 170 KiB at 16). */
#define NQ_JOIN_FIXED_SCRATCH ((uint64_t)8 << 10)
#define NQ_JOIN_CELL_AT_20 1200u
#define NQ_JOIN_SMALL_KEYS 2048u
/* The piece lists also hold a whole row set's pieces when every row set
 * fits NQ_JOIN_ROWS_PIECES: the fullest row set has 408 pieces at n = 15,
 * 1174 at 16, 1660 at 17 and more than NQ_JOIN_ROWS_PIECES from 18 on
 * (counted); these bounds cover them. */
static uint64_t rows_room(unsigned n)
{
    return n >= 18 ? 0u : n >= 16 ? 1660u : 408u;
}

uint64_t nq_join_unit_bytes(unsigned n, size_t batch, int table)
{
    uint64_t keys = NQ_JOIN_SMALL_KEYS, cell, lists;
    if (n < NQ_JOIN_MIN_N)
        return 0;
    if (n >= 18) {
        unsigned base = n > 20 ? 20u : n;
        keys = nq_join_keys_measured[base - 18];
        for (unsigned i = base; i < n; i++)
            keys = keys / NQ_JOIN_KEYS_GROWTH_DEN * NQ_JOIN_KEYS_GROWTH_NUM;
    }
    /* keys of 8 bytes in three arrays (east, west and the sort's spare,
     * which trade places, the spare as long as the longer list): twice
     * the east plus west keys of the fullest split (within 10% of the
     * peak from n = 18 on, docs/performance.md); batched, each array
     * stops at the batch */
    lists = 2 * keys;
    if (lists > 3 * (uint64_t)batch) /* and the passes' counts (join_pass.h) */
        lists = 3 * (uint64_t)batch + sizeof(nq_join_passes) / sizeof(uint64_t);
    cell = n > 20 ? (uint64_t)NQ_JOIN_CELL_AT_20 << (n - 20)
                  : (uint64_t)NQ_JOIN_CELL_AT_20 >> (20 - n);
    if (cell < rows_room(n))
        cell = rows_room(n);
    /* and the bins of the sort (nq_join_scratch_bins): 16 words a bucket,
     * a bucket for every 512 keys of the longer list at most, so at most
     * a 32nd of the lists' bytes */
    return lists * sizeof(uint64_t) + lists * sizeof(uint64_t) / 32 + NQ_JOIN_FIXED_SCRATCH +
           (table ? 6 * (cell + 8) * sizeof(uint64_t) : 0);
}

uint64_t nq_join_unit_memory(unsigned n)
{
    return nq_join_unit_bytes(n, NQ_JOIN_BATCH_KEYS, 1);
}

uint64_t nq_join_rowset_bytes(unsigned n, size_t pieces)
{
    const uint64_t start = (((uint64_t)1 << (n / 2)) + 1u) * sizeof(uint32_t);
    if (!pieces)
        return 0;
    /* NQ_JOIN_ROWSETS slots of `pieces` entries and their cells' starts,
     * and the two piece lists (three arrays each) as long as a quarter's
     * fullest cell, which join_rowset.c keeps within pieces / 16 */
    return NQ_JOIN_ROWSETS * (pieces * sizeof(uint64_t) + start) +
           6 * (pieces / NQ_JOIN_ROWSET_CELL_SHARE + 8) * sizeof(uint64_t);
}

size_t nq_join_rowset_want(unsigned n)
{
    /* the fullest quarter of 300 random splits (join_rowset.c's cut):
     * 12,600 pieces at n = 20, 98,088 at 22, 202,914 at 24, 225,012 at
     * 25, 1.89 million at 26, 1.92 million at 27, 4.10 million at 28;
     * with room for rarer, fuller ones */
    return n <= 20 ? (size_t)1 << 16 : n <= 23 ? (size_t)1 << 18
         : n <= 25 ? (size_t)1 << 19 : n <= 27 ? (size_t)1 << 22 : (size_t)1 << 23;
}

size_t nq_join_rowset_fit(unsigned n, size_t most, uint64_t room)
{
    for (size_t pieces = most; pieces >= NQ_JOIN_MIN_ROWSET_PIECES; pieces /= 2)
        if (nq_join_rowset_bytes(n, pieces) <= room)
            return pieces;
    return 0;
}

void nq_join_scratch_free(nq_join_scratch *s)
{
    free(s->east.keys);
    free(s->west.keys);
    free(s->spare.keys);
    free(s->pieces.top.d1);
    free(s->pieces.top.d2);
    free(s->pieces.top.key);
    free(s->pieces.bottom.d1);
    free(s->pieces.bottom.d2);
    free(s->pieces.bottom.key);
    free(s->mt.block);
    free(s->passes);
    free(s->east_off);
    free(s->west_off);
    free(s->sort_count);
    for (unsigned i = 0; i < NQ_JOIN_ROWSETS; i++)
        nq_join_rowset_free(&s->rowset[i]);
    free(s);
}
