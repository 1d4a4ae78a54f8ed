/*
 * Internal access to a checkpoint's per-unit results, for the engine.
 */
#ifndef NQ_CHECKPOINT_H
#define NQ_CHECKPOINT_H

#include "nqueens.h"

/* The recorded results of a unit that nq_checkpoint_is_done() reports. */
uint64_t nq_checkpoint_unit_total(const nq_checkpoint *cp, uint64_t unit);
uint64_t nq_checkpoint_unit_unique(const nq_checkpoint *cp, uint64_t unit);

#endif
