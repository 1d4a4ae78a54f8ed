/*
 * The run of a counter (engine.h): one ordered list of work units per
 * method, a pool of POSIX threads that pull units from it (or drive a GPU),
 * and the caller's thread watching.
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
#include "device/device.h"
#include "engine_run.h"
#include "method.h"
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
    nq_gpu *const *gpu;        /* NULL: the units are counted on the CPU;
                                  else worker t drives gpu[t] */
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
    nq_gpu *gpu; /* the GPU this worker drives, or NULL */
} worker;

/* Takes the finished units[0 .. k-1] (their results res[0 .. k-1]) into
 * w's sums, the checkpoint and on_unit, under one hold of the lock. */
static void finish_units(worker *w, const uint64_t *units, const nq_unit_result *res,
                         uint64_t k)
{
    run *r = w->r;
    pthread_mutex_lock(&r->lock);
    for (uint64_t j = 0; j < k; j++) {
        w->acc.total += res[j].total;
        w->acc.unique += res[j].unique;
        w->acc.units++;
        r->finished++;
        if (r->opts->checkpoint) {
            int rc = nq_checkpoint_record(r->opts->checkpoint, units[j], res[j].total,
                                          res[j].unique);
            if (rc != NQ_OK && r->error == NQ_OK) {
                r->error = rc;
                atomic_store(&r->stop, 1);
            }
        }
        if (r->opts->on_unit)
            r->opts->on_unit(units[j], res[j].total, res[j].unique, r->opts->unit_data);
    }
    pthread_mutex_unlock(&r->lock);
}

/* A worker's last act: one fewer left, and the watching thread woken. */
static void worker_done(run *r)
{
    pthread_mutex_lock(&r->lock);
    r->workers_left--;
    pthread_cond_signal(&r->wake);
    pthread_mutex_unlock(&r->lock);
}

/* Ends a worker's run on error rc (a cancel is no error of its own). */
static void fail(run *r, int rc)
{
    pthread_mutex_lock(&r->lock);
    if (rc != NQ_ECANCELED && r->error == NQ_OK)
        r->error = rc;
    pthread_mutex_unlock(&r->lock);
    atomic_store(&r->stop, 1);
}

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
            fail(r, rc);
            break;
        }
        finish_units(w, &unit, &res, 1);
    }
    worker_done(r);
    return NULL;
}

/* A GPU's worker (NQ_GPU_WORKERS of them share one GPU, each through its
 * own stream and buffers): takes the units in batches, in list order,
 * each sized so that it takes about GPU_BATCH_SECONDS (a stop ends a
 * batch early anyway: see device.h), and records its units as the CPU's
 * workers do. */
#define GPU_BATCH_FIRST 64u
#define GPU_BATCH_MAX ((uint64_t)1 << 20)
#define GPU_BATCH_SECONDS 0.5

static void *work_gpu(void *arg)
{
    worker *w = arg;
    run *r = w->r;
    uint64_t batch = GPU_BATCH_FIRST;
    nq_unit_result *res = NULL;
    uint64_t cap = 0;

    for (;;) {
        uint64_t i, k;
        double t0, dt;
        int rc;

        if (atomic_load_explicit(&r->stop, memory_order_relaxed))
            break;
        i = atomic_fetch_add_explicit(&r->next, batch, memory_order_relaxed);
        if (i >= r->ntodo)
            break;
        k = r->ntodo - i < batch ? r->ntodo - i : batch;
        if (k > cap) {
            nq_unit_result *more = realloc(res, (size_t)k * sizeof *res);
            if (!more) {
                fail(r, NQ_ENOMEM);
                break;
            }
            res = more;
            cap = k;
        }
        t0 = nqc_now();
        rc = r->ops->solve_gpu(r->plan, w->gpu, r->todo + i, (size_t)k, r->simd,
                               &r->stop, res);
        if (rc != NQ_OK) {
            fail(r, rc);
            break;
        }
        finish_units(w, r->todo + i, res, k);
        /* the next batch: about GPU_BATCH_SECONDS, growing at most 4-fold */
        dt = nqc_now() - t0;
        if (dt < GPU_BATCH_SECONDS / 4)
            batch *= 4;
        else
            batch = (uint64_t)((double)batch * GPU_BATCH_SECONDS / dt) + 1;
        if (batch > GPU_BATCH_MAX)
            batch = GPU_BATCH_MAX;
    }
    free(res);
    worker_done(r);
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
        ws[t].gpu = r->gpu ? r->gpu[t] : NULL;
        if (pthread_create(&tids[t], NULL, r->gpu ? work_gpu : work, &ws[t]) != 0)
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

/* Every finished count passes here: one that covers the whole list (a
 * part 1/1, a range to the end, a checkpoint's units with this run's)
 * must be the published count of n, or a GPU, the program or a
 * checkpoint's records went wrong; NQ_EPUBLISHED, with the counts kept in
 * *r for the caller to show. A part of M > 1 has nothing to compare with
 * (a merge compares the parts' sum). */
static int published(const nq_count_result *r, unsigned n)
{
    uint64_t total, unique;
    if (r->units_done != r->units_total || nq_known(&total, &unique, n) != NQ_OK)
        return NQ_OK;
    if (r->total != total || (r->has_unique && r->unique != unique))
        return NQ_EPUBLISHED;
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
    for (unsigned t = 0; c->device == NQ_DEVICE_GPU && t < NQ_GPU_WORKERS; t++) {
        if (c->gpu[t])
            continue;
        rc = nq_gpu_open(&c->gpu[t], c->o.gpu, c->gpu_memory / NQ_GPU_WORKERS);
        if (rc != NQ_OK)
            return rc;
    }
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
    r.gpu = c->device == NQ_DEVICE_GPU ? c->gpu : NULL;
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
    out->device = c->device;
    return published(out, c->n);
}
