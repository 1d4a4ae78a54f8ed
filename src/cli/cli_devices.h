/*
 * --devices, --device's checks and messages, and the GPU line of --version.
 */
#ifndef CLI_DEVICES_H
#define CLI_DEVICES_H

#include <stdio.h>

#include <nqueens.h>

#include "cli_opts.h"
#include "cli_sizes.h"

/* --devices: the CPU, then each GPU or why there is none. @return the
 * exit status (0 also when there is no GPU: the listing says so). */
int cli_devices(const cli_opts *o, FILE *out, FILE *err);

/* --device=gpu on a build or machine without a usable GPU (one line that
 * says which is missing), or with a method the GPU does not run (a usage
 * error). @return 0, or -1 after the message (exit status 2). */
int cli_check_device(const cli_opts *o, FILE *err);

/* Before the sizes are counted, estimated or checked with co (the
 * method a checkpoint was made by included): --device=gpu with the
 * method of a checkpoint that the GPU does not run, or on a GPU whose
 * memory is too small for any count, is refused (one line that names the
 * way out); --device=auto that counts on the CPU for want of GPU memory
 * says so in one line (not with --quiet or --no-notice). @return 0, or -1
 * after the message (exit status 2). */
int cli_check_choice(const cli_opts *o, const nq_count_options *co, const cli_sizes *sizes,
                     FILE *err);

/* The line of --version that says whether this build counts on GPUs. */
void cli_print_gpu_support(FILE *out);

#endif
