/*
 * Strict parsing of unsigned decimal numbers: digits only (no sign, no
 * space, no base prefix), every value up to UINT64_MAX accepted, anything
 * above it refused rather than wrapped.
 */
#ifndef NQC_U64_H
#define NQC_U64_H

#include <stddef.h>
#include <stdint.h>

/*! nqc_parse_u64() : parse s[0..len) as a decimal number.
 *  @return 0 (stored in *out), -1 (empty or not only digits; *out
 *          untouched) or -2 (above UINT64_MAX; *out untouched). */
static inline int nqc_parse_u64(uint64_t *out, const char *s, size_t len)
{
    uint64_t v = 0;
    int overflow = 0;
    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned d;
        if (s[i] < '0' || s[i] > '9')
            return -1;
        d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            overflow = 1; /* keep scanning: "99999999999999999999x" is not a number */
        else
            v = v * 10 + d;
    }
    if (overflow)
        return -2;
    *out = v;
    return 0;
}

#endif
