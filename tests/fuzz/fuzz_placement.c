/*
 * libFuzzer target: nq_parse_placement(), nq_verify() and the two formatters.
 *
 * The input is split into lines at '\n'; each line is parsed, and every
 * placement is verified. Each answer is checked against a second, simple
 * implementation written here (a reference reading of the grammar, used
 * arrays for the verifier, pairwise checks for "first fault"), and a
 * mismatch aborts. Build and run from the repository root (about 65 s):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -fno-sanitize-recover=all -Iinclude tests/fuzz/fuzz_placement.c \
 *       src/solutions/parse.c src/solutions/verify.c -o fuzz_placement
 *   mkdir -p fuzz-new && ./fuzz_placement -max_total_time=60 -max_len=4096 \
 *       -timeout=10 fuzz-new tests/fuzz/corpus
 *
 * New inputs go to fuzz-new, never into the seed corpus, which
 * tests/unit/test_verify.c lists file by file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"
#include "fuzz_check.h"

static int blank(uint8_t ch) { return ch == ' ' || ch == '\t'; }
static int digit(uint8_t ch) { return ch >= '0' && ch <= '9'; }

/* The reference reading of the grammar in the header: the result, and on
 * failure the fault the parser must report. */
typedef struct expected {
    int status;       /* NQ_OK or NQ_EFORMAT */
    size_t rows;      /* on NQ_OK */
    nq_placement_fault fault;
    size_t offset, row; /* as in nq_placement_error, where they apply */
} expected;

static expected reference_parse(const uint8_t *s, size_t len)
{
    expected e = {NQ_EFORMAT, 0, NQ_PLACEMENT_OK, 0, 0};
    size_t i, tokens = 0, first = 0, first_len = 0;
    int bad_number = 0;
    if (len > 0 && s[len - 1] == '\r')
        len--;
    for (i = 0; i < len; i++) {
        if (!blank(s[i]) && !digit(s[i])) {
            e.fault = NQ_PLACEMENT_CHAR;
            e.offset = i;
            return e;
        }
    }
    i = 0;
    while (i < len) {
        size_t start, j, significant;
        if (blank(s[i])) {
            i++;
            continue;
        }
        start = i;
        while (i < len && digit(s[i]))
            i++;
        if (tokens == 0) {
            first = start;
            first_len = i - start;
        }
        /* its value: skip leading zeros, compare as text with 4294967295 */
        for (j = start; j < i && s[j] == '0'; j++)
            ;
        significant = i - j;
        if (!bad_number && (significant == 0 || significant > 10
                            || (significant == 10
                                && memcmp(s + j, "4294967295", 10) > 0))) {
            bad_number = 1;
            e.fault = significant == 0 ? NQ_PLACEMENT_ZERO : NQ_PLACEMENT_OVERFLOW;
            e.offset = start;
            e.row = tokens;
        }
        tokens++;
    }
    if (tokens == 0) {
        e.status = NQ_OK; /* the empty board */
        e.fault = NQ_PLACEMENT_OK;
        return e;
    }
    if (tokens == 1) {
        const uint8_t *zero = memchr(s + first, '0', first_len);
        if (zero) {
            e.fault = NQ_PLACEMENT_ZERO;
            e.offset = (size_t)(zero - s);
            e.row = e.offset - first;
            return e;
        }
        e.status = NQ_OK;
        e.rows = first_len;
        e.fault = NQ_PLACEMENT_OK; /* a long token is fine in compact form */
        return e;
    }
    if (bad_number)
        return e;
    e.status = NQ_OK;
    e.rows = tokens;
    e.fault = NQ_PLACEMENT_OK;
    return e;
}

/* O(n) with used arrays: is this a solution? */
static int reference_valid(const uint32_t *cols, size_t n)
{
    unsigned char *used = calloc(5 * n + 1, 1);
    size_t r;
    int ok = 1;
    CHECK(used);
    for (r = 0; r < n && ok; r++) {
        const size_t c = cols[r];
        if (c >= n || used[c] || used[n + r + c] || used[3 * n + r + n - 1 - c])
            ok = 0;
        else
            used[c] = used[n + r + c] = used[3 * n + r + n - 1 - c] = 1;
    }
    free(used);
    return ok;
}

static int attack(const uint32_t *cols, size_t a, size_t b, nq_verify_fault kind)
{
    const uint32_t ca = cols[a], cb = cols[b];
    if (kind == NQ_VERIFY_COLUMN)
        return ca == cb;
    return (ca > cb ? ca - cb : cb - ca) == b - a;
}

/* The reported fault is real, and the first one by the documented rule. */
static void check_verdict(const nq_violation *v, const uint32_t *cols, size_t n)
{
    size_t r, a, b;
    const nq_verify_fault kinds[2] = {NQ_VERIFY_COLUMN, NQ_VERIFY_DIAGONAL};
    int k;

    CHECK((v->fault == NQ_VERIFY_OK) == reference_valid(cols, n));
    for (r = 0; r < n; r++) {
        if (cols[r] >= n) {
            CHECK(v->fault == NQ_VERIFY_RANGE && v->row_a == r && v->row_b == r);
            return;
        }
    }
    if (n > 2048)
        return; /* the pairwise search below is quadratic */
    for (k = 0; k < 2; k++) {
        for (b = 1; b < n; b++) {
            for (a = 0; a < b; a++) {
                if (attack(cols, a, b, kinds[k])) {
                    CHECK(v->fault == kinds[k] && v->row_a == a
                          && v->row_b == b);
                    return;
                }
            }
        }
    }
    CHECK(v->fault == NQ_VERIFY_OK);
}

static void check_format_violation(const nq_violation *v, const uint32_t *cols,
                                   size_t n)
{
    char buf[256];
    size_t sizes[3] = {1, 9, sizeof buf}, i;
    for (i = 0; i < 3; i++) {
        memset(buf, 'x', sizeof buf);
        CHECK(nq_violation_format(buf, sizes[i], v, cols, n) == NQ_OK);
        CHECK(memchr(buf, '\0', sizes[i]) != NULL);
    }
}

static void check_line(const uint8_t *s, size_t len)
{
    static uint32_t sentinel;
    uint32_t *cols = &sentinel; /* must be overwritten */
    size_t n = 99, i;
    nq_placement_error err = NQ_PLACEMENT_ERROR_INIT;
    char buf[256];
    const expected e = reference_parse(s, len);
    const int st = nq_parse_placement(&cols, &n, &err, (const char *)s, len);

    CHECK(st == NQ_OK || st == NQ_EFORMAT || st == NQ_ENOMEM);
    if (st == NQ_ENOMEM)
        return;
    CHECK(st == e.status && err.fault == e.fault);
    CHECK(nq_placement_error_format(buf, sizeof buf, &err) == NQ_OK);
    CHECK(memchr(buf, '\0', sizeof buf) != NULL);

    if (st != NQ_OK) {
        CHECK(cols == NULL && n == 0);
        if (err.fault == NQ_PLACEMENT_CHAR)
            CHECK(err.offset == e.offset && err.byte == s[e.offset]);
        if (err.fault == NQ_PLACEMENT_ZERO || err.fault == NQ_PLACEMENT_OVERFLOW)
            CHECK(err.offset == e.offset && err.row == e.row);
        return;
    }

    CHECK(n == e.rows);
    if (n == 0) {
        nq_violation v = NQ_VIOLATION_INIT;
        CHECK(cols == NULL);
        CHECK(nq_verify(&v, cols, n) == NQ_OK && v.fault == NQ_VERIFY_OK);
        return;
    }
    CHECK(cols != NULL);
    {
        nq_violation v = NQ_VIOLATION_INIT;
        CHECK(nq_verify(&v, cols, n) == NQ_OK);
        check_verdict(&v, cols, n);
        check_format_violation(&v, cols, n);
    }

    /* Written back out spaced (n >= 2) or as one digit, it reads the same. */
    if (n >= 2 || cols[0] < 9) {
        char *text = malloc(n * 11 + 1), *p = text;
        uint32_t *again = NULL;
        size_t m = 0;
        CHECK(text);
        for (i = 0; i < n; i++) {
            uint64_t value = (uint64_t)cols[i] + 1;
            char digits[12];
            int k = 0;
            do {
                digits[k++] = (char)('0' + value % 10);
                value /= 10;
            } while (value);
            while (k > 0)
                *p++ = digits[--k];
            *p++ = ' ';
        }
        CHECK(nq_parse_placement(&again, &m, NULL, text, (size_t)(p - text))
              == NQ_OK);
        CHECK(m == n && memcmp(again, cols, n * sizeof *cols) == 0);
        free(again);
        free(text);
    }
    free(cols);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t start = 0, i;
    for (i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            check_line(data + start, i - start);
            start = i + 1;
        }
    }
    return 0;
}
