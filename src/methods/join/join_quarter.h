/*
 * join_quarter.h - the table of quarter-board pieces, and a half's keys from
 * it or from any cut into two quarters (join_quarter.c). Not public.
 */
#ifndef NQ_JOIN_QUARTER_H
#define NQ_JOIN_QUARTER_H

#include "stop.h"
#include "join_block.h"
#include "join_keys.h"

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

/* Lists into *out (from its start) the next batch of at most `cap` keys
 * (see nq_join_cursor) of the placements of the half g on `rows` (board
 * rows), from the table q (q->rows rows above the cut, the same number or
 * one less below it), with the kernels k (of a level the CPU has), from
 * where *cur stands. @return NQ_OK, NQ_ENOMEM. */
int nq_join_half_keys(nq_join_keys *out, nq_join_pieces *scratch,
                      const nq_join_quarter *q, const nq_join_half *g,
                      uint32_t rows, const nq_join_kernel *k,
                      nq_join_cursor *cur, size_t cap);

/* nq_join_half_keys() from the pieces of a cut. */
int nq_join_cut_keys(nq_join_keys *out, nq_join_pieces *scratch, const nq_join_cut *cut,
                     const nq_join_half *g, const nq_join_kernel *k,
                     nq_join_cursor *cur, size_t cap);

#endif /* NQ_JOIN_QUARTER_H */
