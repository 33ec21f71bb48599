/* Pastes from issue trackers and mailing lists (issue 30): texts that were read wrong or not
 * at all. Each case is a fixture made with the real tool or written from its source; the
 * figures asserted are the tool's, in model units. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

static int parse_fixture(const char *rel, const char *as, bl_parse_out *o)
{
    char buf[512];
    return bl_test_parse(bl_test_fixture(rel, buf, sizeof buf), as, o);
}

static int has_diag(const bl_parse_out *o, long line, const char *words)
{
    for (size_t i = 0; i < o->n_diags; i++)
        if (o->diags[i].line == line && strstr(o->diags[i].msg, words))
            return 1;
    return 0;
}

/* ---- Wrong: read shifted or as something else ---- */

/* A 1.96 CSV line one comma short where the I/O tests would be: aligned from the end (twelve
 * latencies with their suffixes), the file tests are where bonnie++ printed them. */
static void test_bonnie_196_short_line(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("bonnie/bonnie-1.96_handwritten_files_only_47.csv", NULL, &o),
                     0);
    assert_int_equal(o.recs.n, 6); /* six file tests, no I/O test */
    assert_null(fu_find(&o, "seq-write-block", NULL, NULL, 0));
    const bl_record *r = fu_find(&o, "seq-create", NULL, NULL, 0);
    assert_non_null(r);
    assert_double_equal(r->value, 14523, 0);
    assert_double_equal(r->cpu_pct, 62, 0);
    assert_double_equal(r->lat_ns.max, 8863e3, 0);
    assert_string_equal(bl_record_label(r, "files"), "32");
    r = fu_find(&o, "seq-stat", NULL, NULL, 0);
    assert_false(bl_present(r->value));
    assert_false(bl_present(r->cpu_pct));
    assert_double_equal(r->lat_ns.max, 1210e3, 0);
    r = fu_find(&o, "seq-delete", NULL, NULL, 0);
    assert_double_equal(r->value, 17210, 0);
    assert_double_equal(r->cpu_pct, 58, 0);
    r = fu_find(&o, "rand-delete", NULL, NULL, 0);
    assert_double_equal(r->value, 16388, 0);
    assert_double_equal(r->cpu_pct, 61, 0);
    assert_double_equal(r->lat_ns.max, 10437e3, 0);
    bl_out_free(&o);
}

/* One field short with I/O figures present: nothing tells which field is missing. */
static void test_bonnie_196_short_line_refused(void **state)
{
    (void)state;
    bl_parse_out o;
    const char *text =
        "1.96,1.96,host1,1,1329851830,8096M,838,98,110033,7,48154,4,3609,79,134153,4,228.2,1,256,"
        ",,,,30301,79,+++++,+++,2525,2,31290,79,+++++,+++,1558,1,9829us,226ms,1759ms,112ms,160ms,"
        "2016ms,300ms,458us,6094ms,309ms,17us,6206ms\n";
    bl_test_parse_text("short.csv", text, NULL, &o);
    assert_int_equal(o.recs.n, 0);
    assert_true(has_diag(&o, 1, "47 fields, expected 48"));
    bl_out_free(&o);
}

/* sysbench fileio prepare's "bytes written in ... (MiB/sec)." creates files: no dd run. */
static void test_sysbench_prepare_is_no_dd(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("sysbench/sysbench-1.0.20_prepare_then_seqwr.txt", NULL, &o), 0);
    assert_int_equal(fu_count(&o, "dd", NULL, NULL), 0);
    assert_int_equal(o.n_diags, 0);
    const bl_record *r = fu_find(&o, "seq-write", NULL, NULL, 0);
    assert_non_null(r);
    assert_string_equal(r->tool, "sysbench");
    assert_double_equal(r->bw_bytes_s, 82.05 * 1048576, 0.005 * 1048576);
    assert_double_equal(r->iops, 5251.12, 0.005);
    bl_out_free(&o);
}

/* A log that fio appended to twice, the first run interrupted before any I/O: its bare "Run
 * status group 0" heading ends it; the second run's job and group line are paired. */
static void test_fio_appended_interrupted(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("fio/appended-interrupted-3.33.out", NULL, &o), 0);
    assert_int_equal(o.recs.n, 1); /* the job; its group line repeats it, no extra total */
    const bl_record *r = o.recs.v[0];
    assert_string_equal(bl_record_label(r, "job"), "seqread");
    assert_null(bl_record_label(r, "scope"));
    assert_null(bl_record_label(r, "section")); /* "fio: terminating on signal 2" is output */
    assert_int_equal(r->io_bytes, 32 << 20);
    assert_double_equal(r->bw_bytes_s, 1118e6, 1e6); /* BW=1067MiB/s (1118MB/s) */
    assert_double_equal(r->iops, 1066, 0);
    assert_double_equal(r->clat_ns.mean, 900.58e3, 1);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bonnie_196_short_line),
        cmocka_unit_test(test_bonnie_196_short_line_refused),
        cmocka_unit_test(test_sysbench_prepare_is_no_dd),
        cmocka_unit_test(test_fio_appended_interrupted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
