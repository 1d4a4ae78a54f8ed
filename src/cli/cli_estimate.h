/*
 * --estimate, and the notice printed before a count that will take long.
 */
#ifndef CLI_ESTIMATE_H
#define CLI_ESTIMATE_H

#include <stdio.h>

#include <nqueens.h>

#include "cli_opts.h"
#include "cli_sizes.h"

/* --estimate: for each size, the seconds its count would take here. */
int cli_estimate(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err);

/* Before counting n with co on a terminal: if a quick sample says that the count
 * will take over a minute, says so on err ("n = 24: about 2.5 days with
 * 2 threads"). Prints nothing for small n, which are known to be quick. */
void cli_notice_long_count(const nq_count_options *co, unsigned n, FILE *err);

/* "3.5 hours", "2 minutes": a duration in words, two digits at most. */
void cli_format_duration(char *buf, size_t size, double seconds);

/* After a count of n with co answered NQ_EMEMORY: what it needs, and what
 * limits it ("nqueens: n = 24 needs at least 3.1 GiB with 2 threads, more
 * than --max-memory allows (1.0 GiB)"). */
void cli_say_memory_refusal(const nq_count_options *co, unsigned n, FILE *err);

/* Before anything is printed: refuses, as cli_say_memory_refusal() does,
 * the first size whose count with co could not fit in memory.
 * @return 0, or -1 after the message. */
int cli_check_memory(const nq_count_options *co, const cli_sizes *sizes, FILE *err);

#endif
