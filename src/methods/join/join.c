/*
 * join.c - the join counting method: totals by meeting in the middle.
 *
 * Design note
 * -----------
 * Halves. Cut the columns into a west half W (columns 0 .. h-1) and an east
 * half E (the last h columns), h = floor(n / 2); on an odd board the middle
 * column h stays between them. Every solution puts exactly h queens in
 * each half, one per column, and each row has its queen in W or in E (or,
 * on an odd board, the one row m that holds the middle column's queen). So
 * a solution is: a row split (the set R of rows whose queen is in E, h of
 * them), a placement of the east half (a queen in each row of R, one per
 * column of E, no two on a diagonal), a placement of the west half on the
 * other rows, and the condition that the two halves occupy no diagonal in
 * common. Columns and rows cannot clash across halves by construction.
 *
 * Keys. Only the diagonals that cross both halves can clash: 2h - 1 of each
 * direction (r + c and c - r between n - h and n + h - 2, in board
 * indices). A half's key is the bit set of those it occupies, 4h - 2 bits
 * (at most 54 at n = 28), and an east and a west placement join into a
 * solution exactly when their keys are disjoint. A row split is counted by
 * listing the keys of each half (a small backtracking walk over h rows and
 * h columns), then counting the disjoint pairs; that count is the costly
 * part, and join_match.c does it bit-sliced, 512 stored keys per step.
 *
 * Smaller keys, fewer pairs. Per split, each direction's key keeps only
 * the span of diagonals that both halves' rows reach; the few diagonals
 * inside it that one side never holds are squeezed out, and both lists are
 * sorted into buckets by a few middle diagonals, so that a stored block
 * meets only the items that can be disjoint from it (join_sieve.c). How
 * many bucket bits a split uses depends on its lists' sizes; the count
 * does not.
 *
 * Odd boards. The middle column's queen, in row m, is placed first; its
 * two diagonals are barred in both halves' walks and left out of the keys,
 * and the row splits are those of the other n - 1 rows.
 *
 * Symmetry. The flip of the board top to bottom maps a solution with split
 * (m, R) to one with (n-1-m, reversed R); the flip left to right maps it to
 * (m, complement of R among the free rows), since the halves trade places
 * and the middle column stays. Both are bijections, so these four images
 * have equal counts: only the smallest image of each orbit (in the order
 * of (m, R)) is counted, times the number of distinct images. This does a
 * quarter of the work and is exact; unique counts are not available here
 * (the other four symmetries of the square do not respect the split).
 *
 * Units. The splits are numbered: for an even board, the h-subsets of the
 * n rows in colexicographic order; for an odd one, (m, R) with m = 0..h
 * (larger m are never the smallest image) and R among the other n - 1 rows,
 * m major. A unit is a run of consecutive numbers, as many per unit as it
 * takes to keep the list at most NQ_JOIN_MAX_UNITS long (one split per unit
 * up to n = 19). The list depends on n alone.
 *
 * n < 4 is one unit, counted by a plain walk: the halves are too small for
 * keys.
 */
#include "join.h"

#include "cpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Longest unit list: runs of splits are grouped to stay below it. */
#define NQ_JOIN_MAX_UNITS 65536u
/* Boards below this size are one unit counted by a plain walk. */
#define NQ_JOIN_MIN_N 4u
/* Largest half: h = 14 rows and columns. */
#define NQ_JOIN_MAX_HALF (NQ_MAX_N / 2)

struct nq_join_plan {
    unsigned n;
    unsigned h;
    uint64_t per_m;  /* row splits per middle row (all splits, even n) */
    uint64_t space;  /* numbered splits */
    uint64_t group;  /* splits per unit */
    uint64_t nunits;
    struct plan_shared *shared; /* the table, built by the first unit that
                                   needs it, and idle scratch */
    uint64_t table_limit;       /* largest table built, in bytes */
    nq_simd cpu;                /* nq_cpu_simd_best(), asked once: CPUID
                                   is slow under some hypervisors */
    int vpopcnt;                /* nq_join_has_vpopcnt() */
    int cuts;                   /* bucket bits; negative: by list size */
};

typedef struct plan_shared {
    pthread_mutex_t lock;       /* guards the build */
    atomic_int state;           /* 0 not built, 1 built, 2 too large */
    nq_join_quarter quarter;
    /* Scratch of units that ended, kept for the next ones: a unit's key
     * lists take megabytes, and memory that is new to the process costs a
     * page fault per page. As many as units ran at once. */
    pthread_mutex_t idle_lock;
    struct scratch *idle;
} plan_shared;

static void idle_free(plan_shared *t);

/* Largest quarter table built when no limit was fitted: a quarter of the
 * physical memory. */
static uint64_t nq_join_table_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return (uint64_t)1 << 30;
    return (uint64_t)pages * (uint64_t)size / 4;
}

/* ========================================================================
 * Combinations
 * ======================================================================== */

static uint64_t binomial(unsigned n, unsigned k)
{
    uint64_t r = 1;
    if (k > n)
        return 0;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i; /* exact: r * (n-k+i) is C(n-k+i, i) * i */
    return r;
}

/* The k-subset of {0..} of colexicographic rank `rank`, as a bit mask. */
static uint32_t unrank(uint64_t rank, unsigned k)
{
    uint32_t set = 0;
    for (unsigned i = k; i >= 1; i--) {
        unsigned c = i - 1;
        while (binomial(c + 1, i) <= rank)
            c++;
        rank -= binomial(c, i);
        set |= 1u << c;
    }
    return set;
}

/* The next set of the same size in colexicographic order (Gosper). */
static uint32_t next_subset(uint32_t s)
{
    uint32_t low = s & (0u - s);
    uint32_t ripple = s + low;
    return ripple | (((s ^ ripple) >> 2) / low);
}

/* Bits of `s` (over n - 1 rows) moved to n rows with row m left out. */
static uint32_t stretch(uint32_t s, unsigned m)
{
    uint32_t below = (1u << m) - 1u;
    return (s & below) | ((s & ~below) << 1);
}

static uint32_t reverse_rows(uint32_t s, unsigned n)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < n; i++)
        if (s >> i & 1u)
            r |= 1u << (n - 1 - i);
    return r;
}

/* Number of distinct images of split (m, rows) under the two flips if it
 * is the smallest of them, else 0. `free_rows` are the rows of the halves. */
static unsigned split_weight(unsigned n, unsigned m, uint32_t rows,
                             uint32_t free_rows)
{
    uint64_t img[4];
    unsigned mm = (n & 1u) ? n - 1 - m : 0;
    unsigned distinct = 0;
    uint32_t comp = free_rows & ~rows;
    img[0] = (uint64_t)m << 32 | rows;
    img[1] = (uint64_t)m << 32 | comp;
    img[2] = (uint64_t)mm << 32 | reverse_rows(rows, n);
    img[3] = (uint64_t)mm << 32 | reverse_rows(comp, n);
    for (unsigned i = 0; i < 4; i++) {
        int seen = 0;
        if (img[i] < img[0])
            return 0;
        for (unsigned j = 0; j < i; j++)
            seen |= img[j] == img[i];
        distinct += !seen;
    }
    return distinct;
}

/* ========================================================================
 * Plan
 * ======================================================================== */

int nq_join_plan_build(nq_join_plan **out, unsigned n)
{
    nq_join_plan *p;
    if (!out)
        return NQ_EINVAL;
    *out = NULL;
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ENOMEM;
    p->shared = calloc(1, sizeof *p->shared);
    if (!p->shared || pthread_mutex_init(&p->shared->lock, NULL) != 0) {
        free(p->shared);
        free(p);
        return NQ_ENOMEM;
    }
    if (pthread_mutex_init(&p->shared->idle_lock, NULL) != 0) {
        pthread_mutex_destroy(&p->shared->lock);
        free(p->shared);
        free(p);
        return NQ_ENOMEM;
    }
    atomic_init(&p->shared->state, 0);
    p->n = n;
    p->h = n / 2;
    p->table_limit = nq_join_table_limit();
    p->cpu = nq_cpu_simd_best();
    p->vpopcnt = nq_join_has_vpopcnt();
    p->cuts = -1;
    if (n < NQ_JOIN_MIN_N) {
        p->per_m = p->space = p->group = p->nunits = 1;
    } else {
        p->per_m = binomial(n - (n & 1u), p->h);
        p->space = (n & 1u) ? p->per_m * (p->h + 1) : p->per_m;
        p->group = (p->space + NQ_JOIN_MAX_UNITS - 1) / NQ_JOIN_MAX_UNITS;
        p->nunits = (p->space + p->group - 1) / p->group;
    }
    *out = p;
    return NQ_OK;
}

int nq_join_plan_build_walk(nq_join_plan **out, unsigned n)
{
    int rc = nq_join_plan_build(out, n);
    if (rc == NQ_OK)
        atomic_store(&(*out)->shared->state, 2);
    return rc;
}

int nq_join_plan_set_cuts(nq_join_plan *plan, int cuts)
{
    if (!plan || cuts < -1 || cuts > (int)NQ_JOIN_MAX_CUTS)
        return NQ_EINVAL;
    plan->cuts = cuts;
    return NQ_OK;
}

uint64_t nq_join_plan_size(const nq_join_plan *plan)
{
    return plan ? plan->nunits : 0;
}

void nq_join_plan_free(nq_join_plan *plan)
{
    if (!plan)
        return;
    idle_free(plan->shared);
    nq_join_quarter_free(&plan->shared->quarter);
    pthread_mutex_destroy(&plan->shared->idle_lock);
    pthread_mutex_destroy(&plan->shared->lock);
    free(plan->shared);
    free(plan);
}

/* ========================================================================
 * Half-board walk (when the quarter table would not fit in memory)
 * ======================================================================== */

typedef struct half_walk {
    const nq_join_half *g;
    nq_join_keys *out;
    unsigned nrows;
    unsigned rows[NQ_JOIN_MAX_HALF];
    uint32_t all;       /* the half's h columns, as bits 0 .. h-1 */
    int nomem;
} half_walk;

int nq_join_keys_reserve(nq_join_keys *k, size_t more)
{
    size_t cap = k->cap ? k->cap : 1024;
    uint64_t *keys;
    if (k->count + more <= k->cap)
        return NQ_OK;
    while (cap < k->count + more)
        cap *= 2;
    keys = realloc(k->keys, cap * sizeof *keys);
    if (!keys)
        return NQ_ENOMEM;
    k->keys = keys;
    k->cap = cap;
    return NQ_OK;
}

static void push_key(half_walk *w, uint64_t d1, uint64_t d2)
{
    const nq_join_half *g = w->g;
    if (nq_join_keys_reserve(w->out, 1) != NQ_OK) {
        w->nomem = 1;
        return;
    }
    w->out->keys[w->out->count++] = nq_join_squeeze(
        g->sieve, ((d1 & ~g->bar1) >> g->lo1 & ((1ull << g->len1) - 1u)) |
                  ((d2 & ~g->bar2) >> g->lo2 & ((1ull << g->len2) - 1u)) << g->len1);
}

/* Diagonal masks are in board indices: bit r + c of d1, bit c - r + n - 1
 * of d2, so a row's free columns are two shifts away. */
static void walk(half_walk *w, unsigned i, uint32_t cols, uint64_t d1,
                 uint64_t d2)
{
    const unsigned r = w->rows[i];
    const unsigned s1 = r + w->g->c0, s2 = w->g->c0 + w->g->n - 1 - r;
    uint32_t free = w->all & ~cols & ~(uint32_t)(d1 >> s1) & ~(uint32_t)(d2 >> s2);
    if (i + 1 == w->nrows) {
        for (; free; free &= free - 1) {
            uint64_t bit = free & (0u - free);
            push_key(w, d1 | bit << s1, d2 | bit << s2);
        }
        return;
    }
    for (; free; free &= free - 1) {
        uint32_t bit = free & (0u - free);
        walk(w, i + 1, cols | bit, d1 | (uint64_t)bit << s1,
             d2 | (uint64_t)bit << s2);
    }
}

/* Lists the keys of half g on `rows` by a walk. */
static int walk_half(nq_join_keys *out, const nq_join_half *g, uint32_t rows)
{
    half_walk w;
    w.g = g;
    w.out = out;
    w.nrows = 0;
    w.all = (1u << g->n / 2) - 1u;
    w.nomem = 0;
    for (unsigned r = 0; r < g->n; r++)
        if (rows >> r & 1u)
            w.rows[w.nrows++] = r;
    out->count = 0;
    walk(&w, 0, 0, g->bar1, g->bar2);
    return w.nomem ? NQ_ENOMEM : NQ_OK;
}

/* ========================================================================
 * Units
 * ======================================================================== */

typedef struct scratch {
    struct scratch *next;           /* in the plan's idle list */
    nq_join_keys east, west, spare;
    nq_join_half ge, gw;
    const nq_join_quarter *quarter; /* NULL: walk the halves */
    nq_join_pieces pieces;
    nq_join_matcher mt;
    nq_join_sieve sieve;
    nq_simd simd;                   /* the level the unit runs at */
    int cuts;                       /* bucket bits; negative: by list size */
    size_t east_off[NQ_JOIN_MAX_BUCKETS + 1];
    size_t west_off[NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS + 1];
    nq_join_profile *profile;       /* non-NULL: a split measured for the
                                       cost model (join_cost.c) */
} scratch;

static int half_keys(scratch *s, nq_join_keys *out, const nq_join_half *g,
                     uint32_t rows)
{
    if (s->quarter)
        return nq_join_half_keys(out, &s->pieces, s->quarter, g, rows, s->simd);
    return walk_half(out, g, rows);
}


/* Disjoint pairs between the east keys and the west keys of one class,
 * both sorted into nb buckets: the longer list is stored block by block,
 * the shorter streams past each block. */
static int match_class(scratch *s, const size_t *woff, uint64_t *out)
{
    const unsigned nb = s->sieve.buckets;
    const size_t ne = s->east_off[nb] - s->east_off[0], nw = woff[nb] - woff[0];
    if (!ne || !nw)
        return NQ_OK;
    if (ne >= nw)
        return nq_join_sieve_match(&s->mt, s->east.keys, s->east_off,
                                   s->west.keys, woff, nb, out);
    return nq_join_sieve_match(&s->mt, s->west.keys, woff, s->east.keys,
                               s->east_off, nb, out);
}

/* Bucket bits for lists of ne and nw keys: each bucket of the longer list
 * should still fill a block or so. */
static unsigned pick_cuts(const scratch *s, size_t ne, size_t nw)
{
    size_t longer = ne > nw ? ne : nw;
    unsigned k = 0;
    if (s->cuts >= 0)
        return (unsigned)s->cuts;
    while (k < NQ_JOIN_MAX_CUTS && longer >= ((size_t)NQ_JOIN_BLOCK << k))
        k++;
    return k;
}

/* Diagonals of one direction that a half reaches on `rows`: each row r
 * reaches the h diagonals of its columns, `cols` moved to row r. */
static uint64_t reach(uint32_t rows, uint64_t cols, int up, unsigned n)
{
    uint64_t m = 0;
    for (; rows; rows &= rows - 1) {
        unsigned r = (unsigned)__builtin_ctz(rows);
        m |= up ? cols << r : cols << (n - 1 - r);
    }
    return m;
}

/* The key window of one direction: the span of the diagonals that both
 * halves reach (and `keep`); sets *lo, *len and returns the diagonals of
 * the span that are not in `live`. An empty span is 0 diagonals from
 * `first`, the first that crosses both halves (the halves' frames move
 * keys down from there, never up). */
static uint64_t window(uint64_t live, uint64_t keep, unsigned first,
                       unsigned *lo, unsigned *len)
{
    uint64_t span = live | keep;
    if (!span) {
        *lo = first;
        *len = 0;
        return 0;
    }
    *lo = (unsigned)__builtin_ctzll(span);
    *len = 64u - (unsigned)__builtin_clzll(span) - *lo;
    return (span >> *lo) & ~(live >> *lo) & ((1ull << *len) - 1u); /* len < 56 */
}

/* Sets both halves' key windows for split east_rows / west_rows (bars
 * already set) and returns the key bits that no pair can clash on; the
 * long diagonals stay inside the window when `classes` is 3, since the
 * west keys are classed by them. */
static uint64_t lay_out(scratch *s, unsigned n, uint32_t east_rows,
                        uint32_t west_rows, unsigned classes)
{
    const unsigned h = n / 2;
    const uint64_t west_cols = (1ull << h) - 1u, east_cols = west_cols << (n - h);
    const uint64_t bar1 = s->ge.bar1 | s->gw.bar1, bar2 = s->ge.bar2 | s->gw.bar2;
    const uint64_t live1 = reach(east_rows, east_cols, 1, n) &
                           reach(west_rows, west_cols, 1, n) & ~bar1;
    const uint64_t live2 = reach(east_rows, east_cols, 0, n) &
                           reach(west_rows, west_cols, 0, n) & ~bar2;
    const uint64_t longd = classes > 1 ? 1ull << (n - 1) : 0;
    unsigned lo1, len1, lo2, len2;
    uint64_t holes = window(live1, longd, n - h, &lo1, &len1);
    holes |= window(live2, longd, n - h, &lo2, &len2) << len1;
    s->ge.lo1 = s->gw.lo1 = lo1;
    s->ge.len1 = s->gw.len1 = len1;
    s->ge.lo2 = s->gw.lo2 = lo2;
    s->ge.len2 = s->gw.len2 = len2;
    return holes;
}

/* Solutions of split (m, rows), m = 0 on even boards, weighted as the
 * design note says: `weight` for all pairs when `none_weight` is negative
 * (the centre split of odd boards), else the east half keeps no queen on
 * the two long diagonals and a pair counts none_weight, 2 or 4 times as
 * the west half holds none, one or both of them. */
static int count_split(scratch *s, unsigned n, unsigned m, uint32_t rows,
                       uint32_t free_rows, uint64_t weight, int none_weight,
                       uint64_t *out)
{
    const unsigned h = n / 2, classes = none_weight >= 0 ? 3u : 1u;
    const uint32_t west_rows = free_rows & ~rows;
    nq_join_keys *e = &s->east, *w = &s->west;
    uint64_t d1 = 0, d2 = 0, p[3] = { 0, 0, 0 }, holes, class_bits = 0;
    double t;
    unsigned nb;
    int rc;
    if (n & 1u) {
        d1 = 1ull << (m + h);
        d2 = 1ull << (h - m + n - 1);
    }
    s->gw.bar1 = s->ge.bar1 = d1;
    s->gw.bar2 = s->ge.bar2 = d2;
    if (classes > 1) { /* the long diagonals: r + c = n - 1, c = r */
        s->ge.bar1 |= 1ull << (n - 1);
        s->ge.bar2 |= 1ull << (n - 1);
    }
    holes = lay_out(s, n, rows, west_rows, classes);
    if (classes > 1)
        class_bits = 1ull << (n - 1 - s->gw.lo1) |
                     1ull << (n - 1 - s->gw.lo2 + s->gw.len1);
    nq_join_sieve_holes(&s->sieve, holes, class_bits, s->gw.len1, s->gw.len2);
    t = s->profile ? nq_join_cpu_now() : 0.0;
    if (s->profile && s->profile->probes) {
        double ne, nw;
        rc = nq_join_probe_halves(s->profile, &s->ge, rows, &s->gw, west_rows, &ne, &nw);
        nq_join_sieve_cuts(&s->sieve, pick_cuts(s, (size_t)ne, (size_t)nw));
        nq_join_probe_pairs(s->profile, &s->sieve, classes,
                            classes > 1 && none_weight <= 0,
                            s->sieve.bits ? (s->sieve.bits + NQ_JOIN_CHUNK_BITS - 1) /
                                            NQ_JOIN_CHUNK_BITS : 1u);
        *out = 0;
        return rc;
    }
    rc = half_keys(s, e, &s->ge, rows);
    if (rc == NQ_OK && e->count)
        rc = half_keys(s, w, &s->gw, west_rows);
    *out = 0;
    if (s->profile && rc == NQ_OK)
        nq_join_profile_keys(s->profile, e->count + (e->count ? w->count : 0), &t);
    if (rc != NQ_OK || !e->count || !w->count)
        return rc;
    nq_join_sieve_cuts(&s->sieve, pick_cuts(s, e->count, w->count));
    nb = s->sieve.buckets;
    s->mt.chunks = s->sieve.bits ? (s->sieve.bits + NQ_JOIN_CHUNK_BITS - 1) /
                                   NQ_JOIN_CHUNK_BITS : 1u;
    if (nq_join_keys_reserve(&s->spare, e->count) != NQ_OK)
        return NQ_ENOMEM;
    nq_join_sieve_sort(&s->sieve, e, &s->spare, 1, s->east_off);
    if (nq_join_keys_reserve(&s->spare, w->count) != NQ_OK)
        return NQ_ENOMEM;
    nq_join_sieve_sort(&s->sieve, w, &s->spare, classes, s->west_off);
    if (s->profile) {
        for (unsigned c = 0; c < classes; c++)
            if (classes == 1 || c > 0 || none_weight > 0)
                nq_join_profile_pairs(s->profile, s->east_off, s->west_off + c * nb,
                                      nb, s->mt.chunks, &t);
        if (!s->profile->match)
            return NQ_OK;
    }
    for (unsigned c = 0; c < classes && rc == NQ_OK; c++)
        if (classes == 1 || c > 0 || none_weight > 0)
            rc = match_class(s, s->west_off + c * nb, &p[c]);
    if (s->profile)
        s->profile->match_seconds += nq_join_cpu_now() - t;
    if (classes == 1)
        *out = weight * p[0];
    else
        *out = weight * ((uint64_t)none_weight * p[0] + 2 * p[1] + 4 * p[2]);
    return rc;
}

/* The plain walk for boards below NQ_JOIN_MIN_N. */
static uint64_t small_count(unsigned n, unsigned row, uint32_t cols,
                            uint32_t ld, uint32_t rd)
{
    uint64_t c = 0;
    if (row == n)
        return 1;
    for (uint32_t f = ((1u << n) - 1u) & ~(cols | ld | rd); f; f &= f - 1) {
        uint32_t bit = f & (0u - f);
        c += small_count(n, row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return c;
}

static nq_join_match_fn pick_kernel(const nq_join_plan *plan, nq_simd simd)
{
#if NQ_X86
    /* popcounts of 512 bits need VPOPCNTDQ, beyond the AVX-512 level */
    if (simd == NQ_SIMD_AVX512 && plan->vpopcnt)
        return nq_join_match_avx512;
    if (simd == NQ_SIMD_AVX512)
        return nq_join_match_avx2;
    if (simd == NQ_SIMD_AVX2)
        return nq_join_match_avx2;
#endif
    (void)plan;
    (void)simd;
    return nq_join_match_scalar;
}

static int nq_join_has_simd(nq_simd simd);

static int check_level(const nq_join_plan *plan, nq_simd simd)
{
    if (simd == NQ_SIMD_NONE)
        return NQ_OK;
    if (simd != NQ_SIMD_AVX2 && simd != NQ_SIMD_AVX512)
        return NQ_EINVAL;
    if (!nq_join_has_simd(simd) || plan->cpu < simd)
        return NQ_EUNSUPPORTED;
    return NQ_OK;
}

/* NS-canonical form of a row set: the smaller of it and its reversal. */
static uint32_t ns_canonical(uint32_t rows, unsigned n)
{
    uint32_t r = reverse_rows(rows, n);
    return r < rows ? r : rows;
}

/* Counts split (m, rows) if it is the one of its orbit that is counted. */
static int solve_split(scratch *s, unsigned n, unsigned m, uint32_t rows,
                       uint32_t free_rows, uint64_t *total)
{
    const unsigned h = n / 2;
    const uint32_t comp = free_rows & ~rows;
    uint64_t c = 0, weight;
    int none_weight;
    int rc;
    if ((n & 1u) && m == h) {
        weight = split_weight(n, m, rows, free_rows);
        none_weight = -1;
        if (!weight)
            return NQ_OK;
    } else if (n & 1u) {
        weight = 2; /* and (n-1-m, reversed rows) */
        none_weight = rows < comp ? 2 : 0;
    } else {
        uint32_t rev = reverse_rows(rows, n), other = ns_canonical(comp, n);
        if (rev < rows)
            return NQ_OK;
        weight = rev == rows ? 1 : 2;
        none_weight = other == rows ? 1 : (rows < other ? 2 : 0);
    }
    rc = count_split(s, n, m, rows, free_rows, weight, none_weight, &c);
    *total += c;
    return rc;
}

static int solve_splits(const nq_join_plan *p, scratch *s, uint64_t first,
                        uint64_t end, uint64_t *total)
{
    const unsigned n = p->n;
    unsigned m = 0;
    uint32_t sub = 0;
    for (uint64_t k = first; k < end; k++) {
        uint64_t rank = k % p->per_m;
        uint32_t rows, free_rows = (1u << n) - 1u;
        int rc;
        if (k == first || rank == 0) {
            m = (n & 1u) ? (unsigned)(k / p->per_m) : 0;
            sub = unrank(rank, p->h);
        } else {
            sub = next_subset(sub);
        }
        rows = sub;
        if (n & 1u) {
            rows = stretch(sub, m);
            free_rows &= ~(1u << m);
        }
        rc = solve_split(s, n, m, rows, free_rows, total);
        if (rc != NQ_OK)
            return rc;
    }
    return NQ_OK;
}

/* The quarter table of the plan, built by the first unit that needs it
 * (so that listing units costs nothing); NULL when it would not fit in
 * memory, and the halves are walked instead. */
static int plan_quarter(const nq_join_plan *plan, const nq_stop_flag *stop,
                        const nq_join_quarter **out)
{
    plan_shared *t = plan->shared;
    int state = atomic_load_explicit(&t->state, memory_order_acquire);
    int rc = NQ_OK;
    if (state == 0) {
        pthread_mutex_lock(&t->lock);
        state = atomic_load_explicit(&t->state, memory_order_relaxed);
        if (state == 0) {
            rc = nq_join_quarter_build(&t->quarter, plan->n - plan->h,
                                       plan->h, plan->table_limit, stop);
            state = rc == NQ_OK ? 1 : 2;
            if (rc == NQ_ENOMEM)
                rc = NQ_OK; /* walk instead */
            if (rc == NQ_OK)
                atomic_store_explicit(&t->state, state, memory_order_release);
        }
        pthread_mutex_unlock(&t->lock);
    }
    *out = state == 1 ? &t->quarter : NULL;
    return rc;
}

static void scratch_destroy(scratch *s)
{
    free(s->east.keys);
    free(s->west.keys);
    free(s->spare.keys);
    free(s->pieces.top.d1);
    free(s->pieces.top.d2);
    free(s->pieces.top.key);
    free(s->pieces.bottom.d1);
    free(s->pieces.bottom.d2);
    free(s->pieces.bottom.key);
    free(s->mt.block);
    free(s);
}

/* A scratch for one unit at level simd: an idle one of the plan, else a
 * new one. @return NULL when out of memory. */
static scratch *scratch_take(const nq_join_plan *plan, const nq_join_quarter *quarter,
                             nq_simd simd, const nq_stop_flag *stop)
{
    plan_shared *t = plan->shared;
    scratch *s;
    pthread_mutex_lock(&t->idle_lock);
    s = t->idle;
    if (s)
        t->idle = s->next;
    pthread_mutex_unlock(&t->idle_lock);
    if (!s) {
        size_t largest = (quarter ? quarter->largest : 0u) + 8u;
        s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        s->mt.block = aligned_alloc(64, sizeof *s->mt.block);
        nq_join_piece_list *lists[2] = { &s->pieces.top, &s->pieces.bottom };
        int nomem = !s->mt.block;
        for (unsigned i = 0; i < 2; i++) {
            lists[i]->d1 = malloc(largest * sizeof *lists[i]->d1);
            lists[i]->d2 = malloc(largest * sizeof *lists[i]->d2);
            lists[i]->key = malloc(largest * sizeof *lists[i]->key);
            nomem |= !lists[i]->d1 || !lists[i]->d2 || !lists[i]->key;
        }
        if (nomem) {
            scratch_destroy(s);
            return NULL;
        }
    }
    s->next = NULL;
    s->profile = NULL;
    s->quarter = quarter;
    s->gw.n = s->ge.n = plan->n;
    s->gw.c0 = 0;
    s->ge.c0 = plan->n - plan->h;
    s->gw.sieve = s->ge.sieve = &s->sieve;
    s->cuts = plan->cuts;
    s->mt.match = pick_kernel(plan, simd);
    s->mt.fill = nq_join_block_fill;
    s->simd = simd;
#if NQ_X86
    if (simd == NQ_SIMD_AVX2)
        s->mt.fill = nq_join_block_fill_avx2;
    if (simd == NQ_SIMD_AVX512)
        s->mt.fill = nq_join_block_fill_avx512;
#endif
    s->mt.stop = stop;
    return s;
}

static void idle_free(plan_shared *t)
{
    while (t->idle) {
        scratch *next = t->idle->next;
        scratch_destroy(t->idle);
        t->idle = next;
    }
}

static void scratch_give_back(const nq_join_plan *plan, scratch *s)
{
    plan_shared *t = plan->shared;
    pthread_mutex_lock(&t->idle_lock);
    s->next = t->idle;
    t->idle = s;
    pthread_mutex_unlock(&t->idle_lock);
}

int nq_join_solve_unit(const nq_join_plan *plan, uint64_t unit, nq_simd simd,
                       const nq_stop_flag *stop, nq_unit_result *out)
{
    scratch *s;
    const nq_join_quarter *quarter;
    uint64_t total = 0, first, end;
    int rc;

    if (!plan || !out || unit >= plan->nunits)
        return NQ_EINVAL;
    rc = check_level(plan, simd);
    if (rc != NQ_OK)
        return rc;
    if (nq_stopped(stop))
        return NQ_ECANCELED;
    if (plan->n < NQ_JOIN_MIN_N) {
        out->total = small_count(plan->n, 0, 0, 0, 0);
        out->unique = 0;
        return NQ_OK;
    }
    rc = plan_quarter(plan, stop, &quarter);
    if (rc != NQ_OK)
        return rc;
    s = scratch_take(plan, quarter, simd, stop);
    if (!s)
        return NQ_ENOMEM;
    first = unit * plan->group;
    end = first + plan->group < plan->space ? first + plan->group : plan->space;
    rc = solve_splits(plan, s, first, end, &total);
    scratch_give_back(plan, s);
    if (rc != NQ_OK)
        return rc;
    out->total = total;
    out->unique = 0;
    return NQ_OK;
}

uint64_t nq_join_plan_splits(const nq_join_plan *plan)
{
    return plan && plan->n >= NQ_JOIN_MIN_N ? plan->space : 0;
}

unsigned nq_join_plan_n(const nq_join_plan *plan)
{
    return plan ? plan->n : 0;
}

int nq_join_plan_walks(const nq_join_plan *plan)
{
    return plan && atomic_load(&plan->shared->state) == 2;
}

int nq_join_profile_split(const nq_join_plan *plan, uint64_t split, nq_simd simd,
                          int table, const nq_stop_flag *stop,
                          nq_join_profile *prof)
{
    const nq_join_quarter *quarter = NULL;
    uint64_t total = 0;
    scratch *s;
    int rc;

    if (!plan || !prof || plan->n < NQ_JOIN_MIN_N || split >= plan->space)
        return NQ_EINVAL;
    rc = check_level(plan, simd);
    if (rc == NQ_OK && table)
        rc = plan_quarter(plan, stop, &quarter);
    if (rc != NQ_OK)
        return rc;
    if (quarter) {
        s = scratch_take(plan, quarter, simd, stop);
    } else { /* its piece lists are too short for a unit that uses the
              * table: it never joins the plan's idle ones */
        s = prof->keep ? prof->keep : scratch_take(plan, NULL, simd, stop);
        prof->keep = NULL;
    }
    if (!s)
        return NQ_ENOMEM;
    s->profile = prof;
    rc = solve_splits(plan, s, split, split + 1, &total);
    s->profile = NULL;
    if (quarter)
        scratch_give_back(plan, s);
    else
        prof->keep = s;
    if (rc == NQ_OK)
        prof->total += total;
    return rc;
}

void nq_join_profile_end(nq_join_profile *prof)
{
    if (!prof)
        return;
    if (prof->keep)
        scratch_destroy(prof->keep);
    free(prof->pkey);
    free(prof->pweight);
    prof->keep = NULL;
    prof->pkey = NULL;
    prof->pweight = NULL;
    prof->pcap = 0;
}

/* Key list capacities (east plus west, in keys) of the fullest split,
 * measured for n = 18, 19 and 20, and the growth per n beyond (the even
 * boards' rate, the larger). Below 18 the lists stay within 8192 keys. */
static const uint64_t nq_join_keys_measured[3] = { 33792u, 20480u, 163840u };
#define NQ_JOIN_KEYS_GROWTH_NUM 13u /* 2.6 per n */
#define NQ_JOIN_KEYS_GROWTH_DEN 5u
/* Scratch per unit besides the key lists: 1 MiB for the block and the
 * rest, and two piece lists (three arrays each) as long as the fullest
 * cell of the quarter table: 946 pieces at n = 20, 2020 at 21, 3571 at
 * 22, 7714 at 23 and 15003 at 24 (measured), about twice as many per n. */
#define NQ_JOIN_FIXED_SCRATCH ((uint64_t)1 << 20)
#define NQ_JOIN_CELL_AT_20 1200u

uint64_t nq_join_unit_memory(unsigned n)
{
    uint64_t keys = 8192u, cell;
    if (n < NQ_JOIN_MIN_N)
        return 0;
    if (n >= 18) {
        unsigned base = n > 20 ? 20u : n;
        keys = nq_join_keys_measured[base - 18];
        for (unsigned i = base; i < n; i++)
            keys = keys / NQ_JOIN_KEYS_GROWTH_DEN * NQ_JOIN_KEYS_GROWTH_NUM;
    }
    /* keys of 8 bytes in three arrays (east, west and the sort's spare,
     * which trade places), and an array may hold its old and new room at
     * once while it grows */
    cell = n > 20 ? (uint64_t)NQ_JOIN_CELL_AT_20 << (n - 20) : NQ_JOIN_CELL_AT_20;
    return 3 * keys * sizeof(uint64_t) + NQ_JOIN_FIXED_SCRATCH +
           6 * (cell + 8) * sizeof(uint64_t);
}

/* The table when it fits beside the threads' scratch, else the walk. */
static int nq_join_fit_memory(nq_join_plan *plan, unsigned threads,
                              uint64_t limit, uint64_t *out)
{
    uint64_t per_thread = nq_join_unit_memory(plan->n), table, all;
    if (plan->n < NQ_JOIN_MIN_N) {
        *out = 0;
        return NQ_OK;
    }
    if (threads == 0 || per_thread > limit / threads) {
        *out = per_thread * (threads ? threads : 1u);
        return NQ_EMEMORY;
    }
    all = per_thread * threads;
    table = nq_join_quarter_bytes(plan->n - plan->h, plan->h, limit - all);
    if (table == UINT64_MAX) {
        atomic_store(&plan->shared->state, 2); /* walk the halves */
        table = 0;
    }
    plan->table_limit = table;
    *out = all + table;
    return NQ_OK;
}

/* ========================================================================
 * The method's row (method.h)
 * ======================================================================== */

static int nq_join_build_any(void **plan, unsigned n)
{
    return nq_join_plan_build((nq_join_plan **)plan, n);
}

static uint64_t nq_join_size_any(const void *plan)
{
    return nq_join_plan_size(plan);
}

static int nq_join_solve_any(const void *plan, uint64_t unit, nq_simd simd,
                             const nq_stop_flag *stop, nq_unit_result *out)
{
    return nq_join_solve_unit(plan, unit, simd, stop, out);
}

static void nq_join_free_any(void *plan) { nq_join_plan_free(plan); }

static int nq_join_fit_any(void *plan, unsigned threads, uint64_t limit,
                           uint64_t *out)
{
    return nq_join_fit_memory(plan, threads, limit, out);
}

static int nq_join_prepare_any(void *plan, const nq_stop_flag *stop)
{
    const nq_join_quarter *quarter;
    return plan_quarter(plan, stop, &quarter);
}

static int nq_join_has_simd(nq_simd simd)
{
#if NQ_X86
    return simd == NQ_SIMD_NONE || simd == NQ_SIMD_AVX2 || simd == NQ_SIMD_AVX512;
#else
    return simd == NQ_SIMD_NONE;
#endif
}

const nq_method_ops nq_join_method = {
    NQ_METHOD_JOIN, "join", NQ_JOIN_UNIT_LIST_VERSION, 0,
    nq_join_build_any, nq_join_size_any, nq_join_solve_any, nq_join_free_any,
    nq_join_has_simd, nq_join_fit_any, nq_join_prepare_any, nq_join_model,
};
