/*
 * The join's kernels on the GPU in memories smaller than a count opens it
 * with (label gpu): a split whose keys are more than a piece holds counted
 * in sub-splits; its keys written loose and sorted by bucket where the
 * memory holds them twice, and listed straight into their buckets where
 * it holds them once; a key that a miscounting GPU loses or places twice
 * on its way to its bucket fails the count, never changes it (the
 * emulated GPU only); a GPU opened for more than its card has free keeps
 * within its share; and a part too large for a piece is refused. Each
 * count the host's by the same steps (join_gpu.c). Run where this build
 * has GPU support and a GPU is there; otherwise the program says why on
 * stdout and exits with 77 (skipped).
 */
#ifdef NQ_TEST_EMULATED_GPU
#define _POSIX_C_SOURCE 200809L /* dlopen */
#include <dlfcn.h>
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "gpu_test.h"
#include "methods/join/join_gpu.h"
#include "methods/join/join_half.h"
#include "methods/join/join_plan.h"
#include "gpu_join_test.h"

/* In a GPU opened with a few kilobytes (the backend's own open: a count
 * opens with at least NQ_GPU_MEMORY_MIN), a split's keys are more than a
 * piece holds, as the largest splits of n = 26 and over are in a count's
 * memory: each is counted in sub-splits (runs of its halves' parts, every
 * east run met with every west run), the host's count every time. Every
 * 40th counted split of n = 16, four a batch. */
#ifdef NQ_HAVE_CUDA
#include "device/cuda/cuda_host.h"
#include "device/cuda/cuda_internal.h"

/* Opens GPU 0's backend with `memory` bytes, below what a count opens
 * one with. */
static nq_gpu open_small(uint64_t memory)
{
    nq_gpu gpu = {&nq_cuda_backend, NULL};
    assert_int_equal(nq_cuda_backend.open(&gpu.state, 0, memory), NQ_OK);
    return gpu;
}
#else
static nq_gpu open_small(uint64_t memory)
{
    nq_gpu gpu = {NULL, NULL};
    (void)memory;
    fail_msg("a GPU to count on, but no backend built in");
    return gpu;
}
#endif

static void test_sub_splits(void **state)
{
    nq_gpu gpu = open_small(16u << 10);
    nq_jg_split *s, batch4[4];
    const size_t k = counted_splits(16, &s);
    uint64_t keys = 0, checked = 0;
    (void)state;
    for (size_t i = 0; i < k; i += 4 * 40) {
        uint64_t got[4] = {0, 0, 0, 0};
        size_t m = 0;
        for (size_t j = i; j < k && m < 4; j += 40)
            batch4[m++] = s[j];
        const nq_join_batch batch = {batch4, m};
        assert_int_equal(nq_gpu_join_splits(&gpu, &batch, got, NULL), NQ_OK);
        for (size_t j = 0; j < m; j++) {
            const uint64_t want = host_count(&batch4[j], &keys);
            if (got[j] != want)
                fail_msg("n = 16, split %zu: %llu on the GPU in sub-splits, %llu on the host",
                         i + 40 * j, (unsigned long long)got[j], (unsigned long long)want);
            checked++;
        }
    }
    /* the keys of a split pass what the GPU holds for a piece */
    assert_true(keys / checked * sizeof(uint64_t) > (8u << 10));
    gpu.backend->close(gpu.state);
    free(s);
    printf("n = 16 in 16 KiB: %llu splits counted in sub-splits as on the host\n",
           (unsigned long long)checked);
}

/* A GPU opened with more memory than its card has free keeps its buffers
 * within 1 / NQ_GPU_WORKERS of that, less the driver's margin (what the
 * card had free at the open is what it has now, less what the open took
 * since: a few bytes); with less asked for, what was asked for. */
#ifdef NQ_HAVE_CUDA
static void test_card_share(void **state)
{
    nq_gpu gpu = open_small(UINT64_MAX / 2);
    const cuda_gpu *g = gpu.state;
    size_t free_bytes = 0, total = 0;
    CUcontext dummy;
    uint64_t want;
    (void)state;
    assert_int_equal(g->d.CtxPushCurrent(g->ctx), 0);
    assert_int_equal(g->d.MemGetInfo(&free_bytes, &total), 0);
    g->d.CtxPopCurrent(&dummy);
    want = (free_bytes - NQ_GPU_CARD_MARGIN) / NQ_GPU_WORKERS;
    if (g->memory < want || g->memory > want + (1u << 20))
        fail_msg("a card with %llu MiB free: %llu MiB for the buffers, not %llu",
                 (unsigned long long)(free_bytes >> 20), (unsigned long long)(g->memory >> 20),
                 (unsigned long long)(want >> 20));
    gpu.backend->close(gpu.state);
    gpu = open_small(NQ_GPU_MEMORY_MIN);
    assert_int_equal(((const cuda_gpu *)gpu.state)->memory, NQ_GPU_MEMORY_MIN);
    gpu.backend->close(gpu.state);
    printf("a card with %llu MiB free: a GPU opened for more keeps to %llu MiB\n",
           (unsigned long long)(free_bytes >> 20), (unsigned long long)(want >> 20));
}
#else
static void test_card_share(void **state)
{
    (void)state;
    fail_msg("a GPU to count on, but no backend built in");
}
#endif

/* The emulated driver's own calls (see tests/gpu/emulator/emu.h): the
 * launches and the atomic adds of a kernel so far, and a miscounting
 * GPU played; on a GPU, nothing to look at or play. */
#ifdef NQ_TEST_EMULATED_GPU
#define KNOWS_LAUNCHES 1
static void *emu_call(const char *name)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL), *f;
    assert_non_null(lib);
    f = dlsym(lib, name);
    assert_non_null(f);
    dlclose(lib); /* the backend holds the driver open: f stays */
    return f;
}

static unsigned long launches(const char *kernel)
{
    unsigned long (*count)(const char *);
    *(void **)&count = emu_call("nq_emu_launches");
    return count(kernel);
}

static unsigned long long adds(const char *kernel, int latest)
{
    unsigned long long (*count)(const char *, int);
    *(void **)&count = emu_call("nq_emu_adds");
    return count(kernel, latest);
}

static void drop(const char *kernel, long long k)
{
    void (*plan)(const char *, long long);
    *(void **)&plan = emu_call("nq_emu_drop");
    plan(kernel, k);
}
#else
#define KNOWS_LAUNCHES 0
static unsigned long launches(const char *kernel)
{
    (void)kernel;
    return 0;
}

static unsigned long long adds(const char *kernel, int latest)
{
    (void)kernel;
    (void)latest;
    return 0;
}

static void drop(const char *kernel, long long k)
{
    (void)kernel;
    (void)k;
}
#endif

/* The keys of split s's two lists, by the GPU's steps on the host. */
static uint64_t split_keys(const nq_jg_split *s)
{
    uint64_t keys = 0, steps = 0;
    for (unsigned half = 0; half < 2; half++) {
        nq_join_keys list = { 0 };
        assert_int_equal(nq_join_gpu_list(s, half, &list, &steps), NQ_OK);
        keys += list.count;
        free(list.keys);
    }
    return keys;
}

/* The counted split of PIECES_N with the most keys, into *out (from
 * *all, to be freed), its keys into *keys; returns the host's count of
 * it. */
static uint64_t heaviest_split(nq_jg_split **all, const nq_jg_split **out, uint64_t *keys)
{
    const size_t k = counted_splits(PIECES_N, all);
    size_t heaviest = 0;
    uint64_t most = 0, listed = 0, want;
    for (size_t i = 0; i < k; i++) {
        const uint64_t these = split_keys(&(*all)[i]);
        if (these > most) {
            most = these;
            heaviest = i;
        }
    }
    /* the 1 KiB beside the keys (what else a batch and a piece take: a
     * few hundred bytes) moves a piece's room by less than half the
     * keys' bytes */
    assert_true(most > 256);
    want = host_count(&(*all)[heaviest], &listed);
    assert_int_equal(listed, most);
    *out = &(*all)[heaviest];
    *keys = most;
    return want;
}

/* A GPU whose memory holds `keys` keys (with the rest a piece takes)
 * once or, `twice`, twice over: a piece of them is listed into place, or
 * loose and sorted (a piece's keys get half of what the batch's buffers
 * leave). */
static nq_gpu open_for(uint64_t keys, unsigned twice)
{
    return open_small(keys * sizeof(uint64_t) * (twice ? 5 : 3) + 1024);
}

/* The split of PIECES_N with the most keys, counted alone in a GPU whose
 * memory holds its keys once, then in one that holds them twice: listed
 * twice, into place, in the first (its buckets counted, laid out on the
 * GPU, then its keys written to them), listed once, laid out and its
 * loose keys sorted in the second; the host's count both times, and
 * every bucket checked after (nq_join_check_kernel). */
static void test_piece_ways(void **state)
{
    nq_jg_split *all;
    const nq_jg_split *s;
    uint64_t most;
    const uint64_t want = heaviest_split(&all, &s, &most);
    (void)state;
    for (unsigned twice = 0; twice < 2; twice++) {
        nq_gpu gpu = open_for(most, twice);
        const nq_join_batch batch = {s, 1};
        const unsigned long lists = launches("nq_join_list_kernel"),
                            lays = launches("nq_join_lay_kernel"),
                            sorts = launches("nq_join_sort_kernel"),
                            checks = launches("nq_join_check_kernel");
        uint64_t got = 0;
        assert_int_equal(nq_gpu_join_splits(&gpu, &batch, &got, NULL), NQ_OK);
        if (got != want)
            fail_msg("n = %u, split %zu, keys %s: %llu on the GPU, %llu on the host", PIECES_N,
                     (size_t)(s - all), twice ? "loose" : "in place", (unsigned long long)got,
                     (unsigned long long)want);
        if (KNOWS_LAUNCHES) {
            /* the first listing, then the piece's */
            assert_int_equal(launches("nq_join_list_kernel") - lists, twice ? 2 : 3);
            assert_int_equal(launches("nq_join_lay_kernel") - lays, 1);
            assert_int_equal(launches("nq_join_sort_kernel") - sorts, twice ? 1 : 0);
            assert_int_equal(launches("nq_join_check_kernel") - checks, 1);
        }
        gpu.backend->close(gpu.state);
    }
    free(all);
    printf("n = %u, a split of %llu keys: counted as on the host with its keys in place and "
           "loose\n",
           PIECES_N, (unsigned long long)most);
}

/* Drops of one atomic add spread over the work of the launch that puts
 * the keys in their buckets. */
#define DROPS 6

/* A GPU that miscounts, played by the emulated driver: one atomic add of
 * the launch that puts the keys in their buckets does nothing (the
 * listing into place, or the sort of the loose keys), at DROPS points
 * spread over its first adds (a key's place: the emulated driver drops
 * no fetch of a task), for the heaviest split of PIECES_N each way. Each
 * count fails with NQ_EDEVICE, never another number: a key lost or
 * placed twice ends its bucket elsewhere than its layout says. */
static void test_miscounting(void **state)
{
    nq_jg_split *all;
    const nq_jg_split *s;
    uint64_t most, want;
    (void)state;
    if (!KNOWS_LAUNCHES) {
        printf("skipped: a miscounting GPU is played only by the emulated driver\n");
        skip();
        return;
    }
    want = heaviest_split(&all, &s, &most);
    for (unsigned twice = 0; twice < 2; twice++) {
        const char *kernel = twice ? "nq_join_sort_kernel" : "nq_join_list_kernel";
        const nq_join_batch batch = {s, 1};
        nq_gpu gpu = open_for(most, twice);
        const unsigned long long before = adds(kernel, 0);
        unsigned long long placing, earlier;
        unsigned caught = 0;
        uint64_t got = 0;
        /* the adds of the kernel's launches, the last placing the keys */
        assert_int_equal(nq_gpu_join_splits(&gpu, &batch, &got, NULL), NQ_OK);
        assert_int_equal(got, want);
        placing = adds(kernel, 1);
        earlier = adds(kernel, 0) - before - placing;
        assert_true(placing >= most); /* an add a key at least */
        for (unsigned j = 1; j <= DROPS; j++) {
            int rc;
            drop(kernel, (long long)(earlier + placing * j / (DROPS + 1)));
            got = 0;
            rc = nq_gpu_join_splits(&gpu, &batch, &got, NULL);
            if (rc == NQ_OK && got != want)
                fail_msg("n = %u, keys %s, add %u/%u of %s dropped: %llu, not %llu", PIECES_N,
                         twice ? "loose" : "in place", j, DROPS + 1, kernel,
                         (unsigned long long)got, (unsigned long long)want);
            if (rc != NQ_OK)
                assert_int_equal(rc, NQ_EDEVICE);
            caught += rc != NQ_OK;
        }
        drop(NULL, 0);
        gpu.backend->close(gpu.state);
        if (caught < DROPS)
            fail_msg("keys %s: %u of %u adds of %s dropped were caught", twice ? "loose" : "in place",
                     caught, DROPS, kernel);
        printf("keys %s: %u of %u adds of %s dropped (of %llu) caught, no wrong count\n",
               twice ? "loose" : "in place", caught, DROPS, kernel, placing);
    }
    free(all);
}

/* When one part of a half (the subtree under its first two rows' queens)
 * has more keys than half of what a piece holds, the split cannot be cut
 * fine enough: NQ_EDEVICEMEM, alone and after a split that fits (the
 * heaviest split of n = 24, whose parts hold thousands of keys, in
 * 16 KiB). */
static void test_too_large(void **state)
{
    nq_gpu gpu = open_small(16u << 10);
    nq_jg_split *small, big;
    nq_join_plan *plan;
    uint64_t first, end, counts[2] = {0, 0};
    nq_join_batch batch = {&big, 1};
    (void)state;
    assert_int_equal(nq_join_plan_build(&plan, 24), NQ_OK);
    assert_int_equal(nq_join_plan_unit_splits(plan, 0, &first, &end), NQ_OK);
    do
        assert_int_equal(nq_join_plan_gpu_split(plan, first++, &big), NQ_OK);
    while (!big.weight && first < end);
    assert_true(big.weight != 0);
    nq_join_plan_free(plan);
    assert_int_equal(nq_gpu_join_splits(&gpu, &batch, counts, NULL), NQ_EDEVICEMEM);
    assert_true(counted_splits(8, &small) > 1);
    small[1] = big;
    batch.splits = small;
    batch.nsplits = 2;
    assert_int_equal(nq_gpu_join_splits(&gpu, &batch, counts, NULL), NQ_EDEVICEMEM);
    gpu.backend->close(gpu.state);
    free(small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sub_splits),
        cmocka_unit_test(test_piece_ways),
        cmocka_unit_test(test_miscounting),
        cmocka_unit_test(test_card_share),
        cmocka_unit_test(test_too_large),
    };
    return GPU_TEST_RUN(tests, gpu_test_open, gpu_test_close);
}
