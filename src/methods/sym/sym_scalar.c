/*
 * sym_scalar.c - the interior walk of the symmetry method in plain C: the
 * kernel of every architecture, and the reference the SIMD kernels are
 * checked against unit by unit.
 *
 * An explicit stack of (free, cols, ld, rd) per level instead of recursion.
 * The last row is never entered: from the last-but-one row, with one free
 * column left, each candidate is a solution or not by a single mask test.
 * Rows with a border queen are not levels: the diagonal masks move by
 * shift[d] rows between levels (see sym.c's design note). Declared in
 * sym_scalar.h; its job, the board and the node, in sym_walk.h.
 */
#include "sym_scalar.h"

#include "steps/walk_stack.h"

int nq_sym_count_scalar(const nq_sym_board *bd, const nq_sym_node *start,
                        const nq_stop_flag *stop, uint64_t *count)
{
    const unsigned last = bd->levels - 1;
    unsigned d = start->level;
    uint32_t cols = start->cols, ld = start->ld, rd = start->rd;
    uint32_t f = bd->allowed[d] & ~(cols | ld | rd);
    if (d == last) {
        *count += (uint64_t)__builtin_popcount(f);
        return NQ_OK;
    }
    const unsigned base = d;
    nq_walk_stack st;
    uint64_t n = 0;
    unsigned poll = NQ_SYM_POLL_STEPS;
    for (;;) {
        if (d + 1 == last) {
            /* The last row has exactly one unused column left: each
             * candidate here is a solution or not, by one test. */
            const uint32_t al = bd->allowed[last];
            const unsigned s = bd->shift[d];
            while (f) {
                uint32_t bit = f & (0u - f);
                f ^= bit;
                n += (al & ~(cols | bit | ((ld | bit) << s) | ((rd | bit) >> s))) != 0;
            }
        } else if (f) {
            nq_walk_down(&st, d, f, bd->shift[d], &cols, &ld, &rd);
            d++;
            f = bd->allowed[d] & ~(cols | ld | rd);
            continue;
        }
        if (d == base)
            break;
        d--;
        nq_walk_back(&st, d, &f, &cols, &ld, &rd);
        if (--poll == 0) {
            poll = NQ_SYM_POLL_STEPS;
            if (nq_stopped(stop))
                return NQ_ECANCELED;
        }
    }
    *count += n;
    return NQ_OK;
}

