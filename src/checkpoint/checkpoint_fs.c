/*
 * Checkpoint files on disk, the parts that do not depend on the store:
 * reading a whole snapshot without following a link or trusting its size,
 * writing a buffer whole, making a rename durable, new temporary names,
 * and the lock file. The store (checkpoint.c) puts them together.
 *
 * The lock file, FILE.lock, is held (flock, exclusive, non-blocking) from
 * open to close. A run makes a new one whole before anyone can see it: it
 * writes the one line, lock_text, into a new temporary file, locks it and
 * only then links it to FILE.lock (link() fails if the name is taken).
 * So a lock file that a run made is never seen empty or unlocked while
 * that run lives, and no run that starts beside it can take it for
 * someone else's. A run that finds the name taken opens that file and
 * locks it: it fails at once while its maker lives (NQ_EBUSY); it gets
 * the lock on a file left by a killed run (the kernel dropped the lock);
 * or it gets the lock on a file that its holder has just unlinked on its
 * way out, or that was replaced since: after locking it checks that the
 * name still leads to the inode it locked (fstat against lstat) and tries
 * again if not. The holder unlinks FILE.lock before it closes it (while
 * it still holds the lock), and only if it made it or the file holds
 * lock_text and nothing else (one left by a killed run): nothing of the
 * user's is ever deleted. Where the folder takes no hard links, the lock
 * file is created in place (O_EXCL) and its line written before it is
 * locked.
 */
#define _DEFAULT_SOURCE /* flock() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint_fs.h"
#include "checkpoint_format.h"
#include "nqueens.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

int nq_ckpt_read_file(unsigned char **out, size_t *len, int *too_long,
                      const char *path, size_t max)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    unsigned char *buf;
    size_t k = 0;

    if (fd < 0)
        return NQ_EIO;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NQ_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return S_ISDIR(st.st_mode) ? NQ_EIO : NQ_EFORMAT;
    }
    *too_long = st.st_size < 0 || (uint64_t)st.st_size > max;
    if (!*too_long)
        max = (size_t)st.st_size;
    else if (max > NQ_CKPT_HEADER)
        max = NQ_CKPT_HEADER;
    /* one byte more, to see a file that grew since fstat() */
    buf = malloc(max + 1);
    if (!buf) {
        close(fd);
        return NQ_ENOMEM;
    }
    while (k <= max) {
        ssize_t got = read(fd, buf + k, max + 1 - k);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            errno = e;
            return NQ_EIO;
        }
        if (got == 0)
            break;
        k += (size_t)got;
    }
    close(fd);
    if (k > max && !*too_long) {
        free(buf);
        return NQ_EFORMAT; /* it grew while read: not a snapshot */
    }
    *out = buf;
    *len = k < max ? k : max;
    return NQ_OK;
}

int nq_ckpt_write_all(int fd, const unsigned char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Flushes the directory that holds path, so that the rename is durable. */
void nq_ckpt_sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int fd;

    size_t len = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
    dir = malloc(len + 1);
    if (dir) {
        memcpy(dir, slash ? path : ".", len);
        dir[len] = '\0';
    }
    if (!dir)
        return;
    fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* See checkpoint_fs.h. */
int nq_ckpt_create_tmp(char *tmp_path, size_t base, uint64_t *seq, uintptr_t salt)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    for (int attempt = 0; attempt < 64; attempt++) {
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uint64_t)salt ^
                     (++*seq * UINT64_C(0x9e3779b97f4a7c15));
        int fd;
        x ^= x >> 31;
        x *= UINT64_C(0xbf58476d1ce4e5b9);
        x ^= x >> 29;
        memcpy(tmp_path + base, ".tmp-", 5);
        for (int i = 0; i < NQ_CKPT_TMP_CHARS; i++, x >>= 5)
            tmp_path[base + 5 + (size_t)i] = NQ_CKPT_TMP_DIGITS[x & 31];
        tmp_path[base + 5 + NQ_CKPT_TMP_CHARS] = '\0';
        fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* What a lock file made by a run holds, so that the next run knows one
 * left by a killed run as its own. */
static const char lock_text[] = "nqueens checkpoint lock\n";
#define LOCK_LEN (sizeof lock_text - 1)

/* Whether the lock file open at fd holds lock_text and nothing else. */
static int lock_is_ours(int fd)
{
    char buf[sizeof lock_text + 1];
    const ssize_t got = pread(fd, buf, sizeof buf, 0);
    return got == (ssize_t)LOCK_LEN && memcmp(buf, lock_text, LOCK_LEN) == 0;
}

/* Makes a new lock file whole under a temporary name, locks it and links
 * it to lock_path: 0 (*fd holds it), 1 (the name is taken), 2 (try again:
 * a holder's sweep removed the temporary file), -1 (this folder cannot
 * do it: make the lock file in place). */
static int link_new(int *fd, const char *lock_path, nq_ckpt_lock_names *nm)
{
    int tfd = nq_ckpt_create_tmp(nm->tmp_path, nm->base, nm->seq, nm->salt), e;

    if (tfd < 0)
        return -1; /* (making it in place says why, if it fails too) */
    if (nq_ckpt_write_all(tfd, (const unsigned char *)lock_text, LOCK_LEN) == 0 &&
        flock(tfd, LOCK_EX | LOCK_NB) == 0 && link(nm->tmp_path, lock_path) == 0) {
        unlink(nm->tmp_path);
        *fd = tfd;
        return 0;
    }
    e = errno;
    unlink(nm->tmp_path);
    close(tfd);
    return e == EEXIST ? 1 : e == ENOENT ? 2 : -1;
}

/* See checkpoint_fs.h. */
int nq_ckpt_lock(int *fd_out, int *removable, const char *lock_path, nq_ckpt_lock_names *nm)
{
    int by_link = 1;

    for (int attempt = 0; attempt < 16; attempt++) {
        struct stat held, named;
        int created = 0, fd = -1, e, how = by_link ? link_new(&fd, lock_path, nm) : -1;

        if (how == 0) {
            *fd_out = fd;
            *removable = 1;
            return NQ_OK;
        }
        if (how == 2)
            continue;
        if (how < 0) {
            by_link = 0;
            fd = open(lock_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
            if (fd >= 0) {
                /* (without its line it still locks; a later run leaves it) */
                created = 1;
                (void)nq_ckpt_write_all(fd, (const unsigned char *)lock_text, LOCK_LEN);
            }
        }
        if (fd < 0 && (how == 1 || errno == EEXIST)) {
            fd = open(lock_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
            if (fd < 0 && errno == ENOENT)
                continue; /* removed meanwhile */
        }
        if (fd < 0)
            return NQ_ELOCK;
        if (fstat(fd, &held) != 0 || !S_ISREG(held.st_mode)) {
            /* not a file of ours */
            e = fstat(fd, &held) != 0 ? errno : S_ISDIR(held.st_mode) ? EISDIR : EINVAL;
            close(fd);
            errno = e;
            return NQ_ELOCK;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            e = errno;
            close(fd);
            if (e == EWOULDBLOCK || e == EAGAIN)
                return NQ_EBUSY;
            errno = e;
            return NQ_ELOCK;
        }
        if (lstat(lock_path, &named) == 0 && named.st_ino == held.st_ino &&
            named.st_dev == held.st_dev) {
            *fd_out = fd;
            /* one left by a killed run is removed at close like a new one */
            *removable = created || lock_is_ours(fd);
            return NQ_OK;
        }
        close(fd); /* a closing holder removed it: take the new one */
    }
    errno = EAGAIN;
    return NQ_ELOCK;
}

/* See checkpoint_fs.h. */
void nq_ckpt_unlock(int fd, int removable, const char *lock_path)
{
    if (fd < 0)
        return;
    if (removable)
        unlink(lock_path); /* while still holding it: see the top */
    close(fd);
}

/* 1 if `name` is one of the temporary names of the checkpoint whose file
 * name (without its folder) is `base`. */
static int is_tmp_name(const char *name, const char *base)
{
    size_t len = strlen(base);
    if (strncmp(name, base, len) != 0 || strncmp(name + len, ".tmp-", 5) != 0)
        return 0;
    name += len + 5;
    for (int i = 0; i < NQ_CKPT_TMP_CHARS; i++)
        if (!name[i] || !strchr(NQ_CKPT_TMP_DIGITS, name[i]))
            return 0;
    return name[NQ_CKPT_TMP_CHARS] == '\0';
}

/* See checkpoint.h. */
void nq_ckpt_remove_leftovers(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? strdup(path) : NULL;
    struct dirent *e;
    DIR *d;
    int dfd;

    if (slash && !dir)
        return;
    if (dir)
        dir[slash == path ? 1 : slash - path] = '\0';
    d = opendir(dir ? dir : ".");
    free(dir);
    if (!d)
        return;
    dfd = dirfd(d);
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (is_tmp_name(e->d_name, base) &&
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid())
            unlinkat(dfd, e->d_name, 0);
    }
    closedir(d);
}
