/*
 * sym_scalar.h - the kernel of sym_scalar.c (its job: sym_walk.h). Not
 * public, never installed.
 */
#ifndef NQ_SYM_SCALAR_H
#define NQ_SYM_SCALAR_H

#include "sym_walk.h"

/* sym_scalar.c: plain C, every architecture. */
NQ_SYM_LEVEL_KERNEL(scalar);

#endif /* NQ_SYM_SCALAR_H */
