/*
 * The words of a memory refusal, shared by nqueens and nqueens-mpi: a size
 * in bytes for people, and what a count needs against what limits it,
 * with the way out.
 */
#ifndef NQC_MEMORY_H
#define NQC_MEMORY_H

#include <stdint.h>
#include <stdio.h>

#include "nqc_plural.h"

/*! nqc_format_bytes() : "3.1 GiB", "512 KiB": a size, two digits at most. */
static inline void nqc_format_bytes(char *buf, size_t size, uint64_t bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    size_t i = 0;
    while (v >= 1024.0 && i + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        i++;
    }
    snprintf(buf, size, i == 0 ? "%.0f %s" : (v < 10 ? "%.1f %s" : "%.0f %s"), v,
             i == 0 ? nqc_plural(bytes, "byte", "bytes") : units[i]);
}

/*! nqc_memory_refusal() : "n = 28 needs at least 15 GiB with 2 threads,
 *  more than --max-memory allows (1.0 GiB)" in buf. `limit` is
 *  --max-memory, 0 for the default (half the memory of `machine`, e.g.
 *  "this machine"); `need_one` is what one thread needs when that fits
 *  (0 when it does not, or threads is 1): then the way out is named. */
static inline void nqc_memory_refusal(char *buf, size_t size, unsigned n, uint64_t need,
                                      unsigned threads, uint64_t limit, uint64_t need_one,
                                      const char *machine)
{
    char a[32], b[32], c[32];
    int len;
    nqc_format_bytes(a, sizeof a, need);
    nqc_format_bytes(b, sizeof b, limit);
    nqc_format_bytes(c, sizeof c, need_one);
    if (limit)
        len = snprintf(buf, size, "n = %u needs at least %s with %u thread%s, more than "
                                  "--max-memory allows (%s)", n, a, threads,
                       nqc_plural(threads, "", "s"), b);
    else
        len = snprintf(buf, size, "n = %u needs at least %s with %u thread%s, more than "
                                  "half the memory of %s (see --max-memory)", n, a,
                       threads, nqc_plural(threads, "", "s"), machine);
    if (need_one && len > 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, "; with 1 thread it needs %s (-j 1)", c);
}

/*! nqc_gpu_memory_refusal() : the same for a count on a GPU, where -j
 *  changes nothing (its two workers drive the card whatever -j says):
 *  "n = 24 needs at least 60 MiB to count on the GPU, more than
 *  --max-memory allows (10 MiB); a larger --max-memory, or the CPU
 *  (--device=cpu), lets it count" in buf. `limit` and `machine` as for
 *  nqc_memory_refusal(). */
static inline void nqc_gpu_memory_refusal(char *buf, size_t size, unsigned n, uint64_t need,
                                          uint64_t limit, const char *machine)
{
    char a[32], b[32];
    nqc_format_bytes(a, sizeof a, need);
    nqc_format_bytes(b, sizeof b, limit);
    if (limit)
        snprintf(buf, size, "n = %u needs at least %s to count on the GPU, more than "
                            "--max-memory allows (%s); a larger --max-memory, or the CPU "
                            "(--device=cpu), lets it count", n, a, b);
    else
        snprintf(buf, size, "n = %u needs at least %s to count on the GPU, more than half "
                            "the memory of %s; a larger --max-memory, or the CPU "
                            "(--device=cpu), lets it count", n, a, machine);
}

#endif
