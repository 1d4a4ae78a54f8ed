/*
 * join_geometry.c - a row split's place on the board, which the CPU's
 * count (join_split.c) and the GPU's description of a split (join_gpu.c)
 * both read: the weight of its orbit under the two flips, the diagonals
 * barred to each half, and the window of key bits that both halves reach.
 * See the design note of join_method.c.
 */
#include "join_geometry.h"

#include "join_bits.h"

unsigned nq_join_split_images(unsigned n, unsigned m, uint32_t rows, uint32_t free_rows)
{
    uint64_t img[4];
    unsigned mm = (n & 1u) ? n - 1 - m : 0;
    unsigned distinct = 0;
    uint32_t comp = free_rows & ~rows;
    img[0] = (uint64_t)m << 32 | rows;
    img[1] = (uint64_t)m << 32 | comp;
    img[2] = (uint64_t)mm << 32 | nq_join_reverse_rows(rows, n);
    img[3] = (uint64_t)mm << 32 | nq_join_reverse_rows(comp, n);
    for (unsigned i = 0; i < 4; i++) {
        int seen = 0;
        if (img[i] < img[0])
            return 0;
        for (unsigned j = 0; j < i; j++)
            seen |= img[j] == img[i];
        distinct += !seen;
    }
    return distinct;
}

/* Diagonals of one direction that a half reaches on `rows`: each row r
 * reaches the h diagonals of its columns, `cols` moved to row r. */
static uint64_t reach(uint32_t rows, uint64_t cols, int up, unsigned n)
{
    uint64_t m = 0;
    for (; rows; rows &= rows - 1) {
        unsigned r = (unsigned)__builtin_ctz(rows);
        m |= up ? cols << r : cols << (n - 1 - r);
    }
    return m;
}

/* The key window of one direction: the span of the diagonals that both
 * halves reach (and `keep`); sets *lo, *len and returns the diagonals of
 * the span that are not in `live`. An empty span is 0 diagonals from
 * `first`, the first that crosses both halves (the halves' frames move
 * keys down from there, never up). */
static uint64_t window(uint64_t live, uint64_t keep, unsigned first,
                       unsigned *lo, unsigned *len)
{
    uint64_t span = live | keep;
    if (!span) {
        *lo = first;
        *len = 0;
        return 0;
    }
    *lo = (unsigned)__builtin_ctzll(span);
    *len = 64u - (unsigned)__builtin_clzll(span) - *lo;
    return (span >> *lo) & ~(live >> *lo) & ((1ull << *len) - 1u); /* len < 56 */
}

/* The key windows of split east_rows / west_rows, whose halves may take
 * no diagonal of bar1, bar2 (both halves' bars): sets lo1, len1, lo2,
 * len2 and returns the key bits that no pair can clash on; the long
 * diagonals stay inside the window when `classes` is 3, since the west
 * keys are classed by them. */
uint64_t nq_join_split_window(unsigned n, uint32_t east_rows, uint32_t west_rows,
                              uint64_t bar1, uint64_t bar2, unsigned classes,
                              unsigned *lo1, unsigned *len1, unsigned *lo2, unsigned *len2)
{
    const unsigned h = n / 2;
    const uint64_t west_cols = (1ull << h) - 1u, east_cols = west_cols << (n - h);
    const uint64_t live1 = reach(east_rows, east_cols, 1, n) &
                           reach(west_rows, west_cols, 1, n) & ~bar1;
    const uint64_t live2 = reach(east_rows, east_cols, 0, n) &
                           reach(west_rows, west_cols, 0, n) & ~bar2;
    const uint64_t longd = classes > 1 ? 1ull << (n - 1) : 0;
    uint64_t holes = window(live1, longd, n - h, lo1, len1);
    holes |= window(live2, longd, n - h, lo2, len2) << *len1;
    return holes;
}

/* The diagonals barred to each half (0 east, 1 west) of a split through
 * middle row m: on odd boards the two of the middle column's queen, and
 * to the east half also the long diagonals (r + c = n - 1, c = r) when
 * the west keys are classed by them (`classes` 3). */
void nq_join_split_bars(unsigned n, unsigned m, unsigned classes, uint64_t bar1[2],
                        uint64_t bar2[2])
{
    const unsigned h = n / 2;
    bar1[1] = (n & 1u) ? 1ull << (m + h) : 0;
    bar2[1] = (n & 1u) ? 1ull << (h - m + n - 1) : 0;
    bar1[0] = bar1[1] | (classes > 1 ? 1ull << (n - 1) : 0);
    bar2[0] = bar2[1] | (classes > 1 ? 1ull << (n - 1) : 0);
}

/* NS-canonical form of a row set: the smaller of it and its reversal. */
static uint32_t ns_canonical(uint32_t rows, unsigned n)
{
    uint32_t r = nq_join_reverse_rows(rows, n);
    return r < rows ? r : rows;
}

/* The weight of split (m, rows) when it is the one of its orbit that is
 * counted (0 when it is not), and its none_weight (count_split()). */
uint64_t nq_join_split_orbit(unsigned n, unsigned m, uint32_t rows, uint32_t free_rows,
                             int *none_weight)
{
    const unsigned h = n / 2;
    const uint32_t comp = free_rows & ~rows;
    if ((n & 1u) && m == h) {
        *none_weight = -1;
        return nq_join_split_images(n, m, rows, free_rows);
    }
    if (n & 1u) {
        *none_weight = rows < comp ? 2 : 0;
        return 2; /* and (n-1-m, reversed rows) */
    }
    {
        uint32_t rev = nq_join_reverse_rows(rows, n), other = ns_canonical(comp, n);
        *none_weight = other == rows ? 1 : (rows < other ? 2 : 0);
        return rev < rows ? 0 : rev == rows ? 1 : 2;
    }
}
