/* Helpers of the checkpoint tests (test_checkpoint.c,
 * test_checkpoint_format.c): the file each test uses (made and removed
 * around it), a count with it, and its bytes read and written whole.
 * Static functions in a header, for test programs only: include cmocka.h
 * first. */
#ifndef NQ_TEST_CHECKPOINT_H
#define NQ_TEST_CHECKPOINT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "nqueens.h"

static char path[256];

static inline int make_path(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "test_checkpoint_%ld.ckpt", (long)getpid());
    remove(path);
    return 0;
}

static inline int remove_path(void **state)
{
    char tmp[300];
    (void)state;
    remove(path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    remove(tmp);
    return 0;
}

static inline void count_units(uint64_t unit, uint64_t total, uint64_t unique,
                               void *data)
{
    (void)unit;
    (void)total;
    (void)unique;
    ++*(uint64_t *)data;
}

/* Counts n with the checkpoint file; returns how many units were computed. */
static inline uint64_t count_with_checkpoint(nq_count_result *r, unsigned n,
                                             nq_method method, uint64_t first,
                                             uint64_t count)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_checkpoint *cp;
    uint64_t computed = 0;

    assert_int_equal(nq_checkpoint_open(&cp, path, n, method), NQ_OK);
    o.method = method;
    o.checkpoint = cp;
    o.checkpoint_interval = 0;
    o.unit_first = first;
    o.unit_count = count;
    o.on_unit = count_units;
    o.unit_data = &computed;
    assert_int_equal(nq_count(r, n, &o), NQ_OK);
    nq_checkpoint_close(cp);
    return computed;
}

static inline unsigned char *read_whole(size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = malloc(1 << 20);
    assert_non_null(f);
    assert_non_null(buf);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static inline void write_whole(const unsigned char *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
}

#endif
