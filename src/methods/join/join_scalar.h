/*
 * join_scalar.h - the kernels of join_scalar.c (their jobs: join_block.h). Not public.
 */
#ifndef NQ_JOIN_SCALAR_H
#define NQ_JOIN_SCALAR_H

#include "join_block.h"

/* join_scalar.c: plain C, every architecture. */
size_t nq_join_take_scalar(nq_join_piece_list *dst, const uint64_t *src,
                           size_t n, const nq_join_frame *f);
size_t nq_join_pairs_scalar(uint64_t *dst, const nq_join_piece_list *out, size_t no,
                            const nq_join_piece_list *in, size_t n);
void nq_join_fill_scalar(nq_join_block *block, const uint64_t *keys,
                         size_t count, unsigned chunks);
uint64_t nq_join_match_scalar(const nq_join_block *block, unsigned chunks,
                              const uint64_t *items, size_t count, unsigned shifts);

#endif /* NQ_JOIN_SCALAR_H */
