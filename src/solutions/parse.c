/*
 * Parsing: one line of text into a placement.
 *
 * The grammar is small: 1-based columns in decimal, separated by spaces or
 * tabs, optional blanks around them and one optional '\r' at the end (a
 * line from a CRLF file). A line with no columns at all is the placement
 * of the empty board, n = 0, which is what `nqueens --list 0` prints. A line of a single token is the compact form, one
 * digit per row ("15863724"); that makes "12" two rows, not one queen in
 * column 12, and a one-queen placement is written "1". See the header for
 * the order in which faults are reported.
 *
 * Two passes over the bytes, no recursion, no reallocation: the first
 * checks everything and counts the rows, so the array is allocated at its
 * final size and the second pass only converts. Both passes are linear, so
 * a line of millions of numbers costs a few milliseconds. Numbers are read
 * with an overflow check against UINT32_MAX (the largest 1-based column
 * whose 0-based value fits in uint32_t is UINT32_MAX itself).
 */
#include "nqueens.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>

static int is_blank(unsigned char ch) { return ch == ' ' || ch == '\t'; }
static int is_digit(unsigned char ch) { return ch >= '0' && ch <= '9'; }

static void set_error(nq_placement_error *err, nq_placement_fault fault,
                      size_t offset, size_t row, unsigned char byte)
{
    err->version = NQ_PLACEMENT_ERROR_VERSION;
    err->fault = fault;
    err->offset = offset;
    err->row = row;
    err->byte = byte;
}

static int fail(nq_placement_error *err, nq_placement_fault fault, size_t offset,
                size_t row, unsigned char byte)
{
    set_error(err, fault, offset, row, byte);
    return NQ_EFORMAT;
}

/* nq_parse_placement() with *err of the current version, always set. */
static int parse(uint32_t **out, size_t *n_out, nq_placement_error *err,
                 const char *line, size_t len)
{
    const unsigned char *s = (const unsigned char *)line;
    size_t i, tokens = 0, first_start = 0, first_len = 0, rows, r;
    /* First bad number in the spaced form, and first '0' in compact form. */
    size_t bad_at = 0, bad_row = 0, zero_digit_at = 0;
    nq_placement_fault bad = NQ_PLACEMENT_OK;
    int zero_digit = 0;
    uint32_t *cols;

    *out = NULL;
    *n_out = 0;
    set_error(err, NQ_PLACEMENT_OK, 0, 0, 0);
    if (len > 0 && s[len - 1] == '\r')
        len--;

    /* Pass 1: check every byte and number, count the tokens. */
    i = 0;
    while (i < len) {
        size_t start;
        uint64_t value = 0;
        int overflow = 0;
        if (is_blank(s[i])) {
            i++;
            continue;
        }
        if (!is_digit(s[i]))
            return fail(err, NQ_PLACEMENT_CHAR, i, 0, s[i]);
        start = i;
        for (; i < len && is_digit(s[i]); i++) {
            if (s[i] == '0' && !zero_digit && tokens == 0) {
                zero_digit = 1;
                zero_digit_at = i;
            }
            value = value * 10 + (uint64_t)(s[i] - '0');
            if (value > UINT32_MAX) {
                overflow = 1;
                value = (uint64_t)UINT32_MAX + 1; /* keeps it from wrapping */
            }
        }
        if (i < len && !is_blank(s[i]))
            return fail(err, NQ_PLACEMENT_CHAR, i, 0, s[i]);
        if (tokens == 0) {
            first_start = start;
            first_len = i - start;
        }
        if (bad == NQ_PLACEMENT_OK && (overflow || value == 0)) {
            bad = overflow ? NQ_PLACEMENT_OVERFLOW : NQ_PLACEMENT_ZERO;
            bad_at = start;
            bad_row = tokens;
        }
        tokens++;
    }
    if (tokens == 0)
        return NQ_OK; /* the empty board: no rows, *out stays NULL */
    if (tokens == 1) {
        if (zero_digit)
            return fail(err, NQ_PLACEMENT_ZERO, zero_digit_at,
                        zero_digit_at - first_start, 0);
        rows = first_len;
    } else {
        if (bad != NQ_PLACEMENT_OK)
            return fail(err, bad, bad_at, bad_row, 0);
        rows = tokens;
    }

    if (rows > SIZE_MAX / sizeof *cols)
        return NQ_ENOMEM;
    cols = malloc(rows * sizeof *cols);
    if (!cols)
        return NQ_ENOMEM;

    /* Pass 2: convert; everything is known to be well formed. */
    if (tokens == 1) {
        for (r = 0; r < rows; r++)
            cols[r] = (uint32_t)(s[first_start + r] - '1');
    } else {
        r = 0;
        i = 0;
        while (i < len) {
            uint32_t value = 0;
            if (is_blank(s[i])) {
                i++;
                continue;
            }
            for (; i < len && is_digit(s[i]); i++)
                value = value * 10u + (uint32_t)(s[i] - '0');
            cols[r++] = value - 1u;
        }
    }
    *out = cols;
    *n_out = rows;
    return NQ_OK;
}

int nq_parse_placement(uint32_t **out, size_t *n_out, nq_placement_error *err,
                       const char *line, size_t len)
{
    nq_placement_error e;
    int rc;
    if (!out || !n_out || (!line && len > 0))
        return NQ_EINVAL;
    if (err && !nq_layout_size(&nq_placement_error_layout, err))
        return NQ_EVERSION;
    rc = parse(out, n_out, &e, line, len);
    if (err)
        nq_result_store(err, &e, &nq_placement_error_layout);
    return rc;
}

int nq_placement_error_format(char *out, size_t size, const nq_placement_error *error)
{
    unsigned long long pos, row;
    nq_placement_error e;
    const nq_placement_error *err = &e;

    if ((!out && size > 0) || !error)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_placement_error_layout, error))
        return NQ_EVERSION;
    nq_result_load(&e, sizeof e, error, &nq_placement_error_layout);
    if (size == 0)
        return NQ_OK;
    pos = (unsigned long long)err->offset + 1;
    row = (unsigned long long)err->row + 1;

    switch (err->fault) {
    case NQ_PLACEMENT_OK:
        snprintf(out, size, "no error");
        break;
    case NQ_PLACEMENT_CHAR:
        if (err->byte >= 0x20 && err->byte < 0x7f)
            snprintf(out, size,
                     "position %llu: unexpected character '%c' (columns are "
                     "numbers from 1, separated by spaces or tabs)",
                     pos, (char)err->byte);
        else
            snprintf(out, size,
                     "position %llu: unexpected byte 0x%02x (columns are "
                     "numbers from 1, separated by spaces or tabs)",
                     pos, (unsigned)err->byte);
        break;
    case NQ_PLACEMENT_ZERO:
        snprintf(out, size,
                 "row %llu: column 0 is out of range (columns start at 1)",
                 row);
        break;
    case NQ_PLACEMENT_OVERFLOW:
        snprintf(out, size,
                 "row %llu: the column at position %llu is too large "
                 "(more than 4294967295)",
                 row, pos);
        break;
    default:
        snprintf(out, size, "unknown parse fault %d", (int)err->fault);
        break;
    }
    return NQ_OK;
}
