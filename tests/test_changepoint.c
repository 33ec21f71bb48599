/* E-Divisive with means (compare/changepoint.h) on series whose changes are known: steps found
 * where they are, noise alone finds none, the sense follows the metric, results repeat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/changepoint.h"
#include "../core/when.h"
#include "support/support.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Normal noise from a fixed seed (splitmix64, Box-Muller): the same series every run. */
static uint64_t rng_state;
static double uniform01(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}
static double normal(double mean, double sd)
{
    return mean + sd * sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

static const bl_cp_opts defaults = {0};

static void one_step_found_at_its_index(void **state)
{
    (void)state;
    rng_state = 7;
    double x[40];
    for (int i = 0; i < 40; i++) /* 500 MB/s, then 400 MB/s from point 25; 2% noise */
        x[i] = normal(i < 25 ? 500e6 : 400e6, 10e6);
    bl_cp_result r;
    bl_changepoints(x, 40, &defaults, 0, &r);
    assert_int_equal(r.too_short, 0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.v[0].at, 25);
    assert_true(r.v[0].p <= 0.01);
    assert_true(fabs(r.v[0].before - bl_cp_mean(x, 0, 25)) < 1e-6);
    assert_true(fabs(r.v[0].after - bl_cp_mean(x, 25, 40)) < 1e-6);
    assert_true(r.v[0].pct < -17 && r.v[0].pct > -23); /* -20% */
    assert_int_equal(r.v[0].regression, 1);            /* throughput down */
    bl_cp_result_free(&r);
}

static void two_steps_found(void **state)
{
    (void)state;
    rng_state = 11;
    double x[60];
    for (int i = 0; i < 60; i++)
        x[i] = normal(i < 20 ? 100 : i < 45 ? 130 : 90, 3);
    bl_cp_result r;
    bl_changepoints(x, 60, &defaults, 0, &r);
    assert_int_equal(r.n, 2);
    assert_int_equal(r.v[0].at, 20);
    assert_int_equal(r.v[1].at, 45);
    assert_int_equal(r.v[0].regression, 0); /* up: better */
    assert_int_equal(r.v[1].regression, 1);
    assert_true(r.v[0].pct > 25 && r.v[0].pct < 35);
    bl_cp_result_free(&r);
}

static void noise_alone_finds_nothing(void **state)
{
    (void)state;
    /* flat series of several lengths and spreads, each from its own fixed seed */
    static const size_t lens[] = {6, 10, 40, 100, 300};
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            rng_state = 1000 * k + seed;
            double *x = calloc(lens[k], sizeof *x);
            for (size_t i = 0; i < lens[k]; i++)
                x[i] = normal(250e6, 25e6);
            bl_cp_result r;
            bl_changepoints(x, lens[k], &defaults, 0, &r);
            if (r.n)
                print_error("len %zu seed %llu: change at %zu p=%g\n", lens[k],
                            (unsigned long long)seed, r.v[0].at, r.v[0].p);
            assert_int_equal(r.n, 0);
            assert_int_equal(r.too_short, 0);
            bl_cp_result_free(&r);
            free(x);
        }
}

static void latency_up_is_a_regression(void **state)
{
    (void)state;
    rng_state = 3;
    double up[30], down[30];
    for (int i = 0; i < 30; i++) {
        up[i] = normal(i < 15 ? 200e3 : 260e3, 5e3); /* ns */
        down[i] = normal(i < 15 ? 260e3 : 200e3, 5e3);
    }
    bl_cp_result r;
    bl_changepoints(up, 30, &defaults, 1, &r);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.v[0].at, 15);
    assert_int_equal(r.v[0].regression, 1);
    assert_true(r.v[0].pct > 25 && r.v[0].pct < 35);
    bl_cp_result_free(&r);
    bl_changepoints(down, 30, &defaults, 1, &r);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.v[0].regression, 0);
    bl_cp_result_free(&r);
}

static void short_series_say_so(void **state)
{
    (void)state;
    double x[5] = {1, 1, 1, 9, 9};
    bl_cp_result r;
    bl_changepoints(x, 5, &defaults, 0, &r); /* fewer than 2 x 3 */
    assert_int_equal(r.too_short, 1);
    assert_int_equal(r.n, 0);
    bl_cp_result_free(&r);
    bl_cp_opts two = {.min_seg = 2};
    double y[4] = {1, 1, 9, 9};
    bl_changepoints(y, 4, &two, 0, &r); /* splits there, but 4 points cannot reach p <= 0.01 */
    assert_int_equal(r.too_short, 0);
    assert_int_equal(r.n, 0);
    bl_cp_result_free(&r);
}

static void alpha_and_seed_repeat(void **state)
{
    (void)state;
    rng_state = 5;
    double x[24];
    for (int i = 0; i < 24; i++) /* a small step: significant at 0.05, not below */
        x[i] = normal(i < 12 ? 100 : 103, 3);
    bl_cp_opts o = {.alpha = 0.05, .seed = 42};
    bl_cp_result a, b;
    bl_changepoints(x, 24, &o, 0, &a);
    bl_changepoints(x, 24, &o, 0, &b);
    assert_int_equal(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        assert_int_equal(a.v[i].at, b.v[i].at);
        assert_true(a.v[i].p == b.v[i].p);
    }
    o.alpha = 0.001;
    bl_cp_result c;
    bl_changepoints(x, 24, &o, 0, &c);
    assert_int_equal(c.n_perm, 1999);
    assert_true(c.n <= a.n);
    bl_cp_result_free(&a);
    bl_cp_result_free(&b);
    bl_cp_result_free(&c);
}

static void times_read(void **state)
{
    (void)state;
    time_t t;
    char buf[BL_WHEN_LEN];
    assert_int_equal(bl_when_parse("2026-12-02T12:28:07Z", &t), 0);
    assert_int_equal((long long)t, 1796214487LL);
    assert_int_equal(bl_when_parse("2026-12-02 13:28:07+01:00", &t), 0);
    assert_int_equal((long long)t, 1796214487LL);
    assert_int_equal(bl_when_parse("@1680135576", &t), 0);
    bl_when_format(t, buf);
    assert_string_equal(buf, "2023-03-30T00:19:36Z");
    setenv("TZ", "Europe/Berlin", 1);
    tzset();
    /* fio's JSON "time" beside its "timestamp" 1680135576: local time of a UTC+2 machine */
    assert_int_equal(bl_when_parse("Thu Mar 30 02:19:36 2023", &t), 0);
    assert_int_equal((long long)t, 1680135576LL);
    assert_int_equal(bl_when_parse("2023/03/30 2:19:36", &t), 0);
    assert_int_equal((long long)t, 1680135576LL);
    setenv("TZ", "UTC", 1);
    tzset();
    assert_int_equal(bl_when_parse("2026-12-02", &t), 0);
    assert_int_equal((long long)t, 1796169600LL);
    assert_int_equal(bl_when_parse("yesterday", &t), -1);
    assert_int_equal(bl_when_parse("2026-13-02", &t), -1);
    assert_int_equal(bl_when_parse("2026-12-02T12:28:07Q", &t), -1);
    assert_int_equal(bl_when_parse("Wed Dex  2 12:28:07 2026", &t), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_step_found_at_its_index),
        cmocka_unit_test(two_steps_found),
        cmocka_unit_test(noise_alone_finds_nothing),
        cmocka_unit_test(latency_up_is_a_regression),
        cmocka_unit_test(short_series_say_so),
        cmocka_unit_test(alpha_and_seed_repeat),
        cmocka_unit_test(times_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
