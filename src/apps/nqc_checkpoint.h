/*
 * What nqueens and nqueens-mpi both say and decide about a checkpoint
 * file, through the public API only: which method a count with a
 * checkpoint runs, why a file does not fit a count, and which file a
 * failure to open one is about (the checkpoint, its lock file or its
 * folder). The file's facts come from one nq_checkpoint_peek() made
 * before it is opened, so that a refusal reads the file no more than the
 * count would.
 */
#ifndef NQC_CHECKPOINT_H
#define NQC_CHECKPOINT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nqueens.h"

/*! nqc_checkpoint_method() : the method of a count of n with a checkpoint
 *  whose header is `file` (NULL when there is none, or it cannot be read):
 *  the one asked for if any; else the one that made the file, so that a
 *  run of another default resumes as it began; else NQ_METHOD_DEFAULT. */
static inline nq_method nqc_checkpoint_method(nq_method asked, unsigned n,
                                              const nq_checkpoint_info *file)
{
    if (asked == NQ_METHOD_DEFAULT && file && file->n == n &&
        nq_method_name(file->method) != NULL)
        return file->method;
    return asked;
}

/*! nqc_method_counts_unique() : 1 if method m counts unique solutions (a
 *  count of it with unique set is not refused with NQ_EMETHOD). */
static inline int nqc_method_counts_unique(nq_method m)
{
    nq_count_options co = NQ_COUNT_OPTIONS_INIT;
    uint64_t bytes;
    co.method = m;
    co.unique = 1;
    return nq_memory(&bytes, 8, &co) != NQ_EMETHOD;
}

/*! nqc_checkpoint_mismatch() : after nq_checkpoint_open(n, method) answered
 *  NQ_EMISMATCH, writes in buf what differs between the file (its header
 *  `file`, NULL if unknown) and the count (`unique`: of unique solutions
 *  too), as "holds n = 17, not 16", with the way out where there is one
 *  that works: the file's method, without --unique where that method
 *  counts totals only. */
static inline void nqc_checkpoint_mismatch(char *buf, size_t size,
                                           const nq_checkpoint_info *file,
                                           unsigned n, nq_method method, int unique)
{
    nq_checkpoint_info want = NQ_CHECKPOINT_INFO_INIT;
    nq_checkpoint *mem = NULL;
    const char *fm = file ? nq_method_name(file->method) : NULL;
    /* what the count expects, from a checkpoint in memory only */
    int known = file && nq_checkpoint_open(&mem, NULL, n, method) == NQ_OK &&
                nq_checkpoint_info_get(&want, mem) == NQ_OK;

    nq_checkpoint_close(mem);
    if (known && file->n != want.n)
        snprintf(buf, size, "holds n = %u, not %u", file->n, want.n);
    else if (known && file->method != want.method && fm && unique &&
             !nqc_method_counts_unique(file->method))
        snprintf(buf, size, "holds method %s, not %s (the %s method counts totals only: "
                            "--method=%s without --unique resumes it)",
                 fm, nq_method_name(want.method), fm, fm);
    else if (known && file->method != want.method && fm)
        snprintf(buf, size, "holds method %s, not %s (--method=%s resumes it)", fm,
                 nq_method_name(want.method), fm);
    else if (known && file->method != want.method)
        snprintf(buf, size, "holds method number %u, which this version does "
                            "not know", (unsigned)file->method);
    else if (known && file->unit_list_version != want.unit_list_version)
        snprintf(buf, size, "holds unit list version %lu of the %s method, not %lu "
                            "(made by another version of nqueens)",
                 (unsigned long)file->unit_list_version, nq_method_name(want.method),
                 (unsigned long)want.unit_list_version);
    else if (known && file->units_total != want.units_total)
        snprintf(buf, size, "holds %llu units, not %llu",
                 (unsigned long long)file->units_total,
                 (unsigned long long)want.units_total);
    else
        snprintf(buf, size, "belongs to another board size, method or version of "
                            "the unit list");
}

/* 1 if errno value e says that a file could not be made. */
static inline int nqc_cannot_make(int e)
{
#ifdef EDQUOT
    if (e == EDQUOT)
        return 1;
#endif
    return e == EACCES || e == EPERM || e == EROFS || e == ENOSPC;
}

/*! nqc_checkpoint_open_error() : after nq_checkpoint_open(path) or
 *  nq_checkpoint_load(path) answered rc (not NQ_EMISMATCH: see above),
 *  with errno `e` as it left it, writes in buf why, naming the file at
 *  fault: `path` (quoted for printing as `name`), its lock file, or its
 *  folder, where no new file can be made (the lock file and a save's
 *  temporary files go there). An error of making a file while `path`
 *  itself is absent or readable can only be the folder's. */
static inline void nqc_checkpoint_open_error(char *buf, size_t size, int rc, int e,
                                             const char *path, const char *name)
{
    struct stat st;
    const int found = lstat(path, &st) == 0;
    const int absent = !found && errno == ENOENT;

    switch (rc) {
    case NQ_ELOCK:
        if (e == ELOOP)
            snprintf(buf, size, "%s.lock: the checkpoint's lock file is a symbolic link "
                                "(never followed)", name);
        else if (e == EISDIR)
            snprintf(buf, size, "%s.lock: the checkpoint's lock file is a folder", name);
        else if (e == EINVAL)
            snprintf(buf, size, "%s.lock: the checkpoint's lock file is not a regular file",
                     name);
        else if (e == ENOENT && absent)
            snprintf(buf, size, "%s: %s", name, strerror(e)); /* no such folder */
        else if (e == ENOENT)
            snprintf(buf, size, "%s.lock: cannot make the checkpoint's lock file: its "
                                "folder takes no new files", name);
        else if (nqc_cannot_make(e))
            snprintf(buf, size, "%s.lock: cannot make the checkpoint's lock file: %s", name,
                     strerror(e));
        else
            snprintf(buf, size, "%s.lock: cannot take the checkpoint's lock: %s", name,
                     strerror(e));
        break;
    case NQ_EIO:
        if (e == ELOOP)
            snprintf(buf, size, "%s: a symbolic link, which a checkpoint never follows "
                                "(name the file itself)", name);
        else if (nqc_cannot_make(e) && (absent || access(path, R_OK) == 0))
            snprintf(buf, size, "%s: cannot make files in its folder: %s", name,
                     strerror(e));
        else
            snprintf(buf, size, "%s: %s", name, strerror(e));
        break;
    case NQ_EFORMAT:
        if (found && !S_ISREG(st.st_mode))
            snprintf(buf, size, "%s: not a regular file", name);
        else
            snprintf(buf, size, "%s: not a checkpoint, or truncated or corrupted", name);
        break;
    default:
        snprintf(buf, size, "%s: %s", name, nq_strerror(rc));
        break;
    }
}

/* The way out of a checkpoint with a wrong record, after "... is wrong"
 * (one %s: the file's name). */
#define NQC_RECHECK_HINT                                                        \
    "; 'nqueens --recheck %s' finds the bad units (or start afresh with a new " \
    "checkpoint file)"

/*! nqc_published_mismatch() : after a finished count of n came out as
 *  `total` (and `unique`, when has_unique) where the published counts are
 *  known_total and known_unique (nq_count() answered NQ_EPUBLISHED),
 *  writes in buf the line that says so, with both numbers, and how to find
 *  the units counted wrong: `name` (quoted for printing) is the checkpoint
 *  the count resumed or recorded into, NULL if none. */
static inline void nqc_published_mismatch(char *buf, size_t size, unsigned n,
                                          uint64_t total, uint64_t unique, int has_unique,
                                          uint64_t known_total, uint64_t known_unique,
                                          const char *name)
{
    int len;
    if (has_unique && unique != known_unique)
        len = snprintf(buf, size, "n = %u: the count gives %llu solutions, %llu unique, not "
                                  "the published %llu and %llu",
                       n, (unsigned long long)total, (unsigned long long)unique,
                       (unsigned long long)known_total, (unsigned long long)known_unique);
    else
        len = snprintf(buf, size, "n = %u: the count gives %llu solutions, not the "
                                  "published %llu",
                       n, (unsigned long long)total, (unsigned long long)known_total);
    if (len < 0 || (size_t)len >= size)
        return;
    if (name)
        snprintf(buf + len, size - (size_t)len,
                 ": a record of %s is wrong, or a unit counted now" NQC_RECHECK_HINT, name,
                 name);
    else
        snprintf(buf + len, size - (size_t)len,
                 ": a fault of the GPU, the machine or the program; count again with "
                 "--checkpoint FILE, and 'nqueens --recheck FILE' finds the units "
                 "counted wrong");
}

/*! nqc_published_passed() : after a count that resumed the checkpoint
 *  `name` (quoted for printing) failed with NQ_EOVERFLOW (its records and
 *  the units counted since add up past the published count of n,
 *  `known_total`), writes in buf the line that blames the file (or the
 *  units counted now: a --recheck of the file tells which). */
static inline void nqc_published_passed(char *buf, size_t size, unsigned n,
                                        uint64_t known_total, const char *name)
{
    snprintf(buf, size,
             "n = %u: the records of %s and the units counted now add up to more than "
             "the published %llu: a record of %s is wrong, or a unit counted now"
             NQC_RECHECK_HINT,
             n, name, (unsigned long long)known_total, name, name);
}

#endif
