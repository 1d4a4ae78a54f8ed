/* The default thread count: the affinity mask within a cgroup CPU quota.
 * The cgroup readers get sample file texts and a fake /proc + /sys tree
 * in a scratch folder, so every case runs on any machine. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform/cpu_count.h"
#include "nqueens.h"

static void test_v2_cpu_max(void **state)
{
    (void)state;
    assert_int_equal(nq_cpu_quota_v2("max 100000\n"), 0);
    assert_int_equal(nq_cpu_quota_v2("max"), 0);
    assert_int_equal(nq_cpu_quota_v2("150000 100000\n"), 2);
    assert_int_equal(nq_cpu_quota_v2("50000 100000\n"), 1);
    assert_int_equal(nq_cpu_quota_v2("100000 100000"), 1);
    assert_int_equal(nq_cpu_quota_v2("100001 100000\n"), 2);
    assert_int_equal(nq_cpu_quota_v2("400000 100000\n"), 4);
    assert_int_equal(nq_cpu_quota_v2("1 1000000\n"), 1);
    /* a quota of more CPUs than a count ever starts */
    assert_int_equal(nq_cpu_quota_v2("999999999999 1000\n"), NQ_CPU_COUNT_MAX);
}

static void test_v2_garbage_is_no_quota(void **state)
{
    static const char *const bad[] = {
        "", "\n", "garbage", "100000", "100000\n", "150000 0\n", "0 100000\n",
        "-50000 100000\n", "150000 100000 7\n", "150000,100000\n", "1.5 1\n",
        "150000 100000x\n", "99999999999999999999 100000\n", "150000 100000\n\n",
    };
    (void)state;
    assert_int_equal(nq_cpu_quota_v2(NULL), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (nq_cpu_quota_v2(bad[i]) != 0)
            fail_msg("cpu.max text '%s' read as a quota", bad[i]);
    }
}

static void test_v1_cfs_files(void **state)
{
    (void)state;
    assert_int_equal(nq_cpu_quota_v1("-1\n", "100000\n"), 0);
    assert_int_equal(nq_cpu_quota_v1("250000\n", "100000\n"), 3);
    assert_int_equal(nq_cpu_quota_v1("50000\n", "100000\n"), 1);
    assert_int_equal(nq_cpu_quota_v1("200000", "100000"), 2);
    assert_int_equal(nq_cpu_quota_v1("x\n", "100000\n"), 0);
    assert_int_equal(nq_cpu_quota_v1("100000\n", "0\n"), 0);
    assert_int_equal(nq_cpu_quota_v1("100000\n", ""), 0);
    assert_int_equal(nq_cpu_quota_v1(NULL, "100000\n"), 0);
}

static void test_cgroup_path(void **state)
{
    char out[64];
    const char *v1 = "12:cpuset:/set\n11:cpu,cpuacct:/docker/abc\n4:memory:/mem\n";
    (void)state;
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, "0::/user.slice/a.scope\n", NULL), 0);
    assert_string_equal(out, "/user.slice/a.scope");
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, "0::/", NULL), 0);
    assert_string_equal(out, "/");
    /* hybrid: the v2 line among v1 lines */
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, "3:cpu:/v1\n0::/v2\n", NULL), 0);
    assert_string_equal(out, "/v2");
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, v1, "cpu"), 0);
    assert_string_equal(out, "/docker/abc");
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, v1, "cpuacct"), 0);
    assert_string_equal(out, "/docker/abc");
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, v1, "cpuset"), 0);
    assert_string_equal(out, "/set");
    /* "cpu" is not a prefix match of "cpuset", and no line is no path */
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, "12:cpuset:/set\n", "cpu"), -1);
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, v1, NULL), -1);
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, "", NULL), -1);
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, "garbage\n", NULL), -1);
    assert_int_equal(nq_cpu_cgroup_path(out, sizeof out, "0::relative\n", NULL), -1);
    /* a path that does not fit is refused, not cut */
    assert_int_equal(nq_cpu_cgroup_path(out, 8, "0::/user.slice\n", NULL), -1);
    assert_int_equal(nq_cpu_cgroup_path(out, 8, "0::/a.b\n", NULL), 0);
    assert_string_equal(out, "/a.b");
}

/* A fake root: ROOT/proc/self/cgroup and files under ROOT/sys/fs/cgroup. */
static char root[64];

static int make_root(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "test_cpu_count_XXXXXX");
    return mkdtemp(root) ? 0 : -1;
}

static int remove_root(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *rel, const char *text)
{
    char path[512], cmd[600];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A step in the fake tree: `text` written to `rel` (nothing written
 * where rel is NULL), then the quota read from the tree must be `quota`
 * (not read where quota is negative). */
typedef struct tree_step {
    const char *rel, *text;
    int quota;
} tree_step;

static void walk_tree(const tree_step *steps, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (steps[i].rel)
            put(steps[i].rel, steps[i].text);
        if (steps[i].quota >= 0)
            assert_int_equal(nq_cpu_quota_at(root), steps[i].quota);
    }
}

static void test_quota_v2_tree(void **state)
{
    static const tree_step steps[] = {
        {NULL, NULL, 0}, /* nothing there: no quota */
        {"proc/self/cgroup", "0::/job/step\n", 0},
        {"sys/fs/cgroup/job/step/cpu.max", "max 100000\n", 0},
        /* a parent's quota binds its children */
        {"sys/fs/cgroup/job/cpu.max", "150000 100000\n", 2},
        /* the smallest on the way up applies */
        {"sys/fs/cgroup/job/step/cpu.max", "50000 100000\n", 1},
        {"sys/fs/cgroup/job/step/cpu.max", "garbage\n", 2},
        /* a container sees its own cgroup as "/" */
        {"proc/self/cgroup", "0::/\n", -1},
        {"sys/fs/cgroup/cpu.max", "300000 100000\n", 3},
    };
    (void)state;
    walk_tree(steps, sizeof steps / sizeof steps[0]);
}

/* the cpu controller's folder of the v1 tree's container */
#define V1_DOCKER "sys/fs/cgroup/cpu/docker/"

static void test_quota_v1_tree(void **state)
{
    static const tree_step steps[] = {
        /* the cpu controller's path, no files there yet */
        {"proc/self/cgroup", "5:memory:/m\n4:cpu,cpuacct:/docker/abc\n", 0},
        /* a quota of -1 is none */
        {V1_DOCKER "abc/cpu.cfs_quota_us", "-1\n", -1},
        {V1_DOCKER "abc/cpu.cfs_period_us", "100000\n", 0},
        /* part of a CPU counts as one */
        {V1_DOCKER "abc/cpu.cfs_quota_us", "250000\n", 3},
        /* a parent's quota binds its children */
        {V1_DOCKER "cpu.cfs_quota_us", "100000\n", -1},
        {V1_DOCKER "cpu.cfs_period_us", "100000\n", 1},
    };
    (void)state;
    walk_tree(steps, sizeof steps / sizeof steps[0]);
}

static void test_usable_is_within_the_machine(void **state)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned affinity = nq_cpu_affinity_count();
    unsigned usable = nq_cpus_usable();
    unsigned quota = nq_cpu_quota_at("");
    (void)state;
    assert_true(affinity >= 1 && (online < 1 || affinity <= (unsigned long)online));
    assert_true(usable >= 1 && usable <= affinity);
    if (quota)
        assert_true(usable <= quota);
    else
        assert_int_equal(usable, affinity);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v2_cpu_max),
        cmocka_unit_test(test_v2_garbage_is_no_quota),
        cmocka_unit_test(test_v1_cfs_files),
        cmocka_unit_test(test_cgroup_path),
        cmocka_unit_test_setup_teardown(test_quota_v2_tree, make_root, remove_root),
        cmocka_unit_test_setup_teardown(test_quota_v1_tree, make_root, remove_root),
        cmocka_unit_test(test_usable_is_within_the_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
