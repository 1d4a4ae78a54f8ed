/*
 * What the files of the command share: parsed options, messages, numbers.
 */
#ifndef NQ_CLI_INTERNAL_H
#define NQ_CLI_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nqueens.h"

typedef enum nq_format {
    NQ_FORMAT_BARE,   /* the count alone */
    NQ_FORMAT_LABELS, /* tab-separated, with a header line */
    NQ_FORMAT_JSON    /* one JSON object per line */
} nq_format;

/* What the command does; counting unless a mode option says otherwise. */
typedef enum nq_mode {
    NQ_MODE_COUNT,
    NQ_MODE_LIST,   /* --list */
    NQ_MODE_ONE,    /* --one */
    NQ_MODE_RANDOM, /* --random */
    NQ_MODE_VERIFY, /* --verify */
    NQ_MODE_CHECK,  /* --check */
    NQ_MODE_MERGE   /* --merge */
} nq_mode;

typedef struct nq_cli_opts {
    int help;
    int version;
    nq_mode mode;
    const char *mode_name;   /* the option that set the mode, for messages */
    int unique;
    nq_format format;
    unsigned threads;
    nq_method method;
    nq_simd simd;
    /* solutions */
    int board;               /* --board: draw boards */
    int compact;             /* --compact: one digit per row */
    int canonical;           /* --canonical */
    uint64_t limit;          /* --limit; 0 = none */
    int has_seed;
    uint64_t seed;           /* --seed */
    uint64_t max_steps;      /* --max-steps; 0 = the library's default */
    /* long runs */
    int progress;            /* -1 auto, 0 off (--no-progress), 1 on (--progress) */
    const char *checkpoint;  /* --checkpoint FILE */
    double checkpoint_interval;
    uint32_t part_k, part_m; /* --part K/M */
    const char **operands;
    size_t noperands;
} nq_cli_opts;

/* A growing list of board sizes. */
typedef struct nq_sizes {
    unsigned *n;
    size_t len;
    size_t cap;
} nq_sizes;

/* Prints "nqueens: <message>" and a newline on err. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void nq_cli_error(FILE *err, const char *fmt, ...);

/* Makes user text safe to quote in a one-line message. */
const char *nq_cli_quote(char *buf, size_t size, const char *s, size_t len);

/* Flushes out; NQ_EXIT_OK, or NQ_EXIT_FAILURE after reporting the error
 * (a closed pipe is not reported). */
int nq_cli_flush(FILE *out, FILE *err);

/* Decimal digits only: 0, -1 (not a number) or -2 (overflow). */
int nq_cli_parse_u64(uint64_t *out, const char *s, size_t len);

/* Appends a size "N" or range "A-B" to v; reports errors prefixed by where. */
int nq_cli_parse_sizes(nq_sizes *v, const char *s, size_t len, FILE *err,
                       const char *where);

/* Reads all of in: 0, -1 (out of memory) or -2 (read error). */
int nq_cli_read_all(char **out, size_t *len, FILE *in);

/* Count options from the command's: threads, method, SIMD level. */
nq_count_options nq_cli_count_options(const nq_cli_opts *o);

/* The modes other than counting (solutions.c, longrun.c). */
int nq_cli_list(const nq_cli_opts *o, const nq_sizes *sizes, FILE *out, FILE *err);
int nq_cli_construct(const nq_cli_opts *o, FILE *out, FILE *err);
int nq_cli_verify(const nq_cli_opts *o, FILE *in, FILE *out, FILE *err);
int nq_cli_check(const nq_cli_opts *o, const nq_sizes *sizes, FILE *out, FILE *err);
int nq_cli_merge(const nq_cli_opts *o, FILE *in, FILE *out, FILE *err);

/* Signals (longrun.c): catching SIGINT and SIGTERM returns the cancel flag
 * to hand to the library; nq_cli_caught_signal() says which one came. */
const volatile int *nq_cli_catch_signals(void);
void nq_cli_release_signals(void);
int nq_cli_caught_signal(void);

/* The progress line (longrun.c): an nq_progress_fn and its state. */
typedef struct nq_cli_progress_state {
    FILE *err;
    unsigned n;
    int tty;          /* err is a terminal: redraw one line */
    int forced;       /* --progress: draw from the start */
    int drawn;        /* something is on the line */
    double last_line; /* elapsed time of the last plain line */
} nq_cli_progress_state;

void nq_cli_progress(const nq_progress *p, void *data);
void nq_cli_progress_end(nq_cli_progress_state *st);

#endif
