/*
 * Reading what a checkpoint file was made for, without opening it for a
 * count: so that a program can say which of n, method or unit list differs
 * when nq_checkpoint_open() answers NQ_EMISMATCH.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint.h"
#include "nqc_stream.h"
#include "nqueens.h"

int nq_checkpoint_peek(nq_checkpoint_info *out, const char *path)
{
    nq_ckpt_header h;
    char *buf;
    size_t len;
    struct stat st;
    FILE *f;
    int fd, rc;

    if (!out || !path)
        return NQ_EINVAL;
    /* as nq_checkpoint_open() reads it: never through a symbolic link, and
     * only a regular file (a FIFO would block, a device never end) */
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
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
    if ((f = fdopen(fd, "rb")) == NULL) {
        int e = errno;
        close(fd);
        errno = e;
        return NQ_EIO;
    }
    /* no unit list is as long as this: a longer file is not a checkpoint,
     * and is not read into memory */
    rc = nqc_read_all(&buf, &len, f, NQ_CKPT_HEADER + NQ_CKPT_TRAILER +
                                         (size_t)NQ_CKPT_MAX_UNITS * NQ_CKPT_RECORD);
    if (rc != 0) {
        int e = errno;
        fclose(f);
        errno = e;
        return rc == -1 ? NQ_ENOMEM : (rc == -3 ? NQ_EFORMAT : NQ_EIO);
    }
    fclose(f);
    rc = nq_ckpt_read_header(&h, (const unsigned char *)buf, len);
    free(buf);
    if (rc != NQ_OK)
        return rc;
    memset(out, 0, sizeof *out);
    out->n = h.n;
    out->method = (nq_method)h.method;
    out->unit_list_version = h.list_version;
    out->units_total = h.units_total;
    out->units_done = h.records;
    return NQ_OK;
}
