/*
 * Checkpoint files on disk, the parts that do not depend on the store
 * (checkpoint_fs.c): reading a whole snapshot without following a link or
 * trusting its size, writing a buffer whole, making a rename durable, new
 * temporary files, the lock file, and removing the temporary files of
 * killed saves. The store (checkpoint.c) puts them together.
 */
#ifndef NQ_CHECKPOINT_FS_H
#define NQ_CHECKPOINT_FS_H

#include <stddef.h>
#include <stdint.h>

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

/* Creates a new temporary file beside the checkpoint, never following a
 * link nor reusing a name: tmp_path holds the checkpoint's path in its
 * first `base` bytes and has room for ".tmp-" and NQ_CKPT_TMP_CHARS more
 * and a '\0', which this writes. *seq and salt vary the names. The
 * descriptor (write only), or -1 with errno set. */
int nq_ckpt_create_tmp(char *tmp_path, size_t base, uint64_t *seq, uintptr_t salt);

/* Where nq_ckpt_lock() makes its temporary file (nq_ckpt_create_tmp()'s
 * arguments). */
typedef struct {
    char *tmp_path;
    size_t base;
    uint64_t *seq;
    uintptr_t salt;
} nq_ckpt_lock_names;

/* Takes the lock file at lock_path (the top of checkpoint_fs.c says how):
 * NQ_OK (*fd holds it; *removable: nq_ckpt_unlock() removes it), NQ_EBUSY
 * (held elsewhere), NQ_ELOCK (errno; ELOOP: a link, EISDIR: a folder,
 * EINVAL: another kind of file). */
int nq_ckpt_lock(int *fd, int *removable, const char *lock_path, nq_ckpt_lock_names *names);

/* Gives the lock back, removing the file first if *removable was set. */
void nq_ckpt_unlock(int fd, int removable, const char *lock_path);

/* Removes the temporary files that killed saves left beside the
 * checkpoint at `path` (regular files of this user named FILE.tmp- and
 * NQ_CKPT_TMP_CHARS of NQ_CKPT_TMP_DIGITS). Called with the checkpoint's
 * lock held, so that no other run can be writing one. What cannot be
 * read or removed is left: the count goes on either way. */
void nq_ckpt_remove_leftovers(const char *path);

#endif
