/*
 * nq_cuts: what two ways of cutting an even board into halves would cost
 * the join, priced on a random sample of their row splits. Not a count:
 * the price of a cut before it is built.
 *
 *   halves   the cut of today's join (join_method.c): west columns 0 ..
 *            h - 1, east h .. n - 1, h = n / 2; a split is the h rows
 *            whose queen is east.
 *   middle2  the two middle columns h - 1 and h taken out first, as an
 *            odd board takes out its middle one: their queens in rows m1
 *            and m2 (not attacking each other), their four diagonals
 *            barred to both halves of h - 1 columns, which share the
 *            other n - 2 rows.
 *   middle1  on odd boards, today's cut (for the check of the price
 *            against measured counts).
 *
 * For each sampled split both halves' placements are counted by a plain
 * walk, and the split is priced as join_split.c meets it: the keys listed
 * (east + west) and the meetings of a stored block of 512 keys with an
 * item, about 0.67^k of the pairs for k bucket bits, k as join_split.c
 * picks it from the longer list (more bits need longer lists to fill a
 * block). halves and middle1 are weighed as the count weighs them
 * (split_work()); middle2 counts every split and takes a quarter. Printed
 * per cut: the number of splits, the sums over the count of the keys and
 * of the meetings (estimated from the sample, each with its relative
 * standard error), the keys per quarter piece of the halves walked
 * (join_quarter.c), and the seconds the sample took. Multiplied by the
 * seconds a key and a meeting of one machine, the sums price the cuts.
 *
 * With CHECK 1 (n <= 14) every split of each cut is listed in full and
 * its disjoint pairs counted: the sum must be Q(n) (status 1 if not).
 *
 * usage: nq_cuts N [SAMPLES [SEED [CHECK]]]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_arg.h"
#include "common/nqc_random.h"
#include "bench_sample.h"
#include "methods/join/join_bits.h"
#include "methods/join/join_geometry.h"

#define MAX_N 28u
#define BLOCK 512.0
#define MAX_CUTS 13u
#define SIEVE 0.67

typedef struct half {
    unsigned n, c0, w;       /* columns c0 .. c0 + w - 1 */
    unsigned rows[MAX_N];    /* its rows, w of them */
    uint64_t bar1, bar2;     /* diagonals r + c and c - r + n - 1 barred */
    uint64_t *d1, *d2;       /* CHECK: the placements' diagonals */
    size_t count, cap;
} half;

/* How many of the two long diagonals (r + c = n - 1 and c = r: bit n - 1
 * of each direction) a placement with diagonals d1, d2 holds: its class. */
static unsigned long_class(unsigned n, uint64_t d1, uint64_t d2)
{
    return (unsigned)(d1 >> (n - 1) & 1u) + (unsigned)(d2 >> (n - 1) & 1u);
}

/* The half's placements of its rows i .. last - 1 (indices into g->rows).
 * With `per`, each is counted by the column set it takes into per[] (a
 * quarter's pieces); else counted in cls[] by class (long_class()), and
 * with g->d1 listed too. */
static void walk_rows(half *g, unsigned i, unsigned last, uint32_t cols, uint64_t d1,
                      uint64_t d2, double *cls, uint64_t *per)
{
    if (i == last && per) {
        per[cols]++;
        return;
    }
    if (i == last) {
        cls[long_class(g->n, d1, d2)] += 1.0;
        if (g->d1) {
            if (g->count == g->cap) {
                g->cap = g->cap ? 2 * g->cap : 1024;
                g->d1 = realloc(g->d1, g->cap * sizeof *g->d1);
                g->d2 = realloc(g->d2, g->cap * sizeof *g->d2);
                if (!g->d1 || !g->d2) {
                    fputs("nq_cuts: out of memory\n", stderr);
                    exit(1);
                }
            }
            g->d1[g->count] = d1;
            g->d2[g->count++] = d2;
        }
        return;
    }
    const unsigned r = g->rows[i];
    for (unsigned c = 0; c < g->w; c++) {
        const unsigned col = g->c0 + c;
        const uint64_t b1 = 1ull << (r + col), b2 = 1ull << (col + g->n - 1 - r);
        if (cols >> c & 1u || (d1 | g->bar1) & b1 || (d2 | g->bar2) & b2)
            continue;
        walk_rows(g, i + 1, last, cols | 1u << c, d1 | b1, d2 | b2, cls, per);
    }
}

/* Every placement of the whole half, counted by class into cls[]. */
static void walk(half *g, double *cls)
{
    walk_rows(g, 0, g->w, 0, 0, 0, cls, NULL);
}

/* The quarter pieces that make a half's keys (join_quarter.c): its rows
 * above row t and those below, each set of pieces filed by columns, the
 * pieces of the column sets that have a partner counted. */
static double pieces(half *g, unsigned t, uint64_t *top, uint64_t *bottom)
{
    const uint32_t all = (1u << g->w) - 1u;
    unsigned k = 0;
    double p = 0;
    while (k < g->w && g->rows[k] < t)
        k++;
    memset(top, 0, ((size_t)all + 1) * sizeof *top);
    memset(bottom, 0, ((size_t)all + 1) * sizeof *bottom);
    walk_rows(g, 0, k, 0, 0, 0, NULL, top);
    walk_rows(g, k, g->w, 0, 0, 0, NULL, bottom);
    for (uint32_t c = 0; c <= all; c++)
        if (top[c] && bottom[all & ~c])
            p += (double)(top[c] + bottom[all & ~c]);
    return p;
}

static uint64_t rng_state;
static uint64_t rng(void)
{
    return nqc_splitmix64(&rng_state);
}

/* A random subset of k of the rows in `free` (a bit set). */
static uint32_t random_subset(uint32_t free, unsigned k)
{
    unsigned list[MAX_N], m = 0;
    uint32_t s = 0;
    for (unsigned r = 0; r < 32; r++)
        if (free >> r & 1u)
            list[m++] = r;
    for (unsigned i = 0; i < k; i++) { /* partial Fisher-Yates */
        unsigned j = i + (unsigned)(rng() % (m - i)), t = list[i];
        list[i] = list[j];
        list[j] = t;
        s |= 1u << list[i];
    }
    return s;
}

/* Bucket bits for lists whose longer holds `longer` keys (join_split.c). */
static unsigned cuts_for(double longer)
{
    unsigned k = 0;
    while (k < MAX_CUTS && longer >= BLOCK * (double)(1u << k))
        k++;
    return k;
}

/* The meetings of lists of a and b keys sorted by k bucket bits: each
 * block of the longer meets the part of the shorter that can be
 * disjoint from it. */
static double meetings(double a, double b, unsigned k)
{
    const double longer = a > b ? a : b, shorter = a > b ? b : a;
    return ceil(longer / BLOCK) * shorter * pow(SIEVE, (double)k);
}

/* The two halves of a split: east rows `rows` of `free`, the middle
 * queens' diagonals in bar1, bar2, and to the east half also `east_bar`
 * of both directions; west columns 0 .. w - 1, east the last w columns. */
static void set_halves(half *e, half *wh, unsigned n, unsigned w, uint32_t rows,
                       uint32_t free, uint64_t bar1, uint64_t bar2, uint64_t east_bar)
{
    unsigned ie = 0, iw = 0;
    e->n = wh->n = n;
    e->w = wh->w = w;
    wh->c0 = 0;
    e->c0 = n - w;
    wh->bar1 = bar1;
    wh->bar2 = bar2;
    e->bar1 = bar1 | east_bar;
    e->bar2 = bar2 | east_bar;
    for (unsigned r = 0; r < n; r++) {
        if (!(free >> r & 1u))
            continue;
        if (rows >> r & 1u)
            e->rows[ie++] = r;
        else
            wh->rows[iw++] = r;
    }
}

/* Disjoint pairs of the two halves' listed placements into p[c], c the
 * west placement's class (how many long diagonals it holds). */
static void pairs(const half *e, const half *wh, unsigned n, uint64_t p[3])
{
    p[0] = p[1] = p[2] = 0;
    for (size_t j = 0; j < wh->count; j++) {
        const unsigned c = long_class(n, wh->d1[j], wh->d2[j]);
        for (size_t i = 0; i < e->count; i++)
            p[c] += !(e->d1[i] & wh->d1[j]) && !(e->d2[i] & wh->d2[j]);
    }
}

typedef struct cut {
    const char *name;
    unsigned w, middles;
} cut;

/* The middle queens of a split: none, (m1) in column w, or (m1, m2) in
 * columns w and w + 1. @return 0 when they attack each other. */
static int middle(unsigned n, const cut *c, unsigned m1, unsigned m2, uint32_t *free,
                  uint64_t *bar1, uint64_t *bar2)
{
    *free = (1u << n) - 1u;
    *bar1 = *bar2 = 0;
    if (c->middles >= 1) {
        *free &= ~(1u << m1);
        *bar1 |= 1ull << (m1 + c->w);
        *bar2 |= 1ull << (c->w + n - 1 - m1);
    }
    if (c->middles == 2) {
        const uint64_t b1 = 1ull << (m2 + c->w + 1), b2 = 1ull << (c->w + 1 + n - 1 - m2);
        if (m1 == m2 || (*bar1 & b1) || (*bar2 & b2))
            return 0;
        *free &= ~(1u << m2);
        *bar1 |= b1;
        *bar2 |= b2;
    }
    return 1;
}

/* How the count weighs split (m1, rows) of cut c: 0 when another split of
 * its orbit is counted instead, else its weight, with *classed (the east
 * half keeps off both long diagonals and the west keys are met class by
 * class) and *none_weight (what a pair of class 0 counts: 0, 1 or 2), as
 * join_geometry.c says. middle2 has no orbit of its own: every split
 * counts once (and costs a quarter of the sum of its four images). */
static uint64_t orbit(unsigned n, const cut *c, unsigned m1, uint32_t rows, uint32_t free,
                      int *classed, int *none_weight)
{
    uint64_t w;
    *classed = 0;
    *none_weight = 0;
    if (c->middles == 2)
        return 1;
    if (c->middles == 1 && m1 > n / 2)
        return 0; /* the units hold m = 0 .. n / 2 only */
    w = nq_join_split_orbit(n, c->middles ? m1 : 0u, rows, free, none_weight);
    *classed = *none_weight >= 0;
    return w;
}

/* CHECK: every split of cut c listed, the sum of its disjoint pairs. */
static uint64_t check(unsigned n, const cut *c)
{
    half e = { 0 }, wh = { 0 };
    uint64_t total = 0;
    const unsigned mm = c->middles ? n : 1;
    e.d1 = malloc(8);
    e.d2 = malloc(8);
    wh.d1 = malloc(8);
    wh.d2 = malloc(8);
    for (unsigned m1 = 0; m1 < mm; m1++)
        for (unsigned m2 = 0; m2 < (c->middles == 2 ? n : 1u); m2++) {
            uint32_t free;
            uint64_t bar1, bar2;
            if (!middle(n, c, m1, m2, &free, &bar1, &bar2))
                continue;
            for (uint32_t rows = 0; rows < 1u << n; rows++) {
                if ((rows & ~free) || (unsigned)__builtin_popcount(rows) != c->w)
                    continue;
                int classed, nw;
                const uint64_t w = orbit(n, c, m1, rows, free, &classed, &nw);
                const uint64_t longd = classed ? 1ull << (n - 1) : 0;
                uint64_t p[3];
                double cls[3];
                if (!w)
                    continue;
                set_halves(&e, &wh, n, c->w, rows, free, bar1, bar2, longd);
                e.count = wh.count = 0;
                walk(&e, cls);
                walk(&wh, cls);
                pairs(&e, &wh, n, p);
                total += w * (classed ? (uint64_t)nw * p[0] + 2 * p[1] + 4 * p[2]
                                      : p[0] + p[1] + p[2]);
            }
        }
    free(e.d1);
    free(e.d2);
    free(wh.d1);
    free(wh.d2);
    return total;
}

/* The keys (*keys) and meetings (*meet) that a split costs the count, as
 * join_split.c weighs it; returns the quarter pieces of its halves.
 * A split the count leaves out (orbit()) costs nothing; a classed one
 * lists the west keys of class 0 only where they count, and meets the
 * west keys class by class, or all at once where the east list fits one
 * block. */
static double split_work(unsigned n, const cut *c, unsigned m1, uint32_t free, uint32_t rows,
                         uint64_t bar1, uint64_t bar2, double *keys, double *meet,
                         uint64_t *top, uint64_t *bottom)
{
    half e = { 0 }, wh = { 0 };
    const uint64_t longd = 1ull << (n - 1);
    double ce[3] = { 0, 0, 0 }, cw[3] = { 0, 0, 0 };
    int classed, none_weight;
    *keys = *meet = 0.0;
    if (!orbit(n, c, m1, rows, free, &classed, &none_weight))
        return 0.0;
    set_halves(&e, &wh, n, c->w, rows, free, bar1, bar2, classed ? longd : 0);
    walk(&e, ce);
    const double ne = ce[0] + ce[1] + ce[2];
    if (ne > 0.0)
        walk(&wh, cw);
    if (!classed) {
        const double nw = cw[0] + cw[1] + cw[2];
        *keys = ne + nw;
        *meet = meetings(ne, nw, cuts_for(ne > nw ? ne : nw));
    } else {
        const double nw = cw[1] + cw[2] + (none_weight ? cw[0] : 0.0);
        const unsigned k = cuts_for(ne > nw ? ne : nw);
        *keys = ne + nw;
        if (ne <= BLOCK) /* the weighted split: one block, every west key */
            *meet = ne > 0.0 ? nw : 0.0;
        else
            *meet = meetings(ne, cw[1], k) + meetings(ne, cw[2], k) +
                    (none_weight ? meetings(ne, cw[0], k) : 0.0);
    }
    return pieces(&e, n / 2, top, bottom) + pieces(&wh, n / 2, top, bottom);
}

int main(int argc, char **argv)
{
    uint64_t n = 0, samples = 200, seed = 1, check_all = 0;
    int wrong = 0;
    static const char *const argn[] = { "N", "SAMPLES", "SEED", "CHECK" };
    uint64_t *const nums[] = { &n, &samples, &seed, &check_all };
    bench_args(argc, argv, "nq_cuts", "N [SAMPLES [SEED [CHECK]]]", 4, 4, argn, nums);
    if (n < 6 || n > MAX_N || samples < 2 || (check_all && n > 14)) {
        fputs("nq_cuts: N from 6 to 28 (to 14 with CHECK), SAMPLES at least 2\n", stderr);
        return 2;
    }
    const cut cuts[3] = { { "halves", (unsigned)n / 2, 0 },
                          { "middle2", (unsigned)n / 2 - 1, 2 },
                          { "middle1", (unsigned)n / 2, 1 } };
    uint64_t *top = malloc(sizeof *top << (n / 2)), *bottom = malloc(sizeof *bottom << (n / 2));
    double *skeys = malloc((size_t)samples * sizeof *skeys),
           *smeet = malloc((size_t)samples * sizeof *smeet);
    if (!top || !bottom || !skeys || !smeet) {
        fputs("nq_cuts: out of memory\n", stderr);
        return 1;
    }
    rng_state = seed;
    printf("cut\tsplits\tkeys\tkeys_rse\tmeetings\tmeetings_rse\tkeys_per_piece\tseconds\n");
    for (unsigned ci = 0; ci < 3; ci++) {
        const cut *c = &cuts[ci];
        const unsigned nn = (unsigned)n;
        double splits, scale, sk = 0, sp = 0;
        clock_t t0;
        unsigned pairs_m = 0;
        if ((c->middles == 1) != (nn & 1u))
            continue;
        if (check_all) {
            /* Q(6) .. Q(14) (OEIS A000170) */
            static const uint64_t known[9] = { 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596 };
            const uint64_t q = check(nn, c);
            printf("%s\tQ(%u) = %llu\t%s\n", c->name, nn, (unsigned long long)q,
                   q == known[nn - 6] ? "ok" : "WRONG");
            wrong |= q != known[nn - 6];
            continue;
        }
        /* the number of (middle rows, split) of the cut */
        for (unsigned m1 = 0; m1 < (c->middles ? nn : 1u); m1++)
            for (unsigned m2 = 0; m2 < (c->middles == 2 ? nn : 1u); m2++) {
                uint32_t f;
                uint64_t b1, b2;
                pairs_m += (unsigned)middle(nn, c, m1, m2, &f, &b1, &b2);
            }
        splits = pairs_m * (double)nq_join_binomial(nn - c->middles, c->w);
        /* middle2 counts every split and takes a quarter (its four images
         * cost the same); the others weigh their splits as the count does */
        scale = c->middles == 2 ? splits / 4.0 : splits;
        t0 = clock();
        for (uint64_t s = 0; s < samples; s++) {
            uint32_t free;
            uint64_t bar1, bar2;
            unsigned m1, m2;
            double k, m;
            do {
                m1 = (unsigned)(rng() % nn);
                m2 = (unsigned)(rng() % nn);
            } while (!middle(nn, c, m1, m2, &free, &bar1, &bar2));
            sp += split_work(nn, c, m1, free, random_subset(free, c->w), bar1, bar2, &k, &m,
                             top, bottom);
            sk += k;
            skeys[s] = k;
            smeet[s] = m;
        }
        {
            double mk, sek, mm, sem;
            bench_mean_se(&mk, &sek, skeys, (size_t)samples);
            bench_mean_se(&mm, &sem, smeet, (size_t)samples);
            printf("%s\t%.0f\t%.4g\t%.3f\t%.4g\t%.3f\t%.1f\t%.1f\n", c->name, splits,
                   mk * scale, mk > 0 ? sek / mk : 0.0, mm * scale, mm > 0 ? sem / mm : 0.0,
                   sp > 0 ? sk / sp : 0.0, (double)(clock() - t0) / CLOCKS_PER_SEC);
        }
    }
    free(top);
    free(bottom);
    free(skeys);
    free(smeet);
    return wrong;
}
