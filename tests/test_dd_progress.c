/* dd status=progress: progress lines are never runs, whether dd's carriage returns are kept or
 * the paste put each on its own line; a summary whose figures cannot be true is an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/driver.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

/* Parses text given inline; returns the driver's status. */
static int parse_str(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("paste", text, NULL, o);
}

/* The three transfers of the fixture, one record each from its final summary line, with the
 * direction of its own command (lines: summary lines of the file). */
static void check_three(const bl_parse_out *o, const long lines[3])
{
    static const struct {
        double secs;
        const char *test, *op;
        int64_t bs;
    } want[] = {{5.67234, "seq-write", "write", 65536},
                {2.63227, "seq-read", "read", 4096},
                {6.32634, "seq-copy", NULL, 65536}};
    assert_int_equal(o->recs.n, 3);
    for (size_t i = 0; i < 3; i++) {
        const bl_record *r = o->recs.v[i];
        assert_int_equal(r->line, lines[i]);
        assert_int_equal(r->run, (int64_t)i + 1);
        assert_int_equal(r->io_bytes, 98304000);
        assert_double_equal(r->runtime_s, want[i].secs, 1e-12);
        assert_double_equal(r->bw_bytes_s, 98304000 / want[i].secs, 1e-6);
        assert_string_equal(r->test, want[i].test);
        if (want[i].op)
            assert_string_equal(r->op, want[i].op);
        else
            assert_null(r->op);
        assert_int_equal(r->bs, want[i].bs);
        assert_null(r->note);
    }
}

static void test_progress_pasted_line_by_line(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "f");
    const char *f =
        bl_test_fixture("dd/gnu-dd-9.1_progress_3transfers_pasted.txt", buf, sizeof buf);
    assert_int_equal(bl_test_parse(f, NULL, &o), 0);
    check_three(&o, (const long[]){10, 17, 28});
    assert_int_equal(o.n_diags, 0);
    bl_out_free(&o);
}

static void test_progress_with_carriage_returns(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "f");
    const char *f = bl_test_fixture("dd/gnu-dd-9.1_progress_3transfers.txt", buf, sizeof buf);
    assert_int_equal(bl_test_parse(f, NULL, &o), 0);
    check_three(&o, (const long[]){5, 10, 15});
    bl_out_free(&o);
}

/* A paste cut after the progress lines: the last one is the transfer's only figure, said so. */
static void test_progress_without_summary(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_str("$ dd if=/dev/zero of=/tmp/x bs=1M status=progress\n"
              "26411008 bytes (26 MB, 25 MiB) copied, 1 s, 26.3 MB/s\n"
              "45023232 bytes (45 MB, 43 MiB) copied, 2 s, 22.5 MB/s\n"
              "^C and then I stopped it.\n",
              &o);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->line, 3);
    assert_int_equal(o.recs.v[0]->io_bytes, 45023232);
    assert_double_equal(o.recs.v[0]->runtime_s, 2, 0);
    assert_string_equal(o.recs.v[0]->op, "write");
    assert_non_null(o.recs.v[0]->note);
    assert_non_null(strstr(o.recs.v[0]->note, "progress"));
    bl_out_free(&o);
}

/* Separate runs listed one summary a line (no records lines) stay separate runs. */
static void test_bare_summaries_are_runs(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_str("1073741824 bytes (1.1 GB, 1.0 GiB) copied, 5.2 s, 206 MB/s\n"
                               "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 7.1 s, 151 MB/s\n",
                               &o),
                     0);
    assert_int_equal(o.recs.n, 2);
    assert_double_equal(o.recs.v[0]->runtime_s, 5.2, 1e-12);
    assert_double_equal(o.recs.v[1]->runtime_s, 7.1, 1e-12);
    assert_int_equal(o.recs.v[1]->run, 2);
    bl_out_free(&o);
}

/* A negative or self-contradicting count is refused with its line; good runs are kept. */
static void test_impossible_counts(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_str("1500+0 records out\n"
                               "-1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s\n"
                               "1073741824 bytes (1.1 GB, 1.0 GiB) copied, -1.70473 s, 630 MB/s\n"
                               "1073741824 bytes (11 GB, 10 GiB) copied, 1.70473 s, 630 MB/s\n"
                               "99999999999999999999999 bytes copied, 1.7 s, 630 MB/s\n"
                               "\n"
                               "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s\n",
                               &o),
                     1);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->line, 7);
    assert_int_equal(o.recs.v[0]->io_bytes, 1073741824);
    assert_int_equal(o.n_diags, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(o.diags[i].line, (long)i + 2);
        assert_non_null(strstr(o.diags[i].msg, "not a record"));
    }
    assert_non_null(strstr(o.diags[0].msg, "negative"));
    assert_non_null(strstr(o.diags[1].msg, "negative"));
    assert_non_null(strstr(o.diags[2].msg, "parentheses"));
    bl_out_free(&o);
}

/* The count is never read from inside dd's "(67 MB, 64 MiB)": a garbled line is no record. */
static void test_count_not_in_parentheses(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_str("rds o4 b{tes (67 MB, 64 MiB) copied, 0.281737 s, 238 MB/s\n"
              "67108864 bytes (67 MB, 64 MiB) copied, 0.281737 s, 238 MB/s\n",
              &o);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->line, 2);
    assert_int_equal(o.recs.v[0]->io_bytes, 67108864);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_pasted_line_by_line),
        cmocka_unit_test(test_progress_with_carriage_returns),
        cmocka_unit_test(test_progress_without_summary),
        cmocka_unit_test(test_bare_summaries_are_runs),
        cmocka_unit_test(test_impossible_counts),
        cmocka_unit_test(test_count_not_in_parentheses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
