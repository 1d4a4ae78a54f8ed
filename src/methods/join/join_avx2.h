/*
 * join_avx2.h - the kernels of join_avx2.c (their jobs: join_block.h). Not public.
 */
#ifndef NQ_JOIN_AVX2_H
#define NQ_JOIN_AVX2_H

#include "platform/cpu.h"
#include "join_block.h"

#if NQ_X86
/* join_avx2.c: four lanes of 64 bits. Only when nq_cpu_simd_best() >= AVX2. */
size_t nq_join_take_avx2(nq_join_piece_list *dst, const uint64_t *src,
                         size_t n, const nq_join_frame *f);
size_t nq_join_pairs_avx2(uint64_t *dst, const nq_join_piece_list *out, size_t no,
                          const nq_join_piece_list *in, size_t n);
void nq_join_fill_avx2(nq_join_block *block, const uint64_t *keys,
                       size_t count, unsigned chunks);
uint64_t nq_join_match_avx2(const nq_join_block *block, unsigned chunks,
                            const uint64_t *items, size_t count, unsigned shifts);
#endif

#endif /* NQ_JOIN_AVX2_H */
