/*
 * join_split.h - one row split counted on the CPU: a unit's scratch, and
 * the splits of a unit solved in it (join_split.c). Not public.
 */
#ifndef NQ_JOIN_SPLIT_H
#define NQ_JOIN_SPLIT_H

#include "join_profile.h"
#include "join_quarter.h"
#include "join_rowset.h"
#include "join_sieve.h"

/* How nq_join_sample_unit() (join_plan.h) samples a unit, and the times
 * it measured. */
typedef struct nq_join_sampling {
    /* the sieve's matches take one block of stored keys in `step` (>= 1),
     * those whose place in the unit's run of blocks is -phase modulo the
     * step (phase < step), and count their pairs `step` times */
    unsigned step, phase;
    /* a split whose east list takes several batches meets the west list
     * with one of its east batches in `east_step` (>= 1), those whose
     * place in the unit's run of such batches is -east_phase modulo it
     * (east_phase < east_step), their pairs counted east_step times; the
     * others are listed and sorted, and meet nothing */
    unsigned east_step, east_phase;
    double match_seconds;      /* out: thread CPU time of the sampled matches */
    double east_seconds;       /* out: of the work of the east batches taken
                                  (east_step > 1): listing the west list
                                  again, sorting it and matching */
    double east_match_seconds; /* out: of their matches (within both) */
} nq_join_sampling;

/* Everything one unit writes while it runs. join_plan.c hands a unit an idle
 * one of its plan (or a new one) and takes it back when the unit ends. */
typedef struct nq_join_scratch {
    struct nq_join_scratch *next;   /* in the plan's idle list */
    nq_join_keys east, west, spare;
    nq_join_half ge, gw;
    const nq_join_quarter *quarter; /* NULL: list quarters, or walk */
    nq_join_rowset rowset[NQ_JOIN_ROWSETS]; /* east top, bottom; west's */
    size_t rowset_pieces;           /* most pieces a slot holds; 0: walk */
    const nq_join_kernel *kernel;   /* of the level the unit runs at */
    nq_join_pieces pieces;
    nq_join_matcher mt;
    nq_join_sieve sieve;
    int cuts;                       /* bucket bits; negative: by list size */
    size_t batch;                   /* keys per batch of a half's list */
    nq_join_cursor east_at, west_at;
    size_t *east_off, *west_off; /* bins' starts (nq_join_scratch_bins) */
    uint32_t *sort_count;        /* the sort's counters (nq_join_sieve_sort) */
    unsigned bins_room;          /* buckets they have room for */
    nq_join_profile *profile; /* non-NULL: measured for join_profile.c */
    uint64_t sample_at;       /* the sampled matches' count of blocks
                                 (mt.sample_step, nq_join_matcher) */
    double sampled_seconds;   /* thread CPU time of those matches */
    nq_join_sampling *sampling; /* the unit's sample (NULL: counted whole),
                                   where its east batches' times go */
    uint64_t east_seen;       /* east batches of sampled splits met so far,
                                 from the sample's phase on */
    int passes_on;            /* a long east list met by pattern */
    struct nq_join_passes *passes; /* their scratch (join_pass.h), made
                                      when first needed */
} nq_join_scratch;

/* With smp: the unit that s solves next is sampled as *smp says
 * (nq_join_sample_unit()); with NULL, the times measured go to the smp
 * set before, and s counts whole again. */
void nq_join_scratch_sampling(nq_join_scratch *s, nq_join_sampling *smp);

/* Makes room in s for the bins of `buckets` buckets: the sort's counters
 * and where each bin starts. @return NQ_OK, NQ_ENOMEM. */
int nq_join_scratch_bins(nq_join_scratch *s, unsigned buckets);

/* Adds to *total the solutions of the numbered splits first .. end - 1 of
 * an n board (n >= 4), per_m of them per middle row (see the design note
 * of join_method.c), in s (set up for the plan). Polls s->mt.stop.
 * @return NQ_OK, NQ_ENOMEM, NQ_ECANCELED. */
int nq_join_solve_splits(nq_join_scratch *s, unsigned n, uint64_t per_m,
                         uint64_t first, uint64_t end, uint64_t *total);

#endif /* NQ_JOIN_SPLIT_H */
