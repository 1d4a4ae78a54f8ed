/*
 * nqueens-mpi: one count spread over the ranks of an MPI job.
 *
 * Rank 0 coordinates and counts nothing itself. It splits the ordered unit
 * list of the count into batches of consecutive units and hands them out as
 * workers ask: a worker's request carries the per-unit results of its last
 * batch, the answer is its next batch. Fast and slow nodes therefore both
 * stay busy to the end. Each worker counts a batch with all its threads
 * through nq_count() (options unit_first/unit_count) and collects the
 * per-unit results with the on_unit callback.
 *
 * The coordinator records every unit's result in memory, and in the
 * checkpoint file when --checkpoint is given, so a job that is killed
 * resumes where it stopped. It prints the total only when every unit of the
 * list has a result; any failure (a worker's error, a rank that dies, which
 * MPI turns into the end of the whole job) ends with a non-zero status and
 * no count on stdout.
 *
 * Only the public API of the library is used here.
 */
#include <mpi.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nqueens.h"

enum { TAG_RESULT = 1, TAG_WORK = 2, TAG_FAILED = 3 };

typedef struct mpi_opts {
    unsigned n;
    unsigned threads;
    nq_method method;
    const char *checkpoint;
    double checkpoint_interval;
    uint64_t batch;
    int unique;
    int json;
    int crash_rank; /* testing aid: this rank aborts after its first batch */
} mpi_opts;

static const char usage_text[] =
    "Usage: mpirun -np P nqueens-mpi [OPTION]... N\n"
    "Count the solutions of the N-queens problem over the ranks of an MPI job:\n"
    "rank 0 hands out batches of work units, ranks 1..P-1 count them.\n"
    "\n"
    "  -j, --threads=T            threads per worker rank (default: all CPUs)\n"
    "  -m, --method=M             symmetry (default) or plain\n"
    "  -u, --unique               print the unique count instead of the total\n"
    "      --json                 print a JSON object with both counts\n"
    "      --checkpoint=FILE      record finished units on rank 0; rerun the\n"
    "                             same job to resume\n"
    "      --checkpoint-interval=SEC  seconds between saves (default 10)\n"
    "      --batch=B              units per batch (default: automatic)\n"
    "      --test-crash-rank=R    testing aid: rank R aborts after one batch\n"
    "  -h, --help                 show this help\n"
    "\n"
    "Exit status: 0 success, 1 failure, 2 usage error, 130/143 interrupted.\n";

static volatile sig_atomic_t caught_signal;

static void on_signal(int sig) { caught_signal = sig; }

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void fail(const char *fmt, ...)
{
    va_list ap;
    fputs("nqueens-mpi: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

static int parse_u64(uint64_t *out, const char *s)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return 0;
}

/* Options as name=value or name value; 0 ok, 1 help, -1 error. */
static int parse_args(mpi_opts *o, int argc, char **argv)
{
    int have_n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL, *eq;
        char name[32];
        uint64_t v;
        size_t len;

        if (a[0] != '-' || (a[1] >= '0' && a[1] <= '9')) {
            if (have_n || parse_u64(&v, a) != 0 || v > NQ_MAX_N) {
                fail("'%s' is not a board size (0..28), or a second one", a);
                return -1;
            }
            o->n = (unsigned)v;
            have_n = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        if (strcmp(a, "-u") == 0 || strcmp(a, "--unique") == 0) {
            o->unique = 1;
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        eq = strchr(a, '=');
        if (!eq && a[1] != '-' && a[1] && a[2])
            eq = a + 1; /* -j4: the value follows the letter */
        len = eq ? (size_t)(eq - a) + (eq == a + 1) : strlen(a);
        if (len >= sizeof name) {
            fail("unknown option '%s'", a);
            return -1;
        }
        memcpy(name, a, len);
        name[len] = '\0';
        if (eq == a + 1)
            val = a + 2;
        else if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else {
            fail("option '%s' needs a value", a);
            return -1;
        }
        if (strcmp(name, "-j") == 0 || strcmp(name, "--threads") == 0) {
            if (parse_u64(&v, val) != 0 || v < 1 || v > 1024) {
                fail("thread count '%s' is not a number from 1 to 1024", val);
                return -1;
            }
            o->threads = (unsigned)v;
        } else if (strcmp(name, "-m") == 0 || strcmp(name, "--method") == 0) {
            if (strcmp(val, "plain") == 0)
                o->method = NQ_METHOD_PLAIN;
            else if (strcmp(val, "symmetry") == 0)
                o->method = NQ_METHOD_SYMMETRY;
            else {
                fail("unknown method '%s' (expected symmetry or plain)", val);
                return -1;
            }
        } else if (strcmp(name, "--checkpoint") == 0) {
            o->checkpoint = val;
        } else if (strcmp(name, "--checkpoint-interval") == 0) {
            if (parse_u64(&v, val) != 0 || v > 86400) {
                fail("--checkpoint-interval: '%s' is not 0..86400 seconds", val);
                return -1;
            }
            o->checkpoint_interval = (double)v;
        } else if (strcmp(name, "--batch") == 0) {
            if (parse_u64(&v, val) != 0 || v < 1) {
                fail("--batch: '%s' is not a positive number", val);
                return -1;
            }
            o->batch = v;
        } else if (strcmp(name, "--test-crash-rank") == 0) {
            if (parse_u64(&v, val) != 0 || v > 1000000) {
                fail("--test-crash-rank: '%s' is not a rank", val);
                return -1;
            }
            o->crash_rank = (int)v;
        } else {
            fail("unknown option '%s'", a);
            return -1;
        }
    }
    if (!have_n) {
        fail("%s", "no board size given (try --help)");
        return -1;
    }
    if (o->unique && o->method == NQ_METHOD_PLAIN) {
        fail("%s", "--unique needs the symmetry method");
        return -1;
    }
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------------
 * Worker
 * ------------------------------------------------------------------------ */
typedef struct collected {
    uint64_t *v; /* count, then (unit, total, unique) triples */
    uint64_t cap;
} collected;

static void collect(uint64_t unit, uint64_t total, uint64_t unique, void *data)
{
    collected *c = data;
    uint64_t k = c->v[0];
    if (1 + 3 * (k + 1) > c->cap)
        return; /* cannot happen: the buffer holds a whole batch */
    c->v[1 + 3 * k] = unit;
    c->v[2 + 3 * k] = total;
    c->v[3 + 3 * k] = unique;
    c->v[0] = k + 1;
}

static int worker(const mpi_opts *o, int rank)
{
    collected c = {NULL, 0};
    uint64_t work[2];
    int batches = 0;

    c.cap = 1;
    c.v = calloc(1, sizeof *c.v);
    if (!c.v)
        return 1;
    for (;;) {
        nq_count_options co = NQ_COUNT_OPTIONS_INIT;
        nq_count_result r;
        int rc;

        /* send what we have (nothing, the first time), get the next batch */
        MPI_Send(c.v, (int)(1 + 3 * c.v[0]), MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
        MPI_Recv(work, 2, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (work[1] == 0)
            break;
        if (o->crash_rank == rank && batches == 1)
            abort(); /* --test-crash-rank: die with a batch in hand */
        if (1 + 3 * work[1] > c.cap) {
            uint64_t *v = realloc(c.v, (size_t)(1 + 3 * work[1]) * sizeof *v);
            if (!v) {
                uint64_t code = (uint64_t)(-NQ_ENOMEM);
                MPI_Send(&code, 1, MPI_UINT64_T, 0, TAG_FAILED, MPI_COMM_WORLD);
                break;
            }
            c.v = v;
            c.cap = 1 + 3 * work[1];
        }
        c.v[0] = 0;
        co.threads = o->threads;
        co.method = o->method;
        co.unit_first = work[0];
        co.unit_count = work[1];
        co.on_unit = collect;
        co.unit_data = &c;
        rc = nq_count(&r, o->n, &co);
        if (rc != NQ_OK || c.v[0] != work[1]) {
            uint64_t code = (uint64_t)(rc != NQ_OK ? -rc : -NQ_EINVAL);
            MPI_Send(&code, 1, MPI_UINT64_T, 0, TAG_FAILED, MPI_COMM_WORLD);
            break;
        }
        batches++;
    }
    free(c.v);
    return 0;
}

/* ------------------------------------------------------------------------
 * Coordinator
 * ------------------------------------------------------------------------ */
typedef struct ledger {
    nq_checkpoint *cp;   /* the results, in memory and (optionally) on disk */
    uint64_t units;
    uint64_t next;       /* first unit not yet handed out */
    uint64_t batch;
} ledger;

/* The next batch of units that have no result yet: [*first, *first + *count). */
static void next_batch(ledger *l, uint64_t *first, uint64_t *count)
{
    while (l->next < l->units && nq_checkpoint_is_done(l->cp, l->next))
        l->next++;
    *first = l->next;
    *count = 0;
    while (l->next < l->units && *count < l->batch &&
           !nq_checkpoint_is_done(l->cp, l->next)) {
        l->next++;
        ++*count;
    }
}

static int coordinator(const mpi_opts *o, int ranks)
{
    ledger l;
    nq_checkpoint_info info;
    uint64_t *buf = NULL;
    size_t bufcap = 0;
    int active = ranks - 1, status = 0, rc;
    double last_save = now();

    memset(&l, 0, sizeof l);
    /* without --checkpoint, the results live in a memory-only one */
    rc = nq_checkpoint_open(&l.cp, o->checkpoint, o->n, o->method);
    if (rc != NQ_OK) {
        fail("cannot use the checkpoint: %s", nq_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 2);
        return 2;
    }
    nq_checkpoint_info_get(&info, l.cp);
    l.units = info.units_total;
    l.batch = o->batch;
    if (!l.batch) {
        /* about sixteen batches per worker, for balance at the end */
        l.batch = (info.units_total - info.units_done) / ((uint64_t)(ranks - 1) * 16);
        if (l.batch < 1)
            l.batch = 1;
    }

    while (active > 0) {
        MPI_Status st;
        int count;
        uint64_t work[2];

        if (caught_signal)
            break;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_UINT64_T, &count);
        if ((size_t)count > bufcap) {
            uint64_t *v = realloc(buf, (size_t)count * sizeof *v);
            if (!v) {
                fail("%s", "out of memory");
                status = 1;
                break;
            }
            buf = v;
            bufcap = (size_t)count;
        }
        MPI_Recv(buf, count, MPI_UINT64_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (st.MPI_TAG == TAG_FAILED) {
            char what[96];
            snprintf(what, sizeof what, "rank %d failed: %s", st.MPI_SOURCE,
                     nq_strerror(-(int)buf[0]));
            fail("%s", what);
            status = 1;
            break;
        }
        for (uint64_t i = 0; count > 0 && i < buf[0]; i++) {
            if (nq_checkpoint_record(l.cp, buf[1 + 3 * i], buf[2 + 3 * i],
                                     buf[3 + 3 * i]) != NQ_OK) {
                fail("%s", "a worker sent a result that contradicts the checkpoint");
                status = 1;
                break;
            }
        }
        if (status)
            break;
        if (o->checkpoint && now() - last_save >= o->checkpoint_interval) {
            if (nq_checkpoint_save(l.cp) != NQ_OK) {
                fail("cannot save the checkpoint: %s", strerror(errno));
                status = 1;
                break;
            }
            last_save = now();
        }
        next_batch(&l, &work[0], &work[1]);
        if (work[1] == 0)
            active--; /* nothing left: this worker stops */
        MPI_Send(work, 2, MPI_UINT64_T, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
    }
    if (o->checkpoint && nq_checkpoint_save(l.cp) != NQ_OK && !status) {
        fail("cannot save the checkpoint: %s", strerror(errno));
        status = 1;
    }
    nq_checkpoint_info_get(&info, l.cp);
    if (caught_signal) {
        char what[160];
        snprintf(what, sizeof what, "interrupted; %llu of %llu units are %s",
                 (unsigned long long)info.units_done, (unsigned long long)info.units_total,
                 o->checkpoint ? "saved: run the same job again to resume" : "lost (use --checkpoint)");
        fail("%s", what);
        status = 128 + (int)caught_signal;
    } else if (!status && info.units_done != info.units_total) {
        fail("%s", "not every unit was counted; no total is printed");
        status = 1;
    }
    if (!status) {
        if (o->json)
            printf("{\"n\":%u,\"total\":%llu,\"unique\":%llu,\"method\":\"%s\",\"ranks\":%d}\n",
                   o->n, (unsigned long long)info.total, (unsigned long long)info.unique,
                   nq_method_name(info.method), ranks);
        else
            printf("%llu\n", (unsigned long long)(o->unique ? info.unique : info.total));
        fflush(stdout);
    }
    free(buf);
    nq_checkpoint_close(l.cp);
    if (status)
        MPI_Abort(MPI_COMM_WORLD, status); /* ends the workers too */
    return status;
}

int main(int argc, char **argv)
{
    mpi_opts o;
    int rank, ranks, provided, rc;

    memset(&o, 0, sizeof o);
    o.method = NQ_METHOD_SYMMETRY;
    o.checkpoint_interval = 10.0;
    o.crash_rank = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);

    rc = parse_args(&o, argc, argv);
    if (rc != 0) {
        if (rank == 0 && rc == 1)
            fputs(usage_text, stdout);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    if (ranks < 2) {
        if (rank == 0)
            fail("%s", "needs at least 2 ranks: rank 0 coordinates, the others count");
        MPI_Finalize();
        return 2;
    }
    if (rank == 0) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        rc = coordinator(&o, ranks);
    } else {
        rc = worker(&o, rank);
    }
    MPI_Finalize();
    return rc;
}
