/* Typed results tables with commas in their figures: thousands separators ("1,020.5") and
 * decimal commas ("1020,5") are read when they can mean one thing; any other comma is an error
 * at its line that names the figure (QA finding 11: was "expected 2 speed/IOPS pairs"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/driver.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

static const char HEAD[] = "My NAS\n\nType\tNAS-1\t\tNAS-2\n"
                           "\tSpeed (MB/s)\tIOPS\tSpeed (MB/s)\tIOPS\n";

static int parse_rows(const char *rows, bl_parse_out *o)
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s", HEAD, rows);
    return bl_test_parse_text("paste", text, NULL, o);
}

static const bl_record *cell(const bl_parse_out *o, long line, const char *column)
{
    for (size_t i = 0; i < o->recs.n; i++) {
        const char *c = bl_record_label(o->recs.v[i], "column");
        if (o->recs.v[i]->line == line && c && strcmp(c, column) == 0)
            return o->recs.v[i];
    }
    fail_msg("no record at line %ld, column %s", line, column);
    return NULL;
}

/* The four cells of the two rows, MB/s = 10^6 bytes/s, one unit of the last decimal in
 * bw_prec. */
static void check_four(const bl_parse_out *o)
{
    static const struct {
        long line;
        const char *column;
        double bw, iops;
    } want[] = {{5, "NAS-1", 1020.5e6, 973},
                {5, "NAS-2", 112.3e6, 107},
                {6, "NAS-1", 988.0e6, 942},
                {6, "NAS-2", 104.8e6, 100}};
    assert_int_equal(o->recs.n, 4);
    for (size_t i = 0; i < 4; i++) {
        const bl_record *r = cell(o, want[i].line, want[i].column);
        assert_double_equal(r->bw_bytes_s, want[i].bw, 1e-3);
        assert_double_equal(r->bw_prec, 1e5, 1e-6);
        assert_double_equal(r->iops, want[i].iops, 0);
        assert_string_equal(r->test, want[i].line == 5 ? "seq-read" : "seq-write");
        assert_string_equal(bl_record_label(r, "section"), "My NAS");
    }
}

static void test_thousands_separators(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_rows("seq read\t1,020.5\t973\t112.3\t107\n"
                                "seq write\t988.0\t942\t104.8\t100\n",
                                &o),
                     0);
    assert_int_equal(o.n_diags, 0);
    check_four(&o);
    bl_out_free(&o);
    /* several groups */
    assert_int_equal(parse_rows("seq read\t1,234,567.8\t973\t112.3\t107\n", &o), 0);
    assert_double_equal(cell(&o, 5, "NAS-1")->bw_bytes_s, 1234567.8e6, 1);
    bl_out_free(&o);
}

static void test_decimal_commas(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_rows("seq read\t1020,5\t973\t112,3\t107\n"
                                "seq write\t988,0\t942\t104,8\t100\n",
                                &o),
                     0);
    assert_int_equal(o.n_diags, 0);
    check_four(&o);
    bl_out_free(&o);
}

/* A comma that may mean two things: the row is refused at its line, naming the figure; the
 * other rows are kept. */
static void test_ambiguous_commas(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_rows("seq read\t1,020.5\t973\t112.3\t107\n"
                                "seq write\t988,0\t942\t104.8\t100\n"
                                "rand read 4k\t10.8\t2,699\t1.8\t452\n"
                                "rand write 4k\t1020,500.5\t2\t1.8\t452\n",
                                &o),
                     1);
    assert_int_equal(o.recs.n, 2);
    assert_double_equal(cell(&o, 5, "NAS-1")->bw_bytes_s, 1020.5e6, 1e-3);
    assert_int_equal(o.n_diags, 3);
    static const struct {
        long line;
        const char *figure;
    } want[] = {{6, "'988,0'"}, {7, "'2,699'"}, {8, "'1020,500.5'"}};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(o.diags[i].line, want[i].line);
        assert_non_null(strstr(o.diags[i].msg, want[i].figure));
        assert_null(strstr(o.diags[i].msg, "expected 2 speed/IOPS pairs"));
    }
    /* the decimal comma of line 6 is refused because of line 5's point */
    assert_non_null(strstr(o.diags[0].msg, "line 5"));
    bl_out_free(&o);
    /* a decimal comma with three decimals is a thousands separator as well */
    assert_int_equal(parse_rows("seq read\t1020,5\t973\t112,3\t107\n"
                                "seq write\t1,020\t942\t104,8\t100\n",
                                &o),
                     1);
    assert_int_equal(o.recs.n, 0);
    assert_int_equal(o.n_diags, 2);
    assert_non_null(strstr(o.diags[1].msg, "'1,020'"));
    bl_out_free(&o);
    /* figures run together: a comma is not guessed at */
    assert_int_equal(parse_rows("seq read1,020.59731,12.3107\n", &o), 1);
    assert_int_equal(o.recs.n, 0);
    assert_int_equal(o.n_diags, 1);
    assert_non_null(strstr(o.diags[0].msg, "comma"));
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thousands_separators),
        cmocka_unit_test(test_decimal_commas),
        cmocka_unit_test(test_ambiguous_commas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
