/*
 * Counts on a GPU (label gpu): run when this build has GPU support and a
 * GPU is there; otherwise the program says why on stdout and exits with
 * 77, which CTest reports as skipped. bench/gpu.sh runs these on a GPU
 * machine.
 *
 * Each count is checked against the known values, every unit of n = 16
 * against the CPU's count of the same unit, checkpoints across the two
 * devices both ways, and a stop within a second: for each method the GPU
 * runs (the symmetry method, and the join).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "gpu_test.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nqueens.h"

/* The boards counted. On a GPU emulated on the host (a build with
 * NQ_CUDA_EMULATOR: its driver walks on two host threads, under the
 * sanitizers), the same checks on smaller boards. */
#ifdef NQ_TEST_EMULATED_GPU
#define KNOWN_UP_TO 14u   /* every total and unique count up to here */
#define ALL_UNITS_N 12u   /* every unit against the CPU */
#define SOME_UNITS_N 17u  /* the first SOME_UNITS units (split ones) */
#define SOME_UNITS 200u
#define RESUME_N 14u      /* a checkpoint across the devices */
#define ESTIMATE_N 16u    /* estimated, then counted */
/* how far the estimate may be from the count: the emulator's small
 * samples pay its fixed costs (host threads a launch) far more than a
 * whole count does */
#define ESTIMATE_FACTOR 3.0
#else
#define KNOWN_UP_TO 19u
#define ALL_UNITS_N 16u
#define SOME_UNITS_N 20u
#define SOME_UNITS 1000u
#define RESUME_N 17u
#define ESTIMATE_N 20u
#define ESTIMATE_FACTOR 2.0
#endif

/* The methods a GPU runs. */
static const nq_method gpu_methods[] = {NQ_METHOD_SYMMETRY, NQ_METHOD_JOIN};
#define GPU_METHODS (sizeof gpu_methods / sizeof gpu_methods[0])

static const uint64_t totals[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                  73712, 365596, 2279184, 14772512, 95815104,
                                  666090624, 4968057848, 39029188884};
static const uint64_t uniques[] = {1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233,
                                   45752, 285053, 1846955, 11977939, 83263591,
                                   621012754, 4878666808};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static nq_count_options gpu_options(void)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    o.device = NQ_DEVICE_GPU;
    return o;
}

/* n = 1 to KNOWN_UP_TO on the GPU: totals and unique counts by default
 * (the symmetry method), totals by the join. */
static void test_known(void **state)
{
    (void)state;
    for (unsigned n = 1; n <= KNOWN_UP_TO; n++) {
        nq_count_options o = gpu_options();
        nq_count_result r = NQ_COUNT_RESULT_INIT;
        o.unique = 1;
        assert_int_equal(nq_count(&r, n, &o), NQ_OK);
        assert_int_equal(r.device, NQ_DEVICE_GPU);
        assert_int_equal(r.method, NQ_METHOD_SYMMETRY);
        assert_int_equal(r.total, totals[n]);
        assert_int_equal(r.unique, uniques[n]);
        o.unique = 0;
        o.method = NQ_METHOD_JOIN;
        r = (nq_count_result)NQ_COUNT_RESULT_INIT;
        assert_int_equal(nq_count(&r, n, &o), NQ_OK);
        assert_int_equal(r.device, NQ_DEVICE_GPU);
        assert_int_equal(r.method, NQ_METHOD_JOIN);
        assert_int_equal(r.total, totals[n]);
        printf("n = %u: %llu on the GPU, by either method\n", n,
               (unsigned long long)r.total);
    }
}

typedef struct unit_log {
    uint64_t *total, *unique;
    uint64_t seen;
} unit_log;

static void log_unit(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    unit_log *l = data;
    l->total[unit] = total;
    l->unique[unit] = unique;
    l->seen++;
}

/* Units first .. first + count - 1 of n (count 0: all of them) are the
 * same numbers on both devices, by the method. */
static void check_units(nq_method method, unsigned n, uint64_t first, uint64_t count)
{
    unit_log cpu = {0}, gpu = {0};
    uint64_t units;
    nq_count_options o = gpu_options();
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    assert_int_equal(nq_units(&units, n, method), NQ_OK);
    if (first > units)
        first = units;
    if (count == 0 || count > units - first)
        count = units - first;
    cpu.total = calloc(units, 8);
    cpu.unique = calloc(units, 8);
    gpu.total = calloc(units, 8);
    gpu.unique = calloc(units, 8);
    assert_true(cpu.total && cpu.unique && gpu.total && gpu.unique);
    o.method = method;
    o.unit_first = first;
    o.unit_count = count;
    o.on_unit = log_unit;
    o.unit_data = &gpu;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);
    assert_int_equal(r.device, NQ_DEVICE_GPU);
    o.device = NQ_DEVICE_CPU;
    o.unit_data = &cpu;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);
    assert_int_equal(cpu.seen, count);
    assert_int_equal(gpu.seen, count);
    for (uint64_t u = first; u < first + count; u++) {
        assert_int_equal(gpu.total[u], cpu.total[u]);
        assert_int_equal(gpu.unique[u], cpu.unique[u]);
    }
    free(cpu.total);
    free(cpu.unique);
    free(gpu.total);
    free(gpu.unique);
}

/* Every unit of n = 16 and the first thousand of 20 (the symmetry
 * method's split units; smaller boards on the emulated GPU), by each
 * method. (Units of many row splits, which the join's lists have from
 * n = 24 on, are compared in test_gpu_join.) */
static void test_units_16(void **state)
{
    (void)state;
    for (size_t m = 0; m < GPU_METHODS; m++) {
        check_units(gpu_methods[m], ALL_UNITS_N, 0, 0);
        check_units(gpu_methods[m], SOME_UNITS_N, 0, SOME_UNITS);
    }
}

/* A checkpoint of the method begun on one device is finished on the
 * other. */
static void resume(nq_method method, nq_device first, nq_device second)
{
    char path[] = "/tmp/nq-gpu-XXXXXX";
    int fd = mkstemp(path);
    nq_checkpoint *cp;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    uint64_t units;
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(nq_units(&units, RESUME_N, method), NQ_OK);
    assert_int_equal(nq_checkpoint_open(&cp, path, RESUME_N, method), NQ_OK);
    o.method = method;
    o.unique = method == NQ_METHOD_SYMMETRY;
    o.checkpoint = cp;
    o.device = first;
    o.unit_count = units / 3;
    assert_int_equal(nq_count(&r, RESUME_N, &o), NQ_OK);
    assert_int_equal(r.device, first);
    nq_checkpoint_close(cp);
    assert_int_equal(nq_checkpoint_open(&cp, path, RESUME_N, method), NQ_OK);
    o.checkpoint = cp;
    o.device = second;
    o.unit_count = 0;
    assert_int_equal(nq_count(&r, RESUME_N, &o), NQ_OK);
    assert_int_equal(r.device, second);
    assert_int_equal(r.units_done, units);
    assert_int_equal(r.total, totals[RESUME_N]);
    assert_int_equal(r.unique, method == NQ_METHOD_SYMMETRY ? uniques[RESUME_N] : 0);
    nq_checkpoint_close(cp);
    unlink(path);
}

static void test_resume_across_devices(void **state)
{
    (void)state;
    for (size_t m = 0; m < GPU_METHODS; m++) {
        resume(gpu_methods[m], NQ_DEVICE_CPU, NQ_DEVICE_GPU);
        resume(gpu_methods[m], NQ_DEVICE_GPU, NQ_DEVICE_CPU);
    }
}

typedef struct raiser {
    nq_cancel *flag;
    double after, raised_at;
} raiser;

static void *raise_later(void *arg)
{
    raiser *r = arg;
    struct timespec t = {0, (long)(r->after * 1e9)};
    nanosleep(&t, NULL);
    r->raised_at = now();
    nq_cancel_raise(r->flag);
    return NULL;
}

/* A count of n = 23 (hours) by the method stops within a second of the
 * flag. */
static void cancel(nq_method method)
{
    nq_count_options o = gpu_options();
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    raiser ra = {NULL, 1.5, 0.0};
    pthread_t t;
    double end;
    int rc;
    o.method = method;
    assert_int_equal(nq_cancel_new(&ra.flag), NQ_OK);
    o.stop = ra.flag;
    assert_int_equal(pthread_create(&t, NULL, raise_later, &ra), 0);
    rc = nq_count(&r, 23, &o);
    end = now();
    pthread_join(t, NULL);
    nq_cancel_free(ra.flag); /* before the checks: a failed one returns */
    printf("%s: stopped %.3f s after the flag\n", nq_method_name(method), end - ra.raised_at);
    assert_int_equal(rc, NQ_ECANCELED);
#ifdef NQ_TEST_EMULATED_GPU
    /* the emulated GPU's host threads, beside the other tests of the full
     * test command, may wait seconds for a core: the limit ends a hang */
    assert_true(end - ra.raised_at < 30.0);
#else
    assert_true(end - ra.raised_at < 1.0);
#endif
}

static void test_cancel(void **state)
{
    (void)state;
    for (size_t m = 0; m < GPU_METHODS; m++)
        cancel(gpu_methods[m]);
}

/* What the GPU runs, and what it refuses. */
static void test_choice(void **state)
{
    nq_count_options o = gpu_options();
    nq_method m;
    nq_device d;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    (void)state;
    assert_int_equal(nq_count_choice(&m, &d, 20, &o), NQ_OK);
    assert_int_equal(m, NQ_METHOD_SYMMETRY);
    assert_int_equal(d, NQ_DEVICE_GPU);
    o.method = NQ_METHOD_JOIN;
    assert_int_equal(nq_count_choice(&m, &d, 20, &o), NQ_OK);
    assert_int_equal(m, NQ_METHOD_JOIN);
    assert_int_equal(d, NQ_DEVICE_GPU);
    o.method = NQ_METHOD_PLAIN;
    assert_int_equal(nq_count_choice(&m, &d, 20, &o), NQ_EMETHOD);
    assert_int_equal(nq_count(&r, 20, &o), NQ_EMETHOD);
    o.device = NQ_DEVICE_AUTO; /* the plain walk stays on the CPU */
    assert_int_equal(nq_count_choice(&m, &d, 20, &o), NQ_OK);
    assert_int_equal(d, NQ_DEVICE_CPU);
    o.method = NQ_METHOD_JOIN;
    assert_int_equal(nq_count_choice(&m, &d, 20, &o), NQ_OK);
    assert_int_equal(d, NQ_DEVICE_GPU);
    o.method = NQ_METHOD_DEFAULT;
    assert_int_equal(nq_count_choice(&m, &d, 20, &o), NQ_OK);
    assert_int_equal(d, NQ_DEVICE_GPU);
    assert_int_equal(nq_count_choice(&m, &d, 12, &o), NQ_OK);
    assert_int_equal(d, NQ_DEVICE_CPU);
    o.device = NQ_DEVICE_GPU;
    o.gpu = 4096;
    assert_int_equal(nq_count(&r, 12, &o), NQ_ENODEVICE);
}

/* The estimate of a GPU count is timed by the wall clock (the host's CPU
 * only waits), and within ESTIMATE_FACTOR of the count's time. */
static void test_estimate(void **state)
{
    nq_count_options o = gpu_options();
    nq_estimate_result e = NQ_ESTIMATE_RESULT_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    double t;
    (void)state;
    assert_int_equal(nq_estimate(&e, ESTIMATE_N, &o, 1.0, 1), NQ_OK);
    t = now();
    assert_int_equal(nq_count(&r, ESTIMATE_N, &o), NQ_OK);
    t = now() - t;
    printf("n = %u: estimated %.2f s, counted in %.2f s\n", ESTIMATE_N, e.seconds, t);
    assert_int_equal(r.total, totals[ESTIMATE_N]);
    assert_true(e.seconds > t / ESTIMATE_FACTOR && e.seconds < t * ESTIMATE_FACTOR);
}

/* From n = 25 the GPU's estimate is its cost model's (units of n = 20
 * timed on the GPU price a node): an interval, no lower bound, growth
 * with n; printed beside the CPU's for the record. */
static void test_estimate_model(void **state)
{
    nq_count_options o = gpu_options();
    double last = 0.0;
    (void)state;
#ifdef NQ_TEST_EMULATED_GPU
    /* its price comes from batches of a thousand units of n = 20: minutes
     * on two host threads */
    printf("skipped on the emulated GPU: pricing the model takes minutes there\n");
    skip();
#endif
    o.method = NQ_METHOD_SYMMETRY;
    for (unsigned n = 25; n <= NQ_MAX_N; n++) {
        nq_estimate_result e = NQ_ESTIMATE_RESULT_INIT;
        assert_int_equal(nq_estimate(&e, n, &o, 2.0, n), NQ_OK);
        assert_int_equal(e.kind, NQ_ESTIMATE_MODELLED);
        assert_true(e.low <= e.seconds && e.seconds <= e.high);
        assert_true(e.seconds > 4.0 * last);
        printf("n = %u: one GPU, %.4g s (%.4g to %.4g), %.4g GPU-hours\n", n, e.seconds,
               e.low, e.high, e.seconds / 3600.0);
        last = e.seconds;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_units_16),
        cmocka_unit_test(test_resume_across_devices),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_estimate),
        cmocka_unit_test(test_estimate_model),
    };
    return GPU_TEST_RUN(tests, NULL, NULL);
}
