/*
 * The plain method: a bitmask depth-first walk, one row at a time.
 *
 * Row r holds exactly one queen. Three bit masks, bit i for column i, say
 * which squares of the current row are attacked: `cols` by the queens above
 * in the same column, `ld` and `rd` along the two diagonals. A diagonal
 * attack moves one column per row, so going down a row shifts `ld` left by
 * one bit and `rd` right by one. The free squares are ~(cols | ld | rd)
 * within the board; the walk takes the lowest one with free & -free (two's
 * complement isolates the lowest set bit), descends, and clears it from
 * `free` when it comes back. The walk keeps its state in registers and
 * pushes a state on its own stack only when it descends. It never enters
 * the last two rows: from row n-3, each candidate leaves exactly two free
 * columns, so row n-2 has at most two candidates, and each is a solution
 * exactly when row n-1 keeps a free square; both are tested without a
 * loop or a branch, which removes the two least predictable levels.
 *
 * The only symmetry used is the left-right mirror: a solution whose first
 * queen is in the left half mirrors to one whose first queen is in the right
 * half, so the left half is counted twice, and the middle column (odd n)
 * once. This is the reference the symmetry method is checked and measured
 * against; it stays simple on purpose.
 *
 * Work units: the pairs (column of the row-0 queen in the left half or
 * middle, column of the row-1 queen) in increasing order, each with weight
 * 2 (left half) or 1 (middle). For n <= 1 the list is one unit.
 */
#include "plain.h"

#include <stdlib.h>

#include "methods/walk_cost.h"
#include "steps/walk_stack.h"

/* Boards from this size on are estimated by the cost model of walks
 * (walk_cost.h): a unit takes a quarter of a second at n = 17 and grows
 * eightfold a row, too long to time a fair sample of units in seconds.
 * Units of CAL_N (milliseconds) price a node. */
#define PLAIN_MODEL_MIN_N 17u
#define PLAIN_CAL_N 15u

struct nq_plain_plan {
    unsigned n;
    uint64_t size;
    uint8_t *first;  /* column of the row-0 queen, per unit */
    uint8_t *second; /* column of the row-1 queen, per unit */
};

/* How many nodes the walk visits between two looks at the stop flag. */
#define PLAIN_POLL_NODES (1u << 20)

static uint32_t board_mask(unsigned n)
{
    return n >= 32 ? UINT32_MAX : (UINT32_C(1) << n) - 1u;
}

int nq_plain_plan_build(nq_plain_plan **out, unsigned n)
{
    nq_plain_plan *p;
    uint64_t count = 0;
    unsigned half = (n + 1) / 2; /* left half plus the middle when n is odd */

    if (!out)
        return NQ_EINVAL;
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ENOMEM;
    p->n = n;
    if (n >= 3) {
        /* at most n row-1 columns for each row-0 column */
        p->first = malloc((size_t)half * n);
        p->second = malloc((size_t)half * n);
        if (!p->first || !p->second) {
            nq_plain_plan_free(p);
            return NQ_ENOMEM;
        }
        /* A row-1 queen may not share the column or a diagonal of row 0's. */
        for (unsigned a = 0; a < half; a++)
            for (unsigned b = 0; b < n; b++)
                if (b + 1 < a || b > a + 1) {
                    p->first[count] = (uint8_t)a;
                    p->second[count] = (uint8_t)b;
                    count++;
                }
    } else {
        count = 1; /* n <= 2: one unit, counted without a walk */
    }
    p->size = count;
    *out = p;
    return NQ_OK;
}

uint64_t nq_plain_plan_size(const nq_plain_plan *plan) { return plan->size; }

void nq_plain_plan_free(nq_plain_plan *plan)
{
    if (!plan)
        return;
    free(plan->first);
    free(plan->second);
    free(plan);
}

/* Whether queen `bit` of row n-2 (0: none) completes to a solution: it
 * must leave the last row, one row further down, a free square. */
static uint32_t completes(uint32_t full, uint32_t cols, uint32_t ld,
                          uint32_t rd, uint32_t bit)
{
    uint32_t f = full & ~(cols | bit | ((ld | bit) << 1) | ((rd | bit) >> 1));
    return (uint32_t)(bit != 0) & (uint32_t)(f != 0);
}

/* The completions of the last two rows, given the masks of row n-2. Two
 * columns are left there, so at most two candidates: no loop, no branch. */
static uint32_t last_two(uint32_t full, uint32_t cols, uint32_t ld, uint32_t rd)
{
    uint32_t f = full & ~(cols | ld | rd);
    uint32_t b1 = f & (0u - f);
    return completes(full, cols, ld, rd, b1) +
           completes(full, cols, ld, rd, f ^ b1);
}

/* Counts the completions of rows `row`..n-1 given the three masks. The
 * current state stays in registers; the stack holds only the states to come
 * back to. Row n-3 is the deepest one walked: each of its candidates gives
 * the masks of row n-2, whose completions last_two() counts. Returns -1
 * when the stop flag was raised. */
static int walk(unsigned n, unsigned row, uint32_t cols, uint32_t ld,
                uint32_t rd, const nq_stop_flag *stop, uint64_t *out)
{
    const uint32_t full = board_mask(n);
    nq_walk_stack st;
    unsigned d = row;
    unsigned budget = PLAIN_POLL_NODES;
    uint64_t count = 0;
    uint32_t f = full & ~(cols | ld | rd);

    if (row + 2 >= n) { /* n <= 4: no row n-3 below the unit's rows */
        *out = row + 2 == n ? last_two(full, cols, ld, rd)
                            : (uint64_t)__builtin_popcount(f);
        return 0;
    }
    const unsigned last = n - 3;
    for (;;) {
        if (d == last) {
            while (f) {
                uint32_t bit = f & (0u - f);
                f ^= bit;
                count += last_two(full, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
            }
        } else if (f) {
            nq_walk_down(&st, d, f, 1, &cols, &ld, &rd);
            d++;
            f = full & ~(cols | ld | rd);
            continue;
        }
        if (d == row)
            break;
        d--;
        nq_walk_back(&st, d, &f, &cols, &ld, &rd);
        if (--budget == 0) {
            budget = PLAIN_POLL_NODES;
            if (nq_stopped(stop))
                return -1;
        }
    }
    *out = count;
    return 0;
}

int nq_plain_unit_node(const nq_plain_plan *plan, uint64_t unit, nq_plain_node *out,
                       unsigned *weight)
{
    uint32_t a, b;
    if (!plan || !out || !weight || unit >= plan->size || plan->n <= 2)
        return NQ_EINVAL;
    a = UINT32_C(1) << plan->first[unit];
    b = UINT32_C(1) << plan->second[unit];
    out->row = 2;
    out->cols = a | b;
    out->ld = ((a << 1) | b) << 1;
    out->rd = ((a >> 1) | b) >> 1;
    *weight = (plan->n % 2 == 1 && plan->first[unit] == plan->n / 2) ? 1u : 2u;
    return NQ_OK;
}

int nq_plain_count_below(const nq_plain_plan *plan, const nq_plain_node *node,
                         uint64_t *count)
{
    if (!plan || !node || !count || plan->n <= 2 || node->row < 2 ||
        node->row > plan->n)
        return NQ_EINVAL;
    if (node->row == plan->n) { /* a whole board: one solution */
        *count = 1;
        return NQ_OK;
    }
    return walk(plan->n, node->row, node->cols, node->ld, node->rd, NULL, count) == 0
               ? NQ_OK
               : NQ_ECANCELED;
}

int nq_plain_solve_unit(const nq_plain_plan *plan, uint64_t unit,
                        const nq_stop_flag *stop, nq_unit_result *out)
{
    const unsigned n = plan->n;
    uint64_t count = 0;
    nq_plain_node node;
    unsigned weight;

    if (unit >= plan->size)
        return NQ_EINVAL;
    if (nq_stopped(stop)) /* a unit too small to reach a poll stops too */
        return NQ_ECANCELED;
    if (n <= 2) {
        out->total = n <= 1; /* the empty board, or the one queen; none on 2 */
        out->unique = 0;
        return NQ_OK;
    }
    if (nq_plain_unit_node(plan, unit, &node, &weight) != NQ_OK)
        return NQ_EINVAL;
    if (walk(n, node.row, node.cols, node.ld, node.rd, stop, &count) != 0)
        return NQ_ECANCELED;
    out->total = count * weight;
    out->unique = 0;
    return NQ_OK;
}

/* ------------------------------------------------------------------------
 * The method's row (method.h)
 * ------------------------------------------------------------------------ */
static int plain_build(void **plan, unsigned n)
{
    return nq_plain_plan_build((nq_plain_plan **)plan, n);
}

static uint64_t plain_size(const void *plan) { return nq_plain_plan_size(plan); }

static int plain_solve(const void *plan, uint64_t unit, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out)
{
    (void)simd; /* scalar only */
    return nq_plain_solve_unit(plan, unit, stop, out);
}

static void plain_destroy(void *plan) { nq_plain_plan_free(plan); }

/* A unit's walk for the cost model: rows 2 .. n-1 below its two queens. */
static int plain_tree(const void *any, uint64_t unit, nq_walk_tree *out)
{
    const nq_plain_plan *plan = any;
    nq_plain_node node;
    unsigned weight;
    if (!plan || unit >= plan->size)
        return NQ_EINVAL;
    if (plan->n <= 2) {
        out->levels = out->level = 0;
        out->cols = out->ld = out->rd = 0;
        return NQ_OK;
    }
    if (nq_plain_unit_node(plan, unit, &node, &weight) != NQ_OK)
        return NQ_EINVAL;
    out->levels = plan->n - 2;
    out->level = 0;
    out->cols = node.cols;
    out->ld = node.ld;
    out->rd = node.rd;
    for (unsigned i = 0; i < out->levels; i++) {
        out->allowed[i] = board_mask(plan->n);
        out->shift[i] = 1;
    }
    return NQ_OK;
}

static const nq_walk_method plain_walks = { PLAIN_CAL_N, plain_build, plain_size,
                                            plain_solve, plain_destroy, NULL, plain_tree, NULL };

static int plain_model(void *plan, nq_simd simd, double budget, uint64_t seed,
                       const nq_stop_flag *stop, nq_cost_model *out)
{
    if (!plan || !out)
        return NQ_EINVAL;
    if (((const nq_plain_plan *)plan)->n < PLAIN_MODEL_MIN_N)
        return NQ_EUNSUPPORTED;
    return nq_walk_model(&plain_walks, plan, simd, budget, seed, stop, out);
}

int nq_plain_unit_nodes(const nq_plain_plan *plan, uint64_t unit, unsigned probes,
                        uint64_t *seed, double *estimate, uint64_t *exact)
{
    return nq_walk_unit_nodes(&plain_walks, plan, unit, probes, seed, estimate, exact);
}

const nq_method_ops nq_plain_method = {
    .id = NQ_METHOD_PLAIN,
    .name = "plain",
    .list_version = NQ_PLAIN_UNIT_LIST_VERSION,
    .has_unique = 0,
    .build = plain_build,
    .size = plain_size,
    .solve = plain_solve,
    .destroy = plain_destroy,
    .model = plain_model,
};
