/* CrystalDiskMark / KDiskMark / fio-cdm: every corpus file and our fixtures, figure by figure
 * (MB/s = 10^6 bytes/s, latency us -> ns). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>

static int parse_corpus(const char *rel, bl_parse_out *o)
{
    char *p = bl_test_corpus(rel);
    if (!p)
        return -1;
    bl_out_init(o, rel);
    int rc = bl_test_parse(p, NULL, o);
    free(p);
    return rc;
}

static void test_corpus_counts(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t n;
    } files[] = {{"cdm/cdm-3.0.2_x64_samsung830_ssd.txt", 8},
                 {"cdm/cdm-3.0.2_x64_seagate_hdd_crlf.txt", 8},
                 {"cdm/cdm-6.0.2_x64_samsung860evo_quoted.txt", 8},
                 {"cdm/cdm-7.0.0_x86_virtio_ramdisk_issue428.txt", 8},
                 {"cdm/cdm-8.0.1_x86_nocomment.txt", 8},
                 {"cdm/cdm-8.0.2_x64_crucial_p2_nvme.txt", 8},
                 {"cdm/fio-cdm_xlucn_readme_mix.txt", 12},
                 {"cdm/fio-cdm_xlucn_readme_old.txt", 8},
                 {"cdm/kdiskmark-3.2.0_demo_profile_partial_issue175.txt", 2}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        bl_parse_out o;
        int rc = parse_corpus(files[i].file, &o);
        if (rc < 0)
            skip();
        assert_int_equal(rc, 0);
        assert_int_equal(o.recs.n, files[i].n);
        assert_int_equal(fu_runs(&o, NULL), 1);
        bl_out_free(&o);
    }
}

static void test_cdm3(void **state)
{
    (void)state;
    bl_parse_out o;
    if (parse_corpus("cdm/cdm-3.0.2_x64_samsung830_ssd.txt", &o) < 0)
        skip();
    const bl_record *r = fu_find(&o, "rand-read", "cdm_test", "RND4K Q32T1", 0);
    assert_double_equal(r->bw_bytes_s, 301.170e6, 1e-3);
    assert_double_equal(r->iops, 73527.7, 1e-9);
    assert_int_equal(r->bs, 4096);
    assert_string_equal(r->tool_version, "3.0.2");
    assert_string_equal(bl_record_label(r, "test_size"), "1000 MB");
    assert_string_equal(bl_record_label(r, "runs"), "5");
    assert_string_equal(bl_record_label(r, "date"), "2013/04/13 23:10:09");
    assert_string_equal(bl_record_label(r, "os"), "Windows 8  [6.2 Build 9200] (x64)");
    r = fu_find(&o, "rand-write", "cdm_test", "RND512K Q1T1", 0);
    assert_double_equal(r->bw_bytes_s, 390.353e6, 1e-3);
    assert_int_equal(r->line, 10);
    bl_out_free(&o);
}

static void test_cdm6_7_8(void **state)
{
    (void)state;
    bl_parse_out o;
    if (parse_corpus("cdm/cdm-6.0.2_x64_samsung860evo_quoted.txt", &o) < 0)
        skip();
    const bl_record *r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q8T8", 0);
    assert_double_equal(r->bw_bytes_s, 321.975e6, 1e-3);
    assert_int_equal(r->numjobs, 8);
    assert_int_equal(r->iodepth, 8);
    r = fu_find(&o, "seq-read", NULL, NULL, 0);
    assert_string_equal(bl_record_label(r, "cdm_test"), "SEQ128K Q32T1");
    bl_out_free(&o);
    assert_int_equal(parse_corpus("cdm/cdm-8.0.2_x64_crucial_p2_nvme.txt", &o), 0);
    r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q32T16", 0);
    assert_double_equal(r->bw_bytes_s, 1795.237e6, 1e-3);
    assert_double_equal(r->iops, 438290.3, 1e-6);
    assert_double_equal(r->lat_ns.mean, 1167.29e3, 1e-6);
    r = fu_find(&o, "seq-read", "cdm_test", "SEQ128K Q32T1", 0);
    assert_int_equal(r->bs, 131072);
    assert_string_equal(bl_record_label(r, "comment"), "Crucial P2 2TB @ PCIe 3.0 x4");
    assert_string_equal(bl_record_label(r, "drive"), "D: 48% (893/1863GiB)");
    bl_out_free(&o);
    assert_int_equal(parse_corpus("cdm/cdm-7.0.0_x86_virtio_ramdisk_issue428.txt", &o), 0);
    r = fu_find(&o, "rand-read", "cdm_test", "RND4K Q32T16", 0);
    assert_double_equal(r->lat_ns.mean, 11882.46e3, 1e-6);
    assert_null(bl_record_label(r, "drive")); /* "[Interval: 5 sec]" is not a drive */
    bl_out_free(&o);
}

static void test_kdiskmark_fio_cdm(void **state)
{
    (void)state;
    bl_parse_out o;
    if (parse_corpus("cdm/kdiskmark-3.2.0_demo_profile_partial_issue175.txt", &o) < 0)
        skip();
    const bl_record *r = fu_find(&o, "seq-write", NULL, NULL, 0);
    assert_string_equal(r->tool, "KDiskMark");
    assert_double_equal(r->bw_bytes_s, 9074.949e6, 1e-3);
    assert_double_equal(r->lat_ns.mean, 793.91e3, 1e-6);
    assert_string_equal(bl_record_label(r, "profile"), "Demo");
    bl_out_free(&o);
    assert_int_equal(parse_corpus("cdm/fio-cdm_xlucn_readme_mix.txt", &o), 0);
    r = fu_find(&o, "rand-mixed", "cdm_test", "RND4K Q1T1", 0);
    assert_string_equal(r->tool, "fio-cdm");
    assert_double_equal(r->bw_bytes_s, 34.43e6, 1e-3);
    assert_double_equal(r->iops, 8405.20, 1e-9);
    assert_double_equal(r->lat_ns.mean, 67.78e3, 1e-6);
    assert_string_equal(bl_record_label(r, "runs"), "5");
    bl_out_free(&o);
}

static void test_fixture_utf16(void **state)
{
    (void)state;
    char buf[256];
    const char *files[] = {"cdm/cdm-5.2.1_handwritten_crlf.txt",
                           "cdm/cdm-5.2.1_handwritten_utf16.txt"};
    for (size_t i = 0; i < 2; i++) {
        bl_parse_out o;
        bl_out_init(&o, "f");
        assert_int_equal(bl_test_parse(bl_test_fixture(files[i], buf, sizeof buf), NULL, &o), 0);
        assert_int_equal(o.recs.n, 8);
        const bl_record *r = fu_find(&o, "seq-read", "cdm_test", "SEQ128K Q32T1", 0);
        assert_double_equal(r->bw_bytes_s, 545.163e6, 1e-3);
        r = fu_find(&o, "seq-write", "cdm_test", "SEQ1M Q1T1", 0);
        assert_double_equal(r->bw_bytes_s, 488.562e6, 1e-3);
        r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q1T1", 0);
        assert_double_equal(r->iops, 28882.8, 1e-9);
        assert_string_equal(bl_record_label(r, "date"), "2017/05/03 21:14:55");
        bl_out_free(&o);
    }
}

static void test_fixture_kdiskmark(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "f");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("cdm/kdiskmark-3.0.0_handwritten.txt", buf, sizeof buf), NULL,
                      &o),
        0);
    assert_int_equal(o.recs.n, 8);
    const bl_record *r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q32T1", 0);
    assert_string_equal(r->tool, "KDiskMark");
    assert_string_equal(r->tool_version, "3.0.0");
    assert_string_equal(bl_record_label(r, "fio_version"), "3.30");
    assert_string_equal(bl_record_label(r, "target"), "/home 41% (187/457GiB)");
    assert_double_equal(r->bw_bytes_s, 302.778e6, 1e-3);
    assert_double_equal(r->iops, 73920.4, 1e-9);
    assert_double_equal(r->lat_ns.mean, 432.45e3, 1e-6);
    assert_int_equal(r->line, 16);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_counts), cmocka_unit_test(test_cdm3),
        cmocka_unit_test(test_cdm6_7_8),      cmocka_unit_test(test_kdiskmark_fio_cdm),
        cmocka_unit_test(test_fixture_utf16), cmocka_unit_test(test_fixture_kdiskmark),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
