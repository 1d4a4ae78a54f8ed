/*
 * method.h - the job every counting method does, and the table of methods.
 *
 * A method turns a board size into an ordered list of work units (the same
 * list for the same n, always) and counts any one unit on its own, on any
 * thread, with the same result every time. The engine (engine.c), the
 * checkpoint store and the public helpers (nq_units, nq_method_name, ...)
 * reach methods only through this table, never by name.
 *
 * Adding a method: one source file that defines a `const nq_method_ops`,
 * its declaration below, one row in method.c, and a value in nq_method
 * (include/nqueens.h). See docs/conventions.md.
 */
#ifndef NQ_METHOD_H
#define NQ_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "nqueens.h"
#include "stop.h"

/* The counts of one unit. */
typedef struct nq_unit_result {
    uint64_t total;  /* solutions of the unit, times its symmetry weight */
    uint64_t unique; /* the unit's share of the count up to symmetry (0 when
                        the method does not count unique solutions) */
} nq_unit_result;

/* What a method's cost model says a whole count takes (see `model`). */
typedef struct nq_cost_model {
    double cpu_seconds;    /* one core's seconds for every unit of the list */
    double low, high;      /* the interval that holds it (about 95%) */
    uint64_t sampled;      /* pieces of work the model looked at */
    uint64_t timed;        /* of which, or of a smaller board's, timed */
} nq_cost_model;

struct nq_gpu; /* device/device.h */

/* The functions of a method's plan (see nq_method_ops). */
typedef int nq_plan_build_fn(void **plan, unsigned n);
typedef uint64_t nq_plan_size_fn(const void *plan);
typedef int nq_plan_solve_fn(const void *plan, uint64_t unit, nq_simd simd,
                             const nq_stop_flag *stop, nq_unit_result *out);
typedef void nq_plan_destroy_fn(void *plan);
typedef int nq_has_simd_fn(nq_simd simd);

typedef struct nq_method_ops {
    nq_method id;          /* never NQ_METHOD_DEFAULT */
    const char *name;      /* what nq_method_name() returns */
    /* Bumped whenever the unit list of some n changes (order, shape,
     * count): checkpoints and "part k of m" runs address units by index. */
    uint32_t list_version;
    /* The lists of n below this are also those of list_version - 1:
     * checkpoints and part lines of that version are read as this one's
     * (nq_method_reads_list). 0: none. */
    unsigned list_kept_below;
    int has_unique;        /* nonzero: solve() fills unique */

    /* Builds the ordered unit list of n (0..NQ_MAX_N) into *plan; the
     * list is never empty.
     * @return NQ_OK, NQ_ERANGE, NQ_ENOMEM, NQ_EINVAL (NULL plan). */
    nq_plan_build_fn *build;
    /* @return the number of units of the plan. */
    nq_plan_size_fn *size;
    /* Counts unit `unit` (< size) at level `simd` (never NQ_SIMD_AUTO; a
     * level has_simd() accepts, or NQ_SIMD_NONE). Polls *stop (may be
     * NULL) every millisecond of work at most; a raised flag ends the call
     * with NQ_ECANCELED and leaves *out untouched. Any number of threads
     * may solve units of one plan at once: state that the plan shares
     * between its units and changes while they run (a table built on
     * first need, pooled scratch) is guarded by the method itself (see
     * docs/conventions.md, "Threads and cancellation").
     * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL, NQ_EUNSUPPORTED, NQ_ENOMEM. */
    nq_plan_solve_fn *solve;
    /* Frees a plan; NULL is fine. */
    nq_plan_destroy_fn *destroy;
    /* Whether this build has a kernel of the method at level `simd` (the
     * CPU is not asked). NULL: the method is scalar only, and runs at
     * NQ_SIMD_NONE whatever level is asked. */
    nq_has_simd_fn *has_simd;
    /* Fits the count of the plan with `threads` workers into `limit`
     * bytes: sets *out to the bytes it will take at most (beyond the
     * engine's unit lists), choosing a slower way in less memory where the
     * method has one and the fast way does not fit. NULL: the method needs
     * no memory worth counting beyond its unit list.
     * Of a count on the CPU only: a count on a GPU takes the GPU's
     * buffers (NQ_GPU_MEMORY) and what solve_gpu takes for a batch.
     * @return NQ_OK, NQ_EMEMLIMIT (no way fits; *out is set to what the
     *         leanest way needs). */
    int (*fit_memory)(void *plan, unsigned threads, uint64_t limit, uint64_t *out);
    /* Builds now what the units of the plan share (else the first unit
     * that needs it builds it); polls *stop (may be NULL). NULL: nothing
     * is shared. @return NQ_OK, NQ_ECANCELED, NQ_ENOMEM. */
    int (*prepare)(void *plan, const nq_stop_flag *stop);
    /* Models the CPU time of the whole count of the plan at level `simd`
     * (never AUTO) from a seeded sample of its work, in about `budget`
     * seconds and little memory, without building what the units share.
     * NULL, or NQ_EUNSUPPORTED for this plan: nq_estimate() times a sample
     * of units instead. Polls *stop (may be NULL).
     * @return NQ_OK, NQ_EUNSUPPORTED, NQ_ECANCELED, NQ_ENOMEM. */
    int (*model)(void *plan, nq_simd simd, double budget, uint64_t seed,
                 const nq_stop_flag *stop, nq_cost_model *out);
    /* Builds a plan of the same unit list whose units reach the same
     * counts by other code (the join: walking both half-boards instead of
     * reading its quarter-board table), for nq_recheck(). NULL: none. */
    int (*build_other)(void **plan, unsigned n);
    /* Counts unit `unit` of a plan of build() again by a slow walk that
     * shares no code with solve() (nq_recheck()'s independent path): the
     * same result as solve(), or the method is wrong. Polls *stop. NULL:
     * none. @return NQ_OK, NQ_ECANCELED, NQ_EINVAL. */
    int (*check)(const void *plan, uint64_t unit, const nq_stop_flag *stop,
                 nq_unit_result *out);
    /* Counts units[0 .. count-1] of the plan on an opened GPU (device.h)
     * into out[0 .. count-1], each the same result as solve() gives;
     * `simd` is the CPU level of any unit the method counts on the host.
     * Polls *stop. NULL: the method has no GPU path.
     * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL, NQ_ENOMEM, NQ_EDEVICE,
     *         NQ_EDEVICEMEM. */
    int (*solve_gpu)(const void *plan, struct nq_gpu *gpu, const uint64_t *units,
                     size_t count, nq_simd simd, const nq_stop_flag *stop,
                     nq_unit_result *out);
    /* As `model`, for a count on the opened GPU: out->cpu_seconds (and its
     * interval) are that GPU's wall seconds for the whole count, priced by
     * batches of a smaller board's units timed on it. NULL, or
     * NQ_EUNSUPPORTED for this plan: nq_estimate() times a sample of units
     * on the GPU instead. Polls *stop. @return as `model`, or an error of
     * the GPU (NQ_EDEVICE, NQ_EDEVICEMEM). */
    int (*model_gpu)(void *plan, struct nq_gpu *gpu, nq_simd simd, double budget,
                     uint64_t seed, const nq_stop_flag *stop, nq_cost_model *out);
} nq_method_ops;

#endif /* NQ_METHOD_H */
