/* Unit helpers: what tools print -> the model's units, with each tool's meaning of K/M. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/units.h"
#include "support/support.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double bw(const char *s, int kilo)
{
    double v = -1;
    assert_true(bl_parse_bandwidth(s, kilo, &v, NULL));
    return v;
}

static double size(const char *s, int kilo)
{
    double v = -1;
    assert_true(bl_parse_size(s, kilo, &v, NULL));
    return v;
}

static double dur(const char *s)
{
    double v = -1;
    assert_true(bl_parse_duration_ns(s, 0, &v, NULL));
    return v;
}

static void test_bandwidth(void **state)
{
    (void)state;
    /* fio 2.x: KB means 1024 bytes. */
    assert_double_equal(bw("367715KB/s", BL_BINARY), 367715.0 * 1024, 0);
    assert_double_equal(bw("1796.1KB/s", BL_BINARY), 1796.1 * 1024, 1e-6);
    assert_double_equal(bw("960935 B/s", BL_BINARY), 960935.0, 0);
    /* fio 3.x: MiB/s is binary whatever the dialect; the (376MB/s) beside it is SI. */
    const char *end;
    double v;
    assert_true(bl_parse_bandwidth("359MiB/s (376MB/s)", BL_SI, &v, &end));
    assert_double_equal(v, 359.0 * 1048576, 0);
    assert_string_equal(end, " (376MB/s)");
    assert_double_equal(bw("376MB/s", BL_SI), 376e6, 0);
    /* CrystalDiskMark and dd: MB = 10^6. */
    assert_double_equal(bw("641 MB/s", BL_SI), 641e6, 0);
    assert_double_equal(bw("4.6 GB/s", BL_SI), 4.6e9, 1);
    assert_double_equal(bw("0.0 kB/s", BL_SI), 0, 0);
    assert_double_equal(bw("51501929 bytes/sec", BL_SI), 51501929.0, 0);
    assert_double_equal(bw("641 MB/秒", BL_SI), 641e6, 0);
    assert_double_equal(bw("157586K/sec", BL_BINARY), 157586.0 * 1024, 0);
    assert_double_equal(bw("641,5 MB/s", BL_SI | BL_DECIMAL_COMMA), 641.5e6, 1e-3);
    assert_false(bl_parse_bandwidth("641 MB", BL_SI, &v, NULL));
    assert_false(bl_parse_bandwidth("fast", BL_SI, &v, NULL));
}

static void test_sizes(void **state)
{
    (void)state;
    assert_double_equal(size("5120.0MB", BL_BINARY), 5120.0 * 1048576, 0);
    assert_double_equal(size("1024MB", BL_BINARY), 1073741824.0, 0);
    assert_double_equal(size("1024MB", BL_SI), 1024e6, 0);
    assert_double_equal(size("1814.7GB", BL_BINARY), 1814.7 * 1073741824.0, 1);
    assert_double_equal(size("1024MiB", BL_SI), 1073741824.0, 0);
    assert_double_equal(size("4k", BL_BINARY), 4096, 0);
    assert_double_equal(size("10737418240", BL_SI), 10737418240.0, 0);
    assert_double_equal(size("8096M", BL_BINARY), 8096.0 * 1048576, 0);
}

static void test_durations(void **state)
{
    (void)state;
    assert_double_equal(dur("2.77 msec"), 2770000, 1e-6);
    assert_double_equal(dur("2215.24 usec"), 2215240, 1e-6);
    assert_double_equal(dur("800ns"), 800, 0);
    assert_double_equal(dur("16.747 秒"), 16.747e9, 1);
    assert_double_equal(dur("1.70473 s"), 1.70473e9, 1);
    assert_double_equal(dur("120us"), 120000, 0);
    double v;
    assert_false(bl_parse_duration_ns("12 apples", 0, &v, NULL));
    assert_true(bl_parse_duration_ns("2008", 1000, &v, NULL));
    assert_double_equal(v, 2008000, 0);
}

static void test_counts(void **state)
{
    (void)state;
    double v;
    const char *end;
    assert_true(bl_parse_count("1.5k", &v, NULL));
    assert_double_equal(v, 1500, 0);
    assert_true(bl_parse_count("359 ,", &v, &end));
    assert_double_equal(v, 359, 0);
    assert_string_equal(end, " ,");
    assert_true(bl_parse_count("6839k,", &v, NULL));
    assert_double_equal(v, 6839000, 0);
    assert_true(bl_parse_count("3509.5K", &v, NULL));
    assert_double_equal(v, 3509500, 1e-6);
    assert_false(bl_parse_count("IOPS", &v, NULL));
}

static void test_numbers(void **state)
{
    (void)state;
    double v;
    assert_true(bl_parse_number("16,747", BL_DECIMAL_COMMA, &v, NULL));
    assert_double_equal(v, 16.747, 1e-12);
    const char *end;
    assert_true(bl_parse_number("16,747", 0, &v, &end));
    assert_double_equal(v, 16, 0);
    assert_true(bl_parse_number("1e400", 0, &v, NULL));
    assert_true(isinf(v));
}

/* Short decimals are read without strtod (one exact division): every value must be bit for
 * bit what strtod gives, whatever the digits, the point's place, the sign, and at the edges
 * of the fast path (15 and 16 digits, leading zeros, "-0"). */
static void test_numbers_as_strtod(void **state)
{
    (void)state;
    static const char *const edge[] = {"-0",
                                       "0",
                                       "0.0",
                                       "-0.000",
                                       "999999999999999",
                                       "9999999999999999",
                                       "0.000000000000001",
                                       "000000000000001.5",
                                       "123456789012345.6",
                                       "1.23456789012345",
                                       "9007199254740993",
                                       "0.1",
                                       "0.3",
                                       "2.675",
                                       "1.005",
                                       "+7.25",
                                       "99.999999999999"};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        double v;
        assert_true(bl_parse_number(edge[i], 0, &v, NULL));
        double want = strtod(edge[i], NULL);
        if (memcmp(&v, &want, sizeof v) != 0)
            fail_msg("%s: %.17g, strtod %.17g", edge[i], v, want);
    }
    unsigned long long x = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int digits = 1 + (int)(x % 17), point = (int)((x >> 8) % (unsigned)(digits + 1));
        char s[40], *p = s;
        if ((x >> 16) % 4 == 0)
            *p++ = '-';
        unsigned long long y = x;
        for (int d = 0; d < digits; d++) {
            if (d == point && d > 0)
                *p++ = '.';
            y = y * 6364136223846793005ULL + 1442695040888963407ULL;
            *p++ = (char)('0' + (y >> 33) % 10);
        }
        *p = 0;
        double v;
        assert_true(bl_parse_number(s, 0, &v, NULL));
        double want = strtod(s, NULL);
        if (memcmp(&v, &want, sizeof v) != 0)
            fail_msg("%s: %.17g, strtod %.17g", s, v, want);
    }
}

/* What a number's reading takes of the text, and gives, whichever way it is read: in place
 * (a sign, up to 15 digits, a point) or by the copy (more digits, an exponent). */
static void test_number_ends(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int flags;
        double v;
        const char *rest;
    } cases[] = {{" 12.5K", 0, 12.5, "K"},
                 {"5.", 0, 5, "."},
                 {"5.x", 0, 5, ".x"},
                 {".5]", 0, 0.5, "]"},
                 {"-3,25 ", BL_DECIMAL_COMMA, -3.25, " "},
                 {"3,25", 0, 3, ",25"},
                 {"5exabytes", 0, 5, "exabytes"},
                 {"5e3,", 0, 5000, ","},
                 {"1.5E-2usec", 0, 0.015, "usec"},
                 {"+7)", 0, 7, ")"},
                 {"1234567890123456789x", 0, 1234567890123456789.0, "x"},
                 {"0.1234567890123456%", 0, 0.1234567890123456, "%"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = -1;
        const char *end = NULL;
        assert_true(bl_parse_number(cases[i].s, cases[i].flags, &v, &end));
        if (v != cases[i].v || !end || strcmp(end, cases[i].rest) != 0)
            fail_msg("%s: %.17g, rest \"%s\"", cases[i].s, v, end ? end : "(none)");
    }
    double v = 42;
    const char *end = NULL;
    assert_false(bl_parse_number("-.", 0, &v, &end));
    assert_false(bl_parse_number(" K", 0, &v, &end));
    assert_true(v == 42 && end == NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bandwidth),   cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_durations),   cmocka_unit_test(test_counts),
        cmocka_unit_test(test_numbers),     cmocka_unit_test(test_numbers_as_strtod),
        cmocka_unit_test(test_number_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
