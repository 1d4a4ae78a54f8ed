/*
 * join_plan.c - the join's plan: the unit list of one board size, what its
 * units share while they run (the quarter-board table, built by the units
 * that need it; the order of the units from n = 24 on; a pool of scratch),
 * a unit solved, a split profiled for the cost model, and the fit of a
 * count into a memory limit. How a split is counted is join_split.c's; the
 * design is in the note at the top of join_method.c. What the units share and
 * change while they run is guarded here (plan_shared below; see also
 * docs/conventions.md, "Threads and cancellation").
 */
#include "join_plan.h"

#include "join_bits.h"
#include "join_kernel.h"
#include "join_keys.h"
#include "join_memory.h"
#include "join_order.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* Longest unit list (runs of splits grouped to stay below it); from
 * NQ_JOIN_MANY_N on longer, for thousands of workers (list version 2). */
#define NQ_JOIN_MAX_UNITS 65536u
#define NQ_JOIN_MANY_N 24u
#define NQ_JOIN_MAX_UNITS_MANY ((uint64_t)1 << 21)

struct nq_join_plan {
    unsigned n;
    unsigned h;
    uint64_t per_m;  /* row splits per middle row (all splits, even n) */
    uint64_t space;  /* numbered splits */
    uint64_t group;  /* splits per unit */
    uint64_t nunits;
    struct plan_shared *shared; /* the table, built by the first unit that
                                   needs it, and idle scratch */
    uint64_t table_limit;       /* largest table built, in bytes */
    nq_simd cpu;                /* nq_cpu_simd_best(), asked once: CPUID
                                   is slow under some hypervisors */
    int vpopcnt;                /* nq_cpu_has_vpopcnt(), likewise */
    int cuts;                   /* bucket bits; negative: by list size */
    int passes;                 /* long east lists met by pattern */
    size_t batch;               /* keys per batch of a half's list */
    size_t rowset_pieces;       /* without the table: most pieces of a
                                   quarter listed per split (join_rowset.c);
                                   0: the halves are walked */
};

typedef struct plan_shared {
    pthread_mutex_t lock;       /* guards the builds */
    atomic_int state;           /* 0 not built, 1 built, 2 too large */
    nq_join_quarter quarter;
    /* The table's build, shared by every unit that needs the table while
     * it is built (under lock): its pass (0 not begun, 1 counting, 2
     * filling), the next part to take, the parts finished in this pass,
     * the first error of a part; `pass_done` is signalled when a pass
     * ends, and when the build does. */
    pthread_cond_t pass_done;
    int pass;
    unsigned next_part, parts_done;
    int build_rc;
    /* The order of the units from NQ_JOIN_MANY_N on (join_order.c), built
     * by the first unit, under lock: 0 not built, 1 built. */
    atomic_int order_state;
    uint32_t *order;
    /* Scratch of units that ended, kept for the next ones: a unit's key
     * lists take megabytes, and memory that is new to the process costs a
     * page fault per page. As many as units ran at once. */
    pthread_mutex_t idle_lock;
    nq_join_scratch *idle;
} plan_shared;

static void idle_free(plan_shared *t);

/* Largest quarter table built when no limit was fitted: a quarter of the
 * physical memory. */
static uint64_t nq_join_table_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return (uint64_t)1 << 30;
    return (uint64_t)pages * (uint64_t)size / 4;
}

/* ========================================================================
 * Plan
 * ======================================================================== */

int nq_join_plan_build(nq_join_plan **out, unsigned n)
{
    nq_join_plan *p;
    int ready = 0; /* the shared part's locks and condition that came up */
    if (!out)
        return NQ_EINVAL;
    *out = NULL;
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ENOMEM;
    p->shared = calloc(1, sizeof *p->shared);
    if (p->shared && pthread_mutex_init(&p->shared->lock, NULL) == 0 && ++ready &&
        pthread_mutex_init(&p->shared->idle_lock, NULL) == 0 && ++ready &&
        pthread_cond_init(&p->shared->pass_done, NULL) == 0)
        ready++;
    if (ready < 3) { /* undo what came up */
        if (ready > 1)
            pthread_mutex_destroy(&p->shared->idle_lock);
        if (ready > 0)
            pthread_mutex_destroy(&p->shared->lock);
        free(p->shared);
        free(p);
        return NQ_ENOMEM;
    }
    atomic_init(&p->shared->state, 0);
    atomic_init(&p->shared->order_state, 0);
    p->n = n;
    p->h = n / 2;
    p->table_limit = nq_join_table_limit();
    p->cpu = nq_cpu_simd_best();
    p->vpopcnt = nq_cpu_has_vpopcnt();
    p->cuts = -1;
    p->passes = 1;
    p->batch = NQ_JOIN_BATCH_KEYS;
    p->rowset_pieces = nq_join_rowset_want(n);
    if (n < NQ_JOIN_MIN_N) {
        p->per_m = p->space = p->group = p->nunits = 1;
    } else {
        p->per_m = nq_join_binomial(n - (n & 1u), p->h);
        p->space = (n & 1u) ? p->per_m * (p->h + 1) : p->per_m;
        const uint64_t most = n >= NQ_JOIN_MANY_N ? NQ_JOIN_MAX_UNITS_MANY
                                                  : NQ_JOIN_MAX_UNITS;
        p->group = (p->space + most - 1) / most;
        p->nunits = (p->space + p->group - 1) / p->group;
    }
    *out = p;
    return NQ_OK;
}

int nq_join_plan_build_walk(nq_join_plan **out, unsigned n)
{
    int rc = nq_join_plan_build(out, n);
    if (rc == NQ_OK)
        atomic_store(&(*out)->shared->state, 2);
    return rc;
}

int nq_join_plan_set_cuts(nq_join_plan *plan, int cuts)
{
    return !plan || cuts < -1 || cuts > (int)NQ_JOIN_MAX_CUTS ? NQ_EINVAL : (plan->cuts = cuts, NQ_OK);
}

int nq_join_plan_set_rowset_pieces(nq_join_plan *plan, size_t pieces)
{
    return !plan ? NQ_EINVAL : (plan->rowset_pieces = pieces, NQ_OK);
}

int nq_join_plan_set_passes(nq_join_plan *plan, int on)
{
    return !plan ? NQ_EINVAL : (plan->passes = on != 0, NQ_OK);
}

int nq_join_plan_set_batch(nq_join_plan *plan, size_t keys)
{
    return !plan || keys == 0 ? NQ_EINVAL : (plan->batch = keys, NQ_OK);
}

uint64_t nq_join_plan_size(const nq_join_plan *plan)
{
    return plan ? plan->nunits : 0;
}

void nq_join_plan_free(nq_join_plan *plan)
{
    if (!plan)
        return;
    idle_free(plan->shared);
    nq_join_quarter_free(&plan->shared->quarter);
    free(plan->shared->order);
    pthread_cond_destroy(&plan->shared->pass_done);
    pthread_mutex_destroy(&plan->shared->idle_lock);
    pthread_mutex_destroy(&plan->shared->lock);
    free(plan->shared);
    free(plan);
}

/* ========================================================================
 * Units
 * ======================================================================== */

/* Whether a unit may run at level simd (never AUTO): kernels built, CPU able. */
static int check_level(const nq_join_plan *plan, nq_simd simd)
{
    if (simd == NQ_SIMD_AUTO || !nq_simd_name(simd))
        return NQ_EINVAL;
    if (!nq_join_kernel_of(simd) || !nq_cpu_runs(plan->cpu, simd))
        return NQ_EUNSUPPORTED;
    return NQ_OK;
}

/* Ends a pass of the table's build (under lock, by the unit that ended
 * its last part): indexes the counts and starts the fills, or ends the
 * build; frees what was built after an error or when it does not fit. */
static void end_pass(const nq_join_plan *plan, plan_shared *t)
{
    int rc = t->build_rc;
    if (rc == NQ_OK && t->pass == 1) {
        rc = nq_join_quarter_index(&t->quarter, plan->table_limit);
        if (rc == NQ_OK) {
            t->pass = 2;
            t->next_part = t->parts_done = 0;
        }
    } else if (rc == NQ_OK) {
        nq_join_quarter_end(&t->quarter);
        t->pass = 0;
        atomic_store_explicit(&t->state, 1, memory_order_release);
    }
    if (rc != NQ_OK) {
        nq_join_quarter_free(&t->quarter);
        t->pass = 0;
        if (rc == NQ_ENOMEM)
            atomic_store_explicit(&t->state, 2, memory_order_release);
        /* else (cancelled) the next unit to need the table begins again */
    }
    pthread_cond_broadcast(&t->pass_done);
}

/* Takes part in the table's build until it ends (under lock): begins it
 * if no unit has, fills parts of the current pass one at a time while some
 * are left, else waits for the others' last parts. Every unit that needs
 * the table meanwhile shares the work: no serial step on many threads. */
static int join_build(const nq_join_plan *plan, plan_shared *t,
                      const nq_stop_flag *stop)
{
    while (atomic_load_explicit(&t->state, memory_order_relaxed) == 0) {
        unsigned part;
        int pass, rc;
        if (nq_stopped(stop))
            return NQ_ECANCELED;
        if (t->pass == 0) {
            rc = nq_join_quarter_begin(&t->quarter, plan->n - plan->h, plan->h,
                                       plan->table_limit);
            t->pass = 1;
            t->next_part = t->parts_done = 0;
            t->build_rc = rc;
            if (rc != NQ_OK) {
                end_pass(plan, t);
                continue;
            }
        }
        if (t->next_part == nq_join_quarter_parts(&t->quarter)) {
            pthread_cond_wait(&t->pass_done, &t->lock);
            continue;
        }
        part = t->next_part++;
        pass = t->pass;
        pthread_mutex_unlock(&t->lock);
        rc = pass == 1 ? nq_join_quarter_count_part(&t->quarter, part, stop)
                       : nq_join_quarter_fill_part(&t->quarter, part, stop);
        pthread_mutex_lock(&t->lock);
        if (rc != NQ_OK && t->build_rc == NQ_OK)
            t->build_rc = rc;
        if (++t->parts_done == nq_join_quarter_parts(&t->quarter))
            end_pass(plan, t);
        if (rc != NQ_OK)
            return rc;
    }
    return NQ_OK;
}

/* The plan's quarter table, built by the units that need it meanwhile;
 * NULL when it would not fit in memory (the halves are walked). */
static int plan_quarter(const nq_join_plan *plan, const nq_stop_flag *stop,
                        const nq_join_quarter **out)
{
    plan_shared *t = plan->shared;
    int state = atomic_load_explicit(&t->state, memory_order_acquire);
    int rc = NQ_OK;
    if (state == 0) {
        pthread_mutex_lock(&t->lock);
        rc = join_build(plan, t, stop);
        state = atomic_load_explicit(&t->state, memory_order_relaxed);
        pthread_mutex_unlock(&t->lock);
    }
    *out = state == 1 ? &t->quarter : NULL;
    return rc;
}

/* The run of splits that unit `unit` counts: the unit itself below
 * NQ_JOIN_MANY_N, else its place in the plan's order, built by the first
 * unit that needs it. */
static int plan_run(const nq_join_plan *plan, uint64_t unit, uint64_t *out)
{
    plan_shared *t = plan->shared;
    int rc = NQ_OK;
    *out = unit;
    if (plan->n < NQ_JOIN_MANY_N)
        return NQ_OK;
    if (!atomic_load_explicit(&t->order_state, memory_order_acquire)) {
        pthread_mutex_lock(&t->lock);
        if (!atomic_load_explicit(&t->order_state, memory_order_relaxed)) {
            rc = nq_join_order_build(&t->order, plan->n, plan->per_m, plan->space,
                                     plan->group, plan->nunits);
            if (rc == NQ_OK)
                atomic_store_explicit(&t->order_state, 1, memory_order_release);
        }
        pthread_mutex_unlock(&t->lock);
    }
    if (rc == NQ_OK)
        *out = t->order[unit];
    return rc;
}

int nq_join_plan_unit_splits(const nq_join_plan *plan, uint64_t unit,
                             uint64_t *first, uint64_t *end)
{
    uint64_t run;
    int rc;
    if (!plan || !first || !end || unit >= plan->nunits)
        return NQ_EINVAL;
    if (plan->n < NQ_JOIN_MIN_N) { /* one unit, a plain walk: no split */
        *first = *end = 0;
        return NQ_OK;
    }
    rc = plan_run(plan, unit, &run);
    if (rc != NQ_OK)
        return rc;
    *first = run * plan->group;
    *end = *first + plan->group < plan->space ? *first + plan->group : plan->space;
    return NQ_OK;
}

/* A scratch for one unit at level simd: an idle one, else a new one. */
static nq_join_scratch *scratch_take(const nq_join_plan *plan,
                                     const nq_join_quarter *quarter,
                                     nq_simd simd, const nq_stop_flag *stop)
{
    plan_shared *t = plan->shared;
    nq_join_scratch *s;
    pthread_mutex_lock(&t->idle_lock);
    s = t->idle;
    if (s)
        t->idle = s->next;
    pthread_mutex_unlock(&t->idle_lock);
    if (!s) {
        /* room for the fullest cell, or for every row set's pieces when
         * they all fit NQ_JOIN_ROWS_PIECES */
        size_t room = quarter ? quarter->largest : 0u;
        if (quarter && quarter->largest_rows <= NQ_JOIN_ROWS_PIECES &&
            room < quarter->largest_rows)
            room = quarter->largest_rows;
        s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        s->mt.block = aligned_alloc(64, sizeof *s->mt.block);
        if (!s->mt.block || nq_join_scratch_bins(s, 1u) != NQ_OK ||
            nq_join_pieces_reserve(&s->pieces, room) != NQ_OK) {
            nq_join_scratch_free(s);
            return NULL;
        }
    }
    s->next = NULL;
    s->profile = NULL;
    s->quarter = quarter;
    s->gw.n = s->ge.n = plan->n;
    s->gw.c0 = 0;
    s->ge.c0 = plan->n - plan->h;
    s->gw.sieve = s->ge.sieve = &s->sieve;
    s->cuts = plan->cuts;
    s->batch = plan->batch;
    s->passes_on = plan->passes;
    s->rowset_pieces = plan->rowset_pieces;
    s->kernel = nq_join_kernel_of(simd);
    s->mt.fill = s->kernel->fill;
    s->mt.match = nq_join_match_of(s->kernel, plan->vpopcnt);
    s->mt.fill_items = nq_join_fill_items_of(s->kernel, plan->vpopcnt);
    s->mt.stop = stop;
    s->mt.sample_at = &s->sample_at; /* sample_step 0: every block */
    return s;
}

static void idle_free(plan_shared *t)
{
    while (t->idle) {
        nq_join_scratch *next = t->idle->next;
        nq_join_scratch_free(t->idle);
        t->idle = next;
    }
}

static void scratch_give_back(const nq_join_plan *plan, nq_join_scratch *s)
{
    plan_shared *t = plan->shared;
    pthread_mutex_lock(&t->idle_lock);
    s->next = t->idle;
    t->idle = s;
    pthread_mutex_unlock(&t->idle_lock);
}

int nq_join_solve_unit(const nq_join_plan *plan, uint64_t unit, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out)
{
    nq_join_sampling whole = { .step = 1, .phase = 0, .east_step = 1, .east_phase = 0 };
    return nq_join_sample_unit(plan, unit, simd, &whole, stop, out);
}

int nq_join_sample_unit(const nq_join_plan *plan, uint64_t unit, nq_simd simd,
                        nq_join_sampling *smp, const nq_stop_flag *stop,
                        nq_unit_result *out)
{
    nq_join_scratch *s;
    const nq_join_quarter *quarter;
    uint64_t total = 0, first, end;
    int rc = NQ_EINVAL;

    if (!plan || !out || unit >= plan->nunits || !smp || smp->step < 1 ||
        smp->phase >= smp->step || smp->east_step < 1 || smp->east_phase >= smp->east_step ||
        (rc = check_level(plan, simd)) != NQ_OK)
        return rc;
    smp->match_seconds = smp->east_seconds = smp->east_match_seconds = 0.0;
    if (nq_stopped(stop))
        return NQ_ECANCELED;
    if (plan->n < NQ_JOIN_MIN_N) {
        out->total = nq_join_small_count(plan->n, 0, 0, 0, 0);
        out->unique = 0;
        return NQ_OK;
    }
    rc = nq_join_plan_unit_splits(plan, unit, &first, &end);
    if (rc == NQ_OK)
        rc = plan_quarter(plan, stop, &quarter);
    if (rc != NQ_OK)
        return rc;
    s = scratch_take(plan, quarter, simd, stop);
    if (!s)
        return NQ_ENOMEM;
    nq_join_scratch_sampling(s, smp);
    rc = nq_join_solve_splits(s, plan->n, plan->per_m, first, end, &total);
    nq_join_scratch_sampling(s, NULL); /* the times to smp, and no sample */
    scratch_give_back(plan, s);
    if (rc != NQ_OK)
        return rc;
    out->total = total;
    out->unique = 0;
    return NQ_OK;
}

/* ========================================================================
 * Splits profiled for the cost model (join_cost.c)
 * ======================================================================== */

/* the plan's shape, as nq_join_profile_split() and the cost model see it */
uint64_t nq_join_plan_splits(const nq_join_plan *plan)
{
    return plan && plan->n >= NQ_JOIN_MIN_N ? plan->space : 0;
}
unsigned nq_join_plan_n(const nq_join_plan *plan) { return plan ? plan->n : 0; }
int nq_join_plan_walks(const nq_join_plan *plan)
{
    return plan && atomic_load(&plan->shared->state) == 2;
}
size_t nq_join_plan_rowset_pieces(const nq_join_plan *plan)
{
    return plan ? plan->rowset_pieces : 0;
}
size_t nq_join_plan_batch(const nq_join_plan *plan) { return plan ? plan->batch : 0; }

int nq_join_profile_split(const nq_join_plan *plan, uint64_t split, nq_simd simd,
                          int table, const nq_stop_flag *stop,
                          nq_join_profile *prof)
{
    const nq_join_quarter *quarter = NULL;
    uint64_t total = 0;
    nq_join_scratch *s;
    int rc;

    if (!plan || !prof || plan->n < NQ_JOIN_MIN_N || split >= plan->space)
        return NQ_EINVAL;
    rc = check_level(plan, simd);
    if (rc == NQ_OK)
        rc = nq_join_profile_ready(prof);
    if (rc == NQ_OK && table)
        rc = plan_quarter(plan, stop, &quarter);
    if (rc != NQ_OK)
        return rc;
    if (quarter) {
        s = scratch_take(plan, quarter, simd, stop);
    } else { /* its piece lists are too short for a unit that uses the
              * table: it never joins the plan's idle ones */
        s = prof->keep ? prof->keep : scratch_take(plan, NULL, simd, stop);
        prof->keep = NULL;
    }
    if (!s)
        return NQ_ENOMEM;
    s->profile = prof;
    s->mt.sample_step = prof->step > 1 ? prof->step : 0; /* one block in step */
    s->sample_at = prof->step > 1 ? prof->seed++ % prof->step : 0;
    rc = nq_join_solve_splits(s, plan->n, plan->per_m, split, split + 1, &total);
    s->profile = NULL;
    s->mt.sample_step = 0;
    if (quarter)
        scratch_give_back(plan, s);
    else
        prof->keep = s;
    if (rc == NQ_OK)
        prof->total += total;
    return rc;
}

void nq_join_profile_end(nq_join_profile *prof)
{
    if (!prof)
        return;
    if (prof->keep)
        nq_join_scratch_free(prof->keep);
    free(prof->pkey);
    free(prof->pweight);
    free(prof->area);
    prof->keep = NULL;
    prof->pkey = NULL;
    prof->pweight = NULL;
    prof->pcap = 0;
    prof->area = NULL;
}

/* ========================================================================
 * What a count needs before its units run
 * ======================================================================== */

int nq_join_plan_prepare(const nq_join_plan *plan, const nq_stop_flag *stop)
{
    const nq_join_quarter *quarter;
    uint64_t run;
    int rc = plan_quarter(plan, stop, &quarter);
    if (rc == NQ_OK && plan->n >= NQ_JOIN_MIN_N)
        rc = plan_run(plan, 0, &run);
    return rc;
}

/* The largest batch, and the table when it fits beside the threads'
 * scratch, else the walk (slower, about 4 times, than the table; smaller
 * batches cost a little: the west list is listed once per east batch);
 * NQ_EMEMLIMIT when even the walk with the smallest batch does not fit. */
int nq_join_plan_fit_memory(nq_join_plan *plan, unsigned threads, uint64_t limit,
                            uint64_t *out)
{
    const unsigned n = plan->n;
    const uint64_t t = threads ? threads : 1u;
    /* the units' order, and the sort's pairs while it is built */
    const uint64_t order = n >= NQ_JOIN_MANY_N ? plan->nunits * 20u : 0;
    if (n < NQ_JOIN_MIN_N) {
        *out = 0;
        return NQ_OK;
    }
    if (limit < order) {
        *out = order + nq_join_unit_bytes(n, NQ_JOIN_MIN_BATCH_KEYS, 0) * t;
        return NQ_EMEMLIMIT;
    }
    limit -= order;
    /* the table's size is worked out once (a walk over its cells), with
     * the room that the smallest batch leaves */
    uint64_t table = UINT64_MAX;
    if (threads && nq_join_unit_bytes(n, NQ_JOIN_MIN_BATCH_KEYS, 1) <= limit / t)
        table = nq_join_quarter_bytes(n - plan->h, plan->h,
                                      limit - nq_join_unit_bytes(n, NQ_JOIN_MIN_BATCH_KEYS, 1) *
                                                  t);
    /* the table; else (below NQ_JOIN_BATCH_FIRST_N) slots as large as n
     * wants beside the largest batch that leaves room; else the largest
     * batch (there: within NQ_JOIN_TIGHT_BATCH_KEYS), and slots beside */
    const int batch_first = n >= NQ_JOIN_BATCH_FIRST_N;
    for (int mode = 0; mode < 3; mode += mode == 0 && batch_first ? 2 : 1)
        for (size_t batch = mode < 2 || batch_first ? NQ_JOIN_BATCH_KEYS
                                                    : NQ_JOIN_TIGHT_BATCH_KEYS;
             batch >= NQ_JOIN_MIN_BATCH_KEYS; batch /= 2) {
            const int with = mode == 0;
            uint64_t per_thread = nq_join_unit_bytes(n, batch, with);
            const uint64_t bytes = with ? table : 0;
            size_t pieces = plan->rowset_pieces;
            if (threads == 0 || per_thread > limit / t ||
                (with && (table == UINT64_MAX || bytes > limit - per_thread * t)))
                continue;
            if (!with) {
                if (mode == 2)
                    pieces = nq_join_rowset_fit(n, pieces, limit / t - per_thread);
                else if (!pieces || nq_join_rowset_bytes(n, pieces) > limit / t - per_thread)
                    continue;
                per_thread += nq_join_rowset_bytes(n, pieces);
                plan->rowset_pieces = pieces;
                atomic_store(&plan->shared->state, 2); /* no table */
            }
            plan->table_limit = bytes;
            plan->batch = batch;
            *out = order + per_thread * t + bytes;
            return NQ_OK;
        }
    *out = order + nq_join_unit_bytes(n, NQ_JOIN_MIN_BATCH_KEYS, 0) * t;
    return NQ_EMEMLIMIT;
}
