/*
 * nqueens-mpi: what the command line (mpi_main.c), rank 0
 * (mpi_coordinator.c) and the workers (mpi_worker.c) share, and nothing
 * of theirs: the stop flag that the signal handler raises and the one
 * way a message is printed. Every file calls down to this one; this one
 * calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>

#include "mpi_internal.h"
#include "nqc_signal.h"

volatile sig_atomic_t nq_mpi_signal;

static int speaker; /* this rank prints messages (rank 0) */

/* The first stop signal is the one the status names: later ones (mpirun
 * and a batch system may each send one) change nothing. */
static void on_signal(int sig)
{
    if (!nq_mpi_signal)
        nq_mpi_signal = sig;
}

int nq_mpi_catch_signals(void) { return nqc_catch_stop_signals(on_signal); }

void nq_mpi_set_speaker(int on) { speaker = on; }

int nq_mpi_speaker(void) { return speaker; }

void nq_mpi_error(const char *fmt, ...)
{
    va_list ap;
    if (!speaker)
        return;
    fputs(NQ_MPI_PROGRAM ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}
