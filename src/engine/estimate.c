/*
 * Estimating how long a count will take, by counting a sample of it.
 *
 * The sample is a part of the count: part k of m is every m-th unit of the
 * ordered unit list, starting from a random one, so it spreads over the
 * whole list the way the units' costs do (neighbouring units cost about
 * the same; the first and last differ a lot). It is counted with the same
 * threads, method and SIMD level as the real count; its CPU time times m,
 * shared by the count's threads at the efficiency measured for them, is
 * the estimate (CPU time rather than wall time, so that other programs
 * on a busy machine move it little).
 *
 * The sample starts as one unit (m = all units) and grows geometrically,
 * each part planned to take at most half of the budget that is left, so
 * the whole stays within the budget and the last part, the largest, gives
 * the answer. What a count pays once is counted once rather than m
 * times: the counter (engine.h) is made ready and prepared first (the
 * unit list, the join's table: timed whole, whatever the budget), and the
 * fixed cost of a run (starting the threads) is measured on an empty range
 * of units. When the sample grows to the whole list (m = 1), the estimate
 * is the real time of the count.
 *
 * Every method goes through the same counter and parts, so every method,
 * present or future, is estimated the same way, unless its units are too
 * long to time within the budget: then a method with a cost model (the
 * join beyond n = 20, join_cost.c) prices a sample of the count's work
 * instead, and says its CPU time with an interval; the wall time is that
 * shared among the threads at the efficiency measured for them.
 *
 * The interval of a sample: the last part's estimate against the one
 * before it, and never narrower than SAMPLE_ERROR. A part that outruns
 * the budget (it was planned from the part before, and a busy machine or
 * a heavier stretch of units made it longer) leaves the estimate of the
 * last part counted whole, raised to what the cut part shows at least;
 * only a first unit that cannot finish in the budget gives a lower
 * bound, with no upper limit (the methods with a cost model never get
 * there on a CPU).
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "nqc_clock.h"
#include "nqc_random.h"
#include "device/device.h"
#include "engine.h"
#include "method.h"
#include "nqueens.h"
#include "options.h"
#include "results.h"

/* Speed of T threads over one, divided by T (two threads counted n = 20
 * 1.92 to 1.98 times as fast as one). */
#define THREAD_EFFICIENCY 0.96
/* Narrowest relative half-width of a sample's interval. */
#define SAMPLE_ERROR 0.10

/* The next m: a part of about `work` * m / m' seconds that fits in
 * `target`, at most 16 times as large as the last one. */
static uint64_t next_parts(uint64_t m, double work, double target)
{
    double want = work * (double)m / target;
    uint64_t lo = m / 16 ? m / 16 : 1, hi = m / 2 ? m / 2 : 1, next;

    if (!(want < (double)hi))
        return hi;
    next = want < 1.0 ? 1 : (uint64_t)want + 1;
    return next < lo ? lo : next;
}

/* Units of part k (1-based) of m in a list of `total` units. */
static uint64_t part_units(uint64_t total, uint64_t k, uint64_t m)
{
    return total >= k ? (total - k) / m + 1 : 0;
}

/* The CPU time of this process: the sample's threads, summed. */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return nqc_now();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A sample stops at its deadline: the progress callback, which the
 * engine calls from the caller's thread a few times a second, raises the
 * cancel flag. The caller's own cancel flag is passed on.
 *
 * The deadline is CPU time, the budget for each of the count's threads:
 * on a busy machine the sample's threads get less of the wall clock, and
 * a sample cut short by the wall clock would have seen less of its unit,
 * so that a lower bound ("at least") shrank with the load; a count that
 * --max-time should refuse could then start. The wall clock only caps a
 * sample on a machine too busy to give it its CPU time (WALL_FACTOR). */
typedef struct watch {
    nq_cancel *stop;
    const nq_count_options *caller;
    double (*clock)(void); /* cpu_now; on a GPU, the wall clock */
    double deadline;       /* by that clock */
    double wall_deadline;
} watch;

#define WALL_FACTOR 10.0

static void on_progress(const nq_progress *p, void *data)
{
    watch *w = data;
    (void)p;
    if (w->clock() >= w->deadline || nqc_now() >= w->wall_deadline ||
        nq_cancel_raised(w->caller->stop))
        nq_cancel_raise(w->stop);
}

/* Sets w's deadlines: `seconds` of CPU time for each of the `busy`
 * threads that have units to count, and at most `wall` seconds. */
static void watch_for(watch *w, double seconds, uint64_t busy, double wall)
{
    w->deadline = w->clock() + seconds * (double)(busy ? busy : 1u);
    w->wall_deadline = nqc_now() + wall;
}

/* Times one run of c with the options o, in wall seconds and in CPU
 * seconds of all its threads (on a GPU, whose work the process's CPU time
 * does not show, the wall seconds again): NQ_OK, NQ_ECANCELED (deadline
 * or caller), or another error of nq_count(). */
static int timed_run(double *seconds, double *cpu, nq_counter *c,
                     const nq_count_options *o)
{
    nq_count_result r;
    double start = nqc_now(), cpu_start = cpu_now();
    int rc = nq_counter_run(&r, c, o);
    *seconds = nqc_now() - start;
    *cpu = c->device == NQ_DEVICE_GPU ? *seconds : cpu_now() - cpu_start;
    return rc;
}

static int sample(nq_estimate_result *out, nq_counter *c, watch *w,
                  double budget, uint64_t seed);

/* Threads that share the units, and their combined speed over one. */
static double speedup(unsigned threads, uint64_t units)
{
    double t = (double)threads;
    if ((double)units < t)
        t = (double)units;
    if (t <= 1.0)
        return 1.0;
    return t * THREAD_EFFICIENCY;
}

/* The CPU seconds of a count of `seconds` wall time at combined speed
 * `speed` (speedup()): each thread is busy all along. */
static double core_seconds(double seconds, double speed)
{
    return seconds * (speed > 1.0 ? speed / THREAD_EFFICIENCY : 1.0);
}

/* The estimate of the method's cost model, when it has one for this n:
 * NQ_OK, NQ_EUNSUPPORTED (sample instead), or an error. */
static int modelled(nq_estimate_result *out, nq_counter *c, double budget,
                    uint64_t seed)
{
    /* a GPU's model gives its wall time: one device, as its sample */
    const int gpu = c->device == NQ_DEVICE_GPU;
    const unsigned threads = gpu ? 1u : c->threads ? c->threads : 1u;
    double start = nqc_now(), speed;
    nq_cost_model m;
    int rc;

    if (gpu ? !c->ops->model_gpu : !c->ops->model)
        return NQ_EUNSUPPORTED;
    if (gpu && !c->gpu[0]) {
        rc = nq_gpu_open(&c->gpu[0], c->o.gpu, c->gpu_memory / NQ_GPU_WORKERS);
        if (rc != NQ_OK)
            return rc;
    }
    rc = gpu ? c->ops->model_gpu(c->plan, c->gpu[0], c->simd, budget, seed,
                                 nq_cancel_flag(c->o.stop), &m)
             : c->ops->model(c->plan, c->simd, budget, seed, nq_cancel_flag(c->o.stop), &m);
    if (rc == NQ_OK && nq_cancel_raised(c->o.stop))
        rc = NQ_ECANCELED;
    if (rc != NQ_OK)
        return rc;
    speed = speedup(threads, c->size);
    out->seconds = m.cpu_seconds / speed;
    out->low = m.low / speed;
    out->high = m.high / speed;
    out->cpu_seconds = core_seconds(out->seconds, speed);
    out->units_total = c->size;
    out->units_sampled = 0;
    out->sample_seconds = nqc_now() - start;
    out->kind = NQ_ESTIMATE_MODELLED;
    out->threads = threads;
    out->method = c->ops->id;
    out->samples = m.sampled;
    return NQ_OK;
}

/* The interval and CPU time of a sample's estimate; `previous` is the
 * estimate of the part before the last (0: none). */
static void sample_interval(nq_estimate_result *out, double previous)
{
    const double speed = speedup(out->threads, out->units_total);
    double rel = SAMPLE_ERROR;
    out->cpu_seconds = core_seconds(out->seconds, speed);
    if (out->kind == NQ_ESTIMATE_EXACT) {
        out->low = out->high = out->seconds;
    } else if (out->kind == NQ_ESTIMATE_LOWER_BOUND) {
        out->low = out->seconds;
        out->high = 0.0;
    } else {
        if (previous > 0.0 && out->seconds > 0.0) {
            double d = (previous - out->seconds) / out->seconds;
            d = d < 0 ? -d : d;
            rel = d > rel ? d : rel;
        }
        out->low = out->seconds * (rel < 0.5 ? 1.0 - rel : 0.5);
        out->high = out->seconds * (1.0 + rel);
    }
}

/* The estimate of nq_estimate(), into *e (the current version). */
static int estimate(nq_estimate_result *e, unsigned n, const nq_count_options *opts,
                    double budget, uint64_t seed)
{
    nq_counter c;
    watch w = {NULL, NULL, cpu_now, 0.0, 0.0};
    double start = nqc_now(), cpu_start = cpu_now(), fixed;
    int rc;

    memset(e, 0, sizeof *e);
    e->version = NQ_ESTIMATE_RESULT_VERSION;
    rc = nq_counter_open(&c, n, opts);
    if (rc == NQ_OK) {
        e->memory = c.memory;
        e->device = c.device;
        rc = modelled(e, &c, budget, seed);
        if (rc != NQ_EUNSUPPORTED) {
            nq_counter_close(&c);
            return rc;
        }
        rc = NQ_OK;
    }
    if (rc == NQ_OK) /* the caller's nq_cancel, if any, stops the build */
        rc = nq_counter_prepare(&c, nq_cancel_flag(c.o.stop));
    if (rc == NQ_OK && nq_cancel_raised(c.o.stop))
        rc = NQ_ECANCELED;
    if (rc == NQ_OK)
        rc = nq_cancel_new(&w.stop);
    if (rc == NQ_OK) {
        /* what the count pays once, before its first unit: its wall time,
         * or its CPU time where less (a busy machine stretches the wall
         * time; threads that build a table together, the CPU time) */
        const double fixed_cpu = cpu_now() - cpu_start;
        fixed = nqc_now() - start;
        if (fixed_cpu < fixed)
            fixed = fixed_cpu;
        rc = sample(e, &c, &w, budget, seed);
        if (rc == NQ_OK) {
            e->seconds += fixed;
            e->sample_seconds = nqc_now() - start;
            sample_interval(e, e->low > 0.0 ? e->low + fixed : 0.0);
        }
    }
    nq_cancel_free(w.stop);
    nq_counter_close(&c);
    return rc;
}

int nq_estimate(nq_estimate_result *out, unsigned n, const nq_count_options *opts,
                double budget, uint64_t seed)
{
    nq_estimate_result e;
    int rc;
    if (!out || !(budget >= 0.0))
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_estimate_result_layout, out))
        return NQ_EVERSION;
    rc = estimate(&e, n, opts, budget, seed);
    if (rc == NQ_OK)
        nq_result_store(out, &e, &nq_estimate_result_layout);
    return rc;
}

/* The samples of nq_estimate() on the prepared counter c, stopped by w at
 * its deadline; out->seconds leaves out the cost of preparing c. */
static int sample(nq_estimate_result *out, nq_counter *c, watch *w,
                  double budget, uint64_t seed)
{
    nq_count_options o = c->o;
    const uint64_t units = c->size;
    /* a GPU's sample is timed by the wall clock: its workers' sharing of
     * the GPU is in that time already */
    const unsigned threads =
        c->device == NQ_DEVICE_GPU ? 1u : c->threads ? c->threads : 1u;
    double overhead, cpu_overhead, start = nqc_now();
    uint64_t m;
    int rc;

    w->caller = &c->o;
    if (c->device == NQ_DEVICE_GPU)
        w->clock = nqc_now;
    o.stop = w->stop;
    o.progress = on_progress;
    o.progress_data = w;
    o.on_unit = NULL;
    o.checkpoint = NULL;
    o.part_k = o.part_m = 0;
    o.unit_count = 0;
    /* the fixed cost of a run: an empty range of units */
    o.unit_first = units;
    watch_for(w, budget + 1.0, 1, budget + 1.0); /* no unit: no CPU */
    if ((rc = timed_run(&overhead, &cpu_overhead, c, &o)) != NQ_OK)
        return rc;
    if (cpu_overhead > 0.0 && cpu_overhead < overhead)
        overhead = cpu_overhead; /* as `fixed` in estimate(); on a GPU, equal */
    o.unit_first = 0;
    out->method = c->ops->id;
    out->seconds = 0.0;
    out->units_total = units;
    out->units_sampled = 0;
    out->kind = NQ_ESTIMATE_SAMPLED;
    out->threads = threads;
    out->low = 0.0; /* the estimate of the part before the last */
    m = units > UINT32_MAX ? UINT32_MAX : (units ? units : 1);
    for (;;) {
        double t, cpu, work, target, est, left;
        uint64_t k;
        o.part_m = (uint32_t)m;
        o.part_k = (uint32_t)(1 + nqc_splitmix64(&seed) % m);
        k = part_units(units, o.part_k, m);
        left = budget - (nqc_now() - start);
        if (left < 0.0)
            left = 0.0;
        watch_for(w, left, k < threads ? k : threads, WALL_FACTOR * left);
        rc = timed_run(&t, &cpu, c, &o);
        /* the units' CPU time, shared by the count's threads, rather than
         * the sample's wall time: other programs on the machine slow the
         * sample's threads, and the estimate, far less */
        cpu = cpu > cpu_overhead ? cpu - cpu_overhead : 0.0;
        if (rc == NQ_ECANCELED && !nq_cancel_raised(c->o.stop)) {
            /* the count takes at least what this part says */
            est = cpu * (double)m / speedup(threads, units) + overhead;
            if (est < t) /* the count does all the sample did, and more */
                est = t;
            if (out->units_sampled) {
                /* an earlier part was counted whole: its estimate stands,
                 * raised to this part's bound if that is higher (a busy
                 * machine slows a part past its deadline; it gives an
                 * estimate, not a bound) */
                if (est > out->seconds) {
                    out->low = out->seconds;
                    out->seconds = est;
                }
            } else if (est > out->seconds) {
                out->seconds = est;
                out->kind = NQ_ESTIMATE_LOWER_BOUND;
            }
            break;
        }
        if (rc != NQ_OK)
            return rc;
        work = t > overhead ? t - overhead : 0.0;
        est = cpu * (double)m / speedup(threads, units);
        if (out->units_sampled)
            out->low = out->seconds;
        /* the whole count (m = 1) too by its CPU time: its wall time on
         * a busy machine would say how busy the machine was */
        out->seconds = est + overhead;
        out->units_sampled = k;
        out->kind = m == 1 ? NQ_ESTIMATE_EXACT : NQ_ESTIMATE_SAMPLED;
        target = (budget - (nqc_now() - start)) / 2 - overhead;
        if (m == 1 || target <= 0)
            break;
        m = next_parts(m, work, target);
    }
    return NQ_OK;
}
