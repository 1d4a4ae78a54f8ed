/*
 * The options of nqueens, their help text and the modes they belong to.
 * Help lines are at most 54 columns, so that --help stays within 80.
 */
#include "cli_optable.h"

#include "nqueens.h"

#define IN_COUNTING (CLI_IN(CLI_MODE_COUNT) | CLI_IN(CLI_MODE_CHECK) | \
                     CLI_IN(CLI_MODE_ESTIMATE))
#define IN_FORMATS (IN_COUNTING | CLI_IN(CLI_MODE_MERGE) | CLI_IN(CLI_MODE_RECHECK))
#define IN_DRAWING (CLI_IN(CLI_MODE_LIST) | CLI_IN(CLI_MODE_ONE) | \
                    CLI_IN(CLI_MODE_RANDOM))
#define ONLY(mode) CLI_IN(CLI_MODE_##mode)
/* the modes that print or read placements: bare lines, or JSON */
#define IN_PLACEMENTS (IN_DRAWING | ONLY(VERIFY))

const cli_option cli_options[CLI_OPT_COUNT_OF_OPTIONS] = {
    {CLI_OPT_UNIQUE, "unique", 'u', NULL, -1,
     ONLY(COUNT) | ONLY(MERGE) | ONLY(ESTIMATE),
     "Counting", "count solutions unique up to rotation and\n"
                 "reflection (bare format: printed instead of the\n"
                 "total; labels and JSON: an extra field)"},
    {CLI_OPT_LABELS, "labels", 'l', NULL, -1, IN_FORMATS, NULL,
     "print 'n<TAB>total' lines under a header line"},
    {CLI_OPT_JSON, "json", 0, NULL, -1, IN_FORMATS | IN_PLACEMENTS, NULL,
     "print one JSON object per line (JSON Lines): per\n"
     "size, solution or placement found wrong, and a\n"
     "summary (docs/json.md lists the fields)"},
    {CLI_OPT_FORMAT, "format", 'f', "FMT", -1, IN_FORMATS | IN_PLACEMENTS, NULL,
     "output format (default: bare, the count alone);\n"
     "of --labels, --json and --format the last wins"},
    {CLI_OPT_THREADS, "threads", 'j', "N", -1, IN_COUNTING, NULL,
     "worker threads (default, and 0: the CPUs this\n"
     "process may use: its affinity mask, as set by\n"
     "taskset or Slurm, within any cgroup CPU quota)"},
    {CLI_OPT_JOBS, "jobs", 0, "N", -1, IN_COUNTING, NULL,
     "the same as -j, --threads"},
    {CLI_OPT_METHOD, "method", 'm', "M", -1, IN_COUNTING, NULL,
     "counting method (default: the fastest for the job\n"
     "at the SIMD level of the count: join for totals\n"
     "from n = 16, else symmetry)"},
    {CLI_OPT_SIMD, "simd", 0, "LEVEL", -1, IN_COUNTING | ONLY(RECHECK), NULL,
     "SIMD kernels (default: auto, the widest this CPU\n"
     "supports; with --recheck: none)"},
    {CLI_OPT_DEVICE, "device", 0, "DEV", -1, IN_COUNTING, NULL,
     "where to count: cpu (default), gpu (on the first\n"
     "GPU that CUDA_VISIBLE_DEVICES leaves, the symmetry\n"
     "method's units, or the join's with --method=join;\n"
     "an error if this build or machine has none), or\n"
     "auto (the GPU for boards from 18 on when one is\n"
     "there; see --devices)"},
    {CLI_OPT_MAX_MEMORY, "max-memory", 0, "SIZE", -1, IN_COUNTING | ONLY(RECHECK), NULL,
     "use at most SIZE bytes, at least 1 (suffix B, or\n"
     "K, M, G, T: powers of 1024, with an optional B or\n"
     "iB; default: half the memory here); a count that\n"
     "cannot fit is refused before it starts"},
    {CLI_OPT_ESTIMATE, "estimate", 0, NULL, CLI_MODE_ESTIMATE, ONLY(ESTIMATE), NULL,
     "print how long counting each N would take here, in\n"
     "words, worked out in a few seconds: a sample of the\n"
     "count timed (large counts: their work sampled and\n"
     "priced by a smaller board); --labels and --json give\n"
     "the seconds, the interval (low, high) and core-hours"},
    {CLI_OPT_MAX_TIME, "max-time", 0, "TIME", -1, ONLY(COUNT) | ONLY(CHECK), NULL,
     "refuse a count estimated to take longer than TIME\n"
     "(suffix s, m, h, d or y; default 10y; 'none': no\n"
     "limit)"},
    {CLI_OPT_NO_NOTICE, "no-notice", 0, NULL, -1, ONLY(COUNT) | ONLY(CHECK), NULL,
     "no notice before a long count (otherwise one line\n"
     "on stderr: over a minute on a terminal, else a day)"},
    {CLI_OPT_PROGRESS, "progress", 0, NULL, -1, ONLY(COUNT),
     "Long runs", "show progress on stderr (default: on a terminal,\n"
                  "for runs longer than a second)"},
    {CLI_OPT_NO_PROGRESS, "no-progress", 0, NULL, -1, ONLY(COUNT), NULL,
     "never show progress"},
    {CLI_OPT_CHECKPOINT, "checkpoint", 0, "FILE", -1, ONLY(COUNT), NULL,
     "record finished work in FILE; run the same command\n"
     "again to resume after a stop or a crash"},
    {CLI_OPT_CHECKPOINT_INTERVAL, "checkpoint-interval", 0, "SEC", -1, ONLY(COUNT), NULL,
     "seconds between saves of --checkpoint (default 10)"},
    {CLI_OPT_PART, "part", 0, "K/M", -1, ONLY(COUNT), NULL,
     "count only part K of M (for many machines); use\n"
     "with --json and add the parts up with --merge"},
    {CLI_OPT_MERGE, "merge", 0, NULL, CLI_MODE_MERGE, ONLY(MERGE), NULL,
     "add up part results (JSON lines) from the files\n"
     "given, or from standard input"},
    {CLI_OPT_RECHECK, "recheck", 0, NULL, CLI_MODE_RECHECK, ONLY(RECHECK), NULL,
     "count finished units of the checkpoint FILE again\n"
     "by another way and compare each with its record;\n"
     "one line per unit, then the verdict; exit status 1\n"
     "if any differs (FILE is only read: a count may be\n"
     "running on it)"},
    {CLI_OPT_SAMPLE, "sample", 0, "K", -1, ONLY(RECHECK), NULL,
     "re-check K finished units drawn at random (default:\n"
     "every one; see --seed)"},
    {CLI_OPT_PICK, "pick", 0, "LIST", -1, ONLY(RECHECK), NULL,
     "re-check these units (comma-separated indices)"},
    {CLI_OPT_BY, "by", 0, "WAY", -1, ONLY(RECHECK), NULL,
     "how to count again: kernel (the method's units at\n"
     "--simd), walk (the join without its table: other\n"
     "code for the same units), independent (a slow\n"
     "whole-board walk of the unit's row splits; join\n"
     "only), auto (walk where the method has it)"},
    {CLI_OPT_LIST, "list", 0, NULL, CLI_MODE_LIST, ONLY(LIST),
     "Solutions", "print every solution of each N, one per line: the\n"
                  "1-based column of the queen in each row"},
    {CLI_OPT_BOARD, "board", 0, NULL, -1, IN_DRAWING, NULL,
     "draw boards ('Q' and '.') instead of lines"},
    {CLI_OPT_COMPACT, "compact", 0, NULL, -1, IN_DRAWING, NULL,
     "one digit per row, no spaces (N <= 9)"},
    {CLI_OPT_CANONICAL, "canonical", 0, NULL, -1, ONLY(LIST), NULL,
     "list one solution per rotation/reflection class"},
    {CLI_OPT_LIMIT, "limit", 0, "K", -1, ONLY(LIST), NULL,
     "list at most K solutions of each N"},
    {CLI_OPT_ONE, "one", 0, NULL, CLI_MODE_ONE, ONLY(ONE), NULL,
     "print one solution of N (any size, by formula)"},
    {CLI_OPT_RANDOM, "random", 0, NULL, CLI_MODE_RANDOM, ONLY(RANDOM), NULL,
     "print a random solution of N (local search)"},
    {CLI_OPT_SEED, "seed", 0, "S", -1, ONLY(RANDOM) | ONLY(RECHECK), NULL,
     "seed of --random and of --recheck's sample\n"
     "(default: from the clock; --recheck prints it)"},
    {CLI_OPT_MAX_STEPS, "max-steps", 0, "K", -1, ONLY(RANDOM), NULL,
     "step bound of --random"},
    {CLI_OPT_VERIFY, "verify", 0, NULL, CLI_MODE_VERIFY, ONLY(VERIFY), NULL,
     "check placements, one per line, from the files\n"
     "given or standard input ('-', or no FILE); an\n"
     "operand of digits is N: every line must have N\n"
     "queens (a file named so is given as ./NAME)"},
    {CLI_OPT_CHECK, "check", 0, NULL, CLI_MODE_CHECK, ONLY(CHECK), NULL,
     "count each N and compare with the known values\n"
     "(OEIS A000170 and A002562, n <= 27)"},
    {CLI_OPT_DEVICES, "devices", 0, NULL, CLI_MODE_DEVICES, ONLY(DEVICES), NULL,
     "list where this build can count: the CPU, and each\n"
     "GPU it sees (or why there is none)"},
    {CLI_OPT_QUIET, "quiet", 'q', NULL, -1, CLI_IN_ALL, "Other",
     "print results and errors only: no progress, no\n"
     "notice before a long count (warnings still show;\n"
     "of -q and --progress the last wins)"},
    {CLI_OPT_HELP, "help", 'h', NULL, -1, CLI_IN_ALL, NULL,
     "show this help and exit"},
    {CLI_OPT_VERSION, "version", 'V', NULL, -1, CLI_IN_ALL, NULL,
     "show the version and exit"},
};

size_t cli_option_values(const char **out, size_t max, cli_opt_id id)
{
    static const char *const formats[] = {"bare", "labels", "json"};
    size_t k = 0;
    const char *name;

    switch (id) {
    case CLI_OPT_FORMAT:
        for (; k < 3 && k < max; k++)
            out[k] = formats[k];
        break;
    case CLI_OPT_METHOD:
        /* every method the library names, NQ_METHOD_DEFAULT excepted */
        for (int m = 1; k < max && (name = nq_method_name((nq_method)m)) != NULL; m++)
            out[k++] = name;
        break;
    case CLI_OPT_SIMD:
        for (int s = 0; k < max && (name = nq_simd_name((nq_simd)s)) != NULL; s++)
            out[k++] = name;
        break;
    case CLI_OPT_DEVICE:
        for (int d = 0; k < max && (name = nq_device_name((nq_device)d)) != NULL; d++)
            out[k++] = name;
        break;
    case CLI_OPT_BY:
        for (int s = 0; k < max && (name = nq_recheck_path_name((nq_recheck_path)s)) != NULL;
             s++)
            out[k++] = name;
        break;
    default:
        break;
    }
    return k;
}

const cli_option *cli_mode_option(cli_mode m)
{
    for (size_t i = 0; i < CLI_OPT_COUNT_OF_OPTIONS; i++)
        if (cli_options[i].mode == (int)m)
            return &cli_options[i];
    return NULL;
}
