/*
 * join_memory.h - what a unit's scratch takes, the batches and slots that
 * fit a memory limit, and the scratch's release (join_memory.c). Not public.
 */
#ifndef NQ_JOIN_MEMORY_H
#define NQ_JOIN_MEMORY_H

#include "join_split.h"

/* Keys per batch of a half's list (32 MiB), and the fewest that a tight
 * memory limit may ask for (powers of two: a list grown by doubling stops
 * at the batch). Lists pass 2^20 keys from n = 24 on; at n = 26 batches
 * of 2^21 or 2^22 keys took 0.8 to 0.9 of the time of batches of 2^20
 * (fuller buckets per pair of batches; bench/nq_join_lists). */
#define NQ_JOIN_BATCH_KEYS ((size_t)1 << 22)
/* Where the quarters' slots cannot have all they want, below n = 26 the
 * batch stays within NQ_JOIN_TIGHT_BATCH_KEYS and the rest goes to them:
 * a quarter walked costs more (n = 24: 1.3 to 1.5 times) than a smaller
 * batch. From n = 26 the lists run to many batches, and the largest batch
 * comes first, then the largest slots beside it (n = 26: 2^21 keys beside
 * 2^18 pieces took 0.84 of 2^20 beside 2^20, and 2^22 beside 2^19 0.78 of
 * 2^20 beside 2^21; bench/nq_join_lists). */
#define NQ_JOIN_TIGHT_BATCH_KEYS ((size_t)1 << 20)
#define NQ_JOIN_BATCH_FIRST_N 26u
#define NQ_JOIN_MIN_BATCH_KEYS ((size_t)1 << 14)

/* Scratch of one unit of size n whose key lists come in batches of at
 * most `batch` keys, and whose piece lists (`table` nonzero) are as long
 * as the quarter table's fullest cell; 0 below NQ_JOIN_MIN_N. */
uint64_t nq_join_unit_bytes(unsigned n, size_t batch, int table);
/* What a unit's quarter slots take when each holds at most `pieces`
 * pieces (0: none, the halves are walked). */
uint64_t nq_join_rowset_bytes(unsigned n, size_t pieces);
/* The most pieces a slot may hold (at most `most`, halved down to
 * NQ_JOIN_MIN_ROWSET_PIECES) for the slots to fit `room` bytes; 0 when
 * even the smallest do not. */
size_t nq_join_rowset_fit(unsigned n, size_t most, uint64_t room);
/* The most pieces a slot holds by default at board size n (more: the
 * quarter is walked): 2^16 at n = 20 to 2^23 at 28, room for the fullest
 * quarters counted (fit_memory() may lower it). */
size_t nq_join_rowset_want(unsigned n);
/* Frees a unit's scratch and all it holds. */
void nq_join_scratch_free(nq_join_scratch *s);

/* Predicted peak, in bytes, of the scratch memory one unit of size n
 * takes with the table and batches of the default size (join_memory.c:
 * from measured list sizes up to n = 20, extrapolated beyond; 0 for
 * n < 4); at most about 25 MiB at any n. A count with T threads needs about T times this
 * (the method row's fit_memory works out the whole). */
uint64_t nq_join_unit_memory(unsigned n);

#endif /* NQ_JOIN_MEMORY_H */
