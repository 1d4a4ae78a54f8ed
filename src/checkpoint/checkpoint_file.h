/*
 * The checkpoint file format in memory (checkpoint_file.c): bytes in,
 * checked records out, and back. No files, no locks, no unit lists; the
 * format's numbers and shared types are in checkpoint_format.h. Used by
 * the store (checkpoint.c), the snapshot reader (checkpoint_load.c), the
 * peek (checkpoint_peek.c) and the loader's fuzz target.
 */
#ifndef NQ_CHECKPOINT_FILE_H
#define NQ_CHECKPOINT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "checkpoint_format.h"

typedef int (*nq_ckpt_record_fn)(void *data, uint64_t unit, uint64_t total,
                                 uint64_t unique);

uint64_t nq_ckpt_fnv1a(const unsigned char *p, size_t len);

/* The longest file, in any format read, of `records` records of a list of
 * `units_total` units: NQ_OK, or NQ_ENOMEM if that is more than a size_t. */
int nq_ckpt_max_size(size_t *out, uint64_t records, uint64_t units_total);

/* The writer of format 2: begin with the header (h->records records will
 * follow), add the records in strictly increasing unit order, end with the
 * checksum. With b == NULL it writes nothing and only measures, so that a
 * first pass finds the exact length of the buffer for a second one. */
typedef struct nq_ckpt_writer {
    unsigned char *b; /* the file, or NULL */
    size_t len;       /* bytes so far */
    uint64_t next;    /* the smallest unit the next record may have */
} nq_ckpt_writer;

void nq_ckpt_write_begin(nq_ckpt_writer *w, unsigned char *b, const nq_ckpt_header *h);
void nq_ckpt_write_record(nq_ckpt_writer *w, uint64_t unit, uint64_t total,
                          uint64_t unique);
/* The checksum; returns the file's length. */
size_t nq_ckpt_write_end(nq_ckpt_writer *w);

/* An intact file's header, of either format: NQ_OK or NQ_EFORMAT (wrong
 * magic, unknown format version, a size that cannot hold the records,
 * wrong checksum). The records of format 2 are not parsed here. */
int nq_ckpt_read_header(nq_ckpt_header *out, const unsigned char *b,
                        size_t len);

/* 1 if the bytes start with a header of either format that names the count
 * `want` describes, or with no such header at all; 0 if the header names
 * another count (the rest unchecked). */
int nq_ckpt_header_matches(const unsigned char *b, size_t len,
                           const nq_ckpt_expect *want);

/* The rules every record obeys, one for the reader and the writers: a
 * unit's result (total, unique) added to results that sum to `sum` so far.
 * NQ_OK; NQ_EINVAL (no unit of that method can have it: unique above
 * total, or unique where the method counts none); NQ_EOVERFLOW (the sum
 * would pass the published count of n, or 64 bits). */
int nq_ckpt_check_record(const nq_ckpt_expect *want, uint64_t sum, uint64_t total,
                         uint64_t unique);

/* Checks a whole file against `want` and passes each record to fn (may be
 * NULL). NQ_OK, NQ_EFORMAT, NQ_EMISMATCH, or what fn returned. */
int nq_ckpt_decode(const unsigned char *b, size_t len,
                   const nq_ckpt_expect *want, nq_ckpt_record_fn fn,
                   void *data);

#endif
