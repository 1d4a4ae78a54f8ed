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
 *  it; not NUL-terminated), `max` bytes at most.
 *  @return 0, -1 (out of memory), -2 (read error: see errno) or -3 (more
 *          than max bytes: an endless or absurd input). *out and *len are
 *          set only on success. */
static inline int nqc_read_all(char **out, size_t *len, FILE *in, size_t max)
{
    size_t cap = 4096, k = 0;
    char *buf = malloc(cap);
    if (!buf)
        return -1;
    for (;;) {
        size_t got;
        if (k > max) {
            free(buf);
            return -3;
        }
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

/*! nqc_read_line() : the next line of `in` into buf (room for `size`
 *  bytes), without its newline, NUL-terminated; *len gets its length.
 *  @return 1 (a line), 0 (end of input, nothing read), -1 (a line longer
 *          than size - 1 bytes: the rest of it is not read) or -2 (read
 *          error: see errno). */
static inline int nqc_read_line(char *buf, size_t size, size_t *len, FILE *in)
{
    size_t k = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (k + 1 >= size)
            return -1;
        buf[k++] = (char)c;
    }
    buf[k] = '\0';
    *len = k;
    if (c == EOF && ferror(in))
        return -2;
    return c == EOF && k == 0 ? 0 : 1;
}

#endif
