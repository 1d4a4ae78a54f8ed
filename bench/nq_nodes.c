/*
 * nq_nodes: counts the search nodes of the symmetry method's interior walks
 * and of the plain walk, per board size, to measure how much work the unit
 * list leaves to the kernels. Not a timing: the kernels themselves count
 * nothing, so this program walks each unit's board (sym_unit.h) again with its
 * own counting walk, and checks that the walk's solutions add up to the
 * known total.
 *
 * A node is a queen placed on a row that is not the walk's last: the last
 * row is only tested. Symmetry method: the interior queens of each unit's
 * walk from its start node. Plain walk: the queens of rows 1..n-2 below a
 * row-0 queen in the left half or the middle, the work of --method=plain.
 *
 * usage: nq_nodes [A-B [symmetry]]     (default 12-16)
 *   symmetry: the symmetry method's nodes only (the plain walk takes about
 *   three times as long; its column is then left empty)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "methods/sym/sym_unit.h"

typedef struct tally {
    uint64_t nodes, solutions;
} tally;

static void walk_board(tally *t, const nq_sym_board *bd, unsigned d,
                       uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t f = bd->allowed[d] & ~(cols | ld | rd);
    if (d + 1 == bd->levels) {
        t->solutions += f != 0;
        return;
    }
    const unsigned s = bd->shift[d];
    while (f) {
        uint32_t bit = f & (0u - f);
        f ^= bit;
        t->nodes++;
        walk_board(t, bd, d + 1, cols | bit, (ld | bit) << s, (rd | bit) >> s);
    }
}

static void walk_plain(tally *t, unsigned n, unsigned r, uint32_t cols,
                       uint32_t ld, uint32_t rd)
{
    uint32_t f = ((1u << n) - 1u) & ~(cols | ld | rd);
    if (r == n - 1) {
        t->solutions += f != 0;
        return;
    }
    while (f) {
        uint32_t bit = f & (0u - f);
        f ^= bit;
        t->nodes++;
        walk_plain(t, n, r + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
}

int main(int argc, char **argv)
{
    unsigned lo = 12, hi = 16;
    const int sym_only = argc == 3 && strcmp(argv[2], "symmetry") == 0;
    if (argc > 3 || (argc == 3 && !sym_only) ||
        (argc >= 2 && (sscanf(argv[1], "%u-%u", &lo, &hi) != 2 || lo < 6 || hi < lo ||
                       hi > 20))) {
        fprintf(stderr, "usage: nq_nodes [A-B [symmetry]]   (6 <= A <= B <= 20)\n");
        return 2;
    }
    printf("| n | units | symmetry interior nodes | plain walk nodes | plain / symmetry |\n");
    printf("|---:|---:|---:|---:|---:|\n");
    for (unsigned n = lo; n <= hi; n++) {
        nq_sym_plan *plan;
        if (nq_sym_plan_build(&plan, n) != NQ_OK)
            return 1;
        tally sym = { 0, 0 };
        uint64_t weighted = 0;
        for (uint64_t u = 0; u < nq_sym_plan_size(plan); u++) {
            nq_sym_board bd;
            nq_sym_node start;
            nq_unit_result r;
            if (nq_sym_unit_walk(plan, u, &bd, &start) != NQ_OK ||
                nq_sym_solve_unit(plan, u, NQ_SIMD_NONE, NULL, &r) != NQ_OK)
                return 1;
            walk_board(&sym, &bd, start.level, start.cols, start.ld, start.rd);
            weighted += r.total;
        }
        tally plain = { 0, 0 };
        for (unsigned c = 0; c < (n + 1) / 2 && !sym_only; c++) {
            uint32_t bit = 1u << c;
            tally one = { 0, 0 };
            walk_plain(&one, n, 1, bit, bit << 1, bit >> 1);
            unsigned w = 2 * c + 1 == n ? 1 : 2;
            plain.nodes += one.nodes;
            plain.solutions += w * one.solutions;
        }
        uint64_t known = 0;
        nq_known(&known, NULL, n);
        if (weighted != known || (!sym_only && plain.solutions != known)) {
            fprintf(stderr, "nq_nodes: wrong count for n = %u\n", n);
            return 1;
        }
        if (sym_only)
            printf("| %u | %llu | %llu | | |\n", n, (unsigned long long)nq_sym_plan_size(plan),
                   (unsigned long long)sym.nodes);
        else
            printf("| %u | %llu | %llu | %llu | %.2fx |\n", n,
                   (unsigned long long)nq_sym_plan_size(plan),
                   (unsigned long long)sym.nodes, (unsigned long long)plain.nodes,
                   (double)plain.nodes / (double)sym.nodes);
        fflush(stdout);
        nq_sym_plan_free(plan);
    }
    return 0;
}
