/*
 * Strict parsing of a size in bytes, as --max-memory takes it in nqueens
 * and nqueens-mpi: digits, then optionally a unit. The unit is B (bytes),
 * or K, M, G or T (powers of 1024), each of which may be followed by "B"
 * or "iB": 4096, 4096B, 512K, 512KB, 512KiB, 8G. Nothing else: no space,
 * no sign, no fraction, no lower-case letter.
 */
#ifndef NQC_SIZE_H
#define NQC_SIZE_H

#include <stdint.h>
#include <string.h>

#include "nqc_u64.h"

/*! nqc_parse_size() : parse the string s as a size in bytes.
 *  @return 0 (stored in *out, at least 1), -1 (not a size), -2 (more than
 *          UINT64_MAX bytes) or -3 (zero bytes); *out untouched on error. */
static inline int nqc_parse_size(uint64_t *out, const char *s)
{
    static const char prefixes[] = "KMGT";
    size_t len = strspn(s, "0123456789");
    const char *unit = s + len, *p;
    unsigned shift = 0;
    uint64_t v;
    int rc;

    if (*unit && *unit != 'B' && (p = strchr(prefixes, *unit)) != NULL) {
        shift = 10u * (unsigned)(p - prefixes + 1);
        unit++;
        if (strcmp(unit, "iB") == 0)
            unit += 2;
    }
    if (strcmp(unit, "B") == 0)
        unit++;
    if (*unit)
        return -1;
    if ((rc = nqc_parse_u64(&v, s, len)) != 0)
        return rc;
    if (shift && v > (UINT64_MAX >> shift))
        return -2;
    if (v == 0)
        return -3;
    *out = v << shift;
    return 0;
}

#endif
