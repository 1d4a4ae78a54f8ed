/*
 * Parts of a count: which part a unit belongs to, and part lines, one
 * JSON object per part result, read strictly.
 *
 * A part line is the last thing between a long cluster run and the total
 * it prints, so nothing in it is taken on trust. The reader is a small
 * hand-written scanner for exactly the objects that `--part K/M --json`
 * writes (any key order, any blanks): one pass over the bytes, no
 * recursion, no allocation. Each key is looked up in a fixed table and may
 * appear once; whole numbers are read with an overflow check; then the
 * values are checked against this library (board size, method name, its
 * unit-list version, 1 <= part <= parts). A "check" field holds a hash of
 * the canonical form of the line (nq_part_checksum()): a line damaged on
 * the way (a changed digit, two lines run together) no longer matches and
 * is refused before anything else is said about its values.
 */
#include <stdio.h>
#include <string.h>

#include "methods/methods.h"
#include "results.h"

enum {
    KEY_N, KEY_TOTAL, KEY_UNIQUE, KEY_METHOD, KEY_PART, KEY_PARTS,
    KEY_VERSION, KEY_SECONDS, KEY_CHECK, KEY_DEVICE, KEY_COUNT
};

static const char *const key_names[KEY_COUNT] = {
    "n", "total", "unique", "method", "part", "parts", "unit_list_version",
    "seconds", "check", "device",
};

/* Keys every part line has. */
#define REQUIRED ((1u << KEY_N) | (1u << KEY_TOTAL) | (1u << KEY_METHOD) | \
                  (1u << KEY_PART) | (1u << KEY_PARTS) | (1u << KEY_VERSION))

typedef struct scan {
    const unsigned char *s;
    size_t i, len;
    nq_partline_error *err;
} scan;

/* What the scanner collected. */
typedef struct fields {
    unsigned seen;
    uint64_t num[KEY_COUNT];            /* the whole numbers */
    const unsigned char *method;        /* the method name as written */
    size_t method_len;
    uint64_t check;
} fields;

static int fail(scan *sc, nq_partline_fault fault, size_t at, int key)
{
    if (sc->err) {
        sc->err->fault = fault;
        sc->err->offset = at;
        sc->err->key[0] = '\0';
        if (key >= 0) {
            strncpy(sc->err->key, key_names[key], sizeof sc->err->key - 1);
            sc->err->key[sizeof sc->err->key - 1] = '\0';
        }
    }
    return NQ_EFORMAT;
}

/* Like fail(), with the key as written in the line. */
static int fail_text(scan *sc, nq_partline_fault fault, size_t at,
                     const unsigned char *key, size_t len)
{
    fail(sc, fault, at, -1);
    if (sc->err) {
        size_t k = len < sizeof sc->err->key - 1 ? len : sizeof sc->err->key - 1;
        for (size_t j = 0; j < k; j++) /* printable ASCII only */
            sc->err->key[j] = key[j] >= 0x20 && key[j] < 0x7f ? (char)key[j] : '?';
        sc->err->key[k] = '\0';
    }
    return NQ_EFORMAT;
}

static void blanks(scan *sc)
{
    while (sc->i < sc->len &&
           (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' || sc->s[sc->i] == '\r'))
        sc->i++;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* A string's body, after its opening quote: printable, no escapes. */
static int string(scan *sc, const unsigned char **out, size_t *len)
{
    size_t start = sc->i;
    while (sc->i < sc->len && sc->s[sc->i] != '"') {
        if (sc->s[sc->i] == '\\' || sc->s[sc->i] < 0x20)
            return fail(sc, NQ_PARTLINE_SYNTAX, sc->i, -1);
        sc->i++;
    }
    if (sc->i == sc->len)
        return fail(sc, NQ_PARTLINE_SYNTAX, sc->i, -1);
    *out = sc->s + start;
    *len = sc->i - start;
    sc->i++; /* the closing quote */
    return NQ_OK;
}

/* A JSON integer without sign, up to 2^64 - 1. */
static int whole(scan *sc, uint64_t *out, int key)
{
    size_t start = sc->i;
    uint64_t v = 0;
    while (sc->i < sc->len && is_digit(sc->s[sc->i])) {
        unsigned d = (unsigned)(sc->s[sc->i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return fail(sc, NQ_PARTLINE_VALUE, start, key);
        v = v * 10 + d;
        sc->i++;
    }
    if (sc->i == start || (sc->s[start] == '0' && sc->i - start > 1) ||
        (sc->i < sc->len && (sc->s[sc->i] == '.' || sc->s[sc->i] == 'e' ||
                             sc->s[sc->i] == 'E')))
        return fail(sc, NQ_PARTLINE_VALUE, start, key);
    *out = v;
    return NQ_OK;
}

/* A JSON number that is not negative: int [frac] [exp]. */
static int number(scan *sc, int key)
{
    size_t start = sc->i, d;
    for (d = sc->i; d < sc->len && is_digit(sc->s[d]); d++)
        ;
    if (d == start || (sc->s[start] == '0' && d - start > 1))
        return fail(sc, NQ_PARTLINE_VALUE, start, key);
    if (d < sc->len && sc->s[d] == '.') {
        size_t f = ++d;
        while (d < sc->len && is_digit(sc->s[d]))
            d++;
        if (d == f)
            return fail(sc, NQ_PARTLINE_VALUE, start, key);
    }
    if (d < sc->len && (sc->s[d] == 'e' || sc->s[d] == 'E')) {
        size_t e;
        d++;
        if (d < sc->len && (sc->s[d] == '+' || sc->s[d] == '-'))
            d++;
        for (e = d; d < sc->len && is_digit(sc->s[d]); d++)
            ;
        if (d == e)
            return fail(sc, NQ_PARTLINE_VALUE, start, key);
    }
    sc->i = d;
    return NQ_OK;
}

/* A string value of `key`: its text into *t, *len. */
static int quoted(scan *sc, const unsigned char **t, size_t *len, int key)
{
    if (sc->i >= sc->len || sc->s[sc->i] != '"')
        return fail(sc, NQ_PARTLINE_VALUE, sc->i, key);
    sc->i++;
    return string(sc, t, len);
}

static int hex16(scan *sc, uint64_t *out, int key)
{
    const unsigned char *t;
    size_t len, at = sc->i;
    uint64_t v = 0;
    if (quoted(sc, &t, &len, key) != NQ_OK)
        return NQ_EFORMAT;
    if (len != 16)
        return fail(sc, NQ_PARTLINE_VALUE, at, key);
    for (size_t j = 0; j < 16; j++) {
        unsigned c = t[j];
        unsigned d = is_digit((unsigned char)c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;
        if (d == 16)
            return fail(sc, NQ_PARTLINE_VALUE, at, key);
        v = (v << 4) | d;
    }
    *out = v;
    return NQ_OK;
}

/* Where a count ran ("cpu" or "gpu"): a count's line names it; a part
 * line may too. It does not change what the part counted. */
static int device(scan *sc, int key)
{
    const unsigned char *t;
    size_t len, at = sc->i;
    if (quoted(sc, &t, &len, key) != NQ_OK)
        return NQ_EFORMAT;
    if (len != 3 || (memcmp(t, "cpu", 3) != 0 && memcmp(t, "gpu", 3) != 0))
        return fail(sc, NQ_PARTLINE_VALUE, at, key);
    return NQ_OK;
}

/* One "key": value pair. */
static int pair(scan *sc, fields *f)
{
    const unsigned char *k;
    size_t klen, at = sc->i;
    int key = -1;

    if (sc->i >= sc->len || sc->s[sc->i] != '"')
        return fail(sc, NQ_PARTLINE_SYNTAX, sc->i, -1);
    sc->i++;
    if (string(sc, &k, &klen) != NQ_OK)
        return NQ_EFORMAT;
    for (int j = 0; j < KEY_COUNT; j++)
        if (strlen(key_names[j]) == klen && memcmp(key_names[j], k, klen) == 0)
            key = j;
    if (key < 0)
        return fail_text(sc, NQ_PARTLINE_KEY, at, k, klen);
    if (f->seen & (1u << key))
        return fail(sc, NQ_PARTLINE_TWICE, at, key);
    f->seen |= 1u << key;
    blanks(sc);
    if (sc->i >= sc->len || sc->s[sc->i] != ':')
        return fail(sc, NQ_PARTLINE_SYNTAX, sc->i, -1);
    sc->i++;
    blanks(sc);
    switch (key) {
    case KEY_METHOD:
        return quoted(sc, &f->method, &f->method_len, key);
    case KEY_SECONDS:
        return number(sc, key);
    case KEY_CHECK:
        return hex16(sc, &f->check, key);
    case KEY_DEVICE:
        return device(sc, key);
    default:
        return whole(sc, &f->num[key], key);
    }
}

/* The object's syntax, into f. */
static int object(scan *sc, fields *f)
{
    blanks(sc);
    if (sc->i == sc->len)
        return fail(sc, NQ_PARTLINE_BLANK, 0, -1);
    if (sc->s[sc->i] != '{')
        return fail(sc, NQ_PARTLINE_SYNTAX, sc->i, -1);
    sc->i++;
    blanks(sc);
    if (sc->i < sc->len && sc->s[sc->i] == '}') {
        sc->i++;
    } else {
        for (;;) {
            if (pair(sc, f) != NQ_OK)
                return NQ_EFORMAT;
            blanks(sc);
            if (sc->i < sc->len && sc->s[sc->i] == ',') {
                sc->i++;
                blanks(sc);
                continue;
            }
            if (sc->i < sc->len && sc->s[sc->i] == '}') {
                sc->i++;
                break;
            }
            return fail(sc, NQ_PARTLINE_SYNTAX, sc->i, -1);
        }
    }
    blanks(sc);
    if (sc->i != sc->len)
        return fail(sc, NQ_PARTLINE_SYNTAX, sc->i, -1);
    for (int j = 0; j < KEY_COUNT; j++)
        if ((REQUIRED >> j & 1u) && !(f->seen >> j & 1u))
            return fail(sc, NQ_PARTLINE_MISSING, sc->len, j);
    return NQ_OK;
}

/* ------------------------------------------------------------------------
 * The checksum: FNV-1a over the canonical line, fed piece by piece.
 * ------------------------------------------------------------------------ */
static uint64_t feed(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}

static uint64_t feed_str(uint64_t h, const char *s) { return feed(h, s, strlen(s)); }

static uint64_t feed_num(uint64_t h, const char *key, uint64_t v)
{
    char buf[48];
    int len = snprintf(buf, sizeof buf, "%s\"%s\":%llu", strcmp(key, "n") ? "," : "",
                       key, (unsigned long long)v);
    return feed(h, buf, (size_t)len);
}

/* The hash of the canonical line, the method given as text. */
static uint64_t canonical_hash(uint64_t n, uint64_t total, int has_unique,
                               uint64_t unique, const void *method,
                               size_t method_len, uint64_t part, uint64_t parts,
                               uint64_t version)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    h = feed_str(h, "{");
    h = feed_num(h, "n", n);
    h = feed_num(h, "total", total);
    if (has_unique)
        h = feed_num(h, "unique", unique);
    h = feed_str(h, ",\"method\":\"");
    h = feed(h, method, method_len);
    h = feed_str(h, "\"");
    h = feed_num(h, "part", part);
    h = feed_num(h, "parts", parts);
    h = feed_num(h, "unit_list_version", version);
    return feed_str(h, "}");
}

uint64_t nq_part_checksum(const nq_part *part)
{
    const char *name;
    nq_part p;
    if (!part || !nq_layout_size(&nq_part_layout, part))
        return 0;
    nq_result_load(&p, sizeof p, part, &nq_part_layout);
    if (!(name = nq_method_name(p.method)))
        return 0;
    return canonical_hash(p.n, p.total, p.has_unique, p.unique, name,
                          strlen(name), p.part, p.parts, p.unit_list_version);
}

/* ------------------------------------------------------------------------
 * The line
 * ------------------------------------------------------------------------ */
/* The method whose name is this text, or NULL. */
static const nq_method_ops *method_named(const unsigned char *s, size_t len)
{
    for (int m = 1; m < 64; m++) {
        const nq_method_ops *ops = nq_method_ops_of((nq_method)m);
        if (ops && strlen(ops->name) == len && memcmp(ops->name, s, len) == 0)
            return ops;
    }
    return NULL;
}

/* Units are dealt round-robin: unit u is in part u mod m + 1. */
uint32_t nq_part_of_unit(uint64_t unit, uint32_t m)
{
    return m == 0 ? 0 : (uint32_t)(unit % m) + 1u;
}

/* nq_part_parse() into structs of the current version: *out on NQ_OK,
 * *err always. */
static int parse(nq_part *out, nq_partline_error *err, const char *line, size_t len)
{
    scan sc;
    fields f;
    const nq_method_ops *ops;
    const uint64_t *v = f.num;

    sc.s = (const unsigned char *)line;
    sc.i = 0;
    sc.len = len;
    sc.err = err;
    memset(&f, 0, sizeof f);
    memset(err, 0, sizeof *err);
    err->version = NQ_PARTLINE_ERROR_VERSION;
    err->fault = NQ_PARTLINE_OK;
    if (object(&sc, &f) != NQ_OK)
        return NQ_EFORMAT;
    if ((f.seen >> KEY_CHECK & 1u) &&
        canonical_hash(v[KEY_N], v[KEY_TOTAL], f.seen >> KEY_UNIQUE & 1u, v[KEY_UNIQUE],
                       f.method, f.method_len, v[KEY_PART], v[KEY_PARTS],
                       v[KEY_VERSION]) != f.check)
        return fail(&sc, NQ_PARTLINE_DAMAGED, 0, KEY_CHECK);
    if (v[KEY_N] > NQ_MAX_N)
        return fail(&sc, NQ_PARTLINE_N, 0, KEY_N);
    if (!(ops = method_named(f.method, f.method_len)))
        return fail(&sc, NQ_PARTLINE_METHOD, 0, KEY_METHOD);
    if (v[KEY_VERSION] > UINT32_MAX ||
        !nq_method_reads_list(ops->id, (unsigned)v[KEY_N], (uint32_t)v[KEY_VERSION]))
        return fail(&sc, NQ_PARTLINE_VERSION, 0, KEY_VERSION);
    if (v[KEY_PART] == 0 || v[KEY_PART] > v[KEY_PARTS] || v[KEY_PARTS] > UINT32_MAX)
        return fail(&sc, NQ_PARTLINE_RANGE, 0, v[KEY_PARTS] > UINT32_MAX ? KEY_PARTS : KEY_PART);
    if ((f.seen >> KEY_UNIQUE & 1u) && (!ops->has_unique || v[KEY_UNIQUE] > v[KEY_TOTAL]))
        return fail(&sc, NQ_PARTLINE_UNIQUE, 0, KEY_UNIQUE);

    memset(out, 0, sizeof *out);
    out->version = NQ_PART_VERSION;
    out->n = (unsigned)v[KEY_N];
    out->method = ops->id;
    out->unit_list_version = ops->list_version;
    out->part = (uint32_t)v[KEY_PART];
    out->parts = (uint32_t)v[KEY_PARTS];
    out->total = v[KEY_TOTAL];
    out->has_unique = (int)(f.seen >> KEY_UNIQUE & 1u);
    out->unique = out->has_unique ? v[KEY_UNIQUE] : 0;
    out->has_check = (int)(f.seen >> KEY_CHECK & 1u);
    return NQ_OK;
}

int nq_part_parse(nq_part *out, nq_partline_error *err, const char *line,
                  size_t len)
{
    nq_part p;
    nq_partline_error e;
    int rc;
    if (!out || (!line && len > 0))
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_part_layout, out) ||
        (err && !nq_layout_size(&nq_partline_error_layout, err)))
        return NQ_EVERSION;
    rc = parse(&p, &e, line, len);
    if (err)
        nq_result_store(err, &e, &nq_partline_error_layout);
    if (rc == NQ_OK)
        nq_result_store(out, &p, &nq_part_layout);
    return rc;
}

int nq_partline_error_format(char *out, size_t size, const nq_partline_error *error)
{
    const char *what;
    nq_partline_error e, *err = &e;
    if ((!out && size > 0) || !error)
        return NQ_EINVAL;
    if (!nq_layout_size(&nq_partline_error_layout, error))
        return NQ_EVERSION;
    nq_result_load(&e, sizeof e, error, &nq_partline_error_layout);
    switch (err->fault) {
    case NQ_PARTLINE_OK: what = "a part line"; break;
    case NQ_PARTLINE_BLANK: what = "a blank line"; break;
    case NQ_PARTLINE_SYNTAX: what = "not a JSON object of part fields"; break;
    case NQ_PARTLINE_KEY: what = "unknown key"; break;
    case NQ_PARTLINE_TWICE: what = "key given twice:"; break;
    case NQ_PARTLINE_MISSING: what = "missing key"; break;
    case NQ_PARTLINE_VALUE: what = "bad value for"; break;
    case NQ_PARTLINE_DAMAGED: what = "damaged: the \"check\" field does not match the line"; break;
    case NQ_PARTLINE_N: what = "board size out of range (0.." NQ_STRINGIFY(NQ_MAX_N) ")"; break;
    case NQ_PARTLINE_METHOD: what = "unknown method"; break;
    case NQ_PARTLINE_VERSION: what = "a unit list this version of nqueens does not have"; break;
    case NQ_PARTLINE_RANGE: what = "part out of range (1 <= part <= parts < 2^32)"; break;
    case NQ_PARTLINE_UNIQUE: what = "impossible unique count"; break;
    default: what = "unknown fault"; break;
    }
    if (size == 0)
        return NQ_OK;
    switch (err->fault) {
    case NQ_PARTLINE_SYNTAX:
        snprintf(out, size, "%s (byte %zu)", what, err->offset + 1);
        break;
    case NQ_PARTLINE_KEY:
    case NQ_PARTLINE_TWICE:
    case NQ_PARTLINE_VALUE:
        snprintf(out, size, "%s \"%s\" (byte %zu)", what, err->key, err->offset + 1);
        break;
    case NQ_PARTLINE_MISSING:
        snprintf(out, size, "%s \"%s\"", what, err->key);
        break;
    default:
        snprintf(out, size, "%s", what);
        break;
    }
    return NQ_OK;
}
