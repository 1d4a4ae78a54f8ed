/*
 * libFuzzer target: nq_checkpoint_load(), the snapshot reader of
 * nq_recheck() and `nqueens --recheck`, on whole file images (written to
 * a temporary file, since it reads a path).
 *
 * The reader takes n and method from the file, so unlike the store it
 * trusts the header to say what the file is for; it must still refuse
 * whatever nq_ckpt_decode() refuses for that count, and accept exactly
 * what it accepts. Checked here by simple code: a method or n this
 * library lacks is refused as a format fault; an accepted file gives a
 * checkpoint of the header's n and method, with as many units done as
 * the file has records, each record read back by nq_checkpoint_unit()
 * unchanged, and the totals adding up. A broken rule aborts. Build from
 * the repository root with the library's sources (see tests/run.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_format.h"
#include "methods/methods.h"
#include "fuzz_check.h"

typedef struct seen {
    const nq_checkpoint *cp;
    uint64_t count, sum;
} seen;

/* Each record the decoder passes on is in the loaded checkpoint. */
static int on_record(void *data, uint64_t unit, uint64_t total, uint64_t unique)
{
    seen *s = data;
    uint64_t t = 0, q = 0;
    CHECK(nq_checkpoint_unit(s->cp, unit, &t, &q) == NQ_OK);
    CHECK(t == total && q == unique);
    s->count++;
    s->sum += total;
    return NQ_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/fuzz_ckptload_XXXXXX";
    nq_checkpoint *cp = NULL;
    nq_ckpt_header h;
    int fd = mkstemp(path), rc, intact;
    FILE *f;

    CHECK(fd >= 0);
    f = fdopen(fd, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
    rc = nq_checkpoint_load(&cp, path);
    unlink(path);
    CHECK(rc == NQ_OK || rc == NQ_EFORMAT || rc == NQ_EMISMATCH || rc == NQ_ENOMEM);
    intact = nq_ckpt_read_header(&h, data, size) == NQ_OK;
    if (!intact) {
        CHECK(rc == NQ_EFORMAT);
        return 0;
    }
    {
        const nq_method_ops *ops =
            h.method != 0 ? nq_method_ops_of((nq_method)h.method) : NULL;
        nq_ckpt_expect want;
        uint64_t units;
        if (!ops || h.n > NQ_MAX_N) {
            CHECK(rc == NQ_EFORMAT);
            return 0;
        }
        CHECK(nq_units(&units, h.n, ops->id) == NQ_OK);
        want.n = h.n;
        want.method = (uint32_t)ops->id;
        want.list_version = ops->list_version;
        want.list_version_kept = nq_ckpt_kept_version(h.n, ops->id, ops->list_version);
        want.units_total = units;
        want.has_unique = ops->has_unique;
        if (nq_known(&want.max_total, NULL, h.n) != NQ_OK)
            want.max_total = UINT64_MAX;
        if (rc != NQ_OK) {
            CHECK(nq_ckpt_decode(data, size, &want, NULL, NULL) == rc);
            return 0;
        }
        {
            nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
            seen s = {cp, 0, 0};
            CHECK(nq_checkpoint_info_get(&info, cp) == NQ_OK);
            CHECK(info.n == h.n && info.method == ops->id &&
                  info.units_total == units && info.units_done == h.records);
            CHECK(nq_ckpt_decode(data, size, &want, on_record, &s) == NQ_OK);
            CHECK(s.count == info.units_done && s.sum == info.total);
        }
    }
    nq_checkpoint_close(cp);
    return 0;
}
