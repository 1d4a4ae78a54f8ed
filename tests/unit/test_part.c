/* Part lines: every rule of nq_part_parse(), damage found by the check
 * field, the description of each fault, and the fuzz seed corpus of the
 * part-line parser replayed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "test_parts.h"

static int parse(nq_part *p, nq_partline_error *e, const char *line)
{
    return nq_part_parse(p, e, line, strlen(line));
}

static void format_line(char *buf, size_t size, const nq_part *p, int check)
{
    int len = snprintf(buf, size, "{\"n\":%u,\"total\":%llu", p->n,
                       (unsigned long long)p->total);
    if (p->has_unique)
        len += snprintf(buf + len, size - (size_t)len, ",\"unique\":%llu",
                        (unsigned long long)p->unique);
    len += snprintf(buf + len, size - (size_t)len,
                    ",\"method\":\"%s\",\"part\":%lu,\"parts\":%lu,\"unit_list_version\":%lu",
                    nq_method_name(p->method), (unsigned long)p->part,
                    (unsigned long)p->parts, (unsigned long)p->unit_list_version);
    if (check)
        len += snprintf(buf + len, size - (size_t)len, ",\"check\":\"%016llx\"",
                        (unsigned long long)nq_part_checksum(p));
    snprintf(buf + len, size - (size_t)len, "}");
}

static void test_lines_are_read(void **state)
{
    nq_part p = NQ_PART_INIT, q = NQ_PART_INIT;
    nq_partline_error e = NQ_PARTLINE_ERROR_INIT;
    char line[300];
    (void)state;
    p = count_part(12, NQ_METHOD_SYMMETRY, 2, 3);
    format_line(line, sizeof line, &p, 1);
    assert_int_equal(parse(&q, &e, line), NQ_OK);
    assert_int_equal(e.fault, NQ_PARTLINE_OK);
    assert_int_equal(q.n, 12);
    assert_int_equal(q.total, p.total);
    assert_int_equal(q.unique, p.unique);
    assert_true(q.has_unique && q.has_check);
    assert_int_equal(q.part, 2);
    assert_int_equal(q.parts, 3);
    /* any key order, blanks, seconds, a CR: the same part */
    assert_int_equal(parse(&q, &e, " { \"parts\" : 3 ,\"part\":2,\"seconds\":1.5e-3,"
                                   "\"method\":\"plain\",\"total\":0,\"n\":12,"
                                   "\"unit_list_version\":1 }\r"), NQ_OK);
    assert_int_equal(q.method, NQ_METHOD_PLAIN);
    assert_false(q.has_unique);
    assert_false(q.has_check);
    /* a line of the symmetry method's version 2 below n = 28, where
     * version 3 kept the list, is read as version 3 */
    assert_int_equal(parse(&q, &e, "{\"n\":27,\"total\":8,\"unique\":1,\"method\":"
                                   "\"symmetry\",\"part\":1,\"parts\":9,"
                                   "\"unit_list_version\":2}"), NQ_OK);
    assert_int_equal(q.unit_list_version, 3);
    /* a part line may name the device that counted it */
    assert_int_equal(parse(&q, &e, "{\"n\":8,\"total\":92,\"method\":\"plain\",\"part\":1,"
                                   "\"parts\":1,\"unit_list_version\":1,\"device\":\"gpu\"}"),
                     NQ_OK);
    assert_int_equal(q.total, 92);
    /* the canonical text the checksum covers */
    p.n = 0;
    p.total = p.unique = 1;
    p.part = p.parts = 1;
    p.method = NQ_METHOD_SYMMETRY;
    p.has_unique = 1;
    p.unit_list_version = nq_unit_list_version(NQ_METHOD_SYMMETRY);
    {
        char canon[200];
        uint64_t h = UINT64_C(0xcbf29ce484222325);
        int len = snprintf(canon, sizeof canon,
                           "{\"n\":0,\"total\":1,\"unique\":1,\"method\":\"symmetry\","
                           "\"part\":1,\"parts\":1,\"unit_list_version\":%lu}",
                           (unsigned long)p.unit_list_version);
        for (int i = 0; i < len; i++)
            h = (h ^ (unsigned char)canon[i]) * UINT64_C(0x100000001b3);
        assert_int_equal(nq_part_checksum(&p), h);
    }
    assert_int_equal(nq_part_checksum(NULL), 0);
}

typedef struct bad_line {
    const char *line;
    nq_partline_fault fault;
    const char *key;
} bad_line;

static const bad_line bad_lines[] = {
    {"", NQ_PARTLINE_BLANK, ""},
    {" \t\r", NQ_PARTLINE_BLANK, ""},
    {"[1]", NQ_PARTLINE_SYNTAX, ""},
    {"{\"n\":1", NQ_PARTLINE_SYNTAX, ""},
    {"{\"n\":1}{", NQ_PARTLINE_SYNTAX, ""},
    {"{\"n\" 1}", NQ_PARTLINE_SYNTAX, ""},
    {"{\"n\\u0000\":1}", NQ_PARTLINE_SYNTAX, ""},
    {"{\"n\":1,}", NQ_PARTLINE_SYNTAX, ""},
    {"{\"colour\":1}", NQ_PARTLINE_KEY, "colour"},
    {"{\"n\":1,\"n\":1}", NQ_PARTLINE_TWICE, "n"},
    {"{}", NQ_PARTLINE_MISSING, "n"},
    {"{\"n\":1,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1}", NQ_PARTLINE_MISSING,
     "unit_list_version"},
    {"{\"n\":01}", NQ_PARTLINE_VALUE, "n"},
    {"{\"n\":-1}", NQ_PARTLINE_VALUE, "n"},
    {"{\"n\":1.0}", NQ_PARTLINE_VALUE, "n"},
    {"{\"n\":\"1\"}", NQ_PARTLINE_VALUE, "n"},
    {"{\"total\":18446744073709551616}", NQ_PARTLINE_VALUE, "total"},
    {"{\"method\":plain}", NQ_PARTLINE_VALUE, "method"},
    {"{\"seconds\":-1}", NQ_PARTLINE_VALUE, "seconds"},
    {"{\"seconds\":1.}", NQ_PARTLINE_VALUE, "seconds"},
    {"{\"check\":\"0123\"}", NQ_PARTLINE_VALUE, "check"},
    {"{\"check\":\"0123456789ABCDEF\"}", NQ_PARTLINE_VALUE, "check"},
    {"{\"device\":\"tpu\"}", NQ_PARTLINE_VALUE, "device"},
    {"{\"device\":\"cpus\"}", NQ_PARTLINE_VALUE, "device"},
    {"{\"device\":1}", NQ_PARTLINE_VALUE, "device"},
    /* a count's line names its device, but is no part */
    {"{\"n\":8,\"total\":92,\"method\":\"symmetry\",\"seconds\":0.001,"
     "\"device\":\"cpu\"}", NQ_PARTLINE_MISSING, "part"},
    {"{\"n\":99999,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PARTLINE_N, "n"},
    {"{\"n\":8,\"total\":1,\"method\":\"magic\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PARTLINE_METHOD, "method"},
    {"{\"n\":8,\"total\":1,\"method\":\"default\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PARTLINE_METHOD, "method"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":4000000000}", NQ_PARTLINE_VERSION, "unit_list_version"},
    /* a part of the join's unit list version 1, from before version 2 */
    {"{\"n\":24,\"total\":1,\"method\":\"join\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PARTLINE_VERSION, "unit_list_version"},
    /* the symmetry method's version 2 changed at n = 28 (version 3) */
    {"{\"n\":28,\"total\":8,\"method\":\"symmetry\",\"part\":1,\"parts\":9,"
     "\"unit_list_version\":2}", NQ_PARTLINE_VERSION, "unit_list_version"},
    {"{\"n\":20,\"total\":8,\"method\":\"symmetry\",\"part\":1,\"parts\":9,"
     "\"unit_list_version\":1}", NQ_PARTLINE_VERSION, "unit_list_version"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":0,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PARTLINE_RANGE, "part"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":3,\"parts\":2,"
     "\"unit_list_version\":1}", NQ_PARTLINE_RANGE, "part"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":4294967296,"
     "\"unit_list_version\":1}", NQ_PARTLINE_RANGE, "parts"},
    {"{\"n\":8,\"total\":1,\"unique\":0,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PARTLINE_UNIQUE, "unique"},
    {"{\"n\":8,\"total\":1,\"unique\":2,\"method\":\"symmetry\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":2}", NQ_PARTLINE_UNIQUE, "unique"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1,\"check\":\"0000000000000000\"}", NQ_PARTLINE_DAMAGED, "check"},
};

static void test_bad_lines_are_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
        nq_part p = NQ_PART_INIT;
        nq_partline_error e = NQ_PARTLINE_ERROR_INIT;
        char why[160];
        memset(&p, 0x5a, sizeof p);
        p.version = NQ_PART_VERSION;
        print_message("%s\n", bad_lines[i].line);
        assert_int_equal(parse(&p, &e, bad_lines[i].line), NQ_EFORMAT);
        assert_int_equal(e.fault, bad_lines[i].fault);
        assert_string_equal(e.key, bad_lines[i].key);
        assert_true(e.offset <= strlen(bad_lines[i].line));
        assert_int_equal(p.n, 0x5a5a5a5a); /* untouched */
        assert_int_equal(nq_partline_error_format(why, sizeof why, &e), NQ_OK);
        assert_true(strlen(why) > 5);
    }
    assert_int_equal(nq_part_parse(NULL, NULL, "{}", 2), NQ_EINVAL);
}

/* A damaged line: each digit of a checked line changed in turn. */
static void test_damage_is_found(void **state)
{
    nq_part p = count_part(13, NQ_METHOD_SYMMETRY, 1, 2), q = NQ_PART_INIT;
    nq_partline_error e = NQ_PARTLINE_ERROR_INIT;
    char line[300];
    size_t len;
    (void)state;
    format_line(line, sizeof line, &p, 1);
    len = strlen(line);
    for (size_t i = 0; i < len; i++) {
        char was = line[i];
        if (was < '0' || was > '9' || strstr(line, "\"check\"") < line + i)
            continue;
        line[i] = was == '9' ? '8' : (char)(was + 1);
        if (nq_part_parse(&q, &e, line, len) == NQ_OK)
            fail_msg("a changed digit at byte %zu went unnoticed: %s", i, line);
        line[i] = was;
    }
    assert_int_equal(nq_part_parse(&q, &e, line, len), NQ_OK);
}

/* Keep in step with tests/fuzz/corpus-partline. */
static const char *const part_seeds[] = {
    "binary", "faults", "huge", "missing_and_twice", "plain_9_of_2",
    "split_12_of_3", "two_sizes", "unchecked_10_of_2", "wrong_sum",
};

static void test_part_corpus(void **state)
{
    size_t good = 0, bad = 0;
    (void)state;
    for (size_t f = 0; f < sizeof part_seeds / sizeof part_seeds[0]; f++) {
        size_t len, start = 0, count = 0, out_len;
        char *buf = slurp(NQ_FUZZ_DIR "/corpus-partline", part_seeds[f], &len);
        nq_part parts[64];
        nq_merge_summary out[64] = { NQ_MERGE_SUMMARY_INIT };
        for (size_t i = 0; i <= len; i++) {
            if (i < len && buf[i] != '\n')
                continue;
            nq_partline_error e = NQ_PARTLINE_ERROR_INIT;
            int rc;
            parts[count].version = NQ_PART_VERSION;
            rc = nq_part_parse(&parts[count], &e, buf + start, i - start);
            assert_true(rc == NQ_OK || rc == NQ_EFORMAT);
            if (rc == NQ_OK && count < 63) {
                if (parts[count].has_check)
                    assert_true(nq_part_checksum(&parts[count]) != 0);
                count++;
                good++;
            } else if (rc != NQ_OK && e.fault != NQ_PARTLINE_BLANK) {
                bad++;
            }
            start = i + 1;
        }
        if (count) {
            int rc = nq_merge_parts(out, &out_len, NULL, parts, count);
            /* the seeds named for whole splits merge; the others do not */
            int whole = strstr(part_seeds[f], "split") || strstr(part_seeds[f], "plain") ||
                        strstr(part_seeds[f], "two") || strstr(part_seeds[f], "unchecked");
            assert_int_equal(rc == NQ_OK, whole);
        }
        free(buf);
    }
    assert_true(good >= 10 && bad >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_are_read),
        cmocka_unit_test(test_bad_lines_are_refused),
        cmocka_unit_test(test_damage_is_found),
        cmocka_unit_test(test_part_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
