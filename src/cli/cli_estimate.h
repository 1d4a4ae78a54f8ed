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
/* "about 4.1 hours (3.6 to 4.8 hours) with 2 threads, 70 MiB of memory,
 * 8.2 core-hours" (core-hours from an hour on), or "at least 3.2 days
 * with ...": what --estimate and the notice before a long count say. */
void cli_estimate_sentence(char *buf, size_t size, const nq_estimate_result *e,
                           uint64_t memory);

int cli_estimate(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err);

/* Before counting n on a terminal: if a quick sample says that the count
 * will take over a minute, says so on err ("n = 24: about 2.5 days with
 * 2 threads"). Prints nothing for small n, which are known to be quick. */
void cli_notice_long_count(const cli_opts *o, unsigned n, FILE *err);

/* "3.5 hours", "2 minutes": a duration in words, two digits at most. */
void cli_format_duration(char *buf, size_t size, double seconds);

/* "3.1 GiB", "512 KiB": a size in bytes, two digits at most. */
void cli_format_bytes(char *buf, size_t size, uint64_t bytes);

/* After a count of n with co answered NQ_EMEMORY: what it needs, and what
 * limits it ("nqueens: n = 24 needs at least 3.1 GiB with 2 threads, more
 * than --max-memory allows (1.0 GiB)"). */
void cli_say_memory_refusal(const cli_opts *o, const nq_count_options *co,
                            unsigned n, FILE *err);

/* Before anything is printed: refuses, as cli_say_memory_refusal() does,
 * the first size whose count with co could not fit in memory.
 * @return 0, or -1 after the message. */
int cli_check_memory(const cli_opts *o, const nq_count_options *co,
                     const cli_sizes *sizes, FILE *err);

#endif
