/*
 * join_order.c - the order of the join's units from n = 24 on: heaviest
 * first, by a cost proxy of their row splits.
 *
 * Why. nqueens-mpi deals units in list order, a fixed number at a time.
 * With tens of thousands of workers, a heavy unit dealt near the end
 * keeps its worker busy long after the others stop: simulated at n = 26
 * with 64,000 workers (bench/nq_sim.c, docs/performance.md), the splits'
 * own order (colexicographic) leaves the last worker 13 to 16% behind the
 * first. Dealt heaviest first, the last units are the lightest and fill
 * the gaps: the workers finish within about 3% of each other.
 *
 * The proxy. A split's cost is about the product of its halves' numbers
 * of placements (the keys, then their pairs). A half's h rows, two at
 * distance d < h, forbid their queens h - d of the h (h - 1) ordered
 * column pairs, 2 (h - d) out of h (h - 1) of a random placement's pairs;
 * so log(placements) falls by about 2 (h - d) / (h (h - 1)) per such row
 * pair. With S the sum over both halves' row pairs of h - d, the proxy is
 * ((a - 1) / (a + 1))^S, a = h (h - 1), scaled to 2^56 (the Pade form of
 * exp(-2S/a)): integers only, so that the order, and with it the unit
 * list, is the same on every machine and compiler. Splits that are not
 * the counted image of their orbit (even boards: the reversed row set is
 * smaller) weigh 0. A unit's proxy is the sum over its run of splits; its
 * rank correlation with the cost model's cost of the unit (join_cost.c)
 * was 0.98 on samples at n = 24 and 26.
 *
 * The list. Unit i counts the run of splits order[i]; the runs are sorted
 * by proxy, largest first, ties by run number. Building it walks every
 * split once (Gosper's next subset): about 0.1 s at n = 24 and a few
 * seconds at n = 27; join_plan.c does it when the first unit runs, not
 * when the plan is built, so listing units stays cheap.
 */
#include "join_order.h"

#include "join_bits.h"
#include "nqueens.h"

#include <stdlib.h>

/* Entries of the power table: S stays below h^3 / 2 per half (h <= 14). */
#define POWERS 4096u

typedef struct run_weight {
    uint64_t weight;
    uint32_t run;
} run_weight;

static int heavier_first(const void *pa, const void *pb)
{
    const run_weight *a = pa, *b = pb;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    return (a->run > b->run) - (a->run < b->run);
}

/* S of a half on `rows` (a bit each): the sum over its row pairs at
 * distance d < h of h - d. */
static unsigned pair_sum(uint32_t rows, unsigned h)
{
    unsigned s = 0;
    for (unsigned d = 1; d < h; d++)
        s += (h - d) * (unsigned)__builtin_popcount(rows & (rows >> d));
    return s;
}

int nq_join_order_build(uint32_t **out, unsigned n, uint64_t per_m,
                        uint64_t space, uint64_t group, uint64_t units)
{
    const unsigned h = n / 2;
    const uint64_t a = (uint64_t)h * (h - 1);
    uint64_t *power = malloc(POWERS * sizeof *power);
    run_weight *w = calloc(units, sizeof *w);
    uint32_t *order = malloc(units * sizeof *order);
    uint64_t k = 0;
    *out = NULL;
    if (!power || !w || !order || units > UINT32_MAX) {
        free(power);
        free(w);
        free(order);
        return NQ_ENOMEM;
    }
    power[0] = (uint64_t)1 << 56;
    for (unsigned i = 1; i < POWERS; i++)
        power[i] = power[i - 1] / (a + 1) * (a - 1) +
                   power[i - 1] % (a + 1) * (a - 1) / (a + 1);
    for (uint64_t u = 0; u < units; u++)
        w[u].run = (uint32_t)u;
    /* every split in number order: m major, then the row subsets of the
     * other rows in colexicographic order (join_split.c) */
    for (unsigned m = 0; k < space; m++) {
        uint32_t sub = (1u << h) - 1u; /* the first h-subset */
        for (uint64_t r = 0; r < per_m && k < space; r++, k++) {
            uint32_t rows = sub, free_rows = (1u << n) - 1u, rest;
            if (n & 1u) {
                rows = nq_join_stretch(sub, m);
                free_rows &= ~(1u << m);
            }
            rest = free_rows & ~rows;
            if ((n & 1u) || nq_join_reverse_rows(rows, n) >= rows) {
                unsigned s = pair_sum(rows, h) + pair_sum(rest, h);
                w[k / group].weight += power[s < POWERS ? s : POWERS - 1];
            }
            sub = nq_join_next_subset(sub);
        }
    }
    qsort(w, units, sizeof *w, heavier_first);
    for (uint64_t u = 0; u < units; u++)
        order[u] = w[u].run;
    free(power);
    free(w);
    *out = order;
    return NQ_OK;
}
