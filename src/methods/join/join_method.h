/*
 * join_method.h - the join counting method's row of the method table
 * (join_method.c, method.h). Not public, never installed.
 */
#ifndef NQ_JOIN_METHOD_H
#define NQ_JOIN_METHOD_H

#include "method.h"

extern const nq_method_ops nq_join_method;

#endif /* NQ_JOIN_METHOD_H */
