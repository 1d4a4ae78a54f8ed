/*
 * The progress line of a long count, on stderr: on a terminal one line,
 * redrawn in place, never wider than the terminal, cleared at the end;
 * elsewhere, and on a dumb terminal, a plain line every ten seconds.
 */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdio.h>

#include "nqueens.h"

typedef struct cli_progress_state {
    FILE *err;
    unsigned n;
    int tty;          /* err is a terminal: progress is on by default */
    int redraw;       /* ... and not a dumb one: redraw one line in place */
    int forced;       /* --progress: draw from the start */
    int drawn;        /* something is on the line */
    unsigned width;   /* columns of the terminal */
    double last_line; /* elapsed time of the last plain line */
} cli_progress_state;

/* Sets up st for drawing on err. */
void cli_progress_init(cli_progress_state *st, FILE *err, int forced);

/* An nq_progress_fn: data is a cli_progress_state. */
void cli_progress(const nq_progress *p, void *data);

/* Clears the line, if one is drawn. */
void cli_progress_end(cli_progress_state *st);

/* TERM=dumb, empty or unset: a terminal that may take no escape sequence. */
int cli_dumb_terminal(void);

/* Formats a duration as "H:MM:SS", or "Dd HH:MM:SS" from one day on. */
void cli_format_clock(char *buf, size_t size, double seconds);

#endif
