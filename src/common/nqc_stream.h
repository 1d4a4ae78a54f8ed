/*
 * Reading a whole stream into memory, for inputs of any size read once
 * (sizes on standard input, part results to merge).
 */
#ifndef NQC_STREAM_H
#define NQC_STREAM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*! nqc_read_all() : read `in` to its end into a malloc'ed buffer (free()
 *  it; not NUL-terminated).
 *  @return 0, -1 (out of memory) or -2 (read error: see errno). *out and
 *          *len are set only on success. */
static inline int nqc_read_all(char **out, size_t *len, FILE *in)
{
    size_t cap = 4096, k = 0;
    char *buf = malloc(cap);
    if (!buf)
        return -1;
    for (;;) {
        size_t got;
        if (k == cap) {
            char *p = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                return -1;
            }
            buf = p;
            cap *= 2;
        }
        got = fread(buf + k, 1, cap - k, in);
        k += got;
        if (got == 0)
            break;
    }
    if (ferror(in)) {
        free(buf);
        return -2;
    }
    *out = buf;
    *len = k;
    return 0;
}

#endif
