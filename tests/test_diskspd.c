/* DiskSpd text reports: Read/Write totals by the header's columns, percentiles by direction,
 * the profile's block size, depth and threads, and refusal of a total whose MiB/s disagrees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/driver.h"
#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>

static void parse_fixture(const char *file, bl_parse_out *o)
{
    char buf[256];
    bl_out_init(o, file);
    assert_int_equal(bl_test_parse(bl_test_fixture(file, buf, sizeof buf), NULL, o), 0);
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
    assert_int_equal(o.recs.n, 2);
    const bl_record *r = fu_find(&o, "rand-read", NULL, NULL, 0);
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
    r = fu_find(&o, "rand-write", NULL, NULL, 0);
    assert_int_equal(r->io_bytes, 213114880LL);
    assert_double_equal(r->iops, 5203.00, 1e-9);
    assert_double_equal(r->lat_ns.min, 88000, 0);
    assert_double_equal(pct(&r->lat_ns, 50), 447000, 0);
    bl_out_free(&o);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_with_latency),
        cmocka_unit_test(test_read_only_iopsstddev),
        cmocka_unit_test(test_refuse_disagreeing_total),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
