/*
 * Checkpoints: which units of a count are finished, and their results.
 *
 * The file is a snapshot, rewritten whole at each save: a fixed header, one
 * record per finished unit in increasing unit order, and a 64-bit FNV-1a
 * checksum of everything before it (docs/checkpoint-format.md). A save
 * writes a temporary file beside the real one, flushes it to disk and
 * renames it over the old one, so that a crash at any moment leaves either
 * the old snapshot or the new one, never a mix. Loading trusts nothing: the
 * size must match the record count, the checksum must match, the records
 * must be in range and in order, and the header must name the same n,
 * method, unit-list version and unit count as the run that opens it.
 *
 * In memory the checkpoint is a bitmap of finished units plus their
 * results, indexed by unit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint.h"
#include "method.h"

#define CKPT_MAGIC "NQCKPT\r\n"
#define CKPT_FORMAT 1u
#define CKPT_HEADER 40u
#define CKPT_RECORD 24u
#define CKPT_TRAILER 8u

struct nq_checkpoint {
    char *path;
    char *tmp_path;
    unsigned n;
    nq_method method;
    uint32_t list_version;
    uint64_t units_total;
    uint64_t units_done;
    uint64_t total, unique;
    uint8_t *done;      /* bitmap, one bit per unit */
    uint64_t *results;  /* total and unique per unit, interleaved */
    int dirty;          /* changed since the last save or load */
};

static uint64_t fnv1a(const unsigned char *p, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

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

/* Reads the whole file; 0, or -1 with errno set (ENOENT: no file). */
static int read_file(unsigned char **out, size_t *len, const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, k = 0;

    if (!f)
        return -1;
    for (;;) {
        size_t got;
        if (k == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            unsigned char *p = realloc(buf, ncap);
            if (!p) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return -1;
            }
            buf = p;
            cap = ncap;
        }
        got = fread(buf + k, 1, cap - k, f);
        k += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        errno = e ? e : EIO;
        return -1;
    }
    fclose(f);
    *out = buf;
    *len = k;
    return 0;
}

/* Checks and loads a snapshot into cp. */
static int load(nq_checkpoint *cp, const unsigned char *b, size_t len)
{
    uint64_t records, prev = 0;

    if (len < CKPT_HEADER + CKPT_TRAILER || memcmp(b, CKPT_MAGIC, 8) != 0)
        return NQ_EFORMAT;
    if (get32(b + 8) != CKPT_FORMAT)
        return NQ_EFORMAT;
    records = get64(b + 32);
    if (records > (len - CKPT_HEADER - CKPT_TRAILER) / CKPT_RECORD ||
        len != CKPT_HEADER + records * CKPT_RECORD + CKPT_TRAILER)
        return NQ_EFORMAT;
    if (fnv1a(b, len - CKPT_TRAILER) != get64(b + len - CKPT_TRAILER))
        return NQ_EFORMAT;
    /* an intact file: now, is it ours? */
    if (get32(b + 12) != cp->n || get32(b + 16) != (uint32_t)cp->method ||
        get32(b + 20) != cp->list_version || get64(b + 24) != cp->units_total)
        return NQ_EMISMATCH;
    for (uint64_t i = 0; i < records; i++) {
        const unsigned char *r = b + CKPT_HEADER + i * CKPT_RECORD;
        uint64_t unit = get64(r);
        if (unit >= cp->units_total || (i > 0 && unit <= prev))
            return NQ_EFORMAT;
        mark(cp, unit, get64(r + 8), get64(r + 16));
        prev = unit;
    }
    return NQ_OK;
}

int nq_checkpoint_open(nq_checkpoint **out, const char *path, unsigned n,
                       nq_method method)
{
    const nq_method_ops *ops = nq_method_ops_of(method);
    nq_checkpoint *cp;
    unsigned char *buf = NULL;
    size_t len = 0, plen;
    uint64_t units;
    int rc;

    if (!out || (path && !*path) || !ops)
        return NQ_EINVAL;
    method = ops->id; /* NQ_METHOD_DEFAULT names the method it stands for */
    rc = nq_units(&units, n, method);
    if (rc != NQ_OK)
        return rc;
    if (units / 8 + 1 > SIZE_MAX / 16)
        return NQ_ENOMEM;
    cp = calloc(1, sizeof *cp);
    if (!cp)
        return NQ_ENOMEM;
    cp->done = calloc((size_t)(units / 8 + 1), 1);
    cp->results = calloc((size_t)(units ? units : 1) * 2, sizeof *cp->results);
    if (!cp->done || !cp->results) {
        nq_checkpoint_close(cp);
        return NQ_ENOMEM;
    }
    cp->n = n;
    cp->method = method;
    cp->list_version = ops->list_version;
    cp->units_total = units;
    if (!path) {
        *out = cp; /* in memory only */
        return NQ_OK;
    }
    plen = strlen(path);
    cp->path = malloc(plen + 1);
    cp->tmp_path = malloc(plen + 5);
    if (!cp->path || !cp->tmp_path) {
        nq_checkpoint_close(cp);
        return NQ_ENOMEM;
    }
    memcpy(cp->path, path, plen + 1);
    memcpy(cp->tmp_path, path, plen);
    memcpy(cp->tmp_path + plen, ".tmp", 5);

    if (read_file(&buf, &len, path) != 0) {
        if (errno == ENOENT) {
            *out = cp; /* a new checkpoint */
            return NQ_OK;
        }
        rc = errno == ENOMEM ? NQ_ENOMEM : NQ_EIO;
        nq_checkpoint_close(cp);
        return rc;
    }
    rc = load(cp, buf, len);
    free(buf);
    if (rc != NQ_OK) {
        nq_checkpoint_close(cp);
        return rc;
    }
    *out = cp;
    return NQ_OK;
}

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

int nq_checkpoint_info_get(nq_checkpoint_info *out, const nq_checkpoint *cp)
{
    if (!out || !cp)
        return NQ_EINVAL;
    out->n = cp->n;
    out->method = cp->method;
    out->unit_list_version = cp->list_version;
    out->units_total = cp->units_total;
    out->units_done = cp->units_done;
    out->total = cp->total;
    out->unique = cp->unique;
    return NQ_OK;
}

static int write_all(int fd, const unsigned char *p, size_t len)
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
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int fd;

    if (!slash) {
        dir = malloc(2);
        if (dir)
            memcpy(dir, ".", 2);
    } else {
        size_t len = slash == path ? 1 : (size_t)(slash - path);
        dir = malloc(len + 1);
        if (dir) {
            memcpy(dir, path, len);
            dir[len] = '\0';
        }
    }
    if (!dir)
        return;
    fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int nq_checkpoint_save(nq_checkpoint *cp)
{
    unsigned char *buf, *p;
    size_t len;
    int fd, e;

    if (!cp)
        return NQ_EINVAL;
    if (!cp->dirty || !cp->path)
        return NQ_OK;
    len = CKPT_HEADER + (size_t)cp->units_done * CKPT_RECORD + CKPT_TRAILER;
    buf = malloc(len);
    if (!buf)
        return NQ_ENOMEM;
    memcpy(buf, CKPT_MAGIC, 8);
    put32(buf + 8, CKPT_FORMAT);
    put32(buf + 12, cp->n);
    put32(buf + 16, (uint32_t)cp->method);
    put32(buf + 20, cp->list_version);
    put64(buf + 24, cp->units_total);
    put64(buf + 32, cp->units_done);
    p = buf + CKPT_HEADER;
    for (uint64_t u = 0; u < cp->units_total; u++)
        if (is_done(cp, u)) {
            put64(p, u);
            put64(p + 8, cp->results[2 * u]);
            put64(p + 16, cp->results[2 * u + 1]);
            p += CKPT_RECORD;
        }
    put64(p, fnv1a(buf, len - CKPT_TRAILER));

    fd = open(cp->tmp_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        free(buf);
        return NQ_EIO;
    }
    if (write_all(fd, buf, len) != 0 || fsync(fd) != 0) {
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
    sync_dir(cp->path);
    cp->dirty = 0;
    return NQ_OK;
}

void nq_checkpoint_close(nq_checkpoint *cp)
{
    if (!cp)
        return;
    free(cp->path);
    free(cp->tmp_path);
    free(cp->done);
    free(cp->results);
    free(cp);
}
