/*
 * Messages, quoting and flushing: what every other file of the command
 * uses, and which uses none of them.
 */
#include "cli_output.h"

#include <errno.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* One "nqueens: ..." line, flushed. */
static void vmessage(FILE *err, const char *fmt, va_list ap)
{
    fputs("nqueens: ", err);
    vfprintf(err, fmt, ap);
    fputc('\n', err);
    fflush(err);
}

void cli_error(FILE *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(err, fmt, ap);
    va_end(ap);
}

void cli_usage_hint(FILE *err)
{
    fputs("Try 'nqueens --help' for more information.\n", err);
    fflush(err);
}

void cli_usage_error(FILE *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(err, fmt, ap);
    va_end(ap);
    cli_usage_hint(err);
}

const char *cli_quote(char *buf, size_t size, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;

    if (size == 0)
        return buf;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t need = (c >= 0x20 && c < 0x7f) ? 1 : 4;
        /* keep room for "..." and the NUL, unless this is the last byte */
        size_t room = i + 1 == len ? 1 : 4;
        if (k + need + room > size) {
            if (k + 4 <= size) {
                memcpy(buf + k, "...", 3);
                k += 3;
            }
            break;
        }
        if (need == 1) {
            buf[k++] = (char)c;
        } else {
            buf[k++] = '\\';
            buf[k++] = 'x';
            buf[k++] = hex[c >> 4];
            buf[k++] = hex[c & 15];
        }
    }
    buf[k] = '\0';
    return buf;
}

int cli_flush(FILE *out, FILE *err)
{
    if (fflush(out) == 0 && !ferror(out))
        return CLI_EXIT_OK;
    /* A reader that went away (`nqueens 1-20 | head -1`) is no error to
     * report: stop quietly, with the status a SIGPIPE would have given. */
    if (errno == EPIPE)
        return CLI_EXIT_PIPE;
    cli_error(err, "cannot write to standard output: %s", strerror(errno));
    return CLI_EXIT_FAILURE;
}

uint64_t cli_clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000007) ^ (uint64_t)ts.tv_nsec ^
           ((uint64_t)getpid() << 32);
}
