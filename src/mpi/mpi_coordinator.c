/*
 * nqueens-mpi, rank 0: hand out batches, gather results, keep the
 * checkpoint, and end the job in one of four ways.
 *
 * Rank 0 counts nothing. It never blocks on a worker: it polls for
 * reports, sleeping a couple of milliseconds when none is waiting, so it
 * notices at once a signal, a checkpoint that is due, or a worker that has
 * been silent for longer than --worker-timeout (a counting worker reports
 * every second), silence being measured only while rank 0 itself runs
 * its loop (LONG_TURN). Units handed out are marked taken until their results
 * come back; a batch that a worker gives back unfinished (it was stopped)
 * returns its remaining units to the pool.
 *
 * The ends: every unit counted (the total is printed, status 0; one that
 * is not the published count of n is said instead, with both numbers,
 * status 1, or 2 where it resumed a checkpoint's records); a signal
 * (the workers are told to stop, their finished units are gathered for up
 * to half a second, the checkpoint is saved and the resume hint printed,
 * status 128 + signal; but where rank 0's own signal comes after a
 * worker of its node died, mpirun's doing, that worker's end is said
 * instead, status 1); a worker that fails or falls silent, or a result
 * that contradicts the checkpoint (the checkpoint is saved, the error
 * printed, and MPI_Abort ends every rank, status 1). Messages are printed
 * by rank 0 only, once.
 */
#include <mpi.h>

#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_internal.h"
#include "nqc_checkpoint.h"
#include "nqc_clock.h"
#include "nqc_gpu.h"
#include "nqc_memory.h"
#include "nqc_signal.h"

/* A turn of rank 0's loop takes a few milliseconds (a nap, a report, a
 * probe). One that takes longer than a worker's report period means that
 * rank 0 itself was kept from listening: stopped (SIGSTOP, a debugger, a
 * suspended virtual machine), starved of CPU, or saving a large
 * checkpoint to a slow disk. That time is no worker's silence: every
 * deadline moves on by it, so that a pause of rank 0 never ends a job by
 * blaming a worker that was counting all along (its reports wait in MPI's
 * queues meanwhile, and need turns of rank 0 to come out). Shorter delays
 * are not forgiven, so that even a busy rank 0 still finds a hung worker. */
#define LONG_TURN MPI_ALIVE_PERIOD

/* How long a stopping job waits for its workers' last results: well
 * under a second, because mpirun, when it is the one interrupted, sends
 * every rank SIGTERM and then SIGKILL one second later (Open MPI's
 * odls_base_sigkill_timeout), and rank 0 must have saved and spoken by
 * then. Workers answer a stop within about 0.1 s. */
#define STOP_GRACE 0.5

typedef struct peer {
    uint64_t first, count; /* its batch; count 0: none */
    double heard;          /* when its last report came */
    int finished;          /* told to finish */
    int answered;          /* reported after the job began to stop */
} peer;

typedef struct ledger {
    const mpi_opts *o;
    int worker_signal;   /* the first stop signal a worker got, or 0 */
    int signal_rank;     /* that worker */
    nq_checkpoint *cp;   /* the results, in memory and (optionally) on disk */
    uint64_t units;
    uint64_t cursor;     /* no free unit lies before it */
    uint64_t batch;
    uint8_t *taken;      /* bitmap: handed out, result not back yet */
    peer *peers;         /* indexed by rank */
    int ranks, active;   /* workers not yet told to finish */
    double last_save;
    uint64_t *buf;
    size_t cap;
    uint64_t resumed;    /* units the checkpoint held before the job */
    int blamed;          /* the checkpoint file was found wrong */
    int gone;            /* the first worker found gone while stopping, or 0 */
} ledger;

static int is_taken(const ledger *l, uint64_t u) { return (l->taken[u / 8] >> (u % 8)) & 1; }

static void set_taken(ledger *l, uint64_t u, int on)
{
    uint8_t bit = (uint8_t)(1u << (u % 8));
    l->taken[u / 8] = (uint8_t)(on ? l->taken[u / 8] | bit : l->taken[u / 8] & ~bit);
}

static int is_free(const ledger *l, uint64_t u)
{
    return !is_taken(l, u) && !nq_checkpoint_is_done(l->cp, u);
}

/* The next run of free units, at most one batch long, for peer p. */
static void hand_out(ledger *l, peer *p)
{
    while (l->cursor < l->units && !is_free(l, l->cursor))
        l->cursor++;
    p->first = l->cursor;
    p->count = 0;
    while (l->cursor < l->units && p->count < l->batch && is_free(l, l->cursor)) {
        set_taken(l, l->cursor++, 1);
        p->count++;
    }
}

/* A peer's batch is over: its units without results are free again. */
static void give_back(ledger *l, peer *p)
{
    for (uint64_t u = p->first; u < p->first + p->count; u++) {
        set_taken(l, u, 0);
        if (u < l->cursor && !nq_checkpoint_is_done(l->cp, u))
            l->cursor = u;
    }
    p->count = 0;
}

static void send_work(ledger *l, int rank, int stopping)
{
    peer *p = &l->peers[rank];
    uint64_t work[2];
    if (!stopping)
        hand_out(l, p);
    else
        p->count = 0;
    work[0] = p->first;
    work[1] = p->count;
    if (p->count == 0) {
        p->finished = 1;
        l->active--;
    }
    MPI_Send(work, 2, MPI_UINT64_T, rank, MPI_TAG_WORK, MPI_COMM_WORLD);
}

static int save(ledger *l, int force)
{
    if (!l->o->checkpoint || (!force && nqc_now() - l->last_save < l->o->checkpoint_interval))
        return 0;
    l->last_save = nqc_now();
    if (nq_checkpoint_save(l->cp) != NQ_OK) {
        nq_mpi_error("%s: cannot save the checkpoint: %s", l->o->checkpoint, strerror(errno));
        return -1;
    }
    return 0;
}

/* "K of M units are saved in FILE" or "... lost", for messages. */
static void saved_text(char *buf, size_t size, const ledger *l)
{
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    nq_checkpoint_info_get(&info, l->cp);
    if (l->o->checkpoint)
        snprintf(buf, size, "%llu of %llu units are saved in %s: run the same job again to resume",
                 (unsigned long long)info.units_done, (unsigned long long)info.units_total,
                 l->o->checkpoint);
    else
        snprintf(buf, size, "%llu of %llu units are lost (use --checkpoint FILE to keep them)",
                 (unsigned long long)info.units_done, (unsigned long long)info.units_total);
}

/* Receives one report from `rank` and records its results. 0, or -1
 * after printing why the job must end. */
static int take_report(ledger *l, int rank, int count, uint64_t *kind)
{
    peer *p = &l->peers[rank];
    uint64_t k;

    if (count < MPI_REPORT_HEAD || count > INT32_MAX / 2) { /* MPI_UNDEFINED too */
        nq_mpi_error("rank %d sent a malformed report", rank);
        return -1;
    }
    if ((size_t)count > l->cap) {
        uint64_t *v = realloc(l->buf, (size_t)count * sizeof *v);
        if (!v) {
            nq_mpi_error("out of memory");
            return -1;
        }
        l->buf = v;
        l->cap = (size_t)count;
    }
    MPI_Recv(l->buf, count, MPI_UINT64_T, rank, MPI_TAG_REPORT, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    p->heard = nqc_now();
    k = l->buf[2];
    *kind = l->buf[0];
    if (*kind == MPI_REPORT_FAILED) {
        int code = l->buf[1] <= 1000 ? -(int)l->buf[1] : NQ_EINVAL;
        const uint64_t *m = l->buf + MPI_REPORT_HEAD;
        if (code == NQ_EMEMLIMIT && count == MPI_REPORT_HEAD + MPI_REPORT_MEMORY &&
            m[1] >= 1 && m[1] <= 1024) {
            char text[256];
            if (l->o->device == NQ_DEVICE_GPU) /* -j changes nothing there */
                nqc_gpu_memory_refusal(text, sizeof text, l->o->n, m[0], l->o->max_memory,
                                       "its node");
            else
                nqc_memory_refusal(text, sizeof text, l->o->n, m[0], (unsigned)m[1],
                                   l->o->max_memory, m[2], "its node");
            nq_mpi_error("rank %d failed: %s", rank, text);
        } else if (l->o->device == NQ_DEVICE_GPU &&
                   (code == NQ_EUNSUPPORTED || code == NQ_ENODRIVER || code == NQ_ENODEVICE)) {
            /* the worker has no GPU to count on: why, in nqueens's words */
            nq_mpi_error("rank %d failed: --device=gpu: %s", rank, nqc_no_gpu_reason(code));
        } else {
            nq_mpi_error("rank %d failed: %s", rank, nq_strerror(code));
        }
        return -1;
    }
    if (k > (uint64_t)(count - MPI_REPORT_HEAD) / 3 ||
        (uint64_t)count != MPI_REPORT_HEAD + 3 * k) {
        nq_mpi_error("rank %d sent a malformed report", rank);
        return -1;
    }
    if (*kind == MPI_REPORT_STOPPED && l->buf[1] > 0 && l->buf[1] < 128 &&
        !l->worker_signal) {
        /* a signal to one worker (a batch system's, a node's hang-up)
         * stops the job as one to rank 0 would */
        l->worker_signal = (int)l->buf[1];
        l->signal_rank = rank;
    }
    for (uint64_t i = 0; i < k; i++) {
        const uint64_t *r = l->buf + MPI_REPORT_HEAD + 3 * i;
        int rc;
        if (r[0] < p->first || r[0] - p->first >= p->count) {
            nq_mpi_error("rank %d sent the result of unit %llu, not one of its batch", rank,
                         (unsigned long long)r[0]);
            return -1;
        }
        rc = nq_checkpoint_record(l->cp, r[0], r[1], r[2]);
        if (rc == NQ_EOVERFLOW && l->o->checkpoint && l->resumed) {
            /* the file's records and the job's units pass the published
             * count: the file is wrong, or this unit; resuming again
             * would end here again */
            char why[NQ_MPI_WHY_SIZE];
            uint64_t known = 0;
            (void)nq_known(&known, NULL, l->o->n);
            nqc_published_passed(why, sizeof why, l->o->n, known, l->o->checkpoint);
            nq_mpi_error("%s", why);
            l->blamed = 1;
            return -1;
        }
        if (rc != NQ_OK) {
            nq_mpi_error("rank %d sent a result for unit %llu that %s", rank,
                         (unsigned long long)r[0],
                         rc == NQ_EOVERFLOW ? "passes the possible count"
                                            : "contradicts the checkpoint");
            return -1;
        }
        set_taken(l, r[0], 0);
    }
    return 0;
}

/* The first peer silent for longer than the timeout at `now`, or 0. */
static int silent_peer(const ledger *l, double now)
{
    for (int r = 1; r < l->ranks; r++)
        if (!l->peers[r].finished && now - l->peers[r].heard > l->o->worker_timeout)
            return r;
    return 0;
}

static void nap(void)
{
    struct timespec ts = {0, 2 * 1000000L};
    nanosleep(&ts, NULL);
}

/* The start of a turn: moves every deadline on by the time rank 0 spent
 * away from its loop since the last turn (see LONG_TURN). @return the
 * time of this turn, which *last becomes: silence is judged against it,
 * so that a pause later in the turn is forgiven at the next one before
 * it can count. */
static double start_turn(ledger *l, double *last, double *stop_deadline)
{
    const double now = nqc_now(), away = now - *last;
    *last = now;
    if (away > LONG_TURN) {
        for (int r = 1; r < l->ranks; r++)
            l->peers[r].heard += away;
        if (*stop_deadline > 0)
            *stop_deadline += away;
    }
    return now;
}

/* The first worker that neither finished nor answered the stop, or 0. */
static int silent_after_stop(const ledger *l)
{
    for (int r = 1; r < l->ranks; r++)
        if (!l->peers[r].finished && !l->peers[r].answered)
            return r;
    return 0;
}

/* Whether worker r is known to be gone: one of rank 0's node whose
 * process no longer exists (mpirun reaps a rank that died before it stops
 * the others). A worker of another node, or one whose process id is not
 * known, is never called gone. */
static int is_gone(const ledger *l, int r)
{
    return l->o->node_pids && l->o->node_pids[r] > 0 &&
           kill((pid_t)l->o->node_pids[r], 0) == -1 && errno == ESRCH;
}

/* While the job stops on rank 0's own signal: the workers that are gone
 * will never answer, so the job waits no longer for them (mpirun kills
 * rank 0 a second after its SIGTERM); the first is kept in l->gone. */
static void drop_gone(ledger *l)
{
    for (int r = 1; r < l->ranks; r++)
        if (!l->peers[r].finished && !l->peers[r].answered && is_gone(l, r)) {
            l->peers[r].finished = 1;
            l->active--;
            if (!l->gone)
                l->gone = r;
        }
}

/* Runs the job until the workers are finished or it must end:
 * 0, or -1 after printing why. */
static int run(ledger *l, int *stopped_by)
{
    double stop_deadline = 0, last_turn = nqc_now();

    while (l->active > 0) {
        MPI_Status st;
        int flag, count, silent;
        uint64_t kind;
        const double now = start_turn(l, &last_turn, &stop_deadline);

        if ((nq_mpi_signal || l->worker_signal) && !*stopped_by) {
            /* keep what is here now, then ask every worker to stop */
            *stopped_by = nq_mpi_signal ? (int)nq_mpi_signal : l->worker_signal;
            if (nq_mpi_signal)
                l->signal_rank = 0;
            stop_deadline = now + STOP_GRACE;
            save(l, 1);
            for (int r = 1; r < l->ranks; r++)
                if (!l->peers[r].finished) {
                    int stop = 1;
                    MPI_Send(&stop, 1, MPI_INT, r, MPI_TAG_STOP, MPI_COMM_WORLD);
                }
        }
        if (*stopped_by && nq_mpi_signal) {
            drop_gone(l);
            if (l->active == 0)
                break;
        }
        if (*stopped_by && now > stop_deadline)
            return 0; /* whatever did not come back in time is not saved */
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_TAG_REPORT, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            if (!*stopped_by && (silent = silent_peer(l, now)) != 0) {
                char saved[NQ_MPI_WHY_SIZE];
                save(l, 1);
                saved_text(saved, sizeof saved, l);
                nq_mpi_error("rank %d has not answered for %g seconds (hung, or its node is "
                             "lost); %s", silent, l->o->worker_timeout, saved);
                return -1;
            }
            if (save(l, 0) != 0)
                return -1;
            nap();
            continue;
        }
        MPI_Get_count(&st, MPI_UINT64_T, &count);
        if (take_report(l, st.MPI_SOURCE, count, &kind) != 0)
            return -1;
        if (*stopped_by)
            l->peers[st.MPI_SOURCE].answered = 1;
        /* a worker already counted off (told to finish, or found gone
         * after this report was sent) gets no batch and no answer */
        if ((kind == MPI_REPORT_DONE || kind == MPI_REPORT_STOPPED) &&
            !l->peers[st.MPI_SOURCE].finished) {
            give_back(l, &l->peers[st.MPI_SOURCE]);
            send_work(l, st.MPI_SOURCE, *stopped_by || kind == MPI_REPORT_STOPPED);
        }
    }
    if (!*stopped_by && l->worker_signal) /* the last worker was the one */
        *stopped_by = l->worker_signal;
    return 0;
}

/* Whether the units of the checkpoint's method carry unique counts: only
 * the symmetry method counts them (nq_count_result.has_unique), and the
 * job's checks and its JSON line ask the same question here. */
static int counts_unique(const nq_checkpoint_info *info)
{
    return info->method == NQ_METHOD_SYMMETRY;
}

/* 0, or 1 after saying that the result could not be written. Under
 * mpirun, standard output is a pipe to mpirun, which writes it on: an
 * error there is mpirun's to see (see the README). */
static int print_total(const mpi_opts *o, int ranks, const nq_checkpoint_info *info)
{
    if (o->json) {
        /* a unique count only from the method that counts one */
        printf("{\"n\":%u,\"total\":%llu", o->n, (unsigned long long)info->total);
        if (counts_unique(info))
            printf(",\"unique\":%llu", (unsigned long long)info->unique);
        printf(",\"method\":\"%s\",\"ranks\":%d,\"device\":\"%s\"}\n",
               nq_method_name(info->method), ranks, nq_device_name(o->device));
    } else
        printf("%llu\n", (unsigned long long)(o->unique ? info->unique : info->total));
    if (fflush(stdout) != 0 || ferror(stdout)) {
        nq_mpi_error("cannot write the result: %s", strerror(errno));
        return 1;
    }
    return 0;
}

/* Every unit counted: a total (and unique count, of the method that
 * counts one) that differs from the published one of n is said, with
 * both numbers and the way to find the units counted wrong, instead of
 * printed. @return 1 if it differed. */
static int published(const mpi_opts *o, const nq_checkpoint_info *info)
{
    uint64_t kt, ku;
    int has_unique = counts_unique(info);
    char why[NQ_MPI_WHY_SIZE];
    if (nq_known(&kt, &ku, o->n) != NQ_OK ||
        (info->total == kt && (!has_unique || info->unique == ku)))
        return 0;
    nqc_published_mismatch(why, sizeof why, o->n, info->total, info->unique, has_unique, kt,
                           ku, o->checkpoint);
    nq_mpi_error("%s", why);
    return 1;
}

/* Before any work: answer every worker's first report with "finish". */
static void dismiss(int ranks)
{
    for (int r = 1; r < ranks; r++) {
        uint64_t head[MPI_REPORT_HEAD], work[2] = {0, 0};
        MPI_Recv(head, MPI_REPORT_HEAD, MPI_UINT64_T, r, MPI_TAG_REPORT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(work, 2, MPI_UINT64_T, r, MPI_TAG_WORK, MPI_COMM_WORLD);
    }
}

static int open_checkpoint(ledger *l)
{
    int rc = nq_checkpoint_open(&l->cp, l->o->checkpoint, l->o->n, l->o->method), e = errno;
    char why[NQ_MPI_WHY_SIZE];
    if (rc == NQ_OK)
        return 0;
    if (rc == NQ_EMISMATCH) {
        nqc_checkpoint_mismatch(why, sizeof why, l->o->has_file ? &l->o->file : NULL,
                                l->o->n, l->o->method, l->o->unique);
        nq_mpi_error("%s %s; refusing to use it", l->o->checkpoint, why);
    } else if (l->o->checkpoint) {
        nqc_checkpoint_open_error(why, sizeof why, rc, e, l->o->checkpoint, l->o->checkpoint);
        nq_mpi_error("%s%s", why, rc == NQ_EFORMAT ? "; refusing to use it" : "");
    } else {
        nq_mpi_error("%s", nq_strerror(rc));
    }
    return -1;
}

int nq_mpi_coordinator(const mpi_opts *o, int ranks)
{
    ledger l;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    int status = 0, stopped_by = 0, rc, gone;
    double start = nqc_now();

    memset(&l, 0, sizeof l);
    l.o = o;
    l.ranks = ranks;
    l.active = ranks - 1;
    l.last_save = start;
    /* without --checkpoint, the results live in a memory-only one */
    if (open_checkpoint(&l) != 0) {
        dismiss(ranks);
        return 2;
    }
    nq_checkpoint_info_get(&info, l.cp);
    l.units = info.units_total;
    l.resumed = info.units_done;
    l.batch = o->batch;
    if (!l.batch) /* about sixteen batches per worker, for balance at the end */
        l.batch = (info.units_total - info.units_done) / ((uint64_t)(ranks - 1) * 16);
    if (l.batch < 1)
        l.batch = 1;
    l.taken = calloc((size_t)(l.units / 8 + 1), 1);
    l.peers = calloc((size_t)ranks, sizeof *l.peers);
    if (!l.taken || !l.peers) {
        nq_mpi_error("out of memory");
        free(l.taken);
        free(l.peers);
        nq_checkpoint_close(l.cp);
        dismiss(ranks);
        return 1;
    }
    for (int r = 1; r < ranks; r++)
        l.peers[r].heard = start;

    rc = run(&l, &stopped_by);
    if (rc == 0 && save(&l, 1) != 0)
        rc = -1;
    nq_checkpoint_info_get(&info, l.cp);
    if (rc != 0) {
        save(&l, 1);
        status = l.blamed ? 2 : 1;
    } else if (stopped_by) {
        char saved[NQ_MPI_WHY_SIZE];
        /* mpirun signals every rank at once: a worker's report may come
         * before rank 0 sees its own signal, which then is the one named */
        if (nq_mpi_signal) {
            stopped_by = (int)nq_mpi_signal;
            l.signal_rank = 0;
        }
        saved_text(saved, sizeof saved, &l);
        if (l.signal_rank == 0 && (gone = l.gone) > 0) {
            /* mpirun's SIGTERM after a rank of the job died: a failure,
             * not a user's signal */
            nq_mpi_error("rank %d ended before the job did (mpirun says how), and mpirun "
                         "then stopped every rank; %s", gone, saved);
            stopped_by = 0;
            status = 1;
        } else if (l.signal_rank == 0 && (gone = silent_after_stop(&l)) > 0)
            nq_mpi_error("interrupted by %s, and rank %d did not answer it (if it ended "
                         "first, mpirun says how); %s", nqc_signal_name(stopped_by), gone,
                         saved);
        else if (l.signal_rank)
            nq_mpi_error("interrupted by %s (on rank %d); %s", nqc_signal_name(stopped_by),
                         l.signal_rank, saved);
        else
            nq_mpi_error("interrupted by %s; %s", nqc_signal_name(stopped_by), saved);
        if (stopped_by)
            status = 128 + stopped_by;
    } else if (info.units_done != info.units_total) {
        char saved[NQ_MPI_WHY_SIZE];
        saved_text(saved, sizeof saved, &l);
        nq_mpi_error("the workers stopped before every unit was counted; %s", saved);
        status = 1;
    } else if (published(o, &info)) {
        status = o->checkpoint && l.resumed ? 2 : 1;
    } else {
        status = print_total(o, ranks, &info);
    }
    fflush(stderr);
    free(l.buf);
    free(l.taken);
    nq_checkpoint_close(l.cp);
    if (status != 0 && (rc != 0 || l.active > 0 || l.gone)) {
        free(l.peers);
        MPI_Abort(MPI_COMM_WORLD, status); /* some workers cannot finish */
    }
    free(l.peers);
    return status;
}
