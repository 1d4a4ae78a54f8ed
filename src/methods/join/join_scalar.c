/*
 * join_scalar.c - the join method's kernels in plain C, for every
 * architecture, and the reference the others are tested against.
 *
 * Counting disjoint pairs of keys, bit-sliced.
 *
 * The question asked millions of times per unit: given a key x (the
 * diagonals one half-board occupies) and a list of stored keys (the other
 * half's), how many stored keys share no bit with x? Asked key by key, it
 * is one AND and one compare per pair. Here the stored keys are turned
 * around instead: a block of 512 keys becomes, for every bit position b, a
 * 512-bit mask of the keys that leave b free; the keys disjoint from x are
 * then the AND of the masks of x's bits, and their number one popcount.
 * To cut the number of ANDs, the masks are precombined per chunk of six
 * key bits: entry [c][v] is the AND over the bits of v at chunk c, so a
 * key of k bits costs k/6 ANDs of 512 bits per block, whatever its
 * weight. A block's table (4 KiB per chunk used: 20 to 24 KiB for the
 * keys of n = 18 to 20, 36 KiB at most) stays in the L1 cache while the
 * items of the other half stream past it. Six bits measured faster than
 * four, five or seven at n = 18 to 20 (AVX-512): filling the larger table
 * costs little next to the ANDs it saves.
 *
 * Three levels do the same sum: portable C (here), AVX2 (two 256-bit
 * halves and a nibble-table popcount, join_avx2.c) and AVX-512 (one
 * register and VPOPCNTQ, join_avx512.c). The wide ones are compiled with
 * function-level target attributes and only entered after a CPU check
 * (join_plan.c, through the table of join_kernel.c).
 *
 * Taking and pairing pieces. The half-board keys of join_quarter.c come
 * from two loops over a cell's pieces of the quarter table: keep the
 * pieces that the half's bars allow (take), and join a top piece with
 * every bottom piece whose diagonals miss it (pairs). Both are here one
 * piece at a time, and wider in the other levels' files.
 */
#include "join_scalar.h"

#include "join_slices.h"


/* Copies into dst the usable pieces of src[0 .. n); @return how many.
 * Two passes: the pieces that the bars allow are kept first (without a
 * branch: each is written, and the next one overwrites it unless it was
 * kept), then only those are squeezed into keys, which costs more. */
size_t nq_join_take_scalar(nq_join_piece_list *dst, const uint64_t *src, size_t n,
                           const nq_join_frame *f)
{
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        const uint64_t d1 = (src[j] & 0xffffffffu) << f->shift1;
        const uint64_t d2 = (src[j] >> 32) << f->shift2;
        const int barred = ((d1 & f->bar1) | (d2 & f->bar2)) != 0;
        dst->d1[m] = f->keep ? d1 | f->own | (barred ? f->other : 0u) : d1;
        dst->d2[m] = d2;
        m += f->keep || !barred;
    }
    /* the marks lie above the masks */
    for (size_t j = 0; j < m; j++) {
        const uint64_t key = nq_join_squeeze(f->sieve, (dst->d1[j] >> f->s1 & f->mask1) |
                                                       (dst->d2[j] >> f->s2 & f->mask2) << f->len1);
        dst->key[j] = key;
        if (f->need && !(key & f->need))
            dst->d1[j] |= NQ_JOIN_MARK_PLAIN;
    }
    return m;
}

/* Writes out->key[i] | in->key[j] for every piece i < no and piece j of
 * `in` whose diagonals miss it; @return how many were written (dst has
 * room for no * n + 8). */
size_t nq_join_pairs_scalar(uint64_t *dst, const nq_join_piece_list *out, size_t no,
                            const nq_join_piece_list *in, size_t n)
{
    /* the lists' arrays in registers: the stores to dst do not touch them */
    const uint64_t *id1 = in->d1, *id2 = in->d2, *ikey = in->key;
    size_t m = 0;
    for (size_t i = 0; i < no; i++) {
        const uint64_t k = out->key[i], m1 = out->d1[i], m2 = out->d2[i];
        for (size_t j = 0; j < n; j++) {
            dst[m] = k | ikey[j];
            m += ((m1 & id1[j]) | (m2 & id2[j])) == 0;
        }
    }
    return m;
}

void nq_join_fill_scalar(nq_join_block *block, const uint64_t *keys,
                         size_t count, unsigned chunks)
{
    fill_body(block, keys, count, chunks);
}

/* The bits set in acc[0 .. NQ_JOIN_WORDS). Where the target has a
 * popcount instruction (x86 with POPCNT, every AArch64 CPU), one per
 * word; elsewhere (x86-64 as a baseline: a call into the compiler's
 * runtime per word otherwise) the words are counted in parallel within
 * each: their byte counts are added up (at most 64 a byte) and summed
 * once. */
static inline unsigned popcount_row(const uint64_t *acc)
{
#if defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON)
    unsigned total = 0;
    for (unsigned w = 0; w < NQ_JOIN_WORDS; w++)
        total += NQ_POPCOUNT64(acc[w]);
    return total;
#else
    const uint64_t m1 = 0x5555555555555555ull, m2 = 0x3333333333333333ull;
    const uint64_t m4 = 0x0f0f0f0f0f0f0f0full, m8 = 0x00ff00ff00ff00ffull;
    uint64_t bytes = 0;
    for (unsigned w = 0; w < NQ_JOIN_WORDS; w++) {
        uint64_t x = acc[w];
        x -= (x >> 1) & m1;
        x = (x & m2) + ((x >> 2) & m2);
        bytes += (x + (x >> 4)) & m4;
    }
    bytes = (bytes & m8) + ((bytes >> 8) & m8); /* 16-bit sums, at most 128 */
    return (unsigned)((bytes * 0x0001000100010001ull) >> 48);
#endif
}

uint64_t nq_join_match_scalar(const nq_join_block *block, unsigned chunks,
                              const uint64_t *items, size_t count, unsigned shifts)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        const uint64_t x = items[i];
        uint64_t acc[NQ_JOIN_WORDS];
        memcpy(acc, entry(block, 0, x), sizeof acc);
        for (unsigned c = 1; c < chunks; c++) {
            const uint64_t *e = entry(block, c, x);
            for (unsigned w = 0; w < NQ_JOIN_WORDS; w++)
                acc[w] &= e[w];
        }
        total += (uint64_t)popcount_row(acc) << nq_join_item_shift(shifts, x);
    }
    return total;
}

/* One key at a time, by the sieve's own helpers (join_half.h). */
void nq_join_bins_scalar(const nq_join_sieve *sv, const uint64_t *k, size_t n, unsigned classes,
                         uint16_t *bin)
{
    for (size_t i = 0; i < n; i++)
        bin[i] = (uint16_t)((classes > 1 ? nq_join_key_class(k[i]) * sv->buckets : 0u) +
                            nq_join_bucket(sv, k[i]));
}
