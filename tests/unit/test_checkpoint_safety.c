/* Checkpoints on a shared disk: the lock, temporary files that never follow
 * a link, places that cannot be written refused before counting, and files
 * whose counts cannot be right. Each test works in a fresh directory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "known_values.h"
#include "nqueens.h"

static char dir[64];
static char file[128], lockf[160], victim[160];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "ckpt_safety_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/run.ckpt", dir);
    snprintf(lockf, sizeof lockf, "%s.lock", file);
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    return 0;
}

/* Removes the directory with what is in it (no subdirectories). */
static int remove_dir(void **state)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    (void)state;
    while (d && (e = readdir(d)) != NULL) {
        char p[400];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    return 0;
}

/* The names in the directory, sorted, space-separated. */
static void list_dir(char *out, size_t size)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    size_t len = 0;
    assert_true(n >= 0);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.' || names[i]->d_name[1] > '.')
            len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "",
                                    names[i]->d_name);
        free(names[i]);
    }
    free(names);
}

static void write_text(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The first line of the file p, newline kept, into buf. */
static void read_line(const char *p, char *buf, size_t size)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, (int)size, f));
    fclose(f);
}

static void assert_victim_intact(void)
{
    char buf[64] = "";
    read_line(victim, buf, sizeof buf);
    assert_string_equal(buf, "precious\n");
}

static void test_second_open_is_refused(void **state)
{
    nq_checkpoint *a, *b = NULL;
    char names[256];
    (void)state;
    assert_int_equal(nq_checkpoint_open(&a, file, 10, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_int_equal(access(lockf, F_OK), 0);
    /* another object in this process, and another process */
    assert_int_equal(nq_checkpoint_open(&b, file, 10, NQ_METHOD_SYMMETRY), NQ_EBUSY);
    assert_null(b);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        nq_checkpoint *c;
        _exit(nq_checkpoint_open(&c, file, 10, NQ_METHOD_SYMMETRY) == NQ_EBUSY ? 0 : 1);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    nq_checkpoint_close(a);
    /* released, and the lock file it made is gone */
    list_dir(names, sizeof names);
    assert_string_equal(names, "");
    assert_int_equal(nq_checkpoint_open(&b, file, 10, NQ_METHOD_SYMMETRY), NQ_OK);
    nq_checkpoint_close(b);
}

/* A lock file left by a killed run holds no lock: the next run goes on,
 * and removes it at close when it holds the line a run writes into the
 * lock files it makes; any other file at that name it leaves as it was. */
static void test_stale_lock_file(void **state)
{
    static const char *const others[] = { "", "nqueens checkpoint lock", "precious\n",
                                          "nqueens checkpoint lock\nx" };
    nq_checkpoint *cp;
    char names[256], text[64] = "";
    (void)state;
    /* the line of a lock file made by a run */
    assert_int_equal(nq_checkpoint_open(&cp, file, 9, NQ_METHOD_PLAIN), NQ_OK);
    read_line(lockf, text, sizeof text);
    nq_checkpoint_close(cp);
    assert_string_equal(text, "nqueens checkpoint lock\n");
    write_text(lockf, text); /* as a killed run leaves it */
    assert_int_equal(nq_checkpoint_open(&cp, file, 9, NQ_METHOD_PLAIN), NQ_OK);
    nq_checkpoint_close(cp);
    list_dir(names, sizeof names);
    assert_string_equal(names, "");
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        write_text(lockf, others[i]);
        assert_int_equal(nq_checkpoint_open(&cp, file, 9, NQ_METHOD_PLAIN), NQ_OK);
        nq_checkpoint_close(cp);
        list_dir(names, sizeof names);
        assert_string_equal(names, "run.ckpt.lock");
        assert_int_equal(unlink(lockf), 0);
    }
}

static void test_links_are_never_followed(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint *cp;
    char tmp[200], names[256];
    struct stat st;
    (void)state;
    write_text(victim, "precious\n");

    /* a link in place of the lock file, or of the checkpoint: refused, each
     * with its own status (the lock file's, or the file's), and nothing
     * is made beside a checkpoint that is a link */
    assert_int_equal(symlink("victim.txt", lockf), 0);
    errno = 0;
    assert_int_equal(nq_checkpoint_open(&cp, file, 9, NQ_METHOD_PLAIN), NQ_ELOCK);
    assert_int_equal(errno, ELOOP);
    assert_int_equal(unlink(lockf), 0);
    assert_int_equal(symlink("victim.txt", file), 0);
    errno = 0;
    assert_int_equal(nq_checkpoint_open(&cp, file, 9, NQ_METHOD_PLAIN), NQ_EIO);
    assert_int_equal(errno, ELOOP);
    assert_int_equal(access(lockf, F_OK), -1);
    assert_int_equal(unlink(file), 0);
    assert_victim_intact();

    /* links at temporary names (the fixed one of older versions too) */
    snprintf(tmp, sizeof tmp, "%s.tmp", file);
    assert_int_equal(symlink("victim.txt", tmp), 0);
    assert_int_equal(nq_checkpoint_open(&cp, file, 9, NQ_METHOD_PLAIN), NQ_OK);
    o.method = NQ_METHOD_PLAIN;
    o.checkpoint = cp;
    o.checkpoint_interval = 0;
    assert_int_equal(nq_count(&r, 9, &o), NQ_OK);
    assert_int_equal(r.total, test_known[9].total);
    nq_checkpoint_close(cp);
    assert_victim_intact();
    assert_int_equal(lstat(file, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    /* and no temporary file is left behind */
    list_dir(names, sizeof names);
    assert_string_equal(names, "run.ckpt run.ckpt.tmp victim.txt");
}

/* The temporary files that killed saves left are removed by the next open,
 * once it holds the lock, and nothing else: not a name of another pattern
 * or of another checkpoint, not a link (nor what it points to), not a
 * folder; and not while another object or process holds the lock. */
static void test_leftover_temporary_files(void **state)
{
    static const char *const kept[] = {
        "run.ckpt.tmp",          "run.ckpt.tmp-",         "run.ckpt.tmp-abcdefg",
        "run.ckpt.tmp-abcdefghi", "run.ckpt.tmp-ABCDEFGH", "run.ckpt.tmp-abcdefgw",
        "run.ckpt.tmp-abc.efgh", "other.ckpt.tmp-abcdefgh", "run.ckpt.tmp-abcdefgh~",
        "xrun.ckpt.tmp-abcdefgh"};
    nq_checkpoint *a, *b = NULL;
    char p[300], names[1024], want[1024] = "";
    pid_t pid;
    int st = 0;
    (void)state;
    write_text(victim, "precious\n");
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, kept[i]);
        write_text(p, "not ours\n");
    }
    snprintf(p, sizeof p, "%s/run.ckpt.tmp-0000link", dir);
    assert_int_equal(symlink("victim.txt", p), 0);
    snprintf(p, sizeof p, "%s/run.ckpt.tmp-00folder", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    list_dir(want, sizeof want);
    /* two leftovers, and a stale lock file */
    snprintf(p, sizeof p, "%s/run.ckpt.tmp-0123abcv", dir);
    write_text(p, "a save that was killed\n");
    snprintf(p, sizeof p, "%s/run.ckpt.tmp-vvvvvvvv", dir);
    write_text(p, "");
    write_text(lockf, "");

    assert_int_equal(nq_checkpoint_open(&a, file, 9, NQ_METHOD_PLAIN), NQ_OK);
    nq_checkpoint_close(a);
    /* the stale lock file stays (the library removes only its own), and
     * every file but the two leftovers */
    assert_int_equal(unlink(lockf), 0);
    list_dir(names, sizeof names);
    assert_string_equal(names, want);
    assert_victim_intact();

    /* while one object holds the lock, another open removes nothing, in
     * this process or another */
    assert_int_equal(nq_checkpoint_open(&a, file, 9, NQ_METHOD_PLAIN), NQ_OK);
    snprintf(p, sizeof p, "%s/run.ckpt.tmp-11111111", dir);
    write_text(p, "being written\n");
    assert_int_equal(nq_checkpoint_open(&b, file, 9, NQ_METHOD_PLAIN), NQ_EBUSY);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        nq_checkpoint *c;
        _exit(nq_checkpoint_open(&c, file, 9, NQ_METHOD_PLAIN) == NQ_EBUSY ? 0 : 1);
    }
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(access(p, F_OK), 0);
    nq_checkpoint_close(a);
    assert_int_equal(unlink(p), 0);
    snprintf(p, sizeof p, "%s/run.ckpt.tmp-00folder", dir);
    assert_int_equal(rmdir(p), 0);
}

/* nq_checkpoint_peek() reads as nq_checkpoint_open() does: a link to an
 * intact checkpoint is refused, and a FIFO is refused without blocking. */
static void test_peek_reads_only_regular_files(void **state)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint *cp;
    char other[200];
    (void)state;
    assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_SYMMETRY), NQ_OK);
    o.checkpoint = cp;
    assert_int_equal(nq_count(&r, 8, &o), NQ_OK);
    nq_checkpoint_close(cp);
    assert_int_equal(nq_checkpoint_peek(&info, file), NQ_OK);
    assert_int_equal(info.n, 8);
    assert_true(info.units_done > 0 && info.units_done == info.units_total);

    snprintf(other, sizeof other, "%s/link.ckpt", dir);
    assert_int_equal(symlink("run.ckpt", other), 0);
    assert_int_equal(nq_checkpoint_peek(&info, other), NQ_EIO);
    assert_int_equal(errno, ELOOP);
    snprintf(other, sizeof other, "%s/fifo.ckpt", dir);
    assert_int_equal(mkfifo(other, 0600), 0);
    assert_int_equal(nq_checkpoint_peek(&info, other), NQ_EFORMAT);
    assert_int_equal(nq_checkpoint_peek(&info, dir), NQ_EIO);
    assert_int_equal(errno, EISDIR);
}

/* A place where the lock file cannot be made is refused as the lock file's
 * fault (NQ_ELOCK), with errno saying why; a stale lock file in a folder
 * that takes no new files leaves the temporary file that opening tries,
 * and so the folder, at fault (NQ_EIO). */
static void test_unwritable_places_refused_at_open(void **state)
{
    nq_checkpoint *cp = NULL;
    char p[200], names[256];
    (void)state;
    snprintf(p, sizeof p, "%s/missing/x.ckpt", dir);
    errno = 0;
    assert_int_equal(nq_checkpoint_open(&cp, p, 12, NQ_METHOD_SYMMETRY), NQ_ELOCK);
    assert_int_equal(errno, ENOENT);
    /* places where no file can be made, even by root */
    assert_int_equal(nq_checkpoint_open(&cp, "/proc/self/nq.ckpt", 12, NQ_METHOD_SYMMETRY),
                     NQ_ELOCK);
    assert_int_equal(nq_checkpoint_open(&cp, "/proc/self/mem", 12, NQ_METHOD_SYMMETRY),
                     NQ_ELOCK);
    if (geteuid() != 0) {
        assert_int_equal(chmod(dir, 0555), 0);
        errno = 0;
        assert_int_equal(nq_checkpoint_open(&cp, file, 12, NQ_METHOD_SYMMETRY), NQ_ELOCK);
        assert_int_equal(errno, EACCES);
        assert_int_equal(chmod(dir, 0755), 0);
        write_text(lockf, "");
        assert_int_equal(chmod(dir, 0555), 0);
        errno = 0;
        assert_int_equal(nq_checkpoint_open(&cp, file, 12, NQ_METHOD_SYMMETRY), NQ_EIO);
        assert_int_equal(errno, EACCES);
        assert_int_equal(chmod(dir, 0755), 0);
        assert_int_equal(unlink(lockf), 0);
    } else {
        print_message("read-only directory: not tried (root writes anywhere)\n");
    }
    assert_null(cp);
    list_dir(names, sizeof names);
    assert_string_equal(names, "");
}

/* Opening `file` (n = 8, symmetry) fails with `status`, errno `err`. */
static void expect_open_error(nq_checkpoint **cp, int status, int err)
{
    errno = 0;
    assert_int_equal(nq_checkpoint_open(cp, file, 8, NQ_METHOD_SYMMETRY), status);
    assert_int_equal(errno, err);
}

/* A lock file that is not a regular file is refused, and said to be the
 * lock file's fault; a checkpoint that is not a regular file is refused
 * before its lock file is made. */
static void test_lock_and_file_kinds(void **state)
{
    nq_checkpoint *cp = NULL;
    char names[256];
    (void)state;
    assert_int_equal(mkdir(lockf, 0755), 0);
    expect_open_error(&cp, NQ_ELOCK, EISDIR);
    assert_int_equal(rmdir(lockf), 0);
    assert_int_equal(mkfifo(lockf, 0600), 0);
    expect_open_error(&cp, NQ_ELOCK, EINVAL);
    assert_int_equal(unlink(lockf), 0);

    assert_int_equal(mkdir(file, 0755), 0);
    expect_open_error(&cp, NQ_EIO, EISDIR);
    assert_int_equal(rmdir(file), 0);
    assert_int_equal(mkfifo(file, 0600), 0);
    assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_SYMMETRY), NQ_EFORMAT);
    assert_int_equal(unlink(file), 0);
    /* a device: nothing is made beside it (root could make /dev/null.lock) */
    assert_int_equal(nq_checkpoint_open(&cp, "/dev/null", 8, NQ_METHOD_SYMMETRY), NQ_EFORMAT);
    assert_int_equal(access("/dev/null.lock", F_OK), -1);
    assert_null(cp);
    list_dir(names, sizeof names);
    assert_string_equal(names, "");
}

/* A save that the file-size limit cuts short (SIGXFSZ ignored, as the
 * command ignores it: the write fails with EFBIG) fails as one to a full
 * disk: NQ_EIO, errno kept, no temporary file left, and the last snapshot
 * intact. In a child process, whose limit goes with it. */
static void test_save_past_file_size_limit(void **state)
{
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    char names[256];
    struct stat st;
    int status = 0;
    pid_t pid;
    (void)state;
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit lim;
        uint64_t units;
        int code = 0;
        signal(SIGXFSZ, SIG_IGN);
        if (nq_units(&units, 12, NQ_METHOD_SYMMETRY) != NQ_OK || units < 100 ||
            nq_checkpoint_open(&cp, file, 12, NQ_METHOD_SYMMETRY) != NQ_OK)
            _exit(10);
        /* a first snapshot of one unit, then a limit that it just fits */
        if (nq_checkpoint_record(cp, 0, 0, 0) != NQ_OK || nq_checkpoint_save(cp) != NQ_OK ||
            stat(file, &st) != 0)
            _exit(11);
        if (getrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(12);
        lim.rlim_cur = (rlim_t)st.st_size;
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(12);
        for (uint64_t u = 1; u < 100; u++)
            if (nq_checkpoint_record(cp, u, 0, 0) != NQ_OK)
                _exit(13);
        errno = 0;
        if (nq_checkpoint_save(cp) != NQ_EIO)
            code = 14;
        else if (errno != EFBIG)
            code = 15;
        nq_checkpoint_close(cp);
        _exit(code);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    list_dir(names, sizeof names);
    assert_string_equal(names, "run.ckpt");
    assert_int_equal(nq_checkpoint_peek(&info, file), NQ_OK);
    assert_int_equal(info.units_done, 1);
}

/* ---- files with impossible counts ---------------------------------------- */
static uint64_t fnv1a(const unsigned char *p, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static size_t put(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
    return (size_t)bytes;
}

/* v as a varint of format 2 (docs/checkpoint-format.md). */
static size_t put_varint(unsigned char *p, uint64_t v)
{
    size_t k = 0;
    for (; v >= 0x80; v >>= 7)
        p[k++] = (unsigned char)(0x80 | (v & 0x7f));
    p[k++] = (unsigned char)v;
    return k;
}

/* Writes an intact checkpoint of n = 8 with two records, units 0 and 1,
 * in format 1 (as older releases wrote it) or 2. */
static void write_records(uint32_t format, nq_method m, uint64_t units_total, uint64_t t0,
                          uint64_t u0, uint64_t t1, uint64_t u1)
{
    const uint64_t rec[2][3] = {{0, t0, u0}, {1, t1, u1}};
    unsigned char b[40 + 2 * 30 + 8];
    size_t len = 8;
    FILE *f;
    memcpy(b, "NQCKPT\r\n", 8);
    len += put(b + len, format, 4);
    len += put(b + len, 8, 4);
    len += put(b + len, (uint64_t)m, 4);
    len += put(b + len, nq_unit_list_version(m), 4);
    len += put(b + len, units_total, 8);
    len += put(b + len, 2, 8);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++) {
            /* format 2: unit 0, then the gap 0 to unit 1 */
            uint64_t v = format == 2 && k == 0 ? 0 : rec[i][k];
            len += format == 1 ? put(b + len, v, 8) : put_varint(b + len, v);
        }
    len += put(b + len, fnv1a(b, len), 8);
    f = fopen(file, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* In either format. */
static void test_impossible_counts_refused(void **state)
{
    nq_checkpoint *cp;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    uint64_t us, up;
    (void)state;
    assert_int_equal(nq_units(&us, 8, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_int_equal(nq_units(&up, 8, NQ_METHOD_PLAIN), NQ_OK);
    assert_true(us >= 2 && up >= 2);

    for (uint32_t format = 1; format <= 2; format++) {
        /* plausible: loads */
        write_records(format, NQ_METHOD_SYMMETRY, us, 8, 1, 16, 2);
        assert_int_equal(nq_checkpoint_peek(&info, file), NQ_OK);
        assert_int_equal(info.units_done, 2);
        assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_SYMMETRY), NQ_OK);
        assert_int_equal(nq_checkpoint_info_get(&info, cp), NQ_OK);
        assert_int_equal(info.total, 24);
        /* a result that carries the sum past 2^64, or past Q(8) = 92 */
        assert_int_equal(nq_checkpoint_record(cp, 2, UINT64_MAX, 0), NQ_EOVERFLOW);
        assert_int_equal(nq_checkpoint_record(cp, 2, 92 - 24 + 1, 0), NQ_EOVERFLOW);
        assert_int_equal(nq_checkpoint_record(cp, 2, 92 - 24, 0), NQ_OK);
        nq_checkpoint_close(cp);

        /* sums that wrap around 64 bits (to a small, plausible number) */
        write_records(format, NQ_METHOD_SYMMETRY, us, UINT64_MAX, 1, 93, 1);
        assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_SYMMETRY), NQ_EFORMAT);
        /* more than Q(8) = 92 */
        write_records(format, NQ_METHOD_SYMMETRY, us, 60, 1, 40, 1);
        assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_SYMMETRY), NQ_EFORMAT);
        /* more unique solutions than solutions */
        write_records(format, NQ_METHOD_SYMMETRY, us, 8, 9, 16, 2);
        assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_SYMMETRY), NQ_EFORMAT);
        /* the plain method counts no unique solutions */
        write_records(format, NQ_METHOD_PLAIN, up, 8, 1, 16, 0);
        assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_PLAIN), NQ_EFORMAT);
        /* a unit count of 2^64 - 1 names another list */
        write_records(format, NQ_METHOD_PLAIN, UINT64_MAX, 8, 0, 16, 0);
        assert_int_equal(nq_checkpoint_open(&cp, file, 8, NQ_METHOD_PLAIN), NQ_EMISMATCH);
    }
}

/* A file far longer than any checkpoint of the count is not read whole. */
static void test_long_files(void **state)
{
    nq_checkpoint *cp;
    FILE *f = fopen(file, "wb");
    (void)state;
    assert_non_null(f);
    for (int i = 0; i < 4096; i++)
        fputs("not a checkpoint, not a checkpoint, not a checkpoint...\n", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(nq_checkpoint_open(&cp, file, 5, NQ_METHOD_PLAIN), NQ_EFORMAT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_second_open_is_refused, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_stale_lock_file, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_links_are_never_followed, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_leftover_temporary_files, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_peek_reads_only_regular_files, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_unwritable_places_refused_at_open, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_lock_and_file_kinds, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_save_past_file_size_limit, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_impossible_counts_refused, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_long_files, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
