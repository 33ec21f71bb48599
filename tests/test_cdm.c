/* CrystalDiskMark / KDiskMark / fio-cdm: every corpus file and our fixtures, figure by figure
 * (CrystalDiskMark's MB/s = 10^6 bytes/s, KDiskMark's per version, latency us -> ns). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

/* KDiskMark 1.5.1 on prints fio's KiB/s / 1000 as "MB/s"; up to 1.5.0 KiB/s / 1024. */
#define KDM_KB 1024000.0
#define KDM_MIB 1048576.0

/* Every record with bandwidth and IOPS: bw = IOPS x bs within 0.5%. Returns how many. */
static size_t assert_bw_fits_iops(const bl_parse_out *o)
{
    size_t n = 0;
    for (size_t i = 0; i < o->recs.n; i++) {
        const bl_record *r = o->recs.v[i];
        if (!bl_present(r->bw_bytes_s) || !bl_present(r->iops) || r->bs <= 0)
            continue;
        double ratio = r->bw_bytes_s / (r->iops * (double)r->bs);
        if (ratio < 0.995 || ratio > 1.005)
            fail_msg("%s:%lld: bw %.0f against IOPS %.1f x bs %lld: ratio %.4f", r->source,
                     (long long)r->line, r->bw_bytes_s, r->iops, (long long)r->bs, ratio);
        n++;
    }
    return n;
}

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
    /* no header, so no version: its IOPS (8862.3 x 1 MiB) say 1,024,000 bytes per "MB" */
    assert_double_equal(r->bw_bytes_s, 9074.949 * KDM_KB, 1e-3);
    assert_non_null(strstr(r->note, "1,024,000 bytes/s"));
    assert_double_equal(r->lat_ns.mean, 793.91e3, 1e-6);
    assert_string_equal(bl_record_label(r, "profile"), "Demo");
    r = fu_find(&o, "seq-read", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 20725.404 * KDM_KB, 1e-3);
    assert_int_equal(assert_bw_fits_iops(&o), 2);
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

/* fio-cdm's shell script prints "%11.3f" MB/s; a cell where it misread fio's unit comes out
 * a whole number as "43673.000" (buty4649/fio-cdm issue 1, an HDD's 4K reads). That cell is
 * refused at its line; the other cells, large ones too, are read as printed. */
static void test_fio_cdm_misread_unit(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "f");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("cdm/fio-cdm-shell_handwritten_misread.txt", buf, sizeof buf),
                      NULL, &o),
        1);
    assert_int_equal(o.recs.n, 7);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 6);
    assert_non_null(strstr(o.diags[0].msg, "'43673.000' MB/s is a whole number printed as .000"));
    assert_null(fu_find(&o, "rand-read", "cdm_test", "RND4K Q1T1", 0));
    const bl_record *r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q1T1", 0);
    assert_double_equal(r->bw_bytes_s, 30.172e6, 1e-6);
    r = fu_find(&o, "seq-read", "cdm_test", "SEQ1M Q1T1", 0);
    assert_double_equal(r->bw_bytes_s, 1523.457e6, 1e-3);
    r = fu_find(&o, "rand-read", "cdm_test", "RND512K Q1T1", 0);
    assert_double_equal(r->bw_bytes_s, 1011.25e6, 1e-3);
    bl_out_free(&o);
}

static int parse_auto(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("p.txt", text, NULL, o);
}

/* A CrystalDiskMark 8 body pasted without its header, IOPS or latency ("SEQ    1MiB (Q=  8, T=
 * 1):" is CrystalDiskMark's own wording; KDiskMark writes "Sequential   1 MiB"): read, MB/s =
 * 10^6 bytes/s. A CrystalDiskMark 3 export with decimal commas is refused line by line. */
static void test_cdm_body_alone_and_commas(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_auto("My new NVMe, CrystalDiskMark 8 results:\n\n[Read]\n"
                                "  SEQ    1MiB (Q=  8, T= 1):  2293.007 MB/s\n"
                                "  RND    4KiB (Q= 32, T=16):  1158.079 MB/s\n\n[Write]\n"
                                "  RND    4KiB (Q=  1, T= 1):   220.477 MB/s\n",
                                &o),
                     0);
    assert_int_equal(o.recs.n, 3);
    const bl_record *r = fu_find(&o, "seq-read", "cdm_test", "SEQ1M Q8T1", 0);
    assert_string_equal(r->tool, "CrystalDiskMark");
    assert_double_equal(r->bw_bytes_s, 2293.007e6, 1e-3);
    r = fu_find(&o, "rand-read", "cdm_test", "RND4K Q32T16", 0);
    assert_int_equal(r->numjobs, 16);
    assert_int_equal(r->bs, 4096);
    r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q1T1", 0);
    assert_double_equal(r->bw_bytes_s, 220.477e6, 1e-3);
    bl_out_free(&o);
    assert_int_equal(parse_auto("Sequential Read :   478,802 MB/s\n"
                                "Random Read 4KB (QD=1) :    21,235 MB/s [  5184,4 IOPS]\n",
                                &o),
                     1);
    assert_int_equal(o.recs.n, 0);
    assert_int_equal(o.n_diags, 2);
    assert_int_equal(o.diags[0].line, 1);
    assert_non_null(strstr(o.diags[0].msg, "figure with a comma ('478,802')"));
    assert_int_equal(o.diags[1].line, 2);
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
        bl_test_parse(bl_test_fixture("cdm/kdiskmark-3.2.0_handwritten.txt", buf, sizeof buf), NULL,
                      &o),
        0);
    assert_int_equal(o.recs.n, 8);
    const bl_record *r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q32T1", 0);
    assert_string_equal(r->tool, "KDiskMark");
    assert_string_equal(r->tool_version, "3.2.0");
    assert_string_equal(bl_record_label(r, "fio_version"), "3.39");
    assert_string_equal(bl_record_label(r, "target"), "/home 41% (187/457GiB)");
    assert_double_equal(r->bw_bytes_s, 295.681 * KDM_KB, 1e-3);
    assert_null(r->note); /* the version says the unit: nothing to note */
    assert_double_equal(r->iops, 73920.4, 1e-9);
    assert_double_equal(r->lat_ns.mean, 432.45e3, 1e-6);
    assert_int_equal(r->line, 16);
    assert_int_equal(assert_bw_fits_iops(&o), 8);
    bl_out_free(&o);
}

/* The layouts of 1.5.0 and 1.5.1 are the same and name no version: the IOPS decide. */
static void test_kdiskmark_versions(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t n;
        const char *test, *cdm_test;
        double bw; /* the row's bytes/s */
        const char *note;
    } cases[] = {
        {"cdm/kdiskmark-1.5.0_handwritten_mib.txt", 8, "rand-read", "RND4K Q32T16",
         278.915 * KDM_MIB, "read as MiB/s"},
        {"cdm/kdiskmark-1.5.1_handwritten_kb.txt", 8, "rand-read", "RND4K Q32T16",
         1207.508 * KDM_KB, "read as 1,024,000 bytes/s"},
        {"cdm/kdiskmark-1.6.0_handwritten_hdd.txt", 8, "rand-write", "RND4K Q1T1", 0.592 * KDM_KB,
         NULL},
        {"cdm/kdiskmark-2.3.0_handwritten_peak_mix.txt", 6, "rand-mixed", "RND4K Q32T1",
         726.535 * KDM_KB, NULL},
        {"cdm/kdiskmark-3.1.4_handwritten_nvme.txt", 8, "seq-write", "SEQ128K Q32T1",
         2869.363 * KDM_KB, NULL},
        {"cdm/kdiskmark-3.2.0_handwritten.txt", 8, "seq-read", "SEQ1M Q8T1", 500.326 * KDM_KB,
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[256];
        bl_parse_out o;
        bl_out_init(&o, cases[i].file);
        assert_int_equal(bl_test_parse(bl_test_fixture(cases[i].file, buf, sizeof buf), NULL, &o),
                         0);
        assert_int_equal(o.recs.n, cases[i].n);
        assert_int_equal(assert_bw_fits_iops(&o), cases[i].n);
        const bl_record *r = fu_find(&o, cases[i].test, "cdm_test", cases[i].cdm_test, 0);
        assert_non_null(r);
        assert_string_equal(r->tool, "KDiskMark");
        assert_double_equal(r->bw_bytes_s, cases[i].bw, 1e-3);
        if (cases[i].note)
            assert_non_null(strstr(r->note, cases[i].note));
        else
            assert_null(r->note);
        bl_out_free(&o);
    }
}

static int parse_string(const char *text, bl_parse_out *o);

/* Before 3.3.0 KDiskMark read back part of T > 1 threads' fio jobs: said, figures kept. */
static void test_kdiskmark_threads_note(void **state)
{
    (void)state;
    static const struct {
        const char *file, *note;
    } cases[] = {
        {"cdm/kdiskmark-1.5.0_handwritten_mib.txt", "first of its threads' fio jobs only"},
        {"cdm/kdiskmark-1.6.0_handwritten_hdd.txt", "every other of its threads' fio jobs"},
        {"cdm/kdiskmark-3.1.4_handwritten_nvme.txt", "every other of its threads' fio jobs"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[256];
        bl_parse_out o;
        bl_out_init(&o, cases[i].file);
        assert_int_equal(bl_test_parse(bl_test_fixture(cases[i].file, buf, sizeof buf), NULL, &o),
                         0);
        size_t noted = 0;
        for (size_t k = 0; k < o.recs.n; k++) {
            const bl_record *r = o.recs.v[k];
            const char *n = r->note ? strstr(r->note, cases[i].note) : NULL;
            assert_true((r->numjobs > 1) == (n != NULL));
            noted += n != NULL;
        }
        assert_int_equal(noted, 2); /* RND4K Q32T16 read and write */
        const bl_record *r = fu_find(&o, "rand-read", "cdm_test", "RND4K Q32T16", 0);
        assert_double_equal(r->iops, i == 0 ? 71402.3 : i == 1 ? 402.6 : 598114.7, 1e-9);
        bl_out_free(&o);
    }
    bl_parse_out o;
    assert_int_equal(parse_string("                        KDiskMark (3.3.0): "
                                  "https://github.com/JonMagon/KDiskMark\n"
                                  "[Read]\n"
                                  "    Random   4 KiB (Q= 32, T=16):  2392.458 MB/s [ 598114.7 "
                                  "IOPS] <   855.62 us>\n",
                                  &o),
                     0);
    assert_int_equal(o.recs.n, 1);
    assert_null(o.recs.v[0]->note); /* 3.3.0 runs fio with --group_reporting */
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 2392.458 * KDM_KB, 1e-3);
    bl_out_free(&o);
}

static int parse_string(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("k.txt", text, "cdm", o);
}

/* No version and no IOPS: a 1.x export cannot say MiB/s from 1,024,000 bytes/s: no figure
 * rather than a plausible wrong one; a 3.x footer says 3.0 or later. */
static void test_kdiskmark_unit_unknown(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_string("KDiskMark: https://github.com/JonMagon/KDiskMark\n"
                                  "[Read]\n"
                                  "Sequential 1 MiB (Q= 8, T= 1):   529.800 MB/s\n"
                                  "Profile: Default\n",
                                  &o),
                     1);
    assert_int_equal(o.recs.n, 1);
    assert_false(bl_present(o.recs.v[0]->bw_bytes_s));
    assert_non_null(strstr(o.recs.v[0]->note, "unit unknown"));
    assert_int_equal(o.diags[0].line, 1);
    assert_non_null(strstr(o.diags[0].msg, "KDiskMark"));
    bl_out_free(&o);

    assert_int_equal(parse_string("[Read]\n"
                                  "Sequential   1 MiB (Q=  8, T= 1):   500.326 MB/s\n"
                                  "Profile: Default\n"
                                  "   Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]\n"
                                  " Target: /home 41% (187/457GiB)\n",
                                  &o),
                     0);
    assert_int_equal(o.recs.n, 1);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 500.326 * KDM_KB, 1e-3);
    assert_non_null(strstr(o.recs.v[0]->note, "3.0 or later"));
    bl_out_free(&o);

    /* IOPS that fit neither unit (hand-edited): not taken as a decision */
    assert_int_equal(
        parse_string("KDiskMark: https://github.com/JonMagon/KDiskMark\n"
                     "[Read]\n"
                     "Sequential 1 MiB (Q= 8, T= 1):   529.800 MB/s [    505.3 IOPS]\n",
                     &o),
        1);
    assert_false(bl_present(o.recs.v[0]->bw_bytes_s));
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_counts),
        cmocka_unit_test(test_cdm3),
        cmocka_unit_test(test_cdm6_7_8),
        cmocka_unit_test(test_kdiskmark_fio_cdm),
        cmocka_unit_test(test_fio_cdm_misread_unit),
        cmocka_unit_test(test_cdm_body_alone_and_commas),
        cmocka_unit_test(test_fixture_utf16),
        cmocka_unit_test(test_fixture_kdiskmark),
        cmocka_unit_test(test_kdiskmark_versions),
        cmocka_unit_test(test_kdiskmark_unit_unknown),
        cmocka_unit_test(test_kdiskmark_threads_note),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
