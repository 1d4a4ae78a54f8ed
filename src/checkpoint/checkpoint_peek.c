/*
 * Reading what a checkpoint file was made for, without opening it for a
 * count: so that a program can say which of n, method or unit list differs
 * when nq_checkpoint_open() answers NQ_EMISMATCH.
 */
#include <stdlib.h>
#include <string.h>

#include "checkpoint_file.h"
#include "checkpoint_format.h"
#include "checkpoint_fs.h"
#include "nqueens.h"
#include "results.h"

int nq_checkpoint_peek(nq_checkpoint_info *out, const char *path)
{
    nq_checkpoint_info full;
    nq_ckpt_header h;
    unsigned char *buf = NULL;
    size_t len = 0;
    int too_long = 0, rc;

    if (!out || !path)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_checkpoint_info_layout, out))
        return NQ_EVERSION;
    /* as nq_checkpoint_open() reads it: never through a symbolic link, only
     * a regular file (a FIFO would block, a device never end), and no
     * longer than any unit list makes it */
    rc = nq_ckpt_read_file(&buf, &len, &too_long, path, NQ_CKPT_MAX_BYTES);
    if (rc != NQ_OK)
        return rc;
    rc = too_long ? NQ_EFORMAT : nq_ckpt_read_header(&h, buf, len);
    free(buf);
    if (rc != NQ_OK)
        return rc;
    memset(&full, 0, sizeof full);
    full.n = h.n;
    full.method = (nq_method)h.method;
    full.unit_list_version = h.list_version;
    full.units_total = h.units_total;
    full.units_done = h.records;
    nq_result_store(out, &full, &nq_checkpoint_info_layout);
    return NQ_OK;
}
