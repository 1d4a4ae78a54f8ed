/*
 * join_kernel.h - the join method's kernels, one set per SIMD level. Not
 * public, never installed.
 *
 * Four jobs make up the inner loops of a unit: taking a cell's pieces of
 * the quarter table (join_quarter.c), pairing a top piece with the bottom
 * pieces that miss it, filling a block of stored keys and counting the
 * items disjoint from it (join_sieve.c). A level's kernels do the same
 * jobs with the same results; they differ only in how. Each level is one
 * file (join_scalar.c for every architecture, join_avx2.c, join_avx512.c)
 * and one row of the table in join_kernel.c. Kernels call nothing above
 * this header: one that falls back to another level for a tail calls that
 * level's kernel.
 *
 * Adding a level: its file, compiled with NQ_FN_LEVEL from
 * platform/cpu.h, its declarations below under the architecture's guard,
 * and its row. See docs/conventions.md.
 */
#ifndef NQ_JOIN_KERNEL_H
#define NQ_JOIN_KERNEL_H

#include "platform/cpu.h"
#include "join_internal.h"

/* Copies into dst the pieces of src[0 .. n) (table entries) that the
 * frame f does not bar (with f->keep, all of them, marked as it says),
 * moved into the frame, with their squeezed key shares; dst has room for
 * n + 8. @return how many were copied. */
typedef size_t (*nq_join_take_fn)(nq_join_piece_list *dst, const uint64_t *src,
                                  size_t n, const nq_join_frame *f);

/* For each piece i < no of `out` in turn, writes out->key[i] | in->key[j]
 * for every piece j < n of `in` whose diagonals miss piece i's; dst has
 * room for no * n + 8. @return how many were written. */
typedef size_t (*nq_join_pairs_fn)(uint64_t *dst, const nq_join_piece_list *out,
                                   size_t no, const nq_join_piece_list *in,
                                   size_t n);

/* The kernels of one level. match_vpopcnt, when not NULL, is a faster
 * match that needs VPOPCNTDQ beyond the level (nq_cpu_has_vpopcnt()).
 * fill_items (fill_items_vpopcnt with that match): what filling a block
 * costs, in items that the level's match meets, the weight of the cost
 * model's fills (join_profile.c), measured as the join_kernel.c says. */
struct nq_join_kernel {
    nq_join_take_fn take;
    nq_join_pairs_fn pairs;
    nq_join_fill_fn fill;
    nq_join_match_fn match;
    nq_join_match_fn match_vpopcnt;
    double fill_items, fill_items_vpopcnt;
    int rows_at_once; /* take a row set's pieces in one call where they
                         fit (faster with wide lanes; one piece at a time,
                         the cells' takes that drop barred pieces are) */
};

/* join_scalar.c: plain C, every architecture. */
size_t nq_join_take_scalar(nq_join_piece_list *dst, const uint64_t *src,
                           size_t n, const nq_join_frame *f);
size_t nq_join_pairs_scalar(uint64_t *dst, const nq_join_piece_list *out, size_t no,
                            const nq_join_piece_list *in, size_t n);
void nq_join_fill_scalar(nq_join_block *block, const uint64_t *keys,
                         size_t count, unsigned chunks);
uint64_t nq_join_match_scalar(const nq_join_block *block, unsigned chunks,
                              const uint64_t *items, size_t count, unsigned shifts);

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

/* join_avx512.c: eight lanes. Only when nq_cpu_simd_best() >= AVX512, and
 * nq_join_match_avx512() only when nq_cpu_has_vpopcnt() too. */
size_t nq_join_take_avx512(nq_join_piece_list *dst, const uint64_t *src,
                           size_t n, const nq_join_frame *f);
size_t nq_join_pairs_avx512(uint64_t *dst, const nq_join_piece_list *out, size_t no,
                            const nq_join_piece_list *in, size_t n);
void nq_join_fill_avx512(nq_join_block *block, const uint64_t *keys,
                         size_t count, unsigned chunks);
uint64_t nq_join_match_avx512(const nq_join_block *block, unsigned chunks,
                              const uint64_t *items, size_t count, unsigned shifts);
#endif

/* The kernels of level `simd` in this build (join_kernel.c), or NULL when
 * there are none. The CPU is not asked: see nq_cpu_simd_best(). */
const nq_join_kernel *nq_join_kernel_of(nq_simd simd);

/* The match to use from row k on this CPU: k->match_vpopcnt where the CPU
 * runs it (vpopcnt: nq_cpu_has_vpopcnt(), asked once by the caller), else
 * k->match. */
static inline nq_join_match_fn nq_join_match_of(const nq_join_kernel *k,
                                                int vpopcnt)
{
    return k->match_vpopcnt && vpopcnt ? k->match_vpopcnt : k->match;
}

/* The weight of a fill against the match that nq_join_match_of() picks. */
static inline double nq_join_fill_items_of(const nq_join_kernel *k, int vpopcnt)
{
    return k->match_vpopcnt && vpopcnt ? k->fill_items_vpopcnt : k->fill_items;
}

#endif /* NQ_JOIN_KERNEL_H */
