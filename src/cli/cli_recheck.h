/*
 * --recheck: finished units of a checkpoint counted again and compared.
 */
#ifndef CLI_RECHECK_H
#define CLI_RECHECK_H

#include <stdio.h>

#include "cli_opts.h"

/* Re-checks the checkpoint named by the one operand as o says (--sample,
 * --seed, --pick, --by, --simd), printing a line per unit and the verdict
 * in o->format. @return CLI_EXIT_OK when every unit matches, CLI_EXIT_FAILURE
 * when one differs (or on a runtime failure), CLI_EXIT_USAGE for a bad
 * operand or option, 128 + a signal number when stopped. */
int cli_recheck(const cli_opts *o, FILE *out, FILE *err);

#endif
