/*
 * ref_takaken: the classic eight-fold symmetry counter in plain C, after the
 * method Kenjiro Takahashi published (BOUND1/BOUND2 pruning), as a
 * yardstick for `nqueens --simd=none` (bench/compare.sh). Written from the
 * method's description; not part of the library.
 *
 * The same bitmask walk as ref_textbook.c (one recursive call per row;
 * `cols`, `ld`, `rd` attack masks; `f & -f`), over a subset of the boards
 * that holds one representative of every symmetry class:
 *
 * - Corner case: a queen in a corner. No two queens can share corners, and
 *   no symmetry but the identity fixes such a solution, so its class has 8
 *   members, two of which have the queen at (0, 0): S and its transpose.
 *   The walk puts the row-0 queen in column 0 and the row-1 queen in column
 *   BOUND1 = 2..n-2, and keeps column 1 empty above row BOUND1, which picks
 *   the one of S and S^T whose row-1 queen lies left of its column-1 queen.
 *   Each solution found counts 8.
 * - Otherwise the four border queens lie off the corners. Their distances
 *   to the nearest corner along their border line are the eight values that
 *   the symmetries can bring to row 0 as the first queen's column; the
 *   representative is the image whose rows, read as column numbers, are
 *   smallest, so its row-0 queen is at the smallest distance, BOUND1, and
 *   the other border queens lie between BOUND1 and BOUND2 = n-1-BOUND1.
 *   The walk puts the row-0 queen in column BOUND1 (< BOUND2); keeps
 *   columns 0 and n-1 (SIDEMASK) empty above row BOUND1 and below row
 *   BOUND2, and, in row BOUND2, places there the side queen still missing;
 *   the last row may only use columns BOUND1..BOUND2 (LASTMASK). A solution
 *   found is the representative outright when no other border queen is at
 *   distance BOUND1 from a corner (it counts 8); otherwise its eight images
 *   are compared (TOPBIT/ENDBIT-style board reading): it counts 8/|stabiliser|
 *   if it is the smallest, else nothing.
 *
 * Prints the total and the number of classes (unique solutions).
 * Build with -DREF_COUNT_NODES to also print the number of queens placed
 * below row 0 (the search nodes).
 *
 * usage: ref_takaken N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef REF_COUNT_NODES
static uint64_t nodes;
#define NODE() (nodes++)
#else
#define NODE() ((void)0)
#endif

static unsigned n;
static uint32_t all, sidemask, lastmask;
static unsigned bound1, bound2;
static uint32_t board[32]; /* the queen of each row, as a bit */
static uint64_t total, unique;

/* ------------------------------------------------------------------------
 * Corner case
 * ------------------------------------------------------------------------ */

static void corner(unsigned y, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t f = all & ~(cols | ld | rd);
    if (y == n - 1) {
        if (f) {
            total += 8;
            unique++;
        }
        return;
    }
    if (y < bound1)
        f &= ~UINT32_C(2);
    while (f) {
        uint32_t bit = f & (0u - f);
        f ^= bit;
        NODE();
        corner(y + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
}

/* ------------------------------------------------------------------------
 * Border queens off the corners
 * ------------------------------------------------------------------------ */

/* Image of square (r, c) under symmetry g (1..7). */
static void image(unsigned g, unsigned r, unsigned c, unsigned *ro, unsigned *co)
{
    unsigned m = n - 1;
    switch (g) {
    case 1: *ro = c; *co = m - r; break;
    case 2: *ro = m - r; *co = m - c; break;
    case 3: *ro = m - c; *co = r; break;
    case 4: *ro = r; *co = m - c; break;
    case 5: *ro = c; *co = r; break;
    case 6: *ro = m - r; *co = c; break;
    default: *ro = m - c; *co = m - r; break;
    }
}

/* A solution with a tie among the corner distances: compare its images. */
static void compare_images(void)
{
    unsigned col[32], img[32];
    unsigned same = 1;
    for (unsigned r = 0; r < n; r++)
        col[r] = (unsigned)__builtin_ctz(board[r]);
    for (unsigned g = 1; g < 8; g++) {
        for (unsigned r = 0; r < n; r++) {
            unsigned ro, co;
            image(g, r, col[r], &ro, &co);
            img[ro] = co;
        }
        unsigned r = 0;
        while (r < n && img[r] == col[r])
            r++;
        if (r == n)
            same++;
        else if (img[r] < col[r])
            return; /* not the representative */
    }
    total += 8 / same;
    unique++;
}

static void border(unsigned y, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t f = all & ~(cols | ld | rd);
    if (y == n - 1) {
        f &= ~lastmask;
        if (!f)
            return;
        board[y] = f;
        uint32_t ties = (board[bound1] | board[bound2]) & sidemask;
        ties |= f & ((UINT32_C(1) << bound1) | (UINT32_C(1) << bound2));
        if (!ties) {
            total += 8;
            unique++;
        } else {
            compare_images();
        }
        return;
    }
    if (y < bound1 || y > bound2) {
        f &= ~sidemask;
    } else if (y == bound2) {
        /* both side queens lie in rows bound1..bound2: the last chance */
        uint32_t missing = sidemask & ~cols;
        if (missing == sidemask)
            return;
        if (missing)
            f &= missing;
    }
    while (f) {
        uint32_t bit = f & (0u - f);
        f ^= bit;
        board[y] = bit;
        NODE();
        border(y + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
}

int main(int argc, char **argv)
{
    long arg = argc == 2 ? strtol(argv[1], NULL, 10) : -1;
    if (arg < 1 || arg > 31) {
        fprintf(stderr, "usage: ref_takaken N (1..31)\n");
        return 2;
    }
    n = (unsigned)arg;
    if (n <= 3) {
        /* too small for border queens on four distinct lines */
        printf("%u %u\n", n == 1 ? 1u : 0u, n == 1 ? 1u : 0u);
        return 0;
    }
    all = (uint32_t)((UINT64_C(1) << n) - 1);
    sidemask = 1u | (UINT32_C(1) << (n - 1));

    board[0] = 1;
    for (bound1 = 2; bound1 + 1 < n; bound1++) {
        uint32_t bit = UINT32_C(1) << bound1;
        board[1] = bit;
        NODE();
        corner(2, 1u | bit, (2u | bit) << 1, bit >> 1);
    }

    lastmask = sidemask;
    for (bound1 = 1, bound2 = n - 2; bound1 < bound2; bound1++, bound2--) {
        uint32_t bit = UINT32_C(1) << bound1;
        board[0] = bit;
        border(1, bit, bit << 1, bit >> 1);
        lastmask |= (lastmask << 1) | (lastmask >> 1);
        lastmask &= all;
    }
    printf("%llu %llu\n", (unsigned long long)total, (unsigned long long)unique);
#ifdef REF_COUNT_NODES
    fprintf(stderr, "nodes %llu\n", (unsigned long long)nodes);
#endif
    return 0;
}
