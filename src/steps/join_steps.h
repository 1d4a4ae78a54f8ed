/*
 * join_steps.h - the join's work on one row split in the steps a GPU takes,
 * in plain C that the host compiler builds too. Not public, never
 * installed.
 *
 * Every function here is `static inline` and marked for both sides
 * (NQ_HOST_DEVICE), as sym_steps.h's are: the default tests, with no GPU,
 * run these very steps on the CPU and compare every row split's count
 * with the join's own (tests/unit/test_join_gpu.c), and
 * bench/nq_join_gpu_model prices them in a GPU's issue slots.
 *
 * A row split (see the design note of join_method.c) is counted in three steps,
 * each of which suits a GPU:
 *
 * - Listing. A half's keys come from a plain walk of its h rows and h
 *   columns, by the step walk of sym_steps.h: each step takes the lowest
 *   candidate of the frame on top of a stack of whole frames (the
 *   placed columns, both diagonal masks as board diagonals, the
 *   candidates left), drops that frame when it was its last candidate,
 *   and pushes the child, or, on the half's last row, hands the child
 *   out as a key. One path, no branch but the stores: a step is one node
 *   for every thread of a warp. The CPU lists keys from tables of
 *   quarter-boards instead, which a GPU has no room for; the walk's
 *   nodes are few beside the pairs (bench/nq_join_gpu_model).
 * - Keys. A key is the split's window of the two diagonal masks
 *   (lo1/len1, lo2/len2: the diagonals that both halves reach, worked out
 *   on the host, nq_join_split_gpu()), with the west key's class (how
 *   many of the two long diagonals it holds) in bits 62 and 63. East
 *   keys never hold a long diagonal when the split's keys are classed.
 * - Buckets. Both lists sorted by a few diagonals from the middle of
 *   each direction's window (a stored west list also by class), so that
 *   a stored block meets only the keys of buckets disjoint from its own:
 *   the submasks of its bucket's complement.
 * - Pairs. The disjoint (east, west) pairs, each weighted by its west
 *   key's class, times the split's weight: the join's count of the split.
 *   Bit-sliced as the CPU's kernels are, at a GPU thread's width: a block
 *   of 32 stored keys becomes a table of 32-bit words, one per chunk of 5
 *   key bits and value v of the chunk, whose bit j says that stored key j
 *   shares no bit with v there. An item (a key of the other list) meets
 *   the block in one load and one AND a chunk and a popcount: 32 pairs.
 *   A chunk has 32 values so that a warp can share one block's table (a
 *   kilobyte or so) and meet 32 different items at once: whatever the
 *   items, the 32 words a chunk's loads read lie in 32 different banks
 *   of shared memory, or are the same word.
 */
#ifndef NQ_JOIN_STEPS_H
#define NQ_JOIN_STEPS_H

#include <stdint.h>

#include "sym_steps.h" /* NQ_HOST_DEVICE, nq_symw_popcount */

/* Columns of a half: h <= NQ_MAX_N / 2. */
#define NQ_JG_MAX_H 14u
/* Key bits a chunk of a block's table, its values (as many as a warp's
 * lanes and shared memory's banks), most chunks (keys are at most 54
 * bits), and keys a block. */
#define NQ_JG_CHUNK_BITS 5u
#define NQ_JG_CHUNK_VALUES (1u << NQ_JG_CHUNK_BITS)
#define NQ_JG_MAX_CHUNKS 11u
#define NQ_JG_BLOCK 32u
/* Most blocks a group (what a warp shares). */
#define NQ_JG_MAX_BLOCKS 4u
/* Most bucket bits a split's lists are sorted by. */
#define NQ_JG_MAX_BUCKET_BITS 14u
/* Where a west key's class goes. */
#define NQ_JG_CLASS_SHIFT 62u
#define NQ_JG_KEY_BITS 54u

/* One row split, as the GPU counts it. Half 0 is the east half (the last
 * h columns), half 1 the west (the first h); a diagonal is a bit of a
 * board mask: r + c (direction 1), c - r + n - 1 (direction 2). Besides
 * what defines the split, the tables of its walks, per half and level L
 * (the half's L-th row from the top), worked out on the host: read by
 * every thread that walks the split, one word a step (a GPU's threads
 * walk many splits at once, and each load is one more trip to memory).
 * 176 bytes. */
typedef struct nq_jg_split {
    uint64_t bar1[2], bar2[2]; /* per half: diagonals no queen may take */
    uint32_t rows[2];          /* per half: its board rows */
    uint32_t class1, class2;   /* the long diagonals' bits in a key's two
                                  halves (k1, k2 of nq_jg_frame) when the
                                  west keys are classed, else 0 */
    uint8_t n, h;
    uint8_t lo1, len1, lo2, len2; /* the key window: len1 + len2 <= 54 */
    uint8_t weight;            /* the orbit's images this split stands for */
    uint8_t class_weight[3];   /* a pair's weight by its west key's class;
                                  0 for a class: such keys are not listed */
    uint16_t barred0[2];       /* per half: the columns barred on level 0 */
    /* per half and level L < h, a step from L to L + 1 (nq_jg_step_word):
     * the rows from this level's to the next (0 on the last); where a
     * queen's column bit goes in k1 and k2 (it is shifted up 32 bits,
     * then down by these); the columns barred on level L + 1 (on level
     * h: all, so that the last level has no children) */
    uint32_t step[2][NQ_JG_MAX_H];
} nq_jg_split;

/* The fields of a step word: bits 0-4 the gap, 5-10 and 11-16 the shifts
 * to k1 and k2, 17-30 the columns barred on the next level; bit 31 0. */
#define NQ_JG_STEP_TO1 5u
#define NQ_JG_STEP_TO2 11u
#define NQ_JG_STEP_BARRED 17u

NQ_HOST_DEVICE uint32_t nq_jg_step_word(unsigned gap, unsigned to1, unsigned to2,
                                        uint32_t barred_next)
{
    return (gap & 31u) | (to1 & 63u) << NQ_JG_STEP_TO1 | (to2 & 63u) << NQ_JG_STEP_TO2 |
           (barred_next & 0x3fffu) << NQ_JG_STEP_BARRED;
}

/* A west key's class: how many of the two long diagonals (index n - 1 in
 * each direction) the board masks d1, d2 hold when the split's keys are
 * classed (class_weight not all 1), else 0. */
NQ_HOST_DEVICE unsigned nq_jg_class(const nq_jg_split *s, uint64_t d1, uint64_t d2)
{
    if (!s->class1)
        return 0;
    return (unsigned)(d1 >> (s->n - 1u) & 1u) + (unsigned)(d2 >> (s->n - 1u) & 1u);
}

/* The key of the board masks d1, d2 (queens only) in the split's window. */
NQ_HOST_DEVICE uint64_t nq_jg_key(const nq_jg_split *s, uint64_t d1, uint64_t d2)
{
    const uint64_t m1 = (1ull << s->len1) - 1u, m2 = (1ull << s->len2) - 1u;
    return (d1 >> s->lo1 & m1) | (d2 >> s->lo2 & m2) << s->len1;
}

NQ_HOST_DEVICE unsigned nq_jg_key_class(uint64_t key)
{
    return (unsigned)(key >> NQ_JG_CLASS_SHIFT);
}

/* ------------------------------------------------------------------------
 * Listing a half: the step walk
 * ------------------------------------------------------------------------ */

/* A node of a half's walk with candidates left: 24 bytes. Its level (the
 * queens placed) is the bits of cols. The diagonals are kept as the
 * sym_steps.h walks keep them, seen from the node's row: ld and rd have
 * bit j set when column j of the row is on a taken diagonal, and move by
 * the gap to the next row (a bit that leaves the 32 never comes back into
 * the half's columns). The key is gathered apart, one window a direction:
 * k1 and k2 hold the queens' diagonals at their key bits (bits past the
 * window are dropped when the key is made). */
typedef struct nq_jg_frame {
    uint32_t cols, free, ld, rd, k1, k2;
} nq_jg_frame;

/* Where one half's walk stands: the frames on its stack, and its half. */
typedef struct nq_jg_walk {
    unsigned top;
    unsigned half;
} nq_jg_walk;

/* Starts the walk of half `half` (0 east, 1 west) of split s on a stack
 * with room for s->h frames (the walk holds at most one a level). */
NQ_HOST_DEVICE void nq_jg_start(nq_jg_walk *w, const nq_jg_split *s, unsigned half,
                                nq_jg_frame *frames)
{
    nq_jg_frame f;
    w->half = half;
    f.cols = f.ld = f.rd = f.k1 = f.k2 = 0;
    f.free = ((1u << s->h) - 1u) & ~(uint32_t)s->barred0[half];
    frames[0] = f;
    w->top = f.free != 0;
}

/* One node: the lowest candidate of the top frame placed. Returns 1 and
 * sets *key when that completes the half into a key the split lists, else
 * 0. The walk is over when w->top is 0; never called then. The child's
 * key and its candidates are both worked out, whichever it needs, so
 * that the threads of a warp take one path. */
NQ_HOST_DEVICE int nq_jg_step(nq_jg_walk *w, const nq_jg_split *s, nq_jg_frame *frames,
                              unsigned stride, uint64_t *key)
{
    nq_jg_frame *f = frames + (w->top - 1u) * stride;
    const nq_jg_frame at = *f;
    const unsigned half = w->half, level = nq_symw_popcount(at.cols);
    const uint32_t bit = at.free & (0u - at.free);
    const uint32_t left = at.free ^ bit;
    const uint64_t up = (uint64_t)bit << 32;
    const uint32_t m1 = (1u << s->len1) - 1u, m2 = (1u << s->len2) - 1u;
    const uint32_t t = s->step[half][level];
    const unsigned gap = t & 31u;
    unsigned cls;
    nq_jg_frame c;
    c.cols = at.cols | bit;
    c.ld = (at.ld | bit) >> gap;
    c.rd = (at.rd | bit) << gap;
    c.k1 = at.k1 | (uint32_t)(up >> (t >> NQ_JG_STEP_TO1 & 63u));
    c.k2 = at.k2 | (uint32_t)(up >> (t >> NQ_JG_STEP_TO2 & 63u));
    c.free = ((1u << s->h) - 1u) & ~(c.cols | c.ld | c.rd | t >> NQ_JG_STEP_BARRED);
    f->free = left;
    w->top -= left == 0;
    if (c.free) {
        frames[w->top * stride] = c;
        w->top++;
    }
    cls = half ? (unsigned)((c.k1 & s->class1) != 0) + (unsigned)((c.k2 & s->class2) != 0) : 0u;
    *key = (c.k1 & m1) | (uint64_t)(c.k2 & m2) << s->len1 | (uint64_t)cls << NQ_JG_CLASS_SHIFT;
    return level + 1u == s->h && (!half || s->class_weight[cls] != 0);
}

/* ------------------------------------------------------------------------
 * A half's walk in parts
 * ------------------------------------------------------------------------ */

/* A half's walk is cut into h x h parts (at most 196), part p the
 * subtree under the (p mod h)-th candidate of its first row and the
 * (p div h)-th of its second (in increasing columns): a GPU lists a
 * batch's halves a part a thread, hundreds of threads a half, where a
 * thread a half would leave most of a GPU idle when the keys of only a
 * few hundred splits fit its memory at once. Parts past a row's
 * candidates are empty; together the parts list each key once. */
NQ_HOST_DEVICE unsigned nq_jg_parts(const nq_jg_split *s)
{
    return (unsigned)s->h * s->h;
}

/* The frames a part's walk holds at most: its first two rows' queens are
 * placed when it starts, and each frame after is one of the levels 2 to
 * h - 1 (a key's level h is never pushed): h - 2, and the one it starts
 * from where h is 2. A GPU sizes its shared memory by it. */
NQ_HOST_DEVICE unsigned nq_jg_part_frames(unsigned h)
{
    return h > 2u ? h - 2u : 1u;
}

/* The set bit of x of rank `rank` (0: the lowest), or 0 if x has fewer. */
NQ_HOST_DEVICE uint32_t nq_jg_nth_bit(uint32_t x, unsigned rank)
{
    for (unsigned i = 0; i < rank; i++)
        x &= x - 1u;
    return x & (0u - x);
}

/* Starts the walk of part `part` (< nq_jg_parts(s), or past it: empty)
 * of half `half` of split s: the first row's queen placed (its frame
 * gone), the second row's frame on the stack with its one candidate. */
NQ_HOST_DEVICE void nq_jg_start_part(nq_jg_walk *w, const nq_jg_split *s, unsigned half,
                                     nq_jg_frame *frames, unsigned stride, unsigned part)
{
    uint64_t key;
    nq_jg_start(w, s, half, frames);
    frames[0].free = nq_jg_nth_bit(frames[0].free, part % s->h);
    w->top = frames[0].free != 0 && part / s->h < s->h;
    if (w->top)
        (void)nq_jg_step(w, s, frames, stride, &key); /* h >= 2: not a key yet */
    if (w->top) {
        frames[0].free = nq_jg_nth_bit(frames[0].free, part / s->h);
        w->top = frames[0].free != 0;
    }
}

/* ------------------------------------------------------------------------
 * Pairs: a block of 32 stored keys, bit-sliced
 * ------------------------------------------------------------------------ */

/* Chunks of a key of `bits` bits (at least one). */
NQ_HOST_DEVICE unsigned nq_jg_chunks(unsigned bits)
{
    return bits ? (bits + NQ_JG_CHUNK_BITS - 1u) / NQ_JG_CHUNK_BITS : 1u;
}

/* Fills the table of a block of keys[0 .. count), count <= 32, chunks
 * chunks: word table[c * stride * 32 + v * stride] has bit j set when
 * key j has no bit of v in chunk c: the AND, over the bits of v, of the
 * keys without that bit (the loops over a chunk's bits have a fixed
 * count, so that a GPU keeps `without` in registers). */
NQ_HOST_DEVICE void nq_jg_fill(uint32_t *table, unsigned stride, const uint64_t *keys,
                               unsigned count, unsigned chunks)
{
    const uint32_t all = count >= 32u ? 0xffffffffu : (1u << count) - 1u;
    for (unsigned c = 0; c < chunks; c++) {
        uint32_t *t = table + (uint64_t)c * NQ_JG_CHUNK_VALUES * stride;
        uint32_t without[NQ_JG_CHUNK_BITS];
        for (unsigned b = 0; b < NQ_JG_CHUNK_BITS; b++)
            without[b] = all;
        for (unsigned j = 0; j < count; j++) {
            const unsigned v = (unsigned)(keys[j] >> (c * NQ_JG_CHUNK_BITS)) &
                               (NQ_JG_CHUNK_VALUES - 1u);
            for (unsigned b = 0; b < NQ_JG_CHUNK_BITS; b++)
                without[b] &= v >> b & 1u ? ~(1u << j) : 0xffffffffu;
        }
        for (unsigned v = 0; v < NQ_JG_CHUNK_VALUES; v++) {
            uint32_t w = all;
            for (unsigned b = 0; b < NQ_JG_CHUNK_BITS; b++)
                w &= v >> b & 1u ? without[b] : 0xffffffffu;
            t[v * stride] = w;
        }
    }
}

/* The stored keys of the block that share no bit with item. */
NQ_HOST_DEVICE unsigned nq_jg_match(const uint32_t *table, unsigned stride, uint64_t item,
                                    unsigned chunks)
{
    uint32_t w = 0xffffffffu;
    for (unsigned c = 0; c < chunks; c++)
        w &= table[((uint64_t)c * NQ_JG_CHUNK_VALUES +
                    (item >> (c * NQ_JG_CHUNK_BITS) & (NQ_JG_CHUNK_VALUES - 1u))) *
                   stride];
    return nq_symw_popcount(w);
}

/* ------------------------------------------------------------------------
 * Buckets
 * ------------------------------------------------------------------------ */

/* A key's bucket: run1 bits from bit cut1 of the key (direction 1's
 * window), then run2 bits from cut2 (direction 2's). */
typedef struct nq_jg_buckets {
    unsigned cut1, run1, cut2, run2;
} nq_jg_buckets;

/* `bits` bucket bits (at most NQ_JG_MAX_BUCKET_BITS; fewer when the
 * windows are shorter), half from the middle of each window. */
NQ_HOST_DEVICE nq_jg_buckets nq_jg_bucket_bits(const nq_jg_split *s, unsigned bits)
{
    nq_jg_buckets b;
    if (bits > NQ_JG_MAX_BUCKET_BITS)
        bits = NQ_JG_MAX_BUCKET_BITS;
    b.run1 = bits / 2u < s->len1 ? bits / 2u : s->len1;
    b.run2 = bits - b.run1 < s->len2 ? bits - b.run1 : s->len2;
    b.cut1 = (s->len1 - b.run1) / 2u;
    b.cut2 = s->len1 + (s->len2 - b.run2) / 2u;
    return b;
}

/* The bucket bits for a stored list of `longer` keys kept in groups of
 * `group` keys: as many as leave a group or less a bucket on average. */
NQ_HOST_DEVICE unsigned nq_jg_pick_bits(uint64_t longer, unsigned group)
{
    unsigned bits = 0;
    while (bits < NQ_JG_MAX_BUCKET_BITS && longer > ((uint64_t)group << bits))
        bits++;
    return bits;
}

NQ_HOST_DEVICE unsigned nq_jg_bucket(const nq_jg_buckets *b, uint64_t key)
{
    return (unsigned)(key >> b->cut1 & ((1ull << b->run1) - 1u)) |
           (unsigned)(key >> b->cut2 & ((1ull << b->run2) - 1u)) << b->run1;
}

#endif /* NQ_JOIN_STEPS_H */
