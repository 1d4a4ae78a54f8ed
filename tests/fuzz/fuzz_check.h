/* The fuzz targets' check: a broken rule aborts, so that libFuzzer stops
 * and keeps the input (in every build, NDEBUG or not). */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdlib.h>

#define CHECK(cond)       \
    do {                  \
        if (!(cond))      \
            abort();      \
    } while (0)

#endif
