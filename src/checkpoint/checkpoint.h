/*
 * The checkpoint store (checkpoint.c) inside the library, beyond what
 * nqueens.h publishes: the engine's access to per-unit results, opening
 * for a unit list the caller describes, binding a default-method
 * checkpoint to the method a count resolves, taking it for one count at
 * a time, and the older unit list a file may hold. The file format is
 * checkpoint_file.h's (its numbers and shared types checkpoint_format.h's),
 * files on disk checkpoint_fs.h's.
 */
#ifndef NQ_CHECKPOINT_H
#define NQ_CHECKPOINT_H

#include <stdint.h>

#include "nqueens.h"

/* The recorded results of a unit that nq_checkpoint_is_done() reports. */
uint64_t nq_checkpoint_unit_total(const nq_checkpoint *cp, uint64_t unit);
uint64_t nq_checkpoint_unit_unique(const nq_checkpoint *cp, uint64_t unit);

/* nq_checkpoint_open() with the count's unit list described by the caller,
 * so that the store needs nothing from the engine. */
int nq_checkpoint_open_list(nq_checkpoint **out, const char *path, unsigned n,
                            nq_method method, uint32_t list_version,
                            uint64_t units_total);

/* A checkpoint that nq_checkpoint_open() opened for NQ_METHOD_DEFAULT
 * with no file yet (or in memory only), and that holds nothing yet, takes
 * the unit list of the method the count resolves the default to (unique
 * counts may need another one than totals). NQ_OK when cp fits that list
 * now (or did already), NQ_EMISMATCH when it cannot change, NQ_ENOMEM. */
int nq_checkpoint_bind(nq_checkpoint *cp, nq_method method, uint32_t list_version,
                       uint64_t units_total);

/* 1 if cp could still be bound to another method (see above). */
int nq_checkpoint_is_unbound(const nq_checkpoint *cp);

/* Takes cp for one count (an atomic test-and-set): NQ_OK, or NQ_EBUSY
 * while another count holds it. nq_checkpoint_give() lets it go. */
int nq_checkpoint_take(nq_checkpoint *cp);
void nq_checkpoint_give(nq_checkpoint *cp);

/* The older unit list version that a file of n read as `list_version`
 * of the method may hold (nq_ckpt_expect.list_version_kept, in
 * checkpoint_format.h), or 0. */
uint32_t nq_ckpt_kept_version(unsigned n, nq_method method, uint32_t list_version);

#endif
