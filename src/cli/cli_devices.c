/*
 * --devices and the checks of --device (cli_devices.h).
 */
#include "cli_devices.h"

#include "cli_exit.h"
#include "cli_output.h"
#include "nqc_gpu.h"
#include "nqc_memory.h"

int cli_check_device(const cli_opts *o, FILE *err)
{
    unsigned count = 0;
    int rc;
    if (o->device != NQ_DEVICE_GPU)
        return 0;
    rc = nq_gpu_count(&count);
    if (rc != NQ_OK) {
        /* not a mistake in the command: one line, no hint to read --help */
        cli_error(err, "--device=gpu: %s", nqc_no_gpu_reason(rc));
        return -1;
    }
    if (!nqc_gpu_runs(o->method)) {
        cli_usage_error(err, "--device=gpu counts with " NQC_GPU_METHODS ", not --method=%s",
                        nq_method_name(o->method));
        return -1;
    }
    return 0;
}

/* "the GPU's memory (1.0 GiB)": GPU `index`'s, for a message. */
static void gpu_memory(char *buf, size_t size, unsigned index)
{
    nq_gpu_info g = NQ_GPU_INFO_INIT;
    char bytes[32];
    if (nq_gpu_info_get(&g, index) != NQ_OK) {
        snprintf(buf, size, "the GPU's memory");
        return;
    }
    nqc_format_bytes(bytes, sizeof bytes, g.memory);
    snprintf(buf, size, "the GPU's memory (%s)", bytes);
}

int cli_check_choice(const cli_opts *o, const nq_count_options *co, const cli_sizes *sizes,
                     FILE *err)
{
    char memory[64], name[CLI_QUOTE_SIZE];
    int said = 0;

    if (co->device == NQ_DEVICE_GPU && !nqc_gpu_runs(co->method)) {
        /* a checkpoint's method: a named one is refused before */
        if (o->checkpoint)
            CLI_QUOTE(name, o->checkpoint);
        cli_error(err, "--device=gpu counts with " NQC_GPU_METHODS "; %s holds units of the "
                       "%s method (resume it without --device=gpu)",
                  o->checkpoint ? name : "the checkpoint", nq_method_name(co->method));
        return -1;
    }
    for (size_t i = 0; i < sizes->len; i++) {
        int why = NQ_OK, rc = nq_count_fallback(&why, sizes->n[i], co);
        if (rc == NQ_EDEVICEMEM) {
            gpu_memory(memory, sizeof memory, co->gpu);
            cli_error(err, "--device=gpu: %s is too small for a count's buffers; "
                           "--device=cpu counts on the CPU", memory);
            return -1;
        }
        if (rc == NQ_OK && why == NQ_EDEVICEMEM && !said && !o->no_notice) {
            gpu_memory(memory, sizeof memory, co->gpu);
            cli_error(err, "--device=auto: %s is too small for a count's buffers; "
                           "counting on the CPU", memory);
            said = 1;
        }
    }
    return 0;
}

static void print_gpu(const nq_gpu_info *g, FILE *out)
{
    fprintf(out, "gpu %u\t%s, %.1f GiB, %u multiprocessors, compute capability %u.%u\n",
            g->index, g->name, (double)g->memory / (double)(1u << 30),
            g->multiprocessors, g->compute_major, g->compute_minor);
}

int cli_devices(const cli_opts *o, FILE *out, FILE *err)
{
    unsigned count = 0;
    int rc;
    if (o->noperands) {
        cli_usage_error(err, "--devices takes no operands");
        return CLI_EXIT_USAGE;
    }
    fprintf(out, "cpu\t%u threads, SIMD level %s\n", nq_cpus_usable(),
            nq_simd_name(nq_simd_best()));
    rc = nq_gpu_count(&count);
    if (rc != NQ_OK)
        fprintf(out, "gpu\tnone: %s\n", nqc_no_gpu_reason(rc));
    for (unsigned i = 0; i < count; i++) {
        nq_gpu_info g = NQ_GPU_INFO_INIT;
        rc = nq_gpu_info_get(&g, i);
        if (rc != NQ_OK) {
            cli_error(err, "gpu %u: %s", i, nq_strerror(rc));
            return CLI_EXIT_FAILURE;
        }
        print_gpu(&g, out);
    }
    return cli_flush(out, err);
}

void cli_print_gpu_support(FILE *out)
{
    fprintf(out, "GPU support: %s\n", nq_gpu_support() ? "CUDA" : "none in this build");
}
