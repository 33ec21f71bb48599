/* Local times without a zone (fio's "Sat Dec  5 00:18:05 2026") read under TZ: core/when.c
 * keeps the zone's offset for stretches where it does not change instead of calling mktime
 * each time. The epochs must be mktime's: winter and summer, both sides of a DST change, in
 * any order, and after TZ changes within the process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/when.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void set_tz(const char *tz)
{
    setenv("TZ", tz, 1);
    tzset();
}

static time_t when_of(const char *s)
{
    time_t t = 0;
    assert_int_equal(bl_when_parse(s, &t), 0);
    return t;
}

/* Dates of real fio job headers (fixtures/fio/clones-3.33.out; the corpus'
 * fio-3.25_fdatasync_sync_percentiles.txt), the epochs worked out by hand from the zones'
 * offsets: CET +1, CEST +2, EST -5, EDT -4. */
static void fio_dates_summer_and_winter(void **state)
{
    (void)state;
    set_tz("Europe/Berlin");
    assert_int_equal(when_of("Sat Dec  5 00:18:05 2026"), 1796426285); /* 2026-12-04 23:18:05Z */
    assert_int_equal(when_of("Thu Jun 17 04:12:53 2021"), 1623895973); /* 2021-06-17 02:12:53Z */
    assert_int_equal(when_of("Sat Dec  5 00:18:06 2026"), 1796426286); /* from the stretch */
    set_tz("America/New_York");
    assert_int_equal(when_of("Sat Dec  5 00:18:05 2026"), 1796447885); /* 05:18:05Z */
    assert_int_equal(when_of("Thu Jun 17 04:12:53 2021"), 1623917573); /* 08:12:53Z */
    assert_int_equal(when_of("Thu Jun 17 04:12:54 2021"), 1623917574);
    set_tz("Europe/Berlin"); /* back: nothing learnt under New York may answer */
    assert_int_equal(when_of("Sat Dec  5 00:18:07 2026"), 1796426287);
    assert_int_equal(when_of("Thu Jun 17 04:12:55 2021"), 1623895975);
}

/* The same dates read from a whole fio output: the record's `when`. */
static void fio_fixture_when(void **state)
{
    (void)state;
    char path[4096];
    bl_test_fixture("fio/clones-3.33.out", path, sizeof path);
    const char *zones[] = {"Europe/Berlin", "America/New_York"};
    const time_t want[] = {1796426285, 1796447885}; /* the first job: Sat Dec  5 00:18:05 2026 */
    for (int z = 0; z < 2; z++) {
        set_tz(zones[z]);
        bl_parse_out out;
        bl_test_parse(path, "fio", &out);
        assert_true(out.recs.n > 0);
        time_t t;
        assert_int_equal(bl_when_get(out.recs.v[0], &t), 0);
        assert_int_equal(t, want[z]);
        bl_out_free(&out);
    }
}

/* Every 3 hours and 7 seconds through 2026 (both DST changes), first in order, then
 * shuffled: each wall time gives what mktime gives. Around the changes the stretch never
 * answers, so mktime itself does, and the answers stay mktime's even for the hour that
 * does not exist or exists twice. */
/* The wall time of instant u, as fio prints it, read back: mktime's answer. */
static void check_instant(const char *tz, time_t u)
{
    struct tm lt;
    localtime_r(&u, &lt);
    char s[64];
    strftime(s, sizeof s, "%a %b %e %H:%M:%S %Y", &lt);
    struct tm m = lt;
    m.tm_isdst = -1;
    time_t got = when_of(s), ref = mktime(&m);
    if (got != ref)
        fail_msg("%s %s: %lld, mktime %lld", tz, s, (long long)got, (long long)ref);
}

/* Every 10 minutes and 1 second from 36 hours before each of the zone's offset changes in
 * 2026 to 36 hours after, in order: the stretch learnt before a change must stop answering
 * in time. */
static void around_changes(const char *tz, time_t from, time_t to)
{
    int changes = 0;
    for (time_t h = from; h < to; h += 3600) {
        struct tm a, b;
        time_t next = h + 3600;
        localtime_r(&h, &a);
        localtime_r(&next, &b);
        if (a.tm_gmtoff == b.tm_gmtoff)
            continue;
        changes++;
        for (time_t u = h - 36 * 3600; u < h + 36 * 3600; u += 601)
            check_instant(tz, u);
    }
    assert_int_equal(changes, 2); /* both zones change twice a year */
}

static void sweep_zone(const char *tz)
{
    set_tz(tz);
    enum { STEP = 10807 };
    const time_t from = 1767225600, to = 1798761600; /* 2026-01-01 .. 2027-01-01 UTC */
    around_changes(tz, from, to);
    size_t n = (size_t)((to - from) / STEP);
    time_t *order = malloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = from + (time_t)i * STEP;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) { /* a fixed shuffle: dates far apart, one after the other */
            unsigned long long x = 88172645463325252ULL;
            for (size_t i = n - 1; i > 0; i--) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                size_t j = (size_t)(x % (i + 1));
                time_t k = order[i];
                order[i] = order[j], order[j] = k;
            }
        }
        for (size_t i = 0; i < n; i++)
            check_instant(tz, order[i]);
    }
    free(order);
}

static void sweep_berlin(void **state)
{
    (void)state;
    sweep_zone("Europe/Berlin");
}

static void sweep_new_york(void **state)
{
    (void)state;
    sweep_zone("America/New_York");
}

/* The driver reads a run's date label once for all its records (bl_when_cache): each record
 * gets what bl_when_from_date_label gives it alone, whatever came before it. */
static void cached_date_labels(void **state)
{
    (void)state;
    set_tz("Europe/Berlin");
    static const char *const dates[] = {
        "Wed Dec  2 12:28:07 2026",
        "Wed Dec  2 12:28:07 2026",
        "Wed Jul  1 12:28:07 2026",
        "not a date",
        NULL,
        "Wed Jul  1 12:28:07 2026",
        "Wed Dec  2 12:28:07 2026                                   ", /* longer than held */
        "Wed Dec  2 12:28:07 2026",
        "",
        "Wed Jul  1 12:28:07 2026"};
    bl_when_cache c = {0};
    size_t n = sizeof dates / sizeof dates[0], given = 0;
    for (size_t i = 0; i < n; i++) {
        bl_record *a = bl_record_new(), *b = bl_record_new();
        for (bl_record *r = a; r; r = r == a ? b : NULL) {
            if (dates[i])
                bl_record_set_label(r, "date", dates[i]);
            if (i == 5) /* a time of its own stays */
                bl_record_set_str(&r->when, "2020-01-01T00:00:00Z");
        }
        bl_when_from_date_label(a);
        bl_when_from_date_label_cached(b, &c);
        assert_true((a->when == NULL) == (b->when == NULL));
        if (a->when) {
            assert_string_equal(a->when, b->when);
            assert_true((a->when_from == NULL) == (b->when_from == NULL));
            if (a->when_from)
                assert_string_equal(a->when_from, b->when_from);
            given += a->when_from != NULL;
        }
        bl_record_free(a);
        bl_record_free(b);
    }
    assert_int_equal(given, 6); /* the dates read, the summer one twice */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fio_dates_summer_and_winter),
        cmocka_unit_test(fio_fixture_when),
        cmocka_unit_test(sweep_berlin),
        cmocka_unit_test(sweep_new_york),
        cmocka_unit_test(cached_date_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
