/*
 * test_abi.c - a program built against a released header keeps working:
 * for every versioned struct of each release (tests/abi/), the library
 * takes that release's version to be exactly that release's size. A field
 * appended without a bump of its struct's version, or put anywhere but at
 * the end, changes the size the library gives an old version, and would
 * make it write past an old program's struct or read past it: this test
 * fails first.
 *
 * Results: the size of each version in the copies' table (src/results.c).
 * Options: what nq_..._options_init() writes for that version, in a buffer
 * whose bytes past the released size must stay as they were.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "abi_released.h"
#include "results.h"

static const struct {
    const char *name;
    const nq_layout *layout;
} results[] = {
    {"nq_count_result", &nq_count_result_layout},
    {"nq_estimate_result", &nq_estimate_result_layout},
    {"nq_checkpoint_info", &nq_checkpoint_info_layout},
    {"nq_recheck_result", &nq_recheck_result_layout},
    {"nq_part", &nq_part_layout},
    {"nq_partline_error", &nq_partline_error_layout},
    {"nq_merge_summary", &nq_merge_summary_layout},
    {"nq_merge_error", &nq_merge_error_layout},
    {"nq_violation", &nq_violation_layout},
    {"nq_placement_error", &nq_placement_error_layout},
};

/* The bytes that nq_NAME_options_init(buf, version) writes: the first one
 * from the end that changed, in a buffer filled twice with other bytes
 * (so that a byte written with the fill's value still shows). */
static size_t options_written(const char *name, unsigned version)
{
    unsigned char buf[2][1024];
    size_t last = 0;
    for (int k = 0; k < 2; k++) {
        int rc = -1;
        memset(buf[k], k ? 0x5a : 0xa5, sizeof buf[k]);
        if (strcmp(name, "nq_count_options") == 0)
            rc = nq_count_options_init((nq_count_options *)(void *)buf[k], version);
        else if (strcmp(name, "nq_list_options") == 0)
            rc = nq_list_options_init((nq_list_options *)(void *)buf[k], version);
        else if (strcmp(name, "nq_recheck_options") == 0)
            rc = nq_recheck_options_init((nq_recheck_options *)(void *)buf[k], version);
        else
            fail_msg("%s: no init function known to this test", name);
        assert_int_equal(rc, NQ_OK);
    }
    for (size_t i = 0; i < sizeof buf[0]; i++)
        if (buf[0][i] != 0xa5 || buf[1][i] != 0x5a)
            last = i + 1;
    return last;
}

static void check_release(const char *release, const nq_abi_size *rows)
{
    unsigned seen = 0, wrong = 0;
    for (const nq_abi_size *r = rows; r->name; r++) {
        size_t lib = 0;
        int found = 0;
        for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
            if (strcmp(results[i].name, r->name) == 0) {
                assert_true(r->version <= results[i].layout->current);
                lib = results[i].layout->sizes[r->version];
                found = 1;
            }
        if (!found) {
            /* options: what init writes is at most the released size, and
             * reaches into its last field (alignment padding aside) */
            lib = options_written(r->name, r->version);
            if (lib + sizeof(uint64_t) > r->size && lib <= r->size)
                lib = r->size;
        }
        if (lib != r->size) {
            print_error("%s %s version %u: %zu bytes in that release, %zu in this library "
                        "(a field added without a new version?)\n",
                        release, r->name, r->version, r->size, lib);
            wrong++;
        }
        seen++;
    }
    assert_true(seen >= 13);
    assert_int_equal(wrong, 0);
}

static void test_2_0_0(void **state)
{
    (void)state;
    check_release("2.0.0", nq_abi_2_0_0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_2_0_0),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
