/*
 * join_check.c - a unit of the join counted again by the slowest honest
 * means: a backtracking walk of whole boards, row by row, restricted to
 * each row split of the unit, with the split's symmetry weight worked out
 * here from the design note of join_method.c. It shares no code with the count
 * (no keys, quarter table, sieve or kernel; not even the numbering of the
 * splits, which is done again below: only the range of split numbers of
 * each unit comes from the plan), so a fault of those shows up as a unit
 * whose two counts differ. It is for re-checks (nq_recheck()), and
 * for the tests that hold every unit of small boards to it.
 *
 * What a split contributes. Split (m, R): the queens of rows R stand in
 * the east half (the last h columns), those of the other free rows in the
 * west half (the first h), and on an odd board row m holds the middle
 * column's queen. The walk sorts the split's solutions by the two long
 * diagonals (r + c = n - 1 and c = r), which the flips left to right and
 * top to bottom map onto each other: a long diagonal's queen stands in the
 * east half, in the west half, or on neither diagonal. With e and w the
 * long diagonals held by an east and by a west queen, and S[e][w] the
 * solutions so sorted, the count of the design note is
 *  - odd board, m = h (the centre row): every solution of the split,
 *    times the number of distinct images of (m, R) under the two flips,
 *    if (m, R) is the smallest image in the order of (m, R), else none;
 *  - odd board, m < h: 2 (for (n-1-m, reversed R)) times
 *    (z S[0][0] + 2 S[0][1] + 4 S[0][2]), where z is 2 when R is below
 *    its complement and 0 otherwise;
 *  - even board: nothing when the reversal of R is below R; else 1 (R
 *    symmetric) or 2, times (z S[0][0] + 2 S[0][1] + 4 S[0][2]), where
 *    z is 1, 2 or 0 as R equals, is below or is above the smaller of its
 *    complement and the complement's reversal.
 * The solutions whose long diagonals are held on the east side are
 * counted through their images (the flip left to right swaps the halves),
 * those with one long diagonal on each side through the equal number with
 * both in the west; summed over all splits this gives every solution once,
 * which the tests check against the published counts.
 */
#include "join_check.h"

#include "join_bits.h"

/* Polls of the stop flag: every so many nodes of the walk. */
#define CHECK_POLL_MASK 0xffffu

typedef struct walk {
    unsigned n, h, m;        /* m: the middle row, or n on even boards */
    uint32_t east_rows;      /* R */
    uint32_t east_cols, west_cols, all;
    uint64_t sorted[3][3];   /* solutions by long diagonals east, west */
    uint64_t nodes;
    const nq_stop_flag *stop;
    int stopped;
} walk;

/* Places rows row .. n - 1; e, w: long diagonals held so far in the east
 * and in the west half. cols, ld, rd are the usual masks of attacked
 * columns and diagonals for this row. */
static void place(walk *k, unsigned row, uint32_t cols, uint32_t ld, uint32_t rd,
                  unsigned e, unsigned w)
{
    uint32_t allowed;
    if (row == k->n) {
        k->sorted[e][w]++;
        return;
    }
    if ((++k->nodes & CHECK_POLL_MASK) == 0 && nq_stopped(k->stop))
        k->stopped = 1;
    if (k->stopped)
        return;
    if (row == k->m)
        allowed = 1u << k->h;
    else if (k->east_rows >> row & 1u)
        allowed = k->east_cols;
    else
        allowed = k->west_cols;
    for (uint32_t f = allowed & ~(cols | ld | rd); f; f &= f - 1) {
        const uint32_t bit = f & (0u - f);
        const unsigned c = (unsigned)__builtin_ctz(bit);
        const unsigned on_long = (unsigned)(c == row) + (unsigned)(c + row == k->n - 1);
        const int east = (k->east_cols >> c) & 1u;
        place(k, row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1,
              e + (east ? on_long : 0), w + (east || row == k->m ? 0 : on_long));
    }
}

/* C(a, b), by Pascal's rule in 64 bits (a <= 28 here). */
static uint64_t choose(unsigned a, unsigned b)
{
    uint64_t row[32] = { 1 };
    if (b > a)
        return 0;
    for (unsigned i = 1; i <= a; i++)
        for (unsigned j = i; j > 0; j--)
            row[j] += row[j - 1];
    return row[b];
}

/* k-subset of colexicographic rank `rank`: the largest c with C(c, i) <=
 * rank is the i-th element, from the top. */
static uint32_t subset_of_rank(uint64_t rank, unsigned k)
{
    uint32_t set = 0;
    for (unsigned i = k; i >= 1; i--) {
        unsigned c = i - 1;
        while (choose(c + 1, i) <= rank)
            c++;
        rank -= choose(c, i);
        set |= 1u << c;
    }
    return set;
}

static uint32_t mirror(uint32_t rows, unsigned n)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= (rows >> i & 1u) << (n - 1 - i);
    return r;
}

/* The weight of a centre split (odd board, m = h): how many distinct
 * images (m, R) has under the flips, if it is the smallest, else 0. */
static uint64_t centre_weight(unsigned n, unsigned m, uint32_t rows,
                              uint32_t free_rows)
{
    const uint32_t comp = free_rows & ~rows;
    uint64_t img[4];
    uint64_t distinct = 0;
    img[0] = (uint64_t)m << 32 | rows;
    img[1] = (uint64_t)m << 32 | comp;
    img[2] = (uint64_t)(n - 1 - m) << 32 | mirror(rows, n);
    img[3] = (uint64_t)(n - 1 - m) << 32 | mirror(comp, n);
    for (unsigned i = 0; i < 4; i++) {
        unsigned seen = 0;
        if (img[i] < img[0])
            return 0;
        for (unsigned j = 0; j < i; j++)
            seen += img[j] == img[i];
        distinct += seen == 0;
    }
    return distinct;
}

/* The contribution of split number `split` of board n to its unit. */
static uint64_t split_count(walk *k, uint64_t split)
{
    const unsigned n = k->n, h = k->h, odd = n & 1u;
    const uint64_t per_m = choose(n - odd, h);
    uint32_t free_rows = k->all, rows, comp;
    uint64_t ns, z, body;
    unsigned m = n;
    rows = subset_of_rank(split % per_m, h);
    if (odd) {
        m = (unsigned)(split / per_m);
        rows = (rows & ((1u << m) - 1u)) | (rows >> m << (m + 1)); /* skip row m */
        free_rows &= ~(1u << m);
    }
    comp = free_rows & ~rows;
    if (odd && m == h) {
        ns = centre_weight(n, m, rows, free_rows);
        z = 0;
    } else if (odd) {
        ns = 2;
        z = rows < comp ? 2 : 0;
    } else {
        const uint32_t rc = mirror(comp, n), low = rc < comp ? rc : comp;
        if (mirror(rows, n) < rows)
            return 0;
        ns = mirror(rows, n) == rows ? 1 : 2;
        z = low == rows ? 1 : (rows < low ? 2 : 0);
    }
    if (!ns)
        return 0;
    k->m = m;
    k->east_rows = rows;
    for (unsigned a = 0; a < 3; a++)
        for (unsigned b = 0; b < 3; b++)
            k->sorted[a][b] = 0;
    place(k, 0, 0, 0, 0, 0, 0);
    if (odd && m == h) {
        body = 0;
        for (unsigned a = 0; a < 3; a++)
            for (unsigned b = 0; b < 3; b++)
                body += k->sorted[a][b];
    } else {
        body = z * k->sorted[0][0] + 2 * k->sorted[0][1] + 4 * k->sorted[0][2];
    }
    return ns * body;
}

int nq_join_check_unit(const void *plan, uint64_t unit, const nq_stop_flag *stop,
                       nq_unit_result *out)
{
    const nq_join_plan *p = plan;
    uint64_t first, end, total = 0;
    walk k = { 0 };
    int rc;

    if (!out)
        return NQ_EINVAL;
    rc = nq_join_plan_unit_splits(p, unit, &first, &end);
    if (rc != NQ_OK)
        return rc;
    k.n = nq_join_plan_n(p);
    k.h = k.n / 2;
    k.all = k.n ? (uint32_t)((1ull << k.n) - 1u) : 0;
    k.west_cols = (1u << k.h) - 1u;
    k.east_cols = k.west_cols << (k.n - k.h);
    k.stop = stop;
    if (nq_stopped(stop))
        return NQ_ECANCELED;
    if (first == end) {
        /* the one unit of a small board: every placement, no halves */
        k.m = k.n;
        k.east_cols = k.all;
        k.west_cols = 0;
        k.east_rows = k.all;
        place(&k, 0, 0, 0, 0, 0, 0);
        for (unsigned a = 0; a < 3; a++)
            for (unsigned b = 0; b < 3; b++)
                total += k.sorted[a][b];
    }
    for (uint64_t s = first; s < end && !k.stopped; s++)
        total += split_count(&k, s);
    if (k.stopped)
        return NQ_ECANCELED;
    out->total = total;
    out->unique = 0;
    return NQ_OK;
}
