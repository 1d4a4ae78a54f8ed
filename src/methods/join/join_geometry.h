/*
 * join_geometry.h - a row split's orbit, bars and key window
 * (join_geometry.c). Not public.
 */
#ifndef NQ_JOIN_GEOMETRY_H
#define NQ_JOIN_GEOMETRY_H

#include <stdint.h>

/* The number of distinct images of split (m, rows) under the two flips if
 * it is the smallest of them, else 0 (the weight of an odd board's centre
 * split; bench/nq_transpose.c weighs every split so). `free_rows` are the
 * rows of the halves. */
unsigned nq_join_split_images(unsigned n, unsigned m, uint32_t rows, uint32_t free_rows);

/* The weight of split (m, rows) when it is the one of its orbit that is
 * counted (0 when it is not), and in *none_weight how its pairs count:
 * negative for the centre split of odd boards (every pair counts the
 * weight), else the weight of a pair whose west half holds neither long
 * diagonal (2 and 4 for one or both). `free_rows` are the halves' rows. */
uint64_t nq_join_split_orbit(unsigned n, unsigned m, uint32_t rows, uint32_t free_rows,
                             int *none_weight);

/* The diagonals barred to each half (0 east, 1 west) of a split through
 * middle row m: on odd boards the two of the middle column's queen, and
 * to the east half also the long diagonals when `classes` is 3. */
void nq_join_split_bars(unsigned n, unsigned m, unsigned classes, uint64_t bar1[2],
                        uint64_t bar2[2]);

/* The key windows of split east_rows / west_rows, whose halves may take
 * no diagonal of bar1, bar2: sets lo1, len1, lo2, len2 and returns the key
 * bits that no pair can clash on (the long diagonals stay inside the
 * window when `classes` is 3). */
uint64_t nq_join_split_window(unsigned n, uint32_t east_rows, uint32_t west_rows,
                              uint64_t bar1, uint64_t bar2, unsigned classes,
                              unsigned *lo1, unsigned *len1, unsigned *lo2, unsigned *len2);

#endif /* NQ_JOIN_GEOMETRY_H */
