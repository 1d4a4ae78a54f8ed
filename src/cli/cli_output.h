/*
 * The bottom layer of the command: messages on stderr, quoting of untrusted
 * text, flushing. It calls nothing else of the command.
 */
#ifndef CLI_OUTPUT_H
#define CLI_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Room for a quoted file name or other untrusted text in a message. */
#define CLI_QUOTE_SIZE 256

/* Prints "nqueens: <message>" and a newline on err. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cli_error(FILE *err, const char *fmt, ...);

/* As cli_error(), then "Try 'nqueens --help' for more information.": for
 * mistakes on the command line. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void cli_usage_error(FILE *err, const char *fmt, ...);

/* The "Try 'nqueens --help'" line alone. */
void cli_usage_hint(FILE *err);

/* Copies s[0..len) into buf as one printable line: every byte outside
 * 0x20..0x7e becomes \xNN, and what does not fit in buf ends in "...".
 * Every untrusted string (operand, option value, file name, input text)
 * goes through here before it is printed in a message. @return buf. */
const char *cli_quote(char *buf, size_t size, const char *s, size_t len);

/* cli_quote() of a NUL-terminated string into an array. */
#define CLI_QUOTE(buf, s) cli_quote((buf), sizeof(buf), (s), strlen(s))

/* Writes s[0..len) as a JSON string, quotes included: '"' and '\\' are
 * escaped, control bytes become \u00NN, valid UTF-8 passes through, and
 * each byte of an invalid UTF-8 sequence becomes U+FFFD (a file name
 * need not be UTF-8; JSON text must be). */
void cli_json_string(FILE *out, const char *s, size_t len);

/* Flushes out (the command's standard output): CLI_EXIT_OK; CLI_EXIT_PIPE,
 * silently, when the reader went away (EPIPE); CLI_EXIT_FAILURE after
 * reporting any other write error (a full disk, a file-size limit). */
int cli_flush(FILE *out, FILE *err);

/* A seed for a draw the user gave no --seed for: from the clock and the
 * process id, different for two runs started in the same second. */
uint64_t cli_clock_seed(void);

#endif
