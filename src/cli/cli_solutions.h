/*
 * The modes that print or read placements: --list, --one, --random and
 * --verify.
 */
#ifndef CLI_SOLUTIONS_H
#define CLI_SOLUTIONS_H

#include <stdio.h>

#include "cli_opts.h"
#include "cli_sizes.h"

/* --list: every solution of each size (up to --limit). */
int cli_list(const cli_opts *o, const cli_sizes *sizes, FILE *out, FILE *err);
/* --one and --random: one placement of the single operand. */
int cli_construct(const cli_opts *o, FILE *out, FILE *err);
/* --verify: placements read from `in`, one per line. */
int cli_verify(const cli_opts *o, FILE *in, FILE *out, FILE *err);

#endif
