/*
 * Catching the signals that ask a long run to stop (SIGINT, SIGTERM): the
 * handler should only raise a flag that the count polls. Requires
 * _POSIX_C_SOURCE >= 200809L.
 */
#ifndef NQC_SIGNAL_H
#define NQC_SIGNAL_H

#include <signal.h>
#include <string.h>

/*! nqc_catch_stop_signals() : route SIGINT and SIGTERM to `handler`.
 *  With `once` nonzero the handler is reset after its first call
 *  (SA_RESETHAND), so a second Ctrl-C ends the process at once.
 *  @return 0, or -1 if sigaction() failed. */
static inline int nqc_catch_stop_signals(void (*handler)(int), int once)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = once ? (int)SA_RESETHAND : 0;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0)
        return -1;
    return 0;
}

/*! nqc_release_stop_signals() : give SIGINT and SIGTERM their default action. */
static inline void nqc_release_stop_signals(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

#endif
