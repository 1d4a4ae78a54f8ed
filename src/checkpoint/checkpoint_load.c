/*
 * Reading a checkpoint file back as a snapshot, for a program that only
 * looks at the results (a re-check, a report): n and method come from the
 * file, no lock is taken and nothing is written, so a count may go on
 * saving into the same file meanwhile (each save replaces the file whole
 * by a rename, so a read sees one snapshot or the next, never a mix).
 *
 * The file is checked exactly as the store checks it when a count resumes
 * (nq_ckpt_decode() with the same expectations), and its records go into
 * a memory-only checkpoint through nq_checkpoint_record(), whose rules are
 * those of the reader: what loads here is what a resumed count would add up.
 */
#include <stdlib.h>

#include "checkpoint.h"
#include "checkpoint_file.h"
#include "checkpoint_format.h"
#include "checkpoint_fs.h"
#include "methods/methods.h"

static int load_record(void *data, uint64_t unit, uint64_t total,
                       uint64_t unique)
{
    int rc = nq_checkpoint_record(data, unit, total, unique);
    return rc == NQ_OK ? NQ_OK : NQ_EFORMAT;
}

int nq_checkpoint_load(nq_checkpoint **out, const char *path)
{
    const nq_method_ops *ops;
    nq_checkpoint *cp = NULL;
    nq_ckpt_header h;
    nq_ckpt_expect want;
    unsigned char *buf = NULL;
    size_t len = 0;
    uint64_t units;
    int too_long = 0, rc;

    if (!out || !path || !*path)
        return NQ_EINVAL;
    rc = nq_ckpt_read_file(&buf, &len, &too_long, path, NQ_CKPT_MAX_BYTES);
    if (rc != NQ_OK)
        return rc;
    rc = too_long ? NQ_EFORMAT : nq_ckpt_read_header(&h, buf, len);
    /* the header is intact: a method and n of this library? (the default
     * is never written: a file names the method that counted it) */
    ops = rc == NQ_OK && h.method != (uint32_t)NQ_METHOD_DEFAULT
              ? nq_method_ops_of((nq_method)h.method)
              : NULL;
    if (rc == NQ_OK && (!ops || h.n > NQ_MAX_N))
        rc = NQ_EFORMAT;
    if (rc == NQ_OK)
        rc = nq_units(&units, h.n, ops->id);
    if (rc == NQ_OK)
        rc = nq_checkpoint_open_list(&cp, NULL, h.n, ops->id, ops->list_version,
                                     units);
    if (rc == NQ_OK) {
        want.n = h.n;
        want.method = (uint32_t)ops->id;
        want.list_version = ops->list_version;
        want.list_version_kept = nq_ckpt_kept_version(h.n, ops->id, ops->list_version);
        want.units_total = units;
        want.has_unique = ops->has_unique;
        if (nq_known(&want.max_total, NULL, h.n) != NQ_OK)
            want.max_total = UINT64_MAX;
        rc = nq_ckpt_decode(buf, len, &want, load_record, cp);
    }
    free(buf);
    if (rc != NQ_OK) {
        nq_checkpoint_close(cp);
        return rc;
    }
    *out = cp;
    return NQ_OK;
}
