/*
 * cpu_count.c - how many CPUs this process may use (see cpu_count.h).
 *
 * The affinity mask needs sched_getaffinity() and its CPU_* macros, which
 * glibc and musl declare only under _GNU_SOURCE: this is the one file of
 * the library that asks for them. Elsewhere (no sched_getaffinity, as on
 * most systems other than Linux) the count of online CPUs stands in.
 *
 * The quota is read afresh on every call, like everything else the
 * library knows about the machine: a few small file reads, once per count.
 * Any file that is missing, unreadable or odd means "no quota", never an
 * error: a count must not fail because a container hides /sys.
 */
#define _GNU_SOURCE 1

#include "cpu_count.h"

#include "nqueens.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sched.h>
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static unsigned clamp_cpus(long c)
{
    return c < 1 ? 1u : (c > (long)NQ_CPU_COUNT_MAX ? NQ_CPU_COUNT_MAX : (unsigned)c);
}

static unsigned online_cpus(void)
{
    return clamp_cpus(sysconf(_SC_NPROCESSORS_ONLN));
}

unsigned nq_cpu_affinity_count(void)
{
#if defined(__linux__) && defined(CPU_ALLOC)
    /* The kernel refuses a mask shorter than its own (EINVAL): grow it. */
    for (size_t cpus = 1024; cpus <= (size_t)1 << 20; cpus *= 2) {
        size_t size = CPU_ALLOC_SIZE(cpus);
        cpu_set_t *set = CPU_ALLOC(cpus);
        int rc, count = 0;
        if (!set)
            break;
        CPU_ZERO_S(size, set);
        rc = sched_getaffinity(0, size, set);
        if (rc == 0)
            count = CPU_COUNT_S(size, set);
        CPU_FREE(set);
        if (rc == 0)
            return clamp_cpus(count);
        if (errno != EINVAL)
            break;
    }
#endif
    return online_cpus();
}

/* Reads one decimal number of at most 18 digits from *p, skipping leading
 * blanks, into *out. @return 0, or -1 when there is none. */
static int read_number(uint64_t *out, const char **p)
{
    const char *s = *p;
    uint64_t v = 0;
    int digits = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    while (*s >= '0' && *s <= '9' && digits < 18) {
        v = v * 10 + (uint64_t)(*s - '0');
        s++;
        digits++;
    }
    if (digits == 0 || (*s >= '0' && *s <= '9'))
        return -1;
    *out = v;
    *p = s;
    return 0;
}

/* Only blanks and one optional newline may follow a number. */
static int at_end(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\n')
        s++;
    return *s == '\0';
}

static unsigned quota_cpus(uint64_t quota, uint64_t period)
{
    uint64_t cpus;
    if (period == 0 || quota == 0)
        return 0;
    cpus = quota / period + (quota % period != 0);
    return cpus > NQ_CPU_COUNT_MAX ? NQ_CPU_COUNT_MAX : (unsigned)cpus;
}

unsigned nq_cpu_quota_v2(const char *cpu_max)
{
    const char *s = cpu_max;
    uint64_t quota, period;
    if (!s)
        return 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (strncmp(s, "max", 3) == 0)
        return 0;
    if (read_number(&quota, &s) != 0 || (*s != ' ' && *s != '\t') ||
        read_number(&period, &s) != 0 || !at_end(s))
        return 0;
    return quota_cpus(quota, period);
}

unsigned nq_cpu_quota_v1(const char *quota, const char *period)
{
    uint64_t q, p;
    if (!quota || !period || read_number(&q, &quota) != 0 || !at_end(quota) ||
        read_number(&p, &period) != 0 || !at_end(period))
        return 0; /* "-1" (no limit) lands here too */
    return quota_cpus(q, p);
}

int nq_cpu_cgroup_path(char *out, size_t size, const char *proc_cgroup,
                       const char *controller)
{
    const char *line = proc_cgroup;
    size_t want = controller ? strlen(controller) : 0;

    if (!out || size == 0 || !proc_cgroup)
        return -1;
    while (*line) {
        const char *end = strchr(line, '\n');
        const char *c1 = memchr(line, ':', end ? (size_t)(end - line) : strlen(line));
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;
        int match = 0;
        if (c2 && !controller) {
            match = c1 == line + 1 && line[0] == '0' && c2 == c1 + 1;
        } else if (c2) {
            const char *t = c1 + 1;  /* the controllers, comma-separated */
            while (t < c2 && !match) {
                const char *comma = memchr(t, ',', (size_t)(c2 - t));
                const char *stop = comma ? comma : c2;
                match = (size_t)(stop - t) == want && strncmp(t, controller, want) == 0;
                t = stop + 1;
            }
        }
        if (match) {
            size_t n = len - (size_t)(c2 + 1 - line);
            if (n == 0 || n >= size || c2[1] != '/')
                return -1;
            memcpy(out, c2 + 1, n);
            out[n] = '\0';
            return 0;
        }
        if (!end)
            break;
        line = end + 1;
    }
    return -1;
}

/* Reads a small text file whole into buf. @return 0, or -1. */
static int read_small(char *buf, size_t size, const char *path)
{
    FILE *f = fopen(path, "r");
    size_t n;
    int bad;
    if (!f)
        return -1;
    n = fread(buf, 1, size - 1, f);
    bad = ferror(f) || (!feof(f) && n == size - 1);
    fclose(f);
    if (bad)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* Drops the last component of a cgroup path: "/a/b" -> "/a" -> "" (the
 * hierarchy's root, as "/" becomes ""). @return 0, or -1 at the root. */
static int parent(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash || path[0] == '\0')
        return -1;
    *slash = '\0';
    return 0;
}

static unsigned smaller_quota(unsigned a, unsigned b)
{
    return a == 0 ? b : (b == 0 || a < b ? a : b);
}

/* The smallest quota of the cgroup `path` (of hierarchy `dir` under
 * /sys/fs/cgroup) and its ancestors; 0 when none has one. */
static unsigned walk_quota(const char *root, const char *dir, char *path, int v2)
{
    char file[PATH_MAX + 128], a[128], b[128];
    unsigned best = 0;
    if (strcmp(path, "/") == 0)
        path[0] = '\0';
    do {
        if (v2) {
            if ((size_t)snprintf(file, sizeof file, "%s/sys/fs/cgroup%s%s/cpu.max", root, dir,
                                 path) < sizeof file &&
                read_small(a, sizeof a, file) == 0)
                best = smaller_quota(best, nq_cpu_quota_v2(a));
        } else {
            if ((size_t)snprintf(file, sizeof file, "%s/sys/fs/cgroup%s%s/cpu.cfs_quota_us",
                                 root, dir, path) < sizeof file &&
                read_small(a, sizeof a, file) == 0 &&
                (size_t)snprintf(file, sizeof file, "%s/sys/fs/cgroup%s%s/cpu.cfs_period_us",
                                 root, dir, path) < sizeof file &&
                read_small(b, sizeof b, file) == 0)
                best = smaller_quota(best, nq_cpu_quota_v1(a, b));
        }
    } while (parent(path) == 0);
    return best;
}

unsigned nq_cpu_quota_at(const char *root)
{
    char proc[16384], file[PATH_MAX + 32], path[PATH_MAX];
    unsigned best = 0;

    if (!root)
        return 0;
    if ((size_t)snprintf(file, sizeof file, "%s/proc/self/cgroup", root) >= sizeof file ||
        read_small(proc, sizeof proc, file) != 0)
        return 0;
    /* a hybrid system has both: the smaller quota applies */
    if (nq_cpu_cgroup_path(path, sizeof path, proc, NULL) == 0)
        best = walk_quota(root, "", path, 1);
    if (nq_cpu_cgroup_path(path, sizeof path, proc, "cpu") == 0)
        best = smaller_quota(best, walk_quota(root, "/cpu", path, 0));
    return best;
}

unsigned nq_cpus_usable(void)
{
    unsigned cpus = nq_cpu_affinity_count();
    unsigned quota = nq_cpu_quota_at("");
    return quota && quota < cpus ? quota : cpus;
}
