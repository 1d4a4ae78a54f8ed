/*
 * sym.h - the symmetry counting method's row of the method table (sym.c,
 * method.h). Not public, never installed. The engine reaches the method
 * only through this row (methods.c); the unit list and a unit's count are
 * declared in sym_unit.h, the cost model in sym_cost.h, the GPU path in
 * sym_gpu.h, the kernels in sym_kernel.h (the interior walk they count:
 * sym_walk.h). See the design note at the top of sym.c.
 */
#ifndef NQ_SYM_H
#define NQ_SYM_H

#include "method.h"

/* The method's row of the method table (methods.c). */
extern const nq_method_ops nq_sym_method;

#endif /* NQ_SYM_H */
