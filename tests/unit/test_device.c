/*
 * Devices through the public API, on any machine: what a build without
 * GPU support, or a machine without a usable GPU, answers, and that a
 * count never moves to the CPU when the GPU was asked for. The counts on
 * a GPU are tests/gpu/test_gpu.c's (label gpu).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "nqueens.h"

/* A card smaller than this holds no count's buffers: the driver's margin
 * (256 MiB) and the least each of a count's two workers opens it with
 * (16 MiB). */
#define SMALL_CARD ((uint64_t)288u << 20)

/* What nq_gpu_count() says here: NQ_OK with a GPU, else why not. */
static int gpu_status(void)
{
    unsigned k = 99;
    int rc = nq_gpu_count(&k);
    if (rc != NQ_OK)
        assert_int_equal(k, 0);
    else
        assert_true(k >= 1);
    return rc;
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(nq_device_name(NQ_DEVICE_CPU), "cpu");
    assert_string_equal(nq_device_name(NQ_DEVICE_GPU), "gpu");
    assert_string_equal(nq_device_name(NQ_DEVICE_AUTO), "auto");
    assert_null(nq_device_name((nq_device)3));
    assert_null(nq_device_name((nq_device)-1));
    for (int rc = NQ_EDEVICEMEM; rc <= NQ_ENODRIVER; rc++)
        assert_string_not_equal(nq_strerror(rc), nq_strerror(12345));
}

static void test_listing(void **state)
{
    nq_gpu_info g = NQ_GPU_INFO_INIT;
    int rc = gpu_status();
    (void)state;
    assert_int_equal(nq_gpu_count(NULL), NQ_EINVAL);
    assert_int_equal(nq_gpu_info_get(NULL, 0), NQ_EINVAL);
    g.version = 0; /* not started from its INIT */
    assert_int_equal(nq_gpu_info_get(&g, 0), NQ_EVERSION);
    g.version = NQ_GPU_INFO_VERSION + 1;
    assert_int_equal(nq_gpu_info_get(&g, 0), NQ_EVERSION);
    if (!nq_gpu_support())
        assert_int_equal(rc, NQ_EUNSUPPORTED);
    else
        assert_true(rc == NQ_OK || rc == NQ_ENODRIVER || rc == NQ_ENODEVICE ||
                    rc == NQ_EDEVICE);
    memset(&g, 0x5a, sizeof g);
    g.version = NQ_GPU_INFO_VERSION;
    if (rc != NQ_OK) {
        /* nothing to describe, and *out is left alone */
        assert_int_equal(nq_gpu_info_get(&g, 0), rc);
        assert_int_equal(g.index, 0x5a5a5a5au);
        return;
    }
    assert_int_equal(nq_gpu_info_get(&g, 0), NQ_OK);
    assert_int_equal(g.index, 0);
    assert_true(g.memory > 0 && g.multiprocessors > 0 && g.compute_major > 0);
    assert_true(memchr(g.name, 0, sizeof g.name) != NULL);
    assert_int_equal(nq_gpu_info_get(&g, 4096), NQ_ENODEVICE);
}

/* Without a usable GPU, --device=gpu fails as nq_gpu_count() does and
 * counts nothing; auto counts on the CPU. */
static void test_no_gpu(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_method m;
    nq_device d;
    uint64_t bytes;
    int rc = gpu_status();
    (void)state;
    if (rc == NQ_OK)
        skip(); /* a GPU is here: tests/gpu/test_gpu.c counts on it */
    o.threads = 1;
    o.device = NQ_DEVICE_GPU;
    memset(&r, 0x5a, sizeof r);
    r.version = NQ_COUNT_RESULT_VERSION;
    assert_int_equal(nq_count(&r, 18, &o), rc);
    assert_int_equal(r.total, 0x5a5a5a5a5a5a5a5aull); /* untouched */
    assert_int_equal(nq_count(&r, 4, &o), rc);         /* any size */
    assert_int_equal(nq_memory(&bytes, 18, &o), rc);
    assert_int_equal(nq_count_choice(&m, &d, 18, &o), rc);
    o.device = NQ_DEVICE_AUTO;
    assert_int_equal(nq_count_choice(&m, &d, 18, &o), NQ_OK);
    assert_int_equal(d, NQ_DEVICE_CPU);
    assert_int_equal(m, nq_method_default(18, 0, NQ_SIMD_AUTO));
    assert_int_equal(nq_count(&r, 12, &o), NQ_OK);
    assert_int_equal(r.total, 14200);
    assert_int_equal(r.device, NQ_DEVICE_CPU);
}

static void test_choice(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_method m = NQ_METHOD_DEFAULT;
    nq_device d = NQ_DEVICE_AUTO;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_count_choice(NULL, &d, 12, &o), NQ_EINVAL);
    assert_int_equal(nq_count_choice(&m, NULL, 12, &o), NQ_EINVAL);
    assert_int_equal(nq_count_choice(&m, &d, NQ_MAX_N + 1, &o), NQ_ERANGE);
    assert_int_equal(nq_count_choice(&m, &d, 17, NULL), NQ_OK);
    assert_int_equal(d, NQ_DEVICE_CPU);
    assert_int_equal(m, nq_method_default(17, 0, NQ_SIMD_AUTO));
    o.unique = 1;
    assert_int_equal(nq_count_choice(&m, &d, 17, &o), NQ_OK);
    assert_int_equal(m, NQ_METHOD_SYMMETRY);
    o.unique = 0;
    o.method = NQ_METHOD_PLAIN;
    assert_int_equal(nq_count_choice(&m, &d, 17, &o), NQ_OK);
    assert_int_equal(m, NQ_METHOD_PLAIN);
    /* not a device */
    o.device = (nq_device)7;
    assert_int_equal(nq_count_choice(&m, &d, 12, &o), NQ_EINVAL);
    assert_int_equal(nq_count(&r, 12, &o), NQ_EINVAL);
    /* the result says where the count ran */
    o.device = NQ_DEVICE_CPU;
    o.threads = 1;
    memset(&r, 0x5a, sizeof r);
    r.version = NQ_COUNT_RESULT_VERSION;
    assert_int_equal(nq_count(&r, 10, &o), NQ_OK);
    assert_int_equal(r.device, NQ_DEVICE_CPU);
}

/* On a GPU, a count's memory (nq_memory()) holds its GPU buffers' share:
 * half the card's memory, or 512 MiB where that is more, when the limit
 * leaves that much; what the limit leaves when it is less; and a limit
 * that leaves less than the least a GPU is opened with is refused. */
static void test_gpu_memory(void **state)
{
    const uint64_t mib = 1u << 20;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_gpu_info g = NQ_GPU_INFO_INIT;
    uint64_t share, bytes = 0;
    int rc = gpu_status();
    (void)state;
    if (rc != NQ_OK) {
        printf("skipped: no GPU to count on (%s)\n", nq_strerror(rc));
        skip();
    }
    assert_int_equal(nq_gpu_info_get(&g, 0), NQ_OK);
    share = g.memory / 2 > 512 * mib ? g.memory / 2 : 512 * mib;
    o.device = NQ_DEVICE_GPU;
    o.method = NQ_METHOD_JOIN;
    if (g.memory < SMALL_CARD) { /* test_fallback's card */
        assert_int_equal(nq_memory(&bytes, 16, &o), NQ_EDEVICEMEM);
        return;
    }
    o.max_memory = share + 256 * mib; /* the share, and the host's part */
    assert_int_equal(nq_memory(&bytes, 16, &o), NQ_OK);
    if (bytes < share || bytes > share + 64 * mib)
        fail_msg("a card of %llu MiB: a count takes %llu MiB, not its share of %llu MiB and "
                 "a few more",
                 (unsigned long long)(g.memory / mib), (unsigned long long)(bytes / mib),
                 (unsigned long long)(share / mib));
    o.max_memory = 100 * mib;
    assert_int_equal(nq_memory(&bytes, 16, &o), NQ_OK);
    assert_true(bytes <= 100 * mib && bytes > 90 * mib);
    o.max_memory = 4 * mib;
    assert_int_equal(nq_memory(&bytes, 16, &o), NQ_EMEMLIMIT);
    assert_true(bytes > 16 * mib); /* what it needs at least */
}

/* A GPU whose memory cannot hold a count's buffers (the driver's margin
 * of 256 MiB and 16 MiB for each of its two workers: the emulated GPU
 * with NQ_EMU_GPU_MEMORY=4096, test_device_small_gpu): NQ_DEVICE_GPU
 * refuses every count before it starts, NQ_DEVICE_AUTO counts on the CPU
 * with the CPU's method and says why (nq_count_fallback()). Without a
 * GPU, or on one that holds them, nothing falls back. */
static void test_fallback(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_gpu_info g = NQ_GPU_INFO_INIT;
    nq_method m = NQ_METHOD_DEFAULT;
    nq_device d = NQ_DEVICE_AUTO;
    uint64_t bytes = 0;
    int why = 12345;
    (void)state;
    assert_int_equal(nq_count_fallback(NULL, 18, &o), NQ_EINVAL);
    assert_int_equal(nq_count_fallback(&why, NQ_MAX_N + 1, &o), NQ_ERANGE);
    assert_int_equal(why, 12345); /* untouched */
    o.threads = 1;
    o.device = NQ_DEVICE_AUTO;
    assert_int_equal(nq_count_fallback(&why, 18, &o), NQ_OK);
    if (gpu_status() != NQ_OK || nq_gpu_info_get(&g, 0) != NQ_OK || g.memory >= SMALL_CARD) {
        assert_int_equal(why, NQ_OK);
        return;
    }
    assert_int_equal(why, NQ_EDEVICEMEM);
    assert_int_equal(nq_count_choice(&m, &d, 18, &o), NQ_OK);
    assert_int_equal(d, NQ_DEVICE_CPU);
    assert_int_equal(m, nq_method_default(18, 0, NQ_SIMD_AUTO));
    /* a board kept on the CPU anyway: no fallback to speak of */
    assert_int_equal(nq_count_fallback(&why, 12, &o), NQ_OK);
    assert_int_equal(why, NQ_OK);
    /* a part of n = 18 is counted, on the CPU */
    o.part_k = 1;
    o.part_m = 1000;
    assert_int_equal(nq_count(&r, 18, &o), NQ_OK);
    assert_int_equal(r.device, NQ_DEVICE_CPU);
    assert_int_equal(r.method, m);
    assert_true(r.total > 0);
    /* asked for, the GPU refuses before anything is built */
    o.device = NQ_DEVICE_GPU;
    o.part_k = o.part_m = 0;
    assert_int_equal(nq_count_fallback(&why, 12, &o), NQ_EDEVICEMEM);
    assert_int_equal(nq_count_choice(&m, &d, 12, &o), NQ_EDEVICEMEM);
    assert_int_equal(nq_memory(&bytes, 12, &o), NQ_EDEVICEMEM);
    assert_int_equal(nq_count(&r, 12, &o), NQ_EDEVICEMEM);
}

/* A caller built against the version-3 header (no device fields) counts
 * on the CPU, whatever lies past its struct. */
static void test_version_3(void **state)
{
    nq_count_options o;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    memset(&o, 0x7f, sizeof o);
    assert_int_equal(nq_count_options_init(&o, 3), NQ_OK);
    assert_int_equal(o.device, (nq_device)0x7f7f7f7f); /* not written */
    o.threads = 1;
    assert_int_equal(nq_count(&r, 9, &o), NQ_OK);
    assert_int_equal(r.total, 352);
    assert_int_equal(r.device, NQ_DEVICE_CPU);
    assert_int_equal(nq_count_options_init(&o, NQ_COUNT_OPTIONS_VERSION), NQ_OK);
    assert_int_equal(o.device, NQ_DEVICE_CPU);
    assert_int_equal(o.gpu, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_listing),
        cmocka_unit_test(test_no_gpu),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_gpu_memory),
        cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_version_3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
