/* Percentiles from bins by fio's rule, and merging bins across hosts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/latency.h"
#include "support/support.h"
#include <math.h>
#include <stdlib.h>

static void test_percentiles(void **state)
{
    (void)state;
    /* 100 I/Os: 50 at 1000 ns, 40 at 2000, 9 at 5000, 1 at 100000. */
    bl_bin bins[] = {{1000, 50}, {2000, 40}, {5000, 9}, {100000, 1}};
    double pcts[] = {1, 50, 50.5, 90, 99, 99.5, 100};
    double out[7];
    bl_bins_percentiles(bins, 4, pcts, 7, out);
    assert_double_equal(out[0], 1000, 0);
    assert_double_equal(out[1], 1000, 0); /* 50 reach 50% */
    assert_double_equal(out[2], 2000, 0);
    assert_double_equal(out[3], 2000, 0); /* 90 reach 90% */
    assert_double_equal(out[4], 5000, 0); /* 99 reach 99% */
    assert_double_equal(out[5], 100000, 0);
    assert_double_equal(out[6], 100000, 0);
    bl_bins_percentiles(bins, 0, pcts, 1, out);
    assert_true(isnan(out[0]));
}

/* Two hosts: one fast, one slow. The cluster p50 is the merged histogram's, not the mean of
 * the two p50s (which would be 5500 ns, a latency no I/O had). */
static void test_merge_hosts(void **state)
{
    (void)state;
    bl_lat a = {0}, b = {0}, all = {0};
    bl_lat_add_bin(&a, 1000, 900);
    bl_lat_add_bin(&a, 2000, 100);
    bl_lat_add_bin(&b, 2000, 50);
    bl_lat_add_bin(&b, 10000, 50);
    bl_lat_merge_bins(&all, &a);
    bl_lat_merge_bins(&all, &b);
    assert_int_equal(all.n_bins, 3);
    assert_int_equal(all.bins[1].count, 150);
    assert_int_equal(bl_lat_bin_total(&all), 1100);
    bl_lat_percentiles_from_bins(&all);
    assert_int_equal(all.n_pct, 17);
    assert_double_equal(all.pct[6].pct, 50, 0);
    assert_double_equal(all.pct[6].value, 1000, 0);
    assert_double_equal(all.pct[12].pct, 99, 0);
    assert_double_equal(all.pct[12].value, 10000, 0);
    free(a.bins);
    free(b.bins);
    free(all.bins);
    free(all.pct);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percentiles),
        cmocka_unit_test(test_merge_hosts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
