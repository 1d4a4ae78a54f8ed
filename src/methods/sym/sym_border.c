/*
 * sym_border.c - the symmetry method's constellations: placements of the
 * border queens, the eight symmetries of the square acting on them, the
 * canonical member of each orbit, the list of canonical constellations
 * (and groups of them), and the interior board that one leaves to walk.
 * See the design note of sym.c for why and how.
 */
#include "sym_border.h"

void nq_sym_map(unsigned g, unsigned n, unsigned r, unsigned c,
                unsigned *r_out, unsigned *c_out)
{
    unsigned m = n - 1;
    switch (g) {
    case 0: *r_out = r; *c_out = c; break;
    case 1: *r_out = c; *c_out = m - r; break;
    case 2: *r_out = m - r; *c_out = m - c; break;
    case 3: *r_out = m - c; *c_out = r; break;
    case 4: *r_out = r; *c_out = m - c; break;
    case 5: *r_out = c; *c_out = r; break;
    case 6: *r_out = m - r; *c_out = c; break;
    default: *r_out = m - c; *c_out = m - r; break;
    }
}

/* The queens of border placement (a, b, c, d), corners counted once. */
static unsigned nq_sym_queens(unsigned n, unsigned a, unsigned b, unsigned c,
                              unsigned d, unsigned qr[4], unsigned qc[4])
{
    unsigned k = 0;
    qr[k] = 0; qc[k++] = a;
    qr[k] = n - 1; qc[k++] = b;
    if (!(c == 0 && a == 0) && !(c == n - 1 && b == 0)) {
        qr[k] = c; qc[k++] = 0;
    }
    if (!(d == 0 && a == n - 1) && !(d == n - 1 && b == n - 1)) {
        qr[k] = d; qc[k++] = n - 1;
    }
    return k;
}

/* Encodes the border positions of the image of a queen set under g; two
 * placements are equal exactly when their keys are. The smallest key of an
 * orbit is its canonical member (see the design note): first the row-0
 * queen nearest the middle column (the left one of two), then the side
 * queens as low as possible (column 0's, then column n-1's), then the
 * bottom queen leftmost. Below n^5 <= 28^5, so it fits 32 bits. */
static uint32_t nq_sym_key(unsigned g, unsigned n, unsigned k,
                           const unsigned qr[4], const unsigned qc[4])
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    for (unsigned i = 0; i < k; i++) {
        unsigned r, col;
        nq_sym_map(g, n, qr[i], qc[i], &r, &col);
        if (r == 0) a = col;
        if (r == n - 1) b = col;
        if (col == 0) c = r;
        if (col == n - 1) d = r;
    }
    unsigned mid = 2 * a > n - 1 ? 2 * a - (n - 1) : (n - 1) - 2 * a;
    return (uint32_t)((((mid * n + a) * n + (n - 1 - c)) * n + (n - 1 - d)) * n + b);
}

int nq_sym_attack(unsigned r1, unsigned c1, unsigned r2, unsigned c2)
{
    return r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2;
}

/* Whether (a, b, c, d) is a border placement of non-attacking queens that
 * is the smallest of its orbit; if so, *stab receives its stabiliser. */
static int nq_sym_canonical(unsigned n, unsigned a, unsigned b, unsigned c,
                            unsigned d, uint8_t *stab)
{
    unsigned qr[4], qc[4];
    /* A corner queen lies on two border lines: both must name it. */
    if ((a == 0) != (c == 0) || (a == n - 1) != (d == 0) ||
        (b == 0) != (c == n - 1) || (b == n - 1) != (d == n - 1))
        return 0;
    unsigned k = nq_sym_queens(n, a, b, c, d, qr, qc);
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = i + 1; j < k; j++)
            if (nq_sym_attack(qr[i], qc[i], qr[j], qc[j]))
                return 0;
    uint32_t own = nq_sym_key(0, n, k, qr, qc);
    unsigned s = 1;
    for (unsigned g = 1; g < 8; g++) {
        uint32_t key = nq_sym_key(g, n, k, qr, qc);
        if (key < own)
            return 0;
        if (key == own)
            s |= 1u << g;
    }
    *stab = (uint8_t)s;
    return 1;
}

unsigned nq_sym_order(uint8_t stab)
{
    unsigned k = 0;
    for (unsigned g = 0; g < 8; g++)
        k += ((unsigned)stab >> g) & 1u;
    return k;
}

/* The interior walk of a constellation (see nq_sym_board). rows, when not
 * NULL, receives the board row of each level. */
void nq_sym_make_board(nq_sym_board *bd, unsigned *rows, unsigned n,
                       const nq_sym_constellation *cn)
{
    unsigned qr[4], qc[4];
    unsigned k = nq_sym_queens(n, cn->a, cn->b, cn->c, cn->d, qr, qc);
    uint32_t inner = ((1u << n) - 1) & ~1u & ~(1u << (n - 1));
    inner &= ~(1u << cn->a);
    unsigned end = n - 1; /* the first row after the last level */
    if (cn->bottom) {
        k--; /* the bottom queen is the walk's (nq_sym_queens lists it second) */
        qr[1] = qr[k];
        qc[1] = qc[k];
        end = n;
    } else {
        inner &= ~(1u << cn->b);
    }
    unsigned lv = 0, prev = 0;
    for (unsigned r = 1; r < end; r++) {
        if (r == cn->c || r == cn->d)
            continue;
        uint32_t m = r == n - 1 ? inner & cn->bottom : inner;
        for (unsigned i = 0; i < k; i++) {
            unsigned t = r > qr[i] ? r - qr[i] : qr[i] - r;
            if (qc[i] >= t)
                m &= ~(1u << (qc[i] - t));
            if (qc[i] + t < n)
                m &= ~(1u << (qc[i] + t));
        }
        if (lv > 0)
            bd->shift[lv - 1] = r - prev;
        if (rows)
            rows[lv] = r;
        bd->allowed[lv++] = m;
        prev = r;
    }
    bd->shift[lv - 1] = 0;
    bd->levels = lv;
}

/* Whether canonical (a, b, c, d) with stabiliser stab may join the group
 * of (a, c, d) (see the design note): a trivial stabiliser and a bottom
 * queen that is not also a side queen. */
static int nq_sym_groups(unsigned n, unsigned b, unsigned c, unsigned d,
                         uint8_t stab)
{
    return stab == 1 && b != 0 && b != n - 1 && c != n - 1 && d != n - 1;
}

/* Walks the border placements in list order; fills cons when not NULL.
 * For each (a, c, d) in turn: the group of its bottom queens, if any, then
 * the canonical placements that cannot join a group, bottom queen from
 * left to right.
 * @return how many entries (groups and single constellations) there are. */
size_t nq_sym_enumerate(unsigned n, nq_sym_constellation *cons)
{
    size_t k = 0;
    for (unsigned a = 0; a < n; a++)
        for (unsigned c = 0; c < n; c++)
            for (unsigned d = 0; d < n; d++) {
                uint32_t single = 0, bottom = 0;
                uint8_t stab[NQ_MAX_N];
                for (unsigned b = 0; b < n; b++) {
                    if (!nq_sym_canonical(n, a, b, c, d, &stab[b]))
                        continue;
                    if (nq_sym_groups(n, b, c, d, stab[b]))
                        bottom |= 1u << b;
                    else
                        single |= 1u << b;
                }
                if (bottom) {
                    if (cons)
                        cons[k] = (nq_sym_constellation){
                            (uint8_t)a, 0, (uint8_t)c, (uint8_t)d, 1, bottom };
                    k++;
                }
                for (; single; single &= single - 1) {
                    unsigned b = (unsigned)__builtin_ctz(single);
                    if (cons)
                        cons[k] = (nq_sym_constellation){
                            (uint8_t)a, (uint8_t)b, (uint8_t)c, (uint8_t)d, stab[b], 0 };
                    k++;
                }
            }
    return k;
}
