/*
 * join_internal.h - what the join method's files share, and nothing else
 * includes (the tests excepted). Not public, never installed.
 *
 * The files, in layers: each calls only files listed below it, never one
 * above it or beside it (the test `layers` reads this list and checks the
 * objects against it):
 *   join.c          the method's face: the design note and the row;
 *   join_cost.c     the cost model of nq_estimate(): splits sampled,
 *                   profiled through join_plan.c, and priced;
 *   join_check.c    a unit counted again by a plain walk of whole boards
 *                   restricted to its row splits (nq_recheck());
 *   join_gpu.c      a split counted on the host by the GPU's steps
 *                   (join_gpu.h, join_gpu_host.h): for tests and models;
 *                   and units counted on a GPU (device.h);
 *   join_plan.c     the plan, its unit list, its shared table and order,
 *                   its scratch pool, a unit solved, a split profiled,
 *                   and the fit of a count into a memory limit;
 *   join_memory.c   what a unit's scratch takes, and its release;
 *   join_order.c    the order of the units from n = 24 on, heaviest first;
 *   join_split.c    one row split: both halves' keys, the sieve, the match;
 *   join_profile.c  the hooks that a profiled split calls, and the probes;
 *   join_rowset.c   a half's keys from its two quarters listed for the
 *                   split at hand (when there is no table);
 *   join_quarter.c  the table of quarter-board pieces, and a half's keys
 *                   from it;
 *   join_keys.c     the growing key list, a half's keys by a plain walk
 *                   (when a quarter would not fit its slot), and the plain
 *                   walk of whole boards below NQ_JOIN_MIN_N;
 *   join_sieve.c    squeezing and bucketing keys (and the scratch's room
 *                   for the buckets), and matching buckets;
 *   join_kernel.c   the kernels' table, one row per SIMD level
 *                   (join_kernel.h);
 *   join_avx512.c   the kernels of each level;
 *   join_avx2.c
 *   join_scalar.c
 */
#ifndef NQ_JOIN_INTERNAL_H
#define NQ_JOIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "join.h"

/* C(n, k); 0 when k > n. */
static inline uint64_t nq_join_binomial(unsigned n, unsigned k)
{
    uint64_t r = 1;
    if (k > n)
        return 0;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i; /* exact: r * (n-k+i) is C(n-k+i, i) * i */
    return r;
}

/* The k-subset of {0..} of colexicographic rank `rank`, as a bit mask. */
static inline uint32_t nq_join_unrank(uint64_t rank, unsigned k)
{
    uint32_t set = 0;
    for (unsigned i = k; i >= 1; i--) {
        unsigned c = i - 1;
        while (nq_join_binomial(c + 1, i) <= rank)
            c++;
        rank -= nq_join_binomial(c, i);
        set |= 1u << c;
    }
    return set;
}

/* Row sets of the split numbering (join_split.c, join_order.c): the next
 * set of the same size in colexicographic order (Gosper); the bits of a
 * set over n - 1 rows moved to n rows with row m left out; the n low bits
 * in reverse order (the board flipped top to bottom). */
static inline uint32_t nq_join_next_subset(uint32_t s)
{
    const uint32_t low = s & (0u - s), ripple = s + low;
    return ripple | (((s ^ ripple) >> 2) / low);
}

static inline uint32_t nq_join_stretch(uint32_t s, unsigned m)
{
    const uint32_t below = (1u << m) - 1u;
    return (s & below) | ((s & ~below) << 1);
}

static inline uint32_t nq_join_reverse_rows(uint32_t s, unsigned n) /* 1..32 */
{
    s = (s >> 1 & 0x55555555u) | (s & 0x55555555u) << 1;
    s = (s >> 2 & 0x33333333u) | (s & 0x33333333u) << 2;
    s = (s >> 4 & 0x0F0F0F0Fu) | (s & 0x0F0F0F0Fu) << 4;
    s = (s >> 8 & 0x00FF00FFu) | (s & 0x00FF00FFu) << 8;
    s = s >> 16 | s << 16;
    return s >> (32 - n);
}

typedef struct nq_join_kernel nq_join_kernel;

/* ------------------------------------------------------------------------
 * Keys (join_keys.c)
 * ------------------------------------------------------------------------ */

/* A growing list of half-board keys. */
typedef struct nq_join_keys {
    uint64_t *keys;
    size_t count, cap;
} nq_join_keys;

/* Makes room for `more` keys after the first count. @return NQ_OK, NQ_ENOMEM. */
int nq_join_keys_reserve(nq_join_keys *k, size_t more);

/* ------------------------------------------------------------------------
 * The sieve's layout of a key (join_sieve.c)
 * ------------------------------------------------------------------------ */

/* Most bucket bits, and classes of keys (none, one or both long
 * diagonals). A split's lists pick fewer bits the shorter they are
 * (join_split.c): ten are reached by lists of half a million keys, from
 * about n = 22 on, thirteen by batches of four million (n = 26 on). */
#define NQ_JOIN_MAX_CUTS 13u
#define NQ_JOIN_MAX_BUCKETS (1u << NQ_JOIN_MAX_CUTS)
#define NQ_JOIN_MAX_CLASSES 3u

/* How a split's keys are squeezed and bucketed. */
typedef struct nq_join_sieve {
    uint8_t hole[64];     /* key bits removed, highest first */
    unsigned nholes;
    unsigned class1, class2; /* key bits (before removal) that class a key */
    uint64_t has_class;   /* 1 when keys are classed, else 0 */
    unsigned bits;        /* key bits left */
    unsigned left1;       /* of which of direction 1 */
    unsigned cut1, run1;  /* bucket bits: run1 bits from cut1 of the */
    unsigned cut2, run2;  /* squeezed key, then run2 bits from cut2 */
    unsigned buckets;     /* 1 << (run1 + run2) */
} nq_join_sieve;

/* The set bits of x, without the runtime call that a build for the x86-64
 * baseline (no POPCNT) makes of __builtin_popcount. */
static inline unsigned nq_join_bits32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* The free columns of row r of a rows x cols quarter (d1 bit r + c, d2
 * bit c + rows - 1 - r), besides col_set and the diagonals d1, d2. */
static inline uint32_t nq_join_free_squares(unsigned rows, unsigned cols, unsigned r,
                                            uint32_t col_set, uint32_t d1, uint32_t d2)
{
    return ((1u << cols) - 1u) & ~col_set & ~(d1 >> r) & ~(d2 >> (rows - 1 - r));
}

/* Where a key's class flags go: bits 62 and 63. */
#define NQ_JOIN_CLASS_SHIFT 62u

/* A key's class: how many of the two class flags it holds (0 to 2). */
static inline unsigned nq_join_key_class(uint64_t x)
{
    return (unsigned)(x >> NQ_JOIN_CLASS_SHIFT & 1u) + (unsigned)(x >> (NQ_JOIN_CLASS_SHIFT + 1));
}

/* The bucket of a squeezed key y: its run1 bits from cut1 and run2 bits
 * from cut2 (nq_join_sieve_cuts). */
static inline unsigned nq_join_bucket(const nq_join_sieve *sv, uint64_t y)
{
    return (unsigned)((y >> sv->cut1) & ((1ull << sv->run1) - 1u)) |
           (unsigned)((y >> sv->cut2) & ((1ull << sv->run2) - 1u)) << sv->run1;
}

/* The key without the holes of sv, with its class flags (whether it holds
 * each class bit) in bits 62 and 63. Linear: the squeeze of a | b is the
 * OR of the squeezes, so it is done per piece rather than per key. */
static inline uint64_t nq_join_squeeze(const nq_join_sieve *sv, uint64_t x)
{
    uint64_t flags = ((x >> sv->class1 & sv->has_class) |
                      (x >> sv->class2 & sv->has_class) << 1) << NQ_JOIN_CLASS_SHIFT;
    for (unsigned i = 0; i < sv->nholes; i++) {
        const uint64_t below = (1ull << sv->hole[i]) - 1u;
        x = (x & below) | ((x >> 1) & ~below);
    }
    return x | flags;
}

/* ------------------------------------------------------------------------
 * Half-boards
 * ------------------------------------------------------------------------ */

/* Where a half-board lies: columns c0 .. c0 + h - 1 of an n board; keys
 * hold board diagonals lo1 .. lo1 + len1 - 1 of direction r + c in bits
 * 0 .. len1 - 1, then lo2 .. lo2 + len2 - 1 of direction c - r + n - 1
 * (len1 + len2 <= 54), squeezed; no queen may stand on the diagonals in
 * bar1, bar2. */
typedef struct nq_join_half {
    unsigned n, c0, lo1, len1, lo2, len2;
    uint64_t bar1, bar2;
    uint64_t need;              /* class flags (of the squeezed key) one of
                                   which every listed key holds; 0: none
                                   asked. Keys whose pairs the split does
                                   not count are not listed. */
    const nq_join_sieve *sieve; /* keys are squeezed by it */
} nq_join_half;

/* Where the listing of a half's keys in batches stands: zeroed, it starts
 * at the first key; `done` is set once the last one was listed. A batch
 * holds at most `cap` keys (more only when a step of the listing cannot
 * be split: the pieces that one quarter piece meets), and the batches of
 * one listing are the whole list, in order, each key once. */
typedef struct nq_join_cursor {
    int started, done;
    int walk;            /* the quarters were not listed: walked */
    uint32_t c;          /* table: the column set of the top piece */
    size_t i;            /* table: the next piece of the outer list */
    unsigned depth;      /* walk: the row being placed, and per row: */
    uint32_t cols[NQ_MAX_N / 2], free[NQ_MAX_N / 2];
    uint64_t d1[NQ_MAX_N / 2], d2[NQ_MAX_N / 2];
} nq_join_cursor;

/* Solutions of an n board (n < NQ_JOIN_MIN_N: one unit) by a plain walk
 * from row `row` (join_keys.c). */
uint64_t nq_join_small_count(unsigned n, unsigned row, uint32_t cols, uint32_t ld,
                             uint32_t rd);

/* Lists into *out (from its start) the next batch of at most `cap` keys
 * of the placements of the half g on `rows` (board rows, a bit each) by
 * a backtracking walk (join_keys.c), from where *cur stands.
 * @return NQ_OK, NQ_ENOMEM. */
int nq_join_walk_keys(nq_join_keys *out, const nq_join_half *g, uint32_t rows,
                      nq_join_cursor *cur, size_t cap);

/* The placements of non-attacking queens on a rows x cols board, filed by
 * (row set, column set): cell (R, C) is entry[start[i] .. start[i + 1]),
 * i = R << cols | C; an entry holds the diagonals r + c in its low 32 bits
 * and c - r + rows - 1 in its high 32 bits. See join_quarter.c. */
typedef struct nq_join_quarter {
    unsigned rows, cols;
    uint32_t *start;
    uint64_t *entry;
    size_t count;
    uint32_t largest; /* entries of the fullest cell */
    uint32_t largest_rows; /* entries of the fullest row set (its cells) */
} nq_join_quarter;

/* Builds the table, unless it would take more than max_bytes; polls *stop
 * (may be NULL) every few milliseconds.
 * @return NQ_OK, NQ_ENOMEM (too large, or out of memory), NQ_ECANCELED. */
int nq_join_quarter_build(nq_join_quarter *q, unsigned rows, unsigned cols,
                          uint64_t max_bytes, const nq_stop_flag *stop);
void nq_join_quarter_free(nq_join_quarter *q);

/* The same build in its steps, so that several threads can share it:
 * begin; every part counted (any order, several threads at once: the
 * parts file disjoint cells); index; every part filled (likewise); end.
 * A step that fails leaves the table to nq_join_quarter_free(). Each
 * returns what nq_join_quarter_build() returns (counts and fills:
 * NQ_OK or NQ_ECANCELED). */
int nq_join_quarter_begin(nq_join_quarter *q, unsigned rows, unsigned cols,
                          uint64_t max_bytes);
unsigned nq_join_quarter_parts(const nq_join_quarter *q);
int nq_join_quarter_count_part(nq_join_quarter *q, unsigned part,
                               const nq_stop_flag *stop);
int nq_join_quarter_index(nq_join_quarter *q, uint64_t max_bytes);
int nq_join_quarter_fill_part(nq_join_quarter *q, unsigned part,
                              const nq_stop_flag *stop);
void nq_join_quarter_end(nq_join_quarter *q);

/* The bytes nq_join_quarter_build() would take for a rows x cols table,
 * counted by a walk that stops once they pass `cap`; UINT64_MAX when they
 * pass cap, or more entries than the index addresses. */
uint64_t nq_join_quarter_bytes(unsigned rows, unsigned cols, uint64_t cap);

/* Pieces of one cell that a half can use: their two diagonal masks in
 * the half's frames, and their share of the key. */
typedef struct nq_join_piece_list {
    uint64_t *d1, *d2, *key;
} nq_join_piece_list;

/* nq_join_half_keys takes a row set's pieces in one go when every row
 * set of the table has at most this many (its scratch lists then hold
 * as many): up to n = 17 (1,660 pieces at most). Beyond, row sets are
 * taken cell by cell, and the lists stay as short as the fullest cell:
 * lists of 2,048 pieces at n = 18 (99 KiB a thread) made whole counts
 * 1.7 times slower in most runs, not in all. */
#define NQ_JOIN_ROWS_PIECES 2048u

/* Scratch of nq_join_half_keys: two lists with room for `room` + 8
 * pieces each, `room` at least the table's fullest cell. */
typedef struct nq_join_pieces {
    nq_join_piece_list top, bottom;
    size_t room;
} nq_join_pieces;

/* Marks of the pieces that a whole row set's take keeps although the
 * bars forbid them (d1 bits above every frame's, which stay below bit 42
 * at n = 28, and so above every key share's mask): each top piece holds TOP, each bottom piece BOTTOM, and a
 * forbidden top piece BOTTOM too, a forbidden bottom piece TOP, so that a
 * pair with a forbidden piece always clashes. */
#define NQ_JOIN_MARK_TOP (1ull << 62)
#define NQ_JOIN_MARK_BOTTOM (1ull << 63)
/* The mark of a piece whose key share holds no flag of the frame's
 * `need`: two such pieces never pair, so every key listed holds one. */
#define NQ_JOIN_MARK_PLAIN (1ull << 61)

/* How the pieces of a cell become a half's pieces: diagonal masks moved
 * into the half's frames, those on barred diagonals dropped (or, with
 * `keep`, kept and marked: d1 gets `own`, and `other` too if barred), the
 * key share cut from the frames and squeezed; a piece whose share holds
 * no flag of `need` (when not 0) gets NQ_JOIN_MARK_PLAIN in d1. */
typedef struct nq_join_frame {
    unsigned shift1, shift2;  /* d1 <<= shift1, d2 <<= shift2 */
    uint64_t bar1, bar2;
    unsigned s1, s2, len1;    /* key: d1 >> s1 & mask1 | (d2 >> s2 & mask2) << len1 */
    uint64_t mask1, mask2;
    int keep;
    uint64_t own, other, need;
    const nq_join_sieve *sieve;
} nq_join_frame;

/* Lists into *out (from its start) the next batch of at most `cap` keys
 * (see nq_join_cursor) of the placements of the half g on `rows` (board
 * rows), from the table q (q->rows rows above the cut, the same number or
 * one less below it), with the kernels k (of a level the CPU has), from
 * where *cur stands. @return NQ_OK, NQ_ENOMEM. */
int nq_join_half_keys(nq_join_keys *out, nq_join_pieces *scratch,
                      const nq_join_quarter *q, const nq_join_half *g,
                      uint32_t rows, const nq_join_kernel *k,
                      nq_join_cursor *cur, size_t cap);

/* One quarter's pieces, filed by column set: cell c (c < 2^h) is
 * entry[start[c] .. start[c + 1]), entries as the table's. */
typedef struct nq_join_cells {
    const uint32_t *start;
    const uint64_t *entry;
} nq_join_cells;

/* A half cut into a top quarter of k queens and a bottom one of h - k,
 * with where each quarter's pieces move to meet: d1 by shift1, d2 by
 * shift2, the pair's d1 at board index + c0 and its d2 at board index +
 * base2 (nq_join_half_keys() for the table, join_rowset.c for pieces
 * listed per row set). */
typedef struct nq_join_cut {
    nq_join_cells top, bottom;
    unsigned k, h, top_shift1, top_shift2, bottom_shift1, bottom_shift2;
    int base2;
} nq_join_cut;

/* nq_join_half_keys() from the pieces of a cut. */
int nq_join_cut_keys(nq_join_keys *out, nq_join_pieces *scratch, const nq_join_cut *cut,
                     const nq_join_half *g, const nq_join_kernel *k,
                     nq_join_cursor *cur, size_t cap);

/* ------------------------------------------------------------------------
 * Quarters listed per row set, without the table (join_rowset.c)
 * ------------------------------------------------------------------------ */

/* One quarter's pieces (a queen on each of its rows), filed by column
 * set; kept by a unit's scratch until a split needs other rows. */
typedef struct nq_join_rowset {
    uint64_t id;        /* the rows and height it holds; 0: none */
    uint32_t *start;    /* 2^h + 1 */
    uint64_t *entry;
    size_t count, cap;
    uint32_t largest;   /* pieces of its fullest cell */
} nq_join_rowset;

/* Slots of a scratch: the two quarters of each half. */
#define NQ_JOIN_ROWSETS 4u
#define NQ_JOIN_MIN_ROWSET_PIECES ((size_t)1 << 16)
/* A quarter whose fullest cell holds more than 1 / this of a slot is
 * walked too, so that the piece lists stay within a known size. */
#define NQ_JOIN_ROWSET_CELL_SHARE 16u

/* Lists the keys of half g on board rows `rows` as nq_join_half_keys()
 * does, from quarters listed into the scratch's slots `slot` (two of
 * them, kept for the next split) when each has at most max_pieces
 * pieces; *walk is set (nothing listed) when one has more. @return NQ_OK, NQ_ENOMEM. */
int nq_join_rowset_keys(nq_join_keys *out, nq_join_pieces *scratch, nq_join_rowset *slot,
                        size_t max_pieces, const nq_join_half *g, uint32_t rows,
                        const nq_join_kernel *k, nq_join_cursor *cur, size_t cap,
                        int *walk);
void nq_join_rowset_free(nq_join_rowset *rs);
/* Makes scratch lists hold `room` + 8 pieces. @return NQ_OK, NQ_ENOMEM. */
int nq_join_pieces_reserve(nq_join_pieces *p, size_t room);

/* ------------------------------------------------------------------------
 * Blocks of stored keys, bit-sliced (filled and matched by the kernels)
 * ------------------------------------------------------------------------ */

/* Patterns per block of the bit-sliced table: 8 words of 64 bits. */
#define NQ_JOIN_BLOCK 512u
#define NQ_JOIN_WORDS (NQ_JOIN_BLOCK / 64u)
/* Key bits per table chunk, and table entries per chunk. */
#define NQ_JOIN_CHUNK_BITS 6u
#define NQ_JOIN_CHUNK_SIZE (1u << NQ_JOIN_CHUNK_BITS)
/* Keys are at most 54 bits (n = 28): 9 chunks. */
#define NQ_JOIN_MAX_CHUNKS 9u

/* One block of stored patterns, bit-sliced: entry [c][v] has bit i of
 * word w set when pattern 64 w + i of the block shares no bit with v placed
 * at chunk c (v << NQ_JOIN_CHUNK_BITS * c), and exists. */
typedef struct nq_join_block {
    /* on 64 bytes (a row), so that its size is a multiple of the
     * alignment that aligned_alloc() is given */
    _Alignas(64) uint64_t mask[NQ_JOIN_MAX_CHUNKS][NQ_JOIN_CHUNK_SIZE][NQ_JOIN_WORDS];
    unsigned words; /* words of each row that hold keys: (count + 63) / 64.
                       When it is 4 or less, the AVX2 and AVX-512 fills
                       leave words 4 to 7 of every row as they were, and
                       their matches leave them out; the portable fill
                       writes every word (0 past the keys), and the
                       portable match, which reads them all, is only ever
                       given its own fill's blocks. */
} nq_join_block;
_Static_assert(sizeof(nq_join_block) % 64 == 0, "aligned_alloc(64) needs a multiple of 64");

/* Fills *block from up to NQ_JOIN_BLOCK keys (count of them), with chunks
 * chunks. */
typedef void (*nq_join_fill_fn)(nq_join_block *block, const uint64_t *keys,
                                size_t count, unsigned chunks);

/* The number of pairs (block pattern, item) whose keys share no bit, over
 * items[0..count), each item's pairs weighted: shifted left by
 * (shifts >> 2 f) & 3, f being the item's class flags (bits 62 and 63,
 * which no chunk reads). shifts 0: every pair counts once. */
typedef uint64_t (*nq_join_match_fn)(const nq_join_block *block,
                                     unsigned chunks, const uint64_t *items,
                                     size_t count, unsigned shifts);

/* The shift of an item's pairs (see nq_join_match_fn). */
static inline unsigned nq_join_item_shift(unsigned shifts, uint64_t x)
{
    return shifts >> (2u * (unsigned)(x >> NQ_JOIN_CLASS_SHIFT)) & 3u;
}

/* ------------------------------------------------------------------------
 * Sorting and matching (join_sieve.c)
 * ------------------------------------------------------------------------ */

/* Sets the holes of *sv: keys of len1 + len2 bits whose bits `holes` no
 * pair can clash on, and the key bits `class_bits` (two, or 0 for none)
 * that class a west key. */
void nq_join_sieve_holes(nq_join_sieve *sv, uint64_t holes, uint64_t class_bits,
                         unsigned len1, unsigned len2);

/* Sets `cuts` (<= NQ_JOIN_MAX_CUTS) bucket bits near the middle of each
 * direction's bits of the squeezed keys (fewer when the key is shorter). */
void nq_join_sieve_cuts(nq_join_sieve *sv, unsigned cuts);

/* Sorts squeezed keys (nq_join_squeeze) by (class, bucket), the class
 * being how many class flags a key holds when `classes` is 3 (with 1, all
 * keys are of class 0), and clears the flags. The sorted keys end in
 * keys->keys; tmp (room for keys->count) gets the old array.
 * off[c * buckets + b] is where bin (c, b) starts, off[classes * buckets]
 * the end; `count`: room for NQ_JOIN_SORT_STREAMS counters a bin. */
void nq_join_sieve_sort(const nq_join_sieve *sv, nq_join_keys *keys,
                        nq_join_keys *tmp, unsigned classes, size_t *off, size_t *count);
/* `count` has room for this many counters per bin (classes x buckets). */
#define NQ_JOIN_SORT_STREAMS 4u

/* What counts pairs against one block (fill_items: the cost model's
 * weight of a fill, nq_join_fill_items_of()). */
typedef struct nq_join_matcher {
    nq_join_block *block;
    nq_join_fill_fn fill;
    nq_join_match_fn match;
    unsigned chunks;
    double fill_items;
    const nq_stop_flag *stop;
} nq_join_matcher;

/* Adds to *out the pairs of mt's filled block with items[0 .. count),
 * weighted by `shifts` (nq_join_match_fn), polling mt->stop between runs
 * of items. @return NQ_OK, NQ_ECANCELED. */
int nq_join_match_items(const nq_join_matcher *mt, const uint64_t *items, size_t count,
                        unsigned shifts, uint64_t *out);

/* Adds to *out the disjoint pairs between stored[soff[0] .. soff[nb]) and
 * items[ioff[0] .. ioff[nb]), both sorted into nb buckets (soff[b], ioff[b]
 * where bucket b starts): each block of stored keys meets only the items
 * of buckets disjoint from one of its own. Polls mt->stop.
 * @return NQ_OK, NQ_ECANCELED. */
int nq_join_sieve_match(const nq_join_matcher *mt, const uint64_t *stored,
                        const size_t *soff, const uint64_t *items,
                        const size_t *ioff, unsigned nb, uint64_t *out);

/* ------------------------------------------------------------------------
 * A unit's work (join_split.c), in scratch that join_plan.c keeps
 * ------------------------------------------------------------------------ */

/* Everything one unit writes while it runs. join_plan.c hands a unit an idle
 * one of its plan (or a new one) and takes it back when the unit ends. */
typedef struct nq_join_scratch {
    struct nq_join_scratch *next;   /* in the plan's idle list */
    nq_join_keys east, west, spare;
    nq_join_half ge, gw;
    const nq_join_quarter *quarter; /* NULL: list quarters, or walk */
    nq_join_rowset rowset[NQ_JOIN_ROWSETS]; /* east top, bottom; west's */
    size_t rowset_pieces;           /* most pieces a slot holds; 0: walk */
    const nq_join_kernel *kernel;   /* of the level the unit runs at */
    nq_join_pieces pieces;
    nq_join_matcher mt;
    nq_join_sieve sieve;
    int cuts;                       /* bucket bits; negative: by list size */
    size_t batch;                   /* keys per batch of a half's list */
    nq_join_cursor east_at, west_at;
    size_t *east_off, *west_off; /* bins' starts (nq_join_scratch_bins) */
    size_t *sort_count;
    unsigned bins_room;          /* buckets they have room for */
    nq_join_profile *profile; /* non-NULL: measured for join_profile.c */
} nq_join_scratch;

/* Makes room in s for the bins of `buckets` buckets: the sort's counters
 * and where each bin starts (join_sieve.c). @return NQ_OK, NQ_ENOMEM. */
int nq_join_scratch_bins(nq_join_scratch *s, unsigned buckets);

/* The order of the units of an n board's list (per_m, space, group and
 * units as in join_plan.c): unit i counts the run of splits (*out)[i], the
 * runs sorted by a cost proxy, heaviest first (join_order.c). *out is
 * the caller's to free. @return NQ_OK, NQ_ENOMEM. */
int nq_join_order_build(uint32_t **out, unsigned n, uint64_t per_m,
                        uint64_t space, uint64_t group, uint64_t units);

/* Adds to *total the solutions of the numbered splits first .. end - 1 of
 * an n board (n >= 4), per_m of them per middle row (see the design note
 * of join.c), in s (set up for the plan). Polls s->mt.stop.
 * @return NQ_OK, NQ_ENOMEM, NQ_ECANCELED. */
int nq_join_solve_splits(nq_join_scratch *s, unsigned n, uint64_t per_m,
                         uint64_t first, uint64_t end, uint64_t *total);

struct nq_jg_split;

/* Fills *out with what the GPU's steps (join_gpu.h) need to count split
 * number `split` (< per_m, or per_m * (h + 1) on odd boards) of an n
 * board (NQ_JOIN_MIN_N <= n <= NQ_MAX_N) as nq_join_solve_splits() counts
 * it: its halves' rows and bars, its key window, its weights; all zero
 * (weight 0) when another image of its orbit is the one counted. */
void nq_join_split_gpu(unsigned n, uint64_t per_m, uint64_t split, struct nq_jg_split *out);

/* ------------------------------------------------------------------------
 * The plan's work for the method's row (join_plan.c), and a unit's memory
 * (join_memory.c)
 * ------------------------------------------------------------------------ */

/* Boards below this size are one unit counted by a plain walk. */
#define NQ_JOIN_MIN_N 4u
/* Keys per batch of a half's list (32 MiB), and the fewest that a tight
 * memory limit may ask for (powers of two: a list grown by doubling stops
 * at the batch). Lists pass 2^20 keys from n = 24 on; at n = 26 batches
 * of 2^21 or 2^22 keys took 0.8 to 0.9 of the time of batches of 2^20
 * (fuller buckets per pair of batches; bench/nq_join_lists). */
#define NQ_JOIN_BATCH_KEYS ((size_t)1 << 22)
/* Where the quarters' slots cannot have all they want, below n = 26 the
 * batch stays within NQ_JOIN_TIGHT_BATCH_KEYS and the rest goes to them:
 * a quarter walked costs more (n = 24: 1.3 to 1.5 times) than a smaller
 * batch. From n = 26 the lists run to many batches, and the largest batch
 * comes first, then the largest slots beside it (n = 26: 2^21 keys beside
 * 2^18 pieces took 0.84 of 2^20 beside 2^20, and 2^22 beside 2^19 0.78 of
 * 2^20 beside 2^21; bench/nq_join_lists). */
#define NQ_JOIN_TIGHT_BATCH_KEYS ((size_t)1 << 20)
#define NQ_JOIN_BATCH_FIRST_N 26u
#define NQ_JOIN_MIN_BATCH_KEYS ((size_t)1 << 14)

/* The method row's prepare (method.h): builds the plan's table (unless it
 * would not fit) and, from n = 24 on, the order of its units.
 * @return NQ_OK, NQ_ECANCELED, NQ_ENOMEM. */
int nq_join_plan_prepare(const nq_join_plan *plan, const nq_stop_flag *stop);

/* The method row's fit_memory (method.h): the largest batch, and the
 * table when it fits beside the threads' scratch, else the walk.
 * @return NQ_OK, NQ_EMEMLIMIT. */
int nq_join_plan_fit_memory(nq_join_plan *plan, unsigned threads, uint64_t limit,
                            uint64_t *out);

/* Scratch of one unit of size n whose key lists come in batches of at
 * most `batch` keys, and whose piece lists (`table` nonzero) are as long
 * as the quarter table's fullest cell; 0 below NQ_JOIN_MIN_N. */
uint64_t nq_join_unit_bytes(unsigned n, size_t batch, int table);
/* What a unit's quarter slots take when each holds at most `pieces`
 * pieces (0: none, the halves are walked). */
uint64_t nq_join_rowset_bytes(unsigned n, size_t pieces);
/* The most pieces a slot may hold (at most `most`, halved down to
 * NQ_JOIN_MIN_ROWSET_PIECES) for the slots to fit `room` bytes; 0 when
 * even the smallest do not. */
size_t nq_join_rowset_fit(unsigned n, size_t most, uint64_t room);
/* The most pieces a slot holds by default at board size n (more: the
 * quarter is walked): 2^16 at n = 20 to 2^23 at 28, room for the fullest
 * quarters counted (fit_memory() may lower it). */
size_t nq_join_rowset_want(unsigned n);
/* Frees a unit's scratch and all it holds. */
void nq_join_scratch_free(nq_join_scratch *s);

/* The cost model's hooks in a split. */
#include "join_profile.h"

#endif /* NQ_JOIN_INTERNAL_H */
