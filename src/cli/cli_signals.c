/*
 * Signal handlers only raise flags: the library polls the cancel flag and
 * stops within a fraction of a second, saving the checkpoint; the progress
 * line polls the resize flag before it draws. The first stop signal is the
 * one the exit status names; later ones change nothing, and the handlers
 * stay installed until the run is over, so that no signal cuts the final
 * save short (nqc_signal.h).
 */
#include "cli_signals.h"

#include <signal.h>
#include <string.h>

#include "nqc_signal.h"

/* Set before the handlers are installed and cleared after they are gone,
 * so that a handler never sees it change. */
static nq_cancel *volatile cancel_flag;
static volatile sig_atomic_t caught_signal;
static volatile sig_atomic_t resized;

static void on_stop(int sig)
{
    if (!caught_signal)
        caught_signal = sig;
    nq_cancel_raise(cancel_flag); /* async-signal-safe; NULL: nothing */
}

#ifdef SIGWINCH
static void on_resize(int sig)
{
    (void)sig;
    resized = 1;
}
#endif

nq_cancel *cli_catch_signals(void)
{
    nq_cancel *flag = NULL;
    if (nq_cancel_new(&flag) != NQ_OK)
        return NULL; /* out of memory: the count runs uncancellable */
    cancel_flag = flag;
    caught_signal = 0;
    resized = 1; /* ask the width once at the start */
    nqc_catch_stop_signals(on_stop);
#ifdef SIGWINCH
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_resize;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGWINCH, &sa, NULL);
    }
#endif
    return flag;
}

void cli_release_signals(void)
{
    nq_cancel *flag = cancel_flag;
    sigset_t stops, old;

    /* no handler may hold the flag while it is freed */
    nqc_stop_signal_set(&stops);
    sigprocmask(SIG_BLOCK, &stops, &old);
    cancel_flag = NULL;
    nq_cancel_free(flag);
    /* After a stop the handlers stay, raising nothing: a later signal
     * cannot change the exit status that the first one set. */
    if (!caught_signal)
        nqc_release_stop_signals(on_stop);
    sigprocmask(SIG_SETMASK, &old, NULL);
#ifdef SIGWINCH
    signal(SIGWINCH, SIG_DFL);
#endif
}

void cli_ignore_file_size_limit(void) { nqc_ignore_file_size_limit(); }

int cli_caught_signal(void) { return (int)caught_signal; }

int cli_take_resize(void)
{
    if (!resized)
        return 0;
    resized = 0;
    return 1;
}
