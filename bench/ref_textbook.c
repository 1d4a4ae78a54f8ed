/*
 * ref_textbook: the textbook bitmask N-Queens counter, as a yardstick for
 * `nqueens --method=plain` (bench/compare.sh). Not part of the library.
 *
 * One recursive call per row. `cols`, `ld` and `rd` are the columns and the
 * two diagonals that the queens placed so far attack in the current row;
 * moving down a row shifts `ld` left and `rd` right by one. The free squares
 * are `all & ~(cols | ld | rd)`, taken one at a time with `f & -f`. The only
 * symmetry used is the left-right mirror: row 0's queen is tried in the left
 * half, whose count is doubled, and in the middle column for odd n.
 *
 * Build with -DREF_COUNT_NODES to also print the number of queens placed
 * below row 0 (the search nodes), for comparison with nqueens' own counts.
 *
 * usage: ref_textbook N        prints the number of solutions
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

static uint32_t all;

static uint64_t place(uint32_t cols, uint32_t ld, uint32_t rd)
{
    if (cols == all)
        return 1;
    uint64_t count = 0;
    uint32_t f = all & ~(cols | ld | rd);
    while (f) {
        uint32_t bit = f & (0u - f);
        f ^= bit;
        NODE();
        count += place(cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv)
{
    long n = argc == 2 ? strtol(argv[1], NULL, 10) : -1;
    if (n < 1 || n > 31) {
        fprintf(stderr, "usage: ref_textbook N (1..31)\n");
        return 2;
    }
    all = (uint32_t)((UINT64_C(1) << n) - 1);
    uint64_t total = 0;
    for (long c = 0; c < n / 2; c++) {
        uint32_t bit = UINT32_C(1) << c;
        total += 2 * place(bit, bit << 1, bit >> 1);
    }
    if (n % 2) {
        uint32_t bit = UINT32_C(1) << (n / 2);
        total += place(bit, bit << 1, bit >> 1);
    }
    printf("%llu\n", (unsigned long long)total);
#ifdef REF_COUNT_NODES
    fprintf(stderr, "nodes %llu\n", (unsigned long long)nodes);
#endif
    return 0;
}
