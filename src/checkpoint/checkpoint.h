/*
 * Checkpoints inside the library: the engine's access to per-unit results,
 * and the file format (checkpoint_file.c), which the store (checkpoint.c)
 * and the loader's fuzz target use.
 */
#ifndef NQ_CHECKPOINT_H
#define NQ_CHECKPOINT_H

#include <stddef.h>
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

/* ---- the file format (docs/checkpoint-format.md) ------------------------ */
#define NQ_CKPT_HEADER 40u
#define NQ_CKPT_TRAILER 8u
/* The formats read: 1, fixed records of 24 bytes (read only, from files
 * of older releases); 2, records of three varints, each 1 to 10 bytes
 * (what every save writes). */
#define NQ_CKPT_FORMAT 2u
#define NQ_CKPT_RECORD_V1 24u
#define NQ_CKPT_RECORD_MIN 3u
/* More units than any method's list has at any n (the longest, the
 * join's at n = 26 and 27, has 2,080,120). */
#define NQ_CKPT_MAX_UNITS (4u << 20)
/* The longest file of any unit list, in either format: what a reader that
 * does not yet know the list reads at most. A record of format 2 takes at
 * most 20 bytes for its counts and, below 2^28 units, at most 4 for its
 * unit's gap: no more than the 24 bytes of format 1 (nq_ckpt_max_size()
 * gives this number for NQ_CKPT_MAX_UNITS, and a test checks it). */
#define NQ_CKPT_MAX_BYTES \
    (NQ_CKPT_HEADER + NQ_CKPT_TRAILER + (size_t)NQ_CKPT_MAX_UNITS * NQ_CKPT_RECORD_V1)

typedef struct nq_ckpt_header {
    uint32_t format; /* read: 1 or 2; a writer always writes NQ_CKPT_FORMAT */
    uint32_t n, method, list_version;
    uint64_t units_total;
    uint64_t records;
} nq_ckpt_header;

/* What a loading run expects of a file. */
typedef struct nq_ckpt_expect {
    uint32_t n, method, list_version;
    uint64_t units_total;
    int has_unique;      /* the method counts unique solutions */
    uint64_t max_total;  /* the totals may add up to this much at most */
    /* an older unit list version whose list of n is this one's, read as
     * list_version (nq_method_reads_list); 0: none */
    uint32_t list_version_kept;
} nq_ckpt_expect;

/* The older unit list version that a file of n read as `list_version`
 * of the method may hold (nq_ckpt_expect.list_version_kept), or 0. */
uint32_t nq_ckpt_kept_version(unsigned n, nq_method method, uint32_t list_version);

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

/* Reads the checkpoint file: all of it if it has at most `max` bytes, else
 * only its header (*too_long is set: enough to tell whose file it is).
 * NQ_OK, NQ_EIO (errno; ENOENT: there is none; EISDIR), NQ_EFORMAT (not a
 * regular file), NQ_ENOMEM. */
int nq_ckpt_read_file(unsigned char **out, size_t *len, int *too_long,
                      const char *path, size_t max);

/* Writes len bytes of p to fd, again after EINTR: 0, or -1 (errno). */
int nq_ckpt_write_all(int fd, const unsigned char *p, size_t len);

/* Flushes the folder that holds path, so that a rename into it is durable. */
void nq_ckpt_sync_dir(const char *path);

/* The characters of a save's temporary name after "FILE.tmp-":
 * NQ_CKPT_TMP_CHARS of NQ_CKPT_TMP_DIGITS. */
#define NQ_CKPT_TMP_CHARS 8
#define NQ_CKPT_TMP_DIGITS "0123456789abcdefghijklmnopqrstuv"

/* Removes the temporary files that killed saves left beside the
 * checkpoint at `path` (regular files of this user named FILE.tmp- and
 * NQ_CKPT_TMP_CHARS of NQ_CKPT_TMP_DIGITS). Called with the checkpoint's
 * lock held, so that no other run can be writing one. What cannot be
 * read or removed is left: the count goes on either way. */
void nq_ckpt_remove_leftovers(const char *path);

#endif
