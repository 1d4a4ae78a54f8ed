/*
 * A small seeded generator that is the same on every platform: SplitMix64
 * (Steele, Lea and Flood's mixing of a Weyl sequence), for the samples of
 * estimates, cost models and re-checks, which must draw the same units or
 * splits from the same seed everywhere. Not for anything secret.
 */
#ifndef NQC_RANDOM_H
#define NQC_RANDOM_H

#include <stdint.h>

/*! nqc_splitmix64() : the next number of the sequence whose state is
 *  *state (any value; it advances). */
static inline uint64_t nqc_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif /* NQC_RANDOM_H */
