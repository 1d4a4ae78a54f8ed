/*
 * join_sieve.c - a split's keys made small and sorted into buckets, and
 * the disjoint pairs counted bucket against bucket.
 *
 * Two savings, both exact, on top of the bit-sliced count of the kernels (join_scalar.c):
 *
 * Holes. A key bit that no east key or no west key can hold never causes
 * a clash, so it is dead weight in every AND. join_split.c already cuts each
 * direction's diagonals down to the span that both halves of the split
 * reach; what is left are the few diagonals inside that span that one
 * side never holds (the long diagonals, barred in the east half when the
 * split is weighted by them; the middle queen's two on odd boards; rare
 * gaps between rows). They are squeezed out (nq_join_squeeze, join_half.h),
 * so that a key takes fewer chunks of the block's table; since the
 * squeeze of a | b is the OR of the squeezes, join_quarter.c squeezes each
 * quarter piece's share of a key once, not every key.
 *
 * Buckets. A few key bits near the middle of each direction, the
 * diagonals that both halves occupy most often, become a bucket number.
 * An east and a west key can be disjoint only if their bucket numbers
 * are, so both lists are sorted by bucket (a counting sort: two passes),
 * and each stored block of 512 keys is matched against the items of the
 * buckets that are disjoint from at least one bucket inside the block.
 * The bucket bits stay in the keys, so a block that holds several buckets
 * still counts exactly; they only let most item/block pairs be skipped.
 * With k bucket bits about 0.67^k of the pairs remain (counted at n = 16
 * to 18), as long as each bucket fills a block or so: join_split.c picks
 * k from the lists' sizes.
 *
 * West keys are also sorted by how many of the two long diagonals they
 * hold (their class, carried in two flag bits of the squeezed key), since
 * join_split.c weights a split's pairs by it. A split whose east list
 * fits one block sorts neither list: the match weights each west key by its flags
 * (nq_join_match_fn), and join_split.c calls the kernels itself.
 */
#include "join_sieve.h"

#include <stdlib.h>
#include <string.h>

/* A squeezed key without its class flags (bits 62 and 63): at most 52
 * bits (54 at n = 28, less the two long diagonals of even boards; 50 at
 * n = 27). */
#define KEY_MASK (~(3ull << NQ_JOIN_CLASS_SHIFT))
/* Items matched against a block between two polls of the stop flag. */
#define POLL_ITEMS 65536u

#if defined(__GNUC__)
#define CTZ64(x) ((unsigned)__builtin_ctzll(x))
#define POPCOUNT64(x) ((unsigned)__builtin_popcountll(x))
#else
static unsigned CTZ64(uint64_t x)
{
    unsigned c = 0;
    for (; !(x & 1u); x >>= 1)
        c++;
    return c;
}
static unsigned POPCOUNT64(uint64_t x)
{
    unsigned c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}
#endif

void nq_join_sieve_holes(nq_join_sieve *sv, uint64_t holes, uint64_t class_bits,
                         unsigned len1, unsigned len2)
{
    const unsigned holes1 = POPCOUNT64(holes & ((1ull << len1) - 1u));
    const uint64_t second = class_bits & (class_bits - 1u);
    sv->nholes = 0;
    for (unsigned b = 64; b-- > 0;)
        if (holes >> b & 1u)
            sv->hole[sv->nholes++] = (uint8_t)b;
    sv->has_class = class_bits != 0;
    sv->class1 = class_bits ? CTZ64(class_bits) : 0u;
    sv->class2 = second ? CTZ64(second) : sv->class1;
    sv->left1 = len1 - holes1;
    sv->bits = len1 + len2 - POPCOUNT64(holes);
    nq_join_sieve_cuts(sv, 0);
}

void nq_join_sieve_cuts(nq_join_sieve *sv, unsigned cuts)
{
    const unsigned left1 = sv->left1, left2 = sv->bits - left1;
    unsigned run1 = (cuts + 1) / 2, run2;
    if (run1 > left1)
        run1 = left1;
    run2 = cuts - run1 > left2 ? left2 : cuts - run1;
    if (run1 + run2 < cuts) /* direction 2 was short */
        run1 = cuts - run2 > left1 ? left1 : cuts - run2;
    sv->run1 = run1;
    sv->run2 = run2;
    sv->cut1 = (left1 - run1) / 2;
    sv->cut2 = left1 + (left2 - run2) / 2;
    sv->buckets = 1u << (run1 + run2);
}

/* Keys k[0 .. n) into t by class (0, 1 or 2: how many of the two class
 * flags a key holds), flags cleared, off[0 .. 3] set. The counts are
 * sums over the flags, the three write positions stay in registers: no
 * counter in memory that the next key waits on. */
static void sort_classes(const uint64_t *k, size_t n, uint64_t *t, size_t *off)
{
    size_t ones = 0, both = 0, p0, p1, p2;
    for (size_t i = 0; i < n; i++) {
        const unsigned f1 = (unsigned)(k[i] >> NQ_JOIN_CLASS_SHIFT & 1u),
                       f2 = (unsigned)(k[i] >> (NQ_JOIN_CLASS_SHIFT + 1));
        ones += f1 + f2;
        both += f1 & f2;
    }
    off[0] = 0;
    off[1] = n - (ones - both);         /* class 0: neither flag */
    off[2] = off[1] + (ones - 2 * both); /* class 1: one flag */
    off[3] = n;
    p0 = off[0];
    p1 = off[1];
    p2 = off[2];
    for (size_t i = 0; i < n; i++) {
        const uint64_t x = k[i];
        const unsigned cls = nq_join_key_class(x);
        const size_t at = cls == 0 ? p0 : cls == 1 ? p1 : p2;
        t[at] = x & KEY_MASK;
        p0 += cls == 0;
        p1 += cls == 1;
        p2 += cls == 2;
    }
}

/* A counting sort, the list taken CHUNK keys at a time: each chunk's
 * bins are worked out together (the level's bins kernel) into a small
 * array that stays in the first-level cache, then counted (the chunk's
 * quarters with counters of their own, so that neighbouring keys of one
 * bin do not wait on each other's increment); after the starts are
 * summed, each chunk's bins are worked out again and its keys placed in
 * list order, so the sort is stable. Working each key's bin out alone,
 * inside both loops, took about twice as long at AVX-512 (n = 19 and
 * 20: docs/performance.md). */
#define STREAMS NQ_JOIN_SORT_STREAMS
#define CHUNK 2048u
_Static_assert(NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS <= 65536u,
               "a bin number fits the sort's 16 bits");
void nq_join_sieve_sort(const nq_join_sieve *sv, nq_join_keys *keys, nq_join_keys *tmp,
                        unsigned classes, size_t *off, uint32_t *count,
                        nq_join_bins_fn bins_of)
{
    const unsigned bins = classes * sv->buckets;
    uint64_t *k = keys->keys, *t = tmp->keys;
    const size_t n = keys->count;
    uint16_t bin[CHUNK];
    size_t sum = 0;

    if (bins == 1) { /* one bin (short lists, no classes): nothing moves */
        for (size_t i = 0; i < n; i++)
            k[i] &= KEY_MASK;
        off[0] = 0;
        off[1] = n;
        return;
    }
    if (sv->buckets == 1) { /* classes only (short west lists) */
        sort_classes(k, n, t, off);
        goto swap;
    }
    memset(count, 0, (size_t)STREAMS * bins * sizeof *count);
    for (size_t at = 0; at < n; at += CHUNK) {
        const size_t len = n - at < CHUNK ? n - at : CHUNK, q = len / STREAMS;
        bins_of(sv, k + at, len, classes, bin);
        for (size_t i = 0; i < q; i++)
            for (unsigned j = 0; j < STREAMS; j++)
                count[j * bins + bin[j * q + i]]++;
        for (size_t i = STREAMS * q; i < len; i++) /* the tail: the last stream */
            count[(STREAMS - 1) * bins + bin[i]]++;
    }
    for (unsigned b = 0; b < bins; b++) {
        off[b] = sum;
        for (unsigned j = 0; j < STREAMS; j++)
            sum += count[j * bins + b];
        count[b] = (uint32_t)off[b];
    }
    off[bins] = sum;
    for (size_t at = 0; at < n; at += CHUNK) {
        const size_t len = n - at < CHUNK ? n - at : CHUNK;
        bins_of(sv, k + at, len, classes, bin);
        for (size_t i = 0; i < len; i++)
            t[count[bin[i]]++] = k[at + i] & KEY_MASK;
    }
swap:
    /* the sorted list becomes the keys; the old array is the next scratch */
    tmp->keys = k;
    keys->keys = t;
    {
        size_t cap = tmp->cap;
        tmp->cap = keys->cap;
        keys->cap = cap;
    }
}

/* The buckets a block meets, one bit each. */
#define WANT_WORDS (NQ_JOIN_MAX_BUCKETS / 64u)

/* Marks in want every bucket b < nb with a & b == 0: the subsets of the
 * bits that a lacks. */
static void mark_disjoint(uint64_t *want, unsigned a, unsigned nb)
{
    const unsigned rest = ~a & (nb - 1u);
    for (unsigned b = rest;; b = (b - 1u) & rest) {
        want[b >> 6] |= 1ull << (b & 63u);
        if (!b)
            break;
    }
}

/* The first bucket from `from` on whose bit in want is `set` (nb when
 * none is): a run of wanted buckets is [first set, next clear). Bits past
 * nb are clear. */
static unsigned next_bucket(const uint64_t *want, unsigned from, unsigned nb, int set)
{
    while (from < nb) {
        const uint64_t w = (set ? want[from >> 6] : ~want[from >> 6]) & (~0ull << (from & 63u));
        if (w) {
            const unsigned b = (from & ~63u) + CTZ64(w);
            return b < nb ? b : nb;
        }
        from = (from | 63u) + 1u;
    }
    return nb;
}

int nq_join_match_items(const nq_join_matcher *mt, const uint64_t *items, size_t count,
                        unsigned shifts, uint64_t *out)
{
    for (size_t i = 0; i < count;) {
        const size_t ni = count - i < POLL_ITEMS ? count - i : POLL_ITEMS;
        if (nq_stopped(mt->stop))
            return NQ_ECANCELED;
        *out += mt->match(mt->block, mt->chunks, items + i, ni, shifts);
        i += ni;
    }
    return NQ_OK;
}

int nq_join_sieve_match(const nq_join_matcher *mt, const uint64_t *stored,
                        const size_t *soff, const uint64_t *items,
                        const size_t *ioff, unsigned nb, uint64_t *out)
{
    uint64_t pairs = 0;
    unsigned a = 0;
    const size_t end_all = soff[nb];
    for (size_t f = soff[0]; f < end_all; f += NQ_JOIN_BLOCK) {
        const size_t end = end_all - f > NQ_JOIN_BLOCK ? f + NQ_JOIN_BLOCK : end_all;
        uint64_t want[WANT_WORDS];
        int filled = 0;
        while (soff[a + 1] <= f)
            a++;
        if (mt->sample_step > 1 && (*mt->sample_at)++ % mt->sample_step != 0)
            continue; /* a block the sample leaves out */
        memset(want, 0, ((nb + 63u) / 64u) * sizeof *want);
        for (unsigned a2 = a; a2 < nb && soff[a2] < end; a2++)
            if (soff[a2 + 1] > soff[a2])
                mark_disjoint(want, a2, nb);
        /* runs of wanted buckets are runs of items: one kernel call each */
        for (unsigned b0 = next_bucket(want, 0, nb, 1), b1; b0 < nb;
             b0 = next_bucket(want, b1, nb, 1)) {
            b1 = next_bucket(want, b0, nb, 0);
            if (ioff[b1] == ioff[b0])
                continue;
            if (!filled) {
                mt->fill(mt->block, stored + f, end - f, mt->chunks);
                filled = 1;
            }
            if (nq_join_match_items(mt, items + ioff[b0], ioff[b1] - ioff[b0], 0, &pairs) !=
                NQ_OK)
                return NQ_ECANCELED;
        }
    }
    *out += mt->sample_step > 1 ? pairs * mt->sample_step : pairs;
    return NQ_OK;
}
