/*
 * emu_threads.h - the words of CUDA that the kernels use, given host
 * meanings for emu_kernels.cc (its only includer, which says how): the
 * threads of a block as coroutines taking turns on one host thread,
 * atomicAdd and atomicOr (with NQ_EMU_DROP's dropped adds), and the warp
 * calls __syncwarp, __shfl_sync, __shfl_xor_sync and __ballot_sync. Test
 * helper, never installed.
 */
#ifndef NQ_EMU_THREADS_H
#define NQ_EMU_THREADS_H

#include <atomic>
#include <climits>
#include <memory>
#include <mutex>
#include <cstdio>
#include <vector>

#include <ucontext.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "emu.h"

#if defined(__SANITIZE_ADDRESS__)
#define EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_ASAN 1
#endif
#endif
#ifdef EMU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace {
struct emu_dim3 {
    unsigned x, y, z;
};
thread_local emu_dim3 threadIdx, blockIdx, blockDim, gridDim;

/* A GPU that miscounts: NQ_EMU_DROP=KERNEL:K, the K-th atomicAdd (from 1)
 * of kernel KERNEL's launches in this process adds nothing (KERNEL:K+,
 * every K-th: a fault that no run of many adds escapes); a test may
 * set another plan (nq_emu_drop) between launches. A thread's fetch of
 * its next task (an add on the launch's `next`) is neither counted nor
 * dropped: it is where the block's threads take turns. */
struct drop_plan {
    char kernel[64];
    long long k;
    bool every; /* NQ_EMU_DROP=KERNEL:K+ : every K-th add, not the K-th only */
};

void set_plan(drop_plan *d, const char *kernel, size_t len, long long k)
{
    std::memset(d->kernel, 0, sizeof d->kernel);
    d->k = 0;
    d->every = false;
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
        d.every = colon && std::strchr(colon, '+') != nullptr;
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
 * dropped ones too, fetches not: in this process, and in its latest
 * launch. */
constexpr int MAX_KERNELS = 16;
std::atomic<unsigned long long> adds_made[MAX_KERNELS], adds_latest[MAX_KERNELS];
thread_local int running = -1;

/* Coroutines: a fresh one starts on its own stack with makecontext and
 * setcontext; after that the host thread leaves one stack for another
 * with the compiler's own setjmp and longjmp (registers only: no system
 * call, where getcontext and setcontext make two a switch, and no
 * sanitizer's hook, which clears the shadow of the whole stack a jump),
 * told to AddressSanitizer where it has one (its fiber calls), so that
 * it follows the stacks; a coroutine that ends goes home the same way. */
struct emu_stack {
    const void *bottom;
    size_t size;
};
struct emu_ctx {
    void *at[5];      /* where it left off (__builtin_setjmp) */
    ucontext_t start; /* a fresh one's first step */
    bool fresh;
    emu_stack stack;  /* its own; none for a home: home_stack */
};
thread_local emu_stack home_stack; /* the host thread's own, from the first switch */

/* Goes on where `to` left off, or starts it; never returns. Neither it
 * nor its callers say so, and they call it through a pointer the
 * compiler cannot see through: an instrumented call of a function that
 * does not return has AddressSanitizer clear the shadow of the whole
 * stack first (two system calls and a memset), which a jump every few
 * steps of a walk needs not. */
__attribute__((noinline, no_sanitize_address)) void jump_there(emu_ctx *to)
{
    if (to->fresh) {
        to->fresh = false;
        setcontext(&to->start);
    }
    __builtin_longjmp(to->at, 1);
}

void (*volatile const jump_to)(emu_ctx *) = jump_there;

/* Leaves `from` for `to`; returns when something switches back to
 * `from`. */
__attribute__((noinline)) void switch_context(emu_ctx *from, emu_ctx *to)
{
#ifdef EMU_ASAN
    const emu_stack there = to->stack.bottom ? to->stack : home_stack;
    void *fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, there.bottom, there.size);
#endif
    if (__builtin_setjmp(from->at) == 0)
        jump_to(to);
#ifdef EMU_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

/* A coroutine's first step, on its own stack. */
void coroutine_starts()
{
#ifdef EMU_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &home_stack.bottom, &home_stack.size);
#endif
}

/* A coroutine's last step: home, for good (never returns). */
void coroutine_ends(emu_ctx *home)
{
#ifdef EMU_ASAN
    __sanitizer_start_switch_fiber(nullptr, home_stack.bottom, home_stack.size);
#endif
    jump_to(home);
}

/* A fresh coroutine in `c` that runs `entry` on `stack`. */
void coroutine_make(emu_ctx *c, char *stack, size_t size, void (*entry)())
{
    getcontext(&c->start);
    c->start.uc_stack.ss_sp = stack;
    c->start.uc_stack.ss_size = size;
    c->start.uc_link = nullptr; /* it ends by coroutine_ends */
    makecontext(&c->start, entry, 0);
    c->fresh = true;
    c->stack = {stack, size};
}

/* A block of a kernel whose threads work alone: each thread a coroutine,
 * the block's threads taking turns at each fetch of a
 * task or job (an atomic add on the launch's `next`), as a GPU's threads
 * fetch side by side. Every thread of the block then takes work, and
 * what a thread keeps in shared memory must stay its own while the
 * others run. */
constexpr size_t THREAD_STACK = 256u << 10;
struct emu_block {
    emu_ctx home;
    std::vector<emu_ctx> thread;
    std::vector<char> gone;
    unsigned now;
};
thread_local emu_block *block_now; /* null: no such block runs */
thread_local const unsigned long long *next_now; /* the running launch's `next` */

/* The block's next thread's turn, where a block of threads that work
 * alone runs. */
void thread_turn()
{
    if (block_now)
        switch_context(&block_now->thread[block_now->now], &block_now->home);
}

unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    if (p == next_now) { /* a fetch: the next thread's turn */
        const unsigned long long was = __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
        thread_turn();
        return was;
    }
    adds_made[running].fetch_add(1, std::memory_order_relaxed);
    adds_latest[running].fetch_add(1, std::memory_order_relaxed);
    if (drop_here && adds_left.fetch_sub(1) == 1) {
        if (dropping().every) /* armed again for the K-th add from here */
            adds_left.fetch_add(dropping().k);
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
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
    emu_ctx home, lane[LANES];
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
    switch_context(&w->lane[lane_now], &w->home);
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

#endif /* NQ_EMU_THREADS_H */
