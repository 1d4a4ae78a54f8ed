/*
 * nqueens-mpi: what its files share, the options and the messages that
 * rank 0 (the coordinator, coordinator.c) and the workers (worker.c)
 * exchange.
 *
 * A worker sends reports, each an array of uint64_t:
 *   [kind, code, k, unit_1, total_1, unique_1, ..., unit_k, total_k, unique_k]
 * carrying the results of the units it finished since its last report.
 * Kinds: MPI_REPORT_ALIVE (sent every second while it counts, results or
 * none: a worker that stops sending them is hung), MPI_REPORT_DONE (its
 * batch is finished: it asks for the next), MPI_REPORT_STOPPED (it stopped
 * early, on a signal or when told to: it asks for nothing more),
 * MPI_REPORT_FAILED (code = the library's status, negated; k = 0; for
 * NQ_EMEMLIMIT three more words follow: the bytes the count needs, the
 * worker's threads, and the bytes one thread needs if that fits, else 0).
 * Rank 0 answers DONE and STOPPED with a batch [first, count]; a count of
 * 0 means "no more work: finish". It may send MPI_TAG_STOP at any time to
 * make a worker stop its batch early.
 */
#ifndef NQ_MPI_INTERNAL_H
#define NQ_MPI_INTERNAL_H

#include <signal.h>
#include <stdint.h>

#include "nqueens.h"

enum { MPI_TAG_REPORT = 1, MPI_TAG_WORK = 2, MPI_TAG_STOP = 3 };
enum {
    MPI_REPORT_ALIVE = 0,
    MPI_REPORT_DONE = 1,
    MPI_REPORT_STOPPED = 2,
    MPI_REPORT_FAILED = 3
};
#define MPI_REPORT_HEAD 3 /* kind, code, k */
#define MPI_REPORT_MEMORY 3 /* words after the head of an NQ_EMEMLIMIT failure */

#define NQ_MPI_PROGRAM "nqueens-mpi"

/* Room for a message that names the checkpoint's path up to three times
 * (a path of up to 4,096 bytes, as Linux's PATH_MAX), with its words. */
#define NQ_MPI_WHY_SIZE (3 * 4096 + 512)

/* Seconds between a counting worker's reports. */
#define MPI_ALIVE_PERIOD 1.0

typedef struct mpi_opts {
    unsigned n;
    unsigned threads;
    nq_method method;
    const char *checkpoint;
    double checkpoint_interval;
    uint64_t batch;
    double worker_timeout;  /* seconds of silence that end the job */
    uint64_t max_memory;    /* --max-memory in bytes; 0 = the library's default */
    nq_device device;       /* --device: NQ_DEVICE_CPU or NQ_DEVICE_GPU */
    unsigned gpu;           /* a worker's GPU: its rank on its node, modulo
                               the GPUs it sees */
    int has_file;           /* rank 0: file holds the checkpoint's header */
    nq_checkpoint_info file;
    int unique;
    int json;
    const long long *node_pids; /* rank 0: each rank's process id where it
                               shares rank 0's node and process-id namespace,
                               else 0; NULL if unknown */
    int crash_rank;         /* testing aid: this rank aborts after its first batch */
    int hang_rank;          /* testing aid: this rank stops answering after it */
} mpi_opts;

/* ---- mpi_common.c: shared by every file, calls none of them ---- */

/* The first stop signal that came to this rank (nqc_signal.h), or 0. */
extern volatile sig_atomic_t nq_mpi_signal;

/* Routes the stop signals to nq_mpi_signal for good; 0, or -1. */
int nq_mpi_catch_signals(void);

/* Whether this rank prints messages (rank 0 only). */
void nq_mpi_set_speaker(int on);
int nq_mpi_speaker(void);

/* Prints "nqueens-mpi: <message>" on stderr, on the speaking rank only. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void nq_mpi_error(const char *fmt, ...);

/* The count options of a worker: threads, method, unique, memory, device. */
static inline nq_count_options nq_mpi_count_options(const mpi_opts *o)
{
    nq_count_options co = NQ_COUNT_OPTIONS_INIT;
    co.threads = o->threads;
    co.method = o->method;
    co.unique = o->unique;
    co.max_memory = o->max_memory;
    co.device = o->device;
    co.gpu = o->gpu;
    return co;
}

/* The two roles (mpi_coordinator.c, mpi_worker.c); each returns the
 * process's exit status. */
int nq_mpi_coordinator(const mpi_opts *o, int ranks);
int nq_mpi_worker(const mpi_opts *o, int rank);

#endif
