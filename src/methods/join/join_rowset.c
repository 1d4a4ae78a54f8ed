/*
 * join_rowset.c - a half's keys from its two quarters, listed for the
 * split at hand: the table's way (join_quarter.c) without the table.
 *
 * The quarter table files every placement of every row set once, which
 * takes gigabytes from n = 24 and does not fit its index beyond n = 25.
 * A split needs only four of its row sets: the top and bottom quarters
 * of its east and west halves. So each is listed when a split needs it,
 * by a small walk over its rows, and kept in a slot of the unit's
 * scratch; the next split of the unit lists only the quarters that
 * changed. The splits of a unit are neighbours in colexicographic order,
 * where the highest rows change least: the bottom quarters stay for many
 * splits, the top ones change.
 *
 * Where the cut goes. The table cuts every half at the same row; here
 * each half is cut after its ceil(h / 2)-th row, so that both quarters
 * hold about half its queens: the fullest quarter then has 0.2 million
 * pieces at n = 24 and 4.1 million at n = 28 (counted over 300 random
 * splits), where a fixed cut gives row sets of up to 0.8 million at
 * n = 24. A quarter with more pieces than its slot may hold (a memory
 * limit) is not listed: that half is walked instead (join_keys.c).
 *
 * Pieces are kept in the table's form (d1 in the low 32 bits, d2 in the
 * high ones), each quarter in its own frame: row offsets from its first
 * row, d2 measured from its own height. Pairs meet as in the table's
 * listing (nq_join_cut_keys()), the kernels doing the work.
 */
#include "join_rowset.h"

#include "join_bits.h"

#include <stdlib.h>
#include <string.h>

typedef struct rowset_walk {
    unsigned rows[NQ_MAX_N / 2], nrows, height, h;
    uint32_t *start;
    uint64_t *entry;
    size_t total, max;
    int fill;
} rowset_walk;

/* Every placement of a queen on each of the rows from i on: counted per
 * column set (start[c + 1]), or filed (start[c] moving on); the count
 * stops once it passes w->max. */
static void place_rows(rowset_walk *w, unsigned i, uint32_t cols, uint32_t d1, uint32_t d2)
{
    const unsigned r = w->rows[i];
    uint32_t free = nq_join_free_squares(w->height, w->h, r, cols, d1, d2);
    if (i + 1 == w->nrows) {
        for (; free; free &= free - 1) {
            const uint32_t bit = free & (0u - free);
            const uint32_t c = cols | bit;
            if (w->fill)
                w->entry[w->start[c]++] =
                    (uint64_t)(d2 | bit << (w->height - 1u - r)) << 32 | (d1 | bit << r);
            else
                w->start[c + 1]++;
            w->total++;
        }
        return;
    }
    for (; free && w->total <= w->max; free &= free - 1) {
        const uint32_t bit = free & (0u - free);
        place_rows(w, i + 1, cols | bit, d1 | bit << r, d2 | bit << (w->height - 1u - r));
    }
}

/* Whether a quarter of `count` pieces, `largest` in its fullest cell,
 * is too large for a slot of max pieces (nq_join_rowset_bytes()). */
static int too_large(size_t count, size_t largest, size_t max)
{
    return count > max || largest > max / NQ_JOIN_ROWSET_CELL_SHARE + 8u;
}

/* Lists the quarter `id` (row offsets in its low 32 bits, its height
 * above) into rs, unless it holds it already or is too large for max
 * (*over set). A slot serves one plan, so one h. @return NQ_OK,
 * NQ_ENOMEM. */
static int rowset_list(nq_join_rowset *rs, uint64_t id, unsigned h, size_t max, int *over)
{
    const size_t cells = (size_t)1 << h;
    const uint32_t offsets = (uint32_t)id;
    rowset_walk w;
    *over = 0;
    if (rs->id == id) {
        *over = too_large(rs->count, rs->largest, max);
        return NQ_OK;
    }
    rs->id = 0;
    if (!rs->start) {
        rs->start = malloc((cells + 1) * sizeof *rs->start);
        if (!rs->start)
            return NQ_ENOMEM;
    }
    memset(&w, 0, sizeof w);
    for (unsigned r = 0; r < 32; r++)
        if (offsets >> r & 1u)
            w.rows[w.nrows++] = r;
    w.height = (unsigned)(id >> 32);
    w.h = h;
    w.max = max;
    w.start = rs->start;
    memset(rs->start, 0, (cells + 1) * sizeof *rs->start);
    place_rows(&w, 0, 0, 0, 0);
    rs->largest = 0;
    for (size_t c = 0; c < cells && w.total <= max; c++) {
        if (rs->start[c + 1] > rs->largest)
            rs->largest = rs->start[c + 1];
        rs->start[c + 1] += rs->start[c];
    }
    if (too_large(w.total, rs->largest, max)) {
        *over = 1;
        return NQ_OK;
    }
    if (w.total > rs->cap) {
        uint64_t *e = realloc(rs->entry, w.total * sizeof *e);
        if (!e)
            return NQ_ENOMEM;
        rs->entry = e;
        rs->cap = w.total;
    }
    rs->count = w.total;
    /* the second pass moves each start to its cell's end */
    w.fill = 1;
    w.entry = rs->entry;
    w.total = 0;
    w.max = SIZE_MAX;
    place_rows(&w, 0, 0, 0, 0);
    memmove(rs->start + 1, rs->start, cells * sizeof *rs->start);
    rs->start[0] = 0;
    rs->id = id;
    return NQ_OK;
}

int nq_join_pieces_reserve(nq_join_pieces *p, size_t room)
{
    nq_join_piece_list *lists[2] = { &p->top, &p->bottom };
    if (room <= p->room && p->top.d1) /* (8 pieces of padding at least) */
        return NQ_OK;
    for (unsigned i = 0; i < 2; i++) {
        uint64_t **arrays[3] = { &lists[i]->d1, &lists[i]->d2, &lists[i]->key };
        for (unsigned j = 0; j < 3; j++) {
            uint64_t *a = realloc(*arrays[j], (room + 8) * sizeof **arrays[j]);
            if (!a)
                return NQ_ENOMEM;
            *arrays[j] = a;
        }
    }
    p->room = room;
    return NQ_OK;
}

/* The quarter of rows row[from .. to) in its own frame: its row offsets
 * from row[from] and its height, as a slot's id. */
static uint64_t quarter_id(const unsigned *row, unsigned from, unsigned to)
{
    uint32_t offsets = 0;
    for (unsigned i = from; i < to; i++)
        offsets |= 1u << (row[i] - row[from]);
    return (uint64_t)(row[to - 1] - row[from] + 1u) << 32 | offsets;
}

int nq_join_rowset_keys(nq_join_keys *out, nq_join_pieces *scratch, nq_join_rowset *slot,
                        size_t max_pieces, const nq_join_half *g, uint32_t rows,
                        const nq_join_kernel *kernel, nq_join_cursor *cur, size_t cap,
                        int *walk)
{
    const unsigned n = g->n, h = n / 2;
    /* a piece's diagonals fit 32 bits: height - 1 + h - 1 < 32 */
    const unsigned tallest = 33u - h;
    unsigned row[NQ_MAX_N], nrows = 0, k = 0;
    nq_join_cut cut;
    int rc, over = 0;
    *walk = 1;
    for (unsigned r = 0; r < n; r++)
        if (rows >> r & 1u)
            row[nrows++] = r;
    if (nrows < 2)
        return NQ_OK; /* (never from a split of n >= NQ_JOIN_MIN_N) */
    /* the cut: after the half's k-th row, k as near nrows / 2 as both
     * quarters' heights allow */
    for (unsigned d = 0; d < nrows && !k; d++) {
        const unsigned mid = (nrows + 1) / 2;
        const unsigned tries[2] = { mid + d, mid - d };
        for (unsigned i = 0; i < 2 && !k; i++)
            if (tries[i] >= 1 && tries[i] < nrows && row[tries[i] - 1] - row[0] < tallest &&
                row[nrows - 1] - row[tries[i]] < tallest)
                k = tries[i];
    }
    if (!k)
        return NQ_OK;
    rc = rowset_list(&slot[0], quarter_id(row, 0, k), h, max_pieces, &over);
    if (rc == NQ_OK && !over)
        rc = rowset_list(&slot[1], quarter_id(row, k, nrows), h, max_pieces, &over);
    if (rc == NQ_OK && !over) {
        const size_t room = slot[0].largest > slot[1].largest ? slot[0].largest
                                                              : slot[1].largest;
        rc = nq_join_pieces_reserve(scratch, room);
    }
    if (rc != NQ_OK || over)
        return rc;
    *walk = 0;
    cut.top.start = slot[0].start;
    cut.top.entry = slot[0].entry;
    cut.bottom.start = slot[1].start;
    cut.bottom.entry = slot[1].entry;
    cut.k = k;
    cut.h = h;
    /* frames: each quarter's d1 counts from its first row; its d2 from
     * its last (the diagonal c - r + n - 1 of board row r is the piece's
     * c + (last - r), moved by n - 1 - last), so the pair's d2 is at
     * board index + n - 1 - (the bottom's last row) + c0 */
    {
        /* (or lower, to the key window's first diagonal, if that is below:
         * a key's bits are read upwards from the frame's) */
        const unsigned lowest = g->c0 + n - 1u - row[nrows - 1];
        const unsigned base2 = g->lo2 < lowest ? g->lo2 : lowest;
        cut.top_shift1 = row[0];
        cut.bottom_shift1 = row[k];
        cut.top_shift2 = row[nrows - 1] - row[k - 1] + (lowest - base2);
        cut.bottom_shift2 = lowest - base2;
        cut.base2 = (int)base2;
    }
    return nq_join_cut_keys(out, scratch, &cut, g, kernel, cur, cap);
}

void nq_join_rowset_free(nq_join_rowset *rs)
{
    free(rs->start);
    free(rs->entry);
    memset(rs, 0, sizeof *rs);
}
