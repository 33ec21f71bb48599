/* dd summaries in translated locales and dialects: fixtures made here, corpus files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "support/support.h"
#include <stdlib.h>

static const bl_record *one(const char *file, bl_parse_out *o)
{
    char buf[256];
    bl_out_init(o, file);
    assert_int_equal(bl_test_parse(bl_test_fixture(file, buf, sizeof buf), NULL, o), 0);
    assert_int_equal(o->recs.n, 1);
    return o->recs.v[0];
}

static void test_locales(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double secs;
    } cases[] = {{"dd/gnu-dd-9.1_de_DE.txt", 0.0444149},
                 {"dd/gnu-dd-9.1_fr_FR.txt", 0.0410114},
                 {"dd/gnu-dd-9.1_nl_NL.txt", 0.0471514},
                 {"dd/gnu-dd-9.1_zh_CN.txt", 0.0413086},
                 {"dd/gnu-dd-9.1_uk_UA.txt", 0.0488001}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bl_parse_out o;
        const bl_record *r = one(cases[i].file, &o);
        assert_int_equal(r->io_bytes, 2147483648LL);
        assert_double_equal(r->runtime_s, cases[i].secs, 1e-12);
        assert_true(bl_test_close(r->bw_bytes_s, 2147483648.0 / cases[i].secs, 1e-9));
        assert_int_equal(r->bs, 1048576);
        assert_string_equal(r->test, "seq-read");
        bl_out_free(&o);
    }
}

static void test_progress_and_time(void **state)
{
    (void)state;
    bl_parse_out o;
    const bl_record *r = one("dd/gnu-dd-9.1_C_status_progress.txt", &o);
    assert_int_equal(r->line, 6); /* the summary, not the progress line */
    assert_double_equal(r->runtime_s, 4.78562, 1e-12);
    assert_int_equal(r->io_bytes, 1572864000LL);
    assert_string_equal(bl_record_label(r, "dd_conv"), "fsync");
    bl_out_free(&o);
    r = one("dd/gnu-dd-9.1_C_time.txt", &o);
    assert_double_equal(r->runtime_s, 0.614518, 1e-12);
    assert_int_equal(r->bs, 4096);
    assert_string_equal(bl_record_label(r, "time_real"), "0m0.876s");
    assert_string_equal(bl_record_label(r, "time_sys"), "0m0.538s");
    bl_out_free(&o);
}

static void test_bsd_busybox(void **state)
{
    (void)state;
    char *p = bl_test_corpus("dd/bsd-dd_secs_bytes_per_sec_with_time.txt");
    if (!p)
        skip();
    bl_parse_out o;
    bl_out_init(&o, p);
    assert_int_equal(bl_test_parse(p, NULL, &o), 0);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->io_bytes, 8192000000LL);
    assert_double_equal(o.recs.v[0]->runtime_s, 159.062003, 1e-12);
    assert_true(bl_test_close(o.recs.v[0]->bw_bytes_s, 51501929, 1e-6));
    /* the command inside time sh -c "dd ... && sync" */
    assert_int_equal(o.recs.v[0]->bs, 4096);
    assert_string_equal(o.recs.v[0]->test, "seq-write");
    assert_string_equal(bl_record_label(o.recs.v[0], "time_real"), "2m41.618s");
    bl_out_free(&o);
    free(p);
    p = bl_test_corpus("dd/busybox-dd_openbmc_third_status_line.txt");
    bl_out_init(&o, p);
    assert_int_equal(bl_test_parse(p, NULL, &o), 0);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->io_bytes, 8388608);
    assert_double_equal(o.recs.v[0]->runtime_s, 10.029590, 1e-12);
    bl_out_free(&o);
    free(p);
}

static void test_auto_detect(void **state)
{
    (void)state;
    static const char *const files[] = {"dd/gnu-dd-9.1_de_DE.txt",
                                        "dd/gnu-dd-9.1_fr_FR.txt",
                                        "dd/gnu-dd-9.1_zh_CN.txt",
                                        "dd/gnu-dd-9.1_uk_UA.txt",
                                        "dd/gnu-dd-9.1_nl_NL.txt",
                                        "dd/gnu-dd-9.1_C_time.txt",
                                        "dd/gnu-dd-9.1_C_status_progress.txt",
                                        "cdm/cdm-5.2.1_handwritten_crlf.txt",
                                        "cdm/cdm-5.2.1_handwritten_utf16.txt",
                                        "cdm/kdiskmark-3.2.0_handwritten.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char buf[256], err[128];
        bl_text t;
        assert_int_equal(
            bl_text_load(&t, bl_test_fixture(files[i], buf, sizeof buf), err, sizeof err), 0);
        const bl_format *best = NULL;
        int score = 0, claimed = 0;
        for (size_t f = 0; f < bl_format_count(); f++) {
            int sc = bl_format_at(f)->probe(&t);
            claimed += sc > 0;
            if (sc > score)
                score = sc, best = bl_format_at(f);
        }
        assert_non_null(best);
        assert_string_equal(best->name, files[i][0] == 'd' ? "dd" : "cdm");
        assert_int_equal(claimed, 1);
        bl_text_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locales),
        cmocka_unit_test(test_progress_and_time),
        cmocka_unit_test(test_bsd_busybox),
        cmocka_unit_test(test_auto_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
