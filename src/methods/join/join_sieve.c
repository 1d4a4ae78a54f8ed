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
 * gaps between rows). They are squeezed out (nq_join_squeeze, join_internal.h),
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
 * to 18), as long as each bucket fills a block or so: join.c picks k from
 * the lists' sizes.
 *
 * West keys are also sorted by how many of the two long diagonals they
 * hold (their class, carried in two flag bits of the squeezed key), since
 * join.c weights a split's pairs by it.
 */
#include "join_internal.h"

#include <string.h>

/* The bin of a key (class, bucket) rides in bits 52 to 63 between the
 * two passes of the sort: squeezed keys have at most 52 bits (54 at
 * n = 28, less the two long diagonals of even boards; 50 at n = 27), and
 * there are at most 3 x 1024 bins. */
#define BIN_SHIFT 52u
#define KEY_MASK ((1ull << BIN_SHIFT) - 1u)
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

static inline unsigned bucket_of(const nq_join_sieve *sv, uint64_t y)
{
    return (unsigned)((y >> sv->cut1) & ((1ull << sv->run1) - 1u)) |
           (unsigned)((y >> sv->cut2) & ((1ull << sv->run2) - 1u)) << sv->run1;
}

void nq_join_sieve_sort(const nq_join_sieve *sv, nq_join_keys *keys,
                        nq_join_keys *tmp, unsigned classes, size_t *off)
{
    const unsigned nb = sv->buckets, bins = classes * nb;
    size_t count[NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS];
    uint64_t *k = keys->keys, *t;
    size_t sum = 0;

    for (unsigned b = 0; b < bins; b++)
        count[b] = 0;

    for (size_t i = 0; i < keys->count; i++) {
        const uint64_t x = k[i], y = x & KEY_MASK;
        const unsigned cls = classes > 1 ? (unsigned)(x >> NQ_JOIN_CLASS_SHIFT & 1u) +
                                           (unsigned)(x >> (NQ_JOIN_CLASS_SHIFT + 1)) : 0u;
        const unsigned bin = cls * nb + bucket_of(sv, y);
        count[bin]++;
        k[i] = y | (uint64_t)bin << BIN_SHIFT;
    }
    for (unsigned b = 0; b < bins; b++) {
        off[b] = sum;
        sum += count[b];
        count[b] = off[b];
    }
    off[bins] = sum;
    t = tmp->keys;
    for (size_t i = 0; i < keys->count; i++) {
        const uint64_t x = k[i];
        t[count[x >> BIN_SHIFT]++] = x & KEY_MASK;
    }
    /* the sorted list becomes the keys; the old array is the next scratch */
    tmp->keys = k;
    keys->keys = t;
    {
        size_t cap = tmp->cap;
        tmp->cap = keys->cap;
        keys->cap = cap;
    }
}

/* Marks in want[] every bucket b < nb with a & b == 0: the subsets of
 * the bits that a lacks. */
static void mark_disjoint(uint8_t *want, unsigned a, unsigned nb)
{
    const unsigned rest = ~a & (nb - 1u);
    for (unsigned b = rest;; b = (b - 1u) & rest) {
        want[b] = 1;
        if (!b)
            break;
    }
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
        uint8_t want[NQ_JOIN_MAX_BUCKETS + 1];
        int filled = 0;
        while (soff[a + 1] <= f)
            a++;
        memset(want, 0, nb + 1u);
        for (unsigned a2 = a; a2 < nb && soff[a2] < end; a2++)
            if (soff[a2 + 1] > soff[a2])
                mark_disjoint(want, a2, nb);
        /* runs of wanted buckets are runs of items: one kernel call each */
        for (unsigned b0 = 0; b0 < nb; b0++) {
            unsigned b1 = b0;
            if (!want[b0] || ioff[b0] == ioff[b0 + 1])
                continue;
            while (want[b1 + 1]) /* want[nb] stays 0 */
                b1++;
            if (!filled) {
                mt->fill(mt->block, stored + f, end - f, mt->chunks);
                filled = 1;
            }
            for (size_t i = ioff[b0]; i < ioff[b1 + 1];) {
                const size_t ni = ioff[b1 + 1] - i < POLL_ITEMS ? ioff[b1 + 1] - i : POLL_ITEMS;
                if (nq_stopped(mt->stop))
                    return NQ_ECANCELED;
                pairs += mt->match(mt->block, mt->chunks, items + i, ni);
                i += ni;
            }
            b0 = b1;
        }
    }
    *out += pairs;
    return NQ_OK;
}
