/*
 * Verification: is a placement a solution, and if not, what is wrong first.
 *
 * A placement of n queens, one per row, is a solution when no column and no
 * diagonal holds two queens. Row r's queen at column c lies on the diagonal
 * r + c and on the anti-diagonal r - c + n - 1, both in 0 .. 2n - 2. Three
 * bitmaps with one bit per column or diagonal find the first row that lands
 * on a line an earlier row already holds, in one pass; before that row every
 * line holds at most one queen, so one more pass over the earlier rows finds
 * the (unique) row it collides with. That keeps the time O(n) and the
 * memory at 4n bits, 5 MB for n = 10^7, where arrays of row numbers per
 * line would take 40n bytes.
 *
 * Faults are reported by kind first, so the answer does not depend on the
 * order of the passes: an out-of-range column (the first such row), else a
 * repeated column, else a shared diagonal. See nq_verify() in the header.
 */
#include "nqueens.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>

typedef uint64_t word;
#define WORD_BITS 64u

/* Sets bit i, and returns whether it was set before. */
static int test_and_set(word *bits, size_t i)
{
    const word mask = (word)1 << (i % WORD_BITS);
    const int was = (bits[i / WORD_BITS] & mask) != 0;
    bits[i / WORD_BITS] |= mask;
    return was;
}

static size_t diagonal(size_t r, uint32_t c) { return r + c; }

static size_t antidiagonal(size_t r, uint32_t c, size_t n)
{
    return r + (n - 1) - c;
}

static void set_fault(nq_violation *out, nq_verify_fault fault, size_t a, size_t b)
{
    out->fault = fault;
    out->row_a = a;
    out->row_b = b;
}

/* nq_verify() into a struct of the current version. */
static int verify(nq_violation *out, const uint32_t *cols, size_t n)
{
    size_t r, b, words;
    word *seen;

    out->version = NQ_VIOLATION_VERSION;
    set_fault(out, NQ_VERIFY_OK, 0, 0);

    for (r = 0; r < n; r++) {
        if (cols[r] >= n) {
            set_fault(out, NQ_VERIFY_RANGE, r, r);
            return NQ_OK;
        }
    }
    if (n <= 1)
        return NQ_OK;

    /* One bitmap of 4n bits: the columns use its first n bits; cleared,
     * it then holds both kinds of diagonals. */
    if (n > (SIZE_MAX - WORD_BITS) / 4)
        return NQ_ENOMEM;
    words = (4 * n + WORD_BITS - 1) / WORD_BITS;
    seen = calloc(words, sizeof *seen);
    if (!seen)
        return NQ_ENOMEM;

    /* Columns. */
    for (b = 0; b < n; b++) {
        if (test_and_set(seen, cols[b]))
            break;
    }
    if (b < n) {
        for (r = 0; cols[r] != cols[b]; r++)
            ;
        set_fault(out, NQ_VERIFY_COLUMN, r, b);
        free(seen);
        return NQ_OK;
    }

    /* Diagonals: bits 0 .. 2n-2 for r + c, 2n .. 4n-2 for r - c + n - 1. */
    for (b = 0; b < words; b++)
        seen[b] = 0;
    for (b = 0; b < n; b++) {
        const int d = test_and_set(seen, diagonal(b, cols[b]));
        const int a = test_and_set(seen, 2 * n + antidiagonal(b, cols[b], n));
        if (d || a)
            break;
    }
    if (b < n) {
        const size_t d = diagonal(b, cols[b]);
        const size_t a = antidiagonal(b, cols[b], n);
        for (r = 0; r < b; r++) {
            if (diagonal(r, cols[r]) == d || antidiagonal(r, cols[r], n) == a)
                break;
        }
        set_fault(out, NQ_VERIFY_DIAGONAL, r, b);
    }
    free(seen);
    return NQ_OK;
}

int nq_verify(nq_violation *out, const uint32_t *cols, size_t n)
{
    nq_violation v;
    int rc;
    if (!out || (!cols && n > 0))
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_violation_layout, out))
        return NQ_EVERSION;
    rc = verify(&v, cols, n);
    if (rc == NQ_OK)
        nq_result_store(out, &v, &nq_violation_layout);
    return rc;
}

int nq_violation_format(char *out, size_t size, const nq_violation *violation,
                        const uint32_t *cols, size_t n)
{
    unsigned long long a, b;
    nq_violation full;
    const nq_violation *v = &full;

    if ((!out && size > 0) || !violation)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_violation_layout, violation))
        return NQ_EVERSION;
    nq_result_load(&full, sizeof full, violation, &nq_violation_layout);
    if (size == 0)
        return NQ_OK;
    a = (unsigned long long)v->row_a + 1;
    b = (unsigned long long)v->row_b + 1;
    if (cols && v->fault != NQ_VERIFY_OK
        && (v->row_a >= n || v->row_b >= n))
        cols = NULL; /* rows that are not in the placement: name rows only */

    switch (v->fault) {
    case NQ_VERIFY_OK:
        snprintf(out, size, "no two queens attack each other");
        break;
    case NQ_VERIFY_RANGE:
        if (cols)
            snprintf(out, size,
                     "row %llu: column %llu is out of range (1 to %llu)", a,
                     (unsigned long long)cols[v->row_a] + 1,
                     (unsigned long long)n);
        else
            snprintf(out, size, "row %llu: column out of range", a);
        break;
    case NQ_VERIFY_COLUMN:
        if (cols)
            snprintf(out, size, "rows %llu and %llu share column %llu", a, b,
                     (unsigned long long)cols[v->row_a] + 1);
        else
            snprintf(out, size, "rows %llu and %llu share a column", a, b);
        break;
    case NQ_VERIFY_DIAGONAL:
        if (cols)
            snprintf(out, size,
                     "rows %llu and %llu share a diagonal (columns %llu and %llu)",
                     a, b, (unsigned long long)cols[v->row_a] + 1,
                     (unsigned long long)cols[v->row_b] + 1);
        else
            snprintf(out, size, "rows %llu and %llu share a diagonal", a, b);
        break;
    default:
        snprintf(out, size, "unknown fault %d", (int)v->fault);
        break;
    }
    return NQ_OK;
}
