/* The runner's statistics against fio's: bucket index math, percentiles from a real fio
 * JSON+ output, exact mean/stdev, 500 ms samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../runner/progress.h"
#include "../runner/stats.h"
#include "support/support.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_index_math(void **state)
{
    (void)state;
    /* Up to 127 every value is its own bucket (msb <= FIO_IO_U_PLAT_BITS). */
    assert_int_equal(bl_plat_val_to_idx(0), 0);
    assert_int_equal(bl_plat_val_to_idx(63), 63);
    assert_int_equal(bl_plat_val_to_idx(64), 64);
    assert_int_equal(bl_plat_val_to_idx(127), 127);
    /* 128..255: one error bit, buckets of 2. */
    assert_int_equal(bl_plat_val_to_idx(128), 128);
    assert_int_equal(bl_plat_val_to_idx(129), 128);
    assert_int_equal(bl_plat_val_to_idx(255), 191);
    assert_int_equal(bl_plat_val_to_idx(256), 192);
    /* 1000 ns: msb 9, 3 error bits, base 256, offset (1000>>3)&63 = 61. */
    assert_int_equal(bl_plat_val_to_idx(1000), 317);
    assert_int_equal(bl_plat_idx_to_val(317), 1004); /* middle of [1000, 1007] */
    /* 1 ms: msb 19, 13 error bits, base 14*64 = 896, offset 122&63 = 58. */
    assert_int_equal(bl_plat_val_to_idx(1000000), 954);
    assert_int_equal(bl_plat_idx_to_val(954), 524288 + 58 * 8192 + 4096);
    /* Beyond 2^34 everything lands in the last bucket, as in fio. */
    assert_int_equal(bl_plat_val_to_idx(UINT64_MAX), BL_PLAT_NR - 1);
    assert_int_equal(BL_PLAT_NR, 1856);
    /* Every bucket's value maps back to the bucket. */
    for (unsigned i = 0; i < BL_PLAT_NR; i++)
        assert_int_equal(bl_plat_val_to_idx(bl_plat_idx_to_val(i)), i);
}

static void test_exact_moments_and_percentiles(void **state)
{
    (void)state;
    bl_lat_acc *a = calloc(1, sizeof *a);
    for (uint64_t v = 1; v <= 1000; v++)
        bl_lat_acc_add(a, v);
    bl_lat l = {0};
    bl_lat_acc_to_record(a, &l);
    assert_true(l.present);
    assert_double_equal(l.min, 1, 0);
    assert_double_equal(l.max, 1000, 0);
    assert_double_equal(l.mean, 500.5, 1e-9);
    assert_double_equal(l.stdev, sqrt(1000.0 * 1001.0 / 12.0), 1e-9);
    /* p50: bucket [500, 503] is the first whose running count (503) reaches 500. */
    assert_int_equal(bl_lat_acc_percentile(a, 50), 502);
    assert_int_equal(l.n_pct, bl_fio_default_npcts);
    assert_double_equal(l.pct[6].pct, 50, 0);
    assert_double_equal(l.pct[6].value, 502, 0);
    assert_double_equal(l.pct[16].pct, 99.99, 0);
    /* Bins hold every sample once. */
    uint64_t total = 0;
    for (size_t i = 0; i < l.n_bins; i++)
        total += l.bins[i].count;
    assert_int_equal(total, 1000);
    free(l.pct);
    free(l.bins);
    free(a);
}

/* fio 3.33 JSON+ (fixtures/runner): loading its bins into our histogram must give back
 * exactly the percentiles fio printed, and every bin value must be a bucket value. */
static void test_matches_fio_jsonplus(void **state)
{
    (void)state;
    char path[256];
    json_error_t jerr;
    json_t *root = json_load_file(
        bl_test_fixture("runner/fio-3.33-jsonplus-randread.json", path, sizeof path), 0, &jerr);
    assert_non_null(root);
    json_t *clat = json_object_get(
        json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "read"), "clat_ns");
    assert_non_null(clat);
    bl_lat_acc *a = calloc(1, sizeof *a);
    const char *key;
    json_t *val;
    json_object_foreach(json_object_get(clat, "bins"), key, val)
    {
        uint64_t v = strtoull(key, NULL, 10);
        unsigned idx = bl_plat_val_to_idx(v);
        assert_int_equal(bl_plat_idx_to_val(idx), v);
        a->plat[idx] += (uint64_t)json_integer_value(val);
        a->n += (uint64_t)json_integer_value(val);
    }
    assert_int_equal(a->n, json_integer_value(json_object_get(clat, "N")));
    size_t checked = 0;
    json_object_foreach(json_object_get(clat, "percentile"), key, val)
    {
        double p = strtod(key, NULL);
        assert_int_equal(bl_lat_acc_percentile(a, p), json_integer_value(val));
        checked++;
    }
    assert_int_equal(checked, 17);
    free(a);
    json_decref(root);
}

static void test_merge(void **state)
{
    (void)state;
    bl_lat_acc *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    bl_lat_acc_add(a, 100);
    bl_lat_acc_add(a, 300);
    bl_lat_acc_add(b, 50);
    bl_lat_acc_add(b, 5000);
    bl_lat_acc_merge(a, b);
    assert_int_equal(a->n, 4);
    assert_int_equal(a->min, 50);
    assert_int_equal(a->max, 5000);
    assert_int_equal(a->sum, 5450);
    free(a);
    free(b);
}

static void test_samples(void **state)
{
    (void)state;
    double v[] = {100e6, 200e6, 300e6, 400e6};
    bl_samples s = {0};
    bl_samples_from(v, 4, &s);
    assert_true(s.present);
    assert_double_equal(s.min, 100e6, 0);
    assert_double_equal(s.max, 400e6, 0);
    assert_double_equal(s.mean, 250e6, 1e-3);
    assert_double_equal(s.stdev, sqrt(5.0 / 3.0) * 100e6, 1);
    assert_int_equal(s.count, 4);
}

/* The progress line: test, % done, MB/s (10^6, as CrystalDiskMark), IOPS, time left. */
static void test_progress_line(void **state)
{
    (void)state;
    char line[160];
    bl_progress_format(line, sizeof line, "RND4K Q32T1 read [2/5]", 42.4, 123.45e6, 30140, 75);
    assert_non_null(strstr(line, "RND4K Q32T1 read [2/5]"));
    assert_non_null(strstr(line, " 42%"));
    assert_non_null(strstr(line, "123.5 MB/s"));
    assert_non_null(strstr(line, "30140 IOPS"));
    assert_non_null(strstr(line, "1:15 left"));
    assert_null(strchr(line, '\r'));
    /* Off a terminal nothing at all is written. */
    FILE *f = tmpfile();
    assert_false(bl_progress_enabled(f));
    bl_progress_show(f, "x", 50, 1, 1, 1);
    bl_progress_clear(f);
    assert_int_equal(ftell(f), 0);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_math),
        cmocka_unit_test(test_exact_moments_and_percentiles),
        cmocka_unit_test(test_matches_fio_jsonplus),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_progress_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
