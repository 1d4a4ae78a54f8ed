/*
 * nq_sim: how evenly W workers of nqueens-mpi would finish a count, from
 * the costs of its units, simulated under the coordinator's own policy.
 *
 * The policy (src/mpi/mpi_coordinator.c): the batch is fixed when the job
 * starts, B = units left / (workers * 16), at least 1; a worker that is
 * idle gets the next B free units in list order, counts them one after
 * another and asks again. Every worker asks at time 0; the coordinator's
 * replies and the messages take no time here. A worker is one counting
 * unit of the job (one thread's worth: the costs are one-core seconds).
 *
 * Costs. The input is lines "unit <field> seconds" (nq_sample's output, or
 * bench/nq_unit_model.c's; lines starting with '#', the header and the
 * line marked "(with the setup)" are skipped). They may be a sample of
 * every m-th unit: each cost then stands for the units from its own to the
 * next sampled one (neighbouring units cost about the same), and the list
 * is UNITS long (default: one past the last unit read).
 *
 * With -r SEED, each unit's cost is drawn at random from the costs read
 * instead (the sample taken as the distribution, without its order). With
 * -l, the units are dealt largest first by their costs: what a
 * coordinator that knew every unit's cost would do, which the real one
 * does not (it deals in list order).
 *
 * Printed: the batch, the finish times (first, last, mean), the spread
 * last / first and last / mean, and the efficiency: the work over
 * workers x last finish. "Within 10% of each other" is last / first
 * <= 1.10.
 *
 * usage: nq_sim [-r SEED] [-l] FILE WORKERS [UNITS [BATCH]]   (FILE "-": stdin)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_arg.h"

typedef struct cost_list {
    unsigned long long *unit;
    double *seconds;
    size_t len, cap;
} cost_list;

static int read_costs(cost_list *c, FILE *f)
{
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long long u;
        char field[128];
        double s;
        if (line[0] == '#' || strstr(line, "(with the setup)"))
            continue;
        if (sscanf(line, "%llu %127s %lf", &u, field, &s) != 3)
            continue;
        if (c->len == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 4096;
            unsigned long long *nu = realloc(c->unit, cap * sizeof *nu);
            double *ns;
            if (!nu)
                return -1;
            c->unit = nu;
            ns = realloc(c->seconds, cap * sizeof *ns);
            if (!ns)
                return -1;
            c->seconds = ns;
            c->cap = cap;
        }
        if (c->len && u <= c->unit[c->len - 1]) {
            fprintf(stderr, "nq_sim: units must come in increasing order (%llu)\n", u);
            return -1;
        }
        c->unit[c->len] = u;
        c->seconds[c->len++] = s;
    }
    return 0;
}

/* A min-heap of (finish time, worker). */
typedef struct slot {
    double t;
    unsigned w;
} slot;

static void heap_down(slot *h, size_t len, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        slot tmp;
        if (l < len && h[l].t < h[m].t)
            m = l;
        if (r < len && h[r].t < h[m].t)
            m = r;
        if (m == i)
            return;
        tmp = h[i];
        h[i] = h[m];
        h[m] = tmp;
        i = m;
    }
}

static unsigned long long arg(const char *s, const char *what)
{
    const uint64_t v = bench_arg("nq_sim", s, what);
    if (v == 0) {
        fprintf(stderr, "nq_sim: %s '%s' is not a positive whole number\n", what, s);
        exit(2);
    }
    return v;
}

static int by_cost_down(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

int main(int argc, char **argv)
{
    cost_list c = { 0 };
    unsigned long long workers, units, batch, next = 0, seed = 0;
    double *finish, *cost, work = 0.0, first, last = 0.0, mean = 0.0;
    int largest = 0, drawn = 0;
    size_t at = 0;
    slot *heap;
    FILE *f;
    while (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
        if (!strcmp(argv[1], "-l")) {
            largest = 1;
        } else if (!strcmp(argv[1], "-r") && argc > 2) {
            seed = arg(argv[2], "SEED");
            drawn = 1;
            argv++;
            argc--;
        } else {
            break;
        }
        argv++;
        argc--;
    }
    if (argc < 3 || argc > 5) {
        fputs("usage: nq_sim [-r SEED] [-l] FILE WORKERS [UNITS [BATCH]]\n", stderr);
        return 2;
    }
    f = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
    if (!f) {
        fprintf(stderr, "nq_sim: cannot open '%s'\n", argv[1]);
        return 2;
    }
    if (read_costs(&c, f) != 0 || c.len == 0) {
        fprintf(stderr, "nq_sim: no costs read from '%s'\n", argv[1]);
        return 1;
    }
    if (f != stdin)
        fclose(f);
    workers = arg(argv[2], "WORKERS");
    units = argc > 3 ? arg(argv[3], "UNITS") : c.unit[c.len - 1] + 1;
    if (units <= c.unit[c.len - 1]) {
        fputs("nq_sim: UNITS must pass the last unit read\n", stderr);
        return 2;
    }
    batch = argc > 4 ? arg(argv[4], "BATCH") : units / (workers * 16);
    if (batch < 1)
        batch = 1;
    finish = calloc(workers, sizeof *finish);
    heap = malloc(workers * sizeof *heap);
    cost = malloc(units * sizeof *cost);
    if (!finish || !heap || !cost)
        return 1;
    for (unsigned long long u = 0; u < units; u++) {
        if (drawn) { /* a 64-bit LCG, its high bits */
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            at = (size_t)((seed >> 33) % c.len);
        } else {
            while (at + 1 < c.len && c.unit[at + 1] <= u)
                at++;
        }
        cost[u] = c.seconds[at]; /* drawn, or the sampled unit at or before u */
    }
    if (largest)
        qsort(cost, units, sizeof *cost, by_cost_down);
    for (unsigned long long w = 0; w < workers; w++) {
        heap[w].t = 0.0;
        heap[w].w = (unsigned)w;
    }
    /* the idle worker with the earliest time takes the next batch; ties
     * go to any (the heap's order), as messages would */
    while (next < units) {
        slot *s = &heap[0];
        for (unsigned long long k = 0; k < batch && next < units; k++, next++) {
            s->t += cost[next];
            work += cost[next];
        }
        finish[s->w] = s->t;
        heap_down(heap, (size_t)workers, 0);
    }
    first = finish[0];
    for (unsigned long long w = 0; w < workers; w++) {
        if (finish[w] < first)
            first = finish[w];
        if (finish[w] > last)
            last = finish[w];
        mean += finish[w];
    }
    mean /= (double)workers;
    printf("# %zu costs read%s; %llu units, %llu workers, batch %llu, %s\n", c.len,
           drawn ? " (drawn at random)" : "", units, workers, batch,
           largest ? "largest first" : "in list order");
    printf("work\t%.6g\nfirst\t%.6g\nlast\t%.6g\nmean\t%.6g\n", work, first, last, mean);
    if (first > 0)
        printf("last/first\t%.4f\n", last / first);
    else
        printf("last/first\tinf (a worker got no unit)\n");
    printf("last/mean\t%.4f\nefficiency\t%.4f\n", mean > 0 ? last / mean : 0.0,
           last > 0 ? work / ((double)workers * last) : 0.0);
    free(finish);
    free(heap);
    free(cost);
    free(c.unit);
    free(c.seconds);
    return 0;
}
