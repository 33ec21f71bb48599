/* Pastes from issue trackers and mailing lists (issue 30): texts that were read wrong or not
 * at all. Each case is a fixture made with the real tool or written from its source; the
 * figures asserted are the tool's, in model units. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "support/support.h"
#include "../core/strbuf.h"
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

/* ---- Pooled: several bodies in one text taken for one run ---- */

/* The figures and footer of one CrystalDiskMark body: run, section, date and two figures. */
static void check_body(const bl_parse_out *o, const char *key, const char *value, const char *date,
                       double seq_q8_mbs, double rnd_q1_write_iops)
{
    const bl_record *r = fu_find(o, "seq-read", key, value, 0);
    assert_non_null(r);
    assert_string_equal(bl_record_label(r, "date"), date);
    assert_double_equal(r->bw_bytes_s, seq_q8_mbs * 1e6, 0.5);
    int64_t run = r->run;
    size_t in_run = 0;
    for (size_t k = 0; k < o->recs.n; k++)
        in_run += o->recs.v[k]->run == run;
    assert_int_equal(in_run, 8);
    r = fu_find(o, "rand-write", key, value, 1); /* RND4K Q1T1 after Q32T1 */
    assert_non_null(r);
    assert_int_equal(r->run, run);
    assert_double_equal(r->iops, rnd_q1_write_iops, 0.05);
}

/* Two bodies pasted from "[Read]" down under indented bold headings: two runs, each with its
 * own footer, named by its heading. */
static void test_cdm_bold_headings(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_fixture("cdm/cdm-8.0.4_handwritten_bold_headings_no_banner.txt", NULL, &o), 0);
    assert_int_equal(o.recs.n, 16);
    assert_int_equal(fu_runs(&o, "CrystalDiskMark"), 2);
    check_body(&o, "section", "FS-A with compression", "2022/03/14 10:02:11", 527.539, 6120.4);
    check_body(&o, "section", "FS-B", "2022/03/14 10:31:47", 536.451, 6402.2);
    assert_int_equal(bl_test_count(&o, "body", "1/2"), 0); /* the headings tell them apart */
    bl_out_free(&o);
}

/* "### Run 1" / "### Run 2" with a footer each: two runs, the second without the first's
 * comment; headings that only number runs say they are repeats (run_heading, no section). */
static void test_cdm_run_headings(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("cdm/cdm-8.0.4_handwritten_run2_footers.txt", NULL, &o), 0);
    assert_int_equal(o.recs.n, 16);
    check_body(&o, "run_heading", "Run 1", "2023/01/08 20:14:05", 2308.335, 40211.9);
    check_body(&o, "run_heading", "Run 2", "2023/01/08 20:40:32", 2322.491, 40587.2);
    const bl_record *r = fu_find(&o, "seq-read", "run_heading", "Run 1", 0);
    assert_string_equal(bl_record_label(r, "comment"), "cold boot");
    r = fu_find(&o, "seq-read", "run_heading", "Run 2", 0);
    assert_null(bl_record_label(r, "comment"));
    assert_null(bl_record_label(r, "section"));
    assert_null(bl_record_label(r, "body"));
    bl_out_free(&o);
}

/* Two whole exports with nothing between them: body 1/2 and 2/2, never one set-up's repeats. */
static void test_cdm_bodies_apart(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("cdm/cdm-8.0.4_handwritten_two_bodies_plain.txt", NULL, &o), 0);
    assert_int_equal(o.recs.n, 16);
    check_body(&o, "body", "1/2", "2022/03/14 10:02:11", 527.539, 6120.4);
    check_body(&o, "body", "2/2", "2022/03/14 10:31:47", 536.451, 6402.2);
    bl_out_free(&o);
}

/* Emphasis and colon headings name the body below them, as bold ones do. */
static void test_headings_italic_and_colon(void **state)
{
    (void)state;
    char buf[512];
    char *text = bl_test_slurp(
        bl_test_fixture("cdm/cdm-8.0.4_handwritten_bold_headings_no_banner.txt", buf, sizeof buf));
    assert_non_null(text);
    static const char *const forms[][2] = {{"*FS-A with compression*", "*FS-B*"},
                                           {"__FS-A with compression__", "__FS-B__"},
                                           {"FS-A with compression:", "FS-B:"}};
    for (size_t f = 0; f < 3; f++) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        for (const char *p = text; *p;) {
            if (strncmp(p, "**FS-A with compression**", 25) == 0)
                bl_strbuf_printf(&sb, "%s", forms[f][0]), p += 25;
            else if (strncmp(p, "**FS-B**", 8) == 0)
                bl_strbuf_printf(&sb, "%s", forms[f][1]), p += 8;
            else
                bl_strbuf_putc(&sb, *p++);
        }
        bl_parse_out o;
        bl_test_parse_text("headings.txt", sb.s, NULL, &o);
        check_body(&o, "section", "FS-A with compression", "2022/03/14 10:02:11", 527.539, 6120.4);
        check_body(&o, "section", "FS-B", "2022/03/14 10:31:47", 536.451, 6402.2);
        bl_out_free(&o);
        bl_strbuf_free(&sb);
    }
    free(text);
}

/* ---- Missing: read not at all ---- */

/* toybox dd's "31 M/s" is MiB/s: the bytes and milliseconds agree with that, not with MB/s. */
static void test_toybox_dd(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("dd/toybox-0.8_handwritten_android.txt", NULL, &o), 0);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 2);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->test, "seq-write");
    assert_int_equal(r->io_bytes, 33554432);
    assert_double_equal(r->runtime_s, 1.024, 0);
    assert_double_equal(r->bw_bytes_s, 33554432 / 1.024, 1);
    r = o.recs.v[1];
    assert_int_equal(r->io_bytes, 1073741824);
    assert_double_equal(r->bw_bytes_s, 1073741824 / 9.871, 1);
    bl_out_free(&o);
}

/* uutils dd's "0 B/s" for 64 bytes in 2.3 s: bytes / seconds, with a note. */
static void test_uutils_dd_zero_rate(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("dd/uutils-0.0.x_handwritten_tiny.txt", NULL, &o), 0);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_int_equal(r->io_bytes, 64);
    assert_double_equal(r->bw_bytes_s, 64 / 2.3, 1e-9);
    assert_non_null(strstr(r->note, "rate of 0"));
    bl_out_free(&o);
    /* a 0 where the bytes and seconds say far more stays refused */
    bl_test_parse_text("zero.txt", "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.5 s, 0 B/s\n", "dd",
                       &o);
    assert_int_equal(o.recs.n, 0);
    assert_true(has_diag(&o, 1, "contradicts"));
    bl_out_free(&o);
}

/* One fio output kept in code: its job line, figures and disk line as in the plain output. */
static void check_small_fio(const char *rel)
{
    bl_parse_out o;
    assert_int_equal(parse_fixture(rel, NULL, &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_null(bl_record_label(r, "section"));
    assert_string_equal(bl_record_label(r, "rw"), "randread"); /* from the job line */
    assert_string_equal(r->test, "rand-read");
    assert_int_equal(r->bs, 4096);
    assert_double_equal(r->iops, 3675, 0);
    assert_double_equal(r->bw_bytes_s, 15.1e6, 0.05e6); /* BW=14.4MiB/s (15.1MB/s) */
    assert_double_equal(r->runtime_s, 1.001, 1e-9);
    assert_double_equal(r->clat_ns.mean, 270.64e3, 1e-6);
    assert_int_equal(r->n_disks, 1);
    bl_out_free(&o);
}

/* Behind "# " in a script's comments, and in a Python string opened on a line of code. */
static void test_fio_in_code(void **state)
{
    (void)state;
    check_small_fio("fio/in-shell-comments-3.33.sh");
    check_small_fio("fio/in-python-string-3.33.py");
}

/* A mail client moved the header's year onto the direction line: the job's figures, dated. */
static void test_fio_mail_reflowed_header(void **state)
{
    (void)state;
    check_small_fio("fio/mail-reflowed-header-3.33.txt");
    bl_parse_out o;
    assert_int_equal(parse_fixture("fio/mail-reflowed-header-3.33.txt", NULL, &o), 0);
    assert_string_equal(bl_record_label(o.recs.v[0], "date"), "Sat Dec  5 05:50:37 2026");
    assert_string_equal(bl_record_label(o.recs.v[0], "job"), "randread");
    bl_out_free(&o);
}

/* iozone -t 4: one record a test, the children's sum as bandwidth (kB = 1024), four jobs. */
static void test_iozone_throughput(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("iozone/iozone-3.489_t4_throughput_layout.txt", NULL, &o), 0);
    assert_int_equal(o.recs.n, 6);
    assert_int_equal(fu_runs(&o, "iozone"), 1);
    const bl_record *r = fu_find(&o, "seq-write", NULL, NULL, 0);
    assert_non_null(r);
    assert_string_equal(bl_record_label(r, "iozone_test"), "initial writers");
    assert_double_equal(r->bw_bytes_s, 420478.03 * 1024, 1e-3);
    assert_int_equal(r->numjobs, 4);
    assert_int_equal(r->bs, 1 << 20);
    assert_int_equal(r->size_bytes, 1LL << 30);
    assert_non_null(strstr(r->note, "396342.81"));
    r = fu_find(&o, "rand-read", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 417265.60 * 1024, 1e-3);
    r = fu_find(&o, "seq-reread", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 493243.57 * 1024, 1e-3);
    bl_out_free(&o);
    /* a mail quoting two runs of "-t 1 -i 0": two runs, one record each */
    bl_test_parse_text(
        "mail.txt",
        "with samba 4.7.6\n\tChildren see throughput for  1 initial writers \t=   11248.48 "
        "kB/sec\n\tParent sees throughput for  1 initial writers \t=   11248.28 kB/sec\n\n"
        "with samba 4.10.6\n\tChildren see throughput for  1 initial writers \t=    9018.82 "
        "kB/sec\n",
        NULL, &o);
    assert_int_equal(o.recs.n, 2);
    assert_int_equal(fu_runs(&o, "iozone"), 2);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 11248.48 * 1024, 1e-3);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 9018.82 * 1024, 1e-3);
    assert_int_equal(o.recs.v[1]->numjobs, 1);
    bl_out_free(&o);
}

/* DiskSpd with only its Total IO table: reads and writes together, said so; -w0 says reads. */
static void test_diskspd_total_only(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_fixture("diskspd/diskspd-2.x_mix70_4k_L_total_only_layout.txt", NULL, &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->op, "mixed");
    assert_string_equal(r->test, "rand-mixed");
    assert_non_null(strstr(r->note, "Total IO"));
    assert_double_equal(r->iops, 17334, 0);
    assert_double_equal(r->bw_bytes_s, 710000640 / 10.0, 1e-6);
    assert_int_equal(r->numjobs, 2);
    assert_double_equal(r->lat_ns.mean, 0.441e6, 0);
    assert_double_equal(r->lat_ns.max, 15.204e6, 0);
    bl_out_free(&o);
    bl_test_parse_text(
        "reads.txt",
        "Command Line: diskspd.exe -d5 -b1M -t1 -w0 -s io-perf.tmp\n\nTotal IO\nthread |  "
        "     bytes     |     I/Os     |    MiB/s   |  I/O per s |  file\n--------------\n"
        "total:        1048576000 |         1000 |     200.00 |     200.00\n",
        NULL, &o);
    assert_int_equal(o.recs.n, 1);
    assert_string_equal(o.recs.v[0]->op, "read");
    assert_null(o.recs.v[0]->note);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 200 * 1048576.0, 1e-6);
    bl_out_free(&o);
}

/* sysbench 0.4/0.5's lowercase "1500 reads, 1000 writes" behind "> " after a <br> table. */
static void test_sysbench_lowercase_quoted(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(
        parse_fixture("sysbench/sysbench-0.5_handwritten_lowercase_quoted.txt", NULL, &o), 0);
    assert_int_equal(o.recs.n, 2);
    const bl_record *r = fu_find(&o, "rand-read", NULL, NULL, 0);
    assert_non_null(r);
    assert_string_equal(r->tool_version, "0.5");
    assert_int_equal(r->bs, 16384);
    assert_int_equal(r->io_bytes, 1500 * 16384);
    assert_double_equal(r->iops, 1500 / 19.2, 1e-9);
    assert_double_equal(r->bw_bytes_s, 1500 * 16384 / 19.2, 1e-6);
    r = fu_find(&o, "rand-write", NULL, NULL, 0);
    assert_int_equal(r->io_bytes, 1000 * 16384);
    assert_double_equal(r->lat_ns.max, 14.82e6, 1e-6);
    bl_out_free(&o);
}

/* A fio JSON shortened by hand with trailing commas: read, with a note and a warning. */
static void test_fio_json_trailing_comma(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_fixture("fio/shortened-trailing-comma-3.33.json", NULL, &o), 0);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->test, "rand-read");
    assert_double_equal(r->iops, 3416.113744, 1e-9);
    assert_double_equal(r->bw_bytes_s, 13992401, 0);
    assert_int_equal(r->io_bytes, 14761984);
    assert_double_equal(r->clat_ns.mean, 291330.014151, 1e-6);
    assert_non_null(strstr(r->note, "trailing commas"));
    assert_true(o.n_warns >= 1);
    assert_int_equal(o.warns[0].line, 86);
    bl_out_free(&o);
    /* a comma that is not trailing is still refused at its line */
    bl_test_parse_text("bad.json", "{\n\"fio version\" : \"fio-3.33\",\n\"jobs\" : [ {,} ]\n}\n",
                       "fio-json", &o);
    assert_int_equal(o.recs.n, 0);
    assert_true(o.n_diags >= 1);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bonnie_196_short_line),
        cmocka_unit_test(test_bonnie_196_short_line_refused),
        cmocka_unit_test(test_sysbench_prepare_is_no_dd),
        cmocka_unit_test(test_fio_appended_interrupted),
        cmocka_unit_test(test_cdm_bold_headings),
        cmocka_unit_test(test_cdm_run_headings),
        cmocka_unit_test(test_cdm_bodies_apart),
        cmocka_unit_test(test_headings_italic_and_colon),
        cmocka_unit_test(test_toybox_dd),
        cmocka_unit_test(test_uutils_dd_zero_rate),
        cmocka_unit_test(test_fio_in_code),
        cmocka_unit_test(test_fio_mail_reflowed_header),
        cmocka_unit_test(test_iozone_throughput),
        cmocka_unit_test(test_diskspd_total_only),
        cmocka_unit_test(test_sysbench_lowercase_quoted),
        cmocka_unit_test(test_fio_json_trailing_comma),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
