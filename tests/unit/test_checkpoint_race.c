/* Opens of one checkpoint started together, in many rounds: each child
 * opens it (NQ_OK or NQ_EBUSY, nothing else), holds it a moment if it got
 * it, and closes it; once all have ended, nothing is left beside the
 * checkpoint (no lock file, no temporary file), and in each round one
 * child or more got it. The children wait on one pipe, so that closing
 * its end starts them all at once and their lock attempts interleave (one
 * making the lock file while another opens it). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nqueens.h"

enum { ROUNDS = 60, CHILDREN = 32 };

static char dir[64], file[128];

/* The names in dir, space-separated; removes them too. */
static void take_names(char *out, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t len = 0;
    assert_non_null(d);
    out[0] = '\0';
    while ((e = readdir(d)) != NULL) {
        char p[400];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (len + 1 < size) { /* names past the room are removed, not listed */
            const int w = snprintf(out + len, size - len, "%s%s", len ? " " : "", e->d_name);
            len = w < 0 || (size_t)w >= size - len ? size - 1 : len + (size_t)w;
        }
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
}

/* A child: waits for the start, opens, holds 2 ms, closes. Exit status
 * 0: it got the checkpoint, 1: NQ_EBUSY, 2: anything else. */
static void child(int go)
{
    const struct timespec hold = {0, 2000000};
    nq_checkpoint *cp = NULL;
    char c;
    int rc;
    while (read(go, &c, 1) < 0 && errno == EINTR)
        ;
    rc = nq_checkpoint_open(&cp, file, 6, NQ_METHOD_PLAIN);
    if (rc == NQ_OK) {
        nanosleep(&hold, NULL);
        nq_checkpoint_close(cp);
    }
    _exit(rc == NQ_OK ? 0 : rc == NQ_EBUSY ? 1 : 2);
}

static void test_simultaneous_opens_leave_nothing(void **state)
{
    char names[512];
    int leftovers = 0, held_rounds = 0;
    (void)state;
    for (int round = 0; round < ROUNDS; round++) {
        pid_t pid[CHILDREN];
        int go[2], got = 0;
        assert_int_equal(pipe(go), 0);
        for (int i = 0; i < CHILDREN; i++) {
            pid[i] = fork();
            assert_true(pid[i] >= 0);
            if (pid[i] == 0) {
                close(go[1]);
                child(go[0]);
            }
        }
        close(go[0]);
        close(go[1]); /* all start */
        for (int i = 0; i < CHILDREN; i++) {
            int st = 0;
            assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
            assert_true(WIFEXITED(st));
            assert_in_range(WEXITSTATUS(st), 0, 1);
            got += WEXITSTATUS(st) == 0;
        }
        held_rounds += got > 0;
        take_names(names, sizeof names);
        if (names[0]) {
            leftovers++;
            print_message("round %d left: %s\n", round, names);
        }
    }
    assert_int_equal(leftovers, 0);
    assert_int_equal(held_rounds, ROUNDS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simultaneous_opens_leave_nothing),
    };
    char left[512];
    int rc;
    snprintf(dir, sizeof dir, "ckpt_race_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    snprintf(file, sizeof file, "%s/run.ckpt", dir);
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    take_names(left, sizeof left);
    rmdir(dir);
    return rc;
}
