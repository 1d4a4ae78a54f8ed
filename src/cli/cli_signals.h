/*
 * Signals of the command, all in one place: SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT and SIGXCPU stop a count or a listing cleanly (the library polls
 * a flag; a count saves its checkpoint), SIGWINCH tells the progress line
 * that the terminal changed its width, and SIGXFSZ is ignored, so that a
 * write past the file-size limit fails as a write to a full disk does.
 */
#ifndef CLI_SIGNALS_H
#define CLI_SIGNALS_H

#include "nqueens.h"

/* Ignores SIGXFSZ for the whole run (nqc_ignore_file_size_limit()). */
void cli_ignore_file_size_limit(void);

/* Catches the stop signals and SIGWINCH; returns the cancel flag to hand to
 * the library (nq_count_options.stop), or NULL when none could be made.
 * The flag is freed by cli_release_signals(). */
nq_cancel *cli_catch_signals(void);

/* Frees the flag. Gives SIGWINCH its default action back, and the stop
 * signals too unless one came: then their handlers stay, only keeping the
 * first one's number, so that the status the run ends with is its. */
void cli_release_signals(void);

/* The first stop signal that came since cli_catch_signals(), or 0. */
int cli_caught_signal(void);

/* 1 once after each SIGWINCH (and once after cli_catch_signals()), else 0. */
int cli_take_resize(void);

#endif
