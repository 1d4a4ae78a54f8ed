/* The command's --recheck on checkpoints made here through the library: a
 * true one is clean in every format, one with a wrong record (a valid
 * file, checksum and all) is loud about the unit and exits 1, and the file
 * is never written. */
#include "test_cli_run.h"

#include <sys/stat.h>
#include <unistd.h>

#include "known_values.h"

static char path[64];

/* A checkpoint file of the whole count of n = 10 by the join; when
 * `tamper` is nonzero, the total of unit `bad` is one lower than counted.
 * @return the unit changed. */
static uint64_t make_checkpoint(int tamper)
{
    nq_checkpoint *mem = NULL, *file = NULL;
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r = NQ_COUNT_RESULT_INIT;
    nq_checkpoint_info info = NQ_CHECKPOINT_INFO_INIT;
    uint64_t bad = UINT64_MAX;
    int fd;

    snprintf(path, sizeof path, "cli_recheck_XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(nq_checkpoint_open(&mem, NULL, 10, NQ_METHOD_JOIN), NQ_OK);
    o.method = NQ_METHOD_JOIN;
    o.checkpoint = mem;
    assert_int_equal(nq_count(&r, 10, &o), NQ_OK);
    assert_int_equal(r.total, test_known[10].total);
    assert_int_equal(nq_checkpoint_info_get(&info, mem), NQ_OK);
    assert_int_equal(nq_checkpoint_open(&file, path, 10, NQ_METHOD_JOIN), NQ_OK);
    for (uint64_t u = 0; u < info.units_total; u++) {
        uint64_t t;
        assert_int_equal(nq_checkpoint_unit(mem, u, &t, NULL), NQ_OK);
        if (tamper && bad == UINT64_MAX && u >= 20 && t > 0) {
            bad = u;
            t--;
        }
        assert_int_equal(nq_checkpoint_record(file, u, t, 0), NQ_OK);
    }
    assert_int_equal(nq_checkpoint_save(file), NQ_OK);
    nq_checkpoint_close(file);
    nq_checkpoint_close(mem);
    return bad;
}

static size_t occurrences(const char *s, const char *needle)
{
    size_t k = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        k++;
    return k;
}

static void test_clean_checkpoint(void **state)
{
    outcome o;
    struct stat before, after;
    (void)state;
    make_checkpoint(0);
    assert_int_equal(stat(path, &before), 0);
    o = run_cli(NULL, "--recheck", path, "--sample", "4", "--seed", "9", NULL);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.err, "");
    assert_int_equal(occurrences(o.out, ": ok\n"), 4);
    assert_non_null(strstr(o.out, "n = 10, join: 4 of 252 finished units re-checked by walk "
                                  "without SIMD, seed 9: all match\n"));
    /* the same seed, the same units */
    {
        char first[8192];
        strcpy(first, o.out);
        o = run_cli(NULL, "--recheck", path, "--sample=4", "--seed=9", NULL);
        assert_string_equal(o.out, first);
    }
    /* a level in words: "without SIMD", or "at SIMD level avx2" */
    if (nq_simd_best() >= NQ_SIMD_AVX2) {
        o = run_cli(NULL, "--recheck", path, "--by=kernel", "--simd=avx2", "--pick=3", NULL);
        assert_int_equal(o.status, 0);
        assert_non_null(strstr(o.out, "n = 10, join: 1 of 252 finished units re-checked by "
                                      "kernel at SIMD level avx2: all match\n"));
    }
    o = run_cli(NULL, "--recheck", path, "--by", "independent", "--labels", NULL);
    assert_int_equal(o.status, 0);
    assert_true(strncmp(o.out, "unit\trecorded\trecounted\tverdict\n0\t", 33) == 0);
    assert_int_equal(occurrences(o.out, "\tok\n"), 253); /* 252 units, the total */
    assert_non_null(strstr(o.out, "total\t724\t724\tok\n"));
    o = run_cli(NULL, "--recheck", path, "--pick", "5,2", "--json", NULL);
    assert_int_equal(o.status, 0);
    assert_true(strncmp(o.out, "{\"unit\":2,", 10) == 0);
    assert_non_null(strstr(no_seconds(o.out),
                           "\n{\"n\":10,\"method\":\"join\",\"units\":252,\"finished\":252,"
                           "\"checked\":2,\"by\":\"walk\",\"simd\":\"none\",\"mismatched\":0,"));
    /* only read: the same bytes, no lock or temporary file left */
    assert_int_equal(stat(path, &after), 0);
    assert_int_equal(before.st_size, after.st_size);
    assert_int_equal(before.st_mtime, after.st_mtime);
    assert_int_equal(before.st_ino, after.st_ino);
    {
        char lock[80];
        snprintf(lock, sizeof lock, "%s.lock", path);
        assert_int_equal(access(lock, F_OK), -1);
    }
    unlink(path);
}

static void test_tampered_checkpoint(void **state)
{
    outcome o;
    char line[160], unit[40], list[60];
    const uint64_t bad = make_checkpoint(1);
    static const char *const ways[] = { "kernel", "walk", "independent" };
    (void)state;
    snprintf(unit, sizeof unit, "%llu", (unsigned long long)bad);
    snprintf(list, sizeof list, "7,%s,3", unit); /* all of them print too much */
    for (size_t i = 0; i < 3; i++) {
        o = run_cli(NULL, "--recheck", path, "--by", ways[i], "--pick", list, NULL);
        assert_int_equal(o.status, 1);
        snprintf(line, sizeof line, "nqueens: MISMATCH: unit %s of n = 10 (join): ", unit);
        assert_non_null(strstr(o.err, line));
        snprintf(line, sizeof line, "\nunit %s: recorded ", unit);
        assert_non_null(strstr(o.out, line));
        assert_int_equal(occurrences(o.out, ": MISMATCH\n"), 1);
        snprintf(line, sizeof line, ": 1 MISMATCH (first: unit %s)\n", unit);
        assert_non_null(strstr(o.out, line));
        snprintf(line, sizeof line, "differs from its record (first: unit %s): do not "
                                    "trust its total\n", unit);
        assert_non_null(strstr(o.err, line));
    }
    /* the whole file */
    o = run_cli(NULL, "--recheck", path, "--json", NULL);
    assert_int_equal(o.status, 1);
    assert_int_equal(occurrences(o.err, "MISMATCH"), 1);
    /* the unit alone, and units without it */
    o = run_cli(NULL, "--recheck", path, "--pick", unit, "--json", NULL);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.out, "\"match\":false"));
    assert_non_null(strstr(o.out, "\"mismatched\":1,\"first_mismatch\":"));
    o = run_cli(NULL, "--recheck", path, "--pick", "0", NULL);
    assert_int_equal(o.status, 0);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_checkpoint),
        cmocka_unit_test(test_tampered_checkpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
