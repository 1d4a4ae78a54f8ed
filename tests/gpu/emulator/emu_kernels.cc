/*
 * emu_kernels.cc - the CUDA kernels of src/device/cuda, compiled for the
 * host as C++ from their own text, for the emulated driver. Test helper.
 *
 * The few words of CUDA the kernels use are given host meanings before
 * the kernel file is included: threadIdx, blockIdx, blockDim and gridDim
 * are the running thread's (set by nq_emu_run_block), a block's shared
 * memory is a buffer of the host thread that runs the block, and
 * atomicAdd and atomicOr are atomic (NQ_EMU_DROP=KERNEL:K drops the K-th
 * add of a kernel's launches: a GPU that miscounts). The threads of a
 * block run one after the other, so such a kernel must not wait for its
 * block's other threads (each fetches tasks or jobs until none is left);
 * a kernel whose lanes work together a warp at a time (kernels[].warps)
 * has each warp's lanes take turns instead, from one warp call
 * (__syncwarp, __shfl_sync, __ballot_sync) to the next. What a block leaves past
 * the shared memory its launch asked for is looked at after it: a write
 * there is a fault (on a GPU, an out-of-range access or another block's
 * memory).
 */
#include <atomic>
#include <climits>
#include <cstdio>
#include <vector>

#include <ucontext.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "emu.h"

namespace {
struct emu_dim3 {
    unsigned x, y, z;
};
thread_local emu_dim3 threadIdx, blockIdx, blockDim, gridDim;

/* A GPU that miscounts: NQ_EMU_DROP=KERNEL:K, the K-th atomicAdd (from 1)
 * of kernel KERNEL's launches in this process adds nothing; a test may
 * set another plan (nq_emu_drop) between launches. */
struct drop_plan {
    char kernel[64];
    long long k;
};

void set_plan(drop_plan *d, const char *kernel, size_t len, long long k)
{
    std::memset(d->kernel, 0, sizeof d->kernel);
    d->k = 0;
    if (kernel && len < sizeof d->kernel) {
        std::memcpy(d->kernel, kernel, len);
        d->k = k;
    }
}

drop_plan &dropping()
{
    static drop_plan plan = [] {
        drop_plan d;
        const char *e = std::getenv("NQ_EMU_DROP");
        const char *colon = e ? std::strchr(e, ':') : nullptr;
        set_plan(&d, e, colon ? (size_t)(colon - e) : sizeof d.kernel,
                 colon ? std::atoll(colon + 1) : 0);
        return d;
    }();
    return plan;
}

/* The adds left before the one dropped; UNARMED until the kernel's first
 * launch (once a plan, whatever follows the drop). */
constexpr long long UNARMED = LLONG_MIN;
std::atomic<long long> adds_left{UNARMED};
thread_local bool drop_here;

/* The atomic adds made by each kernel (by its place in kernels[] below),
 * dropped ones too: in this process, and in its latest launch. */
constexpr int MAX_KERNELS = 16;
std::atomic<unsigned long long> adds_made[MAX_KERNELS], adds_latest[MAX_KERNELS];
thread_local int running = -1;

unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    adds_made[running].fetch_add(1, std::memory_order_relaxed);
    adds_latest[running].fetch_add(1, std::memory_order_relaxed);
    if (drop_here && adds_left.fetch_sub(1) == 1)
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

unsigned long long atomicOr(unsigned long long *p, unsigned long long v)
{
    return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
}

/* A warp of a kernel whose lanes work together (kernels[].warps below):
 * its 32 lanes take turns on the host thread that runs the block, each
 * on a stack of its own (ucontext), from one warp call (__syncwarp,
 * __shfl_sync, __ballot_sync) to the next: every lane makes the same
 * calls in the same order, as a GPU's full-mask calls need, and a round
 * ends when all 32 have made their next one. */
constexpr unsigned LANES = 32u;
constexpr size_t LANE_STACK = 256u << 10;
enum lane_state { LANE_READY, LANE_WAITING, LANE_GONE };
struct emu_warp {
    ucontext_t home, lane[LANES];
    lane_state state[LANES];
    unsigned calls[LANES];             /* warp calls each lane made */
    unsigned long long slot[2][LANES]; /* by the round's parity */
    unsigned round;
};
thread_local emu_warp *warp_now; /* null: the block's threads run one by one */
thread_local unsigned lane_now;

[[noreturn]] void warp_fault(const char *what)
{
    std::fprintf(stderr, "nq-emu: %s\n", what);
    std::abort();
}

emu_warp *warp_here()
{
    if (!warp_now)
        warp_fault("a warp's call in a kernel whose threads run one by one");
    return warp_now;
}

/* The lane is at its warp call: the next lane's turn. */
void warp_meet()
{
    emu_warp *w = warp_here();
    w->state[lane_now] = LANE_WAITING;
    w->calls[lane_now]++;
    swapcontext(&w->lane[lane_now], &w->home);
}

void full_mask(unsigned mask)
{
    if (mask != 0xffffffffu)
        warp_fault("a warp's call with other than the full mask");
}

void __syncwarp(unsigned mask = 0xffffffffu)
{
    full_mask(mask);
    warp_meet();
}

/* Each lane's value in its slot of this round, then what lane
 * from(lane) put there. */
template <typename F> unsigned long long warp_swap(unsigned long long v, F from)
{
    emu_warp *w = warp_here();
    const unsigned parity = w->round & 1u;
    w->slot[parity][lane_now] = v;
    warp_meet();
    return w->slot[parity][from(lane_now) & (LANES - 1u)];
}

unsigned long long __shfl_sync(unsigned mask, unsigned long long v, int src)
{
    full_mask(mask);
    return warp_swap(v, [src](unsigned) { return (unsigned)src; });
}

unsigned long long __shfl_xor_sync(unsigned mask, unsigned long long v, int x)
{
    full_mask(mask);
    return warp_swap(v, [x](unsigned lane) { return lane ^ (unsigned)x; });
}

unsigned __ballot_sync(unsigned mask, int pred)
{
    full_mask(mask);
    emu_warp *w = warp_here();
    const unsigned parity = w->round & 1u;
    unsigned bits = 0;
    w->slot[parity][lane_now] = pred != 0;
    warp_meet();
    for (unsigned l = 0; l < LANES; l++)
        bits |= (unsigned)w->slot[parity][l] << l;
    return bits;
}
} // namespace

#define __global__
#define __shared__ thread_local
#define __restrict__ __restrict

/* the block's shared memory, under each name that a kernel declares it
 * by (`extern __shared__`) */
extern "C" {
thread_local unsigned char stacks[NQ_EMU_SHARED_BYTES];
}

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
    kernels[lanes_start.kernel].run(lanes_start.params);
    warp_now->state[lane_now] = LANE_GONE; /* then back home (uc_link) */
}

/* The block's threads (`threads` a multiple of 32), warp after warp, its
 * lanes taking turns from one warp call to the next, sharing `shared`. */
static void run_lanes(int k, unsigned threads, unsigned char *shared, void *const *params)
{
    static thread_local std::vector<char> stacks_of_lanes(LANES * LANE_STACK);
    emu_warp w;
    if (threads % LANES)
        warp_fault("a block of a kernel whose lanes work together is not whole warps");
    block_words = reinterpret_cast<uint32_t (*)[]>(shared);
    lanes_start.kernel = k;
    lanes_start.params = params;
    for (unsigned base = 0; base < threads; base += LANES) {
        lanes_start.base = base;
        w.round = 0;
        for (unsigned l = 0; l < LANES; l++) {
            getcontext(&w.lane[l]);
            w.lane[l].uc_stack.ss_sp = stacks_of_lanes.data() + l * LANE_STACK;
            w.lane[l].uc_stack.ss_size = LANE_STACK;
            w.lane[l].uc_link = &w.home;
            makecontext(&w.lane[l], lane_entry, 0);
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
                swapcontext(&w.home, &w.lane[l]);
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
    blockIdx = {block, 0, 0};
    gridDim = {grid, 1, 1};
    blockDim = {threads, 1, 1};
    std::memset(mem, SHARED_FILL, NQ_EMU_SHARED_BYTES);
    if (kernels[k].warps)
        run_lanes(k, threads, mem, params);
    else
        for (unsigned t = 0; t < threads; t++) {
            threadIdx = {t, 0, 0};
            kernels[k].run(params);
        }
    for (unsigned i = shared; i < NQ_EMU_SHARED_BYTES; i++)
        if (mem[i] != SHARED_FILL)
            return -2;
    return 0;
}
