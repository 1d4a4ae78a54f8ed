/*
 * bench_arg.h - the arguments the bench programs share: whole numbers,
 * parsed as the library parses numbers (nqc_u64.h: digits only, no sign
 * or space, up to UINT64_MAX), and SIMD levels by the library's names.
 * Anything else ends the program with status 2 and a line naming it.
 */
#ifndef NQ_BENCH_ARG_H
#define NQ_BENCH_ARG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqc_u64.h"
#include "nqueens.h"

static inline uint64_t bench_arg(const char *prog, const char *s, const char *what)
{
    uint64_t v;
    if (nqc_parse_u64(&v, s, strlen(s)) != 0) {
        fprintf(stderr, "%s: %s '%s' is not a whole number\n", prog, what, s);
        exit(2);
    }
    return v;
}

/* The first `count` arguments argv[1 ..] as whole numbers into *out[0 ..]
 * (names[i] names the (i+1)th in messages), after checking that there are
 * 1 to `most` arguments in all: else `usage` and status 2. The arguments
 * after the first `count` are the caller's to read. */
static inline void bench_args(int argc, char **argv, const char *prog, const char *usage,
                              int most, int count, const char *const names[],
                              uint64_t *const out[])
{
    if (argc < 2 || argc > most + 1) {
        fprintf(stderr, "usage: %s %s\n", prog, usage);
        exit(2);
    }
    for (int i = 1; i < argc && i <= count; i++)
        *out[i - 1] = bench_arg(prog, argv[i], names[i - 1]);
}

/* auto, none, avx2 or avx512 (nq_simd_name()) */
static inline nq_simd bench_simd(const char *prog, const char *s)
{
    for (int l = NQ_SIMD_AUTO; l <= NQ_SIMD_AVX512; l++)
        if (!strcmp(s, nq_simd_name((nq_simd)l)))
            return (nq_simd)l;
    fprintf(stderr, "%s: unknown SIMD level '%s' (auto, none, avx2 or avx512)\n", prog, s);
    exit(2);
}

#endif
