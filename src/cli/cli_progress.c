/*
 * Progress, drawn the way zstd draws it: "\r", the line, "\033[K" (erase
 * to the end). The line is chosen to fit the terminal: the longest of a
 * few forms that fits in width - 1 columns (the last column is left free,
 * so that no terminal wraps), else the shortest cut to fit. The width is
 * asked again after each SIGWINCH. A terminal that says it is dumb
 * (TERM=dumb: an editor's shell buffer, a serial console), or says
 * nothing (TERM unset or empty), gets no escape sequence and no "\r":
 * plain lines that start with "nqueens: ", as a file or a pipe gets them.
 */
#include "cli_progress.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli_signals.h"

#define DEFAULT_WIDTH 80u

static unsigned terminal_width(FILE *f)
{
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
#else
    (void)f;
#endif
    return DEFAULT_WIDTH;
}

void cli_progress_init(cli_progress_state *st, FILE *err, int forced)
{
    memset(st, 0, sizeof *st);
    st->err = err;
    st->tty = isatty(fileno(err));
    st->redraw = st->tty && !cli_dumb_terminal();
    st->forced = forced;
    st->width = DEFAULT_WIDTH;
}

int cli_dumb_terminal(void)
{
    const char *term = getenv("TERM");
    return !term || !*term || strcmp(term, "dumb") == 0;
}

void cli_format_clock(char *buf, size_t size, double s)
{
    unsigned long t = s < 0 ? 0ul : (s > 4e9 ? 4000000000ul : (unsigned long)(s + 0.5));
    if (t >= 86400)
        snprintf(buf, size, "%lud %02lu:%02lu:%02lu", t / 86400, t / 3600 % 24,
                 t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

/* Writes the longest form of the line that fits in `room` columns. Until
 * this run has finished a unit, the count is setting up (the join builds
 * its quarter table first: seconds at n = 24) or in its first units, and
 * no rate is known: the line says "preparing" rather than "0.0%, ETA ?". */
static void compose(char *line, size_t size, size_t room, unsigned n,
                    const nq_progress *p, double pct, const char *elapsed,
                    const char *eta)
{
    char form[5][160];
    if (p->units_done == p->units_resumed && p->units_done < p->units_total) {
        snprintf(form[0], sizeof form[0], "n = %u: preparing, %llu/%llu units, elapsed %s",
                 n, (unsigned long long)p->units_done, (unsigned long long)p->units_total,
                 elapsed);
        snprintf(form[1], sizeof form[1], "n = %u: preparing, elapsed %s", n, elapsed);
        snprintf(form[2], sizeof form[2], "n = %u: preparing", n);
        snprintf(form[3], sizeof form[3], "preparing");
        snprintf(form[4], sizeof form[4], "%.0f%%", pct);
    } else {
        snprintf(form[0], sizeof form[0],
                 "n = %u: %llu/%llu units, %.1f%%, elapsed %s, ETA %s", n,
                 (unsigned long long)p->units_done, (unsigned long long)p->units_total, pct,
                 elapsed, eta);
        snprintf(form[1], sizeof form[1], "n = %u: %.1f%%, elapsed %s, ETA %s", n, pct,
                 elapsed, eta);
        snprintf(form[2], sizeof form[2], "n = %u: %.1f%%, ETA %s", n, pct, eta);
        snprintf(form[3], sizeof form[3], "%.1f%% ETA %s", pct, eta);
        snprintf(form[4], sizeof form[4], "%.0f%%", pct);
    }
    for (int i = 0; i < 5; i++)
        if (strlen(form[i]) <= room || i == 4) {
            size_t k = strlen(form[i]) < room ? strlen(form[i]) : room;
            if (k >= size)
                k = size - 1;
            memcpy(line, form[i], k);
            line[k] = '\0';
            return;
        }
}

void cli_progress(const nq_progress *p, void *data)
{
    cli_progress_state *st = data;
    char elapsed[32], eta[32], line[160];
    double pct;

    if (!st->forced && p->elapsed < 1.0)
        return; /* quick runs stay quiet */
    if (!st->redraw && p->elapsed - st->last_line < 10.0 &&
        p->units_done != p->units_total)
        return;
    st->last_line = p->elapsed;
    if (st->redraw && cli_take_resize())
        st->width = terminal_width(st->err);
    pct = p->units_total ? 100.0 * (double)p->units_done / (double)p->units_total
                         : 100.0;
    cli_format_clock(elapsed, sizeof elapsed, p->elapsed);
    /* the rate of this run: units resumed from a checkpoint took no time */
    if (p->units_done > p->units_resumed && p->units_done < p->units_total)
        cli_format_clock(eta, sizeof eta,
                         p->elapsed * (double)(p->units_total - p->units_done) /
                             (double)(p->units_done - p->units_resumed));
    else
        snprintf(eta, sizeof eta, "%s", p->units_done == p->units_total ? "0:00:00" : "?");
    compose(line, sizeof line, st->redraw ? st->width - 1 : sizeof line - 1, st->n, p,
            pct, elapsed, eta);
    /* a line redrawn in place is a display; a plain line is a message */
    fprintf(st->err, "%s%s%s", st->redraw ? "\r" : "nqueens: ", line,
            st->redraw ? "\033[K" : "\n");
    fflush(st->err);
    st->drawn = 1;
}

void cli_progress_end(cli_progress_state *st)
{
    if (st->drawn && st->redraw) {
        fputs("\r\033[K", st->err);
        fflush(st->err);
    }
    st->drawn = 0;
}
