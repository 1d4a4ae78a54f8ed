/*
 * bench_transpose.h - what nq_transpose.c and nq_transpose_odd.c share:
 * a half's keys listed by a plain walk with its part (the columns whose
 * queen is south, counted from the middle out, read as the smaller of
 * itself and its complement), the part's class against a split's own,
 * the box order's weights and rectangles, and the price of meeting two
 * lists as the join meets them. See nq_transpose.c.
 */
#ifndef NQ_BENCH_TRANSPOSE_H
#define NQ_BENCH_TRANSPOSE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methods/join/join_geometry.h"

#define NO_MU 255u

#define BLOCK 512u
#define MAX_CUTS 13u
#define NCAT 7u

typedef struct key {
    uint64_t d1, d2; /* diagonals r + c and r - c + n - 1 */
    unsigned part;    /* the half's part of C, read as phi reads it */
    unsigned mu;      /* odd boards: min(m', n - 1 - m') if the half holds
                         the middle row, m' its queen's column; else NO_MU */
    unsigned bucket, cat;
} key;

typedef struct list {
    key *k;
    size_t n, cap;
} list;

static inline void push(list *l, const key *x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->k = realloc(l->k, l->cap * sizeof *l->k);
        if (!l->k) {
            fputs("nq_transpose: out of memory\n", stderr);
            exit(1);
        }
    }
    l->k[l->n++] = *x;
}

/* The smaller of a set and its complement within `avail`. */
static inline unsigned psi(unsigned y, unsigned avail)
{
    const unsigned c = ~y & avail;
    return y < c ? y : c;
}

/* A half's walk: rows `rows` (a bit per board row), the half's columns
 * c0 .. c0 + h - 1, diagonals bar1 and bar2 barred; on odd boards the
 * middle row h (the rows from n - h on are south) records its column. */
typedef struct walk {
    unsigned n, h, c0, east;
    list *out;
} walk;

static inline void place(const walk *w, uint32_t left, unsigned cols, uint64_t d1, uint64_t d2,
                         unsigned south, unsigned mid)
{
    if (!left) {
        const unsigned full = (1u << w->h) - 1u;
        unsigned avail = full, mu = NO_MU;
        if (mid != NO_MU) { /* the middle row's column is not in C */
            const unsigned c = w->c0 + mid;
            avail &= ~(1u << (w->east ? mid : w->h - 1 - mid));
            mu = c < w->n - 1 - c ? c : w->n - 1 - c;
        }
        key x = { d1, d2, psi(south, avail), mu, 0, 0 };
        push(w->out, &x);
        return;
    }
    const unsigned r = (unsigned)__builtin_ctz(left);
    for (unsigned j = 0; j < w->h; j++) {
        const unsigned c = w->c0 + j;
        const uint64_t b1 = 1ull << (r + c), b2 = 1ull << (r + w->n - 1 - c);
        if (cols >> j & 1u || d1 & b1 || d2 & b2)
            continue;
        /* the south part counted from the middle out */
        const unsigned s = r >= w->n - w->h ? 1u << (w->east ? j : w->h - 1 - j) : 0u;
        const unsigned md = (w->n & 1u) && r == w->h ? j : mid;
        place(w, left & (left - 1u), cols | 1u << j, d1 | b1, d2 | b2, south | s, md);
    }
}

/* Lists into *out every placement of half `east` (1) or west on `rows`,
 * with diagonals bar1 and bar2 barred. */
static inline void list_half(list *out, unsigned n, uint32_t rows, unsigned east, uint64_t bar1,
                             uint64_t bar2)
{
    walk w = { n, n / 2, east ? n - n / 2 : 0u, east, out };
    out->n = 0;
    place(&w, rows, 0, bar1, bar2, 0, NO_MU);
    for (size_t i = 0; i < out->n; i++) { /* the bars are no key's */
        out->k[i].d1 &= ~bar1;
        out->k[i].d2 &= ~bar2;
    }
}

/* A part's class against phi(R) = (x0, y0): 0 below y0, 1 at y0, 2
 * between, 3 at x0, 4 above x0 (x0 = y0: 1 at both, never 2 or 3). */
static inline unsigned cat_of(unsigned v, unsigned x0, unsigned y0)
{
    if (v < y0)
        return 0;
    if (v == y0)
        return 1;
    if (v < x0)
        return 2;
    return v == x0 ? 3 : 4;
}

/* The weight of a pair under the other order of phi, smaller half first
 * ("box"): (min(a, b), max(a, b)) against (y0, x0). A pair with a part
 * below y0 lies below phi(R) whatever the other: 0. Both above y0: 2.
 * One at y0: the larger decides, against x0. */
static inline unsigned box_weight_of(unsigned ca, unsigned cb, unsigned x0, unsigned y0)
{
    const unsigned hi = ca > cb ? ca : cb, lo = ca > cb ? cb : ca;
    if (lo == 0)
        return 0;
    if (lo >= 2)
        return 2;
    if (x0 == y0) /* lo is at y0 = x0: hi above it, or at it */
        return hi == 4 ? 2 : 1;
    return hi == 4 ? 2 : hi == 3 ? 1 : 0;
}

/* Bucket bits as the join picks them: each bucket of the longer list
 * about a block. */
static inline unsigned pick_cuts(size_t longer)
{
    unsigned k = 0;
    while (k < MAX_CUTS && longer >= ((size_t)BLOCK << k))
        k++;
    return k;
}

/* The bucket of a key: k bits, half of them (rounded up) the middle
 * diagonals r + c around n - 1, the rest r - c + n - 1 around n - 1. */
static inline unsigned bucket_of(const key *x, unsigned k, unsigned n)
{
    const unsigned k1 = (k + 1) / 2, k2 = k - k1;
    const unsigned lo1 = n - 1 - k1 / 2, lo2 = n - 1 - k2 / 2;
    const unsigned b1 = k1 ? (unsigned)(x->d1 >> lo1) & ((1u << k1) - 1u) : 0u;
    const unsigned b2 = k2 ? (unsigned)(x->d2 >> lo2) & ((1u << k2) - 1u) : 0u;
    return b1 | b2 << k1;
}

static inline int by_cat_bucket(const void *a, const void *b)
{
    const key *x = a, *y = b;
    const unsigned kx = x->cat << 16 | x->bucket, ky = y->cat << 16 | y->bucket;
    return (kx > ky) - (kx < ky);
}

typedef struct price {
    double keys, blocks, meetings;
} price;

/* Meets the stored list s (sorted by class, then bucket) with the items'
 * counts cnt[class][bucket]: blocks of up to BLOCK stored keys, inside
 * one class when `by_class`, each meeting the items of every class it
 * may pair with (all of them without classes) in the buckets disjoint
 * from one of its own. */
static inline void meet(const list *s, const double *cnt, unsigned k, int by_class,
                 const unsigned *allow, price *p)
{
    const unsigned nb = 1u << k;
    unsigned char *want = malloc(nb);
    for (size_t f = 0; f < s->n;) {
        size_t end = f + BLOCK < s->n ? f + BLOCK : s->n;
        if (by_class)
            for (size_t i = f + 1; i < end; i++)
                if (s->k[i].cat != s->k[f].cat) {
                    end = i;
                    break;
                }
        memset(want, 0, nb);
        for (size_t i = f; i < end; i++) {
            const unsigned rest = ~s->k[i].bucket & (nb - 1u);
            if (i > f && s->k[i].bucket == s->k[i - 1].bucket &&
                s->k[i].cat == s->k[i - 1].cat)
                continue;
            for (unsigned b = rest;; b = (b - 1u) & rest) {
                want[b] = 1;
                if (!b)
                    break;
            }
        }
        for (unsigned c = 0; c < NCAT; c++)
            if (!by_class || allow[s->k[f].cat * NCAT + c])
                for (unsigned b = 0; b < nb; b++)
                    if (want[b])
                        p->meetings += cnt[c * nb + b];
        p->blocks += 1.0;
        f = end;
    }
    free(want);
}

/* Prices one rectangle of the pairs: the keys of e whose class is in
 * emask (bit per class) against those of w in wmask, as the join would
 * meet two such lists: bucket bits from the longer, which is stored. */
static inline void price_rect(const list *e, const list *w, unsigned emask, unsigned wmask,
                       unsigned n, double *cnt, price *p)
{
    list a = { 0 }, b = { 0 };
    price best = { 0 };
    for (size_t i = 0; i < e->n; i++)
        if (emask >> e->k[i].cat & 1u)
            push(&a, &e->k[i]);
    for (size_t i = 0; i < w->n; i++)
        if (wmask >> w->k[i].cat & 1u)
            push(&b, &w->k[i]);
    for (unsigned side = 0; a.n && b.n && side < 2; side++) {
        /* either list stored: the cheaper of the two, fills weighed */
        const list *s = side ? &b : &a, *it = side ? &a : &b;
        const unsigned k = pick_cuts(s->n > it->n ? s->n : it->n);
        price q = { 0 };
        for (size_t i = 0; i < s->n; i++) {
            s->k[i].bucket = bucket_of(&s->k[i], k, n);
            s->k[i].cat = 0;
        }
        memset(cnt, 0, sizeof *cnt * NCAT << k);
        for (size_t i = 0; i < it->n; i++)
            cnt[bucket_of(&it->k[i], k, n)] += 1.0;
        qsort(s->k, s->n, sizeof *s->k, by_cat_bucket);
        meet(s, cnt, k, 0, NULL, &q);
        if (!side || q.meetings + 650.0 * q.blocks < best.meetings + 650.0 * best.blocks)
            best = q;
    }
    p->meetings += best.meetings;
    p->blocks += best.blocks;
    free(a.k);
    free(b.k);
}

/* The box's rectangles: both parts above y0 (weight 2), and those with
 * a part at y0 (weighed by class), in a tie and not. A key with its part
 * below y0 is in none: it need not be listed. */
static const unsigned rect_box[2][4][2] = {
    { { 0x1cu, 0x1cu }, { 1u << 1, 0x1eu }, { 0x1cu, 1u << 1 }, { 0, 0 } },
    { { 1u << 4, 1u << 4 }, { 1u << 1, 0x12u }, { 1u << 4, 1u << 1 }, { 0, 0 } },
};

/* How many of the rectangles r hold the pair of classes ca (east), cb. */
static inline unsigned in_rects(const unsigned (*r)[2], unsigned ca, unsigned cb)
{
    unsigned c = 0;
    for (; r[0][0]; r++)
        c += (r[0][0] >> ca & 1u) && (r[0][1] >> cb & 1u);
    return c;
}

/* The join's own weighing of split (m, rows) (join_geometry.c,
 * join_split.c): 0 when another split of its orbit is counted; else its
 * weight, and with classes 3 the east half barred from the long
 * diagonals, each pair weighed again by its west key's (none_weight, 2
 * or 4 as it holds none, one or both of them). */
typedef struct join_weights {
    uint64_t orbit, bar1[2], bar2[2];
    int none_weight;
    unsigned classes;
} join_weights;

static inline void join_weights_of(join_weights *j, unsigned n, unsigned m, uint32_t rows,
                                   uint32_t free_rows)
{
    j->orbit = nq_join_split_orbit(n, m, rows, free_rows, &j->none_weight);
    j->classes = j->none_weight >= 0 ? 3u : 1u;
    nq_join_split_bars(n, m, j->classes, j->bar1, j->bar2);
}

static inline uint64_t join_pair_weight(const join_weights *j, const key *west, unsigned n)
{
    const unsigned held = (unsigned)(west->d1 >> (n - 1) & 1u) + (unsigned)(west->d2 >> (n - 1) & 1u);
    if (j->classes == 1)
        return j->orbit;
    return j->orbit * (held == 0 ? (uint64_t)j->none_weight : held == 1 ? 2u : 4u);
}

/* The next h-subset after r in colexicographic order. */
static inline uint32_t next_subset(uint32_t r)
{
    const uint32_t t = r | (r - 1u);
    return (t + 1u) | (((~t & -~t) - 1u) >> ((unsigned)__builtin_ctz(r) + 1u));
}

#endif /* NQ_BENCH_TRANSPOSE_H */
