/*
 * Listing: every solution, in lexicographic order, through a callback.
 *
 * The walk is the usual bitmask depth-first search, one row at a time: bit
 * c of a row's mask stands for column c, and the squares attacked from
 * above are the union of the used columns and of the two diagonal masks,
 * which move one bit left and one bit right per row. Taking the lowest free
 * bit first (free & -free) tries columns in increasing order, so solutions
 * come out in lexicographic order of (cols[0], cols[1], ...). The recursion
 * is unrolled into arrays of NQ_MAX_N entries on the stack, so memory does
 * not depend on n's number of solutions, and the cancel flag is looked at
 * every POLL_NODES nodes.
 *
 * Canonical listing keeps a solution only if it is lexicographically the
 * smallest of its eight images under the symmetries of the square; that is
 * checked exactly at the leaf, image by image. Before that, the walk prunes
 * with a necessary condition that costs one mask per row: with c0 = cols[0],
 * every image's first entry must be >= c0, and those first entries are the
 * distances of the queens on the border (last row, first and last column)
 * from their corners. So c0 <= (n - 1) / 2 (mirror image), rows r < c0 and
 * r > n - 1 - c0 may not use column 0 or n - 1 (the transposed images), and
 * the last row's column lies in [c0, n - 1 - c0] (the flipped images).
 */
#include "nqueens.h"
#include "options.h"

/* Nodes visited between two looks at the cancel flag. */
#define POLL_NODES (1u << 16)

static unsigned lowest_bit_index(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(x);
#else
    unsigned i = 0;
    while (!(x & 1u)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* -1, 0, 1 as p is lexicographically below, equal to, above its image
 * under symmetry `sym` (1..7; 0 would be the identity), built in img. */
static int compare_with_image(const uint32_t *p, unsigned n, int sym,
                              uint32_t *img)
{
    unsigned r;
    const unsigned m = n - 1;
    for (r = 0; r < n; r++) {
        switch (sym) {
        case 1: img[r] = m - p[r]; break;            /* mirror left-right */
        case 2: img[m - r] = p[r]; break;            /* flip top-bottom */
        case 3: img[m - r] = m - p[r]; break;        /* rotate 180 */
        case 4: img[p[r]] = r; break;                /* transpose */
        case 5: img[p[r]] = m - r; break;            /* rotate 90 */
        case 6: img[m - p[r]] = r; break;            /* rotate 270 */
        default: img[m - p[r]] = m - r; break;       /* anti-transpose */
        }
    }
    for (r = 0; r < n; r++) {
        if (p[r] != img[r])
            return p[r] < img[r] ? -1 : 1;
    }
    return 0;
}

static int is_canonical(const uint32_t *p, unsigned n)
{
    uint32_t img[NQ_MAX_N];
    int sym;
    for (sym = 1; sym <= 7; sym++) {
        if (compare_with_image(p, n, sym, img) > 0)
            return 0;
    }
    return 1;
}

/* The columns row r may use under the canonical pruning above. */
static uint32_t canonical_mask(unsigned n, unsigned r, uint32_t c0)
{
    const uint32_t edges = 1u | (UINT32_C(1) << (n - 1));
    uint32_t allowed = (UINT32_C(1) << n) - 1u; /* n <= NQ_MAX_N < 32 */
    if (r == 0)
        return (UINT32_C(1) << ((n - 1) / 2 + 1)) - 1u;
    if (r < c0 || r > n - 1 - c0)
        allowed &= ~edges;
    if (r == n - 1) {
        /* columns c0 .. n-1-c0 */
        uint32_t upto = (UINT32_C(1) << (n - c0)) - 1u;
        uint32_t below = (UINT32_C(1) << c0) - 1u;
        allowed &= upto & ~below;
    }
    return allowed;
}

int nq_list(uint64_t *out, unsigned n, const nq_list_options *opts,
            nq_solution_fn fn, void *data)
{
    nq_list_options o;
    uint32_t cols[NQ_MAX_N];
    uint32_t avail[NQ_MAX_N], used[NQ_MAX_N], ld[NQ_MAX_N], rd[NQ_MAX_N];
    uint64_t passed = 0;
    uint32_t full, poll = 0;
    unsigned row = 0;
    int canonical, status = NQ_OK;

    if (out)
        *out = 0;
    if (nq_list_options_load(&o, opts) != NQ_OK)
        return NQ_EVERSION;
    if (!fn)
        return NQ_EINVAL;
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    if (nq_cancel_raised(o.stop))
        return NQ_ECANCELED;
    canonical = o.canonical != 0;

    if (n == 0) {
        /* One solution: the empty board. */
        cols[0] = 0;
        (void)fn(cols, 0, data);
        if (out)
            *out = 1;
        return NQ_OK;
    }

    full = (UINT32_C(1) << n) - 1u;
    used[0] = ld[0] = rd[0] = 0;
    avail[0] = canonical ? canonical_mask(n, 0, 0) : full;
    for (;;) {
        uint32_t bit;
        if (avail[row] == 0) {
            if (row == 0)
                break;
            row--;
            continue;
        }
        if (++poll == POLL_NODES) {
            poll = 0;
            if (nq_cancel_raised(o.stop)) {
                status = NQ_ECANCELED;
                break;
            }
        }
        bit = avail[row] & (0u - avail[row]);
        avail[row] ^= bit;
        cols[row] = lowest_bit_index(bit);
        if (row == n - 1) {
            if (canonical && !is_canonical(cols, n))
                continue;
            passed++;
            if (fn(cols, n, data) != 0)
                break;
            if (o.limit != 0 && passed >= o.limit)
                break;
            continue;
        }
        used[row + 1] = used[row] | bit;
        ld[row + 1] = ((ld[row] | bit) << 1) & full;
        rd[row + 1] = (rd[row] | bit) >> 1;
        avail[row + 1] = full & ~(used[row + 1] | ld[row + 1] | rd[row + 1]);
        if (canonical)
            avail[row + 1] &= canonical_mask(n, row + 1, cols[0]);
        row++;
    }
    if (out)
        *out = passed;
    return status;
}
