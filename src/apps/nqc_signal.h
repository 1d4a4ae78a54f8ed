/*
 * Catching the signals that end a process by default and that ask a long
 * run to stop: SIGINT (Ctrl-C), SIGTERM (kill, timeout, a scheduler),
 * SIGHUP (a terminal or ssh session that drops), SIGQUIT (Ctrl-\) and
 * SIGXCPU (a CPU-time limit). The handler should only raise a flag that
 * the count polls, and keep the first signal's number: the run then saves
 * its work once and ends with 128 + that number.
 *
 * The handlers stay installed until the run is over, so that a second or
 * third signal (GNU timeout sends SIGTERM to the process and then to its
 * group; an impatient user presses Ctrl-C again) cannot cut the final save
 * short. Each blocks the others while it runs, and system calls that it
 * interrupts are restarted (SA_RESTART), so that a save is never broken
 * off by EINTR. A SIGHUP that the process was started ignoring (nohup)
 * stays ignored: that is what nohup asks for. (SIGINT and SIGQUIT are
 * caught even so: a shell starts its background jobs ignoring them, and a
 * job that `kill -INT` stops is what a user expects.) Requires
 * _POSIX_C_SOURCE >= 200809L.
 */
#ifndef NQC_SIGNAL_H
#define NQC_SIGNAL_H

#include <signal.h>
#include <stddef.h>
#include <string.h>

#define NQC_STOP_SIGNAL_COUNT 5

/*! nqc_stop_signal() : the i-th stop signal (i < NQC_STOP_SIGNAL_COUNT),
 *  in the order the help and the manuals list them. */
static inline int nqc_stop_signal(size_t i)
{
    static const int sigs[NQC_STOP_SIGNAL_COUNT] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU};
    return sigs[i];
}

/*! nqc_stop_signal_set() : the set of the stop signals, in *set. */
static inline void nqc_stop_signal_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < NQC_STOP_SIGNAL_COUNT; i++)
        sigaddset(set, nqc_stop_signal(i));
}

/*! nqc_catch_stop_signals() : route every stop signal to `handler`, which
 *  stays installed (no SA_RESETHAND) and runs with the others blocked.
 *  @return 0, or -1 if sigaction() failed. */
static inline int nqc_catch_stop_signals(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    nqc_stop_signal_set(&sa.sa_mask);
    for (size_t i = 0; i < NQC_STOP_SIGNAL_COUNT; i++) {
        int sig = nqc_stop_signal(i);
        struct sigaction old;
        if (sig == SIGHUP && sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* nohup */
        if (sigaction(sig, &sa, NULL) != 0)
            return -1;
    }
    return 0;
}

/*! nqc_release_stop_signals() : give every stop signal that `handler`
 *  catches its default action back (an ignored SIGHUP stays ignored). */
static inline void nqc_release_stop_signals(void (*handler)(int))
{
    for (size_t i = 0; i < NQC_STOP_SIGNAL_COUNT; i++) {
        struct sigaction old;
        int sig = nqc_stop_signal(i);
        if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == handler)
            signal(sig, SIG_DFL);
    }
}

/*! nqc_ignore_file_size_limit() : a write past the file-size limit
 *  (RLIMIT_FSIZE: `ulimit -f`) then fails with EFBIG, as one to a full disk
 *  fails with ENOSPC, so that the program removes what it was writing and
 *  says why, instead of being killed by SIGXFSZ half-way through a save. */
static inline void nqc_ignore_file_size_limit(void)
{
#ifdef SIGXFSZ
    signal(SIGXFSZ, SIG_IGN);
#endif
}

/*! nqc_signal_name() : "SIGTERM" for a stop signal, else "a signal". */
static inline const char *nqc_signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    case SIGXCPU: return "SIGXCPU";
    default: return "a signal";
    }
}

#endif
