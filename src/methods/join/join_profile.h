/*
 * join_profile.h - the cost model's hooks in a split (join_profile.c),
 * which the split being profiled calls (join_split.c), and what a profile
 * of a split or of a sum of splits holds. Not public.
 */
#ifndef NQ_JOIN_PROFILE_H
#define NQ_JOIN_PROFILE_H

#include "join_sieve.h"

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
    int first;            /* in: list, sort and meet only the first batch
                             of each half, as if the lists ended there
                             (the prices of join_cost.c; total is then
                             theirs) */
    unsigned step;        /* in: above 1, only one stored block in `step`
                             meets its items, at phase seed % step (the
                             seed then steps by one), its pairs counted
                             step times (0 or 1: every block) */
} nq_join_profile;


double nq_join_cpu_now(void); /* thread CPU time, in seconds */
/* Gives prof the arrays its hooks work in. @return NQ_OK, NQ_ENOMEM. */
int nq_join_profile_ready(nq_join_profile *prof);

/* Called by the split being profiled: after listing `keys` keys, and for
 * each class of pairs it counts (the bins of the east keys, of the west
 * keys of one class, nb buckets, mt's chunks and fill weight; the longer
 * list stored, or the east one when east_stored). *t: when the step
 * began, set to now. */
void nq_join_profile_keys(nq_join_profile *prof, uint64_t keys, double *t);
void nq_join_profile_pairs(nq_join_profile *prof, const size_t *east_off,
                           const size_t *west_off, unsigned nb, const nq_join_matcher *mt,
                           int east_stored, double *t);

/* The probed version of a split (prof->probes nonzero): prof->probes
 * walks down each of the halves ge on east_rows and gw on west_rows at
 * random, sets *east and *west to the estimated numbers of their keys
 * (NQ_JOIN_PROBE_BUCKETS: the buckets those walks serve; join_split.c
 * walks more for more). @return NQ_OK, NQ_ENOMEM. */
#define NQ_JOIN_PROBE_BUCKETS 1024u
int nq_join_probe_halves(nq_join_profile *prof, const nq_join_half *ge,
                         uint32_t east_rows, const nq_join_half *gw,
                         uint32_t west_rows, double *east, double *west);

/* Then, with the sieve's cuts set from those numbers: adds the modelled
 * work of the split's pairs, for `classes` classes of west keys, class 0
 * left out when skip0 (as count_split does); `weighted`: the east list
 * stored, meeting all west keys at once; else every east batch meets
 * every west batch, the lists taking east_batches and west_batches, or
 * with passes_batch > 0 (batches of that many keys), the east list met
 * in the passes nq_join_probe_passes() planned. */
void nq_join_probe_pairs(nq_join_profile *prof, const nq_join_sieve *sv,
                         const nq_join_matcher *mt, unsigned classes, int skip0,
                         int weighted, double east_batches, double west_batches,
                         double passes_batch);

/* Then, where both lists take several batches: how the count would meet
 * the east list by pattern (join_pass.h), from the walks' keys. Sets
 * *share to the share of the east x west pairs left to meet, and
 * *east_listed and *west_listed to the keys the passes' listings keep
 * (nq_join_passes_cost()). @return 1, or 0 when no bits are worth a
 * pattern (then the east list is met in list order). */
int nq_join_probe_passes(nq_join_profile *prof, const nq_join_sieve *sv, double batch,
                         double *share, double *east_listed, double *west_listed);

#endif /* NQ_JOIN_PROFILE_H */
