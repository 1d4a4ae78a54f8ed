/*
 * What the command line asks for, once parsed (args.c): the mode, the
 * format and every option's value; and the library's count options that
 * follow from them.
 */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "nqueens.h"

typedef enum cli_format {
    CLI_FORMAT_BARE,   /* the count alone */
    CLI_FORMAT_LABELS, /* tab-separated, with a header line */
    CLI_FORMAT_JSON    /* one JSON object per line */
} cli_format;

/* What the command does; counting unless a mode option says otherwise. */
typedef enum cli_mode {
    CLI_MODE_COUNT,
    CLI_MODE_LIST,     /* --list */
    CLI_MODE_ONE,      /* --one */
    CLI_MODE_RANDOM,   /* --random */
    CLI_MODE_VERIFY,   /* --verify */
    CLI_MODE_CHECK,    /* --check */
    CLI_MODE_MERGE,    /* --merge */
    CLI_MODE_ESTIMATE, /* --estimate */
    CLI_MODE_RECHECK,  /* --recheck */
    CLI_MODE_DEVICES,  /* --devices */
    CLI_MODE_COUNT_OF_MODES
} cli_mode;

/* The longest count started without --max-time: ten years, about the
 * service life of the machine that would run it. A count estimated to take
 * longer (n = 28 on a workstation) cannot finish there; it is far more
 * likely a slip of the finger than a plan. */
#define CLI_DEFAULT_MAX_TIME (10 * 31557600.0)

typedef struct cli_opts {
    int help;
    int version;
    cli_mode mode;
    const char *mode_name;   /* the option that set the mode, for messages */
    int unique;
    cli_format format;
    unsigned threads;        /* 0 = all online CPUs */
    nq_method method;
    nq_simd simd;
    int simd_given;          /* --simd was given (--recheck's default differs) */
    nq_device device;        /* --device */
    uint64_t max_memory;     /* --max-memory in bytes; 0 = the library's default */
    double max_time;         /* --max-time in seconds; 0 = none */
    int no_notice;           /* --no-notice */
    /* solutions */
    int board;               /* --board: draw boards */
    int compact;             /* --compact: one digit per row */
    int canonical;           /* --canonical */
    int has_limit;
    uint64_t limit;          /* --limit */
    int has_seed;
    uint64_t seed;           /* --seed */
    uint64_t max_steps;      /* --max-steps; 0 = the library's default */
    /* long runs */
    int progress;            /* -1 auto, 0 off (--no-progress), 1 on (--progress) */
    const char *checkpoint;  /* --checkpoint FILE */
    double checkpoint_interval;
    uint32_t part_k, part_m; /* --part K/M */
    double estimate_budget;  /* --estimate: seconds of sampling per size */
    /* re-checks */
    uint64_t sample;         /* --sample K; 0 = every finished unit */
    nq_recheck_path recheck_by; /* --by */
    const char *units;       /* --pick LIST, unparsed */
    char **operands;
    size_t noperands;
} cli_opts;

/* Count options from the command's: threads, method, SIMD level, device. */
static inline nq_count_options cli_count_options(const cli_opts *o)
{
    nq_count_options co = NQ_COUNT_OPTIONS_INIT;
    co.threads = o->threads;
    co.method = o->method;
    co.unique = o->unique;
    /* the method is named, so that a checkpoint or part names it too:
     * unique counts come from the symmetry method */
    if (o->unique && o->method == NQ_METHOD_DEFAULT)
        co.method = NQ_METHOD_SYMMETRY;
    co.simd = o->simd;
    co.device = o->device;
    co.max_memory = o->max_memory;
    return co;
}

#endif
