/* iozone -a tables: cells placed by column (blank cells of tests left out by -i), units
 * from "Output is in ..." (kB = 1024, or -O operations), assumed and noted when unsaid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/driver.h"
#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>

static const bl_record *cell(const bl_parse_out *o, int64_t kb, int64_t reclen, const char *test)
{
    for (size_t i = 0; i < o->recs.n; i++) {
        const bl_record *r = o->recs.v[i];
        if (r->size_bytes == kb * 1024 && r->bs == reclen * 1024 && strcmp(r->test, test) == 0)
            return r;
    }
    return NULL;
}

static void test_kbytes_table(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "x");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("iozone/iozone-3.492_a_i012_layout.txt", buf, sizeof buf),
                      NULL, &o),
        0);
    /* 64 kB: 5 record sizes, 128: 6, 256: 7; six tests each. */
    assert_int_equal(o.recs.n, (5 + 6 + 7) * 6);
    /* "             256       8  1386206  2398596  5824444  2880405  3217738  2974950" */
    const bl_record *r = cell(&o, 256, 8, "seq-write");
    assert_non_null(r);
    assert_double_equal(r->bw_bytes_s, 1386206.0 * 1024, 1e-6);
    assert_double_equal(r->iops * r->bs, r->bw_bytes_s, 1e-6);
    assert_string_equal(r->tool_version, "3.492");
    assert_null(r->note);
    r = cell(&o, 256, 8, "seq-reread");
    assert_double_equal(r->bw_bytes_s, 2880405.0 * 1024, 1e-6);
    r = cell(&o, 256, 8, "rand-write");
    assert_double_equal(r->bw_bytes_s, 2974950.0 * 1024, 1e-6);
    assert_string_equal(r->pattern, "rand");
    assert_string_equal(bl_record_label(r, "iozone_test"), "random write");
    assert_null(cell(&o, 256, 8, "bkwd-read"));
    assert_int_equal(fu_count(&o, "cdm", NULL, NULL), 0);
    bl_out_free(&o);
}

static void test_blank_cells_ops(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "x");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("iozone/iozone-3.492_i0_i2_ops_layout.txt", buf, sizeof buf),
                      NULL, &o),
        0);
    assert_int_equal(o.recs.n, 8);
    assert_null(cell(&o, 102400, 4, "seq-read"));
    /* "          102400       4      771      786                       2440     1436" */
    const bl_record *r = cell(&o, 102400, 4, "rand-read");
    assert_non_null(r);
    assert_double_equal(r->iops, 2440, 0);
    assert_double_equal(r->bw_bytes_s, 2440.0 * 4096, 1e-6);
    assert_int_equal(r->direct, BL_TRUE);
    r = cell(&o, 102400, 1024, "rand-write");
    assert_double_equal(r->iops, 355, 0);
    assert_double_equal(r->bw_bytes_s, 355.0 * 1048576, 1e-6);
    bl_out_free(&o);
}

static void parse_string(const char *text, bl_parse_out *o)
{
    char err[128];
    bl_text t;
    assert_int_equal(bl_text_from_bytes(&t, "post.txt", text, strlen(text), err, sizeof err), 0);
    bl_parse_opts opts = {0};
    bl_out_init(o, "post.txt");
    bl_parse_text(&t, &opts, o);
    bl_text_free(&t);
}

/* A table pasted alone: kB/s assumed and said; a row that does not line up is refused. */
static void test_pasted_and_misaligned(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_string("         kB  reclen    write  rewrite    read    reread\n"
                 "    1024000    1024   258830   270261   341979   344249\n"
                 "    1024000   16384   270022 271088 667757 679947 12345\n",
                 &o);
    assert_int_equal(o.recs.n, 4);
    assert_double_equal(o.recs.v[2]->bw_bytes_s, 341979.0 * 1024, 1e-6);
    assert_non_null(strstr(o.recs.v[0]->note, "assumed"));
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 3);
    bl_out_free(&o);
    parse_string("iozone -a -O -i 0\n"
                 "         kB  reclen    write  rewrite\n"
                 "    1024000    1024      252      263\n",
                 &o);
    assert_int_equal(o.recs.n, 2);
    assert_double_equal(o.recs.v[0]->iops, 252, 0);
    assert_null(o.recs.v[0]->note);
    bl_out_free(&o);
}

/* -R report blocks alone give the table's figures cell by cell; -a with -R is read once. */
static void test_report_blocks(void **state)
{
    (void)state;
    char buf[256], buf2[256];
    bl_parse_out a, r;
    bl_out_init(&a, "a");
    bl_out_init(&r, "r");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("iozone/iozone-3.492_a_i012_layout.txt", buf, sizeof buf),
                      NULL, &a),
        0);
    assert_int_equal(
        bl_test_parse(bl_test_fixture("iozone/iozone-3.492_R_only_layout.txt", buf2, sizeof buf2),
                      NULL, &r),
        0);
    assert_int_equal(r.recs.n, a.recs.n);
    for (size_t i = 0; i < a.recs.n; i++) {
        const bl_record *x = a.recs.v[i];
        const bl_record *y = cell(&r, x->size_bytes / 1024, x->bs / 1024, x->test);
        assert_non_null(y);
        assert_double_equal(y->bw_bytes_s, x->bw_bytes_s, 0);
    }
    /* "256"   4942933 2974950 ... in "Random write report": 256 kB file, 8 kB records */
    assert_double_equal(cell(&r, 256, 8, "rand-write")->bw_bytes_s, 2974950.0 * 1024, 0);
    bl_out_free(&a);
    bl_out_free(&r);

    bl_out_init(&a, "a");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("iozone/iozone-3.492_a_R_layout.txt", buf, sizeof buf), NULL,
                      &a),
        0);
    assert_int_equal(a.recs.n, (5 + 6 + 7) * 6);
    bl_out_free(&a);
}

/* A short row whose record sizes are not certain is refused; the certain ones are kept. */
static void test_report_ambiguous_row(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_string("Output is in kBytes/sec\n"
                 "\"Reader report\"\n"
                 "        \"4\"  \"8\"  \"16\"\n"
                 "\"8\"   1000 2000 \n"
                 "\"65536\"   3000 4000 \n",
                 &o);
    assert_int_equal(o.recs.n, 2);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 2000.0 * 1024, 0);
    assert_int_equal(o.recs.v[1]->bs, 8192);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 5);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kbytes_table),          cmocka_unit_test(test_blank_cells_ops),
        cmocka_unit_test(test_pasted_and_misaligned), cmocka_unit_test(test_report_blocks),
        cmocka_unit_test(test_report_ambiguous_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
