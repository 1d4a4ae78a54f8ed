/*
 * The counting engine: one ordered list of work units per method, a pool of
 * POSIX threads that pull units from it, and the caller's thread watching.
 *
 * Each method (method.h: one row per method) turns a board size into a
 * deterministic, ordered list of units and counts any unit on its own. The engine picks
 * the units this run must do (a range, a part k of m, minus those a
 * checkpoint already holds) into an array, and the workers take them in
 * order through one atomic index: long units early or late, every thread
 * stays busy until the list runs dry. Each worker adds into its own
 * accumulator, padded to a cache line so the threads never share one; the
 * sums are added up at the end, so the result does not depend on which
 * thread did what, nor on how many there were.
 *
 * The caller's thread does not count: it waits on a condition variable with
 * a short timeout, and between waits it looks at the caller's cancel flag,
 * reports progress and saves the checkpoint. A raised cancel flag becomes
 * the internal `stop` flag, which the kernels poll.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint/checkpoint.h"
#include "engine.h"
#include "method.h"
#include "options.h"
#include "results.h"
#include "nqc_clock.h"

/* How often the watching thread wakes up, in milliseconds. */
#define WATCH_PERIOD_MS 20
/* Shortest time between two progress reports, in seconds. */
#define PROGRESS_PERIOD 0.25

/* ------------------------------------------------------------------------
 * The run
 * ------------------------------------------------------------------------ */
typedef struct accumulator {
    uint64_t total;
    uint64_t unique;
    uint64_t units;
} accumulator;

typedef struct run {
    const nq_method_ops *ops;
    const void *plan;
    nq_simd simd;
    const nq_count_options *opts;
    const uint64_t *todo; /* the units of this run, in list order */
    uint64_t ntodo;

    atomic_uint_fast64_t next; /* index into todo of the next unit to take */
    nq_stop_flag stop;         /* raised on cancel or on a worker's error */

    pthread_mutex_t lock;      /* guards what follows, and on_unit calls */
    pthread_cond_t wake;
    uint64_t finished;         /* units finished by this run */
    uint64_t resumed;          /* units a checkpoint already held */
    unsigned workers_left;
    int error;                 /* first error a worker met */
} run;

/* Each worker's sums sit on a cache line of their own. */
#define CACHE_LINE 64
typedef struct worker {
    _Alignas(CACHE_LINE) accumulator acc;
    run *r;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    run *r = w->r;

    for (;;) {
        nq_unit_result res;
        uint64_t i, unit;
        int rc;

        if (atomic_load_explicit(&r->stop, memory_order_relaxed))
            break;
        i = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed);
        if (i >= r->ntodo)
            break;
        unit = r->todo[i];
        rc = r->ops->solve(r->plan, unit, r->simd, &r->stop, &res);
        if (rc != NQ_OK) {
            pthread_mutex_lock(&r->lock);
            if (rc != NQ_ECANCELED && r->error == NQ_OK)
                r->error = rc;
            pthread_mutex_unlock(&r->lock);
            atomic_store(&r->stop, 1);
            break;
        }
        w->acc.total += res.total;
        w->acc.unique += res.unique;
        w->acc.units++;
        pthread_mutex_lock(&r->lock);
        r->finished++;
        if (r->opts->checkpoint) {
            rc = nq_checkpoint_record(r->opts->checkpoint, unit, res.total,
                                      res.unique);
            if (rc != NQ_OK && r->error == NQ_OK) {
                r->error = rc;
                atomic_store(&r->stop, 1);
            }
        }
        if (r->opts->on_unit)
            r->opts->on_unit(unit, res.total, res.unique, r->opts->unit_data);
        pthread_mutex_unlock(&r->lock);
    }
    pthread_mutex_lock(&r->lock);
    r->workers_left--;
    pthread_cond_signal(&r->wake);
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

static double now_seconds(void) { return nqc_now(); }

static void report(const run *r, double start)
{
    nq_progress p;
    if (!r->opts->progress)
        return;
    p.version = NQ_PROGRESS_VERSION;
    p.units_done = r->resumed + r->finished;
    p.units_total = r->resumed + r->ntodo;
    p.elapsed = now_seconds() - start;
    p.units_resumed = r->resumed;
    r->opts->progress(&p, r->opts->progress_data);
}

/* Runs the pool over r->todo while the caller's thread watches; adds the
 * workers' sums into *sum. */
static int run_pool(run *r, unsigned threads, double start, accumulator *sum)
{
    worker *ws;
    pthread_t *tids;
    unsigned started = 0;
    double last_report = start, last_save = start;
    int rc = NQ_OK;

    ws = aligned_alloc(CACHE_LINE, threads * sizeof *ws);
    tids = calloc(threads, sizeof *tids);
    if (ws)
        memset(ws, 0, threads * sizeof *ws);
    if (!ws || !tids) {
        free(ws);
        free(tids);
        return NQ_ENOMEM;
    }
    pthread_mutex_lock(&r->lock);
    for (unsigned t = 0; t < threads; t++) {
        ws[t].r = r;
        if (pthread_create(&tids[t], NULL, work, &ws[t]) != 0)
            break;
        started++;
        r->workers_left++;
    }
    if (started < threads) {
        /* whatever started stops at once; the run reports the failure */
        atomic_store(&r->stop, 1);
        rc = NQ_ETHREAD;
    }
    while (r->workers_left > 0) {
        struct timespec until;
        double t;

        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_PERIOD_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&r->wake, &r->lock, &until);
        if (nq_cancel_raised(r->opts->stop))
            atomic_store(&r->stop, 1);
        t = now_seconds();
        if (r->workers_left > 0 && t - last_report >= PROGRESS_PERIOD) {
            last_report = t;
            report(r, start);
        }
        if (r->opts->checkpoint && t - last_save >= r->opts->checkpoint_interval) {
            int src = nq_checkpoint_save(r->opts->checkpoint);
            last_save = t;
            if (src != NQ_OK && r->error == NQ_OK) {
                r->error = src;
                atomic_store(&r->stop, 1);
            }
        }
    }
    if (rc == NQ_OK)
        rc = r->error;
    pthread_mutex_unlock(&r->lock);
    for (unsigned t = 0; t < started; t++) {
        pthread_join(tids[t], NULL);
        sum->total += ws[t].acc.total;
        sum->unique += ws[t].acc.unique;
        sum->units += ws[t].acc.units;
    }
    free(tids);
    free(ws);
    if (rc == NQ_OK && atomic_load(&r->stop))
        rc = NQ_ECANCELED;
    return rc;
}

static int check_options(const nq_count_options *o, unsigned n)
{
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    if (!nq_method_ops_of(o->method) || !nq_simd_name(o->simd))
        return NQ_EINVAL;
    if ((o->part_m == 0) != (o->part_k == 0) || o->part_k > o->part_m)
        return NQ_EINVAL;
    if (!(o->checkpoint_interval >= 0.0))
        return NQ_EINVAL;
    return NQ_OK;
}

/* Fills todo with the units of [first, end) that this run must count;
 * units that the checkpoint already holds are added to *resumed instead. */
static uint64_t select_units(uint64_t *todo, accumulator *resumed,
                             const nq_count_options *o, uint64_t first,
                             uint64_t end)
{
    uint64_t k = 0;
    for (uint64_t u = first; u < end; u++) {
        if (o->part_m && nq_part_of_unit(u, o->part_m) != o->part_k)
            continue;
        if (o->checkpoint && nq_checkpoint_is_done(o->checkpoint, u)) {
            resumed->total += nq_checkpoint_unit_total(o->checkpoint, u);
            resumed->unique += nq_checkpoint_unit_unique(o->checkpoint, u);
            resumed->units++;
            continue;
        }
        todo[k++] = u;
    }
    return k;
}

/* The method of the count: the one named; for the default with a
 * checkpoint that holds a method's units, that method when it gives what
 * is asked (a default run resumes as it began); else the default for n
 * and unique, to which a checkpoint opened for the default with nothing in
 * it yet is bound. */
static int pick_method(const nq_method_ops **out, const nq_count_options *o, unsigned n)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    int rc;

    if (o->method == NQ_METHOD_DEFAULT && o->checkpoint &&
        !nq_checkpoint_is_unbound(o->checkpoint) &&
        nq_checkpoint_info_get(&info, o->checkpoint) == NQ_OK && info.n == n &&
        nq_method_pick(out, info.method, n, o->unique) == NQ_OK)
        return NQ_OK;
    rc = nq_method_pick(out, o->method, n, o->unique);
    if (rc == NQ_OK && o->method == NQ_METHOD_DEFAULT && o->checkpoint) {
        uint64_t units;
        rc = nq_units(&units, n, (*out)->id);
        if (rc == NQ_OK)
            rc = nq_checkpoint_bind(o->checkpoint, (*out)->id, (*out)->list_version, units);
        if (rc == NQ_EMISMATCH)
            rc = NQ_OK; /* check_checkpoint() says so */
    }
    return rc;
}

/* A checkpoint must be one of this very count. */
static int check_checkpoint(const nq_checkpoint *cp, unsigned n,
                            nq_method method)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    if (!cp)
        return NQ_OK;
    if (nq_checkpoint_info_get(&info, cp) != NQ_OK)
        return NQ_EINVAL;
    if (info.n != n || info.method != method ||
        info.unit_list_version != nq_unit_list_version(method))
        return NQ_EMISMATCH;
    return NQ_OK;
}

/* Bytes of the engine's own lists per unit: the unit list of the plan
 * (at most 16 bytes a unit in every method) and this run's todo list. */
#define LIST_BYTES_PER_UNIT 24u
/* The process that counts, before any count: code, libc, stacks and the
 * allocator's first pages (the nqueens command's peak resident memory on
 * a board of 4: 1.9 MiB, glibc on x86-64). */
#define PROCESS_BYTES ((uint64_t)1900u << 10)
/* Each counting thread, whatever its method: its stack, the allocator's
 * arena and a method's small scratch (measured, 16 threads of the
 * symmetry method: 120 KiB a thread at n = 15, 170 KiB at 17). */
#define THREAD_BYTES ((uint64_t)128u << 10)
/* Without max_memory, a count may take this share of physical memory. */
#define DEFAULT_MEMORY_SHARE 2u

uint64_t nq_default_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return (uint64_t)1 << 31;
    return (uint64_t)pages * (uint64_t)size / DEFAULT_MEMORY_SHARE;
}

int nq_counter_open(nq_counter *s, unsigned n, const nq_count_options *opts)
{
    uint64_t limit, base, method_bytes = 0;
    int rc;

    memset(s, 0, sizeof *s);
    rc = nq_count_options_load(&s->o, opts);
    if (rc != NQ_OK)
        return rc;
    rc = check_options(&s->o, n);
    if (rc != NQ_OK)
        return rc;
    rc = pick_method(&s->ops, &s->o, n);
    if (rc != NQ_OK)
        return rc;
    rc = nq_method_simd(&s->simd, s->ops, s->o.simd);
    if (rc != NQ_OK)
        return rc;
    rc = check_checkpoint(s->o.checkpoint, n, s->ops->id);
    if (rc != NQ_OK)
        return rc;
    rc = s->ops->build(&s->plan, n);
    if (rc != NQ_OK)
        return rc;
    s->size = s->ops->size(s->plan);
    s->threads = s->o.threads ? s->o.threads : nq_cpus_usable();
    if (s->size && s->threads > s->size)
        s->threads = (unsigned)s->size;
    limit = s->o.max_memory ? s->o.max_memory : nq_default_memory_limit();
    /* what any method takes: the process, its threads, the engine's lists */
    base = s->size * LIST_BYTES_PER_UNIT + PROCESS_BYTES + THREAD_BYTES * s->threads;
    rc = base > limit ? NQ_EMEMLIMIT : NQ_OK;
    if (s->ops->fit_memory)
        rc = s->ops->fit_memory(s->plan, s->threads, rc == NQ_OK ? limit - base : 0,
                                &method_bytes) != NQ_OK ? NQ_EMEMLIMIT : rc;
    s->memory = base + method_bytes; /* on NQ_EMEMLIMIT: the least it needs */
    if (rc != NQ_OK) {
        s->ops->destroy(s->plan);
        s->plan = NULL;
    }
    return rc;
}

int nq_counter_prepare(nq_counter *c, const nq_stop_flag *stop)
{
    return c->ops->prepare ? c->ops->prepare(c->plan, stop) : NQ_OK;
}

void nq_counter_close(nq_counter *c)
{
    if (c->plan)
        c->ops->destroy(c->plan);
    c->plan = NULL;
}

int nq_memory(uint64_t *out, unsigned n, const nq_count_options *opts)
{
    nq_counter c;
    int rc;
    if (!out)
        return NQ_EINVAL;
    rc = nq_counter_open(&c, n, opts);
    nq_counter_close(&c);
    if (rc == NQ_OK || rc == NQ_EMEMLIMIT)
        *out = c.memory;
    return rc;
}

int nq_count(nq_count_result *out, unsigned n, const nq_count_options *opts)
{
    nq_count_result full;
    nq_counter c;
    int rc;
    if (!out)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_count_result_layout, out))
        return NQ_EVERSION;
    rc = nq_counter_open(&c, n, opts);
    if (rc == NQ_OK)
        rc = nq_counter_run(&full, &c, &c.o);
    nq_counter_close(&c);
    if (rc == NQ_OK)
        nq_result_store(out, &full, &nq_count_result_layout);
    return rc;
}

int nq_counter_run(nq_count_result *out, nq_counter *c, const nq_count_options *o)
{
    const nq_method_ops *ops = c->ops;
    uint64_t size = c->size, first, end;
    uint64_t *todo = NULL;
    accumulator sum = {0, 0, 0}, resumed = {0, 0, 0};
    unsigned threads;
    double start = now_seconds();
    run r;
    int rc;

    /* a split into more parts than units, or a range that starts past the
     * end, belongs to another list: it would "count" nothing, and say so */
    if (o->part_m > size || o->unit_first > size)
        return NQ_EINVAL;
    first = o->unit_first;
    end = (o->unit_count == 0 || o->unit_count > size - first)
              ? size
              : first + o->unit_count;
    todo = malloc((size_t)(end - first + 1) * sizeof *todo);
    if (!todo)
        return NQ_ENOMEM;

    memset(&r, 0, sizeof r);
    r.ops = ops;
    r.plan = c->plan;
    r.simd = c->simd;
    r.opts = o;
    r.todo = todo;
    r.ntodo = select_units(todo, &resumed, o, first, end);
    r.resumed = resumed.units;
    atomic_init(&r.next, 0);
    atomic_init(&r.stop, 0);
    r.error = NQ_OK;
    if (pthread_mutex_init(&r.lock, NULL) != 0) {
        rc = NQ_ETHREAD;
    } else {
        if (pthread_cond_init(&r.wake, NULL) != 0) {
            rc = NQ_ETHREAD;
        } else {
            threads = c->threads;
            if (threads > r.ntodo)
                threads = r.ntodo ? (unsigned)r.ntodo : 1u;
            rc = run_pool(&r, threads, start, &sum);
            if (o->checkpoint) {
                /* whatever happened, keep what was finished */
                int src = nq_checkpoint_save(o->checkpoint);
                if (rc == NQ_OK || rc == NQ_ECANCELED)
                    rc = src != NQ_OK ? src : rc;
            }
            if (rc == NQ_OK)
                report(&r, start);
            pthread_cond_destroy(&r.wake);
        }
        pthread_mutex_destroy(&r.lock);
    }
    free(todo);
    if (rc != NQ_OK)
        return rc;
    /* a checkpoint's recorded results come from a file: never wrap */
    if (sum.total > UINT64_MAX - resumed.total ||
        sum.unique > UINT64_MAX - resumed.unique)
        return NQ_EOVERFLOW;

    out->version = NQ_COUNT_RESULT_VERSION;
    out->total = sum.total + resumed.total;
    out->unique = sum.unique + resumed.unique;
    out->has_unique = ops->has_unique;
    out->method = ops->id;
    out->simd = c->simd;
    out->units_total = size;
    out->units_done = sum.units + resumed.units;
    return NQ_OK;
}
