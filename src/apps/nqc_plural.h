/*
 * Grammar by count, for every message that names a number of things: one
 * helper, so that "1 part line carries" and "2 part lines carry" are both
 * right wherever a count is printed.
 */
#ifndef NQC_PLURAL_H
#define NQC_PLURAL_H

#include <stdint.h>

/*! nqc_plural() : `one` when count is 1, else `many` ("unit"/"units",
 *  "carries"/"carry", "it"/"them"). */
static inline const char *nqc_plural(uint64_t count, const char *one, const char *many)
{
    return count == 1 ? one : many;
}

#endif
