/*
 * bench_arg.h - the whole-number arguments of the bench programs, parsed
 * as the library parses numbers (nqc_u64.h: digits only, no sign or
 * space, up to UINT64_MAX); anything else ends the program with status 2
 * and a line naming the argument.
 */
#ifndef NQ_BENCH_ARG_H
#define NQ_BENCH_ARG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqc_u64.h"

static uint64_t bench_arg(const char *prog, const char *s, const char *what)
{
    uint64_t v;
    if (nqc_parse_u64(&v, s, strlen(s)) != 0) {
        fprintf(stderr, "%s: %s '%s' is not a whole number\n", prog, what, s);
        exit(2);
    }
    return v;
}

#endif
