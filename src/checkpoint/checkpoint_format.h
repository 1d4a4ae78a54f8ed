/*
 * The checkpoint file format's numbers and the types that its reader, its
 * writers and the programs around them share (docs/checkpoint-format.md):
 * the sizes of a file's parts, a file's header, and what a loading run
 * expects of a file. No .c implements this header: checkpoint_file.c
 * reads and writes the format, checkpoint_fs.c reads files no longer than
 * it allows, and the store (checkpoint.c), the snapshot reader
 * (checkpoint_load.c) and the peek (checkpoint_peek.c) fill and read
 * these types.
 */
#ifndef NQ_CHECKPOINT_FORMAT_H
#define NQ_CHECKPOINT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

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

#endif
