/* sysbench fileio: real 1.0.20 fixtures and the 0.4.12 layout, one record per direction
 * that moved data, bw = IOPS x bs, refusal when the figures contradict the block size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/driver.h"
#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>

#define MIB 1048576.0

static void parse_fixture(const char *file, bl_parse_out *o)
{
    char buf[256];
    bl_out_init(o, file);
    assert_int_equal(bl_test_parse(bl_test_fixture(file, buf, sizeof buf), NULL, o), 0);
}

static double pct(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == p)
            return l->pct[i].value;
    return NAN;
}

static void test_rndrw_1_0(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("sysbench/sysbench-1.0.20_rndrw.txt", &o);
    assert_int_equal(o.recs.n, 2);
    const bl_record *r = fu_find(&o, "rand-read", NULL, NULL, 0);
    assert_non_null(r);
    assert_string_equal(r->tool_version, "1.0.20");
    /* reads/s: 4652.51, read, MiB/s: 72.70, Block size 16KiB */
    assert_double_equal(r->iops, 4652.51, 1e-9);
    assert_int_equal(r->bs, 16384);
    assert_double_equal(r->bw_bytes_s, 4652.51 * 16384, 1e-6);
    assert_double_equal(r->bw_bytes_s / MIB, 72.70, 0.005);
    assert_double_equal(r->runtime_s, 3.016, 1e-12);
    assert_int_equal(r->size_bytes, 64 * 1048576);
    assert_int_equal(r->numjobs, 1);
    assert_int_equal(r->direct, BL_FALSE);
    assert_double_equal(r->lat_ns.max, 47.52e6, 1e-3);
    assert_double_equal(pct(&r->lat_ns, 95), 0.01e6, 1e-3);
    assert_non_null(strstr(r->note, "all requests"));
    assert_string_equal(bl_record_label(r, "fsyncs_s"), "310.83");
    r = fu_find(&o, "rand-write", NULL, NULL, 0);
    assert_double_equal(r->iops, 3101.67, 1e-9);
    assert_double_equal(r->bw_bytes_s, 3101.67 * 16384, 1e-6);
    assert_int_equal(r->run, o.recs.v[0]->run);
    bl_out_free(&o);
}

static void test_one_direction_1_0(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("sysbench/sysbench-1.0.20_rndrd_direct_4k_p99.txt", &o);
    assert_int_equal(o.recs.n, 1); /* writes/s: 0.00 moved no data */
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->test, "rand-read");
    assert_double_equal(r->iops, 12151.18, 1e-9);
    assert_int_equal(r->bs, 4096);
    assert_int_equal(r->direct, BL_TRUE);
    assert_double_equal(pct(&r->lat_ns, 99), 0.45e6, 1e-3);
    assert_double_equal(r->lat_ns.mean, 0.08e6, 1e-3);
    assert_null(r->note);
    bl_out_free(&o);

    parse_fixture("sysbench/sysbench-1.0.20_rndwr_2threads.txt", &o);
    assert_int_equal(o.recs.n, 1);
    assert_string_equal(o.recs.v[0]->test, "rand-write");
    assert_int_equal(o.recs.v[0]->numjobs, 2);
    assert_double_equal(o.recs.v[0]->iops, 41025.92, 1e-9);
    bl_out_free(&o);

    parse_fixture("sysbench/sysbench-1.0.20_seqwr.txt", &o);
    assert_int_equal(o.recs.n, 1);
    assert_string_equal(o.recs.v[0]->test, "seq-write");
    assert_double_equal(o.recs.v[0]->iops, 19279.30, 1e-9);
    bl_out_free(&o);
}

static void test_layout_0_4(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("sysbench/sysbench-0.4.12_rndrw_layout.txt", &o);
    assert_int_equal(o.recs.n, 3);
    assert_int_equal(fu_runs(&o, "sysbench"), 2);
    /* 5999 Read in 15.2656 s of 16Kb blocks = "Read 93.734Mb" */
    const bl_record *r = fu_find(&o, "rand-read", NULL, NULL, 0);
    assert_int_equal(r->io_bytes, 5999LL * 16384);
    assert_double_equal(r->iops, 5999 / 15.2656, 1e-9);
    assert_double_equal(r->bw_bytes_s, 5999.0 * 16384 / 15.2656, 1e-6);
    assert_double_equal(r->lat_ns.max, 28.92e6, 1e-3);
    assert_double_equal(pct(&r->lat_ns, 95), 0.02e6, 1e-3);
    assert_int_equal(r->size_bytes, 2147483648LL);
    r = fu_find(&o, "rand-write", NULL, NULL, 0);
    assert_int_equal(r->io_bytes, 4001LL * 16384);
    r = fu_find(&o, "seq-read", NULL, NULL, 0);
    assert_int_equal(r->numjobs, 4);
    assert_int_equal(r->io_bytes, 2147483648LL);
    /* (118.37Mb/sec) printed; 2 GiB / 17.3019 s */
    assert_double_equal(r->bw_bytes_s / MIB, 118.37, 0.005);
    assert_null(r->note);
    bl_out_free(&o);
}

/* A block size that contradicts the figures: refused with its line, nothing made up. */
static void test_refuse(void **state)
{
    (void)state;
    const char *text = "Block size 4KiB\n"
                       "Doing random read test\n"
                       "File operations:\n"
                       "    reads/s:                      4652.51\n"
                       "    writes/s:                     0.00\n"
                       "    fsyncs/s:                     0.00\n"
                       "Throughput:\n"
                       "    read, MiB/s:                  72.70\n"
                       "    written, MiB/s:               0.00\n"
                       "General statistics:\n"
                       "    total time:                          3.0160s\n";
    char err[128];
    bl_text t;
    assert_int_equal(bl_text_from_bytes(&t, "p.txt", text, strlen(text), err, sizeof err), 0);
    bl_parse_opts opts = {0};
    bl_parse_out o;
    bl_out_init(&o, "p.txt");
    assert_int_equal(bl_parse_text(&t, &opts, &o), 1);
    assert_int_equal(o.recs.n, 0);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 3);
    bl_out_free(&o);
    bl_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rndrw_1_0),
        cmocka_unit_test(test_one_direction_1_0),
        cmocka_unit_test(test_layout_0_4),
        cmocka_unit_test(test_refuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
