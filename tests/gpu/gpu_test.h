/*
 * gpu_test.h - what the GPU test programs share: the skip (exit status
 * 77, saying why) where no GPU can count, and a group's GPU opened once
 * for its tests. Include after cmocka.h.
 */
#ifndef NQ_GPU_TEST_H
#define NQ_GPU_TEST_H

#include <stdio.h>

#include "nqueens.h"

/* 1, after a line saying why, when no GPU can count here (the program
 * then exits 77, which CTest reports as skipped); else 0. */
static inline int gpu_test_skip(void)
{
    unsigned count = 0;
    int rc = nq_gpu_count(&count);
    if (rc == NQ_OK)
        return 0;
    printf("skipped: no GPU to count on (%s)\n",
           nq_gpu_support() ? nq_strerror(rc) : "this build has no GPU support");
    return 1;
}

/* A GPU test program's result: 77 (skipped, saying why) where no GPU can
 * count, else the group's. */
#define GPU_TEST_RUN(tests, setup, teardown) \
    (gpu_test_skip() ? 77 : cmocka_run_group_tests(tests, setup, teardown))

#ifdef NQ_DEVICE_H
/* A group's set-up and tear-down (for the programs that include
 * device/device.h first): GPU 0 opened with the memory a count opens it
 * with, as the group's state. */
static inline int gpu_test_open(void **state)
{
    nq_gpu *gpu = NULL;
    if (nq_gpu_open(&gpu, 0, NQ_GPU_MEMORY) != NQ_OK)
        return -1;
    *state = gpu;
    return 0;
}

static inline int gpu_test_close(void **state)
{
    nq_gpu_close(*state);
    return 0;
}
#endif

#endif /* NQ_GPU_TEST_H */
