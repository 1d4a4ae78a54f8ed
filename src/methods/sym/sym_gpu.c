/*
 * sym_gpu.c - the symmetry method on a GPU: a batch of units becomes
 * boards and tasks (nodes a few levels into each unit's walk), a GPU walks
 * the tasks (device.h), and each unit's completions become its result as
 * on the CPU.
 *
 * Units are far fewer than a GPU's threads below n = 20 (524 at n = 16,
 * 125,666 at 20, each a whole walk of up to 26 levels), so each is cut at
 * the level from which at most NQ_SYM_GPU_TASK_LEVELS levels are left:
 * tasks by the hundred thousand, which the GPU's threads fetch one after
 * the other. Where a batch has too few to fill the card (a few per
 * thread), the cut is made deeper, but no deeper than
 * NQ_SYM_GPU_TASK_LEVELS_MIN levels from the bottom, where a task would
 * cost more to prepare and send than to walk, and no deeper than it takes
 * to give each unit NQ_SYM_GPU_TASKS_PER_UNIT tasks (nq_sym_gpu_min_tasks).
 * The cut stays shallow otherwise because the host prepares every task
 * (about 10 ns each, and 3 us a unit to lay out its board, on one core of
 * an AMD EPYC: bench/nq_gpu_cut).
 *
 * What the GPU does not walk is counted on the calling thread: n <= 5
 * (one brute-force unit), and of the few constellations fixed by a
 * quarter or half turn, the solutions that the turn fixes (their unique
 * share needs them: sym_fixed.c, a search far smaller than the walk,
 * which the GPU does). A unit's result is the same number on either
 * device.
 */
#include "sym_gpu.h"

#include <stdlib.h>
#include <string.h>

/* The level at which the walk of a board of `levels` levels, started at
 * `level`, is cut to leave at most `task_levels` levels a task. */
static unsigned cut_level(unsigned levels, unsigned level, unsigned task_levels)
{
    unsigned cut = levels > task_levels ? levels - task_levels : 0;
    if (cut < level)
        cut = level;
    return cut < levels ? cut : levels - 1;
}

/* Units (or boards) between two looks at the stop flag while a batch is
 * made: a large batch takes the host a good part of a second. */
#define POLL_UNITS 256u

/* Tasks of the batch's boards when cut to leave task_levels levels, into
 * *count; written to tasks when not NULL. @return NQ_OK, NQ_ECANCELED. */
static int cut_all(const nq_sym_gpu_batch *b, const nq_sym_node *starts,
                   unsigned task_levels, nq_symw_task *tasks, const nq_stop_flag *stop,
                   uint64_t *count)
{
    uint64_t k = 0;
    for (size_t i = 0; i < b->work.nboards; i++) {
        const uint32_t *w = b->boards + i * NQ_SYMW_BOARD_WORDS;
        const unsigned cut = cut_level(w[0], starts[i].level, task_levels);
        if (i % POLL_UNITS == 0 && nq_stopped(stop))
            return NQ_ECANCELED;
        k += nq_symw_expand(w + 1, (uint32_t)i, starts[i].level, cut, starts[i].cols,
                            starts[i].ld, starts[i].rd, tasks ? tasks + k : NULL,
                            tasks ? UINT64_MAX : 0);
    }
    *count = k;
    return NQ_OK;
}

/* Why the bound a unit: the host cuts every task (about 10 ns each, beside
 * some 3 us to lay out each unit's board), so a small batch (the first
 * ones of a count: see engine_run.c) that had to fill a large GPU would be
 * cut down to tasks of a few levels, tens of thousands a unit: the host
 * would then take far longer to cut the batch than the GPU to walk it.
 * Bounded, a small batch leaves most of the GPU idle for the few
 * milliseconds it takes, and the batches grow. The floor keeps a batch of
 * a unit or two (an estimate's samples) in tasks enough that its time is
 * not that of its one longest task; cutting them costs the host well
 * under a millisecond. */
uint64_t nq_sym_gpu_min_tasks(size_t units, uint64_t threads)
{
    const uint64_t by_threads = threads > UINT64_MAX / NQ_SYM_GPU_TASKS_PER_THREAD
                                    ? UINT64_MAX
                                    : threads * NQ_SYM_GPU_TASKS_PER_THREAD;
    uint64_t by_units = (uint64_t)units * NQ_SYM_GPU_TASKS_PER_UNIT;
    if (by_units < NQ_SYM_GPU_TASKS_FLOOR)
        by_units = NQ_SYM_GPU_TASKS_FLOOR;
    return by_threads < by_units ? by_threads : by_units;
}

void nq_sym_gpu_batch_free(nq_sym_gpu_batch *batch)
{
    if (!batch)
        return;
    free(batch->boards);
    free(batch->tasks);
    free(batch->board_of);
    free(batch->turned);
    free(batch->orders);
    memset(batch, 0, sizeof *batch);
}

int nq_sym_gpu_batch_make(nq_sym_gpu_batch *out, const nq_sym_plan *plan,
                          const uint64_t *units, size_t count,
                          unsigned task_levels, uint64_t min_tasks,
                          const nq_stop_flag *stop)
{
    nq_sym_gpu_batch b;
    nq_sym_node *starts;
    size_t nb = 0;
    uint64_t ntasks;
    int rc = NQ_OK;

    if (!out || !plan || (!units && count) || count > NQ_SYM_GPU_BATCH_MAX ||
        task_levels < NQ_SYM_GPU_TASK_LEVELS_MIN || task_levels > NQ_SYMW_STEP_LEVELS)
        return NQ_EINVAL;
    memset(&b, 0, sizeof b);
    b.board_of = malloc((count ? count : 1) * sizeof *b.board_of);
    b.orders = malloc((count ? count : 1) * sizeof *b.orders);
    b.turned = malloc((count ? count : 1) * sizeof *b.turned);
    b.boards = malloc((count ? count : 1) * NQ_SYMW_BOARD_WORDS * sizeof *b.boards);
    starts = malloc((count ? count : 1) * sizeof *starts);
    if (!b.board_of || !b.orders || !b.turned || !b.boards || !starts) {
        free(starts);
        nq_sym_gpu_batch_free(&b);
        return NQ_ENOMEM;
    }
    for (size_t i = 0; i < count && rc == NQ_OK; i++) {
        nq_sym_kind kind;
        nq_sym_board bd;
        unsigned order = 1;
        if (i % POLL_UNITS == 0 && nq_stopped(stop)) {
            rc = NQ_ECANCELED;
            break;
        }
        rc = nq_sym_unit_kind(plan, units[i], &kind, &bd, &starts[nb], &order);
        b.board_of[i] = SIZE_MAX;
        if (rc != NQ_OK || kind == NQ_SYM_KIND_SMALL)
            continue;
        uint32_t *w = b.boards + nb * NQ_SYMW_BOARD_WORDS;
        memset(w, 0, NQ_SYMW_BOARD_WORDS * sizeof *w);
        w[0] = bd.levels;
        for (unsigned d = 0; d < bd.levels; d++)
            w[1 + d] = nq_symw_row(bd.allowed[d], bd.shift[d]);
        b.orders[nb] = order;
        b.turned[nb] = kind == NQ_SYM_KIND_TURNED;
        b.board_of[i] = nb++;
    }
    if (rc != NQ_OK) {
        free(starts);
        nq_sym_gpu_batch_free(&b);
        return rc;
    }
    b.work.boards = b.boards;
    b.work.nboards = nb;

    /* the shallowest cut that gives min_tasks, or the deepest allowed */
    b.task_levels = task_levels;
    rc = cut_all(&b, starts, b.task_levels, NULL, stop, &ntasks);
    while (rc == NQ_OK && ntasks < min_tasks &&
           b.task_levels > NQ_SYM_GPU_TASK_LEVELS_MIN) {
        b.task_levels--;
        rc = cut_all(&b, starts, b.task_levels, NULL, stop, &ntasks);
    }
    if (rc == NQ_OK) {
        b.tasks = malloc((ntasks ? ntasks : 1) * sizeof *b.tasks);
        rc = b.tasks ? NQ_OK : NQ_ENOMEM;
    }
    b.work.tasks = b.tasks;
    b.work.levels = b.task_levels;
    if (rc == NQ_OK)
        rc = cut_all(&b, starts, b.task_levels, b.tasks, stop, &b.work.ntasks);
    if (rc != NQ_OK) {
        free(starts);
        nq_sym_gpu_batch_free(&b);
        return rc;
    }
    free(starts);
    *out = b;
    return NQ_OK;
}

void nq_sym_gpu_host_walk(const nq_symw_batch *work, uint64_t *counts)
{
    nq_symw_frame frames[NQ_SYMW_STEP_FRAMES];
    for (uint64_t i = 0; i < work->ntasks; i++) {
        const nq_symw_task *t = &work->tasks[i];
        const uint32_t board = t->board_level >> 8;
        const uint32_t *w = work->boards + (size_t)board * NQ_SYMW_BOARD_WORDS;
        uint64_t c = 0;
        (void)nq_symw_step_walk(w + 1, w[0], t->board_level & 0xffu, t->cols, t->ld,
                                t->rd, frames, 1, NULL, &c);
        counts[board] += c;
    }
}

int nq_sym_gpu_results(const nq_sym_plan *plan, const nq_sym_gpu_batch *batch,
                       const uint64_t *units, size_t count,
                       const uint64_t *counts, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out)
{
    for (size_t i = 0; i < count; i++) {
        const size_t b = batch->board_of[i];
        int rc = NQ_OK;
        if (b == SIZE_MAX)
            rc = nq_sym_solve_unit(plan, units[i], simd, stop, &out[i]);
        else if (batch->turned[b])
            rc = nq_sym_turned_result(plan, units[i], counts[b], stop, &out[i]);
        else
            out[i] = nq_sym_weigh(counts[b], batch->orders[b]);
        if (rc != NQ_OK)
            return rc;
    }
    return NQ_OK;
}

int nq_sym_solve_gpu(const void *plan, struct nq_gpu *gpu, const uint64_t *units,
                     size_t count, nq_simd simd, const nq_stop_flag *stop,
                     nq_unit_result *out)
{
    nq_sym_gpu_batch b;
    uint64_t *counts;
    int rc;

    if (!plan || !gpu || !out || (!units && count))
        return NQ_EINVAL;
    rc = nq_sym_gpu_batch_make(&b, plan, units, count, NQ_SYM_GPU_TASK_LEVELS,
                               nq_sym_gpu_min_tasks(count, nq_gpu_threads(gpu)), stop);
    if (rc != NQ_OK)
        return rc;
    counts = calloc(b.work.nboards ? b.work.nboards : 1, sizeof *counts);
    if (!counts) {
        nq_sym_gpu_batch_free(&b);
        return NQ_ENOMEM;
    }
    rc = nq_gpu_sym_walk(gpu, &b.work, counts, stop);
    if (rc == NQ_OK)
        rc = nq_sym_gpu_results(plan, &b, units, count, counts, simd, stop, out);
    free(counts);
    nq_sym_gpu_batch_free(&b);
    return rc;
}
