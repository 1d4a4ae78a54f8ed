/*
 * abi_released.h - the sizes of the versioned structs of each released
 * public header (tests/abi/nqueens-X.Y.Z.h, kept as released), for
 * tests/unit/test_abi.c. Test helper.
 */
#ifndef NQ_ABI_RELEASED_H
#define NQ_ABI_RELEASED_H

#include <stddef.h>

typedef struct nq_abi_size {
    const char *name;  /* the struct's name */
    unsigned version;  /* its NQ_..._VERSION in that release */
    size_t size;       /* sizeof in that release */
} nq_abi_size;

/* 2.0.0, the first release whose structs grow by version; ends with a
 * row whose name is NULL */
extern const nq_abi_size nq_abi_2_0_0[];

#endif
