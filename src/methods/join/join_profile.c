/*
 * join_profile.c - a split's cost, as the cost model of nq_estimate()
 * counts it (join_cost.c): the hooks that a split being profiled calls
 * (join_split.c) with its keys, buckets and times, and the probes that
 * estimate a split's lists without listing them.
 *
 * Work. A split costs three things: listing its two halves' keys, sorting
 * them into buckets, both about proportional to the number of keys; and
 * counting the disjoint pairs, proportional to the (block, item) meetings
 * of nq_join_sieve_match() times the chunks of a key, plus the blocks it
 * fills, each weighed as the kernel's fill_items meetings (a fill writes
 * 64 x 8 words a chunk from 512 keys, a meeting reads 8 words a chunk:
 * join_kernel.c has the measured weights). From the sizes of a split's
 * buckets the meetings follow (block_work). The sizes come from random
 * walks down each half (Knuth's estimator: the product of the free
 * columns met on the way down is an unbiased count of the half's
 * placements), prof->probes per half, so
 * that a split costs a few milliseconds even at n = 28, where its lists
 * would take gigabytes. The sizes are unbiased, the work from them is not
 * (it is not linear in them: nq_join_probe_pairs() removes the bias).
 * Listing the keys for real (probes 0) gives the exact sizes: the prices
 * use those, and the tests and bench/nq_prices.c compare the two.
 */
#include "join_profile.h"

#include "join_bits.h"
#include "join_keys.h"
#include "join_pass.h"

#include <stdlib.h>
#include <time.h>

double nq_join_cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void nq_join_profile_keys(nq_join_profile *prof, uint64_t keys, double *t)
{
    double now = nq_join_cpu_now();
    prof->keys += (double)keys;
    prof->list_seconds += now - *t;
    *t = now;
}

/* Which items a block meets: every bucket disjoint from at least one of
 * the buckets the block holds (the subsets of the bits each held bucket
 * lacks). A held bucket alone meets sub[its complement], the items of all
 * subsets of it, summed once per list (sum_subsets); several held buckets
 * (small ones sharing a block) mark what they meet in `stamp`, so that a
 * bucket met twice counts once. */
typedef struct meet {
    unsigned nb;
    double sub[NQ_JOIN_MAX_BUCKETS]; /* items of the subsets of each mask */
    uint32_t stamp[NQ_JOIN_MAX_BUCKETS];
    uint32_t tick;
} meet;

/* What the hooks work in, per bucket: on the heap (up to 8192 buckets,
 * some 600 KiB in all), kept by the profile for its next split. */
struct nq_join_profile_area {
    meet m;
    double east[NQ_JOIN_MAX_BUCKETS], west[NQ_JOIN_MAX_CLASSES][NQ_JOIN_MAX_BUCKETS];
    double all[NQ_JOIN_MAX_BUCKETS];  /* probed_work(): all west keys */
    double east_cut[NQ_JOIN_MAX_BUCKETS], /* pass_work(): the whole lists */
        west_cut[NQ_JOIN_MAX_CLASSES][NQ_JOIN_MAX_BUCKETS]; /* cut to a pass */
    double end[NQ_JOIN_MAX_BUCKETS];  /* block_work(): where buckets end */
    double item[NQ_JOIN_MAX_BUCKETS]; /* tally(): items per bucket */
    unsigned held[NQ_JOIN_MAX_BUCKETS];
    nq_join_passes passes;            /* nq_join_probe_passes() */
    double east_pattern[NQ_JOIN_PASS_PATTERNS], west_pattern[NQ_JOIN_PASS_PATTERNS];
};

int nq_join_profile_ready(nq_join_profile *prof)
{
    if (!prof->area)
        prof->area = malloc(sizeof *prof->area);
    return prof->area ? NQ_OK : NQ_ENOMEM;
}

/* sub[c] = the sum of item[b] over every b whose bits are within c. */
static void sum_subsets(meet *m, const double *item, unsigned nb)
{
    m->nb = nb;
    for (unsigned b = 0; b < nb; b++)
        m->sub[b] = item[b];
    for (unsigned bit = 1; bit < nb; bit <<= 1)
        for (unsigned c = 0; c < nb; c++)
            if (c & bit)
                m->sub[c] += m->sub[c ^ bit];
    for (unsigned b = 0; b < nb; b++)
        m->stamp[b] = 0;
    m->tick = 0;
}

/* Items met by a block holding buckets held[0 .. nheld). */
static double met_by(meet *m, const double *item, const unsigned *held, unsigned nheld)
{
    const unsigned all = m->nb - 1u;
    double sum = 0.0;
    if (nheld == 1)
        return m->sub[~held[0] & all];
    if (++m->tick == 0) { /* the stamps wrapped: start them again */
        for (unsigned b = 0; b < m->nb; b++)
            m->stamp[b] = 0;
        m->tick = 1;
    }
    for (unsigned i = 0; i < nheld; i++) {
        const unsigned rest = ~held[i] & all;
        for (unsigned b = rest;; b = (b - 1u) & rest) {
            if (m->stamp[b] != m->tick) {
                m->stamp[b] = m->tick;
                sum += item[b];
            }
            if (!b)
                break;
        }
    }
    return sum;
}

/* The work of matching the stored keys, stored[b] of them in bucket b,
 * sorted by bucket, against the items, item[b] in bucket b, as
 * nq_join_sieve_match() does it: each block of NQ_JOIN_BLOCK stored keys
 * is filled (costing mt->fill_items items) and meets every item of a
 * bucket disjoint from a bucket that the block holds, times the chunks of
 * a key (mt->chunks).
 * A run of blocks inside one bucket is priced at once, so the cost is a
 * few passes over the buckets; with whole counts it is exactly the
 * matcher's work, with estimated ones it is its estimate. */
static double block_work(struct nq_join_profile_area *ar, const double *stored,
                         const double *item, unsigned nb, const nq_join_matcher *mt)
{
    meet *m = &ar->m;
    double *end = ar->end, total = 0.0, w = 0.0, f = 0.0;
    unsigned *held = ar->held;
    unsigned a = 0;
    for (unsigned b = 0; b < nb; b++)
        end[b] = total += stored[b];
    sum_subsets(m, item, nb);
    while (f < total) {
        double met, blocks = 1.0;
        unsigned nheld = 0;
        while (a < nb && !(end[a] > f))
            a++;
        if (a == nb)
            break;
        for (unsigned a2 = a; a2 < nb; a2++) {
            if (stored[a2] > 0.0)
                held[nheld++] = a2;
            if (!(end[a2] < f + NQ_JOIN_BLOCK))
                break;
        }
        if (!(end[a] < f + NQ_JOIN_BLOCK)) /* a run of blocks inside a */
            blocks = (double)(uint64_t)((end[a] - f) / NQ_JOIN_BLOCK);
        if (blocks < 1.0)
            blocks = 1.0;
        met = met_by(m, item, held, nheld);
        if (met > 0.0)
            w += blocks * (met + mt->fill_items);
        f += blocks * NQ_JOIN_BLOCK;
    }
    return w * mt->chunks;
}

/* The work of one class of pairs: the longer list is stored, or the east
 * one when east_stored (a weighted split, join_split.c). */
static double class_work(struct nq_join_profile_area *ar, const double *east,
                         const double *west, unsigned nb, const nq_join_matcher *mt,
                         int east_stored)
{
    double ne = 0.0, nw = 0.0;
    for (unsigned b = 0; b < nb; b++) {
        ne += east[b];
        nw += west[b];
    }
    if (!(ne > 0.0) || !(nw > 0.0))
        return 0.0;
    return ne >= nw || east_stored ? block_work(ar, east, west, nb, mt)
                                   : block_work(ar, west, east, nb, mt);
}

/* The meetings and fills of nq_join_sieve_match() on stored keys in
 * soff[0 .. nb] against items in ioff[0 .. nb], without matching: each
 * block of NQ_JOIN_BLOCK stored keys meets the items of every bucket
 * disjoint from a bucket it holds. */
static void tally(struct nq_join_profile_area *ar, const size_t *soff, const size_t *ioff,
                  unsigned nb, uint64_t *items, uint64_t *fills)
{
    meet *m = &ar->m;
    double *item = ar->item;
    unsigned *held = ar->held;
    unsigned a = 0;
    for (unsigned b = 0; b < nb; b++)
        item[b] = (double)(ioff[b + 1] - ioff[b]);
    sum_subsets(m, item, nb);
    for (size_t f = soff[0]; f < soff[nb]; f += NQ_JOIN_BLOCK) {
        const size_t end = soff[nb] - f > NQ_JOIN_BLOCK ? f + NQ_JOIN_BLOCK : soff[nb];
        unsigned nheld = 0;
        uint64_t met;
        while (soff[a + 1] <= f)
            a++;
        for (unsigned a2 = a; a2 < nb && soff[a2] < end; a2++)
            if (soff[a2 + 1] > soff[a2])
                held[nheld++] = a2;
        met = (uint64_t)met_by(m, item, held, nheld); /* sums of whole
                                                          numbers below 2^53 */
        *items += met;
        *fills += met != 0;
    }
}

void nq_join_profile_pairs(nq_join_profile *prof, const size_t *east_off,
                           const size_t *west_off, unsigned nb, const nq_join_matcher *mt,
                           int east_stored, double *t)
{
    const size_t ne = east_off[nb] - east_off[0], nw = west_off[nb] - west_off[0];
    struct nq_join_profile_area *ar = prof->area;
    double *east = ar->east, *west = ar->west[0];
    uint64_t items = 0, fills = 0;
    /* what the split did since *t was sorting; the tally that follows is
     * the profile's own work, which a count does not do: not billed */
    prof->sort_seconds += nq_join_cpu_now() - *t;
    if (ne && nw) { /* the longer list is stored, as in join_split.c */
        if (ne >= nw || east_stored)
            tally(ar, east_off, west_off, nb, &items, &fills);
        else
            tally(ar, west_off, east_off, nb, &items, &fills);
    }
    for (unsigned b = 0; b < nb; b++) {
        east[b] = (double)(east_off[b + 1] - east_off[b]);
        west[b] = (double)(west_off[b + 1] - west_off[b]);
    }
    prof->work += class_work(ar, east, west, nb, mt, east_stored);
    prof->items += items * mt->chunks;
    prof->fills += fills * mt->chunks;
    *t = nq_join_cpu_now();
}

/* prof->probes walks down half g (nq_join_probe_keys()): the keys the
 * listing keeps, their weights, and the estimated number of them. */
static double probe_half(nq_join_profile *prof, const nq_join_half *g, uint32_t rows,
                         uint64_t *key, double *weight)
{
    return nq_join_probe_keys(g, rows, prof->probes, &prof->seed, key, weight);
}

int nq_join_probe_halves(nq_join_profile *prof, const nq_join_half *ge,
                         uint32_t east_rows, const nq_join_half *gw,
                         uint32_t west_rows, double *east, double *west)
{
    const size_t need = 2 * (size_t)prof->probes;
    if (prof->pcap < need) {
        free(prof->pkey);
        free(prof->pweight);
        prof->pkey = malloc(need * sizeof *prof->pkey);
        prof->pweight = malloc(need * sizeof *prof->pweight);
        prof->pcap = prof->pkey && prof->pweight ? need : 0;
        if (!prof->pcap)
            return NQ_ENOMEM;
    }
    *east = probe_half(prof, ge, east_rows, prof->pkey, prof->pweight);
    *west = probe_half(prof, gw, west_rows, prof->pkey + prof->probes,
                       prof->pweight + prof->probes);
    return NQ_OK;
}

/* The batches a split's lists come in (nq_join_probe_pairs()). */
typedef struct batches {
    double east, west;
} batches;

/* The keys of one pass (join_pass.h): east keys x with (x & mask) ==
 * want, west keys without want's bits. */
typedef struct pass_filter {
    uint64_t mask, want;
} pass_filter;

/* The estimated sizes of the buckets, east[b] and west[c][b] of class c,
 * from the probes first .. first + count - 1 of each half (their weights
 * over `count`), each list cut into bt's batches; with pf, only the keys
 * of that pass. */
static void fill_buckets(const nq_join_profile *prof, const nq_join_sieve *sv,
                         unsigned classes, batches bt, unsigned first, unsigned count,
                         const pass_filter *pf, double *east,
                         double (*west)[NQ_JOIN_MAX_BUCKETS])
{
    const unsigned nb = sv->buckets, p = prof->probes;
    const double ew = bt.east * count, ww = bt.west * count;
    for (unsigned b = 0; b < nb; b++) {
        east[b] = 0.0;
        for (unsigned c = 0; c < classes; c++)
            west[c][b] = 0.0;
    }
    for (unsigned i = first; i < first + count; i++) {
        const uint64_t ke = prof->pkey[i], kw = prof->pkey[p + i];
        const unsigned cls = classes > 1 ? nq_join_key_class(kw) : 0u;
        if (!pf || (ke & pf->mask) == pf->want)
            east[nq_join_bucket(sv, ke & ~(3ull << NQ_JOIN_CLASS_SHIFT))] +=
                prof->pweight[i] / ew;
        if (!pf || !(kw & pf->want))
            west[cls][nq_join_bucket(sv, kw & ~(3ull << NQ_JOIN_CLASS_SHIFT))] +=
                prof->pweight[p + i] / ww;
    }
}

/* The pair work of the probes first .. first + count - 1 of each half
 * (their weights over `count`: the estimated sizes of the buckets). Lists
 * of several batches are matched batch against batch: a batch holds
 * about its share of each bucket, so every pair of batches does the work
 * of the lists cut to those shares. That is more than the work of the
 * whole lists: a block of a shorter bucket shares more often with other
 * buckets, and meets what each of them meets (at n = 26, batches of 2^22
 * keys, the whole lists' work was 0.87 of the batches'). */
static double probed_work(nq_join_profile *prof, const nq_join_sieve *sv, unsigned classes,
                          int skip0, const nq_join_matcher *mt, int weighted, batches bt,
                          unsigned first, unsigned count)
{
    const unsigned nb = sv->buckets;
    struct nq_join_profile_area *ar = prof->area;
    double *east = ar->east, (*west)[NQ_JOIN_MAX_BUCKETS] = ar->west;
    double work = 0.0;
    fill_buckets(prof, sv, classes, weighted ? (batches){ 1.0, 1.0 } : bt, first, count, NULL,
                 east, west);
    if (weighted) { /* the east list stored, one list of west keys */
        double *all = ar->all;
        for (unsigned b = 0; b < nb; b++)
            all[b] = 0.0;
        for (unsigned c = skip0 ? 1u : 0u; c < classes; c++)
            for (unsigned b = 0; b < nb; b++)
                all[b] += west[c][b];
        return class_work(ar, east, all, nb, mt, 1);
    }
    for (unsigned c = skip0 ? 1u : 0u; c < classes; c++)
        work += class_work(ar, east, west[c], nb, mt, 0);
    return work * bt.east * bt.west;
}

/* The pair work of one pass, its lists in `own` batches (each pair of
 * batches meeting). Its items are the keys of the walks in the pass (the
 * work is linear in them, and they keep what the pass's bits say of the
 * others), but its stored keys are the whole list cut to the pass's
 * batch (`cut`): the few walks that fall in one pass would put them in a
 * few buckets, each filling blocks of its own, where the real ones spread
 * over many small buckets that share blocks and meet what each of them
 * meets (at n = 28 the walks of each pass alone, both lists, gave a fifth
 * of the real pair work, the whole lists cut on both sides 1.5 to 1.7
 * times it, this 0.84 and 0.93). */
static double pass_work(nq_join_profile *prof, const nq_join_sieve *sv, unsigned classes,
                        int skip0, const nq_join_matcher *mt, batches own, batches cut,
                        const pass_filter *pf)
{
    const unsigned nb = sv->buckets;
    struct nq_join_profile_area *ar = prof->area;
    double work = 0.0, ne = 0.0;
    fill_buckets(prof, sv, classes, own, 0, prof->probes, pf, ar->east, ar->west);
    fill_buckets(prof, sv, classes, cut, 0, prof->probes, NULL, ar->east_cut, ar->west_cut);
    for (unsigned b = 0; b < nb; b++)
        ne += ar->east[b];
    for (unsigned c = skip0 ? 1u : 0u; c < classes; c++) {
        double nw = 0.0;
        for (unsigned b = 0; b < nb; b++)
            nw += ar->west[c][b];
        if (ne > 0.0 && nw > 0.0) /* the longer list stored, as in join_split.c */
            work += ne >= nw ? block_work(ar, ar->east_cut, ar->west[c], nb, mt)
                             : block_work(ar, ar->west_cut[c], ar->east, nb, mt);
    }
    return work * own.east * own.west;
}

/* The walks' pair work of the passes planned by nq_join_probe_passes(),
 * over their work as the lists' batches meet without passes (bt): what
 * the passes leave of the work, buckets and fills included (pass_work()). */
static double passes_share(nq_join_profile *prof, const nq_join_sieve *sv, unsigned classes,
                           int skip0, const nq_join_matcher *mt, batches bt, double batch)
{
    const nq_join_passes *ps = &prof->area->passes;
    const unsigned p = prof->probes;
    const double before = probed_work(prof, sv, classes, skip0, mt, 0, bt, 0, p);
    double after = 0.0, east_all = 0.0, west_all = 0.0;
    for (unsigned j = 0; j < p; j++) {
        east_all += prof->pweight[j] / p;
        west_all += prof->pweight[p + j] / p;
    }
    for (unsigned i = 0; i < ps->npass; i++) {
        uint64_t mask, want;
        double east = 0.0, west = 0.0;
        nq_join_pass_filter(ps, i, &mask, &want);
        for (unsigned j = 0; j < p; j++) {
            east += (prof->pkey[j] & mask) == want ? prof->pweight[j] / p : 0.0;
            west += !(prof->pkey[p + j] & want) ? prof->pweight[p + j] / p : 0.0;
        }
        if (east > 0.0 && west > 0.0) {
            /* the pass's batches, and the whole lists cut to one of each */
            const double ke = east > batch ? (double)(uint64_t)(east / batch + 1.0) : 1.0,
                         kw = west > batch ? west / batch : 1.0;
            const batches own = { ke, kw }, cut = { east_all / (east / ke), west_all / (west / kw) };
            const pass_filter pf = { mask, want };
            after += pass_work(prof, sv, classes, skip0, mt, own, cut, &pf);
        }
    }
    return before > 0.0 ? after / before : 1.0;
}

/* The pair work from the bucket sizes the walks estimate is biased low:
 * the sizes are unbiased, but a block meets the items disjoint from ANY
 * bucket it holds, and walks miss the small buckets that share a block
 * with others, so too few are held (at n = 22, 1,024 walks a half gave
 * 0.74 of the work of the real lists, 4,096 gave 0.89, 16,384 gave 0.97:
 * the bias falls as 1 / walks). So the work of all the walks, W, and of
 * each quarter of them, Wq, are both worked out, and the bias removed to
 * first order (Richardson): W + (W - mean Wq) / 3. With passes, that
 * work times the share of it the passes leave (passes_share()). */
void nq_join_probe_pairs(nq_join_profile *prof, const nq_join_sieve *sv,
                         const nq_join_matcher *mt, unsigned classes, int skip0,
                         int weighted, double east_batches, double west_batches,
                         double passes_batch)
{
    const unsigned p = prof->probes, q = p / 4;
    const batches bt = { east_batches, west_batches };
    const double all = probed_work(prof, sv, classes, skip0, mt, weighted, bt, 0, p);
    const double share = passes_batch > 0.0 ? passes_share(prof, sv, classes, skip0, mt, bt,
                                                           passes_batch)
                                            : 1.0;
    double quarters = 0.0, w;
    if (q < 64) { /* too few walks to extrapolate */
        prof->work += all * share;
        return;
    }
    for (unsigned i = 0; i < 4; i++)
        quarters += probed_work(prof, sv, classes, skip0, mt, weighted, bt, i * q, q);
    w = all + (all - quarters / 4) / 3;
    prof->work += w > 0.0 ? w * share : 0.0;
}

int nq_join_probe_passes(nq_join_profile *prof, const nq_join_sieve *sv, double batch,
                         double *share, double *east_listed, double *west_listed)
{
    struct nq_join_profile_area *ar = prof->area;
    nq_join_passes *ps = &ar->passes;
    const unsigned p = prof->probes;
    const uint64_t *ke = prof->pkey, *kw = prof->pkey + p;
    const double *we = prof->pweight, *ww = prof->pweight + p;
    double e_all = 0.0, w_all = 0.0, pairs;
    nq_join_passes_bits(ps, sv, ke, we, p, kw, ww, p);
    if (!ps->bits)
        return 0;
    /* the walks' estimates of the lists' counts by pattern */
    for (unsigned q = 0; q < NQ_JOIN_PASS_PATTERNS; q++)
        ar->east_pattern[q] = ar->west_pattern[q] = 0.0;
    for (unsigned i = 0; i < p; i++) {
        ar->east_pattern[nq_join_pattern(ps, ke[i])] += we[i] / p;
        ar->west_pattern[nq_join_pattern(ps, kw[i])] += ww[i] / p;
    }
    for (unsigned q = 0; q < 1u << ps->bits; q++) {
        ps->count[q] = (uint64_t)(ar->east_pattern[q] + 0.5);
        ps->west[q] = (uint64_t)(ar->west_pattern[q] + 0.5);
        e_all += ar->east_pattern[q];
        w_all += ar->west_pattern[q];
    }
    nq_join_passes_plan(ps, (size_t)batch);
    nq_join_passes_cost(ps, (size_t)batch, &pairs, east_listed, west_listed);
    *share = e_all > 0.0 && w_all > 0.0 ? pairs / (e_all * w_all) : 1.0;
    return 1;
}
