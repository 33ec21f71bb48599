/* hdparm -t/-T/--direct timings: real hdparm 9.65 fixtures, the older wording by hand, and
 * the wrong figure of issue 17 (an hdparm line read by dd as 440 bytes); shell prompt lines
 * above the output are no section labels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/driver.h"
#include "../parsers/sections.h"
#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>

#define MIB 1048576.0

static void parse_fixture(const char *file, bl_parse_out *o, int want_rc)
{
    char buf[256];
    bl_out_init(o, file);
    assert_int_equal(bl_test_parse(bl_test_fixture(file, buf, sizeof buf), NULL, o), want_rc);
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

static void assert_timing(const bl_record *r, double mb, double secs, double rate_mbs,
                          const char *test, int direct)
{
    assert_non_null(r);
    assert_string_equal(r->tool, "hdparm");
    assert_string_equal(r->test, test);
    assert_string_equal(r->op, "read");
    assert_int_equal(r->io_bytes, (int64_t)(mb * MIB));
    assert_double_equal(r->runtime_s, secs, 1e-12);
    assert_double_equal(r->bw_bytes_s, rate_mbs * MIB, 1e-3);
    assert_int_equal(r->direct, direct);
}

/* The case: the hdparm line beside a bonnie++ table is hdparm's, not a dd record. */
static void test_not_dd(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("hdparm/hdparm-9.x_handwritten_beside_bonnie.txt", &o, 0);
    assert_int_equal(fu_count(&o, "dd", NULL, NULL), 0);
    assert_int_equal(fu_count(&o, "hdparm", NULL, NULL), 1);
    const bl_record *r = fu_find(&o, "seq-read", "device", "/dev/md0", 0);
    assert_timing(r, 440, 3.01, 146.42, "seq-read", BL_FALSE);
    assert_double_equal(r->bw_bytes_s, 153532497.92, 1e-3);
    assert_true(fu_count(&o, "bonnie++", NULL, NULL) > 0);
    bl_out_free(&o);
    /* The bare line as dd would have seen it: dd claims nothing. */
    char err[128];
    bl_text t;
    const char *line = " Timing buffered disk reads: 440 MB in  3.01 seconds = 146.42 MB/sec\n";
    assert_int_equal(bl_text_from_bytes(&t, "x", line, strlen(line), err, sizeof err), 0);
    assert_int_equal(bl_format_find("dd")->probe(&t), 0);
    assert_true(bl_format_find("hdparm")->probe(&t) > 0);
    bl_text_free(&t);
}

static void test_real_t_x3(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("hdparm/hdparm-9.65_t_x3.txt", &o, 0);
    assert_int_equal(o.recs.n, 3);
    assert_int_equal(fu_runs(&o, "hdparm"), 3);
    assert_timing(o.recs.v[0], 616, 3.02, 203.67, "seq-read", BL_FALSE);
    assert_timing(o.recs.v[1], 1106, 3.00, 368.11, "seq-read", BL_FALSE);
    assert_timing(o.recs.v[2], 1418, 3.00, 472.43, "seq-read", BL_FALSE);
    assert_string_equal(bl_record_label(o.recs.v[2], "device"), "/dev/loop1");
    assert_int_equal(o.recs.v[2]->line, 12);
    bl_out_free(&o);
}

static void test_real_tT_direct_offset(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("hdparm/hdparm-9.65_tT.txt", &o, 0);
    assert_int_equal(o.recs.n, 2);
    assert_int_equal(o.recs.v[0]->run, o.recs.v[1]->run);
    assert_timing(o.recs.v[0], 39064, 1.99, 19630.32, "cached-read", BL_FALSE);
    assert_timing(o.recs.v[1], 1266, 3.00, 421.83, "seq-read", BL_FALSE);
    bl_out_free(&o);

    parse_fixture("hdparm/hdparm-9.65_tT_direct.txt", &o, 0);
    assert_int_equal(o.recs.n, 2);
    assert_timing(o.recs.v[0], 14986, 2.00, 7510.91, "cached-read", BL_TRUE);
    assert_timing(o.recs.v[1], 2186, 3.01, 725.28, "seq-read", BL_TRUE);
    assert_string_equal(bl_record_label(o.recs.v[1], "hdparm_timing"), "O_DIRECT disk");
    bl_out_free(&o);

    parse_fixture("hdparm/hdparm-9.65_t_offset.txt", &o, 0);
    assert_int_equal(o.recs.n, 1);
    assert_timing(o.recs.v[0], 776, 3.02, 256.92, "seq-read", BL_FALSE);
    assert_string_equal(bl_record_label(o.recs.v[0], "offset"), "2 GB");
    bl_out_free(&o);
}

/* stderr warnings between the label and its figures (hdparm run on a plain file). */
static void test_real_split_by_warnings(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("hdparm/hdparm-9.65_file_blkflsbuf.txt", &o, 0);
    assert_int_equal(o.recs.n, 2);
    assert_timing(o.recs.v[0], 24784, 1.84, 13462.37, "cached-read", BL_FALSE);
    assert_int_equal(o.recs.v[0]->line, 6);
    assert_timing(o.recs.v[1], 4186, 3.02, 1387.73, "seq-read", BL_FALSE);
    assert_int_equal(o.recs.v[1]->line, 8);
    bl_out_free(&o);
}

static void test_old_wording_kb_suspicious(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_fixture("hdparm/hdparm-6.x_handwritten_old_wording.txt", &o, 0);
    assert_int_equal(o.recs.n, 5);
    assert_int_equal(fu_runs(&o, "hdparm"), 3);
    assert_timing(o.recs.v[0], 128, 1.49, 85.91, "cached-read", BL_FALSE);
    assert_string_equal(bl_record_label(o.recs.v[0], "hdparm_timing"), "buffer-cache");
    assert_timing(o.recs.v[1], 64, 5.93, 10.79, "seq-read", BL_FALSE);
    /* "581.82 kB/sec": hdparm's kB is 1024 bytes. */
    const bl_record *r = o.recs.v[2];
    assert_int_equal(r->io_bytes, 2 * 1048576);
    assert_double_equal(r->bw_bytes_s, 581.82 * 1024, 1e-6);
    assert_string_equal(bl_record_label(r, "device"), "/dev/sdc");
    assert_null(o.recs.v[1]->note);
    assert_non_null(o.recs.v[3]->note);
    assert_non_null(strstr(o.recs.v[4]->note, "suspicious"));
    bl_out_free(&o);
}

/* Figures that contradict each other are refused with FILE:LINE; the good one is kept. */
static void test_refuse_disagreeing(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_string("/dev/sda:\n"
                 " Timing cached reads:   15596 MB in  2.00 seconds = 7805.35 MB/sec\n"
                 " Timing buffered disk reads: 362 MB in  3.01 seconds = 12.33 MB/sec\n",
                 &o);
    assert_int_equal(o.recs.n, 1);
    assert_timing(o.recs.v[0], 15596, 2.00, 7805.35, "cached-read", BL_FALSE);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 3);
    assert_non_null(strstr(o.diags[0].msg, "disagree"));
    bl_out_free(&o);
}

/* A mail archive's quoted-printable "=3D" for "=", as in list posts of hdparm 5.x output. */
/* A shell prompt line above the output is no section label: the heading above it is, or none
 * (issue 17: "root:/home/x# hdparm -Tt" became the section). */
static void test_prompt_is_no_section(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_string("My disks\n\nroot:/home/x# hdparm -Tt /dev/sda\n\n/dev/sda:\n"
                 " Timing cached reads:   19334 MB in  1.99 seconds = 9712.71 MB/sec\n"
                 " Timing buffered disk reads: 440 MB in  3.01 seconds = 146.42 MB/sec\n",
                 &o);
    assert_int_equal(o.recs.n, 2);
    for (size_t i = 0; i < o.recs.n; i++) {
        assert_string_equal(bl_record_label(o.recs.v[i], "section"), "My disks");
        assert_string_equal(bl_record_label(o.recs.v[i], "device"), "/dev/sda");
    }
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 146.42 * MIB, 0.005 * MIB);
    bl_out_free(&o);
}

/* bl_heading_above over the prompts of bash, zsh, busybox, PowerShell and cmd, and over
 * headings that only look a little like them. */
static void test_prompt_forms(void **state)
{
    (void)state;
    static const struct {
        const char *line, *want; /* want NULL: no heading (a prompt) */
    } cases[] = {
        {"root:/home/x# hdparm -Tt /dev/sda", NULL},
        {"me@nas:~$ sudo hdparm -t /dev/sdb", NULL},
        {"me@mac ~ % fio job.fio", NULL},
        {"bash-5.1# dd if=/dev/zero of=x bs=1M count=100", NULL},
        {"PS C:\\tmp> .\\diskspd.exe -b4K -d10 x.dat", NULL},
        {"C:\\Users\\me>diskspd -c1G x.dat", NULL},
        {"~$ hdparm -T /dev/sda", NULL},
        {"timespan:   1", NULL}, /* DiskSpd's field, underlined by its own rule */
        {"Test 2: RAID 5", "Test 2: RAID 5"},
        {"Command Line: diskspd.exe -c1G -d10 -r -w30 x.dat", NULL},
        {"C# and F# builds", "C# and F# builds"},
        {"RAID 1/0 > RAID 5", "RAID 1/0 > RAID 5"},
        {"50% full disk", "50% full disk"},
        {"Samsung 970 EVO", "Samsung 970 EVO"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256], err[128];
        snprintf(text, sizeof text, "\n%s\n\nresult\n", cases[i].line);
        bl_text t;
        assert_int_equal(bl_text_from_bytes(&t, "p.txt", text, strlen(text), err, sizeof err), 0);
        char *h = bl_heading_above(&t, 4, 1);
        if (cases[i].want) {
            assert_non_null(h);
            assert_string_equal(h, cases[i].want);
        } else if (h) {
            fail_msg("prompt line '%s' taken as heading '%s'", cases[i].line, h);
        }
        free(h);
        bl_text_free(&t);
    }
}

static void test_quoted_printable(void **state)
{
    (void)state;
    bl_parse_out o;
    parse_string("/dev/hda:\n"
                 " Timing buffer-cache reads:   128 MB in  0.31 seconds =3D417.00 MB/sec\n"
                 " Timing buffered disk reads:  64 MB in  3.24 seconds =3D 19.73 MB/sec\n",
                 &o);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 2);
    assert_timing(o.recs.v[0], 128, 0.31, 417.00, "cached-read", BL_FALSE);
    assert_timing(o.recs.v[1], 64, 3.24, 19.73, "seq-read", BL_FALSE);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_dd),
        cmocka_unit_test(test_real_t_x3),
        cmocka_unit_test(test_real_tT_direct_offset),
        cmocka_unit_test(test_real_split_by_warnings),
        cmocka_unit_test(test_old_wording_kb_suspicious),
        cmocka_unit_test(test_refuse_disagreeing),
        cmocka_unit_test(test_quoted_printable),
        cmocka_unit_test(test_prompt_is_no_section),
        cmocka_unit_test(test_prompt_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
