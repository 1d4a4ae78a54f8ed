/*
 * libFuzzer target: nq_checkpoint_load(), the snapshot reader of
 * nq_recheck() and `nqueens --recheck`, on whole file images (written to
 * a temporary file, since it reads a path).
 *
 * The reader takes n and method from the file, so unlike the store it
 * trusts the header to say what the file is for; it must still refuse
 * what the store, opened for a count of that n and method, refuses, and
 * accept what it accepts. Checked here through the public API, never by
 * rebuilding what the reader expects: a damaged header, or a method or n
 * this library lacks, is refused as a format fault; the store takes the
 * file exactly when the reader does; an accepted file gives a checkpoint
 * of the header's n and method with as many units done as the file has
 * records, each read back alike from both, and the totals adding up. A
 * broken rule aborts. Build from
 * the repository root with the library's sources (see tests/run.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_format.h"
#include "methods/methods.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/fuzz_ckptload_XXXXXX";
    nq_checkpoint *cp = NULL, *store = NULL;
    nq_ckpt_header h;
    const nq_method_ops *ops;
    uint64_t units;
    int fd = mkstemp(path), rc, src;
    FILE *f;

    CHECK(fd >= 0);
    f = fdopen(fd, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
    rc = nq_checkpoint_load(&cp, path);
    CHECK(rc == NQ_OK || rc == NQ_EFORMAT || rc == NQ_EMISMATCH || rc == NQ_ENOMEM);
    ops = nq_ckpt_read_header(&h, data, size) == NQ_OK && h.method != 0 && h.n <= NQ_MAX_N
              ? nq_method_ops_of((nq_method)h.method)
              : NULL;
    if (!ops) { /* a damaged header, or a method or n this library lacks */
        CHECK(rc == NQ_EFORMAT);
        unlink(path);
        return 0;
    }
    CHECK(nq_units(&units, h.n, ops->id) == NQ_OK);
    /* Another way in to the same file: the store, opened as a count of
     * the header's n and method opens it, takes the file exactly when the
     * reader does, and holds the same records. */
    src = nq_checkpoint_open(&store, path, h.n, ops->id);
    unlink(path);
    if (rc != NQ_ENOMEM && src != NQ_ENOMEM)
        CHECK((rc == NQ_OK) == (src == NQ_OK));
    if (rc == NQ_OK) {
        nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
        CHECK(nq_checkpoint_info_get(&info, cp) == NQ_OK);
        CHECK(info.n == h.n && info.method == ops->id && info.units_total == units &&
              info.units_done == h.records);
        if (units <= ((uint64_t)1 << 16)) { /* each record read back, and the sums */
            uint64_t done = 0, sum = 0;
            for (uint64_t u = 0; u < units; u++) {
                uint64_t t, q, st, sq;
                if (nq_checkpoint_unit(cp, u, &t, &q) != NQ_OK)
                    continue;
                done++;
                sum += t;
                CHECK(!store || (nq_checkpoint_unit(store, u, &st, &sq) == NQ_OK &&
                                 st == t && sq == q));
            }
            CHECK(done == info.units_done && sum == info.total);
        }
    }
    nq_checkpoint_close(store);
    nq_checkpoint_close(cp);
    return 0;
}
