/*
 * nq_subsample: the one-core time of a plain-walk count too big to sample
 * by whole units, from a two-stage sample: a systematic sample of the
 * units (as nq_sample.c takes it), and in each of them a systematic sample
 * of its subtrees, each timed as the plain method walks it.
 *
 * From n = 21 a unit of --method=plain takes ten minutes to hours on one
 * core, and each size takes eight to ten times the last, so a sample of
 * whole units stops at n = 21. Below a unit's two queens, this program
 * lists the nodes of row DEPTH (queens on rows 0 .. DEPTH-1), takes every
 * j-th of them from a start drawn from the seed, so that about SUBTREES are
 * taken, and counts each one's solutions with the method's own walk
 * (plain.h), timing each in CPU seconds of the thread. j times the sums
 * is then what the unit's walk would have counted and taken, without bias:
 * each node is taken with chance 1/j. The rows above DEPTH (the listing)
 * are not timed; they are a tiny share of the walk's nodes.
 *
 * Printed: one line per unit (its nodes on row DEPTH, the step j, how many
 * were walked, and the unit's total and CPU seconds as estimated), then
 * what the sample says of the whole count, with 95% intervals from the
 * spread of the units' estimates (which holds the spread within the units
 * too): the one-core CPU seconds, and the total, which must hold the
 * published one where it is known.
 *
 * With WHOLE 1, each sampled unit is also counted whole by the method
 * (nq_plain_solve_unit) and timed, and its line adds that total and time
 * and the estimate over it: the check of the sampling, unit by unit
 * (SUBTREES at least a unit's nodes walks them all: then only the
 * difference of walking the subtrees apart is left).
 *
 * usage: nq_subsample N [UNITS [SUBTREES [SEED [DEPTH [WHOLE]]]]]
 *        (defaults 12 units, 1000 subtrees, seed 1, DEPTH n/2 - 4, at least 3:
 *        a unit of n = 22 has some 300,000 nodes on that row, one of n = 26
 *        some 100 million, listed in about a second; a subtree takes about
 *        0.01 s at n = 22 and 0.4 s at 26)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_arg.h"
#include "bench_sample.h"
#include "methods/plain/plain.h"
#include "nqc_clock.h"
#include "nqueens.h"

typedef struct walk_ctx {
    const nq_plain_plan *plan;
    unsigned n, depth;
    uint64_t seen;        /* nodes of row depth met so far */
    uint64_t step, start; /* walk node i when i % step == start; step 0: list only */
    uint64_t walked, count;
    double cpu;
    int rc;
} walk_ctx;

static void visit(walk_ctx *c, nq_plain_node node)
{
    if (node.row == c->depth) {
        if (c->step && c->seen % c->step == c->start && c->rc == NQ_OK) {
            uint64_t k = 0;
            double t0 = nqc_thread_cpu();
            c->rc = nq_plain_count_below(c->plan, &node, &k);
            c->cpu += nqc_thread_cpu() - t0;
            c->count += k;
            c->walked++;
        }
        c->seen++;
        return;
    }
    const uint32_t full = c->n >= 32 ? UINT32_MAX : (UINT32_C(1) << c->n) - 1u;
    uint32_t f = full & ~(node.cols | node.ld | node.rd);
    while (f) {
        uint32_t bit = f & (0u - f);
        f ^= bit;
        nq_plain_node child = { node.row + 1, node.cols | bit, (node.ld | bit) << 1,
                                (node.rd | bit) >> 1 };
        visit(c, child);
    }
}

int main(int argc, char **argv)
{
    uint64_t n, want = 12, subtrees = 1000, seed = 1, depth, units, whole = 0;
    nq_plain_plan *plan = NULL;
    static const char *const names[] = { "N", "UNITS", "SUBTREES", "SEED", "DEPTH", "WHOLE" };
    uint64_t *const nums[] = { &n, &want, &subtrees, &seed, &depth, &whole };
    bench_args(argc, argv, "nq_subsample", "N [UNITS [SUBTREES [SEED [DEPTH [WHOLE]]]]]", 6,
               6, names, nums);
    if (argc < 6)
        depth = n / 2 > 7 ? n / 2 - 4 : 3;
    if (n < 5 || n > NQ_MAX_N || want < 2 || subtrees < 1 || depth < 3 || depth > n - 2) {
        fputs("nq_subsample: N must be 5 to NQ_MAX_N, UNITS at least 2, SUBTREES at "
              "least 1 and DEPTH 3 to N - 2\n",
              stderr);
        return 2;
    }
    if (nq_plain_plan_build(&plan, (unsigned)n) != NQ_OK) {
        fputs("nq_subsample: out of memory\n", stderr);
        return 1;
    }
    units = nq_plain_plan_size(plan);
    if (want > units)
        want = units;
    const uint32_t m = (uint32_t)(units / want);
    const uint32_t k = (uint32_t)bench_sample_start(seed, m);
    const size_t cap = (size_t)(units / m + 1);
    double *secs = calloc(cap, sizeof *secs), *totals = calloc(cap, sizeof *totals);
    if (!secs || !totals) {
        fputs("nq_subsample: out of memory\n", stderr);
        return 1;
    }

    const double t0 = nqc_now();
    size_t len = 0;
    printf("unit\tnodes\tstep\twalked\ttotal\tcpu_seconds%s\n",
           whole ? "\twhole_total\twhole_cpu_seconds\tsampled_over_whole" : "");
    for (uint64_t u = k - 1; u < units; u += m) {
        nq_plain_node start;
        unsigned weight;
        walk_ctx c = { plan, (unsigned)n, (unsigned)depth, 0, 0, 0, 0, 0, 0, NQ_OK };
        if (nq_plain_unit_node(plan, u, &start, &weight) != NQ_OK)
            return 1; /* cannot happen: n >= 5 and u < units */
        visit(&c, start); /* list only: how many nodes row depth has */
        const uint64_t nodes = c.seen;
        c.step = nodes / subtrees ? nodes / subtrees : 1;
        c.start = bench_sample_start(seed ^ (u * 0x94D049BB133111EBu), c.step) - 1u;
        c.seen = 0;
        if (nodes)
            visit(&c, start);
        if (c.rc != NQ_OK) {
            fprintf(stderr, "nq_subsample: unit %llu: %s\n", (unsigned long long)u,
                    nq_strerror(c.rc));
            return 1;
        }
        secs[len] = (double)c.step * c.cpu;
        totals[len] = (double)c.step * (double)c.count * weight;
        printf("%llu\t%llu\t%llu\t%llu\t%.6g\t%.6g", (unsigned long long)u,
               (unsigned long long)nodes, (unsigned long long)c.step,
               (unsigned long long)c.walked, totals[len], secs[len]);
        if (whole) {
            nq_unit_result r = { 0, 0 };
            const double w0 = nqc_thread_cpu();
            if (nq_plain_solve_unit(plan, u, NULL, &r) != NQ_OK)
                return 1;
            const double w = nqc_thread_cpu() - w0;
            printf("\t%llu\t%.6g\t%.4f", (unsigned long long)r.total, w, secs[len] / w);
        }
        putchar('\n');
        fflush(stdout);
        len++;
    }
    printf("# n = %u, plain, 1 thread: part %u of %u (%zu of %llu units), row %u, "
           "about %llu subtrees a unit, seed %llu, %.1f s in all\n",
           (unsigned)n, k, m, len, (unsigned long long)units, (unsigned)depth,
           (unsigned long long)subtrees, (unsigned long long)seed, nqc_now() - t0);
    double tm, tse;
    bench_mean_se(&tm, &tse, secs, len);
    const double u = (double)units;
    printf("# one-core CPU seconds of the whole count: %.4g (95%%: %.4g to %.4g); "
           "%.3g core-hours\n",
           u * tm, u * (tm - 1.96 * tse), u * (tm + 1.96 * tse), u * tm / 3600);
    uint64_t known = 0, known_unique = 0;
    int have_known = nq_known(&known, &known_unique, (unsigned)n) == NQ_OK;
    bench_sample_report("total", totals, len, u, "", have_known, known);
    free(secs);
    free(totals);
    nq_plain_plan_free(plan);
    return 0;
}
