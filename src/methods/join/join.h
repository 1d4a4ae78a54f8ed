/*
 * join.h - the join counting method's plan: what the method table, the
 * tests and the tools may call. Not public, never installed. What the
 * method's own files share is in join_internal.h.
 *
 * A plan is the ordered list of work units for one board size; a unit is a
 * run of row splits, solved on its own, by any thread, at any SIMD level,
 * always with the same result. See the design note at the top of join.c.
 */
#ifndef NQ_JOIN_H
#define NQ_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "method.h"

/* Bumped whenever the unit list of some n changes (order, shape, count),
 * because checkpoints and "part k of m" runs address units by index.
 * Version 2: longer lists from n = 24 on (see join.c). */
#define NQ_JOIN_UNIT_LIST_VERSION 2u

typedef struct nq_join_plan nq_join_plan;

/* Builds the ordered unit list for n (0..NQ_MAX_N).
 * @return NQ_OK, NQ_ERANGE, NQ_ENOMEM, or NQ_EINVAL for a NULL out. What
 *         a count of the plan will take is the method row's fit_memory. */
int nq_join_plan_build(nq_join_plan **out, unsigned n);

/* The same plan, but its units go without the quarter table (as when it
 * would not fit in memory): they list each split's quarters, or walk the
 * halves (nq_join_plan_set_rowset_pieces); for tests and the re-check. */
int nq_join_plan_build_walk(nq_join_plan **out, unsigned n);

/* Makes the units of the plan sort keys on `cuts` bucket bits (0 ..
 * NQ_JOIN_MAX_CUTS) whatever the lists' sizes, or on as many as their
 * sizes call for (-1, the default); for tests, since every choice must
 * give the same counts. Not while units of the plan run.
 * @return NQ_OK, NQ_EINVAL (NULL plan, cuts out of range). */
int nq_join_plan_set_cuts(nq_join_plan *plan, int cuts);

/* Makes the units of the plan list each half's keys in batches of at
 * most `keys` keys (a little more where one step of the listing cannot
 * be split), every east batch meeting every west batch; the default is
 * 2^22 keys, and a count under a memory limit may take fewer (the
 * method row's fit_memory). For tests, since every batch size must give
 * the same counts. Not while units of the plan run.
 * @return NQ_OK, NQ_EINVAL (NULL plan, keys 0). */
int nq_join_plan_set_batch(nq_join_plan *plan, size_t keys);

/* Without the table, the units list each half's two quarters for the
 * split at hand when each has at most `pieces` pieces (join_rowset.c),
 * else walk the half; 0 walks every half. The default has room for the
 * fullest quarters of n (2^16 pieces at n = 20 to 2^23 at 28), and a
 * count under a memory limit may take fewer (fit_memory). For tests
 * and benches, since both ways must give the same counts. Not while
 * units of the plan run. @return NQ_OK, NQ_EINVAL (NULL plan). */
int nq_join_plan_set_rowset_pieces(nq_join_plan *plan, size_t pieces);

/* @return the number of units of the plan (0 for NULL). */
uint64_t nq_join_plan_size(const nq_join_plan *plan);

/* Solves unit `unit` (< size) at SIMD level `simd` (never AUTO); fills
 * out->total (already weighted by symmetry) and sets out->unique to 0.
 * Polls *stop every few milliseconds of work; a raised flag ends the call
 * with NQ_ECANCELED and leaves out untouched. Thread-safe: each call owns
 * its scratch memory.
 * @return NQ_OK, NQ_ECANCELED, NQ_ENOMEM, NQ_EINVAL (NULL plan/out, unit
 *         out of range, bad level), NQ_EUNSUPPORTED (level not on this CPU). */
int nq_join_solve_unit(const nq_join_plan *plan, uint64_t unit, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out);

/* The splits first .. end - 1 that unit `unit` (< size) counts: a run of
 * consecutive split numbers (nq_join_profile_split), taken in a cost
 * proxy's order, heaviest first, from n = 24 on (join_order.c); builds
 * that order on its first call; none (first = end = 0) below n = 4, where
 * the one unit is a plain walk. @return NQ_OK, NQ_ENOMEM, NQ_EINVAL (NULL
 * argument, unit out of range). */
int nq_join_plan_unit_splits(const nq_join_plan *plan, uint64_t unit,
                             uint64_t *first, uint64_t *end);

/* The row split `split` (< nq_join_plan_splits) as the GPU's steps count
 * it (join_gpu.h, nq_join_split_gpu()): weight 0 when it is not the
 * counted image of its orbit. @return NQ_OK, NQ_EINVAL (NULL argument,
 * split out of range, n below NQ_JOIN_MIN_N). */
struct nq_jg_split;
int nq_join_plan_gpu_split(const nq_join_plan *plan, uint64_t split,
                           struct nq_jg_split *out);

/* The method row's GPU path (method.h, join_gpu.c): units[0 .. count-1]
 * of the plan counted on an opened GPU, each the same result as
 * nq_join_solve_unit() gives (nq_join_gpu_runs() of their splits);
 * `simd` is unused (nothing of a unit is counted on the host's lanes).
 * @return as the row's solve_gpu. */
struct nq_gpu;
int nq_join_solve_gpu(const void *plan, struct nq_gpu *gpu, const uint64_t *units,
                      size_t count, nq_simd simd, const nq_stop_flag *stop,
                      nq_unit_result *out);

void nq_join_plan_free(nq_join_plan *plan);

/* Predicted peak, in bytes, of the scratch memory one unit of size n
 * takes with the table and batches of the default size (join_memory.c:
 * from measured list sizes up to n = 20, extrapolated beyond; 0 for
 * n < 4); at most about 25 MiB at any n. A count with T threads needs about T times this
 * (the method row's fit_memory works out the whole). */
uint64_t nq_join_unit_memory(unsigned n);

/* ------------------------------------------------------------------------
 * The cost model of nq_estimate() (join_cost.c, a split profiled by
 * join_plan.c through the hooks of join_profile.c); the profile of a split
 * is also for tests.
 * ------------------------------------------------------------------------ */

struct nq_join_scratch;
struct nq_join_profile_area;

/* What one split, or a sum of splits, costs: the work the model counts
 * and the thread CPU time each step took. The work of the pairs is
 * modelled from the sizes of the buckets (join_profile.c). */
typedef struct nq_join_profile {
    int match;            /* in: also count the pairs (else the split is
                             listed, sorted and its pairs tallied only) */
    unsigned probes;      /* in: nonzero: list no keys, but estimate them
                             from this many random walks down each half */
    uint64_t seed;        /* in/out: of the walks */
    double keys;          /* east and west keys (estimated when probed) */
    double work;          /* the model's meetings of blocks and items */
    uint64_t items;       /* items that met a block, times its chunks, and */
    uint64_t fills;       /* blocks filled, times their chunks: exact, and
                             only when not probed */
    double list_seconds;  /* listing the keys */
    double sort_seconds;  /* sorting them, and tallying the pairs */
    double match_seconds; /* counting the pairs (when match) */
    uint64_t total;       /* the solutions counted (when match) */
    struct nq_join_scratch *keep; /* a walk's scratch, kept for the next
                                     split of the same plan */
    uint64_t *pkey;       /* the probes' keys and weights */
    double *pweight;
    size_t pcap;
    struct nq_join_profile_area *area; /* the model's bucket arrays */
} nq_join_profile;

/* Frees what prof keeps (prof itself is the caller's). */
void nq_join_profile_end(nq_join_profile *prof);

/* Row splits of the plan (the units are runs of them; 0 below n = 4),
 * its n, whether its units walk the half-boards (no table), the most
 * pieces a quarter slot of theirs holds (0: every half walked), and the
 * keys of a batch. */
uint64_t nq_join_plan_splits(const nq_join_plan *plan);
unsigned nq_join_plan_n(const nq_join_plan *plan);
int nq_join_plan_walks(const nq_join_plan *plan);
size_t nq_join_plan_rowset_pieces(const nq_join_plan *plan);
size_t nq_join_plan_batch(const nq_join_plan *plan);

/* The method row's independent re-count of a unit (join_check.c): a plain
 * walk of whole boards restricted to each of the unit's row splits, with
 * the symmetry weights worked out from the design note of join.c, apart
 * from join_split.c. The same result as nq_join_solve_unit(), slowly.
 * @return NQ_OK, NQ_ECANCELED, NQ_EINVAL. */
int nq_join_check_unit(const void *plan, uint64_t unit, const nq_stop_flag *stop,
                       nq_unit_result *out);

/* Counts split number `split` (< nq_join_plan_splits) as a unit would, or
 * only lists its keys when prof->match is 0, adding what it did and took
 * to *prof; with `table` 0 the keys come from the walk, not the table
 * (which is then not built). A split that is not the counted image of
 * its orbit adds nothing. @return NQ_OK, NQ_EINVAL, NQ_EUNSUPPORTED,
 * NQ_ENOMEM, NQ_ECANCELED. */
int nq_join_profile_split(const nq_join_plan *plan, uint64_t split, nq_simd simd,
                          int table, const nq_stop_flag *stop,
                          nq_join_profile *prof);

/* The prices of the cost model on this machine: CPU seconds per meeting
 * and per key, timed on splits of n = 20 within `budget` CPU seconds
 * (at least 24 of them), as the model does for a count of `plan`; for
 * benches that price units. @return NQ_OK, NQ_EINVAL, NQ_ENOMEM,
 * NQ_EUNSUPPORTED, NQ_ECANCELED. */
int nq_join_model_prices(const nq_join_plan *plan, nq_simd simd, double budget,
                         uint64_t seed, const nq_stop_flag *stop, double *per_meeting,
                         double *per_key);

/* The method row's cost model (method.h). */
int nq_join_model(void *plan, nq_simd simd, double budget, uint64_t seed,
                  const nq_stop_flag *stop, nq_cost_model *out);

#endif /* NQ_JOIN_H */
