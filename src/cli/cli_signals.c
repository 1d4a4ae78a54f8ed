/*
 * Signal handlers only raise flags: the library polls the cancel flag and
 * stops within a fraction of a second, saving the checkpoint; the progress
 * line polls the resize flag before it draws. A second SIGINT or SIGTERM
 * ends the process at once (SA_RESETHAND).
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
    caught_signal = sig;
    nq_cancel_raise(cancel_flag); /* async-signal-safe */
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
    nqc_catch_stop_signals(on_stop, 1);
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
    nqc_release_stop_signals();
#ifdef SIGWINCH
    signal(SIGWINCH, SIG_DFL);
#endif
    cancel_flag = NULL;
    nq_cancel_free(flag);
}

int cli_caught_signal(void) { return (int)caught_signal; }

int cli_take_resize(void)
{
    if (!resized)
        return 0;
    resized = 0;
    return 1;
}
