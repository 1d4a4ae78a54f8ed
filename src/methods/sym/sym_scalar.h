/*
 * sym_scalar.h - the kernel of sym_scalar.c (its job: sym_walk.h). Not
 * public, never installed.
 */
#ifndef NQ_SYM_SCALAR_H
#define NQ_SYM_SCALAR_H

#include <stdint.h>

#include "sym_walk.h"

/* sym_scalar.c: plain C, every architecture. */
int nq_sym_count_scalar(const nq_sym_board *board, const nq_sym_node *start,
                        const nq_stop_flag *stop, uint64_t *count);

#endif /* NQ_SYM_SCALAR_H */
