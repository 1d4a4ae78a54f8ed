/*
 * sym_border.h - the symmetry method's constellations (sym_border.c), for
 * the unit list (sym_unit.c) and the fixed solutions (sym_fixed.c); the
 * board a constellation leaves to walk is sym_walk.h's. Not public, never
 * installed.
 */
#ifndef NQ_SYM_BORDER_H
#define NQ_SYM_BORDER_H

#include <stddef.h>
#include <stdint.h>

#include "sym_walk.h"

/* One canonical constellation, or a group of them that differ only in the
 * bottom queen (bottom != 0): then the walk places that queen too, in one
 * of the columns of `bottom`, and b is unused. */
typedef struct nq_sym_constellation {
    uint8_t a;       /* column of the queen in row 0 */
    uint8_t b;       /* column of the queen in row n-1 (bottom == 0) */
    uint8_t c;       /* row of the queen in column 0 */
    uint8_t d;       /* row of the queen in column n-1 */
    uint8_t stab;    /* bit g set: symmetry g maps the constellation to itself */
    uint32_t bottom; /* the group's columns for the row-(n-1) queen, or 0 */
} nq_sym_constellation;

/* The image (*r_out, *c_out) of square (r, c) of an n board under symmetry
 * g: 0 identity, 1-3 quarter, half and three-quarter turns, 4-7 the
 * reflections. */
void nq_sym_map(unsigned g, unsigned n, unsigned r, unsigned c,
                unsigned *r_out, unsigned *c_out);

/* Whether queens on (r1, c1) and (r2, c2) attack each other (or coincide). */
int nq_sym_attack(unsigned r1, unsigned c1, unsigned r2, unsigned c2);

/* The number of symmetries in the stabiliser stab (bit g: symmetry g). */
unsigned nq_sym_order(uint8_t stab);

/* The interior walk of a constellation (see nq_sym_board). rows, when not
 * NULL, receives the board row of each level. */
void nq_sym_make_board(nq_sym_board *bd, unsigned *rows, unsigned n,
                       const nq_sym_constellation *cn);

/* Walks the canonical border placements of an n board in list order and
 * fills cons when not NULL: for each (a, c, d) in turn, the group of its
 * bottom queens, if any, then the placements that cannot join a group,
 * bottom queen from left to right.
 * @return how many entries (groups and single constellations) there are. */
size_t nq_sym_enumerate(unsigned n, nq_sym_constellation *cons);

#endif /* NQ_SYM_BORDER_H */
