/* `benchlog show` in the units people read (cli/show_units.c): each figure it prints, read
 * back and converted to the model's unit, is the record's raw value (`show --json`) to the
 * digits printed; sizes that are not whole KiB/MiB keep their bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALM "fixtures/fio/calm-3.33.json" /* fio 3.33 JSON: rand-read 4k, seq-write 1M */

typedef struct fixture {
    char *dir;
    char *show, *json; /* of the run's text and --json outputs */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = bl_test_tmpdir();
    char *out = NULL;
    if (bl_test_benchlogf(&out, NULL, "--db %s/s.db import --json %s", f->dir, CALM) != 0)
        return -1;
    json_t *o = json_loads(out, JSON_DISABLE_EOF_CHECK, NULL);
    free(out);
    if (!o)
        return -1;
    char id[16];
    snprintf(id, sizeof id, "%s", json_string_value(json_array_get(json_object_get(o, "runs"), 0)));
    json_decref(o);
    if (bl_test_benchlogf(&f->show, NULL, "--db %s/s.db show %s", f->dir, id) != 0 ||
        bl_test_benchlogf(&f->json, NULL, "--db %s/s.db show --json %s", f->dir, id) != 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    int rc = system(cmd);
    free(f->show);
    free(f->json);
    free(f->dir);
    free(f);
    return rc;
}

/* The text after "  NAME   " on the first line of the first record that has it. */
static const char *value_of(const char *show, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\n  %s ", name);
    const char *p = strstr(show, key);
    assert_non_null(p);
    p += strlen(key);
    while (*p == ' ')
        p++;
    return p;
}

/* "52.67 MB/s" -> 52673000 (bytes/s); "518.1 µs" -> 518100 (ns); "64MiB" -> 67108864. */
static double in_model_units(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{" MB/s", 1e6}, {" IOPS", 1},  {" ns", 1},         {" µs", 1e3}, {" ms", 1e6},
                 {" s", 1e9},    {"KiB", 1024}, {"MiB", 1048576.0}, {"%", 1}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strncmp(end, units[i].unit, strlen(units[i].unit)) == 0)
            return v * units[i].scale;
    fail_msg("no unit after '%.20s'", text);
    return 0;
}

static double raw(const fixture *f, const char *key, const char *sub)
{
    json_t *o = json_loads(f->json, JSON_DISABLE_EOF_CHECK, NULL); /* the first record */
    assert_non_null(o);
    json_t *v = json_object_get(o, key);
    if (sub)
        v = json_object_get(v, sub);
    if (sub && !v)
        v = json_object_get(json_object_get(json_object_get(o, key), "p"), sub);
    assert_non_null(v);
    double d = json_number_value(v);
    json_decref(o);
    return d;
}

static void test_figures_are_the_raw_values(void **state)
{
    fixture *f = *state;
    /* the raw record under --json: fio's own figures */
    assert_int_equal(bl_test_count_lines(f->json), 2);
    assert_double_equal(raw(f, "bw_bytes_s", NULL), 52673386, 0);
    assert_double_equal(raw(f, "clat_ns", "99"), 518144, 0);
    /* the ones the issue names: 73.70 MB/s style, 518 µs style */
    assert_true(strncmp(value_of(f->show, "bw"), "52.67 MB/s\n", 11) == 0);
    assert_true(strncmp(value_of(f->show, "iops"), "12860 IOPS\n", 11) == 0);
    assert_true(strncmp(value_of(f->show, "bs"), "4KiB\n", 5) == 0);
    assert_true(strncmp(value_of(f->show, "size"), "64MiB\n", 6) == 0);
    /* 158072832 bytes is 150.75 MiB: the bytes are kept beside it */
    assert_true(strncmp(value_of(f->show, "io"), "150.8MiB (158072832 bytes)\n", 27) == 0);
    assert_true(strncmp(value_of(f->show, "runtime"), "3.00 s\n", 7) == 0);
    /* each printed figure is the raw value to its printed precision (3-4 digits) */
    assert_true(
        bl_test_close(in_model_units(value_of(f->show, "bw")), raw(f, "bw_bytes_s", NULL), 5e-4));
    assert_true(
        bl_test_close(in_model_units(value_of(f->show, "iops")), raw(f, "iops", NULL), 5e-4));
    assert_true(bl_test_close(in_model_units(value_of(f->show, "runtime")),
                              raw(f, "runtime_s", NULL) * 1e9, 5e-3));
    assert_true(bl_test_close(in_model_units(value_of(f->show, "cpu_sys")),
                              raw(f, "cpu_sys_pct", NULL), 5e-4));
    /* latency: mean, min, max, stdev on one line, percentiles in a row */
    const char *clat = value_of(f->show, "clat");
    assert_true(strncmp(clat, "mean 76.92 µs, min 37.26 µs, max 3.79 ms, stdev 91.88 µs\n",
                        strlen("mean 76.92 µs, min 37.26 µs, max 3.79 ms, stdev 91.88 µs\n")) == 0);
    assert_true(bl_test_close(in_model_units(clat + 5), raw(f, "clat_ns", "mean"), 5e-4));
    const char *pct = value_of(f->show, "clat percentiles");
    const char *eol = strchr(pct, '\n');
    static const char *const ps[] = {"1", "50", "99", "99.9", "99.99"};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        char key[16];
        snprintf(key, sizeof key, "p%s ", ps[i]);
        const char *at = strstr(pct, key);
        assert_true(at && at < eol); /* on the one row */
        assert_true(
            bl_test_close(in_model_units(at + strlen(key)), raw(f, "clat_ns", ps[i]), 5e-3));
    }
    assert_non_null(strstr(pct, "p99 518.1 µs  p99.5 684.0 µs"));
    /* samples in the same units */
    assert_non_null(strstr(f->show, "  bw_samples             mean 51.72 MB/s, min 20.38 MB/s, "
                                    "max 70.96 MB/s, stdev 23.96 MB/s, 5 samples\n"));
    /* fio's latency buckets in a row */
    assert_non_null(strstr(f->show, "  lat_dist               ≤50.00 µs 22.36%  ≤100.0 µs 69.68%"));
    /* no raw figure left in the text */
    assert_null(strstr(f->show, "52673386"));
    assert_null(strstr(f->show, "518144"));
    assert_null(strstr(f->show, "bw_bytes_s"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figures_are_the_raw_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
