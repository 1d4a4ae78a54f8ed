/*
 * sym_fixed.h - the solutions of a constellation fixed by a turn
 * (sym_fixed.c), for the unique counts of sym_unit.c. Not public, never
 * installed.
 */
#ifndef NQ_SYM_FIXED_H
#define NQ_SYM_FIXED_H

#include <stdint.h>

#include "sym_border.h"

/* Counts into *out the solutions of the single constellation cn (bottom
 * 0) of an n board (6 <= n <= NQ_MAX_N) that the turn g (1: a quarter
 * turn, 2: a half turn) maps to themselves. Polls *stop (may be NULL).
 * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL. */
int nq_sym_fixed(uint64_t *out, unsigned n, const nq_sym_constellation *cn,
                 unsigned g, const nq_stop_flag *stop);

#endif /* NQ_SYM_FIXED_H */
