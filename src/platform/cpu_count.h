/*
 * cpu_count.h - how many CPUs this process may use: the default number of
 * worker threads of a count (opts.threads = 0).
 *
 * Two limits apply, as `nproc` and container-aware runtimes see them: the
 * affinity mask (taskset, Slurm's --cpus-per-task, GNU parallel's
 * pinning), and a cgroup CPU quota (docker --cpus, systemd's CPUQuota=,
 * Kubernetes limits), which allows quota/period CPUs' worth of time in
 * each period. The answer is the smaller of the two, rounded up, and at
 * least 1 (nq_cpus_usable(), in the public header). The readers of the
 * cgroup files are separate functions that take the files' text, or a
 * root to read them under, so that tests can feed them samples.
 */
#ifndef NQ_CPU_COUNT_H
#define NQ_CPU_COUNT_H

#include <stddef.h>

/* Most threads a default count starts, whatever the machine says. */
#define NQ_CPU_COUNT_MAX 1024u

/* @return the CPUs in this thread's affinity mask (sched_getaffinity), or,
 * where that is unavailable, the online CPUs; 1 to NQ_CPU_COUNT_MAX. */
unsigned nq_cpu_affinity_count(void);

/* A cgroup v2 `cpu.max` file's text ("QUOTA PERIOD" or "max PERIOD").
 * @return ceil(QUOTA / PERIOD), at least 1, for a quota; 0 for "max" (no
 *         limit) and for text that does not read as either. */
unsigned nq_cpu_quota_v2(const char *cpu_max);

/* The text of cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us`.
 * @return ceil(quota / period), at least 1; 0 for no limit (a quota of
 *         -1) and for text that does not read as numbers. */
unsigned nq_cpu_quota_v1(const char *quota, const char *period);

/* The cgroup of this process for one hierarchy, from the text of
 * /proc/self/cgroup (lines "ID:CONTROLLERS:PATH"): for cgroup v2
 * (controller = NULL) the line "0::PATH", for v1 the line whose
 * comma-separated controllers include `controller`.
 * @return 0 with PATH in out (NUL-terminated), or -1: no such line, or
 *         PATH does not fit in size bytes. */
int nq_cpu_cgroup_path(char *out, size_t size, const char *proc_cgroup,
                       const char *controller);

/* The CPU quota of this process's cgroup and of each cgroup above it (the
 * smallest applies), read from files under `root` ("" for the real
 * /proc and /sys): v2's ROOT/sys/fs/cgroup/PATH/cpu.max, else v1's
 * ROOT/sys/fs/cgroup/cpu/PATH/cpu.cfs_{quota,period}_us.
 * @return the quota in CPUs, rounded up; 0 when there is none or it
 *         cannot be read. */
unsigned nq_cpu_quota_at(const char *root);

#endif /* NQ_CPU_COUNT_H */
