/*
 * pty_resize: runs a command on a pseudo-terminal and changes the
 * terminal's width while it runs, as a user who drags a window's edge.
 * A test aid, built only with the tests.
 *
 *   pty_resize LOG COLS1 COLS2 AFTER COMMAND [ARG]...
 *
 * The command starts on a COLS1 x 24 terminal; AFTER seconds after its
 * first output (not after its start: on a busy machine a command may
 * take seconds to draw anything) the terminal becomes COLS2 wide (TIOCSWINSZ on the master side: the kernel
 * sends SIGWINCH to the command). Everything the command writes to the
 * terminal is copied to LOG, with two lines of its own (never sent to the
 * terminal): "@@RESIZE@@" where the width changed, and "@@RESIZED@@" half
 * a second later, once any line drawn for the old width has surely come
 * out: what precedes the first was drawn for COLS1, what follows the
 * second for COLS2. Exit status: the command's (128 + signal if
 * a signal ended it); 3 if it ended before that mark, so that the resize
 * was not tried (never with COLS1 equal to COLS2: no resize is wanted,
 * as for a command that may draw nothing before it ends); 4 on a failure
 * of this program.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SETTLE 0.5   /* seconds between the resize and the mark */
#define LIMIT 600.0  /* the command is killed after this long */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cols_arg(unsigned short *out, const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1 || v > 1000)
        return -1;
    *out = (unsigned short)v;
    return 0;
}

int main(int argc, char **argv)
{
    struct winsize ws;
    unsigned short cols1, cols2;
    double after, start, first = 0.0, resized_at = 0.0;
    int master, status, marked = 0;
    FILE *log;
    pid_t pid;

    if (argc < 6 || cols_arg(&cols1, argv[2]) != 0 || cols_arg(&cols2, argv[3]) != 0 ||
        (after = strtod(argv[4], NULL)) <= 0.0) {
        fputs("usage: pty_resize LOG COLS1 COLS2 AFTER COMMAND [ARG]...\n", stderr);
        return 4;
    }
    log = fopen(argv[1], "wb");
    if (!log) {
        perror(argv[1]);
        return 4;
    }
    memset(&ws, 0, sizeof ws);
    ws.ws_row = 24;
    ws.ws_col = cols1;
    pid = forkpty(&master, NULL, NULL, &ws);
    if (pid < 0) {
        perror("forkpty");
        return 4;
    }
    if (pid == 0) {
        execvp(argv[5], argv + 5);
        perror(argv[5]);
        _exit(127);
    }
    start = now();
    for (;;) {
        struct pollfd p = {master, POLLIN, 0};
        char buf[4096];
        double t = now();
        ssize_t got;

        if (resized_at == 0.0 && first > 0.0 && t - first >= after) {
            ws.ws_col = cols2;
            if (ioctl(master, TIOCSWINSZ, &ws) != 0) {
                perror("TIOCSWINSZ");
                kill(pid, SIGKILL);
                return 4;
            }
            resized_at = t;
            fputs("\n@@RESIZE@@\n", log);
        }
        if (resized_at > 0.0 && !marked && t - resized_at >= SETTLE) {
            fputs("\n@@RESIZED@@\n", log);
            marked = 1;
        }
        if (t - start > LIMIT) {
            kill(pid, SIGKILL);
            break;
        }
        if (poll(&p, 1, 20) < 0 && errno != EINTR)
            break;
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        got = read(master, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break; /* EIO: the command and its children closed the terminal */
        if (first == 0.0)
            first = now();
        fwrite(buf, 1, (size_t)got, log);
    }
    if (fclose(log) != 0) {
        perror(argv[1]);
        return 4;
    }
    if (waitpid(pid, &status, 0) != pid)
        return 4;
    if (!marked && cols1 != cols2)
        return 3;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
