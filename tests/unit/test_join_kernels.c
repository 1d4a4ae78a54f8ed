/*
 * test_join_kernels.c - the join method's kernels: every row of the
 * kernel table (src/methods/join/join_kernel.h) against the scalar one
 * and against naive loops (fill and match, take and pairs, the sieve's
 * buckets).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "platform/cpu.h"
#include "methods/join/join_block.h"
#include "methods/join/join_half.h"
#include "methods/join/join_kernel.h"
#include "methods/join/join_keys.h"
#include "methods/join/join_scalar.h"
#include "methods/join/join_sieve.h"
#include "test_join.h"

/* Pairs of keys with no common bit, counted one pair at a time. */
static uint64_t naive_pairs(const uint64_t *a, size_t na, const uint64_t *b,
                            size_t nb)
{
    uint64_t c = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            c += (a[i] & b[j]) == 0;
    return c;
}

/* The rows of the kernel table that this build and CPU run, scalar first,
 * with their levels; a level the build or the CPU lacks is named. */
static unsigned kernels(const nq_join_kernel *out[3], nq_simd lv[3])
{
    static const nq_simd all[] = { NQ_SIMD_NONE, NQ_SIMD_AVX2, NQ_SIMD_AVX512 };
    unsigned k = 0;
    for (unsigned i = 0; i < 3; i++) {
        const nq_join_kernel *row = nq_join_kernel_of(all[i]);
        if (!row)
            print_message("no join kernels of %s in this build\n", nq_simd_name(all[i]));
        else if (!nq_cpu_runs(nq_cpu_simd_best(), all[i]))
            print_message("no %s on this CPU: its join kernels are not tested\n",
                          nq_simd_name(all[i]));
        else {
            lv[k] = all[i];
            out[k++] = row;
        }
    }
    return k;
}

/* Random keys of each width and density, blocks full and partial (up to
 * and past 256 keys, where the wide fills leave the rows' high words
 * alone), an item of key 0: every row's fill and match (and the faster
 * match, where the CPU runs it) count what the naive loop counts, and a
 * block filled by one wide row reads the same through another's match. */
static void test_kernels_match_naive(void **state)
{
    static const size_t sizes[] = { 1, 63, 64, 65, 255, 256, 257, 300, 512 };
    const nq_join_kernel *k[3];
    nq_simd lv[3];
    const unsigned nk_rows = kernels(k, lv);
    nq_join_block *block = aligned_alloc(64, sizeof *block);
    /* 600 items: past the 127 that the AVX2 weighted match sums at once */
    uint64_t keys[512], items[600], flagged[600], seed = 12345;
    (void)state;
    assert_non_null(block);
    assert_null(nq_join_kernel_of(NQ_SIMD_AUTO));
    assert_null(nq_join_kernel_of((nq_simd)99));
    /* every chunk count: the wide matches unroll each one on its own */
    for (unsigned chunks = 1; chunks <= NQ_JOIN_MAX_CHUNKS; chunks++) {
        const unsigned bits = chunks * NQ_JOIN_CHUNK_BITS - 2; /* as keys are */
        const uint64_t mask = (1ull << bits) - 1u;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const size_t nk = sizes[s];
            for (size_t i = 0; i < nk; i++) /* sparse keys, so pairs exist */
                keys[i] = next_random(&seed) & next_random(&seed) &
                          next_random(&seed) & mask;
            for (size_t i = 0; i < 600; i++)
                items[i] = i == 0 ? 0 : next_random(&seed) & next_random(&seed) & mask;
            const uint64_t want = naive_pairs(keys, nk, items, 200);
            /* weighted: random class flags, a random shift for each */
            const unsigned shifts = 1u + (unsigned)(next_random(&seed) % 255u);
            uint64_t want_w = 0;
            for (size_t i = 0; i < 600; i++) {
                flagged[i] = items[i] | (next_random(&seed) & 3u) << NQ_JOIN_CLASS_SHIFT;
                want_w += naive_pairs(keys, nk, &items[i], 1)
                          << nq_join_item_shift(shifts, flagged[i]);
            }
            for (unsigned f = 0; f < nk_rows; f++) {
                /* what a fill may leave unwritten holds garbage: every
                 * match must leave it out */
                memset(block, 0xa5, sizeof *block);
                k[f]->fill(block, keys, nk, chunks);
                for (unsigned m = 0; m < nk_rows; m++) {
                    /* the portable match reads every word of a row, and
                     * is only given the portable fill's blocks */
                    if (lv[m] == NQ_SIMD_NONE && lv[f] != NQ_SIMD_NONE)
                        continue;
                    assert_int_equal(k[m]->match(block, chunks, items, 200, 0), want);
                    assert_int_equal(k[m]->match(block, chunks, flagged, 600, shifts), want_w);
                    if (k[m]->match_vpopcnt && nq_cpu_has_vpopcnt()) {
                        assert_int_equal(k[m]->match_vpopcnt(block, chunks, items, 200, 0),
                                         want);
                        assert_int_equal(k[m]->match_vpopcnt(block, chunks, flagged, 600,
                                                             shifts),
                                         want_w);
                    }
                }
            }
        }
    }
    free(block);
}

/* Random table entries, frames, bars, holes and diagonal masks, lists of
 * every length from 0 to 40 (whole vectors and tails): every row takes the
 * pieces the scalar row takes, in the same order, and pairs them the same. */
static void test_kernels_take_and_pair(void **state)
{
    enum { MAXN = 40 };
    const nq_join_kernel *k[3];
    nq_simd lv[3];
    const unsigned nrows = kernels(k, lv);
    uint64_t src[MAXN], seed = 4242;
    uint64_t want_d1[MAXN + 8], want_d2[MAXN + 8], want_key[MAXN + 8];
    uint64_t got_d1[MAXN + 8], got_d2[MAXN + 8], got_key[MAXN + 8];
    uint64_t want_pairs[3 * MAXN + 8], got_pairs[3 * MAXN + 8];
    (void)state;
    for (unsigned trial = 0; trial < 200; trial++) {
        const size_t n = trial % (MAXN + 1);
        const unsigned len1 = 1 + (unsigned)(next_random(&seed) % 26);
        const unsigned len2 = 1 + (unsigned)(next_random(&seed) % 26);
        nq_join_sieve sv;
        nq_join_frame fr;
        nq_join_piece_list want = { want_d1, want_d2, want_key };
        for (size_t i = 0; i < n; i++)
            src[i] = next_random(&seed) & 0x00ffffff00ffffffull;
        nq_join_sieve_holes(&sv, next_random(&seed) & next_random(&seed) &
                                     ((1ull << (len1 + len2)) - 1u),
                            trial % 2 ? 1ull | 1ull << len1 : 0, len1, len2);
        fr.shift1 = (unsigned)(next_random(&seed) % 8);
        fr.shift2 = (unsigned)(next_random(&seed) % 8);
        fr.bar1 = next_random(&seed) & next_random(&seed) & next_random(&seed);
        fr.bar2 = next_random(&seed) & next_random(&seed) & next_random(&seed);
        fr.s1 = (unsigned)(next_random(&seed) % 8);
        fr.s2 = (unsigned)(next_random(&seed) % 8);
        fr.len1 = len1;
        fr.mask1 = (1ull << len1) - 1u;
        fr.mask2 = (1ull << len2) - 1u;
        fr.sieve = &sv;
        /* a third of the trials keep every piece and mark the barred */
        fr.keep = trial % 3 == 2;
        fr.own = fr.keep ? NQ_JOIN_MARK_TOP : 0;
        fr.other = fr.keep ? NQ_JOIN_MARK_BOTTOM : 0;
        /* some ask for class flags: pieces without one are marked */
        fr.need = trial % 4 == 1 || trial % 12 == 5 ? 3ull << NQ_JOIN_CLASS_SHIFT : 0;
        const size_t m = nq_join_take_scalar(&want, src, n, &fr);
        for (size_t i = 0; i < m; i++)
            assert_int_equal(!!(want_d1[i] & NQ_JOIN_MARK_PLAIN),
                             fr.need && !(want_key[i] & fr.need));
        if (fr.keep) {
            assert_int_equal(m, n);
            for (size_t i = 0; i < n; i++) {
                const uint64_t d1 = (src[i] & 0xffffffffu) << fr.shift1,
                               d2 = (src[i] >> 32) << fr.shift2;
                const int barred = ((d1 & fr.bar1) | (d2 & fr.bar2)) != 0;
                assert_int_equal(want_d1[i] & ~NQ_JOIN_MARK_PLAIN,
                                 d1 | NQ_JOIN_MARK_TOP | (barred ? NQ_JOIN_MARK_BOTTOM : 0));
            }
        }
        /* outer pieces: the first no of the list, their keys moved up so
         * that the pairs show which outer piece made them */
        const size_t no = m < 3 ? m : 3;
        uint64_t outer_key[3], outer_d1[3], outer_d2[3];
        for (size_t i = 0; i < no; i++) {
            outer_key[i] = want_key[i] << 8 | (next_random(&seed) & 0xffu);
            outer_d1[i] = next_random(&seed) & next_random(&seed);
            outer_d2[i] = next_random(&seed) & next_random(&seed);
        }
        if (fr.keep && no) /* the bottom list's mark: it meets no barred piece */
            outer_d1[0] |= NQ_JOIN_MARK_BOTTOM;
        const nq_join_piece_list outer = { outer_d1, outer_d2, outer_key };
        const size_t p = nq_join_pairs_scalar(want_pairs, &outer, no, &want, m);
        assert_true(m <= n && p <= no * m);
        size_t q = 0;
        for (size_t i = 0; i < no; i++) /* each pair, by hand */
            for (size_t j = 0; j < m; j++)
                if (((outer_d1[i] & want_d1[j]) | (outer_d2[i] & want_d2[j])) == 0)
                    assert_int_equal(want_pairs[q++], outer_key[i] | want_key[j]);
        assert_int_equal(q, p);
        for (unsigned r = 0; r < nrows; r++) {
            nq_join_piece_list got = { got_d1, got_d2, got_key };
            assert_int_equal(k[r]->take(&got, src, n, &fr), m);
            assert_memory_equal(got_d1, want_d1, m * sizeof *got_d1);
            assert_memory_equal(got_d2, want_d2, m * sizeof *got_d2);
            assert_memory_equal(got_key, want_key, m * sizeof *got_key);
            assert_int_equal(k[r]->pairs(got_pairs, &outer, no, &want, m), p);
            assert_memory_equal(got_pairs, want_pairs, p * sizeof *got_pairs);
        }
    }
}

/* Pairs (e, w) of class c whose keys share no bit outside `holes`, one
 * pair at a time. */
static uint64_t naive_class_pairs(const uint64_t *e, size_t ne, const uint64_t *w,
                                  size_t nw, uint64_t holes, uint64_t class_bits,
                                  unsigned c)
{
    uint64_t n = 0;
    for (size_t j = 0; j < nw; j++) {
        if ((unsigned)__builtin_popcountll(w[j] & class_bits) != c)
            continue;
        for (size_t i = 0; i < ne; i++)
            n += (e[i] & w[j] & ~holes) == 0;
    }
    return n;
}

/* A class bit at random in each direction of a key of len1 + len2 bits. */
static uint64_t class_bit_each_way(uint64_t *seed, unsigned len1, unsigned len2)
{
    const uint64_t b1 = 1ull << (next_random(seed) % len1);
    return b1 | 1ull << (len1 + next_random(seed) % len2);
}

/* The bin that the sort puts squeezed key x in, one key alone: its class
 * (with classes > 1), then its bucket. */
static unsigned naive_bin(const nq_join_sieve *sv, unsigned classes, uint64_t x)
{
    return (classes > 1 ? nq_join_key_class(x) : 0u) * sv->buckets + nq_join_bucket(sv, x);
}

/* Random lists, holes, class bits and bucket bits: squeezing, sorting and
 * matching bucket against bucket counts what the naive loop counts, class
 * by class, with every kernel. */
static void test_sieve_matches_naive(void **state)
{
    enum { NE = 1100, NW = 900 };
    const nq_join_kernel *rows[3];
    nq_simd lv[3];
    unsigned nl = kernels(rows, lv);
    nq_join_block *block = aligned_alloc(64, sizeof *block);
    uint64_t raw_e[NE], raw_w[NW], seed = 777;
    nq_join_keys e = { NULL, 0, 0 }, w = { NULL, 0, 0 }, spare = { NULL, 0, 0 };
    size_t *eoff = malloc((NQ_JOIN_MAX_BUCKETS + 1) * sizeof *eoff);
    size_t *woff = malloc((NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS + 1) * sizeof *woff);
    uint32_t *count = malloc(NQ_JOIN_SORT_STREAMS * NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS *
                             sizeof *count);
    uint64_t *want_w = malloc(NW * sizeof *want_w);
    (void)state;
    assert_non_null(block);
    assert_true(eoff && woff && count && want_w);
    for (unsigned trial = 0; trial < 60; trial++) {
        const unsigned len1 = 1 + (unsigned)(next_random(&seed) % 27);
        const unsigned len2 = 1 + (unsigned)(next_random(&seed) % 27);
        const uint64_t all = (1ull << (len1 + len2)) - 1u;
        const unsigned classes = trial % 2 ? 3u : 1u;
        /* a class bit in each direction (holes: the east half never holds
         * them), and a few more holes */
        const uint64_t class_bits = classes > 1 ? class_bit_each_way(&seed, len1, len2) : 0;
        const uint64_t holes = (class_bits |
            (next_random(&seed) & next_random(&seed) & next_random(&seed))) & all;
        nq_join_sieve sv;
        const size_t ne = 1 + next_random(&seed) % NE, nw = 1 + next_random(&seed) % NW;
        for (size_t i = 0; i < ne; i++)
            raw_e[i] = next_random(&seed) & next_random(&seed) & all & ~class_bits;
        for (size_t i = 0; i < nw; i++)
            raw_w[i] = next_random(&seed) & next_random(&seed) & all;
        nq_join_sieve_holes(&sv, holes, class_bits, len1, len2);
        assert_int_equal(sv.bits, len1 + len2 - (unsigned)__builtin_popcountll(holes));
        nq_join_sieve_cuts(&sv, trial % (NQ_JOIN_MAX_CUTS + 1));
        assert_true(sv.buckets <= NQ_JOIN_MAX_BUCKETS);
        assert_int_equal(nq_join_keys_reserve(&e, ne), NQ_OK);
        assert_int_equal(nq_join_keys_reserve(&w, nw), NQ_OK);
        for (size_t i = 0; i < ne; i++)
            e.keys[i] = nq_join_squeeze(&sv, raw_e[i]);
        for (size_t i = 0; i < nw; i++)
            w.keys[i] = nq_join_squeeze(&sv, raw_w[i]);
        e.count = ne;
        w.count = nw;
        assert_int_equal(nq_join_keys_reserve(&spare, ne > nw ? ne : nw), NQ_OK);
        nq_join_sieve_sort(&sv, &e, &spare, 1, eoff, count, rows[trial % nl]->bins);
        /* the west list as a stable sort by (class, bucket) leaves it */
        {
            size_t at = 0;
            for (unsigned b = 0; b < classes * sv.buckets; b++)
                for (size_t i = 0; i < nw; i++)
                    if (naive_bin(&sv, classes, w.keys[i]) == b)
                        want_w[at++] = w.keys[i] & ~(3ull << NQ_JOIN_CLASS_SHIFT);
            assert_int_equal(at, nw);
        }
        assert_int_equal(nq_join_keys_reserve(&spare, ne > nw ? ne : nw), NQ_OK);
        nq_join_sieve_sort(&sv, &w, &spare, classes, woff, count, rows[trial % nl]->bins);
        assert_memory_equal(w.keys, want_w, nw * sizeof *want_w);
        assert_int_equal(eoff[sv.buckets], ne);
        assert_int_equal(woff[classes * sv.buckets], nw);
        for (size_t i = 0; i < ne; i++)
            assert_true(e.keys[i] < 1ull << sv.bits || sv.bits == 0);
        /* every east key lies in its bucket's range */
        for (unsigned b = 0; b < sv.buckets; b++)
            for (size_t i = eoff[b]; i < eoff[b + 1]; i++) {
                const uint64_t y = e.keys[i];
                const unsigned got_b =
                    (unsigned)((y >> sv.cut1) & ((1ull << sv.run1) - 1u)) |
                    (unsigned)((y >> sv.cut2) & ((1ull << sv.run2) - 1u)) << sv.run1;
                assert_int_equal(got_b, b);
            }
        for (unsigned c = 0; c < classes; c++) {
            const uint64_t want = naive_class_pairs(raw_e, ne, raw_w, nw, holes,
                                                    class_bits, classes > 1 ? c : 0);
            for (unsigned l = 0; l < nl; l++) {
                nq_join_matcher mt = {0}; /* sample_step 0: every block */
                uint64_t got = 0, got2 = 0, sampled = 0;
                mt.block = block;
                mt.fill = rows[l]->fill;
                mt.match = nq_join_match_of(rows[l], nq_cpu_has_vpopcnt());
                mt.chunks = sv.bits ? (sv.bits + NQ_JOIN_CHUNK_BITS - 1) / NQ_JOIN_CHUNK_BITS : 1;
                mt.stop = NULL;
                assert_int_equal(nq_join_sieve_match(&mt, e.keys, eoff, w.keys,
                                                     woff + c * sv.buckets, sv.buckets, &got), NQ_OK);
                assert_int_equal(got, want);
                /* either list may be the stored one */
                assert_int_equal(nq_join_sieve_match(&mt, w.keys, woff + c * sv.buckets,
                                                     e.keys, eoff, sv.buckets, &got2), NQ_OK);
                assert_int_equal(got2, want);
                /* a sample of one block in three, over its three phases:
                 * each block is taken once, its pairs counted thrice */
                for (uint64_t phase = 0; phase < 3; phase++) {
                    uint64_t at = phase;
                    mt.sample_step = 3;
                    mt.sample_at = &at;
                    assert_int_equal(nq_join_sieve_match(&mt, e.keys, eoff, w.keys,
                                                         woff + c * sv.buckets, sv.buckets,
                                                         &sampled), NQ_OK);
                }
                mt.sample_step = 0;
                assert_int_equal(sampled, 3 * want);
            }
        }
    }
    free(e.keys);
    free(w.keys);
    free(spare.keys);
    free(block);
    free(eoff);
    free(woff);
    free(count);
    free(want_w);
}

/* A key of the long sort's test: its bin, where it stood, the key. */
typedef struct {
    unsigned bin;
    size_t at;
    uint64_t key;
} sorted_key;

static int by_bin_then_place(const void *a, const void *b)
{
    const sorted_key *x = a, *y = b;
    if (x->bin != y->bin)
        return x->bin < y->bin ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* The sort on lists of several of its chunks (and of one key either side
 * of a chunk's end): every key in its bin, the bins' starts right, and
 * the keys of a bin in list order, against qsort by (bin, place). */
static void test_sieve_sort_long_lists(void **state)
{
    enum { MOST = 9000 };
    static const size_t sizes[] = { 2047, 2048, 2049, 4096, 6145, 8999 };
    uint64_t seed = 4242;
    nq_join_keys w = { NULL, 0, 0 }, spare = { NULL, 0, 0 };
    size_t *off = malloc((NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS + 1) * sizeof *off);
    uint32_t *count = malloc(NQ_JOIN_SORT_STREAMS * NQ_JOIN_MAX_CLASSES * NQ_JOIN_MAX_BUCKETS *
                             sizeof *count);
    sorted_key *want = malloc(MOST * sizeof *want);
    uint64_t *raw_list = malloc(MOST * sizeof *raw_list);
    const nq_join_kernel *row[3];
    nq_simd lv[3];
    const unsigned rows = kernels(row, lv);
    (void)state;
    assert_true(off && count && want && raw_list);
    for (unsigned trial = 0; trial < 36; trial++) {
        const unsigned len1 = 8 + (unsigned)(next_random(&seed) % 20);
        const unsigned len2 = 8 + (unsigned)(next_random(&seed) % 20);
        const uint64_t all = (1ull << (len1 + len2)) - 1u;
        const unsigned classes = trial % 2 ? 3u : 1u;
        const uint64_t class_bits = classes > 1 ? class_bit_each_way(&seed, len1, len2) : 0;
        const size_t n = trial < 12 ? sizes[trial % 6] : 1 + next_random(&seed) % MOST;
        nq_join_sieve sv;
        nq_join_sieve_holes(&sv, class_bits, class_bits, len1, len2);
        nq_join_sieve_cuts(&sv, trial % (NQ_JOIN_MAX_CUTS + 1));
        assert_int_equal(nq_join_keys_reserve(&w, n), NQ_OK);
        assert_int_equal(nq_join_keys_reserve(&spare, n), NQ_OK);
        uint64_t raw = 0;
        for (size_t i = 0; i < n; i++) {
            /* runs of three keys a bit apart, often of one bin, as
             * neighbours in a listing are */
            raw = i % 3 ? raw ^ 1ull << (next_random(&seed) % (len1 + len2))
                        : next_random(&seed) & all;
            const uint64_t x = nq_join_squeeze(&sv, raw);
            w.keys[i] = x;
            want[i].bin = naive_bin(&sv, classes, x);
            want[i].at = i;
            want[i].key = x & ~(3ull << NQ_JOIN_CLASS_SHIFT);
        }
        qsort(want, n, sizeof *want, by_bin_then_place);
        memcpy(raw_list, w.keys, n * sizeof *raw_list);
        for (unsigned r = 0; r < rows; r++) {
            memcpy(w.keys, raw_list, n * sizeof *raw_list);
            w.count = n;
            nq_join_sieve_sort(&sv, &w, &spare, classes, off, count, row[r]->bins);
            assert_int_equal(off[0], 0);
            assert_int_equal(off[classes * sv.buckets], n);
            for (size_t i = 0; i < n; i++) {
                assert_int_equal(w.keys[i], want[i].key);
                assert_true(off[want[i].bin] <= i && i < off[want[i].bin + 1]);
            }
        }
    }
    free(w.keys);
    free(spare.keys);
    free(off);
    free(count);
    free(want);
    free(raw_list);
}

/* Every level's bins kernel against the key's class and bucket, one key
 * at a time: random sieves and keys (flags set at random), lists of 0 to
 * 40 keys and a long one, so that every tail of a step is met. */
static void test_bins_kernels_match_naive(void **state)
{
    enum { LONG = 3001 };
    uint64_t seed = 99, *k = malloc(LONG * sizeof *k);
    uint16_t *bin = malloc(LONG * sizeof *bin);
    const nq_join_kernel *row[3];
    nq_simd lv[3];
    const unsigned rows = kernels(row, lv);
    (void)state;
    assert_true(k && bin);
    for (unsigned trial = 0; trial < 120; trial++) {
        const unsigned len1 = 1 + (unsigned)(next_random(&seed) % 27);
        const unsigned len2 = 1 + (unsigned)(next_random(&seed) % 27);
        const unsigned classes = trial % 2 ? 3u : 1u;
        const size_t n = trial % 10 == 9 ? LONG : trial % 41;
        nq_join_sieve sv;
        nq_join_sieve_holes(&sv, next_random(&seed) & next_random(&seed) &
                                     ((1ull << (len1 + len2)) - 1u), 0, len1, len2);
        nq_join_sieve_cuts(&sv, trial % (NQ_JOIN_MAX_CUTS + 1));
        for (size_t i = 0; i < n; i++) {
            const uint64_t flags = next_random(&seed) % 3; /* none, one or both */
            k[i] = (next_random(&seed) & ((1ull << sv.bits) - 1u)) |
                   (flags == 0   ? 0
                    : flags == 1 ? 1ull << NQ_JOIN_CLASS_SHIFT
                                 : 3ull << NQ_JOIN_CLASS_SHIFT);
        }
        for (unsigned r = 0; r < rows; r++) {
            memset(bin, 0xff, LONG * sizeof *bin);
            row[r]->bins(&sv, k, n, classes, bin);
            for (size_t i = 0; i < n; i++) {
                const unsigned want = naive_bin(&sv, classes, k[i]);
                if (bin[i] != want)
                    fail_msg("%s bins: key %zu of %zu: %u, want %u", nq_simd_name(lv[r]), i, n,
                             (unsigned)bin[i], want);
            }
            if (n < LONG) /* nothing written past the list */
                assert_int_equal(bin[n], 0xffff);
        }
    }
    free(k);
    free(bin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_match_naive),
        cmocka_unit_test(test_kernels_take_and_pair),
        cmocka_unit_test(test_sieve_matches_naive),
        cmocka_unit_test(test_sieve_sort_long_lists),
        cmocka_unit_test(test_bins_kernels_match_naive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
