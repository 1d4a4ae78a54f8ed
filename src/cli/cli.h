/*
 * The nqueens command line, callable without main(): tests drive it with
 * their own streams.
 */
#ifndef NQ_CLI_H
#define NQ_CLI_H

#include <stdio.h>

/* Exit statuses of the command. */
enum {
    NQ_EXIT_OK = 0,      /* success */
    NQ_EXIT_FAILURE = 1, /* a runtime failure, a failed check or an invalid placement */
    NQ_EXIT_USAGE = 2    /* bad arguments or unreadable input */
};

/*! nq_cli_main() : run the command with arguments argv[0..argc-1] (argv[0]
 *  is the program name), reading standard input from `in` and writing to
 *  `out` and `err`.
 *  @return the exit status: NQ_EXIT_OK, NQ_EXIT_FAILURE or NQ_EXIT_USAGE. */
int nq_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
