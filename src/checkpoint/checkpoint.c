/*
 * Checkpoints: which units of a count are finished, and their results.
 *
 * The file is a snapshot, rewritten whole at each save (checkpoint_file.c
 * has the layout; a file of the older format 1 is read, and the next save
 * writes it again in format 2). A save writes a fresh temporary file
 * beside the real one, flushes it to disk and renames it over the old one,
 * so that a crash at any moment leaves either the old snapshot or the new
 * one, never a mix.
 *
 * The file is shared with whatever else runs on the machine, so the store
 * is careful with it:
 *  - A lock file, FILE.lock, is held (flock, exclusive, non-blocking) from
 *    open to close: a second run on the same checkpoint, in this process or
 *    another, is refused at once with NQ_EBUSY instead of racing the first
 *    one's saves. The lock sits on a file of its own because every save
 *    replaces FILE by another inode. A new lock file is made whole and
 *    locked before it gets its name, so runs started together never leave
 *    one behind; a holder removes it at close, and only one that a run
 *    made, so nothing of the user's is ever deleted; and a file left by a
 *    killed process never stops a run: the kernel dropped its lock.
 *    checkpoint_fs.c has the details.
 *  - The temporary file gets a new name each time and is created with
 *    O_CREAT | O_EXCL | O_NOFOLLOW: never through a symbolic link, never
 *    over an existing file. Every failure removes it.
 *  - A save that was killed (kill -9, a power cut) leaves its temporary
 *    file, a whole copy of the checkpoint. The next run removes such files
 *    once it holds the lock: no other run can be saving then, so every
 *    file of the temporary names of this checkpoint (FILE.tmp- and eight
 *    characters of the alphabet create_tmp() draws from) is a leftover.
 *    Only regular files of this user at exactly those names are removed;
 *    nothing else in the folder is touched.
 *  - Opening proves that the directory takes new files (it creates and
 *    removes one), so a path that cannot be written fails before any
 *    counting, not after hours of it.
 *  - FILE itself is read without following a symbolic link, must be a
 *    regular file, and is read only up to the largest size a checkpoint of
 *    this count can have: memory never depends on the file.
 *
 * In memory the checkpoint is a bitmap of finished units plus their
 * results, indexed by unit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint.h"
#include "checkpoint_file.h"
#include "checkpoint_fs.h"
#include "methods/methods.h"
#include "results.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

struct nq_checkpoint {
    char *path;
    char *lock_path;
    char *tmp_path;     /* room for path + ".tmp-XXXXXXXX" */
    int lock_fd;        /* -1 when not locked (memory only) */
    int lock_created;   /* unlock() removes the lock file */
    uint64_t tmp_seq;   /* varies the temporary names */
    unsigned n;
    nq_method method;
    uint32_t list_version;
    uint64_t units_total;
    uint64_t units_done;
    uint64_t total, unique;
    uint64_t max_total; /* the published count of n, or UINT64_MAX */
    int has_unique;     /* the method counts unique solutions */
    int unbound;        /* opened for the default method, no file yet: the
                           count picks the method (nq_checkpoint_bind()) */
    uint8_t *done;      /* bitmap, one bit per unit */
    uint64_t *results;  /* total and unique per unit, interleaved */
    int dirty;          /* changed since the last save or load */
    int on_disk;        /* the file exists: loaded, or saved once */
    atomic_flag in_use; /* a count holds it (nq_checkpoint_take()) */
};

static int is_done(const nq_checkpoint *cp, uint64_t unit)
{
    return (cp->done[unit / 8] >> (unit % 8)) & 1;
}

static void mark(nq_checkpoint *cp, uint64_t unit, uint64_t total,
                 uint64_t unique)
{
    cp->done[unit / 8] = (uint8_t)(cp->done[unit / 8] | (1u << (unit % 8)));
    cp->results[2 * unit] = total;
    cp->results[2 * unit + 1] = unique;
    cp->units_done++;
    cp->total += total;
    cp->unique += unique;
}

/* ------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------ */
static char *join(const char *a, const char *b, size_t extra)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + extra + 1);
    if (s) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb + 1);
    }
    return s;
}

/* Takes the lock file: NQ_OK, NQ_EBUSY (held elsewhere), NQ_ELOCK. */
static int lock(nq_checkpoint *cp)
{
    nq_ckpt_lock_names names = {cp->tmp_path, strlen(cp->path), &cp->tmp_seq, (uintptr_t)cp};
    return nq_ckpt_lock(&cp->lock_fd, &cp->lock_created, cp->lock_path, &names);
}

static void unlock(nq_checkpoint *cp)
{
    nq_ckpt_unlock(cp->lock_fd, cp->lock_created, cp->lock_path);
    cp->lock_fd = -1;
}

/* A new temporary file beside the checkpoint (nq_ckpt_create_tmp()). */
static int create_tmp(nq_checkpoint *cp)
{
    return nq_ckpt_create_tmp(cp->tmp_path, strlen(cp->path), &cp->tmp_seq, (uintptr_t)cp);
}

/* Can new files be made beside the checkpoint? NQ_OK or NQ_EIO (errno). */
static int probe_dir(nq_checkpoint *cp)
{
    int fd = create_tmp(cp);
    if (fd < 0)
        return NQ_EIO;
    close(fd);
    unlink(cp->tmp_path);
    return NQ_OK;
}

static int load_record(void *data, uint64_t unit, uint64_t total,
                       uint64_t unique)
{
    mark(data, unit, total, unique);
    return NQ_OK;
}

/* Loads FILE if there is one: NQ_OK (also when there is none), or why not. */
static int load(nq_checkpoint *cp)
{
    nq_ckpt_expect want;
    unsigned char *buf = NULL;
    size_t len = 0, max;
    int rc, too_long = 0;

    if (nq_ckpt_max_size(&max, cp->units_total, cp->units_total) != NQ_OK)
        return NQ_ENOMEM;
    rc = nq_ckpt_read_file(&buf, &len, &too_long, cp->path, max);
    if (rc == NQ_EIO && errno == ENOENT)
        return NQ_OK; /* a new checkpoint: the first save creates it */
    cp->on_disk = rc == NQ_OK;
    if (rc != NQ_OK)
        return rc;
    want.n = cp->n;
    want.method = (uint32_t)cp->method;
    want.list_version = cp->list_version;
    want.list_version_kept = nq_ckpt_kept_version(cp->n, cp->method, cp->list_version);
    want.units_total = cp->units_total;
    want.has_unique = cp->has_unique;
    want.max_total = cp->max_total;
    if (too_long) {
        /* longer than any checkpoint of this count: another count's file,
         * or not a checkpoint at all */
        rc = nq_ckpt_header_matches(buf, len, &want) ? NQ_EFORMAT : NQ_EMISMATCH;
    } else {
        rc = nq_ckpt_decode(buf, len, &want, load_record, cp);
    }
    free(buf);
    return rc;
}

/* ------------------------------------------------------------------------
 * Opening and recording
 * ------------------------------------------------------------------------ */
/* What FILE is, before anything is made beside it (so that a device, a
 * folder or a link named by mistake gets no lock file): NQ_OK when it is a
 * regular file or absent; else as nq_ckpt_read_file() answers for it. */
static int check_kind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
        return NQ_OK; /* absent (or unreadable: the reading says why) */
    errno = S_ISLNK(st.st_mode) ? ELOOP : S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode) ? NQ_EIO : NQ_EFORMAT;
}

static int open_file(nq_checkpoint *cp, const char *path)
{
    int rc, e;

    if ((rc = check_kind(path)) != NQ_OK)
        return rc;
    cp->path = join(path, "", 0);
    cp->lock_path = join(path, ".lock", 0);
    cp->tmp_path = join(path, "", 16);
    if (!cp->path || !cp->lock_path || !cp->tmp_path)
        return NQ_ENOMEM;
    rc = lock(cp);
    if (rc == NQ_OK) {
        nq_ckpt_remove_leftovers(cp->path);
        rc = probe_dir(cp);
    }
    if (rc == NQ_OK)
        rc = load(cp);
    if (rc != NQ_OK) {
        e = errno;
        unlock(cp);
        errno = e;
    }
    return rc;
}

int nq_checkpoint_open_list(nq_checkpoint **out, const char *path, unsigned n,
                            nq_method method, uint32_t list_version,
                            uint64_t units_total)
{
    nq_checkpoint *cp;
    int rc, e;

    if (!out || (path && !*path))
        return NQ_EINVAL;
    if (units_total / 8 + 1 > SIZE_MAX / 16)
        return NQ_ENOMEM;
    cp = calloc(1, sizeof *cp);
    if (!cp)
        return NQ_ENOMEM;
    cp->lock_fd = -1;
    atomic_flag_clear(&cp->in_use);
    cp->done = calloc((size_t)(units_total / 8 + 1), 1);
    cp->results = calloc((size_t)(units_total ? units_total : 1) * 2, sizeof *cp->results);
    if (!cp->done || !cp->results) {
        nq_checkpoint_close(cp);
        return NQ_ENOMEM;
    }
    cp->n = n;
    cp->method = method;
    cp->list_version = list_version;
    cp->units_total = units_total;
    cp->has_unique = nq_method_ops_of(method) && nq_method_ops_of(method)->has_unique;
    if (nq_known(&cp->max_total, NULL, n) != NQ_OK)
        cp->max_total = UINT64_MAX;
    rc = path ? open_file(cp, path) : NQ_OK;
    if (rc != NQ_OK) {
        e = errno;
        nq_checkpoint_close(cp);
        errno = e;
        return rc;
    }
    *out = cp;
    return NQ_OK;
}

int nq_checkpoint_open(nq_checkpoint **out, const char *path, unsigned n,
                       nq_method method)
{
    const nq_method_ops *ops = NULL;
    nq_checkpoint_info file = NQ_CHECKPOINT_INFO_INIT;
    uint64_t units;
    int rc, unbound = 0;

    if (!out || (path && !*path))
        return NQ_EINVAL;
    if (method == NQ_METHOD_DEFAULT && path) {
        /* the default resumes a file of n with the method that made it;
         * with no file yet, the count will say which method it runs */
        rc = nq_checkpoint_peek(&file, path);
        if (rc == NQ_OK && file.n == n && nq_method_ops_of(file.method))
            method = file.method;
        else
            unbound = rc == NQ_EIO && errno == ENOENT;
    }
    if (nq_method_pick(&ops, method, n, 0) != NQ_OK)
        return NQ_EINVAL;
    rc = nq_units(&units, n, ops->id); /* DEFAULT names the method it stands for */
    if (rc != NQ_OK)
        return rc;
    rc = nq_checkpoint_open_list(out, path, n, ops->id, ops->list_version, units);
    if (rc == NQ_OK)
        (*out)->unbound = unbound || !path;
    return rc;
}

uint32_t nq_ckpt_kept_version(unsigned n, nq_method method, uint32_t list_version)
{
    return list_version > 1 && list_version == nq_unit_list_version(method) &&
                   nq_method_reads_list(method, n, list_version - 1)
               ? list_version - 1
               : 0;
}

int nq_checkpoint_bind(nq_checkpoint *cp, nq_method method, uint32_t list_version,
                       uint64_t units_total)
{
    uint8_t *done;
    uint64_t *results;

    if (cp->method == method && cp->list_version == list_version &&
        cp->units_total == units_total)
        return NQ_OK;
    if (!cp->unbound || cp->units_done != 0 || cp->on_disk)
        return NQ_EMISMATCH;
    if (units_total / 8 + 1 > SIZE_MAX / 16)
        return NQ_ENOMEM;
    done = calloc((size_t)(units_total / 8 + 1), 1);
    results = calloc((size_t)(units_total ? units_total : 1) * 2, sizeof *results);
    if (!done || !results) {
        free(done);
        free(results);
        return NQ_ENOMEM;
    }
    free(cp->done);
    free(cp->results);
    cp->done = done;
    cp->results = results;
    cp->method = method;
    cp->list_version = list_version;
    cp->units_total = units_total;
    cp->has_unique = nq_method_ops_of(method) && nq_method_ops_of(method)->has_unique;
    return NQ_OK;
}

int nq_checkpoint_is_unbound(const nq_checkpoint *cp)
{
    return cp->unbound && cp->units_done == 0 && !cp->on_disk;
}

int nq_checkpoint_take(nq_checkpoint *cp) { return atomic_flag_test_and_set(&cp->in_use) ? NQ_EBUSY : NQ_OK; }

void nq_checkpoint_give(nq_checkpoint *cp) { atomic_flag_clear(&cp->in_use); }

int nq_checkpoint_record(nq_checkpoint *cp, uint64_t unit, uint64_t total,
                         uint64_t unique)
{
    if (!cp || unit >= cp->units_total)
        return NQ_EINVAL;
    if (is_done(cp, unit))
        return cp->results[2 * unit] == total &&
                       cp->results[2 * unit + 1] == unique
                   ? NQ_OK
                   : NQ_EMISMATCH;
    /* only what the reader accepts (the same rules): a result that the
     * method cannot give, or that carries the sums past the published
     * count, is not a real one, and a file holding it could not be read */
    {
        nq_ckpt_expect want;
        int rc;
        want.has_unique = cp->has_unique;
        want.max_total = cp->max_total;
        rc = nq_ckpt_check_record(&want, cp->total, total, unique);
        if (rc != NQ_OK)
            return rc;
    }
    mark(cp, unit, total, unique);
    cp->dirty = 1;
    return NQ_OK;
}

int nq_checkpoint_is_done(const nq_checkpoint *cp, uint64_t unit)
{
    return cp && unit < cp->units_total && is_done(cp, unit);
}

uint64_t nq_checkpoint_unit_total(const nq_checkpoint *cp, uint64_t unit)
{
    return cp->results[2 * unit];
}

uint64_t nq_checkpoint_unit_unique(const nq_checkpoint *cp, uint64_t unit)
{
    return cp->results[2 * unit + 1];
}

int nq_checkpoint_unit(const nq_checkpoint *cp, uint64_t unit, uint64_t *total,
                       uint64_t *unique)
{
    if (!cp || unit >= cp->units_total)
        return NQ_EINVAL;
    if (!is_done(cp, unit))
        return NQ_ENOTFOUND;
    if (total)
        *total = cp->results[2 * unit];
    if (unique)
        *unique = cp->results[2 * unit + 1];
    return NQ_OK;
}

int nq_checkpoint_info_get(nq_checkpoint_info *out, const nq_checkpoint *cp)
{
    nq_checkpoint_info full;
    if (!out || !cp)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_checkpoint_info_layout, out))
        return NQ_EVERSION;
    full.n = cp->n;
    full.method = cp->method;
    full.unit_list_version = cp->list_version;
    full.units_total = cp->units_total;
    full.units_done = cp->units_done;
    full.total = cp->total;
    full.unique = cp->unique;
    nq_result_store(out, &full, &nq_checkpoint_info_layout);
    return NQ_OK;
}

/* ------------------------------------------------------------------------
 * Saving
 * ------------------------------------------------------------------------ */
/* Writes the snapshot into b (of the length that a first call with b ==
 * NULL returns), or only measures it. */
static size_t put_snapshot(const nq_checkpoint *cp, unsigned char *b)
{
    nq_ckpt_header h;
    nq_ckpt_writer w;

    h.format = NQ_CKPT_FORMAT;
    h.n = cp->n;
    h.method = (uint32_t)cp->method;
    h.list_version = cp->list_version;
    h.units_total = cp->units_total;
    h.records = cp->units_done;
    nq_ckpt_write_begin(&w, b, &h);
    for (uint64_t u = 0; u < cp->units_total; u++)
        if (is_done(cp, u))
            nq_ckpt_write_record(&w, u, cp->results[2 * u], cp->results[2 * u + 1]);
    return nq_ckpt_write_end(&w);
}

/* The snapshot in a new buffer of *len bytes, or NULL. */
static unsigned char *encode(const nq_checkpoint *cp, size_t *len)
{
    unsigned char *buf;
    size_t max;

    /* the measure cannot pass a size_t if the bound does not */
    if (nq_ckpt_max_size(&max, cp->units_done, cp->units_total) != NQ_OK)
        return NULL;
    *len = put_snapshot(cp, NULL);
    buf = malloc(*len);
    if (buf)
        put_snapshot(cp, buf);
    return buf;
}

int nq_checkpoint_save(nq_checkpoint *cp)
{
    unsigned char *buf;
    size_t len;
    int fd, e;

    if (!cp)
        return NQ_EINVAL;
    /* the first save writes a file even with no unit done, so that a run
     * stopped early leaves what it says it leaves */
    if ((!cp->dirty && cp->on_disk) || !cp->path)
        return NQ_OK;
    buf = encode(cp, &len);
    if (!buf)
        return NQ_ENOMEM;
    fd = create_tmp(cp);
    if (fd < 0) {
        e = errno;
        free(buf);
        errno = e;
        return NQ_EIO;
    }
    if (nq_ckpt_write_all(fd, buf, len) != 0 || fsync(fd) != 0) {
        e = errno;
        close(fd);
        unlink(cp->tmp_path);
        free(buf);
        errno = e;
        return NQ_EIO;
    }
    free(buf);
    if (close(fd) != 0 || rename(cp->tmp_path, cp->path) != 0) {
        e = errno;
        unlink(cp->tmp_path);
        errno = e;
        return NQ_EIO;
    }
    nq_ckpt_sync_dir(cp->path);
    cp->dirty = 0;
    cp->on_disk = 1;
    return NQ_OK;
}

void nq_checkpoint_close(nq_checkpoint *cp)
{
    if (!cp)
        return;
    unlock(cp);
    free(cp->path);
    free(cp->lock_path);
    free(cp->tmp_path);
    free(cp->done);
    free(cp->results);
    free(cp);
}
