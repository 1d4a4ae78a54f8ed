/*
 * join_bits.h - bit sets and subsets that every file of the join uses:
 * binomials and ranks of row sets, the next set of a size, a set stretched
 * past the middle row or reversed, bits counted, a quarter row's free
 * squares. Static inline, no state. Not public, never installed.
 */
#ifndef NQ_JOIN_BITS_H
#define NQ_JOIN_BITS_H

#include <stdint.h>

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

#endif /* NQ_JOIN_BITS_H */
