/*
 * The nqueens command line, callable without main(): tests drive it with
 * their own streams.
 */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

/* Exit statuses of the command. */
enum {
    CLI_EXIT_OK = 0,      /* success */
    CLI_EXIT_FAILURE = 1, /* a runtime failure, a failed check or an invalid placement */
    CLI_EXIT_USAGE = 2,   /* bad arguments or unreadable input */
    CLI_EXIT_PIPE = 141   /* the reader of standard output went away (128 + SIGPIPE) */
};

/*! nq_cli_main() : run the command with arguments argv[0..argc-1] (argv[0]
 *  is the program name), reading standard input from `in` and writing to
 *  `out` and `err`. argv may be reordered (options before operands), as
 *  getopt_long() does; the function may be called any number of times.
 *  @return the exit status: CLI_EXIT_*, or 128 + a signal number after
 *          SIGINT or SIGTERM. */
int nq_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
