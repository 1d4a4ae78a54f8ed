/* The words of a memory refusal (src/apps/nqc_memory.h): on the CPU they
 * name the threads and, where one thread fits, -j 1; on a GPU, where -j
 * changes nothing, they name what does help: --max-memory, or the CPU. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "nqc_memory.h"

static void test_cpu_words(void **state)
{
    char text[256];
    (void)state;
    nqc_memory_refusal(text, sizeof text, 28, UINT64_C(15) << 30, 2, UINT64_C(1) << 30,
                       UINT64_C(8) << 30, "this machine");
    assert_string_equal(text, "n = 28 needs at least 15 GiB with 2 threads, more than "
                              "--max-memory allows (1.0 GiB); with 1 thread it needs "
                              "8.0 GiB (-j 1)");
}

static void test_gpu_words(void **state)
{
    char text[256];
    (void)state;
    nqc_gpu_memory_refusal(text, sizeof text, 24, UINT64_C(60) << 20, UINT64_C(10) << 20,
                           "this machine");
    assert_string_equal(text, "n = 24 needs at least 60 MiB to count on the GPU, more than "
                              "--max-memory allows (10 MiB); a larger --max-memory, or the "
                              "CPU (--device=cpu), lets it count");
    nqc_gpu_memory_refusal(text, sizeof text, 24, UINT64_C(60) << 30, 0, "its node");
    assert_null(strstr(text, "thread"));
    assert_null(strstr(text, "-j"));
    assert_non_null(strstr(text, "half the memory of its node"));
    assert_non_null(strstr(text, "--device=cpu"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_words),
        cmocka_unit_test(test_gpu_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
