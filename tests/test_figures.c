/* Figures checked at the model's door (core/figures.h, issue 29): a record no device can have
 * printed (an IOPS of 1.8e308, a negative bandwidth, an infinite latency) is refused with
 * FILE:LINE and the field; the good records of the same file are kept with their figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/figures.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio 3.33's JSON layout, three jobs: one as fio prints it, one with the largest double as
 * its IOPS, one with a negative bandwidth. */
static const char absurd_json[] =
    "{\n"
    "  \"fio version\" : \"fio-3.33\",\n"
    "  \"jobs\" : [\n"
    "    {\n"
    "      \"jobname\" : \"good\", \"groupid\" : 0, \"error\" : 0,\n"
    "      \"job options\" : { \"rw\" : \"read\", \"bs\" : \"1M\" },\n"
    "      \"read\" : { \"io_bytes\" : 104857600, \"bw\" : 102400, \"iops\" : 100.0,\n"
    "        \"runtime\" : 1000 }\n"
    "    },\n"
    "    {\n"
    "      \"jobname\" : \"huge\", \"groupid\" : 0, \"error\" : 0,\n"
    "      \"job options\" : { \"rw\" : \"read\", \"bs\" : \"1M\" },\n"
    "      \"read\" : { \"io_bytes\" : 104857600, \"bw\" : 102400,\n"
    "        \"iops\" : 1.7976931348623157e308, \"runtime\" : 1000 }\n"
    "    },\n"
    "    {\n"
    "      \"jobname\" : \"neg\", \"groupid\" : 0, \"error\" : 0,\n"
    "      \"job options\" : { \"rw\" : \"read\", \"bs\" : \"1M\" },\n"
    "      \"read\" : { \"io_bytes\" : 104857600, \"bw\" : -5, \"iops\" : 5.0,\n"
    "        \"runtime\" : 1000 }\n"
    "    }\n"
    "  ]\n"
    "}\n";

static void test_fio_json_absurd(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(bl_test_parse_text("absurd.json", absurd_json, "fio-json", &o), 1);
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_string_equal(bl_record_label(r, "job"), "good");
    assert_double_equal(r->bw_bytes_s, 102400.0 * 1024, 0); /* "bw" : 102400 KiB/s */
    assert_double_equal(r->iops, 100, 0);
    assert_int_equal(o.n_diags, 2);
    assert_int_equal(o.diags[0].line, 11); /* the "jobname" line of the job */
    assert_string_equal(o.diags[0].msg, "iops 1.7976931348623157e+308 is beyond any storage "
                                        "device (at most 10^15 IO/s): record refused");
    assert_int_equal(o.diags[1].line, 17);
    assert_string_equal(o.diags[1].msg,
                        "bw_bytes_s -5120 is negative, which this quantity cannot be: record "
                        "refused");
    bl_out_free(&o);
}

/* Through the command: FILE:LINE on stderr, exit 1, the good record on stdout. */
static void test_parse_command(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/absurd.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(absurd_json, f);
    fclose(f);
    char *out, *err;
    assert_int_equal(bl_test_benchlogf(&out, &err, "parse %s", path), 1);
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_non_null(strstr(out, "\"bw_bytes_s\":104857600,\"iops\":100,"));
    char want[600];
    snprintf(want, sizeof want, "%s:11: iops 1.7976931348623157e+308 is beyond", path);
    assert_non_null(strstr(err, want));
    snprintf(want, sizeof want, "%s:17: bw_bytes_s -5120 is negative", path);
    assert_non_null(strstr(err, want));
    free(out);
    free(err);
    remove(path);
    free(dir);
}

static void test_bounds(void **state)
{
    (void)state;
    char why[256];
    bl_record *r = bl_record_new();
    r->bw_bytes_s = 7e9; /* a fast NVMe drive */
    r->iops = 1.5e6;
    r->runtime_s = 60;
    r->io_bytes = 420000000000;
    r->lat_ns.present = true;
    r->lat_ns.mean = 85000;
    bl_lat_add_pct(&r->lat_ns, 99.9, 2.5e9); /* a 2.5 s stall is a real figure */
    r->value = -12.5;                        /* a figure of a test's own unit may be negative */
    assert_int_equal(bl_figures_check(r, why, sizeof why), 0);
    r->bw_bytes_s = 1.5e15;
    assert_int_equal(bl_figures_check(r, why, sizeof why), -1);
    assert_string_equal(why, "bw_bytes_s 1500000000000000 is beyond any storage device (at "
                             "most 10^15 bytes/s)");
    r->bw_bytes_s = 7e9;
    r->lat_ns.mean = INFINITY;
    assert_int_equal(bl_figures_check(r, why, sizeof why), -1);
    assert_string_equal(why, "lat_ns.mean infinite is no figure");
    r->lat_ns.mean = 85000;
    r->lat_ns.pct[0].value = -1;
    assert_int_equal(bl_figures_check(r, why, sizeof why), -1);
    assert_string_equal(why, "lat_ns.p -1 is negative, which this quantity cannot be");
    r->lat_ns.pct[0].value = 2.5e9;
    r->size_bytes = -7;
    assert_int_equal(bl_figures_check(r, why, sizeof why), -1);
    assert_string_equal(why, "size_bytes -7 is negative, which this quantity cannot be");
    r->size_bytes = -1; /* absent */
    r->runtime_s = -0.5;
    assert_int_equal(bl_figures_check(r, why, sizeof why), -1);
    r->runtime_s = BL_ABSENT;
    assert_int_equal(bl_figures_check(r, why, sizeof why), 0);
    bl_record_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_json_absurd),
        cmocka_unit_test(test_parse_command),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
