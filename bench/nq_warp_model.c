/*
 * nq_warp_model - what the GPU's two walks of the symmetry method cost a
 * warp, without a GPU: the whole count of n cut into tasks as a count cuts
 * them (sym_gpu.c, batches of B units, for a GPU of T threads), walked by
 * warps of 32 simulated lanes that fetch tasks from one shared counter, as
 * the kernels of src/device/cuda/cuda_sym.cu do.
 *
 * A warp runs one instruction stream for its 32 threads: in each pass of
 * a kernel's loop it issues every path that any of its threads takes,
 * the others idle meanwhile. So a pass costs the sum of the paths taken,
 * each by its instructions:
 *
 * - step walk (nq_symw_step): one node a pass, by one path (its stores are
 *   predicated); plus the fetch of a new task when any thread's task is
 *   over.
 * - stack walk (nq_symw_walk): a pass goes down (one node), goes up, or
 *   tests the last row's candidates in a loop of its own (then goes up);
 *   the loop runs as many times as the most candidates in the warp.
 *
 * Printed for each walk: nodes (children made: the walk's work), passes,
 * lane efficiency (lanes at work / 32 per path a warp issues), issue
 * slots a node (32 x warp instructions / nodes: what a node costs the
 * warp's threads together, the idle ones included), by the path sizes below
 * (PTX instructions of each path, moves not counted, from
 * `nvcc -ptx -O3 -arch=sm_90` of cuda_sym.cu, CUDA 13.0; the machine code
 * differs a little). Then, for the fastest published GPU counter's method
 * (a plain walk with the mirror symmetry only, its first ROWS rows laid
 * out on the host), the nodes its GPU walks, counted here by a plain
 * depth-first walk: the ratio of nodes is the symmetry's and the
 * constellations' saving, whatever the kernel; and the ratio of issue
 * slots, at PLAIN_LOOP instructions a node (its loop has no branch, so its
 * lanes are all at work but in the tail).
 *
 * A model, not a timing: it counts issue slots, not latency, memory or
 * occupancy, and the shared counter hands tasks round-robin to W warps
 * (default 64) rather than by a GPU's timing. bench/gpu.sh times the real
 * kernels; this says what to expect and why.
 *
 * usage: nq_warp_model N [B [T [W [ROWS]]]]
 *        (B default 65536 units a batch, T 118272 threads: an H100 at 7
 *        blocks of 128 an SM, W 64 warps, ROWS 6; ROWS 0: no plain walk)
 * Exit status 1 when a walk's total is not the published one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "methods/sym/sym_gpu.h"

/* PTX instructions of each path (see above). The step walk: */
#define STEP_MAIN 43u       /* a step, with the loop's tests */
#define STEP_FETCH 40u      /* a task's end and the next one's start */
/* The stack walk: */
#define STACK_TOP 8u        /* the pass's first tests */
#define STACK_DOWN 32u      /* going down a level */
#define STACK_LAST 5u       /* the last row's loop: entry */
#define STACK_LAST_EACH 24u /* and each candidate */
#define STACK_UP 34u        /* going up a level, with the stop's countdown */
#define STACK_FETCH 45u     /* a task's end and the next one's start */
/* The loop of the published counter's kernel, a node a pass with no
 * branch but its loop's (PTX instructions, its inline assembly) */
#define PLAIN_LOOP 29u

#define LANES 32u

typedef struct lane_stack { /* a thread of the stack walk, a pass at a time */
    const uint32_t *rows;
    unsigned level, last, d;
    uint32_t cols, f, al;
    uint64_t ld, rd;
    unsigned char stack[NQ_SYMW_MAX_LEVELS];
} lane_stack;

typedef struct lane {
    int busy;
    uint32_t board;
    nq_symw_cursor step;
    lane_stack st;
    uint64_t count;
} lane;

typedef struct tally {
    uint64_t nodes, passes, cost, lane_paths, warp_paths;
    uint64_t total;
} tally;

/* The stack walk's start: nq_symw_walk's first lines. @return 0 when the
 * task is over at once (a node of the last level: counted). */
static int stack_start(lane_stack *s, const uint32_t *rows, unsigned levels,
                       const nq_symw_task *t, uint64_t *count)
{
    s->rows = rows;
    s->level = s->d = t->board_level & 0xffu;
    s->last = levels - 1;
    s->cols = t->cols;
    s->ld = t->ld;
    s->rd = (uint64_t)t->rd << 32;
    s->al = nq_symw_allowed(rows[s->last]);
    s->f = nq_symw_allowed(rows[s->d]) & ~(t->cols | t->ld | t->rd);
    if (s->d == s->last) {
        *count += nq_symw_popcount(s->f);
        return 0;
    }
    return 1;
}

enum { PATH_DOWN = 1, PATH_LAST = 2, PATH_UP = 4 };

/* One pass of nq_symw_walk's loop, as it runs there; *paths gets the
 * paths it took, *trips the last row's loop count, *nodes the children
 * it made. @return 0 when the task is over. */
static int stack_pass(lane_stack *s, uint64_t *count, unsigned *paths, unsigned *trips,
                      uint64_t *nodes)
{
    *paths = 0;
    *trips = 0;
    if (s->d + 1 == s->last) {
        const unsigned sh = nq_symw_shift(s->rows[s->d]);
        *paths |= PATH_LAST;
        while (s->f) {
            const uint32_t bit = s->f & (0u - s->f);
            const uint32_t l = (uint32_t)((s->ld | bit) << sh);
            const uint32_t r = (uint32_t)((s->rd | (uint64_t)bit << 32) >> sh >> 32);
            s->f ^= bit;
            *count += (s->al & ~(s->cols | bit | l | r)) != 0;
            (*trips)++;
            (*nodes)++;
        }
    } else if (s->f) {
        const uint32_t bit = s->f & (0u - s->f);
        const unsigned sh = nq_symw_shift(s->rows[s->d]);
        s->stack[s->d] = (unsigned char)nq_symw_ctz(bit);
        s->cols |= bit;
        s->ld = (s->ld | bit) << sh;
        s->rd = (s->rd | (uint64_t)bit << 32) >> sh;
        s->d++;
        s->f = nq_symw_allowed(s->rows[s->d]) &
               ~(s->cols | (uint32_t)s->ld | (uint32_t)(s->rd >> 32));
        *paths |= PATH_DOWN;
        (*nodes)++;
        return 1;
    }
    if (s->d == s->level)
        return 0;
    s->d--;
    {
        const uint32_t bit = 1u << s->stack[s->d];
        const unsigned sh = nq_symw_shift(s->rows[s->d]);
        s->cols ^= bit;
        s->ld = (s->ld >> sh) ^ bit;
        s->rd = (s->rd << sh) ^ (uint64_t)bit << 32;
        s->f = nq_symw_allowed(s->rows[s->d]) &
               ~(s->cols | (uint32_t)s->ld | (uint32_t)(s->rd >> 32)) & ~((bit << 1) - 1u);
    }
    *paths |= PATH_UP;
    return 1;
}

/* Walks one batch with W warps of 32 lanes by `walk` (0: step, 1:
 * stack); adds each board's count into counts[board], the tally into
 * t[walk]. */
static void simulate(const nq_symw_batch *work, unsigned warps, int walk, tally t[2],
                     uint64_t *counts)
{
    {
        lane *lanes = calloc((size_t)warps * LANES, sizeof *lanes);
        nq_symw_frame *frames = malloc((size_t)warps * LANES * NQ_SYMW_STEP_FRAMES *
                                       sizeof *frames);
        uint64_t next = 0;
        unsigned live = warps;
        if (!lanes || !frames)
            exit(1);
        while (live) {
            live = 0;
            for (unsigned w = 0; w < warps; w++) {
                lane *l = lanes + (size_t)w * LANES;
                unsigned any = 0, fetch = 0, most_trips = 0, working = 0;
                for (unsigned i = 0; i < LANES; i++) {
                    lane *x = &l[i];
                    nq_symw_frame *fr = frames + ((size_t)w * LANES + i) * NQ_SYMW_STEP_FRAMES;
                    if (!x->busy) {
                        /* the task is over (or none yet): the next one */
                        if (x->count)
                            counts[x->board] += x->count;
                        x->count = 0;
                        if (next >= work->ntasks)
                            continue;
                        fetch = 1;
                        {
                            const nq_symw_task *tk = &work->tasks[next++];
                            const uint32_t *rows =
                                work->boards + (size_t)(tk->board_level >> 8) *
                                                   NQ_SYMW_BOARD_WORDS;
                            x->board = tk->board_level >> 8;
                            if (walk == 0) {
                                nq_symw_start(&x->step, rows + 1, rows[0],
                                              tk->board_level & 0xffu, tk->cols, tk->ld,
                                              tk->rd, fr, 1);
                                x->busy = x->step.top != 0;
                                x->count = x->step.count;
                            } else {
                                x->busy = stack_start(&x->st, rows + 1, rows[0], tk,
                                                      &x->count);
                            }
                        }
                        any = 1;
                        if (walk == 1 || !x->busy)
                            continue; /* the stack kernel walks from its next pass */
                    }
                    any = 1;
                    if (walk == 0) {
                        const uint32_t *rows = work->boards +
                                               (size_t)x->board * NQ_SYMW_BOARD_WORDS;
                        nq_symw_step(&x->step, rows + 1, fr, 1);
                        x->count = x->step.count;
                        x->busy = x->step.top != 0;
                        t[0].nodes++;
                        t[0].lane_paths++;
                        working = 1;
                    } else {
                        unsigned paths, trips;
                        x->busy = stack_pass(&x->st, &x->count, &paths, &trips, &t[1].nodes);
                        working |= paths;
                        t[1].lane_paths += (unsigned)__builtin_popcount(paths);
                        most_trips = trips > most_trips ? trips : most_trips;
                    }
                }
                if (!any)
                    continue;
                live++;
                t[walk].passes++;
                if (walk == 0) {
                    t[0].cost += (fetch ? STEP_FETCH : 0) + (working ? STEP_MAIN : 0);
                    t[0].warp_paths += working ? 1 : 0;
                } else {
                    t[1].cost += STACK_TOP + (fetch ? STACK_FETCH : 0) +
                                 ((working & PATH_DOWN) ? STACK_DOWN : 0) +
                                 ((working & PATH_LAST)
                                      ? STACK_LAST + STACK_LAST_EACH * most_trips
                                      : 0) +
                                 ((working & (PATH_UP | PATH_LAST)) ? STACK_UP : 0);
                    t[1].warp_paths += (unsigned)__builtin_popcount(working);
                }
            }
        }
        free(lanes);
        free(frames);
    }
}

/* Nodes of a plain walk of n with the mirror symmetry only (the first
 * row's queen in the left half; for odd n, in the middle with the second
 * row's in the left half), below its first `rows` rows: children made on
 * rows rows+1 .. n-1, the last row's candidates counted, not made. */
static uint64_t plain_nodes(unsigned n, unsigned row, uint32_t cols, uint32_t ld, uint32_t rd,
                            unsigned rows, uint32_t allowed)
{
    const uint32_t full = (1u << n) - 1u;
    uint32_t f = allowed & ~(cols | ld | rd);
    uint64_t k = 0;
    if (row + 1 >= n)
        return 0;
    while (f) {
        const uint32_t bit = f & (0u - f);
        f ^= bit;
        if (row + 1 > rows)
            k++;
        k += plain_nodes(n, row + 1, cols | bit, ((ld | bit) << 1) & full, (rd | bit) >> 1,
                         rows, full);
    }
    return k;
}

static uint64_t mirror_nodes(unsigned n, unsigned rows)
{
    const uint32_t full = (1u << n) - 1u, half = (1u << (n / 2)) - 1u;
    uint64_t k = plain_nodes(n, 0, 0, 0, 0, rows, half);
    if (n % 2) {
        const uint32_t mid = 1u << (n / 2);
        /* the middle column, then the second row in the left half (those
         * right of it mirror them) */
        uint32_t f = half & ~(mid | mid << 1 | mid >> 1);
        while (f) {
            const uint32_t bit = f & (0u - f);
            f ^= bit;
            if (2 > rows)
                k++;
            k += plain_nodes(n, 2, mid | bit, ((mid << 1 | bit) << 1) & full,
                             (mid >> 1 | bit) >> 1, rows, full);
        }
        if (1 > rows)
            k++; /* the middle queen's node */
    }
    (void)full;
    return k;
}

int main(int argc, char **argv)
{
    const char *prog = "nq_warp_model";
    static const char *const names[2] = {"step", "stack"};
    nq_sym_plan *plan;
    tally t[2];
    uint64_t *counts, size, batch, threads, warps, rows, known = 0, sum[2] = {0, 0};
    unsigned n;
    int bad = 0;

    if (argc < 2 || argc > 6) {
        fprintf(stderr, "usage: %s N [B [T [W [ROWS]]]]\n", prog);
        return 2;
    }
    n = (unsigned)bench_arg(prog, argv[1], "size");
    batch = argc > 2 ? bench_arg(prog, argv[2], "batch") : 65536;
    threads = argc > 3 ? bench_arg(prog, argv[3], "threads") : 118272;
    warps = argc > 4 ? bench_arg(prog, argv[4], "warps") : 64;
    rows = argc > 5 ? bench_arg(prog, argv[5], "rows") : 6;
    if (n < 6 || n > 24 || batch == 0 || batch > NQ_SYM_GPU_BATCH_MAX || warps == 0 ||
        warps > 4096 || rows >= n) {
        fprintf(stderr, "%s: N must be 6 to 24, B 1 to %zu, W 1 to 4096, ROWS under N\n",
                prog, NQ_SYM_GPU_BATCH_MAX);
        return 2;
    }
    if (nq_sym_plan_build(&plan, n) != NQ_OK)
        return 1;
    memset(t, 0, sizeof t);
    size = nq_sym_plan_size(plan);
    for (uint64_t first = 0; first < size; first += batch) {
        const size_t k = (size_t)(size - first < batch ? size - first : batch);
        uint64_t *units = malloc(k * sizeof *units);
        nq_unit_result *res = malloc(k * sizeof *res);
        nq_sym_gpu_batch b;
        if (!units || !res)
            return 1;
        for (size_t i = 0; i < k; i++)
            units[i] = first + i;
        if (nq_sym_gpu_batch_make(&b, plan, units, k, NQ_SYM_GPU_TASK_LEVELS,
                                  nq_sym_gpu_min_tasks(k, threads), NULL) != NQ_OK)
            return 1;
        for (int w = 0; w < 2; w++) {
            counts = calloc(b.work.nboards + 1, sizeof *counts);
            if (!counts)
                return 1;
            simulate(&b.work, (unsigned)warps, w, t, counts);
            if (nq_sym_gpu_results(plan, &b, units, k, counts, NQ_SIMD_NONE, NULL, res) !=
                NQ_OK)
                return 1;
            for (size_t i = 0; i < k; i++)
                sum[w] += res[i].total;
            free(counts);
        }
        nq_sym_gpu_batch_free(&b);
        free(units);
        free(res);
    }
    nq_known(&known, NULL, n);
    nq_sym_plan_free(plan);
    printf("n = %u, batches of %llu units for %llu GPU threads, %llu warps\n", n,
           (unsigned long long)batch, (unsigned long long)threads, (unsigned long long)warps);
    for (int w = 0; w < 2; w++) {
        printf("%-5s  nodes %13llu  passes %12llu  lane efficiency %5.1f%%  "
               "issue slots a node %5.1f  warp instructions %.4g  total %llu %s\n",
               names[w], (unsigned long long)t[w].nodes, (unsigned long long)t[w].passes,
               t[w].warp_paths ? 100.0 * (double)t[w].lane_paths /
                                     (LANES * (double)t[w].warp_paths)
                               : 0.0,
               t[w].nodes ? LANES * (double)t[w].cost / (double)t[w].nodes : 0.0,
               (double)t[w].cost, (unsigned long long)sum[w], sum[w] == known ? "ok" : "WRONG");
        bad |= sum[w] != known;
    }
    if (t[1].cost)
        printf("stack / step, instructions issued: %.2f\n", (double)t[1].cost / (double)t[0].cost);
    if (rows) {
        const uint64_t plain = mirror_nodes(n, (unsigned)rows);
        printf("plain walk, mirror symmetry only, below %llu rows: nodes %llu, %.2f times the "
               "step walk's; at %u instructions a node, %.2f times its issue slots\n",
               (unsigned long long)rows, (unsigned long long)plain,
               t[0].nodes ? (double)plain / (double)t[0].nodes : 0.0, PLAIN_LOOP,
               t[0].cost ? (double)plain * PLAIN_LOOP / (LANES * (double)t[0].cost) : 0.0);
    }
    return bad;
}
