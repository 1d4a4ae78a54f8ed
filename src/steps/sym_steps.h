/*
 * sym_steps.h - the symmetry method's interior walk as the GPU runs it, in
 * plain C that the host compiler builds too. Not public, never installed.
 *
 * Every function here is `static inline` and marked for both sides
 * (NQ_HOST_DEVICE), so the CUDA kernel (src/device/cuda/cuda_sym.cu) and
 * the host share one text: the default tests, with no GPU, run these very
 * steps on the CPU and compare every unit with the symmetry method's own
 * kernels (tests/unit/test_sym_gpu.c).
 *
 * A GPU thread walks one task: a node of some unit's interior walk (see
 * sym_kernel.h), a few levels below the unit's start, where the host has
 * cut the unit into many tasks (nq_symw_expand) so that every thread of
 * the card has work. Threads fetch tasks one after the other until none is
 * left, so short and long tasks even out.
 *
 * Why this walk, and not the CPU's: a GPU thread has little fast memory,
 * so its stack holds one byte per level (the column of the queen placed
 * there) and the masks are rebuilt on the way up instead of being saved on
 * the way down. That needs the diagonal masks to lose no bit while they
 * move: `ld` moves up by shift[d] bits a level and fits in 64 bits (n <= 28
 * columns plus at most 27 rows of shift), and `rd` moves down, so it is
 * kept 32 bits up in a 64-bit word (nothing of a 28-column mask shifted
 * down by at most 27 rows falls off the bottom). Undoing a level is then
 * exact: the queen's bit leaves `cols`, and the diagonals shift back and
 * drop it. The candidates left at a level are the free squares above the
 * queen just undone, since candidates are taken lowest column first.
 *
 * The stack is addressed as stack[level * stride]: on the host a plain
 * array (stride 1), on the GPU a column of a block's shared memory (stride
 * = the block's threads), so that the 32 threads of a warp touch 32
 * neighbouring bytes at once.
 */
#ifndef NQ_SYM_STEPS_H
#define NQ_SYM_STEPS_H

#include <stdint.h>

#include "hostdev.h"
#include "walk_stack.h"

/* A board as one word a level: the allowed columns of the level (bits 0 to
 * 27) and the rows to the next level (bits 28 and 29; see nq_sym_board),
 * after a word that holds the number of levels. */
#define NQ_SYMW_BOARD_WORDS 32u
#define NQ_SYMW_MAX_LEVELS 26u
#define NQ_SYMW_COLUMNS 0x0fffffffu
#define NQ_SYMW_SHIFT_AT 28u

/* Loop steps between two looks at the stop flag inside one task (a
 * test's emulated GPU sets its own before it includes this). */
#ifndef NQ_SYMW_POLL_STEPS
#define NQ_SYMW_POLL_STEPS 65536u
#endif

/* One task: a node of a unit's walk (its masks moved down to `level`),
 * and which of the batch's boards it walks. 16 bytes. */
typedef struct nq_symw_task {
    uint32_t cols, ld, rd;
    uint32_t board_level; /* board index << 8 | level */
} nq_symw_task;

NQ_HOST_DEVICE uint32_t nq_symw_allowed(uint32_t row)
{
    return row & NQ_SYMW_COLUMNS;
}

NQ_HOST_DEVICE unsigned nq_symw_shift(uint32_t row)
{
    return (unsigned)(row >> NQ_SYMW_SHIFT_AT);
}

NQ_HOST_DEVICE uint32_t nq_symw_row(uint32_t allowed, unsigned shift)
{
    return (allowed & NQ_SYMW_COLUMNS) | ((uint32_t)shift << NQ_SYMW_SHIFT_AT);
}

NQ_HOST_DEVICE unsigned nq_symw_ctz(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return (unsigned)(__ffs((int)x) - 1);
#else
    return (unsigned)__builtin_ctz(x);
#endif
}

NQ_HOST_DEVICE unsigned nq_symw_popcount(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return (unsigned)__popc(x);
#else
    return (unsigned)__builtin_popcount(x);
#endif
}

NQ_HOST_DEVICE nq_symw_task nq_symw_make_task(uint32_t board, unsigned level,
                                              uint32_t cols, uint32_t ld,
                                              uint32_t rd)
{
    nq_symw_task t;
    t.cols = cols;
    t.ld = ld;
    t.rd = rd;
    t.board_level = board << 8 | (uint32_t)level;
    return t;
}

/* Counts the completions of the node (level, cols, ld, rd) on the board
 * whose words a level are rows[0 .. levels-1] (level < levels), into
 * *count. stack has room for `levels` bytes at stride `stride`. Looks at
 * *stop (may be NULL) every NQ_SYMW_POLL_STEPS steps.
 * @return 0, or 1 when *stop was raised (*count is then meaningless). */
NQ_HOST_DEVICE int nq_symw_walk(const uint32_t *rows, unsigned levels,
                                unsigned level, uint32_t cols, uint32_t ld32,
                                uint32_t rd32, unsigned char *stack,
                                unsigned stride, const volatile int *stop,
                                uint64_t *count)
{
    const unsigned last = levels - 1;
    const uint32_t al = nq_symw_allowed(rows[last]);
    uint64_t ld = ld32, rd = (uint64_t)rd32 << 32;
    uint64_t n = 0;
    unsigned d = level;
    uint32_t f = nq_symw_allowed(rows[d]) & ~(cols | ld32 | rd32);
    unsigned poll = NQ_SYMW_POLL_STEPS;

    if (d == last) {
        *count = nq_symw_popcount(f);
        return 0;
    }
    for (;;) {
        if (d + 1 == last) {
            /* One column is left for the last row: each candidate is a
             * solution or not, by one test. */
            const unsigned s = nq_symw_shift(rows[d]);
            while (f) {
                const uint32_t bit = f & (0u - f);
                const uint32_t l = (uint32_t)((ld | bit) << s);
                const uint32_t r = (uint32_t)((rd | (uint64_t)bit << 32) >> s >> 32);
                f ^= bit;
                n += (al & ~(cols | bit | l | r)) != 0;
            }
        } else if (f) {
            const uint32_t bit = f & (0u - f);
            const unsigned s = nq_symw_shift(rows[d]);
            stack[d * stride] = (unsigned char)nq_symw_ctz(bit);
            cols |= bit;
            ld = (ld | bit) << s;
            rd = (rd | (uint64_t)bit << 32) >> s;
            d++;
            f = nq_symw_allowed(rows[d]) &
                ~(cols | (uint32_t)ld | (uint32_t)(rd >> 32));
            continue;
        }
        if (d == level)
            break;
        /* Up one level: undo its queen, then take the candidates right of
         * it (higher columns; the lower ones are done). */
        d--;
        {
            const unsigned c = stack[d * stride];
            const uint32_t bit = 1u << c;
            const unsigned s = nq_symw_shift(rows[d]);
            cols ^= bit;
            ld = (ld >> s) ^ bit;
            rd = (rd << s) ^ (uint64_t)bit << 32;
            f = nq_symw_allowed(rows[d]) &
                ~(cols | (uint32_t)ld | (uint32_t)(rd >> 32)) &
                ~((bit << 1) - 1u);
        }
        if (--poll == 0) {
            poll = NQ_SYMW_POLL_STEPS;
            if (stop && *stop)
                return 1;
        }
    }
    *count = n;
    return 0;
}

/* ------------------------------------------------------------------------
 * The step walk: one node a step, the same instructions for every thread.
 *
 * nq_symw_walk() above goes down and up in separate branches, and takes
 * the last row's candidates in a loop of its own; on a GPU the 32 threads
 * of a warp share one instruction stream, so in any pass where some go
 * down, some go up and some test the last row, the warp runs all three
 * paths, each for a few of its threads (bench/nq_warp_model: 42% of the
 * lanes at work). The step walk has one path and no branch: each step
 * takes the lowest candidate of the node on top of a stack of nodes,
 * drops that node if it has no candidate left, and pushes the child when
 * the child has candidates and is not on the last level, whose candidates
 * are counted instead. What differs between threads is only which stores
 * happen, so a warp's threads run every step together, whatever depth
 * each is at, and a step is one node of the tree.
 *
 * The price is memory: every node on the stack is kept whole (a frame:
 * cols, ld, rd and its candidates left, 16 bytes), and the node on top is
 * read back at each step. The walk of a task that spans L levels holds at
 * most L - 1 frames (its last level is counted, never pushed). On the GPU
 * the frames sit in shared memory depth-major (frames[depth * stride],
 * stride = the block's threads), so that a warp's 32 frames of one depth
 * are 512 neighbouring bytes, moved in one vector access without bank
 * conflicts.
 *
 * A node's level is not stored: every level places one queen, so
 * popcount(cols) - level is the same for every node of a task (`base`).
 * The diagonals need no room to be undone here, so ld and rd are plain
 * 32-bit masks that lose what moves off the board. The frames' cols have
 * the bits above the board's columns set (NQ_SYMW_OFF_BOARD), so that the
 * candidates taken from a row word lose its shift bits with the columns
 * taken, without a mask of their own.
 * ------------------------------------------------------------------------ */

/* The most levels a task of the step walk may span, and its frames. 14
 * frames a thread are 28 KiB for a block of 128 threads: with the 1 KiB a
 * block that the driver keeps, 7 blocks (896 threads) fit in the 228 KiB
 * of an H100's or H200's SM. */
#define NQ_SYMW_STEP_LEVELS 15u
#define NQ_SYMW_STEP_FRAMES (NQ_SYMW_STEP_LEVELS - 1u)

/* Bits of a 32-bit mask above any board's columns: set in the frames'
 * cols. */
#define NQ_SYMW_OFF_BOARD (~NQ_SYMW_COLUMNS)

#if defined(__cplusplus)
#define NQ_SYMW_ALIGN16 alignas(16)
#else
#define NQ_SYMW_ALIGN16 _Alignas(16)
#endif

/* A node on the step walk's stack, with the candidates it has left. */
typedef struct nq_symw_frame {
    NQ_SYMW_ALIGN16 uint32_t cols; /* with NQ_SYMW_OFF_BOARD */
    uint32_t ld, rd, free;
} nq_symw_frame;

/* A task being walked by steps. The walk is over when `top` is 0. */
typedef struct nq_symw_cursor {
    unsigned top;         /* frames on the stack, times the stride */
    unsigned base;        /* popcount(cols) - level, the task's constant */
    unsigned before_last; /* the board's last level - 1 */
    uint64_t count;       /* solutions found so far */
} nq_symw_cursor;

/* Starts the walk of the node (level, cols, ld, rd) of a board whose
 * words a level are rows[0 .. levels-1] (level < levels, levels - level
 * <= NQ_SYMW_STEP_LEVELS): pushes it, if it has candidates. A node of the
 * last level is counted at once (and the walk is then over). frames has
 * room for NQ_SYMW_STEP_FRAMES frames at stride `stride`. */
NQ_HOST_DEVICE void nq_symw_start(nq_symw_cursor *c, const uint32_t *rows,
                                  unsigned levels, unsigned level, uint32_t cols,
                                  uint32_t ld, uint32_t rd, nq_symw_frame *frames,
                                  unsigned stride)
{
    const uint32_t f = nq_symw_allowed(rows[level]) & ~(cols | ld | rd);
    c->base = nq_symw_popcount(cols | NQ_SYMW_OFF_BOARD) - level;
    c->before_last = levels - 2;
    c->count = 0;
    c->top = 0;
    if (level + 1 == levels) {
        c->count = nq_symw_popcount(f);
    } else if (f) {
        frames[0].cols = cols | NQ_SYMW_OFF_BOARD;
        frames[0].ld = ld;
        frames[0].rd = rd;
        frames[0].free = f;
        c->top = stride;
    }
}

/* What a step did, as nq_symw_step() says it: the node on top had no
 * candidate left and was dropped (POP); the child was pushed (PUSH). */
#define NQ_SYMW_POP 1u
#define NQ_SYMW_PUSH 2u

/* One step (c->top != 0): the lowest candidate of the node on top (frame
 * c->top - stride) becomes a child, and the node is dropped if that was
 * its last; a child on the last level is counted, any other with
 * candidates is pushed. Frame k is frames[k * stride].
 * @return what it did (NQ_SYMW_POP, NQ_SYMW_PUSH, both or neither): for
 *         the tests and bench/nq_warp_model; the kernel ignores it. */
NQ_HOST_DEVICE unsigned nq_symw_step(nq_symw_cursor *c, const uint32_t *rows,
                                     nq_symw_frame *frames, unsigned stride)
{
    nq_symw_frame *p = &frames[c->top - stride];
    const nq_symw_frame node = *p;
    const unsigned d = nq_symw_popcount(node.cols) - c->base;
    const uint32_t *row = rows + d; /* one address for both words */
    const unsigned s = nq_symw_shift(row[0]);
    const uint32_t next = row[1]; /* its shift bits go with cols's */
    const uint32_t bit = node.free & (0u - node.free);
    const uint32_t left = node.free ^ bit;
    const uint32_t cols = node.cols | bit;
    const uint32_t ld = (node.ld | bit) << s;
    const uint32_t rd = (node.rd | bit) >> s;
    const uint32_t f = next & ~(cols | ld | rd);
    const int leaf = d == c->before_last;
    const int push = !leaf && f != 0;

    p->free = left;
    c->top -= left ? 0u : stride;
    c->count += leaf ? nq_symw_popcount(f) : 0u;
    if (push) {
        nq_symw_frame *q = &frames[c->top];
        q->cols = cols;
        q->ld = ld;
        q->rd = rd;
        q->free = f;
        c->top += stride;
    }
    return (left ? 0u : NQ_SYMW_POP) | (push ? NQ_SYMW_PUSH : 0u);
}

/* The whole step walk of one node, as nq_symw_walk() counts it (levels -
 * level <= NQ_SYMW_STEP_LEVELS), into *count; frames has room for
 * NQ_SYMW_STEP_FRAMES frames at stride `stride`. Looks at *stop (may be
 * NULL) every NQ_SYMW_POLL_STEPS steps.
 * @return 0, or 1 when *stop was raised (*count is then meaningless). */
NQ_HOST_DEVICE int nq_symw_step_walk(const uint32_t *rows, unsigned levels,
                                     unsigned level, uint32_t cols, uint32_t ld,
                                     uint32_t rd, nq_symw_frame *frames,
                                     unsigned stride, const volatile int *stop,
                                     uint64_t *count)
{
    nq_symw_cursor c;
    unsigned poll = NQ_SYMW_POLL_STEPS;
    nq_symw_start(&c, rows, levels, level, cols, ld, rd, frames, stride);
    while (c.top) {
        nq_symw_step(&c, rows, frames, stride);
        if (--poll == 0) {
            poll = NQ_SYMW_POLL_STEPS;
            if (stop && *stop)
                return 1;
        }
    }
    *count = c.count;
    return 0;
}

/* Lists the nodes of level `target` (level <= target < levels) below the
 * node (level, cols, ld, rd) of board `board` (words a level: rows),
 * in the walk's order, into tasks[0 .. cap-1] when tasks is not NULL.
 * @return how many there are (also beyond cap: then only cap are written). */
NQ_HOST_DEVICE uint64_t nq_symw_expand(const uint32_t *rows, uint32_t board,
                                       unsigned level, unsigned target,
                                       uint32_t cols, uint32_t ld,
                                       uint32_t rd, nq_symw_task *tasks,
                                       uint64_t cap)
{
    nq_walk_stack st;
    uint64_t k = 0;
    unsigned d = level;
    uint32_t f;

    if (target == level) {
        if (tasks && cap > 0)
            tasks[0] = nq_symw_make_task(board, level, cols, ld, rd);
        return 1;
    }
    f = nq_symw_allowed(rows[d]) & ~(cols | ld | rd);
    for (;;) {
        if (f) {
            const uint32_t bit = f & (0u - f);
            const unsigned s = nq_symw_shift(rows[d]);
            const uint32_t c2 = cols | bit, l2 = (ld | bit) << s,
                           r2 = (rd | bit) >> s;
            f ^= bit;
            if (d + 1 == target) {
                if (tasks && k < cap)
                    tasks[k] = nq_symw_make_task(board, target, c2, l2, r2);
                k++;
                continue;
            }
            nq_walk_save(&st, d, f, cols, ld, rd);
            cols = c2;
            ld = l2;
            rd = r2;
            d++;
            f = nq_symw_allowed(rows[d]) & ~(cols | ld | rd);
            continue;
        }
        if (d == level)
            break;
        d--;
        nq_walk_back(&st, d, &f, &cols, &ld, &rd);
    }
    return k;
}

#endif /* NQ_SYM_STEPS_H */
