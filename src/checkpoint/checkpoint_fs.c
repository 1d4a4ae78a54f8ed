/*
 * Checkpoint files on disk, the parts that do not depend on the store:
 * reading a whole snapshot without following a link or trusting its size,
 * writing a buffer whole, and making a rename durable. The store
 * (checkpoint.c) adds the lock and the temporary files around them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
