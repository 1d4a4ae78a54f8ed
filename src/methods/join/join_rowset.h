/*
 * join_rowset.h - a half's keys from its two quarters listed for the split
 * at hand, when there is no table (join_rowset.c). Not public.
 */
#ifndef NQ_JOIN_ROWSET_H
#define NQ_JOIN_ROWSET_H

#include "join_quarter.h"

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

#endif /* NQ_JOIN_ROWSET_H */
