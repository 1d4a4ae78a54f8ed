/*
 * Messages, quoting and flushing: what every other file of the command
 * uses, and which uses none of them (only the exit statuses of cli_exit.h,
 * a header no file implements).
 */
#include "cli_output.h"

#include <errno.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "cli_exit.h"

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

/* The length of the valid UTF-8 sequence at s[0..len), or 0: no
 * overlong forms, no surrogates, nothing above U+10FFFF. */
static size_t utf8_length(const unsigned char *s, size_t len)
{
    size_t need;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        need = 2;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        need = 3;
        if (s[0] == 0xe0)
            lo = 0xa0; /* not overlong */
        if (s[0] == 0xed)
            hi = 0x9f; /* no surrogate */
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        need = 4;
        if (s[0] == 0xf0)
            lo = 0x90; /* not overlong */
        if (s[0] == 0xf4)
            hi = 0x8f; /* up to U+10FFFF */
    } else {
        return 0;
    }
    if (len < need || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < need; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return need;
}

void cli_json_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    for (size_t i = 0; i < len;) {
        size_t k;
        if (p[i] == '"' || p[i] == '\\') {
            fputc('\\', out);
            fputc(p[i++], out);
        } else if (p[i] < 0x20 || p[i] == 0x7f) {
            fprintf(out, "\\u%04x", p[i++]);
        } else if (p[i] < 0x80) {
            fputc(p[i++], out);
        } else if ((k = utf8_length(p + i, len - i)) != 0) {
            fwrite(p + i, 1, k, out);
            i += k;
        } else {
            fputs("\\ufffd", out);
            i++;
        }
    }
    fputc('"', out);
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
