/* Exact sums (core/xsum.h) and the repeats statistics built on them (compare/stats.h): the
 * figures of a cell are the same bits whatever order its values came in and however they were
 * summed apart and merged (per run, per group: what a store that sums in SQL hands back). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/stats.h"
#include "../core/record.h"
#include "../core/xsum.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Ten repeats of 0.1 MB/s: a running double sum gives 0.9999999999999999 and a mean below
 * 0.1; the exact sum is 1 and the mean 0.1. */
static void test_mean_of_tenths(void **state)
{
    (void)state;
    bl_stat s = {0};
    double naive = 0;
    for (int i = 0; i < 10; i++) {
        bl_stat_add(&s, 0.1);
        naive += 0.1;
    }
    assert_true(naive != 1.0); /* what the exact sum is for */
    bl_stat_finish(&s, BL_REP_MEAN, 0);
    assert_int_equal(s.n, 10);
    assert_true(s.mean == 0.1);
    assert_true(s.fig == 0.1);
    assert_true(s.sd == 0);
    bl_stat_free(&s);
}

static void test_exact_sum(void **state)
{
    (void)state;
    bl_xsum x = {0};
    bl_xsum_add(&x, 1e16);
    bl_xsum_add(&x, 1.0);
    bl_xsum_add(&x, -1e16);
    assert_true(bl_xsum_value(&x) == 1.0); /* a double sum in this order gives 0 */
    bl_xsum_add(&x, 0.5);
    assert_true(bl_xsum_value(&x) == 1.5);
    bl_xsum_free(&x);
    /* a tie: 2^53 + 1 + 2^-60 is nearer 2^53 + 2 than 2^53 */
    bl_xsum_add(&x, 9007199254740992.0);
    bl_xsum_add(&x, 1.0);
    bl_xsum_add(&x, ldexp(1, -60));
    assert_true(bl_xsum_value(&x) == 9007199254740994.0);
    bl_xsum_free(&x);
}

/* 1e15 + 1, + 2, + 3 ns: the stdev is 1 ns exactly; n sum(x^2) - sum(x)^2 in doubles would
 * lose it entirely. */
static void test_stdev_far_from_zero(void **state)
{
    (void)state;
    bl_stat s = {0};
    for (int i = 1; i <= 3; i++)
        bl_stat_add(&s, 1e15 + i);
    bl_stat_add(&s, BL_ABSENT); /* not a repeat */
    bl_stat_finish(&s, BL_REP_MEAN, 1);
    assert_int_equal(s.n, 3);
    assert_true(s.mean == 1e15 + 2);
    assert_true(s.sd == 1.0);
    assert_true(s.min == 1e15 + 1 && s.max == 1e15 + 3);
    assert_true(s.ci == bl_t95(2) * 1.0 / sqrt(3.0));
    bl_stat_free(&s);
    /* 1, 2, 3, 4: 4 * 30 - 10^2 = 20 = n (n - 1) var */
    for (int i = 1; i <= 4; i++)
        bl_stat_add(&s, i);
    bl_stat_finish(&s, BL_REP_BEST, 0);
    assert_true(s.sd == sqrt(20.0 / 4 / 3));
    assert_true(s.fig == 4);
    bl_stat_free(&s);
}

static unsigned long long rng = 88172645463325252ULL;
static unsigned long long next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 20000 bandwidths (1800 MB/s +-10%, full 53-bit fractions) and latencies: summed in order,
 * and summed in random groups merged in another order, the figures are the same bits. */
static void test_merge_any_grouping(void **state)
{
    (void)state;
    enum { N = 20000 };
    double *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++)
        v[i] = (i % 2 ? 1800 : 4.6e6) * (0.9 + 0.2 * (double)(next() >> 11) / 9007199254740992.0);
    bl_stat whole = {0};
    for (int i = 0; i < N; i++)
        bl_stat_add(&whole, v[i]);
    bl_stat_finish(&whole, BL_REP_MEAN, 0);
    for (int round = 0; round < 3; round++) {
        size_t *at = malloc(N * sizeof *at); /* a permutation */
        for (size_t i = 0; i < N; i++)
            at[i] = i;
        for (size_t i = N - 1; i > 0; i--) {
            size_t k = next() % (i + 1), t = at[i];
            at[i] = at[k];
            at[k] = t;
        }
        enum { G = 37 };
        bl_stat parts[G];
        memset(parts, 0, sizeof parts);
        for (int g = 0; g < G; g++)
            parts[g].keep = round == 2; /* the last round keeps the values: the median too */
        for (size_t i = 0; i < N; i++)
            bl_stat_add(&parts[next() % G], v[at[i]]);
        bl_stat merged = {.keep = round == 2};
        for (int g = G - 1; g >= 0; g--) {
            bl_stat_merge(&merged, &parts[g]);
            bl_stat_free(&parts[g]);
        }
        bl_stat_finish(&merged, BL_REP_MEAN, 0);
        assert_int_equal(merged.n, N);
        assert_true(merged.mean == whole.mean);
        assert_true(merged.sd == whole.sd);
        assert_true(merged.ci == whole.ci);
        assert_true(merged.min == whole.min && merged.max == whole.max);
        if (round == 2) {
            qsort(v, N, sizeof *v, cmp_double);
            assert_true(merged.median == (v[N / 2 - 1] + v[N / 2]) / 2);
        }
        bl_stat_free(&merged);
        free(at);
    }
    /* the mean is the exact mean's nearest double: against long double's 64-bit sum, within
     * what that sum itself may be off */
    long double ref = 0;
    for (int i = 0; i < N; i++)
        ref += v[i];
    assert_true(fabsl(whole.mean - ref / N) <= 1e-12L * whole.mean);
    bl_stat_free(&whole);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean_of_tenths),
        cmocka_unit_test(test_exact_sum),
        cmocka_unit_test(test_stdev_far_from_zero),
        cmocka_unit_test(test_merge_any_grouping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
