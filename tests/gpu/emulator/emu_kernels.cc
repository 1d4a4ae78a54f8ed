/*
 * emu_kernels.cc - the CUDA kernels of src/device/cuda, compiled for the
 * host as C++ from their own text, for the emulated driver. Test helper.
 *
 * The few words of CUDA the kernels use are given host meanings before
 * the kernel file is included: threadIdx, blockIdx, blockDim and gridDim
 * are the running thread's (set by nq_emu_run_block), a block's shared
 * memory is a buffer of the host thread that runs the block, and
 * atomicAdd and atomicOr are atomic (NQ_EMU_DROP=KERNEL:K drops the K-th
 * add of a kernel's launches, its fetches aside: a GPU that miscounts). The threads of a
 * block take turns on the host thread, each on a stack of its own, from
 * one fetch of a task or job (an atomic add on the launch's `next`) to
 * the next, so every thread of a block takes work while the others hold
 * theirs in shared memory; such a kernel must not wait for its block's
 * other threads. A kernel whose lanes work together a warp at a time
 * (kernels[].warps) has each warp's lanes take turns instead, from one
 * warp call (__syncwarp, __shfl_sync, __ballot_sync) to the next, warp
 * after warp, a block's first warp another each time. What a block leaves past
 * the shared memory its launch asked for is looked at after it: a write
 * there is a fault (on a GPU, an out-of-range access or another block's
 * memory).
 */
#include "emu_threads.h"

#define __global__
#define __shared__ thread_local
#define __restrict__ __restrict

/* the block's shared memory, under each name that a kernel declares it
 * by (`extern __shared__`) */
extern "C" {
thread_local unsigned char stacks[NQ_EMU_SHARED_BYTES];
}

/* The kernels look at the stop flag every so many steps or keys: here
 * every 5, and each time the block's next thread takes its turn first,
 * so that the threads' walks interleave within their tasks and two
 * threads whose shared memory overlaps spoil each other's counts. */
#define NQ_SYMW_POLL_STEPS (thread_turn(), 5u)
#define NQ_JOIN_POLL (thread_turn(), 5u)

#define join_warp_tables (*block_words)
#include "device/cuda/cuda_sym.cu"
#include "device/cuda/cuda_join.cu"
#undef join_warp_tables

extern "C" {
thread_local nq_symw_frame frames[NQ_EMU_SHARED_BYTES / sizeof(nq_symw_frame)];
thread_local nq_jg_frame join_frames[NQ_EMU_SHARED_BYTES / sizeof(nq_jg_frame)];
thread_local uint32_t join_tables[NQ_EMU_SHARED_BYTES / sizeof(uint32_t)];
/* for a kernel whose lanes work together: the memory of the host thread
 * that runs the block, which all of its lanes share */
thread_local uint32_t (*block_words)[];
}

namespace {
/* A launch parameter: the value that params[i] points to. */
template <typename T> T param(void *const *params, int i)
{
    T v;
    std::memcpy(&v, params[i], sizeof v);
    return v;
}

template <typename T> T *device_pointer(void *const *params, int i)
{
    return reinterpret_cast<T *>(static_cast<uintptr_t>(param<unsigned long long>(params, i)));
}
} // namespace

/* What a block finds in shared memory: not zero. */
#define SHARED_FILL 0xa5

/* Each kernel called with its launch's parameters. */
static void run_sym_walk(void *const *p)
{
    nq_sym_walk_kernel(device_pointer<const uint32_t>(p, 0), device_pointer<const nq_symw_task>(p, 1),
                       param<unsigned long long>(p, 2), device_pointer<unsigned long long>(p, 3),
                       device_pointer<unsigned long long>(p, 4),
                       device_pointer<const volatile int>(p, 5));
}

static void run_sym_step(void *const *p)
{
    nq_sym_step_kernel(device_pointer<const uint32_t>(p, 0), device_pointer<const nq_symw_task>(p, 1),
                       param<unsigned long long>(p, 2), device_pointer<unsigned long long>(p, 3),
                       device_pointer<unsigned long long>(p, 4),
                       device_pointer<const volatile int>(p, 5));
}

static void run_join_list(void *const *p)
{
    nq_join_list_kernel(device_pointer<const nq_jg_split>(p, 0), param<unsigned long long>(p, 1),
                        param<unsigned>(p, 2), device_pointer<const nq_join_list>(p, 3),
                        device_pointer<unsigned long long>(p, 4), device_pointer<uint64_t>(p, 5),
                        param<unsigned long long>(p, 6), device_pointer<unsigned long long>(p, 7),
                        device_pointer<const volatile int>(p, 8));
}

static void run_join_lay(void *const *p)
{
    nq_join_lay_kernel(device_pointer<const nq_join_list>(p, 0),
                       device_pointer<const nq_join_layout>(p, 1), param<unsigned long long>(p, 2),
                       device_pointer<unsigned long long>(p, 3), device_pointer<uint64_t>(p, 4),
                       device_pointer<nq_join_job>(p, 5), device_pointer<unsigned long long>(p, 6),
                       device_pointer<unsigned long long>(p, 7),
                       device_pointer<const volatile int>(p, 8));
}

static void run_join_sort(void *const *p)
{
    nq_join_sort_kernel(device_pointer<const nq_join_list>(p, 0), param<unsigned long long>(p, 1),
                        device_pointer<const unsigned long long>(p, 2),
                        device_pointer<const uint64_t>(p, 3),
                        device_pointer<unsigned long long>(p, 4), device_pointer<uint64_t>(p, 5),
                        param<unsigned long long>(p, 6), device_pointer<unsigned long long>(p, 7),
                        device_pointer<const volatile int>(p, 8));
}

static void run_join_check(void *const *p)
{
    nq_join_check_kernel(device_pointer<const nq_join_list>(p, 0),
                         device_pointer<const nq_join_layout>(p, 1),
                         param<unsigned long long>(p, 2),
                         device_pointer<const unsigned long long>(p, 3),
                         device_pointer<const uint64_t>(p, 4),
                         device_pointer<const nq_join_job>(p, 5),
                         device_pointer<unsigned long long>(p, 6),
                         device_pointer<unsigned long long>(p, 7),
                         device_pointer<const volatile int>(p, 8));
}

static void run_join_pairs(void *const *p)
{
    nq_join_pairs_kernel(device_pointer<const nq_jg_split>(p, 0),
                         device_pointer<const nq_join_job>(p, 1), param<unsigned long long>(p, 2),
                         device_pointer<const uint64_t>(p, 3), device_pointer<const uint64_t>(p, 4),
                         device_pointer<unsigned long long>(p, 5),
                         device_pointer<unsigned long long>(p, 6),
                         device_pointer<const volatile int>(p, 7));
}

/* The shared memory of each kernel, by the name its text declares it by,
 * on the calling thread. */
static unsigned char *stacks_now() { return stacks; }
static unsigned char *frames_now() { return reinterpret_cast<unsigned char *>(frames); }
static unsigned char *join_frames_now() { return reinterpret_cast<unsigned char *>(join_frames); }
static unsigned char *join_tables_now() { return reinterpret_cast<unsigned char *>(join_tables); }

static void run_join_pairs_warp(void *const *p)
{
    nq_join_pairs_warp_kernel(device_pointer<const nq_jg_split>(p, 0),
                              device_pointer<const nq_join_job>(p, 1),
                              param<unsigned long long>(p, 2), device_pointer<const uint64_t>(p, 3),
                              device_pointer<const uint64_t>(p, 4),
                              device_pointer<unsigned long long>(p, 5), param<unsigned>(p, 6),
                              device_pointer<unsigned long long>(p, 7),
                              device_pointer<const volatile int>(p, 8));
}

/* Each kernel: its name, its runner, its shared memory, and its
 * parameters: how many, which are values rather than device pointers,
 * which values are 4 bytes wide, and which pointers may be null; and
 * whether its threads work together a warp at a time (its lanes then run
 * at once, sharing the block's memory: stacks). */
static const struct {
    const char *name;
    void (*run)(void *const *);
    unsigned char *(*shared)();
    unsigned params, values, narrow, nullable;
    bool warps;
} kernels[] = {
    {"nq_sym_walk_kernel", run_sym_walk, stacks_now, 6, 1u << 2, 0, 0, false},
    {"nq_sym_step_kernel", run_sym_step, frames_now, 6, 1u << 2, 0, 0, false},
    {"nq_join_list_kernel", run_join_list, join_frames_now, 9, 1u << 1 | 1u << 2 | 1u << 6,
     1u << 2, 1u << 5, false},
    {"nq_join_lay_kernel", run_join_lay, stacks_now, 9, 1u << 2, 0, 0, false},
    {"nq_join_sort_kernel", run_join_sort, stacks_now, 9, 1u << 1 | 1u << 6, 0, 0, false},
    {"nq_join_check_kernel", run_join_check, stacks_now, 9, 1u << 2, 0, 0, false},
    {"nq_join_pairs_kernel", run_join_pairs, join_tables_now, 8, 1u << 2, 0, 0, false},
    {"nq_join_pairs_warp_kernel", run_join_pairs_warp, stacks_now, 9, 1u << 2 | 1u << 6,
     1u << 6, 0, true},
};

static int find_kernel(const char *name)
{
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        if (std::strcmp(name, kernels[k].name) == 0)
            return (int)k;
    return -1;
}

extern "C" int nq_emu_has_kernel(const char *name)
{
    return find_kernel(name) >= 0;
}

static_assert(sizeof kernels / sizeof kernels[0] <= MAX_KERNELS, "adds_made[] too short");

extern "C" void nq_emu_launch_starts(const char *name)
{
    const int k = find_kernel(name);
    if (k >= 0)
        adds_latest[k] = 0;
}

extern "C" __attribute__((visibility("default"))) unsigned long long
nq_emu_adds(const char *kernel, int latest)
{
    const int k = kernel ? find_kernel(kernel) : -1;
    return k < 0 ? 0 : latest ? adds_latest[k].load() : adds_made[k].load();
}

extern "C" __attribute__((visibility("default"))) void nq_emu_drop(const char *kernel,
                                                                  long long k)
{
    set_plan(&dropping(), kernel, kernel ? std::strlen(kernel) : 0, k);
    adds_left = UNARMED; /* armed by the kernel's next launch */
}

extern "C" int nq_emu_kernel_params(const char *name, unsigned *count, unsigned *values,
                                    unsigned *narrow, unsigned *nullable)
{
    const int k = find_kernel(name);
    if (k < 0)
        return -1;
    *count = kernels[k].params;
    *values = kernels[k].values;
    *narrow = kernels[k].narrow;
    *nullable = kernels[k].nullable;
    return 0;
}

/* What the lanes of the warp running now start from. */
thread_local struct {
    int kernel;
    unsigned base; /* the warp's first thread */
    void *const *params;
} lanes_start;

static void lane_entry()
{
    coroutine_starts();
    kernels[lanes_start.kernel].run(lanes_start.params);
    warp_now->state[lane_now] = LANE_GONE;
    coroutine_ends(&warp_now->home);
}

static void thread_entry()
{
    coroutine_starts();
    kernels[lanes_start.kernel].run(lanes_start.params);
    block_now->gone[block_now->now] = 1;
    coroutine_ends(&block_now->home);
}

/* Stacks for `count` threads or lanes of the calling host thread, each
 * `size` bytes (left untouched until used). */
static char *thread_stacks(size_t count, size_t size)
{
    /* A launch starts host threads of its own, and a fresh area for each
     * (tens of MiB, its pages touched anew) cost more than the kernels
     * at the tests' sizes: a host thread that ends leaves its area here
     * for the next launch's. */
    struct area {
        std::unique_ptr<char[]> mem;
        size_t size = 0;
    };
    static std::mutex lock;
    static std::vector<area> pool;
    struct held_area {
        area a;
        ~held_area()
        {
            if (a.mem) {
                std::lock_guard<std::mutex> hold(lock);
                pool.push_back(std::move(a));
            }
        }
    };
    static thread_local held_area held;
    const size_t want = count * size;
    if (held.a.size < want) {
        std::lock_guard<std::mutex> hold(lock);
        size_t i = 0;
        while (i < pool.size() && pool[i].size < want)
            i++;
        if (held.a.mem)
            pool.push_back(std::move(held.a));
        if (i < pool.size()) {
            held.a = std::move(pool[i]);
            pool.erase(pool.begin() + (std::ptrdiff_t)i);
        } else {
            held.a.mem.reset(new char[want]);
            held.a.size = want;
        }
    }
    return held.a.mem.get();
}

/* The block's threads, each on a stack of its own, taking turns at their
 * fetches (emu_block) until every one has left the kernel. */
static void run_threads(int k, unsigned threads, void *const *params)
{
    static thread_local emu_block b;
    b.home.fresh = false; /* it is where the block's host thread is */
    b.home.stack = {nullptr, 0};
    char *stacks_of_threads = thread_stacks(threads, THREAD_STACK);
    b.thread.resize(threads);
    b.gone.assign(threads, 0);
    for (unsigned t = 0; t < threads; t++)
        coroutine_make(&b.thread[t], stacks_of_threads + t * THREAD_STACK, THREAD_STACK,
                       thread_entry);
    lanes_start.kernel = k;
    lanes_start.params = params;
    block_now = &b;
    for (unsigned live = threads; live;) {
        live = 0;
        for (unsigned t = 0; t < threads; t++) {
            if (b.gone[t])
                continue;
            b.now = t;
            threadIdx = {t, 0, 0};
            switch_context(&b.home, &b.thread[t]);
            live += !b.gone[t];
        }
    }
    block_now = nullptr;
}

/* The block's threads (`threads` a multiple of 32), warp after warp, its
 * lanes taking turns from one warp call to the next, sharing `shared`. */
static void run_lanes(int k, unsigned threads, unsigned char *shared, void *const *params)
{
    static thread_local unsigned turn; /* which warp goes first */
    char *stacks_of_lanes = thread_stacks(LANES, LANE_STACK);
    const unsigned warps = threads / LANES;
    emu_warp w;
    w.home.fresh = false; /* it is where the block's host thread is */
    w.home.stack = {nullptr, 0};
    if (threads % LANES)
        warp_fault("a block of a kernel whose lanes work together is not whole warps");
    block_words = reinterpret_cast<uint32_t (*)[]>(shared);
    lanes_start.kernel = k;
    lanes_start.params = params;
    /* the warps one after the other, the first the one after last
     * block's first, so that each warp of a block takes work in turn
     * (the first warp fetches every job it finds) */
    turn++;
    for (unsigned i = 0; i < warps; i++) {
        const unsigned base = (turn + i) % warps * LANES;
        lanes_start.base = base;
        w.round = 0;
        for (unsigned l = 0; l < LANES; l++) {
            coroutine_make(&w.lane[l], stacks_of_lanes + l * LANE_STACK, LANE_STACK, lane_entry);
            w.state[l] = LANE_READY;
            w.calls[l] = 0;
        }
        warp_now = &w;
        for (;;) {
            unsigned gone = 0;
            for (unsigned l = 0; l < LANES; l++) {
                if (w.state[l] == LANE_GONE)
                    continue;
                lane_now = l;
                threadIdx = {base + l, 0, 0};
                w.state[l] = LANE_READY;
                switch_context(&w.home, &w.lane[l]);
            }
            for (unsigned l = 0; l < LANES; l++)
                gone += w.state[l] == LANE_GONE;
            if (gone == LANES)
                break;
            if (gone)
                warp_fault("a lane has left the kernel while the rest of its warp waits for it");
            for (unsigned l = 1; l < LANES; l++)
                if (w.calls[l] != w.calls[0])
                    warp_fault("the lanes of a warp are at different warp calls");
            w.round++; /* every lane made its call: the round is over */
        }
        warp_now = nullptr;
    }
}

extern "C" int nq_emu_run_block(const char *name, unsigned block, unsigned grid,
                                unsigned threads, unsigned shared, void *const *params)
{
    const int k = find_kernel(name);
    if (k < 0)
        return -1;
    unsigned char *mem = kernels[k].shared();
    const drop_plan &d = dropping();
    drop_here = d.k > 0 && std::strcmp(d.kernel, name) == 0;
    if (drop_here) {
        long long unset = UNARMED;
        adds_left.compare_exchange_strong(unset, d.k);
    }
    running = k;
    /* every kernel's last but one parameter: where its threads fetch */
    next_now = device_pointer<unsigned long long>(params, (int)kernels[k].params - 2);
    blockIdx = {block, 0, 0};
    gridDim = {grid, 1, 1};
    blockDim = {threads, 1, 1};
    std::memset(mem, SHARED_FILL, NQ_EMU_SHARED_BYTES);
    if (kernels[k].warps)
        run_lanes(k, threads, mem, params);
    else
        run_threads(k, threads, params);
    for (unsigned i = shared; i < NQ_EMU_SHARED_BYTES; i++)
        if (mem[i] != SHARED_FILL)
            return -2;
    return 0;
}
