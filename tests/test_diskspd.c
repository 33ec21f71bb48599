/* DiskSpd text reports: Read/Write totals by the header's columns, percentiles by direction,
 * the profile's block size, depth and threads, and refusal of a total whose MiB/s disagrees;
 * thread rows as records of their own, kept apart from the totals in reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void parse_fixture(const char *file, bl_parse_out *o)
{
    char buf[256];
    bl_out_init(o, file);
    assert_int_equal(bl_test_parse(bl_test_fixture(file, buf, sizeof buf), NULL, o), 0);
}

/* The total record of a test (no scope label). */
static const bl_record *total_of(const bl_parse_out *o, const char *test)
{
    for (size_t i = 0; i < o->recs.n; i++)
        if (strcmp(o->recs.v[i]->test, test) == 0 && !bl_record_label(o->recs.v[i], "scope"))
            return o->recs.v[i];
    return NULL;
}

static double pct(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (fabs(l->pct[i].pct - p) < 1e-9)
            return l->pct[i].value;
    return NAN;
}

static void test_mix_with_latency(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("diskspd/diskspd-2.x_mix70_4k_L_layout.txt", &o);
    assert_int_equal(o.recs.n, 2 + 4); /* the totals, then two threads a direction */
    const bl_record *r = total_of(&o, "rand-read");
    assert_non_null(r);
    /* "total:         496885760 |       121310 |      47.39 |   12131.00 |    0.404 |     0.318" */
    assert_int_equal(r->io_bytes, 496885760LL);
    assert_double_equal(r->iops, 12131.00, 1e-9);
    assert_double_equal(r->bw_bytes_s, 12131.0 * 4096, 1e-6);
    assert_int_equal(r->bs, 4096);
    assert_int_equal(r->iodepth, 8);
    assert_int_equal(r->numjobs, 2);
    assert_int_equal(r->direct, BL_TRUE);
    assert_double_equal(r->runtime_s, 10.0, 1e-12);
    assert_double_equal(r->lat_ns.mean, 404000, 0);
    assert_double_equal(r->lat_ns.stdev, 318000, 0);
    /* Read column of the latency table: min 0.061, 99th 1.633, 3-nines 3.912, max 15.204 */
    assert_double_equal(r->lat_ns.min, 61000, 0);
    assert_double_equal(pct(&r->lat_ns, 99), 1633000, 0);
    assert_double_equal(pct(&r->lat_ns, 99.9), 3912000, 0);
    assert_double_equal(r->lat_ns.max, 15204000, 0);
    assert_string_equal(bl_record_label(r, "command"),
                        "diskspd.exe -c1G -d10 -r -w30 -t2 -o8 -b4K -Sh -L testfile.dat");
    /* Its "Command Line:" and underlined "timespan:   1" are output, not headings. */
    assert_null(bl_record_label(r, "section"));
    r = total_of(&o, "rand-write");
    assert_int_equal(r->io_bytes, 213114880LL);
    assert_double_equal(r->iops, 5203.00, 1e-9);
    assert_double_equal(r->lat_ns.min, 88000, 0);
    assert_double_equal(pct(&r->lat_ns, 50), 447000, 0);
    bl_out_free(&o);
}

/* The Read IO and Write IO thread rows: one record each, labelled, numjobs 1, no
 * percentiles (DiskSpd's latency table is over all threads). */
static void test_thread_rows(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("diskspd/diskspd-2.x_mix70_4k_L_layout.txt", &o);
    /* "     1 |       247029760 |        60310 |      23.56 |    6031.00 |    0.407 |     0.318 |
     *  testfile.dat (1GiB)" under Read IO */
    const bl_record *r = fu_find(&o, "rand-read", "scope", "thread 1", 0);
    assert_non_null(r);
    assert_string_equal(bl_record_label(r, "thread"), "1");
    assert_string_equal(bl_record_label(r, "target"), "testfile.dat");
    assert_int_equal(r->io_bytes, 247029760LL);
    assert_double_equal(r->iops, 6031.00, 1e-9);
    assert_double_equal(r->bw_bytes_s, 6031.0 * 4096, 1e-6);
    assert_int_equal(r->bs, 4096);
    assert_int_equal(r->numjobs, 1);
    assert_int_equal(r->iodepth, 8);
    assert_double_equal(r->lat_ns.mean, 407000, 0);
    assert_double_equal(r->lat_ns.stdev, 318000, 0);
    assert_int_equal(r->lat_ns.n_pct, 0);
    assert_false(bl_present(r->lat_ns.min));
    assert_int_equal(r->line, 56);
    /* "     0 |       107069440 |        26140 |      10.21 |    2614.00 |    0.521 |     0.402" */
    r = fu_find(&o, "rand-write", "scope", "thread 0", 0);
    assert_non_null(r);
    assert_int_equal(r->io_bytes, 107069440LL);
    assert_double_equal(r->iops, 2614.00, 1e-9);
    assert_double_equal(r->lat_ns.mean, 521000, 0);
    assert_int_equal(fu_count(&o, "diskspd", "scope", "thread 0"), 2);
    assert_int_equal(fu_count(&o, "diskspd", "scope", "thread 1"), 2);
    bl_out_free(&o);
}

/* Thread rows that do not add up to the total are refused (the total kept); one thread row
 * is the total itself and gives no record of its own. */
static void test_thread_rows_refused(void **state)
{
    (void)state;
    const char *text =
        "thread count:\t\t2\n"
        "Total IO\n"
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  file\n"
        "total:         361897984 |        88354 |      34.51 |    8835.40\n"
        "\n"
        "Read IO\n"
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  file\n"
        "------------------------------------------------------------------------------\n"
        "     0 |       180948992 |        44177 |      17.26 |    4417.70 | a.dat (1GiB)\n"
        "     1 |       180944896 |        44176 |      17.26 |    4417.60 | a.dat (1GiB)\n"
        "------------------------------------------------------------------------------\n"
        "total:         361897984 |        88354 |      34.51 |    8835.40\n";
    char err[128];
    bl_text t;
    assert_int_equal(bl_text_from_bytes(&t, "p.txt", text, strlen(text), err, sizeof err), 0);
    bl_parse_opts opts = {.as = "diskspd"};
    bl_parse_out o;
    bl_out_init(&o, "p.txt");
    bl_parse_text(&t, &opts, &o);
    assert_int_equal(o.recs.n, 1);
    assert_null(bl_record_label(o.recs.v[0], "scope"));
    assert_int_equal(o.recs.v[0]->io_bytes, 361897984LL);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 12);
    assert_non_null(strstr(o.diags[0].msg, "thread rows add up to 361893888 bytes"));
    bl_out_free(&o);
    bl_text_free(&t);

    bl_parse_out o2;
    parse_fixture("diskspd/diskspd-2.x_seqread_1M_D_layout.txt", &o2);
    for (size_t i = 0; i < o2.recs.n; i++) /* -t1: its one thread row is the total */
        assert_null(bl_record_label(o2.recs.v[i], "scope"));
    bl_out_free(&o2);
}

/* -t70: seventy thread rows, each its record (no fixed cap on the rows). */
static void test_many_threads(void **state)
{
    (void)state;
    bl_strbuf text;
    bl_strbuf_init(&text);
    const char *head =
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  file\n";
    bl_strbuf_printf(&text,
                     "thread count:\t\t70\nTotal IO\n%s"
                     "total:          28672000 |         7000 |       2.73 |     700.00\n\n"
                     "Read IO\n%s",
                     head, head);
    for (int i = 0; i < 70; i++)
        bl_strbuf_printf(
            &text, "%6d |          409600 |          100 |       0.04 |      10.00 | t%d.dat\n", i,
            i % 7);
    bl_strbuf_puts(&text, "total:          28672000 |         7000 |       2.73 |     700.00\n");
    char err[128];
    bl_text t;
    assert_int_equal(bl_text_from_bytes(&t, "p.txt", text.s, text.len, err, sizeof err), 0);
    bl_parse_opts opts = {.as = "diskspd"};
    bl_parse_out o;
    bl_out_init(&o, "p.txt");
    bl_parse_text(&t, &opts, &o);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 71);
    const bl_record *r = fu_find(&o, NULL, "scope", "thread 69", 0);
    assert_non_null(r);
    assert_string_equal(bl_record_label(r, "target"), "t6.dat");
    assert_int_equal(r->io_bytes, 409600);
    assert_double_equal(r->iops, 10, 0);
    bl_out_free(&o);
    bl_text_free(&t);
    bl_strbuf_free(&text);
}

/* A report keeps each thread in its own column: the totals row shows DiskSpd's total, not a
 * mean of it and the threads, and the threads are not "repeats" of one another. */
static void test_report_keeps_threads_apart(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char args[1024];
    snprintf(args, sizeof args,
             "import --db %s/s.db fixtures/diskspd/diskspd-2.x_mix70_4k_L_layout.txt", dir);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "report --db %s/s.db", dir);
    char *out = NULL;
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, "thread 0"));
    assert_non_null(strstr(out, "thread 1"));
    assert_null(strstr(out, "n=2"));
    const char *row = strstr(out, "rand-read 4KiB Q8T2");
    assert_non_null(row);
    const char *end = strchr(row, '\n');
    const char *fig = strstr(row, "12131 IOPS");
    assert_true(fig && fig < end);
    row = strstr(out, "rand-read 4KiB Q8T1");
    assert_non_null(row);
    end = strchr(row, '\n');
    fig = strstr(row, "6100 IOPS");
    assert_true(fig && fig < end);
    fig = strstr(row, "6031 IOPS");
    assert_true(fig && fig < end);
    free(out);
    snprintf(args, sizeof args, "%s/s.db", dir);
    unlink(args);
    rmdir(dir);
    free(dir);
}

static void test_read_only_iopsstddev(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("diskspd/diskspd-2.x_seqread_1M_D_layout.txt", &o);
    assert_int_equal(o.recs.n, 1); /* the Write IO table moved nothing */
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->test, "seq-read");
    assert_double_equal(r->iops, 1970.60, 1e-9);
    assert_int_equal(r->bs, 1048576);
    assert_double_equal(r->bw_bytes_s, 1970.60 * 1048576, 1e-3);
    assert_int_equal(r->direct, BL_FALSE);
    assert_false(r->lat_ns.present); /* IopsStdDev is no latency */
    bl_out_free(&o);
}

static void test_refuse_disagreeing_total(void **state)
{
    (void)state;
    const char *text =
        "Read IO\n"
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  file\n"
        "------------------------------------------------------------------------------\n"
        "total:         361897984 |        88354 |      84.46 |    8821.85\n";
    char err[128];
    bl_text t;
    assert_int_equal(bl_text_from_bytes(&t, "p.txt", text, strlen(text), err, sizeof err), 0);
    bl_parse_opts opts = {.as = "diskspd"};
    bl_parse_out o;
    bl_out_init(&o, "p.txt");
    bl_parse_text(&t, &opts, &o);
    assert_int_equal(o.recs.n, 0);
    bl_out_free(&o);
    bl_text_free(&t);

    /* The same under a "Total IO" table: refused with its line. */
    const char *text2 =
        "Total IO\n"
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  file\n"
        "total:         361897984 |        88354 |      34.46 |    8821.85\n"
        "\n"
        "Read IO\n"
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  file\n"
        "total:         361897984 |        88354 |      84.46 |    8821.85\n";
    assert_int_equal(bl_text_from_bytes(&t, "p.txt", text2, strlen(text2), err, sizeof err), 0);
    bl_out_init(&o, "p.txt");
    bl_parse_text(&t, &opts, &o);
    assert_int_equal(o.recs.n, 0);
    assert_true(o.n_diags >= 1);
    assert_int_equal(o.diags[0].line, 7);
    bl_out_free(&o);
    bl_text_free(&t);
}

/* The System information's "start time: 2026/12/04 17:00:00 UTC" (GetSystemTime: UTC) is every
 * record's `when`, from the text, whatever the reader's zone; DiskSpd's own tests print the line
 * empty ("start time: "), which gives none. */
static void test_start_time_is_when(void **state)
{
    (void)state;
    const char *tz = getenv("TZ");
    char *saved = tz ? strdup(tz) : NULL;
    setenv("TZ", "America/New_York", 1);
    tzset();
    bl_parse_out o;
    parse_fixture("diskspd/diskspd-2.x_mix70_4k_L_layout.txt", &o);
    assert_int_equal(o.recs.n, 6);
    for (size_t i = 0; i < o.recs.n; i++) { /* totals and thread rows alike */
        assert_string_equal(o.recs.v[i]->when, "2026-12-04T17:00:00Z");
        assert_string_equal(o.recs.v[i]->when_from, "text");
        assert_string_equal(bl_record_label(o.recs.v[i], "date"), "2026/12/04 17:00:00 UTC");
    }
    bl_out_free(&o);

    char buf[256];
    char *text = bl_test_slurp(
        bl_test_fixture("diskspd/diskspd-2.x_mix70_4k_L_layout.txt", buf, sizeof buf));
    assert_non_null(text);
    char *at = strstr(text, "2026/12/04 17:00:00 UTC");
    assert_non_null(at);
    memset(at, ' ', strlen("2026/12/04 17:00:00 UTC"));
    assert_int_equal(bl_test_parse_text("empty.txt", text, NULL, &o), 0);
    assert_int_equal(o.recs.n, 6);
    for (size_t i = 0; i < o.recs.n; i++)
        assert_null(o.recs.v[i]->when);
    bl_out_free(&o);
    free(text);
    if (saved)
        setenv("TZ", saved, 1);
    else
        unsetenv("TZ");
    free(saved);
    tzset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_with_latency),
        cmocka_unit_test(test_start_time_is_when),
        cmocka_unit_test(test_thread_rows),
        cmocka_unit_test(test_thread_rows_refused),
        cmocka_unit_test(test_many_threads),
        cmocka_unit_test(test_report_keeps_threads_apart),
        cmocka_unit_test(test_read_only_iopsstddev),
        cmocka_unit_test(test_refuse_disagreeing_total),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
