/*
 * Checkpoint files on disk, the parts that do not depend on the store
 * (checkpoint_fs.c): reading a whole snapshot without following a link or
 * trusting its size, writing a buffer whole, making a rename durable, and
 * removing the temporary files of killed saves. The store (checkpoint.c)
 * adds the lock and the temporary files around them.
 */
#ifndef NQ_CHECKPOINT_FS_H
#define NQ_CHECKPOINT_FS_H

#include <stddef.h>

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
