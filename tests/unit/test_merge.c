/* Part lines and merging: every rule of nq_part_parse() and
 * nq_merge_parts(), real splits added up, and the fuzz seed corpora of the
 * part-line parser and the checkpoint loader replayed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint/checkpoint.h"
#include "known_values.h"
#include "nqueens.h"

static int parse(nq_part *p, nq_part_error *e, const char *line)
{
    return nq_part_parse(p, e, line, strlen(line));
}

/* The part line that `nqueens --part k/m --json` writes, counted here. */
static nq_part count_part(unsigned n, nq_method m, uint32_t k, uint32_t parts)
{
    nq_count_options o = NQ_COUNT_OPTIONS_INIT;
    nq_count_result r;
    nq_part p;
    o.method = m;
    o.part_k = k;
    o.part_m = parts;
    o.threads = 2;
    assert_int_equal(nq_count(&r, n, &o), NQ_OK);
    memset(&p, 0, sizeof p);
    p.n = n;
    p.method = r.method;
    p.unit_list_version = nq_unit_list_version(r.method);
    p.part = k;
    p.parts = parts;
    p.total = r.total;
    p.unique = r.has_unique ? r.unique : 0;
    p.has_unique = r.has_unique;
    return p;
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
    nq_part p, q;
    nq_part_error e;
    char line[300];
    (void)state;
    p = count_part(12, NQ_METHOD_SYMMETRY, 2, 3);
    format_line(line, sizeof line, &p, 1);
    assert_int_equal(parse(&q, &e, line), NQ_OK);
    assert_int_equal(e.fault, NQ_PART_OK);
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
    nq_part_fault fault;
    const char *key;
} bad_line;

static const bad_line bad_lines[] = {
    {"", NQ_PART_BLANK, ""},
    {" \t\r", NQ_PART_BLANK, ""},
    {"[1]", NQ_PART_SYNTAX, ""},
    {"{\"n\":1", NQ_PART_SYNTAX, ""},
    {"{\"n\":1}{", NQ_PART_SYNTAX, ""},
    {"{\"n\" 1}", NQ_PART_SYNTAX, ""},
    {"{\"n\\u0000\":1}", NQ_PART_SYNTAX, ""},
    {"{\"n\":1,}", NQ_PART_SYNTAX, ""},
    {"{\"colour\":1}", NQ_PART_KEY, "colour"},
    {"{\"n\":1,\"n\":1}", NQ_PART_TWICE, "n"},
    {"{}", NQ_PART_MISSING, "n"},
    {"{\"n\":1,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1}", NQ_PART_MISSING,
     "unit_list_version"},
    {"{\"n\":01}", NQ_PART_VALUE, "n"},
    {"{\"n\":-1}", NQ_PART_VALUE, "n"},
    {"{\"n\":1.0}", NQ_PART_VALUE, "n"},
    {"{\"n\":\"1\"}", NQ_PART_VALUE, "n"},
    {"{\"total\":18446744073709551616}", NQ_PART_VALUE, "total"},
    {"{\"method\":plain}", NQ_PART_VALUE, "method"},
    {"{\"seconds\":-1}", NQ_PART_VALUE, "seconds"},
    {"{\"seconds\":1.}", NQ_PART_VALUE, "seconds"},
    {"{\"check\":\"0123\"}", NQ_PART_VALUE, "check"},
    {"{\"check\":\"0123456789ABCDEF\"}", NQ_PART_VALUE, "check"},
    {"{\"n\":99999,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PART_N, "n"},
    {"{\"n\":8,\"total\":1,\"method\":\"magic\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PART_METHOD, "method"},
    {"{\"n\":8,\"total\":1,\"method\":\"default\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PART_METHOD, "method"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":4000000000}", NQ_PART_VERSION, "unit_list_version"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":0,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PART_RANGE, "part"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":3,\"parts\":2,"
     "\"unit_list_version\":1}", NQ_PART_RANGE, "part"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":4294967296,"
     "\"unit_list_version\":1}", NQ_PART_RANGE, "parts"},
    {"{\"n\":8,\"total\":1,\"unique\":0,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1}", NQ_PART_UNIQUE, "unique"},
    {"{\"n\":8,\"total\":1,\"unique\":2,\"method\":\"symmetry\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":2}", NQ_PART_UNIQUE, "unique"},
    {"{\"n\":8,\"total\":1,\"method\":\"plain\",\"part\":1,\"parts\":1,"
     "\"unit_list_version\":1,\"check\":\"0000000000000000\"}", NQ_PART_DAMAGED, "check"},
};

static void test_bad_lines_are_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
        nq_part p;
        nq_part_error e;
        char why[160];
        memset(&p, 0x5a, sizeof p);
        print_message("%s\n", bad_lines[i].line);
        assert_int_equal(parse(&p, &e, bad_lines[i].line), NQ_EFORMAT);
        assert_int_equal(e.fault, bad_lines[i].fault);
        assert_string_equal(e.key, bad_lines[i].key);
        assert_true(e.offset <= strlen(bad_lines[i].line));
        assert_int_equal(p.n, 0x5a5a5a5a); /* untouched */
        assert_int_equal(nq_part_error_format(why, sizeof why, &e), NQ_OK);
        assert_true(strlen(why) > 5);
    }
    assert_int_equal(nq_part_parse(NULL, NULL, "{}", 2), NQ_EINVAL);
}

/* A damaged line: each digit of a checked line changed in turn. */
static void test_damage_is_found(void **state)
{
    nq_part p = count_part(13, NQ_METHOD_SYMMETRY, 1, 2), q;
    nq_part_error e;
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

static void test_real_splits_add_up(void **state)
{
    nq_part parts[16];
    nq_merged out[16];
    size_t len = 0, count = 0;
    (void)state;
    for (uint32_t k = 7; k >= 1; k--) /* any order */
        parts[count++] = count_part(12, NQ_METHOD_SYMMETRY, k, 7);
    for (uint32_t k = 1; k <= 3; k++)
        parts[count++] = count_part(10, NQ_METHOD_PLAIN, k, 3);
    parts[count++] = count_part(0, NQ_METHOD_SYMMETRY, 1, 1);
    assert_int_equal(nq_merge_parts(out, &len, NULL, parts, count), NQ_OK);
    assert_int_equal(len, 3);
    assert_int_equal(out[0].n, 0);
    assert_int_equal(out[0].total, 1);
    assert_int_equal(out[1].n, 10);
    assert_int_equal(out[1].total, test_known[10].total);
    assert_false(out[1].has_unique);
    assert_int_equal(out[2].n, 12);
    assert_int_equal(out[2].total, test_known[12].total);
    assert_int_equal(out[2].unique, test_known[12].unique);
    assert_int_equal(out[2].parts, 7);
}

static void test_bad_sets_are_refused(void **state)
{
    nq_part parts[8], big;
    nq_merged out[8];
    nq_merge_error e;
    size_t len = 77;
    uint64_t units;
    (void)state;

    for (uint32_t k = 1; k <= 5; k++)
        parts[k - 1] = count_part(11, NQ_METHOD_SYMMETRY, k, 5);
    /* complete: fine */
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 5), NQ_OK);
    /* parts 2 and 4 missing */
    parts[1] = parts[4];
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 3), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_MISSING);
    assert_int_equal(e.missing, 2);
    assert_int_equal(e.first_missing[0], 2);
    assert_int_equal(e.first_missing[1], 4);
    /* part 5 twice */
    parts[3] = parts[4];
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 5), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_TWICE);
    assert_int_equal(e.a, 1); /* the first two copies, by index */
    assert_int_equal(e.b, 3);
    /* another split */
    parts[1] = count_part(11, NQ_METHOD_SYMMETRY, 2, 6);
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 2), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_SPLIT);
    assert_int_equal(e.n, 11);
    parts[1] = count_part(11, NQ_METHOD_PLAIN, 2, 5);
    len = 77;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 2), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_SPLIT);
    assert_int_equal(len, 77); /* untouched on failure */

    /* more parts than units; one line of 2^32 - 1 parts costs nothing */
    big = count_part(11, NQ_METHOD_SYMMETRY, 1, 1);
    big.parts = UINT32_MAX;
    assert_int_equal(nq_units(&units, 11, NQ_METHOD_SYMMETRY), NQ_OK);
    assert_int_equal(nq_merge_parts(out, &len, &e, &big, 1), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_UNITS);
    assert_int_equal(e.expected, units);

    /* sums that wrap around 2^64 (n = 28 has no published count) */
    parts[0] = count_part(5, NQ_METHOD_PLAIN, 1, 2);
    parts[1] = count_part(5, NQ_METHOD_PLAIN, 2, 2);
    parts[0].n = parts[1].n = 28;
    parts[0].total = UINT64_MAX - 3;
    parts[1].total = 10;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 2), NQ_EOVERFLOW);
    assert_int_equal(e.fault, NQ_MERGE_OVERFLOW);
    /* a sum that is not the published count */
    parts[0] = count_part(9, NQ_METHOD_SYMMETRY, 1, 1);
    parts[0].total++;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 1), NQ_EMISMATCH);
    assert_int_equal(e.fault, NQ_MERGE_KNOWN);
    assert_int_equal(e.expected, test_known[9].total);
    assert_int_equal(e.got, test_known[9].total + 1);
    parts[0].total--;
    parts[0].unique--;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 1), NQ_EMISMATCH);
    assert_true(e.unique_known);
    /* what no parse returns */
    parts[0].parts = 0;
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 1), NQ_EINVAL);
    assert_int_equal(nq_merge_parts(out, &len, &e, parts, 0), NQ_EINVAL);
}

/* ---- the seed corpora --------------------------------------------------- */
static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    FILE *f;
    char *buf = malloc(1 << 16);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    assert_non_null(buf);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
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
        nq_merged out[64];
        for (size_t i = 0; i <= len; i++) {
            if (i < len && buf[i] != '\n')
                continue;
            nq_part_error e;
            int rc = nq_part_parse(&parts[count], &e, buf + start, i - start);
            assert_true(rc == NQ_OK || rc == NQ_EFORMAT);
            if (rc == NQ_OK && count < 63) {
                if (parts[count].has_check)
                    assert_true(nq_part_checksum(&parts[count]) != 0);
                count++;
                good++;
            } else if (rc != NQ_OK && e.fault != NQ_PART_BLANK) {
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

/* Keep in step with tests/fuzz/corpus-checkpoint. */
static const struct {
    const char *name;
    int status;
} ckpt_seeds[] = {
    {"flipped", NQ_EFORMAT},        {"header_only", NQ_EFORMAT},
    {"n4_plain_one", NQ_EMISMATCH}, {"n6_plain_whole", NQ_EMISMATCH},
    {"n8_symmetry_part", NQ_OK},    {"n8_symmetry_whole", NQ_OK},
    {"truncated", NQ_EFORMAT},
};

static void test_checkpoint_corpus(void **state)
{
    uint64_t units;
    nq_ckpt_expect want;
    (void)state;
    assert_int_equal(nq_units(&units, 8, NQ_METHOD_SYMMETRY), NQ_OK);
    want.n = 8;
    want.method = NQ_METHOD_SYMMETRY;
    want.list_version = nq_unit_list_version(NQ_METHOD_SYMMETRY);
    want.units_total = units;
    want.has_unique = 1;
    want.max_total = test_known[8].total;
    for (size_t f = 0; f < sizeof ckpt_seeds / sizeof ckpt_seeds[0]; f++) {
        size_t len;
        unsigned char *buf =
            (unsigned char *)slurp(NQ_FUZZ_DIR "/corpus-checkpoint", ckpt_seeds[f].name, &len);
        print_message("%s\n", ckpt_seeds[f].name);
        assert_int_equal(nq_ckpt_decode(buf, len, &want, NULL, NULL), ckpt_seeds[f].status);
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_are_read),
        cmocka_unit_test(test_bad_lines_are_refused),
        cmocka_unit_test(test_damage_is_found),
        cmocka_unit_test(test_real_splits_add_up),
        cmocka_unit_test(test_bad_sets_are_refused),
        cmocka_unit_test(test_part_corpus),
        cmocka_unit_test(test_checkpoint_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
