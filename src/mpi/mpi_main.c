/*
 * nqueens-mpi: one count spread over the ranks of an MPI job.
 *
 * Rank 0 coordinates and counts nothing itself (coordinator.c); the other
 * ranks count the batches of consecutive work units it hands out, each
 * with all its threads (worker.c). Fast and slow nodes therefore both stay
 * busy to the end. Rank 0 records every unit's result in memory, and in
 * the checkpoint file when --checkpoint is given, so a job that is
 * stopped or killed resumes where it stopped. It prints the total only
 * when every unit of the list has a result.
 *
 * This file reads the command line. Every rank parses it (each needs the
 * options), but only rank 0 speaks: usage errors, --help and --version are
 * printed once. Only the public API of the library is used.
 */
#include <mpi.h>

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi_internal.h"
#include "nqc_checkpoint.h"
#include "nqc_gpu.h"
#include "nqc_signal.h"
#include "nqc_size.h"
#include "nqc_u64.h"

#define PROGRAM NQ_MPI_PROGRAM
#ifndef NQ_HOMEPAGE_URL
#define NQ_HOMEPAGE_URL "https://github.com/nqueens/nqueens"
#endif

/* The options; --help and man/nqueens-mpi.1 list the same ones (a test
 * compares them). The testing aids at the end are in neither. */
static const char usage_text[] =
    "Usage: mpirun -np P " PROGRAM " [OPTION]... N\n"
    "Count the solutions of the N-queens problem (N = 0.." NQ_STRINGIFY(NQ_MAX_N)
    ") over the ranks\nof an MPI job: rank 0 hands out batches of work units, "
    "ranks 1..P-1 count them.\n"
    "\n"
    "  -j, --threads=T            threads per worker rank (default: its usable CPUs)\n"
    "      --jobs=T               the same as -j, --threads\n"
    "  -m, --method=M             %s (default: the fastest,\n"
    "                             join for totals from n = 16, symmetry below\n"
    "                             and for unique counts, chosen by rank 0)\n"
    "  -u, --unique               print the unique count instead of the total\n"
    "      --json                 print a JSON object with both counts\n"
    "      --checkpoint=FILE      record finished units on rank 0; run the same\n"
    "                             job again to resume\n"
    "      --checkpoint-interval=SEC  seconds between saves (default 10)\n"
    "      --batch=B              units per batch (default: automatic)\n"
    "      --worker-timeout=SEC   end the job when a worker is silent this long\n"
    "                             (default 60)\n"
    "      --max-memory=SIZE      the most memory a worker's count may take (512M,\n"
    "                             8G; default: half of its node's memory)\n"
    "      --device=DEV           cpu (default), or gpu: each worker counts on one\n"
    "                             GPU of its node (its rank there, modulo the GPUs\n"
    "                             it sees), with the symmetry method, or the\n"
    "                             join with --method=join\n"
    "  -h, --help                 show this help and exit\n"
    "  -V, --version              show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 failure, 2 usage error, 128 + the signal's number\n"
    "when SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGXCPU stopped the job (130, 143, 129,\n"
    "131, 152): the finished units are saved with --checkpoint.\n"
    "A signal sent to mpirun itself ends the job with mpirun's own status (1 with\n"
    "Open MPI 4.1): the 'interrupted' message on stderr tells it from a failure.\n"
    "\n"
    "To count on one machine, see nqueens(1).\n"
    "Report bugs to: " NQ_HOMEPAGE_URL "/issues\n"
    "nqueens home page: <" NQ_HOMEPAGE_URL ">\n";

static const char version_text[] =
    PROGRAM " " NQ_VERSION_STRING "\n"
    "Copyright (c) 2026 The nqueens authors.\n"
    "License MIT: <https://opensource.org/licenses/MIT>.\n"
    "This is free software: you are free to change and redistribute it.\n"
    "There is NO WARRANTY, to the extent permitted by law.\n";

enum {
    OPT_JSON = 256, OPT_CHECKPOINT, OPT_INTERVAL, OPT_BATCH, OPT_TIMEOUT,
    OPT_MAX_MEMORY, OPT_DEVICE, OPT_CRASH, OPT_HANG
};

static const struct option long_options[] = {
    {"threads", required_argument, NULL, 'j'},
    {"jobs", required_argument, NULL, 'j'},
    {"method", required_argument, NULL, 'm'},
    {"unique", no_argument, NULL, 'u'},
    {"json", no_argument, NULL, OPT_JSON},
    {"checkpoint", required_argument, NULL, OPT_CHECKPOINT},
    {"checkpoint-interval", required_argument, NULL, OPT_INTERVAL},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"worker-timeout", required_argument, NULL, OPT_TIMEOUT},
    {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    /* testing aids, in neither --help nor the manual */
    {"test-crash-rank", required_argument, NULL, OPT_CRASH},
    {"test-hang-rank", required_argument, NULL, OPT_HANG},
    {NULL, 0, NULL, 0},
};

/* The methods of the library, "plain, symmetry or join": from its own
 * names, so that a new method appears here without an edit. */
static void method_list(char *buf, size_t size)
{
    const char *name;
    size_t len = 0;
    int count = 0;

    while (nq_method_name((nq_method)(count + 1)) != NULL)
        count++;
    buf[0] = '\0';
    for (int m = 1; m <= count && len < size; m++) {
        name = nq_method_name((nq_method)m);
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                m == 1 ? "" : (m == count ? " or " : ", "), name);
    }
}

/* A number lo..hi, or a message naming the option. */
static int number(uint64_t *out, const char *s, uint64_t lo, uint64_t hi,
                  const char *what)
{
    if (nqc_parse_u64(out, s, strlen(s)) != 0 || *out < lo || *out > hi) {
        nq_mpi_error("%s: '%s' is not a number from %llu to %llu", what, s,
                     (unsigned long long)lo, (unsigned long long)hi);
        return -1;
    }
    return 0;
}

static int set_option(mpi_opts *o, int c, const char *arg)
{
    uint64_t v;
    switch (c) {
    case 'j':
        if (number(&v, arg, 1, 1024, "--threads") != 0)
            return -1;
        o->threads = (unsigned)v;
        return 0;
    case 'm': {
        const char *name;
        char list[128];
        for (int m = 1; (name = nq_method_name((nq_method)m)) != NULL; m++)
            if (strcmp(arg, name) == 0) {
                o->method = (nq_method)m;
                return 0;
            }
        method_list(list, sizeof list);
        nq_mpi_error("--method: unknown method '%s' (expected %s)", arg, list);
        return -1;
    }
    case 'u': o->unique = 1; return 0;
    case OPT_JSON: o->json = 1; return 0;
    case OPT_CHECKPOINT:
        if (!*arg) {
            nq_mpi_error("--checkpoint needs a file name");
            return -1;
        }
        o->checkpoint = arg;
        return 0;
    case OPT_INTERVAL:
        if (number(&v, arg, 0, 86400, "--checkpoint-interval") != 0)
            return -1;
        o->checkpoint_interval = (double)v;
        return 0;
    case OPT_BATCH:
        if (number(&v, arg, 1, UINT64_MAX, "--batch") != 0)
            return -1;
        o->batch = v;
        return 0;
    case OPT_TIMEOUT:
        if (number(&v, arg, 1, 86400 * 7, "--worker-timeout") != 0)
            return -1;
        o->worker_timeout = (double)v;
        return 0;
    case OPT_MAX_MEMORY: {
        int rc = nqc_parse_size(&o->max_memory, arg);
        if (rc == -3)
            nq_mpi_error("--max-memory: the size must be at least 1 byte (leave the "
                         "option out for half of each node's memory)");
        else if (rc == -2)
            nq_mpi_error("--max-memory: '%s' is more than 16 EiB", arg);
        else if (rc != 0)
            nq_mpi_error("--max-memory: '%s' is not a size in bytes (e.g. 4096B, 512M, 8G)",
                         arg);
        return rc == 0 ? 0 : -1;
    }
    case OPT_DEVICE:
        if (strcmp(arg, "cpu") == 0 || strcmp(arg, "gpu") == 0) {
            o->device = arg[0] == 'g' ? NQ_DEVICE_GPU : NQ_DEVICE_CPU;
            return 0;
        }
        nq_mpi_error("--device: unknown device '%s' (expected cpu or gpu)", arg);
        return -1;
    case OPT_CRASH:
    case OPT_HANG:
        if (number(&v, arg, 1, 1000000, c == OPT_CRASH ? "--test-crash-rank"
                                                       : "--test-hang-rank") != 0)
            return -1;
        *(c == OPT_CRASH ? &o->crash_rank : &o->hang_rank) = (int)v;
        return 0;
    default:
        return -1;
    }
}

/* 0 to run, 1 for --help, 2 for --version, -1 after a usage error. */
static int parse_args(mpi_opts *o, int argc, char **argv)
{
    uint64_t v;
    int c, what = 0;

    optind = 1;
    opterr = nq_mpi_speaker(); /* getopt's own diagnostics: rank 0 only */
    argv[0] = (char *)PROGRAM;
    while ((c = getopt_long(argc, argv, "j:m:uhV", long_options, NULL)) != -1) {
        if (c == 'h' || c == 'V') {
            what = what ? what : (c == 'h' ? 1 : 2);
            continue;
        }
        if (c == '?' || c == ':' || set_option(o, c, optarg) != 0)
            return -1;
    }
    if (what)
        return what;
    if (optind == argc) {
        nq_mpi_error("no board size given");
        return -1;
    }
    if (argc - optind > 1) {
        nq_mpi_error("one board size only, not %d", argc - optind);
        return -1;
    }
    if (nqc_parse_u64(&v, argv[optind], strlen(argv[optind])) != 0 || v > NQ_MAX_N) {
        nq_mpi_error("'%s' is not a board size (0..%d)", argv[optind], NQ_MAX_N);
        return -1;
    }
    o->n = (unsigned)v;
    /* unique counts come from the symmetry method, named so that the
     * checkpoint names it too */
    if (o->unique && o->method == NQ_METHOD_DEFAULT)
        o->method = NQ_METHOD_SYMMETRY;
    if (o->unique && o->method != NQ_METHOD_SYMMETRY) {
        nq_mpi_error("--unique needs the symmetry method (the %s method counts totals only)",
                     nq_method_name(o->method));
        return -1;
    }
    if (o->device == NQ_DEVICE_GPU && !nqc_gpu_runs(o->method)) {
        nq_mpi_error("--device=gpu counts with " NQC_GPU_METHODS ", not --method=%s",
                     nq_method_name(o->method));
        return -1;
    }
    return 0;
}

/* A worker's GPU: its rank among the ranks of its node, modulo the GPUs
 * it sees (so that the workers of a node share its GPUs out); 0 where it
 * sees none (its count then says why). */
static unsigned node_gpu(void)
{
    MPI_Comm node;
    int local = 0;
    unsigned count = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_free(&node);
    }
    if (nq_gpu_count(&count) != NQ_OK || count == 0)
        return 0;
    return (unsigned)local % count;
}

/* Rank 0 learns each rank's process id where it shares rank 0's node and
 * process-id namespace (0 elsewhere), to tell later whether a rank that
 * fell silent is gone: a rank that dies makes mpirun stop the others with
 * SIGTERM, which rank 0 must not take for a user's signal. (Ranks of one
 * node in containers of their own may see other process ids: the
 * namespace, /proc/self/ns/pid's inode where Linux shows it, tells.)
 * Collective. @return the array (rank 0 only), or NULL. */
static long long *node_pids(int rank, int ranks)
{
    MPI_Comm node;
    struct stat ns;
    long long mine[3] = {(long long)getpid(), 0, 0}, *all = NULL, *pids = NULL;
    int first = rank, ok;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS) {
        MPI_Allreduce(&rank, &first, 1, MPI_INT, MPI_MIN, node);
        MPI_Comm_free(&node);
    } else {
        first = -1; /* not known: no rank counts as rank 0's neighbour */
    }
    mine[1] = first;
    mine[2] = stat("/proc/self/ns/pid", &ns) == 0 ? (long long)ns.st_ino : 0;
    if (rank == 0)
        all = malloc(sizeof *all * 3 * (size_t)ranks);
    ok = rank != 0 || all != NULL; /* every rank gathers, or none */
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok)
        return NULL;
    MPI_Gather(mine, 3, MPI_LONG_LONG, all, 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0 && (pids = calloc((size_t)ranks, sizeof *pids)) != NULL)
        for (int r = 0; r < ranks; r++)
            pids[r] = all[3 * r + 1] == 0 && all[3 * r + 2] == mine[2] ? all[3 * r] : 0;
    free(all);
    return pids;
}

int main(int argc, char **argv)
{
    mpi_opts o;
    int rank, ranks, provided, rc;

    memset(&o, 0, sizeof o);
    o.file.version = NQ_CHECKPOINT_INFO_VERSION;
    o.method = NQ_METHOD_DEFAULT;
    o.checkpoint_interval = 10.0;
    o.worker_timeout = 60.0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    nq_mpi_set_speaker(rank == 0);
    /* every rank: mpirun forwards SIGINT and SIGTERM to all of them, and a
     * batch system may signal each */
    nq_mpi_catch_signals();
    /* a checkpoint save past the file-size limit fails with EFBIG, and is
     * reported as a full disk is */
    nqc_ignore_file_size_limit();

    rc = parse_args(&o, argc, argv);
    if (rc != 0) {
        int speaker = nq_mpi_speaker();
        if (speaker && rc == 1) {
            char list[128];
            method_list(list, sizeof list);
            printf(usage_text, list);
        }
        else if (speaker && rc == 2)
            fputs(version_text, stdout);
        else if (speaker)
            fputs("Try '" PROGRAM " --help' for more information.\n", stderr);
        fflush(stdout);
        MPI_Finalize();
        return rc > 0 ? 0 : 2;
    }
    if (ranks < 2) {
        nq_mpi_error("needs at least 2 ranks: rank 0 coordinates, the others count");
        MPI_Finalize();
        return 2;
    }
    if (o.method == NQ_METHOD_DEFAULT) {
        /* as nqueens does: a default run resumes a file with the method
         * that made it, else counts with the default; rank 0 chooses, and
         * tells every worker, so that all count the same unit list */
        int m = NQ_METHOD_DEFAULT;
        if (rank == 0) {
            o.has_file = o.checkpoint && nq_checkpoint_peek(&o.file, o.checkpoint) == NQ_OK;
            m = (int)nqc_checkpoint_method(o.method, o.n, o.has_file ? &o.file : NULL);
            if (m == NQ_METHOD_DEFAULT)
                m = o.device == NQ_DEVICE_GPU
                        ? (int)NQ_METHOD_SYMMETRY /* the method a GPU runs */
                        : (int)nq_method_default(o.n, o.unique, NQ_SIMD_AUTO);
        }
        MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);
        o.method = (nq_method)m;
    } else if (o.checkpoint && rank == 0) {
        o.has_file = nq_checkpoint_peek(&o.file, o.checkpoint) == NQ_OK;
    }
    if (o.device == NQ_DEVICE_GPU && !nqc_gpu_runs(o.method)) {
        /* a checkpoint of another method */
        nq_mpi_error("--device=gpu counts with " NQC_GPU_METHODS "; %s holds units of "
                     "the %s method (resume it without --device=gpu)",
                     o.checkpoint ? o.checkpoint : "the checkpoint", nq_method_name(o.method));
        MPI_Finalize();
        return 2;
    }
    if (o.device == NQ_DEVICE_GPU)
        o.gpu = node_gpu(); /* collective: every rank takes part */
    {
        long long *pids = node_pids(rank, ranks); /* collective */
        o.node_pids = pids;
        rc = rank == 0 ? nq_mpi_coordinator(&o, ranks) : nq_mpi_worker(&o, rank);
        free(pids);
    }
    MPI_Finalize();
    return rc;
}
