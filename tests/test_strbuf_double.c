/* bl_strbuf_put_double prints what it printed through printf alone: "null" for NaN and
 * infinities, an integer below 2^53 as "%.0f" does (negative zero "-0"), anything else as
 * "%.15g", else "%.16g", else "%.17g", the first that strtod reads back as the value. Its
 * exact-arithmetic path must give that text for every double; here against that printf
 * loop, on edge cases and on 120,000 values of every kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printf_text(double d, char *buf, size_t n)
{
    if (!isfinite(d)) {
        snprintf(buf, n, "null");
        return;
    }
    if (d == floor(d) && fabs(d) < 9007199254740992.0) {
        snprintf(buf, n, "%.0f", d);
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

static void same_text(bl_strbuf *sb, double d)
{
    char want[64];
    printf_text(d, want, sizeof want);
    bl_strbuf_reset(sb);
    bl_strbuf_put_double(sb, d);
    if (strcmp(want, sb->s) != 0)
        fail_msg("%a: printf %s, bl_strbuf_put_double %s", d, want, sb->s);
}

static uint64_t rnd(uint64_t *s) /* xorshift64* */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static void test_edges(void **state)
{
    (void)state;
    const double two53 = 9007199254740992.0;
    const double v[] = {0.0,
                        -0.0,
                        1,
                        -1,
                        0.5,
                        -0.5,
                        0.1,
                        0.2,
                        0.3,
                        0.1 + 0.2,
                        1.0 / 3,
                        2.0 / 3,
                        1e-4,
                        1e-5,
                        9.99999999999999e-5,
                        1.0000000000000002,
                        0.9999999999999999,
                        599186.2857142857,
                        699050.6666666666,
                        419430.4,
                        14.258,
                        367157.32 * 1024,
                        123456789012345.67,
                        123456789012345.25,
                        12345678901234.125,
                        999999999999999.9,
                        999999999999999.4,
                        99999999999999.99,
                        9.999999999999999,
                        9.9999999999999995,
                        0.00099999999999999999,
                        1e15 - 0.5,
                        1e15,
                        1e16,
                        1e17,
                        1e300,
                        -1e300,
                        two53 - 1,
                        two53,
                        two53 + 2,
                        -two53,
                        two53 - 0.5,
                        4503599627370495.5,
                        4503599627370496.5,
                        1.000000000000005,
                        2.675,
                        1.005,
                        DBL_MIN,
                        -DBL_MIN,
                        DBL_MAX,
                        -DBL_MAX,
                        DBL_EPSILON,
                        5e-324,
                        2.2250738585072009e-308,
                        NAN,
                        -NAN,
                        INFINITY,
                        -INFINITY};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        same_text(&sb, v[i]);
        same_text(&sb, nextafter(v[i], 0));
        same_text(&sb, nextafter(v[i], INFINITY));
    }
    /* powers of two (the gap below is half the gap above) and their neighbours */
    for (int e = -20; e <= 60; e++) {
        double p = ldexp(1, e);
        same_text(&sb, p);
        same_text(&sb, nextafter(p, 0));
        same_text(&sb, nextafter(p, INFINITY));
        same_text(&sb, -nextafter(p, INFINITY));
    }
    /* powers of ten and their neighbours: where the decimal exponent changes */
    for (int e = -8; e <= 18; e++) {
        double p = pow(10, e);
        for (int k = 0; k < 4; k++) {
            same_text(&sb, p);
            same_text(&sb, -p);
            p = nextafter(p, 0);
        }
        p = pow(10, e);
        for (int k = 0; k < 4; k++)
            same_text(&sb, p = nextafter(p, INFINITY));
    }
    assert_string_equal((bl_strbuf_reset(&sb), bl_strbuf_put_double(&sb, -0.0), sb.s), "-0");
    assert_string_equal((bl_strbuf_reset(&sb), bl_strbuf_put_double(&sb, NAN), sb.s), "null");
    assert_string_equal((bl_strbuf_reset(&sb), bl_strbuf_put_double(&sb, 0.1 + 0.2), sb.s),
                        "0.30000000000000004");
    assert_string_equal((bl_strbuf_reset(&sb), bl_strbuf_put_double(&sb, 1e15 + 0.5), sb.s),
                        "1000000000000000.5");
    bl_strbuf_free(&sb);
}

static void test_many(void **state)
{
    (void)state;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    uint64_t s = 88172645463325252u;
    for (int i = 0; i < 10000; i++) {
        uint64_t bits = rnd(&s);
        double v;
        memcpy(&v, &bits, sizeof v); /* any double at all */
        same_text(&sb, v);
        /* uniform in [0,1) scaled by 10^-6 .. 10^16: every digit count up to 17 */
        double u =
            (double)(rnd(&s) >> 11) / 9007199254740992.0 * pow(10, (double)(rnd(&s) % 23) - 6);
        same_text(&sb, u);
        same_text(&sb, -u);
        same_text(&sb, nextafter(u, 0));
        /* figures as tools print them (a few decimals) and as parsers compute them */
        double m = (double)(rnd(&s) % 100000000) / pow(10, (double)(rnd(&s) % 9));
        same_text(&sb, m);
        same_text(&sb, m / 7);
        same_text(&sb, m * 1024);
        same_text(&sb, m / 1e3);
        /* 15 to 18 digit decimals read as doubles */
        same_text(&sb, (double)(rnd(&s) % UINT64_C(1000000000000000000)) /
                           pow(10, (double)(rnd(&s) % 23)));
        /* ties at the 16th and 17th digit: an integer and a few binary halves */
        unsigned d = 1 + (unsigned)(rnd(&s) % 5);
        double ipart = (double)(rnd(&s) % (uint64_t)pow(10, 17 - d));
        same_text(&sb, ipart + (double)(2 * (rnd(&s) % (1u << (d - 1))) + 1) / (double)(1u << d));
        same_text(&sb, (double)(rnd(&s) >> 11)); /* integers below 2^53 */
    }
    bl_strbuf_free(&sb);
}

/* Short decimals n·10^-k, the quick path's (up to 15 digits, k up to 8) and just beyond it:
 * 16 digits, k = 9, the exponent form from 10^-5 down. */
static void test_short_decimals(void **state)
{
    (void)state;
    static const double v[] = {0.3,
                               11.15,
                               126.8,
                               1.2163,
                               551.7062953,
                               0.0001,
                               0.00012,
                               0.000012,
                               0.0001234,
                               0.00009,
                               1e-8,
                               1.5e-8,
                               12345678901234.5,
                               99999999999999.9,
                               0.12345678901234,
                               123456.12345678,
                               1.000000001,
                               0.000000015};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        same_text(&sb, v[i]);
        same_text(&sb, -v[i]);
    }
    uint64_t s = 0x2545f4914f6cdd1du;
    for (int i = 0; i < 30000; i++) {
        int digits = 1 + (int)(rnd(&s) % 16), k = 1 + (int)(rnd(&s) % 9);
        uint64_t n = rnd(&s) % (uint64_t)pow(10, digits);
        double d = (double)n / pow(10, k);
        same_text(&sb, d);
        same_text(&sb, -d);
        same_text(&sb, nextafter(d, INFINITY));
    }
    assert_string_equal((bl_strbuf_reset(&sb), bl_strbuf_put_double(&sb, -0.05), sb.s), "-0.05");
    assert_string_equal((bl_strbuf_reset(&sb), bl_strbuf_put_double(&sb, 0.000012), sb.s),
                        "1.2e-05");
    bl_strbuf_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_many),
        cmocka_unit_test(test_short_decimals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
