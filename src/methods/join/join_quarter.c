/*
 * join_quarter.c - half-board keys from a table of quarter-board pieces.
 *
 * Walking a half-board row by row for every row split repeats the same
 * small searches over and over: the top rows of one split's half are the
 * top rows of thousands of others. So every placement of non-attacking
 * queens on a `rows` x `cols` board (any rows, any columns, from no queen
 * to as many as fit) is listed once, filed under its (row set, column set)
 * and described by its two diagonal masks. A half-board on rows X is then a
 * top piece on the rows of X above the cut and a bottom piece (the same
 * table, moved down by `rows`) on the rows below it, with complementary
 * column sets: for each column set C of the right size, every top piece of
 * (X top, C) meets every bottom piece of (X bottom, the other columns), and
 * the pairs whose diagonals are disjoint are the half's placements. Both
 * halves of a board, west and east, and both quarters of a half use the one
 * table, moved to their place.
 *
 * Keys are linear in the two pieces (the bits of the union are the union
 * of the bits), so each piece's share of the key is computed once per cell
 * and a pair costs two ANDs, one test and one OR. Those two loops, taking
 * a cell's pieces and pairing them, are the kernels' (join_kernel.h).
 *
 * Most cells hold a handful of pieces below n = 18, so a call per cell
 * costs more than its work. There, with wide kernels, both quarters' row
 * sets are taken in one call each: every piece kept at its place in the
 * table, those the bars forbid marked so that they clash with everything
 * (NQ_JOIN_MARK_TOP, NQ_JOIN_MARK_BOTTOM), and each cell's pairs come
 * from one call. Pieces whose key share holds no class flag that the
 * split counts are marked too (NQ_JOIN_MARK_PLAIN), so that two of them
 * never pair: such keys are not listed.
 */
#include "join_quarter.h"

#include "join_bits.h"

#include <stdlib.h>
#include <string.h>

/* Entries filed between two polls of the stop flag. */
#define POLL_ENTRIES (1u << 16)

typedef struct fill_state {
    nq_join_quarter *q;
    int second_pass;
    const nq_stop_flag *stop;
    uint32_t tick;
    int stopped;
} fill_state;

/* Files one placement: counts it (first pass) or writes it (second). */
static inline void file_entry(fill_state *f, uint32_t rows, uint32_t cols,
                              uint32_t d1, uint32_t d2)
{
    nq_join_quarter *q = f->q;
    size_t idx = (size_t)rows << q->cols | cols;
    if (f->second_pass)
        q->entry[q->start[idx]++] = (uint64_t)d2 << 32 | d1;
    else
        q->start[idx + 1]++;
    if (++f->tick == POLL_ENTRIES) {
        f->tick = 0;
        f->stopped = nq_stopped(f->stop);
    }
}

/* Every placement on rows r and below, the last row's filed in a loop
 * rather than by a call each (the table's build is a serial step of a
 * count: n = 18's took 18 ms), in the order of the recursion. */
static void place(fill_state *f, unsigned r, uint32_t rows, uint32_t cols,
                  uint32_t d1, uint32_t d2)
{
    nq_join_quarter *q = f->q;
    uint32_t free;
    if (r == q->rows) {
        file_entry(f, rows, cols, d1, d2);
        return;
    }
    free = nq_join_free_squares(q->rows, q->cols, r, cols, d1, d2);
    if (r + 1 == q->rows) {
        file_entry(f, rows, cols, d1, d2);
        for (; free; free &= free - 1) {
            const uint32_t bit = free & (0u - free);
            file_entry(f, rows | 1u << r, cols | bit, d1 | bit << r, d2 | bit);
        }
        return;
    }
    place(f, r + 1, rows, cols, d1, d2);
    for (; free && !f->stopped; free &= free - 1) {
        uint32_t bit = free & (0u - free);
        place(f, r + 1, rows | 1u << r, cols | bit, d1 | bit << r,
              d2 | bit << (q->rows - 1 - r));
    }
}

/* The entries of a rows x cols table, counted up to `cap` (a count that
 * passes it stops there): the placements of `place`, without filing them.
 * The last row is not walked: its placements are the row left empty and
 * one per free square, which makes the count several times faster (at
 * n = 25 to 28 the table's size is worked out for every estimate). */
static uint64_t count_entries(unsigned rows, unsigned cols, unsigned r,
                              uint32_t col_set, uint32_t d1, uint32_t d2,
                              uint64_t cap)
{
    uint64_t c;
    uint32_t free;
    if (r == rows)
        return 1;
    free = nq_join_free_squares(rows, cols, r, col_set, d1, d2);
    if (r + 1 == rows)
        return 1u + (uint64_t)nq_join_bits32(free);
    if (r + 2 == rows) { /* the last two rows at once */
        c = 1u + nq_join_bits32(free) +
            nq_join_bits32(nq_join_free_squares(rows, cols, r + 1, col_set, d1, d2));
        for (; free; free &= free - 1) {
            const uint32_t bit = free & (0u - free);
            c += nq_join_bits32(nq_join_free_squares(rows, cols, r + 1, col_set | bit, d1 | bit << r,
                                             d2 | bit << (rows - 1 - r)));
        }
        return c;
    }
    c = count_entries(rows, cols, r + 1, col_set, d1, d2, cap);
    for (; free && c <= cap; free &= free - 1) {
        uint32_t bit = free & (0u - free);
        c += count_entries(rows, cols, r + 1, col_set | bit, d1 | bit << r,
                           d2 | bit << (rows - 1 - r), cap - c);
    }
    return c;
}

uint64_t nq_join_quarter_bytes(unsigned rows, unsigned cols, uint64_t cap)
{
    const uint64_t index = ((uint64_t)1 << (rows + cols)) + 1u;
    uint64_t entries, room;
    if (index * sizeof(uint32_t) > cap)
        return UINT64_MAX;
    room = (cap - index * sizeof(uint32_t)) / sizeof(uint64_t);
    if (room > UINT32_MAX)
        room = UINT32_MAX; /* the most entries the index can address */
    entries = count_entries(rows, cols, 0, 0, 0, 0, room);
    if (entries > room || entries > UINT32_MAX)
        return UINT64_MAX;
    return index * sizeof(uint32_t) + entries * sizeof(uint64_t);
}

/* The table is built in parts, one per pattern of the first PART_ROWS
 * rows (which of them hold a queen): placements of different patterns
 * fall in different row sets, so in different cells, and the parts of a
 * pass can be filed by several threads at once without a lock. Within a
 * cell the entries come in the order of the whole recursion. */
#define PART_ROWS 5u

static unsigned part_rows(const nq_join_quarter *q)
{
    return q->rows < PART_ROWS ? q->rows : PART_ROWS;
}

unsigned nq_join_quarter_parts(const nq_join_quarter *q)
{
    return 1u << part_rows(q);
}

/* The placements of part `pattern`: rows r to k - 1 as the pattern says
 * (empty, or a queen on each free square in turn), then every placement
 * on the rows below. */
static void place_part(fill_state *f, unsigned r, unsigned k, uint32_t pattern,
                       uint32_t rows, uint32_t cols, uint32_t d1, uint32_t d2)
{
    const nq_join_quarter *q = f->q;
    uint32_t free;
    if (r == k) {
        place(f, r, rows, cols, d1, d2);
        return;
    }
    if (!(pattern >> r & 1u)) {
        place_part(f, r + 1, k, pattern, rows, cols, d1, d2);
        return;
    }
    free = nq_join_free_squares(q->rows, q->cols, r, cols, d1, d2);
    for (; free && !f->stopped; free &= free - 1) {
        const uint32_t bit = free & (0u - free);
        place_part(f, r + 1, k, pattern, rows | 1u << r, cols | bit, d1 | bit << r,
                   d2 | bit << (q->rows - 1 - r));
    }
}

static int run_part(nq_join_quarter *q, unsigned part, int second_pass,
                    const nq_stop_flag *stop)
{
    fill_state f = { q, second_pass, stop, 0, nq_stopped(stop) };
    if (!f.stopped) /* (polled at each part's start too: most are short) */
        place_part(&f, 0, part_rows(q), part, 0, 0, 0, 0);
    return f.stopped ? NQ_ECANCELED : NQ_OK;
}

int nq_join_quarter_begin(nq_join_quarter *q, unsigned rows, unsigned cols,
                          uint64_t max_bytes)
{
    const size_t cells = (size_t)1 << (rows + cols);
    memset(q, 0, sizeof *q);
    q->rows = rows;
    q->cols = cols;
    if ((cells + 1) * sizeof *q->start > max_bytes)
        return NQ_ENOMEM;
    q->start = calloc(cells + 1, sizeof *q->start);
    return q->start ? NQ_OK : NQ_ENOMEM;
}

int nq_join_quarter_count_part(nq_join_quarter *q, unsigned part,
                               const nq_stop_flag *stop)
{
    return run_part(q, part, 0, stop);
}

int nq_join_quarter_index(nq_join_quarter *q, uint64_t max_bytes)
{
    const size_t cells = (size_t)1 << (q->rows + q->cols);
    uint64_t total = 0;
    for (size_t i = 0; i < cells; i++) {
        uint32_t c = q->start[i + 1];
        if (c > q->largest)
            q->largest = c;
        total += c;
        if (total > UINT32_MAX)
            return NQ_ENOMEM;
        q->start[i + 1] = (uint32_t)total;
        if ((i + 1) % ((size_t)1 << q->cols) == 0) { /* the end of a row set */
            const uint32_t r = q->start[i + 1] - q->start[i + 1 - ((size_t)1 << q->cols)];
            if (r > q->largest_rows)
                q->largest_rows = r;
        }
    }
    q->count = (size_t)total;
    if (total * sizeof *q->entry + (cells + 1) * sizeof *q->start > max_bytes)
        return NQ_ENOMEM;
    /* (never malloc(0): the empty placement is an entry of cell 0) */
    q->entry = malloc((size_t)total * sizeof *q->entry);
    return q->entry ? NQ_OK : NQ_ENOMEM;
}

/* The second pass: start[i] runs from the start of cell i to its end,
 * which is the start of cell i + 1; nq_join_quarter_end() shifts it back. */
int nq_join_quarter_fill_part(nq_join_quarter *q, unsigned part,
                              const nq_stop_flag *stop)
{
    return run_part(q, part, 1, stop);
}

void nq_join_quarter_end(nq_join_quarter *q)
{
    const size_t cells = (size_t)1 << (q->rows + q->cols);
    memmove(q->start + 1, q->start, cells * sizeof *q->start);
    q->start[0] = 0;
}

int nq_join_quarter_build(nq_join_quarter *q, unsigned rows, unsigned cols,
                          uint64_t max_bytes, const nq_stop_flag *stop)
{
    unsigned parts, i;
    int rc = nq_join_quarter_begin(q, rows, cols, max_bytes);
    parts = nq_join_quarter_parts(q);
    for (i = 0; rc == NQ_OK && i < parts; i++)
        rc = nq_join_quarter_count_part(q, i, stop);
    if (rc == NQ_OK)
        rc = nq_join_quarter_index(q, max_bytes);
    for (i = 0; rc == NQ_OK && i < parts; i++)
        rc = nq_join_quarter_fill_part(q, i, stop);
    if (rc != NQ_OK) {
        nq_join_quarter_free(q);
        return rc;
    }
    nq_join_quarter_end(q);
    return NQ_OK;
}

void nq_join_quarter_free(nq_join_quarter *q)
{
    if (!q)
        return;
    free(q->start);
    free(q->entry);
    memset(q, 0, sizeof *q);
}

/* A frame index from a board index: frame = board - base. */
static uint64_t to_frame(uint64_t board_bits, int base)
{
    return base >= 0 ? board_bits >> base : board_bits << -base;
}

int nq_join_half_keys(nq_join_keys *out, nq_join_pieces *scratch,
                      const nq_join_quarter *q, const nq_join_half *g,
                      uint32_t rows, const nq_join_kernel *kernel,
                      nq_join_cursor *cur, size_t cap)
{
    const unsigned t = q->rows, h = q->cols;
    const uint32_t top = rows & ((1u << t) - 1u), bottom = rows >> t;
    nq_join_cut cut;
    cut.top.start = q->start + ((size_t)top << h);
    cut.top.entry = q->entry;
    cut.bottom.start = q->start + ((size_t)bottom << h);
    cut.bottom.entry = q->entry;
    cut.k = (unsigned)__builtin_popcount(top);
    cut.h = h;
    /* both pieces are of a t-row table: the bottom's d1 moves down by t,
     * the top's d2 by t; the frame's d2 is at board index + base2 */
    cut.top_shift1 = 0;
    cut.top_shift2 = t;
    cut.bottom_shift1 = t;
    cut.bottom_shift2 = 0;
    cut.base2 = (int)g->c0 + (int)g->n - 2 * (int)t;
    return nq_join_cut_keys(out, scratch, &cut, g, kernel, cur, cap);
}

int nq_join_cut_keys(nq_join_keys *out, nq_join_pieces *scratch, const nq_join_cut *cut,
                     const nq_join_half *g, const nq_join_kernel *kernel,
                     nq_join_cursor *cur, size_t cap)
{
    const unsigned h = cut->h, k = cut->k;
    const uint32_t all = (1u << h) - 1u;
    const uint32_t *tstart = cut->top.start, *bstart = cut->bottom.start;
    const int base2 = cut->base2;
    nq_join_frame ft, fb;
    ft.shift1 = cut->top_shift1;
    ft.shift2 = cut->top_shift2;
    ft.bar1 = to_frame(g->bar1, (int)g->c0);
    ft.bar2 = to_frame(g->bar2, base2);
    ft.s1 = g->lo1 - g->c0;
    ft.s2 = (unsigned)((int)g->lo2 - base2);
    ft.len1 = g->len1;
    ft.mask1 = (1ull << g->len1) - 1u;
    ft.mask2 = (1ull << g->len2) - 1u;
    ft.sieve = g->sieve;
    ft.need = g->need;
    /* Both row sets' pieces at once where they fit the scratch: two takes
     * rather than two per cell, the barred pieces kept and marked so that
     * each cell's pieces stay where the table has them. */
    const size_t top0 = tstart[0], bottom0 = bstart[0];
    const size_t ntop = tstart[(size_t)1 << h] - top0;
    const size_t nbottom = bstart[(size_t)1 << h] - bottom0;
    const int whole = kernel->rows_at_once && ntop <= scratch->room && nbottom <= scratch->room;
    ft.keep = whole;
    ft.own = whole ? NQ_JOIN_MARK_TOP : 0;
    ft.other = whole ? NQ_JOIN_MARK_BOTTOM : 0;
    fb = ft;
    fb.shift1 = cut->bottom_shift1;
    fb.shift2 = cut->bottom_shift2;
    fb.own = ft.other;
    fb.other = ft.own;
    if (whole) {
        kernel->take(&scratch->top, cut->top.entry + top0, ntop, &ft);
        kernel->take(&scratch->bottom, cut->bottom.entry + bottom0, nbottom, &fb);
    }

    out->count = 0;
    if (!cur->started) {
        cur->started = 1;
        cur->c = k ? (1u << k) - 1u : 0;
        cur->i = 0;
    }
    while (!cur->done) {
        const uint32_t c = cur->c;
        const size_t ti = c, bi = all & ~c;
        const size_t na0 = tstart[ti + 1] - tstart[ti];
        const size_t nb0 = bstart[bi + 1] - bstart[bi];
        nq_join_piece_list tl = scratch->top, bl = scratch->bottom;
        size_t na = 0, nb = 0;
        if (whole && na0 && nb0) {
            const size_t at = tstart[ti] - top0, bt = bstart[bi] - bottom0;
            tl.d1 += at, tl.d2 += at, tl.key += at;
            bl.d1 += bt, bl.d2 += bt, bl.key += bt;
            na = na0;
            nb = nb0;
        } else if (na0 && nb0) {
            na = kernel->take(&tl, cut->top.entry + tstart[ti], na0, &ft);
            nb = na ? kernel->take(&bl, cut->bottom.entry + bstart[bi], nb0, &fb) : 0;
        }
        if (na && nb) {
            /* the longer list is the inner, wide loop */
            nq_join_piece_list outer = na <= nb ? tl : bl;
            const nq_join_piece_list *inner = na <= nb ? &bl : &tl;
            const size_t no = na <= nb ? na : nb, ni = na <= nb ? nb : na;
            const uint64_t all_pairs = (uint64_t)no * ni + 8u;
            if (cur->i == 0 && out->count + all_pairs <= cap) {
                /* the whole cell in one call */
                if (out->count + all_pairs > out->cap &&
                    nq_join_keys_reserve(out, (size_t)all_pairs) != NQ_OK)
                    return NQ_ENOMEM;
                out->count += kernel->pairs(out->keys + out->count, &outer, no, inner, ni);
            } else {
                outer.d1 += cur->i, outer.d2 += cur->i, outer.key += cur->i;
                for (size_t i = cur->i; i < no; i++) {
                    if (out->count && out->count + ni + 8 > cap) {
                        cur->i = i; /* the batch is full: go on here next time */
                        return NQ_OK;
                    }
                    if (out->count + ni + 8 > out->cap) {
                        /* room for the rest of the cell, or for the batch */
                        size_t room = (no - i) * ni + 8;
                        if (out->count + room > cap)
                            room = out->count + ni + 8 <= cap ? cap - out->count : ni + 8;
                        if (nq_join_keys_reserve(out, room) != NQ_OK)
                            return NQ_ENOMEM;
                    }
                    out->count += kernel->pairs(out->keys + out->count, &outer, 1, inner, ni);
                    outer.d1++, outer.d2++, outer.key++;
                }
            }
        }
        cur->i = 0;
        if (c == 0 || c == all) {
            cur->done = 1;
            break;
        }
        {   /* next column set of k bits (Gosper) */
            uint32_t low = c & (0u - c), ripple = c + low;
            cur->c = ripple | (((c ^ ripple) >> 2) / low);
            if (cur->c > all)
                cur->done = 1;
        }
    }
    return NQ_OK;
}
