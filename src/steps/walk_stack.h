/*
 * walk_stack.h - the stack of a backtracking walk that keeps its own
 * (no recursion): per level, the candidates still to try and the three
 * masks (columns and both diagonals) as they were before the level's
 * queen. The plain walk, the symmetry method's scalar kernel and the
 * host's cut of units into GPU tasks take one step the same way: save
 * the level, place the lowest candidate, go down; when a level has no
 * candidate left, go back up one. Not public, never installed.
 */
#ifndef NQ_WALK_STACK_H
#define NQ_WALK_STACK_H

#include <stdint.h>

#include "hostdev.h"

/* Levels a stack holds: more than any board has rows (NQ_MAX_N). */
#define NQ_WALK_DEPTH 32u

typedef struct nq_walk_stack {
    uint32_t free[NQ_WALK_DEPTH], cols[NQ_WALK_DEPTH];
    uint32_t ld[NQ_WALK_DEPTH], rd[NQ_WALK_DEPTH];
} nq_walk_stack;

/* Saves level d: `rest`, its candidates after the one taken now, and its
 * masks. */
NQ_HOST_DEVICE void nq_walk_save(nq_walk_stack *st, unsigned d, uint32_t rest, uint32_t cols,
                                 uint32_t ld, uint32_t rd)
{
    st->free[d] = rest;
    st->cols[d] = cols;
    st->ld[d] = ld;
    st->rd[d] = rd;
}

/* Goes back to level d: its candidates left and its masks. */
NQ_HOST_DEVICE void nq_walk_back(const nq_walk_stack *st, unsigned d, uint32_t *rest,
                                 uint32_t *cols, uint32_t *ld, uint32_t *rd)
{
    *rest = st->free[d];
    *cols = st->cols[d];
    *ld = st->ld[d];
    *rd = st->rd[d];
}

/* Places the lowest candidate of f on level d: saves the level with the
 * candidates left after it, and moves the masks on by `shift` (the rows
 * down to the next level). */
NQ_HOST_DEVICE void nq_walk_down(nq_walk_stack *st, unsigned d, uint32_t f, unsigned shift,
                                 uint32_t *cols, uint32_t *ld, uint32_t *rd)
{
    const uint32_t bit = f & (0u - f);
    nq_walk_save(st, d, f ^ bit, *cols, *ld, *rd);
    *cols |= bit;
    *ld = (*ld | bit) << shift;
    *rd = (*rd | bit) >> shift;
}

#endif /* NQ_WALK_STACK_H */
