/*
 * walk_cost.c - how long a count by a method of walks (walk_cost.h: the
 * symmetry method, the plain walk) will take, worked out from random
 * walks down a sample of its units.
 *
 * Why a model. Timing a sample of units prices a count well while a unit
 * takes milliseconds; where a unit takes seconds to hours, a sample of a
 * few units in a budget of seconds says little. So the work is counted
 * instead, and priced by a smaller board.
 *
 * Work. A unit's work is the nodes of its walk (queens placed on a row
 * other than the walk's last), which its time follows closely. The nodes
 * of a unit are estimated by random walks from its start (Knuth's
 * estimator: each walk picks one free square per row at random and adds,
 * per row, the product of the candidates of the rows above it and of that
 * row; its mean is the tree's size). The top rows are listed exactly while
 * a row has fewer nodes than the walks, and each node of the last row
 * listed gets an equal share of them, so the top of the tree adds nothing
 * to the error.
 *
 * Price. The CPU seconds per node of this machine at the count's SIMD
 * level come from whole units of a smaller board (the method's cal_n),
 * counted by the method, whose nodes the most walks estimate (within a
 * fraction of a percent there, and far quicker than listing them). Each is
 * timed twice and the shorter time kept, after one untimed unit: a cold
 * core and a program on the core beside it slow the first of two runs far
 * more often than both, so neither the first estimate after an idle spell
 * nor one on a busy machine reads high. Thread CPU time throughout.
 *
 * Sample. The units are cut into NQC_STRATA strata and each gives one
 * unit at a seeded random place (nqc_sample.h); the walks per unit are
 * set, from the time of the first MIN_SAMPLES units, to see every stratum
 * in the budget. The total is the mean cost times the number of units.
 * Its interval adds, in quadrature, the sampling error (from neighbouring
 * strata), the price's error and MODEL_ERROR, what the model missed where
 * it was checked against full counts and samples (docs/performance.md).
 */
#include "walk_cost.h"

#include <stdlib.h>
#include <string.h>

#include "nqc_clock.h"
#include "nqc_sample.h"

/* The fewest units of the count and of cal_n looked at, whatever the
 * budget. */
#define MIN_SAMPLES 32u
#define MIN_PRICED 16u
/* Units of a GPU's priced batch (one per stratum of NQC_STRATA / this),
 * and the fewest batches timed. */
#define GPU_BATCH 1024u
#define MIN_PRICED_GPU 3u
/* Random walks down each sampled unit, at least (the budget decides, up
 * to NQ_WALK_MAX_PROBES). */
#define PROBES 256u
/* Share of the budget spent pricing. */
#define CAL_SHARE 0.4
/* Relative error of the model itself, beyond sampling (two standard
 * deviations), and the width of the interval in standard deviations. */
#define MODEL_ERROR 0.12
#define Z 2.0

/* A node of a walk: its row and masks. */
typedef struct walk_node {
    unsigned level;
    uint32_t cols, ld, rd;
} walk_node;

/* The nodes below `start` on `bd`, by one random walk. */
static double probe(const nq_walk_tree *bd, const walk_node *start, uint64_t *seed)
{
    uint32_t cols = start->cols, ld = start->ld, rd = start->rd;
    double weight = 1.0, nodes = 0.0;
    for (unsigned d = start->level; d + 1 < bd->levels; d++) {
        uint32_t f = bd->allowed[d] & ~(cols | ld | rd), bit;
        unsigned c = 0, pick;
        for (uint32_t g = f; g; g &= g - 1)
            c++;
        if (!c)
            break;
        weight *= (double)c;
        nodes += weight;
        pick = (unsigned)(nqc_splitmix64(seed) % c);
        while (pick--)
            f &= f - 1;
        bit = f & (0u - f);
        cols |= bit;
        ld = (ld | bit) << bd->shift[d];
        rd = (rd | bit) >> bd->shift[d];
    }
    return nodes;
}

/* The nodes of the walk from `start` on `bd`, from about `probes` random
 * walks: the top levels are listed exactly, level by level, while the
 * next level's nodes number fewer than `probes` (frontier[] has room for
 * 2 * probes), and each node of the last level listed gets an equal share
 * of the walks, so the top of the tree adds nothing to the error. */
static double unit_nodes(const nq_walk_tree *bd, const walk_node *start,
                         unsigned probes, walk_node *frontier, uint64_t *seed)
{
    unsigned have = 1, each;
    double nodes = 0.0, below = 0.0;
    frontier[0] = *start;
    while (frontier[0].level + 1 < bd->levels) {
        unsigned next = 0;
        for (unsigned i = 0; i < have; i++) {
            const walk_node *q = &frontier[i];
            uint32_t f = bd->allowed[q->level] & ~(q->cols | q->ld | q->rd);
            for (; f; f &= f - 1)
                next++;
        }
        if (next == 0 || next > probes)
            break;
        /* the children go after the parents, then move to the front */
        unsigned at = have;
        for (unsigned i = 0; i < have; i++) {
            const walk_node q = frontier[i];
            const unsigned s = bd->shift[q.level];
            for (uint32_t f = bd->allowed[q.level] & ~(q.cols | q.ld | q.rd); f; f &= f - 1) {
                const uint32_t bit = f & (0u - f);
                frontier[at++] = (walk_node){ q.level + 1, q.cols | bit,
                                                (q.ld | bit) << s, (q.rd | bit) >> s };
            }
        }
        memmove(frontier, frontier + have, next * sizeof *frontier);
        have = next;
        nodes += next;
    }
    each = probes / have ? probes / have : 1;
    for (unsigned i = 0; i < have; i++) {
        double sum = 0.0;
        for (unsigned p = 0; p < each; p++)
            sum += probe(bd, &frontier[i], seed);
        below += sum / each;
    }
    return nodes + below;
}

/* The nodes below a node of level d, exactly. */
static uint64_t nodes_below(const nq_walk_tree *bd, unsigned d, uint32_t cols,
                            uint32_t ld, uint32_t rd)
{
    uint32_t f = bd->allowed[d] & ~(cols | ld | rd);
    uint64_t nodes = 0;
    if (d + 1 >= bd->levels)
        return 0;
    while (f) {
        const uint32_t bit = f & (0u - f);
        f ^= bit;
        nodes += 1 + nodes_below(bd, d + 1, cols | bit, (ld | bit) << bd->shift[d],
                                 (rd | bit) >> bd->shift[d]);
    }
    return nodes;
}

/* The start node of a walk. */
static walk_node start_of(const nq_walk_tree *t)
{
    return (walk_node){ t->level, t->cols, t->ld, t->rd };
}

/* CPU seconds of one count of unit u of the plan at level simd, or a
 * negative number if it failed with *rc. */
static double timed_unit(const nq_walk_method *m, const void *plan, uint64_t u,
                         nq_simd simd, const nq_stop_flag *stop, int *rc)
{
    nq_unit_result r;
    double t = nqc_thread_cpu();
    *rc = m->solve(plan, u, simd, stop, &r);
    return *rc == NQ_OK ? nqc_thread_cpu() - t : -1.0;
}

/* The price of this machine: CPU seconds per node at level simd, from
 * units of m->cal_n, in about `budget` seconds. */
static int price(nqc_ratio *out, const nq_walk_method *m, nq_simd simd, double budget,
                 uint64_t seed, const nq_stop_flag *stop, walk_node *frontier)
{
    void *plan;
    double start = nqc_thread_cpu();
    uint64_t units;
    int rc, warm = 0;
    if (m->has_simd && !m->has_simd(simd))
        return NQ_EUNSUPPORTED;
    rc = m->build(&plan, m->cal_n);
    if (rc != NQ_OK)
        return rc;
    units = m->size(plan);
    *out = (nqc_ratio){ 0, 0, 0, 0, 0, 0 };
    for (unsigned i = 0; i < NQC_STRATA && rc == NQ_OK; i++) {
        const uint64_t u = nqc_sample_item(units, i, &seed);
        nq_walk_tree t;
        walk_node s;
        double a, b;
        rc = m->tree(plan, u, &t);
        if (rc != NQ_OK)
            break;
        if (!warm) { /* the untimed count */
            warm = 1;
            if (timed_unit(m, plan, u, simd, stop, &rc) < 0.0)
                break;
        }
        a = timed_unit(m, plan, u, simd, stop, &rc);
        b = a < 0.0 ? a : timed_unit(m, plan, u, simd, stop, &rc);
        if (b < 0.0)
            break;
        s = start_of(&t);
        nqc_ratio_add(out, a < b ? a : b,
                      unit_nodes(&t, &s, NQ_WALK_MAX_PROBES, frontier, &seed));
        if (out->k >= MIN_PRICED && nqc_thread_cpu() - start > budget)
            break;
    }
    m->destroy(plan);
    if (rc == NQ_OK && nq_stopped(stop))
        rc = NQ_ECANCELED;
    return rc;
}

/* The price of a GPU: its wall seconds per node, from batches of
 * GPU_BATCH units of m->cal_n (one a stratum), in about `budget` seconds;
 * each batch counted twice after an untimed one, the shorter kept. */
static int price_gpu(nqc_ratio *out, const nq_walk_method *m, struct nq_gpu *gpu,
                     nq_simd simd, double budget, uint64_t seed,
                     const nq_stop_flag *stop, walk_node *frontier)
{
    void *plan;
    uint64_t *batch = malloc(GPU_BATCH * sizeof *batch), units;
    nq_unit_result *res = malloc(GPU_BATCH * sizeof *res);
    double start = nqc_now();
    int rc = batch && res ? m->build(&plan, m->cal_n) : NQ_ENOMEM;
    *out = (nqc_ratio){ 0, 0, 0, 0, 0, 0 };
    if (rc != NQ_OK) {
        free(batch);
        free(res);
        return rc;
    }
    units = m->size(plan);
    for (unsigned round = 0; rc == NQ_OK; round++) {
        double nodes = 0.0, best = -1.0;
        for (unsigned i = 0; i < GPU_BATCH && rc == NQ_OK; i++) {
            nq_walk_tree t;
            walk_node s;
            batch[i] = nqc_sample_item(units, i * (NQC_STRATA / GPU_BATCH), &seed);
            rc = m->tree(plan, batch[i], &t);
            s = start_of(&t);
            if (rc == NQ_OK)
                nodes += unit_nodes(&t, &s, NQ_WALK_MAX_PROBES, frontier, &seed);
        }
        for (int run = round == 0 ? -1 : 0; run < 2 && rc == NQ_OK; run++) {
            const double t0 = nqc_now();
            rc = m->solve_gpu(plan, gpu, batch, GPU_BATCH, simd, stop, res);
            if (run >= 0 && (best < 0.0 || nqc_now() - t0 < best))
                best = nqc_now() - t0;
        }
        if (rc != NQ_OK)
            break;
        nqc_ratio_add(out, best, nodes);
        if (out->k >= MIN_PRICED_GPU && nqc_now() - start > budget)
            break;
    }
    m->destroy(plan);
    free(batch);
    free(res);
    return rc;
}

/* The model of nq_walk_model() and nq_walk_model_gpu(), whose price is
 * *pr (rc: how the pricing ended). */
static int model(const nq_walk_method *m, const void *plan, double budget, uint64_t seed,
                 const nq_stop_flag *stop, nq_cost_model *out, walk_node *frontier,
                 const nqc_ratio *pr, int rc)
{
    const uint64_t units = m->size(plan);
    double sum = 0.0, mean, rel, a = nqc_ratio_value(pr), *cost;
    unsigned char *seen;
    unsigned k = 0, probes = PROBES;

    cost = malloc(NQC_STRATA * sizeof *cost);
    seen = calloc(NQC_STRATA, 1);
    if (!cost || !seen) {
        free(cost);
        free(seen);
        return NQ_ENOMEM;
    }
    const double start = nqc_thread_cpu(), work = budget * (1 - CAL_SHARE);
    for (unsigned i = 0; i < NQC_STRATA && rc == NQ_OK; i++) {
        const unsigned j = nqc_stratum(i);
        nq_walk_tree t;
        walk_node s;
        rc = m->tree(plan, nqc_sample_item(units, i, &seed), &t);
        if (rc != NQ_OK)
            break;
        s = start_of(&t);
        cost[j] = a * unit_nodes(&t, &s, probes, frontier, &seed);
        seen[j] = 1;
        sum += cost[j];
        k++;
        if (nq_stopped(stop)) {
            rc = NQ_ECANCELED;
            break;
        }
        const double spent = nqc_thread_cpu() - start;
        if (k == MIN_SAMPLES && spent > 0.0) {
            /* walks per unit that let every stratum be seen in the budget */
            double fit = (double)probes * (work - spent) / spent * MIN_SAMPLES /
                         (NQC_STRATA - MIN_SAMPLES);
            probes = fit > NQ_WALK_MAX_PROBES ? NQ_WALK_MAX_PROBES : fit > PROBES ? (unsigned)fit : PROBES;
        }
        if (k >= MIN_SAMPLES && spent > work)
            break;
    }
    if (rc == NQ_OK) {
        const double samp_err = nqc_strata_error(cost, seen, mean = sum / k, k),
                     price_err = nqc_ratio_error(pr);
        rel = nqc_root(samp_err * samp_err + price_err * price_err);
        rel = nqc_root(Z * Z * rel * rel + MODEL_ERROR * MODEL_ERROR);
        out->cpu_seconds = mean * (double)units;
        out->low = out->cpu_seconds * (rel < 0.5 ? 1.0 - rel : 0.5);
        out->high = out->cpu_seconds * (1.0 + rel);
        out->sampled = k;
        out->timed = pr->k;
    }
    free(cost);
    free(seen);
    return rc;
}

/* Runs the model with the price of the CPU (gpu NULL) or of the GPU. */
static int priced_model(const nq_walk_method *m, const void *plan, struct nq_gpu *gpu,
                        nq_simd simd, double budget, uint64_t seed,
                        const nq_stop_flag *stop, nq_cost_model *out)
{
    nqc_ratio pr = { 0, 0, 0, 0, 0, 0 };
    walk_node *frontier;
    int rc;
    if (!plan || !out || !m || m->size(plan) == 0)
        return NQ_EINVAL;
    frontier = malloc(2 * NQ_WALK_MAX_PROBES * sizeof *frontier);
    if (!frontier)
        return NQ_ENOMEM;
    rc = gpu ? price_gpu(&pr, m, gpu, simd, budget * CAL_SHARE, seed, stop, frontier)
             : price(&pr, m, simd, budget * CAL_SHARE, seed, stop, frontier);
    rc = model(m, plan, budget, seed, stop, out, frontier, &pr, rc);
    free(frontier);
    return rc;
}

int nq_walk_model(const nq_walk_method *m, const void *plan, nq_simd simd,
                  double budget, uint64_t seed, const nq_stop_flag *stop,
                  nq_cost_model *out)
{
    return priced_model(m, plan, NULL, simd, budget, seed, stop, out);
}

int nq_walk_model_gpu(const nq_walk_method *m, const void *plan, struct nq_gpu *gpu,
                      nq_simd simd, double budget, uint64_t seed,
                      const nq_stop_flag *stop, nq_cost_model *out)
{
    if (!m || !gpu)
        return NQ_EINVAL;
    if (!m->solve_gpu)
        return NQ_EUNSUPPORTED;
    return priced_model(m, plan, gpu, simd, budget, seed, stop, out);
}

int nq_walk_unit_nodes(const nq_walk_method *m, const void *plan, uint64_t unit,
                       unsigned probes, uint64_t *seed, double *estimate,
                       uint64_t *exact)
{
    nq_walk_tree t;
    walk_node s, *frontier;
    int rc;
    if (!m || !plan || !seed || !estimate || probes == 0 || probes > NQ_WALK_MAX_PROBES)
        return NQ_EINVAL;
    rc = m->tree(plan, unit, &t);
    if (rc != NQ_OK)
        return rc;
    frontier = malloc(2 * (size_t)probes * sizeof *frontier);
    if (!frontier)
        return NQ_ENOMEM;
    s = start_of(&t);
    *estimate = unit_nodes(&t, &s, probes, frontier, seed);
    free(frontier);
    if (exact)
        *exact = nodes_below(&t, t.level, t.cols, t.ld, t.rd);
    return NQ_OK;
}
