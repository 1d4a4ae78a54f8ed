/*
 * --estimate, and the notice printed before a count that will take long.
 */
#ifndef CLI_ESTIMATE_H
#define CLI_ESTIMATE_H

#include <stdio.h>

#include <nqueens.h>

#include "cli_opts.h"
#include "cli_sizes.h"

/* "about 4.1 hours (3.6 to 4.8 hours) with 2 threads, 70 MiB of memory,
 * 8.2 core-hours" (core-hours from an hour on), "at least 3.2 days with
 * ...", or "under 0.1 seconds with ...": what --estimate and the notice
 * before a long count say. */
void cli_estimate_sentence(char *buf, size_t size, const nq_estimate_result *e,
                           uint64_t memory);

/* --estimate: for each size, the seconds its count would take here. */
int cli_estimate(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err);

/* Before the counts of sizes with co: a quick sample of each (n >= 17 on
 * a terminal or with --max-time, else n >= 21; smaller n are known to be
 * quick, and get a zero forecast), into *out
 * (one per size, to free()). Refuses, before anything is counted, a count
 * estimated above --max-time. Samples nothing when neither a notice nor
 * a limit could come of it. @return 0, or the exit status after the
 * message: CLI_EXIT_USAGE for a count past --max-time (a rerun would be
 * refused the same), CLI_EXIT_FAILURE when out of memory. */
int cli_forecast_counts(nq_estimate_result **out, const cli_opts *o,
                        const nq_count_options *co, const cli_sizes *sizes, FILE *err);

/* Before counting n, from its forecast e: one line on err if the count
 * will take over a minute (err a terminal, tty nonzero) or over a day
 * (elsewhere), in the words of cli_estimate_sentence() ("nqueens: n = 24: about
 * 2.5 days (2.1 to 2.9 days) with 2 threads, 5.1 GiB of memory, 120
 * core-hours"); nothing with --no-notice. */
void cli_notice_long_count(const cli_opts *o, unsigned n, const nq_estimate_result *e,
                           int tty, FILE *err);

/* "3.5 hours", "12 minutes", "0.045 seconds": a duration in the largest
 * unit it holds 1.5 of, with no decimals from 10 on, one below, and two
 * significant digits below 0.1 (never "0.0"). */
void cli_format_duration(char *buf, size_t size, double seconds);

/* After a count of n with co answered NQ_EMEMLIMIT: what it needs, and what
 * limits it ("nqueens: n = 24 needs at least 3.1 GiB with 2 threads, more
 * than --max-memory allows (1.0 GiB)"). */
void cli_say_memory_refusal(const nq_count_options *co, unsigned n, FILE *err);

/* Before anything is printed: refuses, as cli_say_memory_refusal() does,
 * the first size whose count with co could not fit in memory.
 * @return 0, or -1 after the message. */
int cli_check_memory(const nq_count_options *co, const cli_sizes *sizes, FILE *err);

#endif
