/*
 * join_keys.h - the growing key list, a half's keys by a plain walk, and the
 * plain walk of whole boards below NQ_JOIN_MIN_N (join_keys.c). Not public.
 */
#ifndef NQ_JOIN_KEYS_H
#define NQ_JOIN_KEYS_H

#include "join_half.h"

/* Makes room for `more` keys after the first count. @return NQ_OK, NQ_ENOMEM. */
int nq_join_keys_reserve(nq_join_keys *k, size_t more);

/* Solutions of an n board (n < NQ_JOIN_MIN_N: one unit) by a plain walk
 * from row `row` (join_keys.c). */
uint64_t nq_join_small_count(unsigned n, unsigned row, uint32_t cols, uint32_t ld,
                             uint32_t rd);

/* Lists into *out (from its start) the next batch of at most `cap` keys
 * of the placements of the half g on `rows` (board rows, a bit each) by
 * a backtracking walk (join_keys.c), from where *cur stands.
 * @return NQ_OK, NQ_ENOMEM. */
int nq_join_walk_keys(nq_join_keys *out, const nq_join_half *g, uint32_t rows,
                      nq_join_cursor *cur, size_t cap);

/* `count` random walks down the half g on `rows`, each taking a free
 * column at random on every row (Knuth's estimator): keys[i] is walk i's
 * key and weights[i] the product of the numbers of free columns it met,
 * an unbiased count of the half's placements, or 0 where the walk met a
 * dead end or a key the listing leaves out (g->need); keys[i] is then 0.
 * So the weights of walks with a property, over `count`, estimate how
 * many of the listed keys have it. seed: in/out (nqc_splitmix64).
 * @return the sum of the weights over count. */
double nq_join_probe_keys(const nq_join_half *g, uint32_t rows, unsigned count,
                          uint64_t *seed, uint64_t *keys, double *weights);

#endif /* NQ_JOIN_KEYS_H */
