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
 * cost more to prepare and send than to walk. The cut stays shallow
 * otherwise because the host prepares every task (some 70 ns each).
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

/* Tasks of the batch's boards when cut to leave task_levels levels;
 * written to tasks when not NULL. */
static uint64_t cut_all(const nq_sym_gpu_batch *b, const nq_sym_node *starts,
                        unsigned task_levels, nq_symw_task *tasks)
{
    uint64_t k = 0;
    for (size_t i = 0; i < b->work.nboards; i++) {
        const uint32_t *w = b->boards + i * NQ_SYMW_BOARD_WORDS;
        const unsigned cut = cut_level(w[0], starts[i].level, task_levels);
        k += nq_symw_expand(w + 1, (uint32_t)i, starts[i].level, cut, starts[i].cols,
                            starts[i].ld, starts[i].rd, tasks ? tasks + k : NULL,
                            tasks ? UINT64_MAX : 0);
    }
    return k;
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
                          unsigned task_levels, uint64_t min_tasks)
{
    nq_sym_gpu_batch b;
    nq_sym_node *starts;
    size_t nb = 0;
    uint64_t ntasks;
    int rc = NQ_OK;

    if (!out || !plan || (!units && count) || count > NQ_SYM_GPU_BATCH_MAX ||
        task_levels < NQ_SYM_GPU_TASK_LEVELS_MIN)
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

    /* the deepest cut that still gives min_tasks, or the shallowest allowed */
    b.task_levels = task_levels;
    ntasks = cut_all(&b, starts, b.task_levels, NULL);
    while (ntasks < min_tasks && b.task_levels > NQ_SYM_GPU_TASK_LEVELS_MIN) {
        b.task_levels--;
        ntasks = cut_all(&b, starts, b.task_levels, NULL);
    }
    b.tasks = malloc((ntasks ? ntasks : 1) * sizeof *b.tasks);
    if (!b.tasks) {
        free(starts);
        nq_sym_gpu_batch_free(&b);
        return NQ_ENOMEM;
    }
    b.work.tasks = b.tasks;
    b.work.ntasks = cut_all(&b, starts, b.task_levels, b.tasks);
    free(starts);
    *out = b;
    return NQ_OK;
}

void nq_sym_gpu_host_walk(const nq_symw_batch *work, uint64_t *counts)
{
    unsigned char stack[NQ_SYMW_MAX_LEVELS];
    for (uint64_t i = 0; i < work->ntasks; i++) {
        const nq_symw_task *t = &work->tasks[i];
        const uint32_t board = t->board_level >> 8;
        const uint32_t *w = work->boards + (size_t)board * NQ_SYMW_BOARD_WORDS;
        uint64_t c = 0;
        (void)nq_symw_walk(w + 1, w[0], t->board_level & 0xffu, t->cols, t->ld,
                           t->rd, stack, 1, NULL, &c);
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
                               NQ_SYM_GPU_TASKS_PER_THREAD * nq_gpu_threads(gpu));
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
