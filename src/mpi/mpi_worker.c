/*
 * nqueens-mpi, ranks 1..P-1: count the batches rank 0 hands out.
 *
 * The count of a batch runs on a thread of its own (nq_count() with all
 * the rank's threads), while the rank's main thread, the only one that
 * calls MPI, keeps in touch with rank 0: every 50 ms it looks for a stop
 * message and for a signal, and every second it sends the results of the
 * units finished so far. So rank 0 always holds nearly all finished work,
 * hears from every live worker, and can stop a batch midway: a stopped
 * count reports the units it finished and drops only those it was in.
 */
#include <mpi.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi_internal.h"
#include "nqc_clock.h"

typedef struct batch {
    const mpi_opts *o;
    uint64_t first, count;
    nq_cancel *cancel;        /* raised by the main thread */
    pthread_mutex_t lock;     /* guards what follows */
    pthread_cond_t ended;     /* signalled when done is set */
    uint64_t *report;         /* MPI_REPORT_HEAD words, then the results */
    uint64_t results;         /* results in report */
    int done;                 /* the count returned ... */
    int status;               /* ... this */
} batch;

static void on_unit(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    batch *b = data;
    pthread_mutex_lock(&b->lock);
    if (b->results < b->count) { /* room for the whole batch */
        uint64_t *r = b->report + MPI_REPORT_HEAD + 3 * b->results++;
        r[0] = unit;
        r[1] = total;
        r[2] = unique;
    }
    pthread_mutex_unlock(&b->lock);
}

static void *count_batch(void *arg)
{
    batch *b = arg;
    nq_count_options co = nq_mpi_count_options(b->o);
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    int rc;
    co.unit_first = b->first;
    co.unit_count = b->count;
    co.on_unit = on_unit;
    co.unit_data = b;
    co.stop = b->cancel;
    rc = nq_count(&r, b->o->n, &co);
    /* a batch of the whole list that differs from the published count:
     * its units' results go to rank 0, which compares the job's sum */
    if (rc == NQ_EPUBLISHED)
        rc = NQ_OK;
    pthread_mutex_lock(&b->lock);
    b->done = 1;
    b->status = rc;
    pthread_cond_signal(&b->ended);
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

/* Sends the results gathered so far as a report of this kind. */
static void send_report(batch *b, uint64_t kind, uint64_t code)
{
    pthread_mutex_lock(&b->lock);
    b->report[0] = kind;
    b->report[1] = code;
    b->report[2] = b->results;
    MPI_Send(b->report, (int)(MPI_REPORT_HEAD + 3 * b->results), MPI_UINT64_T, 0,
             MPI_TAG_REPORT, MPI_COMM_WORLD);
    b->results = 0;
    pthread_mutex_unlock(&b->lock);
}

/* A count that cannot fit: what it needs, with how many threads, and
 * what one thread would need if that fits, so that rank 0 can say so. */
static void send_memory_failure(batch *b)
{
    nq_count_options co = nq_mpi_count_options(b->o), one = co;
    uint64_t words[MPI_REPORT_HEAD + MPI_REPORT_MEMORY] = {MPI_REPORT_FAILED,
                                                           (uint64_t)-NQ_EMEMLIMIT, 0};
    unsigned threads = co.threads ? co.threads : nq_cpus_usable();
    one.threads = 1;
    (void)nq_memory(&words[MPI_REPORT_HEAD], b->o->n, &co);
    words[MPI_REPORT_HEAD + 1] = threads;
    if (threads == 1 || nq_memory(&words[MPI_REPORT_HEAD + 2], b->o->n, &one) != NQ_OK)
        words[MPI_REPORT_HEAD + 2] = 0;
    MPI_Send(words, MPI_REPORT_HEAD + MPI_REPORT_MEMORY, MPI_UINT64_T, 0, MPI_TAG_REPORT,
             MPI_COMM_WORLD);
}

#define NAP_MS 50

static void nap(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* Waits for the batch's count to end, at most NAP_MS: a short batch is
 * reported as soon as it is counted, not a nap later. */
static void wait_for_count(batch *b)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += NAP_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&b->lock);
    if (!b->done)
        pthread_cond_timedwait(&b->ended, &b->lock, &until);
    pthread_mutex_unlock(&b->lock);
}

/* Counts one batch while answering rank 0: the report kind it ended with. */
static uint64_t run_batch(batch *b)
{
    pthread_t t;
    double last = nqc_now();
    int done = 0, flag;

    nq_cancel_clear(b->cancel);
    b->done = 0;
    b->results = 0;
    if (pthread_create(&t, NULL, count_batch, b) != 0) {
        send_report(b, MPI_REPORT_FAILED, (uint64_t)-NQ_ETHREAD);
        return MPI_REPORT_FAILED;
    }
    while (!done) {
        wait_for_count(b);
        MPI_Iprobe(0, MPI_TAG_STOP, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            int dummy;
            MPI_Recv(&dummy, 1, MPI_INT, 0, MPI_TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (flag || nq_mpi_signal)
            nq_cancel_raise(b->cancel);
        pthread_mutex_lock(&b->lock);
        done = b->done;
        pthread_mutex_unlock(&b->lock);
        if (!done && nqc_now() - last >= MPI_ALIVE_PERIOD) {
            send_report(b, MPI_REPORT_ALIVE, 0);
            last = nqc_now();
        }
    }
    pthread_join(t, NULL);
    if (b->status == NQ_OK) {
        send_report(b, MPI_REPORT_DONE, 0);
        return MPI_REPORT_DONE;
    }
    if (b->status == NQ_ECANCELED) {
        send_report(b, MPI_REPORT_STOPPED, (uint64_t)nq_mpi_signal);
        return MPI_REPORT_STOPPED;
    }
    if (b->status == NQ_EMEMLIMIT)
        send_memory_failure(b);
    else
        send_report(b, MPI_REPORT_FAILED, (uint64_t)-b->status);
    return MPI_REPORT_FAILED;
}

/* Waits for rank 0's next batch; a stop message on the way is dropped.
 * Rank 0 usually answers within milliseconds: the naps start at 1 ms and
 * double up to NAP_MS while none comes. */
static void receive_work(uint64_t work[2])
{
    for (;;) {
        MPI_Status st;
        int flag = 0;
        long ms = 1;
        while (!flag) {
            MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
            if (!flag) {
                nap(ms);
                ms = ms * 2 > NAP_MS ? NAP_MS : ms * 2;
            }
        }
        if (st.MPI_TAG == MPI_TAG_WORK) {
            MPI_Recv(work, 2, MPI_UINT64_T, 0, MPI_TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return;
        }
        {
            int dummy;
            MPI_Recv(&dummy, 1, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
}

int nq_mpi_worker(const mpi_opts *o, int rank)
{
    batch b;
    uint64_t work[2], kind;
    int batches = 0;

    memset(&b, 0, sizeof b);
    b.o = o;
    if (pthread_mutex_init(&b.lock, NULL) != 0)
        return 1;
    if (pthread_cond_init(&b.ended, NULL) != 0) {
        pthread_mutex_destroy(&b.lock);
        return 1;
    }
    b.report = malloc(MPI_REPORT_HEAD * sizeof *b.report);
    if (!b.report || nq_cancel_new(&b.cancel) != NQ_OK) {
        free(b.report);
        pthread_cond_destroy(&b.ended);
        pthread_mutex_destroy(&b.lock);
        return 1;
    }
    /* the first report asks for work */
    kind = nq_mpi_signal ? MPI_REPORT_STOPPED : MPI_REPORT_DONE;
    send_report(&b, kind, (uint64_t)nq_mpi_signal);
    for (;;) {
        receive_work(work);
        if (work[1] == 0)
            break; /* finished, or told to finish */
        if (o->crash_rank == rank && batches == 1)
            abort(); /* testing aid: die with a batch in hand */
        while (o->hang_rank == rank && batches == 1)
            pause(); /* testing aid: alive, but silent for good */
        if (kind == MPI_REPORT_STOPPED || kind == MPI_REPORT_FAILED)
            continue; /* sent before rank 0 read our last report */
        if (work[1] > (SIZE_MAX / sizeof *b.report - MPI_REPORT_HEAD) / 3) {
            send_report(&b, MPI_REPORT_FAILED, (uint64_t)-NQ_ENOMEM);
            kind = MPI_REPORT_FAILED;
            continue;
        }
        {
            uint64_t *r = realloc(b.report, (size_t)(MPI_REPORT_HEAD + 3 * work[1]) * sizeof *r);
            if (!r) {
                send_report(&b, MPI_REPORT_FAILED, (uint64_t)-NQ_ENOMEM);
                kind = MPI_REPORT_FAILED;
                continue;
            }
            b.report = r;
        }
        b.first = work[0];
        b.count = work[1];
        kind = run_batch(&b);
        batches++;
    }
    free(b.report);
    nq_cancel_free(b.cancel);
    pthread_cond_destroy(&b.ended);
    pthread_mutex_destroy(&b.lock);
    return 0;
}
