/*
 * nq_transpose: the one symmetry of the square that the join leaves
 * unused, the transposition, priced before it is built.
 *
 * The join counts solutions by their row split R (the rows whose queen
 * stands in the east half) and uses the two flips, which map splits to
 * splits (join_method.c). Transposing the board maps a solution to one
 * whose row split is the first's column split C: the columns whose queen
 * stands in the south half, rows h .. n-1. So solutions with (R, C) and
 * with (C, R) are equally many, and for any order of the splits
 *   Q(n) = 2 * #{phi(C) > phi(R)} + #{phi(C) = phi(R)}.
 * phi here: a split's two halves (rows or columns 0 .. h-1 and h ..
 * n-1), each an h-bit set counted from the middle out and read as the
 * smaller of itself and its complement; the pair as (larger, smaller).
 * The flips swap the halves or complement both, so phi does not change
 * under them, and a split's four images still weigh it (not the join's
 * long diagonals' classes: see check_join()). C's west
 * half (its "part") comes from the west placement alone, its east part
 * from the east one: a split counts the pairs whose parts lie at or
 * above phi(R) = (x0, y0), twice above it and once at it. A part's class
 * says where it lies: below y0, at y0, between, at x0, above x0.
 *
 * For one even n and a systematic sample of SPLITS row splits (all of
 * them when SPLITS is 0), both halves are listed by a plain walk, and
 * each way of meeting them priced as the join meets keys: the longer
 * list stored in blocks of 512 keys sorted by bucket (k bucket bits as
 * the join picks them, from the middle diagonals of each direction;
 * unlike the join, nothing squeezed), each block meeting the items of
 * the buckets disjoint from one of its own. Priced, per variant, the
 * blocks filled and the meetings of a block with an item:
 *   today       all pairs, as the join meets them now;
 *   today, cheaper side   the same, the list stored that costs less;
 *   classes     both lists sorted by class, then bucket; a block holds
 *               one class and meets the classes it may pair with;
 *   rectangles  the pairs at or above phi(R) cut into disjoint
 *               rectangles of classes, each met as two lists of its own
 *               (bucket bits from the longer, the cheaper side stored);
 *   part bit    one more key bit, set in a key whose part is low (below
 *               x0): the match drops a pair of low parts as it drops a
 *               shared diagonal, and that bit is a bucket bit too (with
 *               k - 1 or k diagonal bits); every pair it lets through
 *               counts twice, and the few at phi(R)'s edge that should
 *               count once or not at all are met again as rectangles;
 *   box         the other order of phi, the smaller half first: a pair
 *               with a part below y0 lies below phi(R) whatever the
 *               other part, so such keys need not even be listed; the
 *               pairs of parts both above y0 (weight 2) are one
 *               rectangle, those with a part at y0 a few more.
 * Last, the splits that each weighing counts are priced against each
 * other (price_weighings()): the four images under the flips, which the
 * orders need, with and without the box, over the join's own weighting
 * (the north-south flip, the east half barred from the long diagonals,
 * the west list met class by class), work and keys.
 * Work is meetings plus 650 per block filled (the AVX-512 match's
 * fill_items_vpopcnt, join_kernel.c), each variant's against today's.
 * Listing and sorting are not priced: they stay as they are (but for
 * the class of a key's part), except in the box, which lists only the
 * keys it pairs (the share printed).
 *
 * With CHECK 1 every pair of every sampled split is tested as well, and
 * with every split listed (SPLITS 0) the program fails (status 1)
 * unless each of these equals the plain count, which is Q(n): the
 * weighted count of either order, over all splits and over the flips'
 * smallest images with their weights, and the counts by the part bit,
 * by the rectangles and by the box's rectangles.
 *
 * usage: nq_transpose N [SPLITS [CHECK]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"

#include "bench_transpose.h"

/* phi of the row split: its north rows from the middle up, its south
 * rows from the middle down. */
static void phi_rows(uint32_t rows, unsigned h, unsigned *x0, unsigned *y0)
{
    unsigned a = 0, b = 0;
    for (unsigned r = 0; r < 2 * h; r++)
        if (rows >> r & 1u) {
            if (r < h)
                a |= 1u << (h - 1 - r);
            else
                b |= 1u << (r - h);
        }
    a = psi(a, (1u << h) - 1u);
    b = psi(b, (1u << h) - 1u);
    *x0 = a > b ? a : b;
    *y0 = a > b ? b : a;
}

/* The weight of a pair whose parts have classes ca and cb: 2 above
 * phi(R), 1 at it, 0 below (a class's values all compare alike). */
static unsigned weight_of(unsigned ca, unsigned cb, unsigned x0, unsigned y0)
{
    const unsigned hi = ca > cb ? ca : cb, lo = ca > cb ? cb : ca;
    const int tie = x0 == y0;
    if (hi == 4)
        return 2;
    if (tie) /* hi is 1 or below */
        return hi == 1 && lo == 1 ? 1 : 0;
    if (hi == 3)
        return lo >= 2 ? 2 : lo == 1 ? 1 : 0;
    return 0;
}


/* The rectangles (east classes, west classes: a bit per class) that
 * cover the pairs at or above phi(R) once each, in a tie and not; and
 * those of the pairs that the part bit lets through at twice the weight
 * they should have. Ended by {0, 0}. */
static const unsigned rect_cover[2][5][2] = {
    { { 1u << 4, 0x1fu }, { 0xfu, 1u << 4 }, { 1u << 3, 0xeu }, { 0x6u, 1u << 3 }, { 0, 0 } },
    { { 1u << 4, 0x1fu }, { 0x3u, 1u << 4 }, { 1u << 1, 1u << 1 }, { 0, 0 }, { 0, 0 } },
};
static const unsigned rect_edge[2][3][2] = {
    { { 1u << 3, 0x3u }, { 0x3u, 1u << 3 }, { 0, 0 } },
    { { 1u << 1, 0x3u }, { 0x1u, 1u << 1 }, { 0, 0 } },
};


/* Whether a part is low: below x0 (in a tie, below it). A pair of low
 * parts lies below phi(R); as a key bit, the match drops such pairs. */
static unsigned low_of(unsigned cat, int tie)
{
    return tie ? cat == 0 : cat <= 2;
}

/* Prices the part's bit as one more key bit and bucket bit: kd bucket
 * bits of diagonals and the low bit above them, every pair the match
 * counts weighed 2; the pairs at phi(R)'s edge that it counts 2 and
 * should count 1 or 0 (a part at x0 with one at y0 or below it; in a
 * tie, at x0 with one at or below it) counted again by rectangles. */
static void price_bit(const list *e, const list *w, unsigned kd, unsigned x0, unsigned y0,
                      unsigned n, double *cnt, price *p)
{
    const int tie = x0 == y0;
    const list *s = e->n >= w->n ? e : w, *it = e->n >= w->n ? w : e;
    list c = { 0 };
    memset(cnt, 0, sizeof *cnt * NCAT << (kd + 1));
    for (size_t i = 0; i < it->n; i++)
        cnt[bucket_of(&it->k[i], kd, n) | low_of(it->k[i].cat, tie) << kd] += 1.0;
    for (size_t i = 0; i < s->n; i++) {
        key x = s->k[i];
        x.bucket = bucket_of(&x, kd, n) | low_of(x.cat, tie) << kd;
        x.cat = 0;
        push(&c, &x);
    }
    qsort(c.k, c.n, sizeof *c.k, by_cat_bucket);
    meet(&c, cnt, kd + 1, 0, NULL, p);
    free(c.k);
    for (const unsigned (*r)[2] = rect_edge[tie]; r[0][0]; r++)
        price_rect(e, w, r[0][0], r[0][1], n, cnt, p);
}

/* The variants priced: today's match, and three of the transposition. */
enum { TODAY, TODAY_SIDE, CLASSES, RECTANGLES, BIT_K, BIT_K1, BOX, VARIANTS };
static const char *const variant_name[VARIANTS] = {
    "today", "today, cheaper side", "classes", "rectangles", "part bit, k bits",
    "part bit, k + 1 bits", "box"
};

typedef struct tally {
    price v[VARIANTS];
    double keys, prod_all, prod_ok, cls[NCAT];
    uint64_t plain, weighted, by_bit, by_rects, reps, box, by_box, box_missed, reps_box;
    uint64_t joined, joined_box;
    price four, four_box, join;
    double four_keys, four_box_keys, join_keys;
    double box_keys;
} tally;

/* CHECK: every pair of the split tested; the weighted count, the count
 * by the part bit (2 a pair it lets through, less the edge's excess) and
 * the flips' smallest images weighted. */
static void check_split(const list *e, const list *w, uint32_t rows, unsigned n,
                        unsigned x0, unsigned y0, tally *t)
{
    const int tie = x0 == y0;
    uint64_t q = 0, bq = 0;
    for (size_t i = 0; i < e->n; i++)
        for (size_t j = 0; j < w->n; j++) {
            const key *a = &e->k[i], *b = &w->k[j];
            if ((a->d1 & b->d1) || (a->d2 & b->d2))
                continue;
            const unsigned wt = weight_of(a->cat, b->cat, x0, y0);
            t->plain++;
            q += wt;
            /* the part bit: 2 a pair it lets through, the edge's pairs
             * counted again, their excess over their weight taken off
             * (the match weighs an item by its class) */
            if (!(low_of(a->cat, tie) && low_of(b->cat, tie)))
                t->by_bit += 2;
            t->by_bit -= in_rects(rect_edge[tie], a->cat, b->cat) * (2u - wt);
            /* the rectangles: weight 2 above phi(R), 1 at it */
            t->by_rects += in_rects(rect_cover[tie], a->cat, b->cat) * (wt == 1 ? 1u : 2u);
            /* the other order: its own weights, and its rectangles */
            const unsigned bw = box_weight_of(a->cat, b->cat, x0, y0);
            t->box += bw;
            bq += bw;
            t->by_box += in_rects(rect_box[tie], a->cat, b->cat) * bw;
            t->box_missed += bw && !in_rects(rect_box[tie], a->cat, b->cat);
        }
    t->weighted += q;
    t->reps += nq_join_split_images(n, 0, rows, (1u << n) - 1u) * q;
    t->reps_box += nq_join_split_images(n, 0, rows, (1u << n) - 1u) * bq;
}

/* CHECK: the split as the join weighs it (bench_transpose.h), each pair
 * also weighed by either order. Printed, not required: the join's
 * classes by the long diagonals weigh a pair by its west half, which the
 * transposition does not keep, so these sums miss Q(n); the orders hold
 * with the four images of each split (nq_join_split_images()) instead. */
static void check_join(unsigned n, uint32_t rows, unsigned x0, unsigned y0, tally *t)
{
    const uint32_t west = ~rows & ((1u << n) - 1u);
    join_weights j;
    list e = { 0 }, w = { 0 };
    join_weights_of(&j, n, 0, rows, (1u << n) - 1u);
    if (!j.orbit)
        return;
    list_half(&e, n, rows, 1, j.bar1[0], j.bar2[0]);
    list_half(&w, n, west, 0, j.bar1[1], j.bar2[1]);
    for (size_t a = 0; a < e.n; a++)
        for (size_t b = 0; b < w.n; b++) {
            if ((e.k[a].d1 & w.k[b].d1) || (e.k[a].d2 & w.k[b].d2))
                continue;
            const unsigned ca = cat_of(e.k[a].part, x0, y0), cb = cat_of(w.k[b].part, x0, y0);
            const uint64_t jw = join_pair_weight(&j, &w.k[b], n);
            t->joined += jw * weight_of(ca, cb, x0, y0);
            t->joined_box += jw * box_weight_of(ca, cb, x0, y0);
        }
    free(e.k);
    free(w.k);
}

/* The splits each weighing counts, priced: the four images (a split
 * counted when it is the smallest of them, its whole lists; the box too),
 * and the join's own (the north-south flip, the east half barred from
 * the long diagonals, the west list met class by class, none of its keys
 * without a long diagonal where its none_weight is 0). */
static void price_weighings(const list *e, const list *w, uint32_t rows, unsigned n, unsigned x0,
                            unsigned y0, double *cnt, tally *t)
{
    join_weights j;
    list e2 = { 0 }, w2 = { 0 };
    if (nq_join_split_images(n, 0, rows, (1u << n) - 1u)) {
        price_rect(e, w, 0x1fu, 0x1fu, n, cnt, &t->four);
        for (const unsigned (*r)[2] = rect_box[x0 == y0]; r[0][0]; r++)
            price_rect(e, w, r[0][0], r[0][1], n, cnt, &t->four_box);
        t->four_keys += (double)(e->n + w->n);
        for (size_t i = 0; i < e->n; i++)
            t->four_box_keys += e->k[i].cat != 0;
        for (size_t i = 0; i < w->n; i++)
            t->four_box_keys += w->k[i].cat != 0;
    }
    join_weights_of(&j, n, 0, rows, (1u << n) - 1u);
    if (!j.orbit)
        return;
    list_half(&e2, n, rows, 1, j.bar1[0], j.bar2[0]);
    list_half(&w2, n, ~rows & ((1u << n) - 1u), 0, j.bar1[1], j.bar2[1]);
    for (size_t i = 0; i < e2.n; i++)
        e2.k[i].cat = 0;
    for (size_t i = 0; i < w2.n; i++) /* the class: long diagonals held */
        w2.k[i].cat = (unsigned)(w2.k[i].d1 >> (n - 1) & 1u) + (unsigned)(w2.k[i].d2 >> (n - 1) & 1u);
    for (unsigned c = j.none_weight > 0 ? 0u : 1u; c < 3; c++)
        price_rect(&e2, &w2, 1u, 1u << c, n, cnt, &t->join);
    t->join_keys += (double)e2.n;
    for (size_t i = 0; i < w2.n; i++)
        t->join_keys += j.none_weight > 0 || w2.k[i].cat > 0;
    free(e2.k);
    free(w2.k);
}

/* Prices one split every way. */
static void price_split(list *e, list *w, uint32_t rows, unsigned n, int check,
                        double *cnt, tally *t)
{
    const unsigned h = n / 2;
    unsigned x0, y0, allow[NCAT][NCAT];
    phi_rows(rows, h, &x0, &y0);
    for (unsigned a = 0; a < NCAT; a++)
        for (unsigned b = 0; b < NCAT; b++)
            allow[a][b] = weight_of(a, b, x0, y0) > 0;
    list_half(e, n, rows, 1, 0, 0);
    list_half(w, n, ~rows & ((1u << n) - 1u), 0, 0, 0);
    const unsigned k = pick_cuts(e->n > w->n ? e->n : w->n);
    double ce[NCAT] = { 0 }, cw[NCAT] = { 0 };
    for (size_t i = 0; i < e->n; i++) {
        e->k[i].bucket = bucket_of(&e->k[i], k, n);
        e->k[i].cat = cat_of(e->k[i].part, x0, y0);
        ce[e->k[i].cat] += 1.0;
    }
    for (size_t i = 0; i < w->n; i++) {
        w->k[i].bucket = bucket_of(&w->k[i], k, n);
        w->k[i].cat = cat_of(w->k[i].part, x0, y0);
        cw[w->k[i].cat] += 1.0;
    }
    t->keys += (double)(e->n + w->n);
    for (unsigned a = 0; a < NCAT; a++) {
        t->cls[a] += ce[a] + cw[a];
        for (unsigned b = 0; b < NCAT; b++) {
            t->prod_all += ce[a] * cw[b];
            t->prod_ok += allow[a][b] ? ce[a] * cw[b] : 0.0;
        }
    }
    if (check) {
        check_split(e, w, rows, n, x0, y0, t);
        check_join(n, rows, x0, y0, t);
    }
    /* the longer list stored, as the join stores it: today without
     * classes, then sorted by class with blocks inside one class */
    const list *s = e->n >= w->n ? e : w, *it = e->n >= w->n ? w : e;
    list flat = { 0 };
    for (size_t i = 0; i < s->n; i++) {
        key x = s->k[i];
        x.cat = 0;
        push(&flat, &x);
    }
    qsort(flat.k, flat.n, sizeof *flat.k, by_cat_bucket);
    qsort(s->k, s->n, sizeof *s->k, by_cat_bucket);
    for (unsigned pass = 0; pass < 2; pass++) {
        memset(cnt, 0, sizeof *cnt * NCAT << k);
        for (size_t i = 0; i < it->n; i++)
            cnt[(pass ? it->k[i].cat : 0u) * (1u << k) + it->k[i].bucket] += 1.0;
        meet(pass ? s : &flat, cnt, k, (int)pass, &allow[0][0], &t->v[pass ? CLASSES : TODAY]);
    }
    free(flat.k);
    /* all pairs as one rectangle: today, the cheaper side stored */
    price_rect(e, w, 0x1fu, 0x1fu, n, cnt, &t->v[TODAY_SIDE]);
    /* the pairs at or above phi(R) as disjoint rectangles of classes */
    for (const unsigned (*r)[2] = rect_cover[x0 == y0]; r[0][0]; r++)
        price_rect(e, w, r[0][0], r[0][1], n, cnt, &t->v[RECTANGLES]);
    /* the other order: the box of parts above y0, and its edge */
    for (const unsigned (*r)[2] = rect_box[x0 == y0]; r[0][0]; r++)
        price_rect(e, w, r[0][0], r[0][1], n, cnt, &t->v[BOX]);
    t->box_keys += (double)(e->n + w->n) - ce[0] - cw[0];
    price_weighings(e, w, rows, n, x0, y0, cnt, t);
    price_bit(e, w, k ? k - 1 : 0, x0, y0, n, cnt, &t->v[BIT_K]);
    price_bit(e, w, k < MAX_CUTS ? k : k - 1, x0, y0, n, cnt, &t->v[BIT_K1]);
}

int main(int argc, char **argv)
{
    uint64_t n = 0, want_splits = 0, check = 0, total = 0, sampled = 0, index = 0;
    static const char *const argn[] = { "N", "SPLITS", "CHECK" };
    uint64_t *const nums[] = { &n, &want_splits, &check };
    bench_args(argc, argv, "nq_transpose", "N [SPLITS [CHECK]]", 3, 3, argn, nums);
    if (n < 4 || n > 28 || n & 1u || check > 1) {
        fputs("nq_transpose: N even, from 4 to 28; CHECK 0 or 1\n", stderr);
        return 2;
    }
    const unsigned h = (unsigned)n / 2;
    for (uint32_t r = (1u << h) - 1u; r < 1u << n; r = next_subset(r))
        total++;
    const uint64_t step = want_splits && want_splits < total ? total / want_splits : 1u;
    list e = { 0 }, w = { 0 };
    static tally t;
    double *cnt = malloc(sizeof *cnt * NCAT << MAX_CUTS);
    if (!cnt)
        return 1;
    for (uint32_t r = (1u << h) - 1u; r < 1u << n; r = next_subset(r), index++)
        if (index % step == step / 2) {
            price_split(&e, &w, r, (unsigned)n, (int)check, cnt, &t);
            sampled++;
        }
    /* work: meetings, and fills weighed at 650 meetings each (AVX-512's
     * fill_items_vpopcnt, join_kernel.c) */
    const price *o = &t.v[TODAY];
    const double wo = o->meetings + 650.0 * o->blocks;
    printf("n = %u: %llu of %llu splits, %.0f keys; pairs below phi(R) dropped: %.3f of the "
           "key pairs\n",
           (unsigned)n, (unsigned long long)sampled, (unsigned long long)total, t.keys,
           1.0 - t.prod_ok / t.prod_all);
    printf("keys by class (below y0, at y0, between, at x0, above x0): %.3f %.3f %.3f %.3f "
           "%.3f\n",
           t.cls[0] / t.keys, t.cls[1] / t.keys, t.cls[2] / t.keys, t.cls[3] / t.keys,
           t.cls[4] / t.keys);
    printf("the box lists %.3f of the keys (none with a part below y0)\n", t.box_keys / t.keys);
    printf("variant\tblocks\tmeetings\tmeetings_ratio\twork_ratio\n");
    for (unsigned v = 0; v < VARIANTS; v++) {
        const price *p = &t.v[v];
        printf("%s\t%.0f\t%.4g\t%.3f\t%.3f\n", variant_name[v], p->blocks, p->meetings,
               p->meetings / o->meetings, (p->meetings + 650.0 * p->blocks) / wo);
    }
    {
        const double jw = t.join.meetings + 650.0 * t.join.blocks;
        printf("weighings (the splits each counts, the cheaper side stored), work and keys over "
               "the join's own:\n");
        printf("four images\t%.3f\t%.3f\n", (t.four.meetings + 650.0 * t.four.blocks) / jw,
               t.four_keys / t.join_keys);
        printf("four images, box\t%.3f\t%.3f\n",
               (t.four_box.meetings + 650.0 * t.four_box.blocks) / jw, t.four_box_keys / t.join_keys);
    }
    if (check) {
        printf("pairs %llu; weighted %llu; by the part bit %llu; smallest images weighted "
               "%llu\n",
               (unsigned long long)t.plain, (unsigned long long)t.weighted,
               (unsigned long long)t.by_bit, (unsigned long long)t.reps);
        printf("by the rectangles %llu; the box's order %llu, by its rectangles %llu, its "
               "smallest images weighted %llu\n",
               (unsigned long long)t.by_rects, (unsigned long long)t.box,
               (unsigned long long)t.by_box, (unsigned long long)t.reps_box);
        printf("as the join weighs its splits: %llu, the box's order %llu\n",
               (unsigned long long)t.joined, (unsigned long long)t.joined_box);
        if (step == 1 && (t.plain != t.weighted || t.plain != t.by_bit ||
                          t.plain != t.by_rects || t.plain != t.reps || t.plain != t.box ||
                          t.plain != t.by_box || t.plain != t.reps_box || t.box_missed)) {
            fputs("nq_transpose: a weighted count differs from the plain one\n", stderr);
            return 1;
        }
    }
    free(cnt);
    free(e.k);
    free(w.k);
    return 0;
}
