/*
 * The nqueens command: parse, then hand over to the mode's file.
 *
 *   cli.c        entry point and dispatch (this file)
 *   args.c       getopt_long() over the option table, conflicts
 *   optable.c    the one table of options (also drives help and gendoc)
 *   help.c       --help and --version
 *   sizes.c      board-size operands, from argv or stdin
 *   count.c      counting and --check
 *   estimate.c   --estimate, and the notice before a long count
 *   solutions.c  --list, --one, --random, --verify
 *   merge.c      --merge of part results
 *   recheck.c    --recheck of a checkpoint's finished units
 *   progress.c   the progress line;  signals.c  the signal flags
 *   output.c     messages, quoting, flushing: the bottom, calls nothing
 *   exit.h       the exit statuses (CLI_EXIT_*) every file returns; no .c,
 *                so that no file below leans on this one
 *
 * Every operand is checked before anything is computed, so a bad operand
 * never leaves half a result on stdout. Errors are one line on stderr that
 * starts with "nqueens: ".
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_count.h"
#include "cli_devices.h"
#include "cli_estimate.h"
#include "cli_help.h"
#include "cli_merge.h"
#include "cli_recheck.h"
#include "cli_output.h"
#include "cli_signals.h"
#include "cli_sizes.h"
#include "cli_solutions.h"

/* The board sizes of the operands, '-' reading stdin in its place (once);
 * with no operand, all of stdin. 0, or -1 after reporting the error. */
static int collect_sizes(cli_sizes *sizes, const cli_opts *o, FILE *in, FILE *err)
{
    int stdin_read = 0;

    if (o->noperands == 0) {
        if (isatty(fileno(in))) {
            cli_print_usage(err);
            cli_usage_hint(err);
            return -1;
        }
        return cli_read_sizes(sizes, in, err);
    }
    for (size_t i = 0; i < o->noperands; i++) {
        const char *s = o->operands[i];
        if (strcmp(s, "-") == 0) {
            if (!stdin_read && cli_read_sizes(sizes, in, err) != 0)
                return -1;
            stdin_read = 1;
        } else if (cli_parse_sizes(sizes, s, strlen(s), err, "") != 0) {
            cli_usage_hint(err);
            return -1;
        }
    }
    return 0;
}

/* The modes that take board sizes. */
static int run_on_sizes(const cli_opts *o, FILE *in, FILE *out, FILE *err)
{
    cli_sizes sizes = {NULL, 0, 0};
    int status = CLI_EXIT_USAGE;

    if (collect_sizes(&sizes, o, in, err) != 0)
        goto done;
    if (!nq_simd_supported(o->simd)) {
        cli_usage_error(err, "this CPU does not support --simd=%s", nq_simd_name(o->simd));
        goto done;
    }
    if (cli_check_device(o, err) != 0)
        goto done;
    /* an empty input (`seq 1 0 | nqueens`) asks for nothing: as any
     * filter, print nothing and succeed */
    if (sizes.len == 0) {
        status = CLI_EXIT_OK;
        goto done;
    }
    switch (o->mode) {
    case CLI_MODE_LIST: status = cli_list(o, &sizes, out, err); break;
    case CLI_MODE_CHECK: status = cli_check(o, &sizes, out, err); break;
    case CLI_MODE_ESTIMATE: status = cli_estimate(o, &sizes, out, err); break;
    default: status = cli_count(o, &sizes, out, err); break;
    }
done:
    free(sizes.n);
    return status;
}

int nq_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    cli_opts o;

    /* a file-size limit fails a write with EFBIG (reported, cleaned up)
     * rather than killing the process in the middle of it */
    cli_ignore_file_size_limit();
    if (cli_parse_args(&o, argc, argv, err) != 0)
        return CLI_EXIT_USAGE;
    if (o.help) {
        cli_print_help(out);
        return cli_flush(out, err);
    }
    if (o.version) {
        cli_print_version(out);
        cli_print_gpu_support(out);
        return cli_flush(out, err);
    }
    switch (o.mode) {
    case CLI_MODE_ONE:
    case CLI_MODE_RANDOM: return cli_construct(&o, out, err);
    case CLI_MODE_VERIFY: return cli_verify(&o, in, out, err);
    case CLI_MODE_MERGE: return cli_merge(&o, in, out, err);
    case CLI_MODE_RECHECK: return cli_recheck(&o, out, err);
    case CLI_MODE_DEVICES: return cli_devices(&o, out, err);
    default: return run_on_sizes(&o, in, out, err);
    }
}
