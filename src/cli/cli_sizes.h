/*
 * Board-size operands: "N" or "A-B", from the command line or from
 * standard input.
 */
#ifndef CLI_SIZES_H
#define CLI_SIZES_H

#include <stddef.h>
#include <stdio.h>

/* A growing list of board sizes. */
typedef struct cli_sizes {
    unsigned *n;
    size_t len;
    size_t cap;
} cli_sizes;

/* Appends a size "N" or range "A-B" (s[0..len)) to v. On failure reports
 * the error, its text prefixed by `where`, and returns -1. */
int cli_parse_sizes(cli_sizes *v, const char *s, size_t len, FILE *err,
                    const char *where);

/* Appends the whitespace-separated sizes and ranges read from `in` (none
 * at all is no error: an empty input asks for nothing); 0, or -1 after
 * reporting the error, which names the line of `in` ("line 3: ..."). */
int cli_read_sizes(cli_sizes *v, FILE *in, FILE *err);

#endif
