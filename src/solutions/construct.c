/*
 * Construction: one solution for any n, by a closed formula, in O(n).
 *
 * This is the classical explicit solution (E. Pauls, 1874; in this form
 * Hoffman, Loessi and Moore, 1969). Write the 1-based columns row by row:
 *
 *   n mod 6 not 2 or 3:  the even columns 2, 4, ..., then the odd ones
 *                        1, 3, 5, ...
 *   n mod 6 = 2:         the evens, then the odds with 1 and 3 swapped and
 *                        5 moved to the end:  2 4 ... n, 3 1 7 9 ... n-1 5
 *   n mod 6 = 3:         the evens with 2 moved to the end, then the odds
 *                        with 1 and 3 moved to the end:
 *                        4 6 ... n-1 2, 5 7 ... n 1 3
 *
 * Why the plain pattern works, 0-based: with E = floor(n / 2), row i < E
 * holds column 2i + 1 and row E + j holds column 2j. Within a block the
 * column moves 2 per row, never 1, so no diagonal is shared there. A queen
 * of each block, rows i and E + j, share a diagonal when |2(j - i) - 1| =
 * E + j - i; the sign + would need j = E + 1 + i, past the end of the
 * block, and the sign - gives 3(i - j) = E - 1, which has a solution only
 * when E mod 3 = 1, that is exactly when n mod 6 is 2 or 3. The adjustments
 * for those two remainders move the few queens whose pairs clash to the
 * ends of their blocks. The test suite checks every n from 4 to 2000 and
 * several large n, of each remainder mod 6.
 *
 * Each entry is a function of its row alone, so the array is filled in one
 * pass with no extra memory, which makes n = 10^7 a matter of milliseconds.
 */
#include "nqueens.h"

/* 0-based column of row i (0-based) of the construction for n >= 4. */
static uint32_t construct_row(uint64_t n, uint64_t i)
{
    const uint64_t evens = n / 2; /* how many even columns (1-based) */
    uint64_t col;                 /* 1-based */

    switch (n % 6) {
    case 2:
        if (i < evens) {
            col = 2 * (i + 1);
        } else {
            uint64_t j = i - evens; /* index among the odds: 3 1 7 9 ... 5 */
            if (j == 0)
                col = 3;
            else if (j == 1)
                col = 1;
            else if (j == evens - 1)
                col = 5;
            else
                col = 2 * j + 3;
        }
        break;
    case 3:
        if (i < evens) { /* 4 6 ... n-1 2 */
            col = (i + 1 < evens) ? 2 * i + 4 : 2;
        } else {         /* 5 7 ... n 1 3 */
            uint64_t j = i - evens, odds = n - evens;
            if (j + 2 < odds)
                col = 2 * j + 5;
            else
                col = (j + 2 == odds) ? 1 : 3;
        }
        break;
    default:
        col = (i < evens) ? 2 * (i + 1) : 2 * (i - evens) + 1;
        break;
    }
    return (uint32_t)(col - 1);
}

int nq_construct(uint32_t *out, size_t n)
{
    size_t i;

    if (n == 0)
        return NQ_OK;
    if (!out)
        return NQ_EINVAL;
#if SIZE_MAX > UINT32_MAX
    if (n > UINT32_MAX)
        return NQ_EINVAL; /* columns would not fit in uint32_t */
#endif
    if (n == 2 || n == 3)
        return NQ_ENOSOLUTION;
    if (n == 1) {
        out[0] = 0;
        return NQ_OK;
    }
    for (i = 0; i < n; i++)
        out[i] = construct_row((uint64_t)n, (uint64_t)i);
    return NQ_OK;
}
