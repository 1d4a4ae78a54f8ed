/*
 * nq_transpose_odd: the board's transposition on odd boards, priced as
 * nq_transpose.c prices it on even ones (read that first), in the box
 * order only.
 *
 * On an odd board (n = 2h + 1) the join's split is (m, R): m the row of
 * the middle column's queen, R the h other rows whose queen is east.
 * Transposing maps it to (m', C): m' the column of the middle row's
 * queen, C the columns other than m' whose queen is south (rows h + 1
 * on). The order compares first min(m, n - 1 - m), which the flips leave
 * alone, then the parts as the box does (each half of the split counted
 * from the middle out, m taken out, read as the smaller of itself and
 * its complement; the smaller part first). m' is known to the half that
 * holds the middle row: its keys with min(m', n - 1 - m') below the
 * split's pair with nothing and need not be listed, those above it pair
 * with every key of the other half (weight 2), and the rest meet as the
 * box meets them. A split with m = h, whose halves share no middle row,
 * is the box of an even board.
 *
 * For one odd n and a systematic sample of SPLITS splits (all of them
 * when SPLITS is 0), both halves are listed by a plain walk and priced
 * as nq_transpose.c prices them; here both today's match and the box's
 * rectangles store whichever list of each costs less. With CHECK 1 every
 * pair is tested too, and with every split listed the program fails
 * (status 1) unless the weighted count, the count by the box's
 * rectangles and the flips' smallest images with their weights equal
 * the plain count, which is Q(n).
 *
 * usage: nq_transpose_odd N [SPLITS [CHECK]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"
#include "bench_transpose.h"

/* The classes of the half that holds the middle row, beyond a part's
 * 0 .. 4: its column's distance from the edge above the split's (all
 * pairs, weight 2) or below it (none). */
#define ABOVE 5u
#define BELOW 6u

typedef struct tally {
    price today, box;
    double keys, listed;
    uint64_t plain, weighted, by_rects, reps, joined;
} tally;

/* The weight of a pair of classes ca (east) and cb. */
static unsigned odd_weight(unsigned ca, unsigned cb, unsigned x0, unsigned y0)
{
    if (ca == BELOW || cb == BELOW)
        return 0;
    if (ca == ABOVE || cb == ABOVE)
        return 2;
    return box_weight_of(ca, cb, x0, y0);
}

/* The rectangles of the box, with the middle row's half's keys above the
 * split meeting all of the other half (east holds it: 1, west: 2, none:
 * 0); ended by {0, 0}. */
static void odd_rects(unsigned holder, int tie, unsigned r[5][2])
{
    unsigned i = 0;
    if (holder == 1) {
        r[i][0] = 1u << ABOVE;
        r[i++][1] = 0x1fu;
    } else if (holder == 2) {
        r[i][0] = 0x1fu;
        r[i++][1] = 1u << ABOVE;
    }
    for (unsigned j = 0; rect_box[tie][j][0]; j++, i++) {
        r[i][0] = rect_box[tie][j][0];
        r[i][1] = rect_box[tie][j][1];
    }
    r[i][0] = r[i][1] = 0;
}

/* The part of the split's rows on one side of the middle row, from the
 * middle out, m taken out, read by psi. */
static unsigned rows_part(uint32_t rows, unsigned m, unsigned h, int south)
{
    unsigned p = 0, avail = (1u << h) - 1u;
    for (unsigned i = 0; i < h; i++) {
        const unsigned r = south ? h + 1 + i : h - 1 - i;
        p |= (rows >> r & 1u) << i;
        if (r == m)
            avail &= ~(1u << i);
    }
    return psi(p, avail);
}

/* Each key's class: its part's, or for the half that holds the middle
 * row (holds), ABOVE or BELOW where its column's distance from the edge
 * is not the split's. */
static void classify(list *l, int holds, unsigned mu0, unsigned x0, unsigned y0)
{
    for (size_t i = 0; i < l->n; i++) {
        key *x = &l->k[i];
        x->cat = cat_of(x->part, x0, y0);
        if (holds && x->mu != mu0)
            x->cat = x->mu > mu0 ? ABOVE : BELOW;
    }
}

/* CHECK: the split as the join weighs it (bench_transpose.h), each pair
 * also weighed by the order. Printed, not required: as on even boards
 * (nq_transpose.c), the long diagonals' classes do not hold under the
 * transposition; the four images of each split do. */
static void check_join(unsigned n, unsigned m, uint32_t rows, unsigned holder, unsigned mu0,
                       unsigned x0, unsigned y0, tally *t)
{
    const uint32_t free_rows = ~(1u << m) & ((1u << n) - 1u);
    join_weights j;
    list e = { 0 }, w = { 0 };
    join_weights_of(&j, n, m, rows, free_rows);
    if (!j.orbit)
        return;
    list_half(&e, n, rows, 1, j.bar1[0], j.bar2[0]);
    list_half(&w, n, free_rows & ~rows, 0, j.bar1[1], j.bar2[1]);
    classify(&e, holder == 1, mu0, x0, y0);
    classify(&w, holder == 2, mu0, x0, y0);
    for (size_t a = 0; a < e.n; a++)
        for (size_t b = 0; b < w.n; b++)
            if (!(e.k[a].d1 & w.k[b].d1) && !(e.k[a].d2 & w.k[b].d2))
                t->joined += join_pair_weight(&j, &w.k[b], n) *
                             odd_weight(e.k[a].cat, w.k[b].cat, x0, y0);
    free(e.k);
    free(w.k);
}

static void price_split(list *e, list *w, unsigned m, uint32_t rows, unsigned n, int check,
                        double *cnt, tally *t)
{
    const unsigned h = n / 2, mu0 = m < n - 1 - m ? m : n - 1 - m;
    const unsigned a = rows_part(rows, m, h, 0), b = rows_part(rows, m, h, 1);
    const unsigned x0 = a > b ? a : b, y0 = a > b ? b : a;
    const uint32_t west = ~rows & ~(1u << m) & ((1u << n) - 1u);
    const uint64_t bar = 1ull << (m + h); /* the middle queen's two diagonals */
    const unsigned holder = m == h ? 0u : (rows >> h & 1u) ? 1u : 2u;
    double above = 0, other_low = 0;
    unsigned rects[5][2];
    list_half(e, n, rows, 1, bar, bar);
    list_half(w, n, west, 0, bar, bar);
    for (unsigned side = 0; side < 2; side++) {
        list *l = side ? w : e;
        const int holds = holder == 1 + side;
        classify(l, holds, mu0, x0, y0);
        for (size_t i = 0; i < l->n; i++) {
            const unsigned c = l->k[i].cat;
            above += c == ABOVE;
            t->listed += c != BELOW && c != 0;
            other_low += !holds && c == 0;
        }
    }
    t->keys += (double)(e->n + w->n);
    /* the other half's low keys pair with the keys above the split */
    t->listed += above > 0 ? other_low : 0.0;
    if (check) {
        uint64_t q = 0;
        odd_rects(holder, x0 == y0, rects);
        for (size_t i = 0; i < e->n; i++)
            for (size_t j = 0; j < w->n; j++) {
                const key *p = &e->k[i], *r = &w->k[j];
                if ((p->d1 & r->d1) || (p->d2 & r->d2))
                    continue;
                const unsigned wt = odd_weight(p->cat, r->cat, x0, y0);
                t->plain++;
                q += wt;
                t->by_rects += in_rects((const unsigned (*)[2])rects, p->cat, r->cat) * wt;
            }
        t->weighted += q;
        t->reps += nq_join_split_images(n, m, rows, ~(1u << m) & ((1u << n) - 1u)) * q;
        check_join(n, m, rows, holder, mu0, x0, y0, t);
    }
    odd_rects(holder, x0 == y0, rects);
    price_rect(e, w, 0x7fu, 0x7fu, n, cnt, &t->today);
    for (unsigned i = 0; rects[i][0]; i++)
        price_rect(e, w, rects[i][0], rects[i][1], n, cnt, &t->box);
}

/* The rows of the board other than m, from the bits of a 2h-bit set. */
static uint32_t spread(uint32_t s, unsigned m)
{
    const uint32_t low = s & ((1u << m) - 1u);
    return low | (s & ~((1u << m) - 1u)) << 1;
}

int main(int argc, char **argv)
{
    uint64_t n = 0, want = 0, check = 0, total = 0, sampled = 0, index = 0;
    static const char *const argn[] = { "N", "SPLITS", "CHECK" };
    uint64_t *const nums[] = { &n, &want, &check };
    bench_args(argc, argv, "nq_transpose_odd", "N [SPLITS [CHECK]]", 3, 3, argn, nums);
    if (n < 5 || n > 27 || !(n & 1u) || check > 1) {
        fputs("nq_transpose_odd: N odd, from 5 to 27; CHECK 0 or 1\n", stderr);
        return 2;
    }
    const unsigned h = (unsigned)n / 2;
    for (uint32_t s = (1u << h) - 1u; s < 1u << 2 * h; s = next_subset(s))
        total++;
    total *= n;
    const uint64_t step = want && want < total ? total / want : 1u;
    list e = { 0 }, w = { 0 };
    static tally t;
    double *cnt = malloc(sizeof *cnt * NCAT << MAX_CUTS);
    if (!cnt)
        return 1;
    for (unsigned m = 0; m < n; m++)
        for (uint32_t s = (1u << h) - 1u; s < 1u << 2 * h; s = next_subset(s), index++)
            if (index % step == step / 2) {
                price_split(&e, &w, m, spread(s, m), (unsigned)n, (int)check, cnt, &t);
                sampled++;
            }
    printf("n = %u: %llu of %llu splits, %.0f keys; the box lists %.3f of them\n",
           (unsigned)n, (unsigned long long)sampled, (unsigned long long)total, t.keys,
           t.listed / t.keys);
    printf("variant\tblocks\tmeetings\tmeetings_ratio\twork_ratio\n");
    const double wo = t.today.meetings + 650.0 * t.today.blocks;
    printf("today, cheaper side\t%.0f\t%.4g\t1.000\t1.000\n", t.today.blocks, t.today.meetings);
    printf("box\t%.0f\t%.4g\t%.3f\t%.3f\n", t.box.blocks, t.box.meetings,
           t.box.meetings / t.today.meetings, (t.box.meetings + 650.0 * t.box.blocks) / wo);
    if (check) {
        printf("pairs %llu; weighted %llu; by the box's rectangles %llu; smallest images "
               "weighted %llu\n",
               (unsigned long long)t.plain, (unsigned long long)t.weighted,
               (unsigned long long)t.by_rects, (unsigned long long)t.reps);
        printf("as the join weighs its splits: %llu\n", (unsigned long long)t.joined);
        if (step == 1 && (t.plain != t.weighted || t.plain != t.by_rects || t.plain != t.reps)) {
            fputs("nq_transpose_odd: a weighted count differs from the plain one\n", stderr);
            return 1;
        }
    }
    free(cnt);
    free(e.k);
    free(w.k);
    return 0;
}
