/*
 * join_scalar.h - the kernels of join_scalar.c: plain C, every
 * architecture (their jobs: join_block.h). Not public.
 */
#ifndef NQ_JOIN_SCALAR_H
#define NQ_JOIN_SCALAR_H

#include "join_block.h"

NQ_JOIN_LEVEL_KERNELS(scalar);

#endif /* NQ_JOIN_SCALAR_H */
