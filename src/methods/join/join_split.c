/*
 * join_split.c - one row split of the join: both halves' keys, their
 * windows and holes, the sieve, and the disjoint pairs counted and
 * weighted by the split's symmetry (see the design note of join_method.c).
 *
 * A unit is a run of numbered splits; join_plan.c finds its first one and
 * hands the run here, with the unit's scratch. The keys come from the
 * quarter table (join_quarter.c) or, when it would not fit, a walk
 * (join_keys.c), in batches of at most s->batch keys: every east batch
 * meets every west batch (the west list listed again per east batch
 * unless it is one batch), so that a unit's scratch stays bounded at any
 * n; the sieve and the match are join_sieve.c's. A split profiled for
 * the cost model (scratch's profile set) reports its keys, buckets and
 * times to join_profile.c, or only probes its halves.
 */
#include "join_split.h"

#include "join_bits.h"
#include "join_geometry.h"
#include "join_keys.h"
#include "join_pass.h"

#include <stdlib.h>
#include <string.h>

/* The next batch of at most `cap` of a half's keys (a little more where
 * one step of the listing cannot be split), from where *at stands. */
static int list_keys(nq_join_scratch *s, nq_join_keys *out, const nq_join_half *g,
                     uint32_t rows, nq_join_cursor *at, size_t cap)
{
    if (s->quarter)
        return nq_join_half_keys(out, &s->pieces, s->quarter, g, rows, s->kernel, at, cap);
    if (s->rowset_pieces && !at->walk) {
        int walk, rc = nq_join_rowset_keys(out, &s->pieces,
                                           s->rowset + (g == &s->ge ? 0 : 2),
                                           s->rowset_pieces, g, rows, s->kernel, at,
                                           cap, &walk);
        if (rc != NQ_OK || !walk)
            return rc;
        at->walk = 1; /* a quarter too large for its slot */
    }
    return nq_join_walk_keys(out, g, rows, at, cap);
}

/* The next batch of a half's keys, from where *at stands. */
static int half_keys(nq_join_scratch *s, nq_join_keys *out, const nq_join_half *g,
                     uint32_t rows, nq_join_cursor *at)
{
    return list_keys(s, out, g, rows, at, s->batch);
}

/* The next batch of a half's keys x with (x & mask) == want, from where
 * *at stands: listed into the spare list and kept into *out until it
 * holds a batch or the half is done; *listed: the keys listed. */
static int kept_keys(nq_join_scratch *s, nq_join_keys *out, const nq_join_half *g,
                     uint32_t rows, nq_join_cursor *at, uint64_t mask, uint64_t want,
                     size_t *listed)
{
    *listed = out->count = 0;
    if (!mask) { /* every key kept: listed straight into *out */
        const int rc = list_keys(s, out, g, rows, at, s->batch);
        return *listed = out->count, rc;
    }
    while (!at->done && out->count < s->batch) {
        nq_join_keys *sp = &s->spare;
        int rc = list_keys(s, sp, g, rows, at, s->batch - out->count);
        *listed += rc == NQ_OK ? sp->count : 0u;
        if (rc == NQ_OK)
            sp->count = nq_join_keep(sp->keys, sp->count, mask, want);
        if (rc == NQ_OK && nq_join_keys_reserve(out, sp->count) != NQ_OK)
            rc = NQ_ENOMEM;
        if (rc != NQ_OK)
            return rc;
        if (sp->count)
            memcpy(out->keys + out->count, sp->keys, sp->count * sizeof *sp->keys);
        out->count += sp->count;
    }
    return NQ_OK;
}

/* Disjoint pairs between the east keys and the west keys of one class,
 * both sorted into nb buckets: the longer list is stored block by block,
 * the shorter streams past each block. */
static int match_class(nq_join_scratch *s, const size_t *woff, uint64_t *out)
{
    const unsigned nb = s->sieve.buckets;
    const size_t ne = s->east_off[nb] - s->east_off[0], nw = woff[nb] - woff[0];
    if (!ne || !nw)
        return NQ_OK;
    if (ne >= nw)
        return nq_join_sieve_match(&s->mt, s->east.keys, s->east_off, s->west.keys, woff, nb, out);
    return nq_join_sieve_match(&s->mt, s->west.keys, woff, s->east.keys, s->east_off, nb, out);
}

/* The chunks of a key that the sieve leaves (at least one). */
static unsigned key_chunks(const nq_join_sieve *sv)
{
    return sv->bits ? (sv->bits + NQ_JOIN_CHUNK_BITS - 1) / NQ_JOIN_CHUNK_BITS : 1u;
}

/* Bucket bits for lists of ne and nw keys: each bucket of the longer list
 * should still fill a block or so. */
static unsigned pick_cuts(const nq_join_scratch *s, size_t ne, size_t nw)
{
    size_t longer = ne > nw ? ne : nw;
    unsigned k = 0;
    if (s->cuts >= 0)
        return (unsigned)s->cuts;
    while (k < NQ_JOIN_MAX_CUTS && longer >= ((size_t)NQ_JOIN_BLOCK << k))
        k++;
    return k;
}

/* Sets both halves' key windows for split east_rows / west_rows (bars
 * already set) and returns the key bits that no pair can clash on
 * (nq_join_split_window()). */
static uint64_t lay_out(nq_join_scratch *s, unsigned n, uint32_t east_rows,
                        uint32_t west_rows, unsigned classes)
{
    unsigned lo1, len1, lo2, len2;
    const uint64_t holes = nq_join_split_window(n, east_rows, west_rows, s->ge.bar1 | s->gw.bar1,
                                        s->ge.bar2 | s->gw.bar2, classes, &lo1, &len1,
                                        &lo2, &len2);
    s->ge.lo1 = s->gw.lo1 = lo1;
    s->ge.len1 = s->gw.len1 = len1;
    s->ge.lo2 = s->gw.lo2 = lo2;
    s->ge.len2 = s->gw.len2 = len2;
    return holes;
}

/* Sorts a batch of keys into classes x buckets (offsets into off), with
 * the spare list as the sort's second array. */
static int sort_keys(nq_join_scratch *s, nq_join_keys *k, unsigned classes,
                     size_t *off)
{
    if (nq_join_keys_reserve(&s->spare, k->count) != NQ_OK)
        return NQ_ENOMEM;
    nq_join_sieve_sort(&s->sieve, k, &s->spare, classes, off, s->sort_count,
                       s->kernel->bins);
    return NQ_OK;
}

/* The next batch of west keys (an empty one when none are left), sorted. */
static int next_batch(nq_join_scratch *s, nq_join_keys *k, const nq_join_half *g,
                      uint32_t rows, nq_join_cursor *at, unsigned classes,
                      size_t *off, double *t)
{
    int rc = half_keys(s, k, g, rows, at);
    if (s->profile && rc == NQ_OK)
        nq_join_profile_keys(s->profile, k->count, t);
    return rc == NQ_OK ? sort_keys(s, k, classes, off) : rc;
}

/* The time since *t was counting pairs: a split of several batches
 * matches between listings, so each match is timed on its own. */
static void profile_match(nq_join_profile *prof, double *t)
{
    const double now = nq_join_cpu_now();
    prof->match_seconds += now - *t;
    *t = now;
}

/* Adds to p[c] the disjoint pairs of the east batch and the west batch of
 * class c, for the classes the split counts (the profile tallies them,
 * and counts them only when asked). */
static int match_batches(nq_join_scratch *s, unsigned classes, int none_weight,
                         uint64_t *p, double *t)
{
    const unsigned nb = s->sieve.buckets;
    const double t0 = s->mt.sample_step > 1 ? nq_join_cpu_now() : 0.0;
    int rc = NQ_OK;
    if (s->profile) {
        for (unsigned c = 0; c < classes; c++)
            if (classes == 1 || c > 0 || none_weight > 0)
                nq_join_profile_pairs(s->profile, s->east_off, s->west_off + c * nb,
                                      nb, &s->mt, 0, t);
        if (!s->profile->match)
            return NQ_OK;
    }
    for (unsigned c = 0; c < classes && rc == NQ_OK; c++)
        if (classes == 1 || c > 0 || none_weight > 0)
            rc = match_class(s, s->west_off + c * nb, &p[c]);
    if (s->mt.sample_step > 1) /* a sample of the blocks: see nq_join_sample_unit */
        s->sampled_seconds += nq_join_cpu_now() - t0;
    if (s->profile)
        profile_match(s->profile, t);
    return rc;
}

/* Whether a split of `classes` classes whose east list has ne keys (done:
 * all of them) is counted weighted: the east list in one block, meeting
 * the whole west list at once, each west key's pairs weighted by its
 * class in the match. Then no list is sorted, and one block is filled
 * rather than one per class (at n = 16 most splits; few from n = 18 on,
 * where longer lists gain more from buckets). Not when the plan's cuts
 * are set (nq_join_plan_set_cuts()): every split is then sorted and
 * counted class by class, which the tests compare with this. */
static int weighted_split(const nq_join_scratch *s, unsigned classes, int done, double ne)
{
    return s->cuts < 0 && classes > 1 && done && ne <= (double)NQ_JOIN_BLOCK;
}

/* The weighted count of a split (weighted_split()): the east keys fill
 * one block, and every batch of west keys meets it, a pair counting
 * none_weight (1 or 2; with 0 no such west key is listed), 2 or 4 times
 * as its west key holds none, one or both long diagonals. */
static int count_weighted(nq_join_scratch *s, uint32_t west_rows, int none_weight,
                          uint64_t *out, double *t)
{
    const unsigned shifts = (none_weight == 2 ? 1u : 0u) | 1u << 2 | 1u << 4 | 2u << 6;
    nq_join_keys *e = &s->east, *w = &s->west;
    uint64_t p = 0;
    int rc = sort_keys(s, e, 1, s->east_off); /* one bin: the flags cleared */
    if (rc != NQ_OK)
        return rc;
    s->mt.fill(s->mt.block, e->keys, e->count, s->mt.chunks);
    for (;;) {
        if (s->profile) {
            const size_t eo[2] = { 0, e->count }, wo[2] = { 0, w->count };
            nq_join_profile_pairs(s->profile, eo, wo, 1, &s->mt, 1, t);
        }
        if ((!s->profile || s->profile->match) &&
            nq_join_match_items(&s->mt, w->keys, w->count, shifts, &p) != NQ_OK)
            return NQ_ECANCELED;
        if (s->profile)
            profile_match(s->profile, t);
        if (s->west_at.done)
            break;
        rc = half_keys(s, w, &s->gw, west_rows, &s->west_at);
        if (s->profile && rc == NQ_OK)
            nq_join_profile_keys(s->profile, w->count, t);
        if (rc != NQ_OK)
            return rc;
    }
    *out = p;
    return NQ_OK;
}

/* Lists the next batch of half g's keys kept_keys() keeps, its bars
 * widened by the diagonals of the key bits `barred` while it lists, so
 * that the listing leaves out whole pieces and branches that hold one;
 * the keys listed go to the profile. */
static int barred_keys(nq_join_scratch *s, nq_join_keys *out, nq_join_half *g,
                       uint32_t rows, nq_join_cursor *at, uint64_t barred, uint64_t mask,
                       uint64_t want, double *t)
{
    const uint64_t b1 = g->bar1, b2 = g->bar2;
    uint64_t more1, more2;
    size_t listed;
    int rc;
    nq_join_pass_bars(&s->sieve, g, barred, &more1, &more2);
    g->bar1 |= more1;
    g->bar2 |= more2;
    rc = kept_keys(s, out, g, rows, at, mask, want, &listed);
    g->bar1 = b1;
    g->bar2 = b2;
    if (s->profile && rc == NQ_OK)
        nq_join_profile_keys(s->profile, listed, t);
    return rc;
}

/* The pairs p[0 .. 2] of a split weighted as count_by_class() says, for a
 * sampled split's east batches too. */
static uint64_t class_weighted(const nq_join_scratch *s, unsigned classes, int none_weight,
                               const uint64_t *p, int sampled)
{
    const uint64_t weight = sampled ? s->sampling->east_step : 1u;
    return weight * (classes == 1 ? p[0]
                                  : (uint64_t)none_weight * p[0] + 2 * p[1] + 4 * p[2]);
}

/* The west list, from its start, batch by batch, listed with the bars of
 * `want`'s bits (so it holds no key with one of them), sorted and met by
 * the sorted east batch. */
static int meet_west(nq_join_scratch *s, uint32_t west_rows, unsigned classes,
                     int none_weight, uint64_t want, uint64_t *p, double *t)
{
    nq_join_keys *w = &s->west;
    int rc = NQ_OK;
    memset(&s->west_at, 0, sizeof s->west_at);
    while (rc == NQ_OK && !s->west_at.done) {
        rc = barred_keys(s, w, &s->gw, west_rows, &s->west_at, want, 0, 0, t);
        if (rc == NQ_OK && w->count)
            rc = sort_keys(s, w, classes, s->west_off);
        if (rc == NQ_OK && w->count)
            rc = match_batches(s, classes, none_weight, p, t);
    }
    return rc;
}

/* The count of a split whose lists both take several batches, by pattern
 * (join_pass.h): both lists counted by pattern, then the east list met
 * pass by pass, each east batch of a pass meeting the west keys its
 * pattern allows. *done is 0 (nothing counted) when no bits are worth a
 * pattern. Sampled as count_by_class() samples east batches. */
static int count_by_pass(nq_join_scratch *s, uint32_t rows, uint32_t west_rows,
                         unsigned classes, int none_weight, uint64_t *out, double *t,
                         int *done)
{
    nq_join_keys *e = &s->east;
    nq_join_sampling *smp = s->sampling;
    const int sampled = smp && smp->east_step > 1;
    uint64_t p[3] = { 0, 0, 0 };
    nq_join_passes *ps = s->passes;
    int rc = NQ_OK;
    *done = 0;
    if (!ps && !(ps = s->passes = malloc(sizeof *ps)))
        return NQ_ENOMEM;
    nq_join_passes_choose(ps, &s->sieve, &s->ge, rows, &s->gw, west_rows);
    if (!ps->bits)
        return NQ_OK;
    *done = 1;
    /* both lists counted by pattern: their first batches, then the rest
     * (the east list's through the spare list, its first batch kept); an
     * east list of fewer than NQ_JOIN_PASS_MIN_BATCHES batches is met in
     * list order after all, on from its first batch */
    const nq_join_cursor first = s->east_at;
    nq_join_passes_count(ps, ps->count, e->keys, e->count);
    nq_join_passes_count(ps, ps->west, s->west.keys, s->west.count);
    for (int half = 0; half < 2 && rc == NQ_OK; half++) {
        nq_join_keys *k = half ? &s->west : &s->spare;
        nq_join_cursor *at = half ? &s->west_at : &s->east_at;
        while (rc == NQ_OK && !at->done) {
            rc = half ? half_keys(s, k, &s->gw, west_rows, at) : half_keys(s, k, &s->ge, rows, at);
            if (s->profile && rc == NQ_OK)
                nq_join_profile_keys(s->profile, k->count, t);
            if (rc == NQ_OK)
                nq_join_passes_count(ps, half ? ps->west : ps->count, k->keys, k->count);
        }
        if (!half && rc == NQ_OK && nq_join_passes_keys(ps) < NQ_JOIN_PASS_MIN_BATCHES * s->batch) {
            *done = 0;
            s->east_at = first;
            return rc;
        }
    }
    if (rc == NQ_OK)
        nq_join_passes_plan(ps, s->batch);
    for (unsigned i = 0; i < ps->npass && rc == NQ_OK; i++) {
        uint64_t mask, want;
        nq_join_pass_filter(ps, i, &mask, &want);
        memset(&s->east_at, 0, sizeof s->east_at);
        while (rc == NQ_OK && !s->east_at.done) {
            rc = barred_keys(s, e, &s->ge, rows, &s->east_at, mask & ~want, mask, want, t);
            if (rc != NQ_OK || !e->count)
                break;
            rc = sort_keys(s, e, 1, s->east_off);
            if (rc == NQ_OK && (!sampled || s->east_seen++ % smp->east_step == 0)) {
                const double t0 = sampled ? nq_join_cpu_now() : 0.0, m0 = s->sampled_seconds;
                rc = meet_west(s, west_rows, classes, none_weight, want, p, t);
                if (sampled) {
                    smp->east_seconds += nq_join_cpu_now() - t0;
                    smp->east_match_seconds += s->sampled_seconds - m0;
                }
            }
        }
    }
    *out = class_weighted(s, classes, none_weight, p, sampled);
    return rc;
}

/* The count of a split class by class (not weighted_split()): both lists
 * sorted into classes and buckets, every east batch meeting every west
 * batch (the west list listed again for each east batch, unless it is
 * one batch), a pair counting none_weight, 2 or 4 times as its west key
 * holds none, one or both long diagonals (once each with one class).
 * Sampled (s->sampling's east_step > 1) where the east list takes
 * several batches: only the batches of the sample's phase meet the west
 * list, their pairs counted east_step times, and the work of meeting it
 * is timed. Where both lists take several batches the east list is met
 * by pattern instead (count_by_pass()), unless the plan says not to. */
static int count_by_class(nq_join_scratch *s, uint32_t rows, uint32_t west_rows,
                          unsigned classes, int none_weight, uint64_t *out, double *t)
{
    nq_join_keys *e = &s->east, *w = &s->west;
    uint64_t p[3] = { 0, 0, 0 };
    nq_join_sampling *smp = s->sampling;
    const int sampled = smp && smp->east_step > 1 && !s->east_at.done;
    int rc, by_pass = 0;
    if (!s->east_at.done && !s->west_at.done && s->passes_on) {
        rc = count_by_pass(s, rows, west_rows, classes, none_weight, out, t, &by_pass);
        if (rc != NQ_OK || by_pass)
            return rc;
    }
    rc = sort_keys(s, w, classes, s->west_off);
    const int whole_west = s->west_at.done;
    for (int first = 1; rc == NQ_OK; first = 0) {
        rc = sort_keys(s, e, 1, s->east_off);
        if (rc == NQ_OK && (!sampled || s->east_seen++ % smp->east_step == 0)) {
            const double t0 = sampled ? nq_join_cpu_now() : 0.0, m0 = s->sampled_seconds;
            if (!first && !whole_west) { /* the west list again, from its start */
                memset(&s->west_at, 0, sizeof s->west_at);
                rc = next_batch(s, w, &s->gw, west_rows, &s->west_at, classes, s->west_off, t);
            }
            while (rc == NQ_OK) {
                rc = match_batches(s, classes, none_weight, p, t);
                if (rc != NQ_OK || s->west_at.done)
                    break;
                rc = next_batch(s, w, &s->gw, west_rows, &s->west_at, classes, s->west_off, t);
            }
            if (sampled) {
                smp->east_seconds += nq_join_cpu_now() - t0;
                smp->east_match_seconds += s->sampled_seconds - m0;
            }
        }
        if (rc != NQ_OK || s->east_at.done)
            break;
        rc = half_keys(s, e, &s->ge, rows, &s->east_at);
        if (s->profile && rc == NQ_OK)
            nq_join_profile_keys(s->profile, e->count, t);
        if (rc != NQ_OK || !e->count)
            break;
    }
    *out = class_weighted(s, classes, none_weight, p, sampled);
    return rc;
}

/* The probed version of a split for the cost model (join_profile.c): its
 * keys and pair work estimated from random walks down its halves, as the
 * count would list and match them. */
static int probe_split(nq_join_scratch *s, uint32_t rows, uint32_t west_rows,
                       unsigned classes, int none_weight)
{
    nq_join_profile *prof = s->profile;
    const unsigned walks = prof->probes;
    const double batch = (double)s->batch;
    double ne, nw;
    int weighted, rc = nq_join_probe_halves(prof, &s->ge, rows, &s->gw, west_rows, &ne, &nw);
    /* the cuts follow the batch where a list takes more than one */
    weighted = weighted_split(s, classes, ne <= batch, ne);
    nq_join_sieve_cuts(&s->sieve, weighted ? 0u
                                           : pick_cuts(s, (size_t)(ne < batch ? ne : batch),
                                                       (size_t)(nw < batch ? nw : batch)));
    /* with more buckets the walks miss more of the small ones that share
     * blocks (join_profile.c): as many more walks as buckets beyond
     * NQ_JOIN_PROBE_BUCKETS (at n = 26, 8,192 buckets, 16,384 walks a
     * half gave 0.80 of the real pair work, 131,072 gave 0.96) */
    if (rc == NQ_OK && s->sieve.buckets > NQ_JOIN_PROBE_BUCKETS) {
        prof->probes = walks * (s->sieve.buckets / NQ_JOIN_PROBE_BUCKETS);
        rc = nq_join_probe_halves(prof, &s->ge, rows, &s->gw, west_rows, &ne, &nw);
    }
    if (rc == NQ_OK) {
        double share = 1.0, east_listed = 0.0, west_listed = 0.0;
        /* as the count does: a west list of several batches is listed
         * again for each east batch after the first; where both lists
         * take several, by pattern: both lists whole (their patterns
         * counted), then what the passes keep, and their pairs */
        const int long_lists = ne > batch && nw > batch && s->passes_on;
        const int passes = long_lists && ne >= NQ_JOIN_PASS_MIN_BATCHES * batch &&
                           nq_join_probe_passes(prof, &s->sieve, batch, &share, &east_listed,
                                                &west_listed);
        prof->keys += ne + (ne > 0.0 ? nw : 0.0);
        if (passes)
            prof->keys += east_listed + west_listed;
        else if (ne > batch && nw > batch) /* the east list counted, in vain */
            prof->keys += nw * (double)(uint64_t)((ne + batch - 1.0) / batch - 1.0) +
                          (long_lists ? ne - batch : 0.0);
        s->mt.chunks = key_chunks(&s->sieve);
        nq_join_probe_pairs(prof, &s->sieve, &s->mt, classes, classes > 1 && none_weight <= 0,
                            weighted, ne > batch ? ne / batch : 1.0,
                            nw > batch ? nw / batch : 1.0, passes ? batch : 0.0);
    }
    prof->probes = walks;
    return rc;
}

/* Solutions of split (m, rows), m = 0 on even boards, weighted as the
 * design note says: `weight` for all pairs when `none_weight` is negative
 * (the centre split of odd boards), else the east half keeps no queen on
 * the two long diagonals and a pair counts none_weight, 2 or 4 times as
 * the west half holds none, one or both of them. */
static int count_split(nq_join_scratch *s, unsigned n, unsigned m, uint32_t rows,
                       uint32_t free_rows, uint64_t weight, int none_weight,
                       uint64_t *out)
{
    const unsigned classes = none_weight >= 0 ? 3u : 1u;
    const uint32_t west_rows = free_rows & ~rows;
    nq_join_keys *e = &s->east, *w = &s->west;
    uint64_t bar1[2], bar2[2], pairs = 0, holes, class_bits = 0;
    double t;
    int rc, weighted;
    nq_join_split_bars(n, m, classes, bar1, bar2);
    s->ge.bar1 = bar1[0];
    s->ge.bar2 = bar2[0];
    s->gw.bar1 = bar1[1];
    s->gw.bar2 = bar2[1];
    /* the pairs of west keys without a long diagonal count none_weight
     * times: when that is 0, such keys are not listed */
    s->ge.need = 0;
    s->gw.need = classes > 1 && none_weight == 0 ? 3ull << NQ_JOIN_CLASS_SHIFT : 0;
    holes = lay_out(s, n, rows, west_rows, classes);
    if (classes > 1)
        class_bits = 1ull << (n - 1 - s->gw.lo1) |
                     1ull << (n - 1 - s->gw.lo2 + s->gw.len1);
    nq_join_sieve_holes(&s->sieve, holes, class_bits, s->gw.len1, s->gw.len2);
    t = s->profile ? nq_join_cpu_now() : 0.0;
    if (s->profile && s->profile->probes) {
        *out = 0;
        return probe_split(s, rows, west_rows, classes, none_weight);
    }
    memset(&s->east_at, 0, sizeof s->east_at);
    memset(&s->west_at, 0, sizeof s->west_at);
    rc = half_keys(s, e, &s->ge, rows, &s->east_at);
    if (rc == NQ_OK && e->count)
        rc = half_keys(s, w, &s->gw, west_rows, &s->west_at);
    *out = 0;
    if (s->profile && rc == NQ_OK)
        nq_join_profile_keys(s->profile, e->count + (e->count ? w->count : 0), &t);
    if (rc != NQ_OK || !e->count || !w->count)
        return rc;
    /* the cuts hold for the whole split: from the lists' sizes, or the
     * batch's where a list takes more than one */
    weighted = weighted_split(s, classes, s->east_at.done, (double)e->count);
    nq_join_sieve_cuts(&s->sieve,
                       weighted ? 0u
                                : pick_cuts(s, s->east_at.done ? e->count : s->batch,
                                            s->west_at.done ? w->count : s->batch));
    if (nq_join_scratch_bins(s, s->sieve.buckets) != NQ_OK)
        return NQ_ENOMEM;
    s->mt.chunks = key_chunks(&s->sieve);
    if (s->profile && s->profile->first) /* as if both lists ended there */
        s->east_at.done = s->west_at.done = 1;
    if (weighted)
        rc = count_weighted(s, west_rows, none_weight, &pairs, &t);
    else
        rc = count_by_class(s, rows, west_rows, classes, none_weight, &pairs, &t);
    *out = weight * pairs;
    return rc;
}

/* Counts split (m, rows) if it is the one of its orbit that is counted. */
static int solve_split(nq_join_scratch *s, unsigned n, unsigned m, uint32_t rows,
                       uint32_t free_rows, uint64_t *total)
{
    uint64_t c = 0;
    int none_weight, rc;
    const uint64_t weight = nq_join_split_orbit(n, m, rows, free_rows, &none_weight);
    if (!weight)
        return NQ_OK;
    rc = count_split(s, n, m, rows, free_rows, weight, none_weight, &c);
    *total += c;
    return rc;
}

int nq_join_scratch_bins(nq_join_scratch *s, unsigned buckets)
{
    const size_t bins = (size_t)NQ_JOIN_MAX_CLASSES * buckets;
    if (buckets <= s->bins_room)
        return NQ_OK;
    /* the old arrays hold nothing to keep: a split sets them afresh */
    free(s->east_off);
    free(s->west_off);
    free(s->sort_count);
    s->east_off = malloc((buckets + 1) * sizeof *s->east_off);
    s->west_off = malloc((bins + 1) * sizeof *s->west_off);
    s->sort_count = malloc(NQ_JOIN_SORT_STREAMS * bins * sizeof *s->sort_count);
    s->bins_room = s->east_off && s->west_off && s->sort_count ? buckets : 0u;
    return s->bins_room ? NQ_OK : NQ_ENOMEM;
}

int nq_join_solve_splits(nq_join_scratch *s, unsigned n, uint64_t per_m,
                         uint64_t first, uint64_t end, uint64_t *total)
{
    const unsigned h = n / 2;
    unsigned m = 0;
    uint32_t sub = 0;
    for (uint64_t k = first; k < end; k++) {
        uint64_t rank = k % per_m;
        uint32_t rows, free_rows = (1u << n) - 1u;
        int rc;
        if (k == first || rank == 0) {
            m = (n & 1u) ? (unsigned)(k / per_m) : 0;
            sub = nq_join_unrank(rank, h);
        } else {
            sub = nq_join_next_subset(sub);
        }
        rows = sub;
        if (n & 1u) {
            rows = nq_join_stretch(sub, m);
            free_rows &= ~(1u << m);
        }
        rc = solve_split(s, n, m, rows, free_rows, total);
        if (rc != NQ_OK)
            return rc;
    }
    return NQ_OK;
}

void nq_join_scratch_sampling(nq_join_scratch *s, nq_join_sampling *smp)
{
    if (smp) { /* its times are set to 0 by nq_join_sample_unit() */
        s->mt.sample_step = smp->step > 1 ? smp->step : 0; /* 0: every block */
        s->sample_at = smp->phase;
        s->east_seen = smp->east_phase;
        s->sampled_seconds = 0.0;
    } else if (s->sampling) {
        s->sampling->match_seconds = s->sampled_seconds;
        s->mt.sample_step = 0;
    }
    s->sampling = smp;
}
