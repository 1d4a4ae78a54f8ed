/*
 * The modes that count: the plain count (with progress, checkpoints and
 * parts) and --check against the known values.
 */
#ifndef CLI_COUNT_H
#define CLI_COUNT_H

#include <stdio.h>

#include "cli_opts.h"
#include "cli_sizes.h"

/* Counts each size and prints one line per size in o->format. */
int cli_count(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err);

/* --check: counts each size and compares it with the known values. */
int cli_check(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err);

#endif
