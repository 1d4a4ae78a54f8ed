/*
 * The nqueens command line, callable without main(): tests drive it with
 * their own streams. Its exit statuses (CLI_EXIT_*) are cli_exit.h's,
 * included here for its callers.
 */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

#include "cli_exit.h"

/*! nq_cli_main() : run the command with arguments argv[0..argc-1] (argv[0]
 *  is the program name), reading standard input from `in` and writing to
 *  `out` and `err`. argv may be reordered (options before operands), as
 *  getopt_long() does; the function may be called any number of times.
 *  @return the exit status: CLI_EXIT_*, or 128 + a signal number after
 *          SIGINT or SIGTERM. */
int nq_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
