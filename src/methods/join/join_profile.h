/*
 * join_profile.h - the cost model's hooks in a split (join_profile.c),
 * which the split being profiled calls (join_split.c). Part of
 * join_internal.h, which includes it at its end; not public.
 */
#ifndef NQ_JOIN_PROFILE_H
#define NQ_JOIN_PROFILE_H

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
 * every west batch, the lists taking east_batches and west_batches. */
void nq_join_probe_pairs(nq_join_profile *prof, const nq_join_sieve *sv,
                         const nq_join_matcher *mt, unsigned classes, int skip0,
                         int weighted, double east_batches, double west_batches);

#endif /* NQ_JOIN_PROFILE_H */
