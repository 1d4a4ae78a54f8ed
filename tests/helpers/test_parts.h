/* Helpers of the part and merge tests: a part result counted here, as
 * `nqueens --part k/m --json` would write it, and a seed file read whole.
 * Static functions in a header, for test programs only. */
#ifndef NQ_TEST_PARTS_H
#define NQ_TEST_PARTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

/* The part line that `nqueens --part k/m --json` writes, counted here. */
static inline nq_part count_part(unsigned n, nq_method m, uint32_t k, uint32_t parts)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_part p = NQ_PART_INIT;
    o.method = m;
    o.part_k = k;
    o.part_m = parts;
    o.threads = 2;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);
    p.n = n;
    p.method = r.method;
    p.unit_list_version = nq_unit_list_version(r.method);
    p.part = k;
    p.parts = parts;
    p.total = r.total;
    p.unique = r.has_unique ? r.unique : 0;
    p.has_unique = r.has_unique;
    return p;
}

/* The first 64 KiB of file `name` in folder dir, in a malloc'ed buffer;
 * *len receives its length. Fails the test when the file cannot be read. */
static inline char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    FILE *f;
    char *buf = malloc(1 << 16);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    assert_non_null(buf);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

#endif
