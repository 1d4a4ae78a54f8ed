/*
 * --help and --version, built from the option table.
 */
#ifndef CLI_HELP_H
#define CLI_HELP_H

#include <stdio.h>

/* Where to report bugs; set by the build (CMake's NQ_HOMEPAGE_URL). */
#ifndef NQ_HOMEPAGE_URL
#define NQ_HOMEPAGE_URL "https://github.com/nqueens/nqueens"
#endif

/* The usage synopsis: the first lines of --help, and what a bare
 * `nqueens` prints on stderr when stdin is a terminal. */
void cli_print_usage(FILE *f);

/* The whole --help text. */
void cli_print_help(FILE *f);

/* The --version text: name and version, copyright, licence. */
void cli_print_version(FILE *f);

#endif
