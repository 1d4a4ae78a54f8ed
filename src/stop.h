/*
 * stop.h - the flag that ends a running count early.
 *
 * The engine raises it (on cancel, or when one worker fails) and every
 * walk polls it every few thousand nodes. It is a lock-free atomic, read
 * with relaxed order: a worker only needs to see the raise eventually, and
 * it publishes nothing through the flag.
 */
#ifndef NQ_STOP_H
#define NQ_STOP_H

#include <stdatomic.h>

typedef atomic_int nq_stop_flag;

/* @return nonzero once *stop is raised; 0 for a NULL flag. */
static inline int nq_stopped(const nq_stop_flag *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed) != 0;
}

#endif /* NQ_STOP_H */
