/* E-Divisive with means (compare/changepoint.h) on series whose changes are known: steps found
 * where they are, noise alone finds none, the sense follows the metric, results repeat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/changepoint.h"
#include "../compare/history.h"
#include "../compare/stats.h"
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

/* The quantiles of Student's t the check's bound takes, against the tables (and bl_t95's). */
static void t_quantiles(void **state)
{
    (void)state;
    assert_true(fabs(bl_t_upper(0.01, 10) - 2.7638) < 1e-4);
    assert_true(fabs(bl_t_upper(0.005, 1) - 63.6567) < 1e-4);
    assert_true(fabs(bl_t_upper(0.05, 30) - 1.6973) < 1e-4);
    assert_true(fabs(bl_t_upper(0.001, 5) - 5.8934) < 1e-4);
    assert_true(fabs(bl_t_upper(0.99, 10) + 2.7638) < 1e-4); /* symmetric */
    for (size_t df = 1; df <= 30; df++)
        assert_true(fabs(bl_t_upper(0.025, df) - bl_t95(df)) < 1e-4);
    assert_true(isnan(bl_t_upper(0.01, 0)));
    assert_true(isnan(bl_t_upper(1, 5)));
}

/* How often `check --last 1` calls flat noise a regression: nseries set-ups of npoints runs a
 * day apart, each figure 200 MB/s times log-normal noise (sd 5% on the log), through the
 * history builder, its change-point search and the check, as the command runs them. */
static size_t false_alarms(size_t nseries, size_t npoints, const bl_cp_opts *cp, double alpha)
{
    bl_hist_builder *b = bl_history_begin(&(bl_hist_opts){.cp = *cp});
    for (size_t s = 0; s < nseries; s++)
        for (size_t i = 0; i < npoints; i++) {
            bl_record *r = bl_record_new();
            char host[32];
            snprintf(host, sizeof host, "h%zu", s);
            bl_record_set_str(&r->tool, "dd");
            bl_record_set_str(&r->test, "seq-copy");
            bl_record_set_label(r, "host", host);
            r->bw_bytes_s = 200e6 * exp(normal(0, 0.05));
            bl_when_set(r, 1796169600 + (time_t)i * 86400, "given");
            bl_history_add(b, r);
            bl_record_free(r);
        }
    bl_history *h = bl_history_end(b);
    assert_int_equal(h->n, nseries);
    size_t n = 0;
    for (size_t i = 0; i < h->n; i++) {
        bl_hist_verdict v;
        assert_int_equal(h->v[i].n, npoints);
        bl_hist_check(&h->v[i], 1, 0, cp->min_seg, alpha, &v);
        n += v.regression != 0;
    }
    bl_history_free(h);
    return n;
}

/* The same for the interval alone, without the builder (whose records cost too much under
 * valgrind for 3000 series): a series of npoints one-record points, its changes searched on
 * the logs as history does (none: too short for the minimum segment of 7), then checked. */
static size_t interval_false_alarms(size_t nseries, size_t npoints, double alpha)
{
    bl_cp_opts cp = {.min_seg = 7, .alpha = alpha};
    size_t n = 0;
    bl_hist_point *p = calloc(npoints, sizeof *p);
    double *logs = calloc(npoints, sizeof *logs);
    for (size_t k = 0; k < nseries; k++) {
        for (size_t i = 0; i < npoints; i++) {
            p[i] = (bl_hist_point){.t = 1796169600 + (time_t)i * 86400};
            p[i].s.n = 1;
            p[i].s.mean = 200e6 * exp(normal(0, 0.05));
            logs[i] = log(p[i].s.mean);
        }
        bl_hist_series s = {.n = npoints, .p = p, .metric = BL_M_BW};
        bl_changepoints(logs, npoints, &cp, 0, &s.cp);
        assert_int_equal(s.cp.too_short, 1);
        bl_hist_verdict v;
        bl_hist_check(&s, 1, 0, cp.min_seg, alpha, &v);
        assert_int_equal(v.by_interval, 1);
        n += v.regression != 0;
        bl_cp_result_free(&s.cp);
    }
    free(p);
    free(logs);
    return n;
}

/* The interval alone (series too short for the search: 12 points, minimum segment 7), 3000
 * seeded series: the alarms are Binomial(3000, alpha) when the bound keeps alpha's promise,
 * so they lie within four standard deviations of 3000 alpha (30 +- 22 at 0.01, 150 +- 48 at
 * 0.05). The former 95% two-sided interval gave 2.5% whatever alpha: 75 at both, outside. */
static void check_interval_false_alarms_at_alpha(void **state)
{
    (void)state;
    static const double alphas[] = {0.01, 0.05};
    for (size_t k = 0; k < 2; k++) {
        rng_state = 2027 + k;
        size_t n = interval_false_alarms(3000, 12, alphas[k]);
        double want = 3000 * alphas[k], sd = sqrt(want * (1 - alphas[k]));
        print_message("alpha %g: %zu false alarms in 3000 flat series (%.2f%%)\n", alphas[k], n,
                      n / 30.0);
        assert_true(fabs((double)n - want) <= 4 * sd);
    }
}

/* 200 seeded flat series of 40 runs with the defaults (alpha 0.01, minimum segment 3, the
 * change-point search first): check --last 1 alarms on about 2 (1%); 6 or more would happen
 * with probability 0.016 at 1%, and 38% of the time at the former 2.5%. */
static void check_defaults_false_alarms(void **state)
{
    (void)state;
    rng_state = 4242;
    size_t n = false_alarms(200, 40, &defaults, 0);
    print_message("defaults: %zu false alarms in 200 flat series of 40 runs\n", n);
    assert_true(n < 6);
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
    /* words shorter than a weekday, on the heap so a read past their end is seen (fuzz-smoke) */
    static const char *const shorter[] = {"", "W", "We", "Wed"};
    for (size_t i = 0; i < sizeof shorter / sizeof *shorter; i++) {
        char *word = strdup(shorter[i]);
        assert_int_equal(bl_when_parse(word, &t), -1);
        free(word);
    }
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
        cmocka_unit_test(t_quantiles),
        cmocka_unit_test(check_interval_false_alarms_at_alpha),
        cmocka_unit_test(check_defaults_false_alarms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
