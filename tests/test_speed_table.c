/* Speed/IOPS results tables typed into a page: set apart by tabs, run together, and the
 * closing table of the blog post 000 (issue 4: "also read its closing summary table"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cellv {
    long line;
    const char *column, *row, *test;
    int64_t bs;
    double mbs, iops; /* iops < 0: "-" */
} cellv;

static const bl_record *at(const bl_parse_out *o, long line, const char *column)
{
    for (size_t i = 0; i < o->recs.n; i++) {
        const bl_record *r = o->recs.v[i];
        const char *c = bl_record_label(r, "column");
        if (r->line == line && c && strcmp(c, column) == 0)
            return r;
    }
    return NULL;
}

static void check_cells(const bl_parse_out *o, const cellv *v, size_t n, const char *tool)
{
    for (size_t i = 0; i < n; i++) {
        const bl_record *r = at(o, v[i].line, v[i].column);
        if (!r)
            fail_msg("no record at line %ld, column '%s'", v[i].line, v[i].column);
        assert_string_equal(r->tool, tool);
        assert_string_equal(bl_record_label(r, "row"), v[i].row);
        assert_string_equal(r->test, v[i].test);
        assert_int_equal(r->bs, v[i].bs);
        assert_double_equal(r->bw_bytes_s, v[i].mbs * 1e6, 1e-3);
        if (v[i].iops < 0)
            assert_false(bl_present(r->iops));
        else
            assert_double_equal(r->iops, v[i].iops, 0);
        assert_non_null(strstr(r->note, "results table"));
    }
}

/* Cells apart by tabs: read as they stand, "-" is no IOPS, a "*4" stays in the row name. */
static void test_tabs(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    bl_test_fixture("speed-table/local-disks_tabs.txt", path, sizeof path);
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 10);
    static const cellv v[] = {
        {7, "srv1 (ext4, RAID 10)", "seq read", "seq-read", -1, 412.7, 394},
        {7, "srv2 (XFS, RAID 6)", "seq read", "seq-read", -1, 655.1, 625},
        {8, "srv1 (ext4, RAID 10)", "seq write", "seq-write", -1, 388.0, 370},
        {8, "srv2 (XFS, RAID 6)", "seq write", "seq-write", -1, 301.4, 287},
        {9, "srv1 (ext4, RAID 10)", "seq read*4", "seq-read", -1, 1020.5, -1},
        {9, "srv2 (XFS, RAID 6)", "seq read*4", "seq-read", -1, 1398.2, -1},
        {10, "srv1 (ext4, RAID 10)", "rand read 4k", "rand-read", 4096, 1.9, 464},
        {10, "srv2 (XFS, RAID 6)", "rand read 4k", "rand-read", 4096, 2.42, 591},
        {11, "srv1 (ext4, RAID 10)", "rand write 4k", "rand-write", 4096, 3.1, 757},
        {11, "srv2 (XFS, RAID 6)", "rand write 4k", "rand-write", 4096, 0.8, 195},
    };
    check_cells(&o, v, sizeof v / sizeof v[0], "unknown");
    /* a column is a run; the heading above the table labels both */
    assert_int_equal(at(&o, 7, "srv1 (ext4, RAID 10)")->run, 1);
    assert_int_equal(at(&o, 11, "srv2 (XFS, RAID 6)")->run, 2);
    assert_int_equal(bl_test_count(&o, "section", "Local disks"), 10);
    bl_out_free(&o);
}

/* Run together: one reading per row by the rule, the others reported with their line. */
static void test_run_together(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    bl_test_fixture("speed-table/iscsi-runtogether.txt", path, sizeof path);
    assert_int_equal(bl_test_parse(path, NULL, &o), 1);
    assert_int_equal(o.recs.n, 10);
    static const cellv v[] = {
        /* seq read112.31071087.61037: 112.3|10|71087.6 fits no one block size */
        {13, "1 GbE (iSCSI)", "seq read", "seq-read", -1, 112.3, 107},
        {13, "10 GbE (iSCSI)", "seq read", "seq-read", -1, 1087.6, 1037},
        {14, "1 GbE (iSCSI)", "seq write", "seq-write", -1, 104.8, 100},
        {14, "10 GbE (iSCSI)", "seq write", "seq-write", -1, 698.2, 666},
        {16, "1 GbE (iSCSI)", "rand write 512k", "rand-write", 524288, 38.2, -1},
        {16, "10 GbE (iSCSI)", "rand write 512k", "rand-write", 524288, 352.9, -1},
        {17, "1 GbE (iSCSI)", "rand read 4k", "rand-read", 4096, 9.8, 2393},
        {17, "10 GbE (iSCSI)", "rand read 4k", "rand-read", 4096, 31.4, 7666},
        /* *862.315210...: "*86" would make 2.3 MB/s of 4k blocks do 15210 IOPS */
        {19, "1 GbE (iSCSI)", "rand read 4k*8", "rand-read", 4096, 62.3, 15210},
        {19, "10 GbE (iSCSI)", "rand read 4k*8", "rand-read", 4096, 310.5, 75806},
    };
    check_cells(&o, v, sizeof v / sizeof v[0], "fio");
    assert_int_equal(bl_test_count(&o, "section", "iSCSI over 1 GbE and 10 GbE"), 10);
    assert_int_equal(o.n_diags, 2);
    assert_int_equal(o.diags[0].line, 15);
    assert_non_null(strstr(o.diags[0].msg, "cannot be split into 2 speed/IOPS pairs ('45.386')"));
    assert_int_equal(o.diags[1].line, 18);
    assert_non_null(strstr(o.diags[1].msg, "'rand write 4k*3' 245.1/-, 301.8/- or "
                                           "'rand write 4k*32' 45.1/-, 301.8/-"));
    bl_out_free(&o);
}

/* blog/000's closing table: 6 rows of 10 read with certainty, x 2 columns; the four "*N"
 * rows ("seq read*447.7-152.9-": *4 or *44, no IOPS to tell) reported. */
static void test_blog_000_table(void **state)
{
    (void)state;
    char *p = bl_test_corpus("blog/000_bed2622bff3958ce.txt");
    if (!p)
        skip();
    bl_parse_out o;
    assert_int_equal(bl_test_parse(p, NULL, &o), 1);
    assert_int_equal(o.recs.n, 6 + 12); /* the six fio runs, then the table */
    assert_int_equal(bl_test_count(&o, "column", "iSCSI (ext3)"), 6);
    assert_int_equal(bl_test_count(&o, "column", "X-RAID2 (ext4)"), 6);
    static const cellv v[] = {
        {257, "iSCSI (ext3)", "seq read", "seq-read", -1, 66.2, 64},
        {257, "X-RAID2 (ext4)", "seq read", "seq-read", -1, 367.7, 359},
        {258, "iSCSI (ext3)", "seq write", "seq-write", -1, 36.1, 35},
        {258, "X-RAID2 (ext4)", "seq write", "seq-write", -1, 54.3, 53},
        {261, "iSCSI (ext3)", "rand read 512k", "rand-read", 524288, 11.3, 22},
        {261, "X-RAID2 (ext4)", "rand read 512k", "rand-read", 524288, 44.5, 86},
        {262, "iSCSI (ext3)", "rand write 512k", "rand-write", 524288, 34.3, 66},
        {262, "X-RAID2 (ext4)", "rand write 512k", "rand-write", 524288, 20.3, 39},
        {263, "iSCSI (ext3)", "rand read 4k", "rand-read", 4096, 10.8, 2699},
        {263, "X-RAID2 (ext4)", "rand read 4k", "rand-read", 4096, 1.8, 452},
        {264, "iSCSI (ext3)", "rand write 4k", "rand-write", 4096, 8.4, 2087},
        {264, "X-RAID2 (ext4)", "rand write 4k", "rand-write", 4096, 1.0, 234},
    };
    check_cells(&o, v, sizeof v / sizeof v[0], "fio");
    /* after the six fio runs, one run per column */
    assert_int_equal(at(&o, 257, "iSCSI (ext3)")->run, 7);
    assert_int_equal(at(&o, 257, "X-RAID2 (ext4)")->run, 8);
    /* no heading between the last fio run's output and the table: no section */
    assert_null(bl_record_label(at(&o, 257, "iSCSI (ext3)"), "section"));
    static const long lines[] = {259, 260, 265, 266};
    assert_int_equal(o.n_diags, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(o.diags[i].line, lines[i]);
        assert_non_null(strstr(o.diags[i].msg, "more than one way"));
    }
    assert_non_null(strstr(o.diags[0].msg, "'seq read*4' 47.7/-, 152.9/-"));
    bl_out_free(&o);
    free(p);
}

static int parse_string(const char *text, bl_parse_out *o)
{
    char *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/table.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    int rc = bl_test_parse(path, "speed-table", o);
    remove(path);
    free(dir);
    return rc;
}

/* What is not a table, and a header whose column names cannot be told apart. */
static void test_edges(void **state)
{
    (void)state;
    bl_parse_out o;
    /* prose that says "Type" and "Speed" is no table */
    assert_int_equal(parse_string("Type the command below.\nSpeed (MB/s) matters.\n", &o), 1);
    assert_int_equal(o.recs.n, 0);
    bl_out_free(&o);
    assert_int_equal(parse_string("Type A B C\nSpeed (MB/s) IOPS Speed (MB/s) IOPS\n"
                                  "seq read 1.0 1 2.0 2\n",
                                  &o),
                     1);
    assert_int_equal(o.recs.n, 0);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 1);
    assert_non_null(strstr(o.diags[0].msg, "cannot tell its 2 column names apart"));
    bl_out_free(&o);
    /* a separated row with a cell missing is reported; the next row is kept */
    assert_int_equal(parse_string("Type\tA\tB\nSpeed (MB/s)\tIOPS\tSpeed (MB/s)\tIOPS\n"
                                  "seq read\t100.0\t95\t200.0\n"
                                  "seq write\t90.0\t86\t180.0\t172\n",
                                  &o),
                     1);
    assert_int_equal(o.recs.n, 2);
    assert_int_equal(o.diags[0].line, 3);
    assert_string_equal(o.recs.v[0]->test, "seq-write");
    bl_out_free(&o);
    /* eight columns of digits that admit millions of splits before rule 2: reported */
    char text[1024] = "Type(a)(b)(c)(d)(e)(f)(g)(h)\n";
    for (int i = 0; i < 8; i++)
        strcat(text, "Speed (MB/s) IOPS ");
    strcat(text, "\nseq read1.");
    for (int i = 0; i < 7; i++)
        strcat(text, "11111111111111.");
    strcat(text, "111111111\n");
    assert_int_equal(parse_string(text, &o), 1);
    assert_int_equal(o.recs.n, 0);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 3);
    assert_non_null(strstr(o.diags[0].msg, "cannot be split into 8 speed/IOPS pairs"));
    bl_out_free(&o);
}

/* A gap after the test name, or after its "*N", settles where the name ends. */
static void test_gaps(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_string("Type\tA\tB\nSpeed (MB/s)\tIOPS\tSpeed (MB/s)\tIOPS\n"
                                  "seq read 66.264367.7359\n"
                                  "seq read*44 7.7-152.9-\n"
                                  "seq write*4 | 37.1 | - | 78.5 | - |\n",
                                  &o),
                     0);
    assert_int_equal(o.recs.n, 6);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 66.2e6, 1e-3);
    assert_double_equal(o.recs.v[0]->iops, 64, 0);
    assert_string_equal(bl_record_label(o.recs.v[1], "row"), "seq read*44");
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 7.7e6, 1e-3);
    assert_string_equal(bl_record_label(o.recs.v[2], "row"), "seq write*4");
    assert_double_equal(o.recs.v[2]->bw_bytes_s, 37.1e6, 1e-3);
    assert_false(bl_present(o.recs.v[2]->iops));
    /* column B, run 2 */
    assert_double_equal(o.recs.v[3]->bw_bytes_s, 367.7e6, 1e-3);
    assert_double_equal(o.recs.v[5]->bw_bytes_s, 78.5e6, 1e-3);
    bl_out_free(&o);
}

/* --as auto: the fixtures are claimed by this format, and no other format claims them. */
static void test_auto_detect(void **state)
{
    (void)state;
    static const char *const files[] = {"speed-table/local-disks_tabs.txt",
                                        "speed-table/iscsi-runtogether.txt"};
    for (size_t i = 0; i < 2; i++) {
        char buf[256], err[128];
        bl_text t;
        assert_int_equal(
            bl_text_load(&t, bl_test_fixture(files[i], buf, sizeof buf), err, sizeof err), 0);
        for (size_t f = 0; f < bl_format_count(); f++) {
            int s = bl_format_at(f)->probe(&t);
            if (strcmp(bl_format_at(f)->name, "speed-table") == 0)
                assert_true(s > 0);
            else
                assert_int_equal(s, 0);
        }
        bl_text_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tabs),           cmocka_unit_test(test_run_together),
        cmocka_unit_test(test_blog_000_table), cmocka_unit_test(test_edges),
        cmocka_unit_test(test_gaps),           cmocka_unit_test(test_auto_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
