/*
 * --merge: part results (JSON lines) in, their sums out.
 */
#ifndef CLI_MERGE_H
#define CLI_MERGE_H

#include <stdio.h>

#include "cli_opts.h"

/* Reads the part lines of the files named by o->operands ("-" or none:
 * `in`), checks them and prints the sum of each size in o->format.
 * @return a CLI_EXIT_* status. */
int cli_merge(const cli_opts *o, FILE *in, FILE *out, FILE *err);

#endif
