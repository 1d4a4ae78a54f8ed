/*
 * The help text: a fixed synopsis and epilogue around the option lines,
 * which come from the option table (optable.c), so that a new option
 * appears in --help, the man page and the completions at once.
 */
#include "cli_help.h"

#include <string.h>

#include "nqueens.h"
#include "cli_optable.h"

#define HELP_COLUMN 24 /* where the help text of an option starts */

static const char synopsis[] =
    "Usage: nqueens [OPTION]... [N | A-B]...\n"
    "       nqueens --list [--board | --compact] [--canonical] [--limit K] N...\n"
    "       nqueens --one N | --random N [--seed S]\n"
    "       nqueens --verify [N] [FILE]...\n"
    "       nqueens --check [N | A-B]...\n"
    "       nqueens --estimate [-j N] [-m M] [N | A-B]...\n"
    "       nqueens --part K/M --json N > part-K.json; nqueens --merge part-*.json\n"
    "       nqueens --recheck [--sample K [--seed S] | --pick LIST] [--by WAY] FILE\n";

static const char description[] =
    "Count the solutions of the N-queens problem for each board size N\n"
    "(0.." NQ_STRINGIFY(NQ_MAX_N) ") or inclusive range A-B, one line per size, in order.\n"
    "With no operand, or with '-', sizes are read from standard input.\n"
    "An option that the chosen mode would ignore is an error.\n";

static const char epilogue[] =
    "\n"
    "Exit status: 0 success; 1 runtime failure, a --check or --recheck mismatch,\n"
    "an invalid placement, no solution or incomplete parts; 2 usage error or\n"
    "unreadable input; 130 or 143 stopped by SIGINT or SIGTERM; 141 standard\n"
    "output closed early (nqueens 1-20 | head -1), in every mode.\n"
    "\n"
    "Examples:\n"
    "  nqueens 13                      prints 73712\n"
    "  nqueens 8 10-12                 prints 92, 724, 2680 and 14200, one per line\n"
    "  seq 1 12 | nqueens              reads the sizes from standard input\n"
    "  nqueens --labels --unique 1-10  a table of totals and unique counts\n"
    "  nqueens --list --limit=3 8      the first three solutions of n = 8\n"
    "  nqueens --one 1000000 | nqueens --verify\n"
    "  nqueens --check 1-16            exits 1 if any count is wrong\n"
    "  nqueens --estimate 20           how long 'nqueens 20' would take here\n"
    "\n"
    "To spread one count over the machines of a cluster, see nqueens-mpi(1).\n"
    "Report bugs to: " NQ_HOMEPAGE_URL "/issues\n"
    "nqueens home page: <" NQ_HOMEPAGE_URL ">\n";

void cli_print_usage(FILE *f) { fputs(synopsis, f); }

/* "  -j, --threads=N" padded to HELP_COLUMN, then the help lines. */
static void print_option(FILE *f, const cli_option *opt)
{
    const char *values[16], *h = opt->help;
    size_t nvalues = cli_option_values(values, 16, opt->id);
    int col;

    if (opt->short_name)
        col = fprintf(f, "  -%c, --%s", opt->short_name, opt->name);
    else
        col = fprintf(f, "      --%s", opt->name);
    if (opt->arg)
        col += fprintf(f, "=%s", opt->arg);
    if (col >= HELP_COLUMN - 1) {
        fputc('\n', f);
        col = 0;
    }
    for (;;) {
        size_t len = strcspn(h, "\n");
        fprintf(f, "%*s%.*s\n", HELP_COLUMN - col, "", (int)len, h);
        col = 0;
        if (h[len] == '\0')
            break;
        h += len + 1;
    }
    if (nvalues) {
        fprintf(f, "%*s%s: ", HELP_COLUMN, "", opt->arg);
        for (size_t i = 0; i < nvalues; i++)
            fprintf(f, "%s%s", i ? ", " : "", values[i]);
        fputc('\n', f);
    }
}

void cli_print_help(FILE *f)
{
    fputs(synopsis, f);
    fputs(description, f);
    for (int i = 0; i < CLI_OPT_COUNT_OF_OPTIONS; i++) {
        if (cli_options[i].section)
            fprintf(f, "\n%s:\n", cli_options[i].section);
        print_option(f, &cli_options[i]);
    }
    fputs(epilogue, f);
}

void cli_print_version(FILE *f)
{
    fprintf(f, "nqueens %s\n"
               "Copyright (c) 2026 The nqueens authors.\n"
               "License MIT: <https://opensource.org/licenses/MIT>.\n"
               "This is free software: you are free to change and redistribute it.\n"
               "There is NO WARRANTY, to the extent permitted by law.\n",
            nq_version_string());
}
