/* How far the default tests count. The optimised build counts every board
 * up to n = 16 against the known values. A slow build (sanitizers, or a
 * cross build run under an emulator) runs the same tests through the same
 * code paths (every method, SIMD level and thread count) but ten to fifty
 * times slower, so it stops at smaller boards and leaves the largest ones
 * to the optimised build. tests/CMakeLists.txt defines NQ_TEST_SLOW in
 * those builds. */
#ifndef NQ_TEST_SIZES_H
#define NQ_TEST_SIZES_H

#ifdef NQ_TEST_SLOW
#define NQ_TEST_MAX_N 12u   /* counted in full against the known values */
#define NQ_TEST_CROSS_N 11u /* methods and kernels checked against each other */
#else
#define NQ_TEST_MAX_N 16u
#define NQ_TEST_CROSS_N 14u
#endif

#endif
