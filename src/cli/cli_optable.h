/*
 * The one table of the command's options. It drives the parser (args.c),
 * --help (help.c), and the man page and shell completions (gendoc.c), so
 * that they cannot drift apart; it also says which mode each option
 * belongs to, and the parser refuses an option that the chosen mode would
 * ignore.
 */
#ifndef CLI_OPTABLE_H
#define CLI_OPTABLE_H

#include <stddef.h>

#include "cli_opts.h"

typedef enum cli_opt_id {
    CLI_OPT_UNIQUE, CLI_OPT_LABELS, CLI_OPT_JSON, CLI_OPT_FORMAT,
    CLI_OPT_THREADS, CLI_OPT_JOBS, CLI_OPT_METHOD, CLI_OPT_SIMD, CLI_OPT_DEVICE,
    CLI_OPT_MAX_MEMORY,
    CLI_OPT_ESTIMATE, CLI_OPT_MAX_TIME, CLI_OPT_NO_NOTICE,
    CLI_OPT_PROGRESS, CLI_OPT_NO_PROGRESS, CLI_OPT_CHECKPOINT,
    CLI_OPT_CHECKPOINT_INTERVAL, CLI_OPT_PART, CLI_OPT_MERGE,
    CLI_OPT_RECHECK, CLI_OPT_SAMPLE, CLI_OPT_PICK, CLI_OPT_BY,
    CLI_OPT_LIST, CLI_OPT_BOARD, CLI_OPT_COMPACT, CLI_OPT_CANONICAL,
    CLI_OPT_LIMIT, CLI_OPT_ONE, CLI_OPT_RANDOM, CLI_OPT_SEED,
    CLI_OPT_MAX_STEPS, CLI_OPT_VERIFY, CLI_OPT_CHECK, CLI_OPT_DEVICES,
    CLI_OPT_QUIET, CLI_OPT_HELP, CLI_OPT_VERSION,
    CLI_OPT_COUNT_OF_OPTIONS
} cli_opt_id;

/* The set of modes an option may be used with. */
#define CLI_IN(mode) (1u << (mode))
#define CLI_IN_ALL ((1u << CLI_MODE_COUNT_OF_MODES) - 1u)

typedef struct cli_option {
    cli_opt_id id;
    const char *name;      /* long name, without "--" */
    char short_name;       /* 0: none */
    const char *arg;       /* name of its value ("N", "FILE"); NULL: none */
    int mode;              /* the mode it selects, or -1 */
    unsigned modes;        /* CLI_IN() of the modes it may be used with */
    const char *section;   /* set on the first option of a --help section */
    const char *help;      /* help text: lines separated by '\n' */
} cli_option;

/* Every option, indexed by its cli_opt_id. */
extern const cli_option cli_options[CLI_OPT_COUNT_OF_OPTIONS];

/* The fixed values an option takes (--format, --method, --simd, --device,
 * --by), in order;
 * the methods and SIMD levels come from the library, so a new one appears
 * here without an edit. @return how many were stored (at most max), 0 for
 * an option with free values. */
size_t cli_option_values(const char **out, size_t max, cli_opt_id id);

/* The option that selects mode m (NULL for CLI_MODE_COUNT). */
const cli_option *cli_mode_option(cli_mode m);

#endif
