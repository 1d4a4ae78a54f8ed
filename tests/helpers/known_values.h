/* Published counts the tests check against: OEIS A000170 (total) and
 * A002562 (unique up to rotation and reflection), copied here so that the
 * tests depend on nothing outside the repository. */
#ifndef NQ_TEST_KNOWN_VALUES_H
#define NQ_TEST_KNOWN_VALUES_H

#include <stdint.h>

static const struct {
    uint64_t total;
    uint64_t unique;
} test_known[] = {
    {1u, 1u},              /* 0 */
    {1u, 1u},              /* 1 */
    {0u, 0u},              /* 2 */
    {0u, 0u},              /* 3 */
    {2u, 1u},              /* 4 */
    {10u, 2u},             /* 5 */
    {4u, 1u},              /* 6 */
    {40u, 6u},             /* 7 */
    {92u, 12u},            /* 8 */
    {352u, 46u},           /* 9 */
    {724u, 92u},           /* 10 */
    {2680u, 341u},         /* 11 */
    {14200u, 1787u},       /* 12 */
    {73712u, 9233u},       /* 13 */
    {365596u, 45752u},     /* 14 */
    {2279184u, 285053u},   /* 15 */
    {14772512u, 1846955u}, /* 16 */
    {95815104u, 11977939u},  /* 17 */
    {666090624u, 83263591u}, /* 18 */
};

#endif
