/*
 * The exit statuses of the nqueens command: what nq_cli_main() (cli.c)
 * returns and what every mode and helper of the command hands back up to
 * it. No .c implements this header, so the files below the entry point
 * can use the statuses without leaning on it.
 */
#ifndef CLI_EXIT_H
#define CLI_EXIT_H

/* Exit statuses of the command. */
enum {
    CLI_EXIT_OK = 0,      /* success */
    CLI_EXIT_FAILURE = 1, /* a runtime failure, a failed check or an invalid placement */
    CLI_EXIT_USAGE = 2,   /* bad arguments or unreadable input */
    CLI_EXIT_PIPE = 141   /* the reader of standard output went away (128 + SIGPIPE) */
};

#endif
