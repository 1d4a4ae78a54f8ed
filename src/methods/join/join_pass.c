/*
 * join_pass.c - a long east list met in passes by pattern (join_pass.h).
 */
#include "join_pass.h"

#include "join_keys.h"

#include <string.h>

/* A bit is worth a pattern's place when at least this share of pairs
 * (east share x west share) both hold it: below, a pass per pattern
 * drops too few west keys for the listing it costs. */
#define MIN_SHARED 0.05

/* Adds to on[b] the weights of the keys k[0 .. n) that hold bit b (b <
 * bits); @return the sum of their weights. */
static double weigh_bits(const uint64_t *k, const double *w, size_t n, unsigned bits,
                         double *on)
{
    double all = 0.0;
    for (size_t i = 0; i < n; i++) {
        all += w[i];
        for (uint64_t x = k[i] & ((bits < 64 ? 1ull << bits : 0ull) - 1u); x; x &= x - 1u)
            on[__builtin_ctzll(x)] += w[i];
    }
    return all;
}

void nq_join_passes_bits(nq_join_passes *ps, const nq_join_sieve *sv, const uint64_t *east,
                         const double *east_weight, size_t ne, const uint64_t *west,
                         const double *west_weight, size_t nw)
{
    double on_e[64] = { 0 }, on_w[64] = { 0 }, shared[64];
    const unsigned bits = sv->bits < 62u ? sv->bits : 62u;
    const double te = weigh_bits(east, east_weight, ne, bits, on_e),
                 tw = weigh_bits(west, west_weight, nw, bits, on_w);
    ps->bits = 0;
    ps->npass = 0;
    for (unsigned b = 0; b < bits; b++) {
        const int bucket = (b >= sv->cut1 && b < sv->cut1 + sv->run1) ||
                           (b >= sv->cut2 && b < sv->cut2 + sv->run2);
        shared[b] = bucket || !(te > 0.0) || !(tw > 0.0) ? 0.0 : on_e[b] / te * (on_w[b] / tw);
    }
    while (ps->bits < NQ_JOIN_PASS_BITS) {
        unsigned best = 0;
        for (unsigned b = 1; b < bits; b++)
            if (shared[b] > shared[best])
                best = b;
        if (!bits || shared[best] < MIN_SHARED)
            break;
        ps->bit[ps->bits++] = (uint8_t)best;
        shared[best] = 0.0;
    }
    memset(ps->count, 0, sizeof ps->count);
    memset(ps->west, 0, sizeof ps->west);
}

void nq_join_passes_choose(nq_join_passes *ps, const nq_join_sieve *sv,
                           const nq_join_half *ge, uint32_t east_rows,
                           const nq_join_half *gw, uint32_t west_rows)
{
    uint64_t seed = (uint64_t)east_rows << 32 | west_rows;
    nq_join_probe_keys(ge, east_rows, NQ_JOIN_PASS_WALKS, &seed, ps->walk_key[0],
                       ps->walk_weight[0]);
    nq_join_probe_keys(gw, west_rows, NQ_JOIN_PASS_WALKS, &seed, ps->walk_key[1],
                       ps->walk_weight[1]);
    nq_join_passes_bits(ps, sv, ps->walk_key[0], ps->walk_weight[0], NQ_JOIN_PASS_WALKS,
                        ps->walk_key[1], ps->walk_weight[1], NQ_JOIN_PASS_WALKS);
}

void nq_join_passes_count(const nq_join_passes *ps, uint64_t *counts, const uint64_t *k,
                          size_t n)
{
    for (size_t i = 0; i < n; i++)
        counts[nq_join_pattern(ps, k[i])]++;
}

/* East keys of the node (depth d, prefix p): the patterns under it. */
static uint64_t east_in(const nq_join_passes *ps, unsigned d, unsigned p)
{
    const unsigned span = 1u << (ps->bits - d), from = p << (ps->bits - d);
    uint64_t keys = 0;
    for (unsigned q = from; q < from + span; q++)
        keys += ps->count[q];
    return keys;
}

/* Keys of counts whose first d bits hold none of `ones` (its d bits):
 * the west keys a node of ones p meets, or with ~p the east keys that
 * its listing keeps (the zeros barred). */
static uint64_t free_of(const nq_join_passes *ps, const uint64_t *counts, unsigned d,
                        unsigned ones)
{
    const unsigned all = 1u << ps->bits, shift = ps->bits - d,
                   top = ((1u << d) - 1u) & ones;
    uint64_t keys = 0;
    for (unsigned q = 0; q < all; q++)
        if (!((q >> shift) & top))
            keys += counts[q];
    return keys;
}

/* Whether node (d, p), whose east keys fit a batch, pays to split on bit
 * d: the pairs of its 1 branch with the west keys holding that bit are
 * dropped, for a new pass that lists the 0 branch's east keys and the 1
 * branch's west keys. */
static int split_pays(const nq_join_passes *ps, unsigned d, unsigned p)
{
    const unsigned c1 = p << 1 | 1u, c0 = p << 1, mask = (1u << (d + 1)) - 1u;
    const double west_now = (double)free_of(ps, ps->west, d, p),
                 west_one = (double)free_of(ps, ps->west, d + 1, c1),
                 east_one = (double)east_in(ps, d + 1, c1),
                 east_zero = (double)free_of(ps, ps->count, d + 1, ~c0 & mask);
    return NQ_JOIN_PASS_PAIR_PER_KEY * east_one * (west_now - west_one) >
           west_one + east_zero;
}

void nq_join_passes_plan(nq_join_passes *ps, size_t batch)
{
    /* a walk of the tree of prefixes, depth first, the 0 branch first:
     * the stack holds at most one node a level and the root */
    struct {
        unsigned depth, prefix;
    } stack[NQ_JOIN_PASS_BITS + 2];
    unsigned top = 0;
    ps->npass = 0;
    stack[top].depth = 0;
    stack[top++].prefix = 0;
    while (top) {
        const unsigned d = stack[top - 1].depth, p = stack[top - 1].prefix;
        const uint64_t keys = east_in(ps, d, p);
        top--;
        if (!keys)
            continue;
        if (d == ps->bits || (keys <= batch && !split_pays(ps, d, p))) {
            ps->pass[ps->npass].depth = (uint16_t)d;
            ps->pass[ps->npass++].prefix = (uint16_t)p;
            continue;
        }
        stack[top].depth = d + 1; /* the 1 branch waits below the 0 branch */
        stack[top++].prefix = p << 1 | 1u;
        stack[top].depth = d + 1;
        stack[top++].prefix = p << 1;
    }
}

void nq_join_passes_cost(const nq_join_passes *ps, size_t batch, double *pairs,
                         double *east_listed, double *west_listed)
{
    *pairs = *east_listed = *west_listed = 0.0;
    for (unsigned i = 0; i < ps->npass; i++) {
        const unsigned d = ps->pass[i].depth, p = ps->pass[i].prefix;
        const double east = (double)east_in(ps, d, p),
                     west = (double)free_of(ps, ps->west, d, p);
        *pairs += east * west;
        *east_listed += (double)free_of(ps, ps->count, d, ~p & ((1u << d) - 1u));
        *west_listed += west * (double)((uint64_t)east / batch + ((uint64_t)east % batch != 0));
    }
}

void nq_join_pass_filter(const nq_join_passes *ps, unsigned i, uint64_t *mask, uint64_t *want)
{
    const unsigned d = ps->pass[i].depth, p = ps->pass[i].prefix;
    *mask = 0;
    *want = 0;
    for (unsigned j = 0; j < d; j++) {
        *mask |= 1ull << ps->bit[j];
        if (p >> (d - 1 - j) & 1u)
            *want |= 1ull << ps->bit[j];
    }
}

void nq_join_pass_bars(const nq_join_sieve *sv, const nq_join_half *g, uint64_t bits,
                       uint64_t *bar1, uint64_t *bar2)
{
    uint64_t holes = 0;
    unsigned j = 0; /* squeezed bits passed so far */
    *bar1 = *bar2 = 0;
    for (unsigned i = 0; i < sv->nholes; i++)
        holes |= 1ull << sv->hole[i];
    for (unsigned u = 0; u < g->len1 + g->len2 && bits >> j; u++) {
        if (holes >> u & 1u)
            continue;
        if (bits >> j & 1u) {
            if (u < g->len1)
                *bar1 |= 1ull << (u + g->lo1);
            else
                *bar2 |= 1ull << (u - g->len1 + g->lo2);
        }
        j++;
    }
}

size_t nq_join_keep(uint64_t *k, size_t n, uint64_t mask, uint64_t want)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t x = k[i];
        k[m] = x;
        m += (x & mask) == want;
    }
    return m;
}
