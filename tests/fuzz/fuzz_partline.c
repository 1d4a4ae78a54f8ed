/*
 * libFuzzer target: nq_part_parse(), nq_part_checksum(), nq_merge_parts().
 *
 * The input is split into lines at '\n'. Each line is parsed; a refused
 * line must say why, with an offset inside the line; an accepted one must
 * hold values in range, and its canonical form (with a check field) must
 * read back as the same part. Then, when the accepted parts are of small
 * boards (so that the unit lists are cheap), they are merged: a merge that
 * succeeds must give sums equal to the published counts, in increasing n,
 * one per board size. A broken rule aborts. Build from the repository
 * root against the library's sources (tests/run.sh does this):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *       tests/fuzz/fuzz_partline.c src/<library sources>.c -o fuzz_partline
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "fuzz_check.h"

#define MAX_PARTS 64

static void check_round_trip(const nq_part *p)
{
    char line[400];
    nq_part again = NQ_PART_INIT;
    nq_partline_error e = NQ_PARTLINE_ERROR_INIT;
    int len;

    if (p->has_unique)
        len = snprintf(line, sizeof line,
                       " {\"check\":\"%016llx\", \"n\":%u,\"unique\":%llu,\"total\":%llu,"
                       "\"method\":\"%s\",\"part\":%lu,\"parts\":%lu,"
                       "\"unit_list_version\":%lu,\"seconds\":0.25}\r",
                       (unsigned long long)nq_part_checksum(p), p->n,
                       (unsigned long long)p->unique, (unsigned long long)p->total,
                       nq_method_name(p->method), (unsigned long)p->part,
                       (unsigned long)p->parts, (unsigned long)p->unit_list_version);
    else
        len = snprintf(line, sizeof line,
                       "{\"n\":%u,\"total\":%llu,\"method\":\"%s\",\"part\":%lu,"
                       "\"parts\":%lu,\"unit_list_version\":%lu,\"check\":\"%016llx\"}",
                       p->n, (unsigned long long)p->total, nq_method_name(p->method),
                       (unsigned long)p->part, (unsigned long)p->parts,
                       (unsigned long)p->unit_list_version,
                       (unsigned long long)nq_part_checksum(p));
    CHECK(len > 0 && (size_t)len < sizeof line);
    CHECK(nq_part_parse(&again, &e, line, (size_t)len) == NQ_OK);
    CHECK(again.has_check && e.fault == NQ_PARTLINE_OK);
    CHECK(again.n == p->n && again.method == p->method && again.total == p->total &&
          again.unique == p->unique && again.has_unique == p->has_unique &&
          again.part == p->part && again.parts == p->parts &&
          again.unit_list_version == p->unit_list_version);
    /* the total's last digit changed (never past 2^64 - 1): the check no
     * longer matches */
    line[len] = '\0';
    {
        char *t = strstr(line, "\"total\":");
        CHECK(t);
        t += 8;
        while (t[1] >= '0' && t[1] <= '9')
            t++;
        *t = (char)(((*t - '0') ^ 1) + '0');
        CHECK(nq_part_parse(&again, &e, line, (size_t)len) == NQ_EFORMAT);
        CHECK(e.fault == NQ_PARTLINE_DAMAGED);
    }
}

static int check_line(nq_part *out, const uint8_t *s, size_t len)
{
    nq_partline_error e = NQ_PARTLINE_ERROR_INIT;
    char buf[160];
    int rc;

    out->version = NQ_PART_VERSION;
    rc = nq_part_parse(out, &e, (const char *)s, len);

    CHECK(rc == NQ_OK || rc == NQ_EFORMAT);
    CHECK(nq_partline_error_format(buf, sizeof buf, &e) == NQ_OK);
    CHECK(memchr(buf, '\0', sizeof buf) != NULL);
    CHECK(memchr(e.key, '\0', sizeof e.key) != NULL);
    if (rc != NQ_OK) {
        CHECK(e.fault != NQ_PARTLINE_OK && e.offset <= len);
        return 0;
    }
    CHECK(e.fault == NQ_PARTLINE_OK);
    CHECK(out->n <= NQ_MAX_N && nq_method_name(out->method) &&
          out->method != NQ_METHOD_DEFAULT);
    CHECK(out->unit_list_version == nq_unit_list_version(out->method));
    CHECK(out->part >= 1 && out->part <= out->parts);
    CHECK(!out->has_unique ? out->unique == 0 : out->unique <= out->total);
    check_round_trip(out);
    return 1;
}

static void check_merge(const nq_part *parts, size_t count)
{
    nq_merge_summary out[MAX_PARTS] = { NQ_MERGE_SUMMARY_INIT };
    nq_merge_error e = NQ_MERGE_ERROR_INIT;
    size_t len = 99;
    int rc = nq_merge_parts(out, &len, &e, parts, count);

    CHECK(rc == NQ_OK || rc == NQ_EMISMATCH || rc == NQ_EOVERFLOW);
    if (rc != NQ_OK) {
        CHECK(e.fault != NQ_MERGE_OK && e.a < count && e.b < count);
        if (e.fault == NQ_MERGE_MISSING)
            CHECK(e.missing >= 1);
        return;
    }
    CHECK(len >= 1 && len <= count);
    for (size_t i = 0; i < len; i++) {
        uint64_t t, u;
        CHECK(i == 0 || out[i].n > out[i - 1].n);
        CHECK(nq_known(&t, &u, out[i].n) == NQ_OK);
        CHECK(out[i].total == t && (!out[i].has_unique || out[i].unique == u));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nq_part parts[MAX_PARTS];
    size_t count = 0, start = 0;
    int small = 1;

    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            if (count < MAX_PARTS && check_line(&parts[count], data + start, i - start)) {
                small &= parts[count].n <= 12; /* cheap unit lists */
                count++;
            }
            start = i + 1;
        }
    }
    if (count > 0 && small)
        check_merge(parts, count);
    return 0;
}
