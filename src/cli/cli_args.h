/*
 * The command line, parsed: getopt_long() over the option table, values
 * checked, options that the chosen mode would ignore refused.
 */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <stdio.h>

#include "cli_opts.h"

/* Sets o to the defaults, then parses argv into it (argv is reordered:
 * operands go last, and o->operands points at them). @return 0, or -1
 * after a usage error was reported on err. */
int cli_parse_args(cli_opts *o, int argc, char **argv, FILE *err);

#endif
