/*
 * join_half.h - the data of a half-board that the join's files pass each
 * other: a list of keys, the sieve's layout of a key (squeeze, bucket,
 * class), where a half lies on the board, the cursor of a listing in
 * batches, and the pieces of quarter-boards that become a half's keys.
 * Types, constants and static inline helpers only. Not public.
 */
#ifndef NQ_JOIN_HALF_H
#define NQ_JOIN_HALF_H

#include <stddef.h>
#include <stdint.h>
#include "nqueens.h"

/* Boards below this size are one unit counted by a plain walk. */
#define NQ_JOIN_MIN_N 4u

/* A growing list of half-board keys. */
typedef struct nq_join_keys {
    uint64_t *keys;
    size_t count, cap;
} nq_join_keys;

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

#endif /* NQ_JOIN_HALF_H */
