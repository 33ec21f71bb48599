#include "when.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Reads exactly n digits (or, with n < 0, one or two) into *v; the end or NULL. */
static const char *digits(const char *s, int n, int *v)
{
    int got = 0, max = n < 0 ? 2 : n;
    *v = 0;
    while (got < max && isdigit((unsigned char)*s)) {
        *v = *v * 10 + (*s++ - '0');
        got++;
    }
    return got == max || (n < 0 && got >= 1) ? s : NULL;
}

/* "HH:MM[:SS]" into tm. */
static const char *clock_part(const char *s, struct tm *tm)
{
    if (!(s = digits(s, -1, &tm->tm_hour)) || *s++ != ':' || !(s = digits(s, 2, &tm->tm_min)))
        return NULL;
    if (*s == ':' && !(s = digits(s + 1, 2, &tm->tm_sec)))
        return NULL;
    return s;
}

static int valid(const struct tm *tm)
{
    return tm->tm_year >= 70 && tm->tm_year < 8000 && tm->tm_mon >= 0 && tm->tm_mon < 12 &&
           tm->tm_mday >= 1 && tm->tm_mday <= 31 && tm->tm_hour < 24 && tm->tm_min < 60 &&
           tm->tm_sec <= 60;
}

/* mktime reads the zone file again on every call (glibc with TZ unset stats /etc/localtime),
 * which a file of a million job headers pays for a million times. So the zone's offset is
 * kept for stretches of time where it is known not to change: a wall time well inside one is
 * unambiguous, and its epoch is its timegm value minus the offset, the one answer mktime
 * gives too. A stretch is learnt from mktime's own answer and localtime_r (which does not
 * re-read the zone), sampled every SPAN_STEP seconds up to SPAN_REACH either side (no zone
 * changes its offset twice within SPAN_STEP); a wall time is taken from it only when every
 * instant it could stand for (within SPAN_ZONE, more than any zone's offset) lies inside.
 * Another TZ forgets them all. One set per thread: no locks, no shared state. */
enum { SPAN_STEP = 1800, SPAN_REACH = 2 * 86400, SPAN_ZONE = 27 * 3600, SPANS = 16 };

typedef struct zone_spans {
    char tz[64]; /* TZ they were learnt under ("" = unset) */
    size_t n, next;
    struct {
        time_t lo, hi; /* the offset holds for every instant in [lo, hi] */
        long off;      /* local wall seconds minus UTC seconds */
    } v[SPANS];
} zone_spans;

static _Thread_local zone_spans spans;

static long offset_at(time_t t, int *ok)
{
    struct tm lt;
    *ok = localtime_r(&t, &lt) != NULL;
    return *ok ? lt.tm_gmtoff : 0;
}

/* Remembers the stretch around t (whose offset is off) where the offset stays off. */
static void learn_span(time_t t, long off)
{
    int ok = 1;
    time_t lo = t, hi = t;
    while (lo > t - SPAN_REACH && offset_at(lo - SPAN_STEP, &ok) == off && ok)
        lo -= SPAN_STEP;
    while (hi < t + SPAN_REACH && offset_at(hi + SPAN_STEP, &ok) == off && ok)
        hi += SPAN_STEP;
    if (hi - lo <= 2 * SPAN_ZONE)
        return; /* too short to answer anything */
    size_t i = spans.next++ % SPANS;
    spans.v[i].lo = lo, spans.v[i].hi = hi, spans.v[i].off = off;
    spans.n += spans.n < SPANS;
}

/* The epoch of wall (a wall time read as UTC) from a stretch: 1, or 0 when none holds it. */
static int from_spans(const char *tz, time_t wall, time_t *t)
{
    if (strlen(tz) >= sizeof spans.tz || strcmp(tz, spans.tz) != 0) {
        spans.n = spans.next = 0;
        if (strlen(tz) < sizeof spans.tz)
            strcpy(spans.tz, tz);
        else
            spans.tz[0] = 1; /* matches no TZ: nothing is learnt under one this long */
        return 0;
    }
    for (size_t i = 0; i < spans.n; i++)
        if (wall - SPAN_ZONE >= spans.v[i].lo && wall + SPAN_ZONE <= spans.v[i].hi) {
            *t = wall - spans.v[i].off;
            return 1;
        }
    return 0;
}

/* A local time: what mktime makes of it, daylight saving decided by the date. */
static int local_time(struct tm *tm, time_t *t)
{
    if (!valid(tm))
        return -1;
    const char *tz = getenv("TZ");
    struct tm u = *tm;
    if (from_spans(tz ? tz : "", timegm(&u), t))
        return 0;
    tm->tm_isdst = -1;
    *t = mktime(tm);
    if (*t == (time_t)-1)
        return -1;
    if (spans.tz[0] != 1)
        learn_span(*t, tm->tm_gmtoff);
    return 0;
}

/* "Z", "+01:00", "-0500" or nothing (local); the rest must be blank. */
static int zone_and_end(const char *s, struct tm *tm, time_t *t)
{
    s = skip_blanks(s);
    if (*s == 0)
        return local_time(tm, t);
    long off = 0;
    if (strncmp(s, "UTC", 3) == 0 || strncmp(s, "GMT", 3) == 0) { /* DiskSpd's "... UTC" */
        s += 3;
    } else if (*s == 'Z' || *s == 'z') {
        s++;
    } else if (*s == '+' || *s == '-') {
        int sign = *s++ == '-' ? -1 : 1, h, m = 0;
        if (!(s = digits(s, 2, &h)))
            return -1;
        if (*s == ':')
            s++;
        if (isdigit((unsigned char)*s) && !(s = digits(s, 2, &m)))
            return -1;
        off = sign * (h * 3600L + m * 60L);
    } else {
        return -1;
    }
    if (*skip_blanks(s) || !valid(tm))
        return -1;
    *t = timegm(tm) - off;
    return 0;
}

/* "2026-12-02[T ]12:28[:07][zone]", "2026-12-02", "2021/06/27 17:28:12" */
static int numeric_date(const char *s, time_t *t)
{
    struct tm tm = {0};
    char sep;
    if (!(s = digits(s, 4, &tm.tm_year)) || (*s != '-' && *s != '/'))
        return -1;
    sep = *s++;
    if (!(s = digits(s, -1, &tm.tm_mon)) || *s++ != sep || !(s = digits(s, -1, &tm.tm_mday)))
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    if (*s == 'T' || (*s == ' ' && isdigit((unsigned char)s[1]))) {
        if (!(s = clock_part(s + 1, &tm)))
            return -1;
        if (*s == '.') /* fractions of a second: dropped */
            for (s++; isdigit((unsigned char)*s); s++)
                ;
    }
    return zone_and_end(s, &tm, t);
}

/* ctime's "Wed Dec  2 12:28:07 2026" (the weekday is not checked against the date). */
static int ctime_date(const char *s, time_t *t)
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    struct tm tm = {0};
    /* the weekday's letters are checked one by one: a shorter string ends before s[3] */
    for (int i = 0; i < 3; i++)
        if (!isalpha((unsigned char)s[i]))
            return -1;
    if (s[3] != ' ')
        return -1;
    s = skip_blanks(s + 4);
    const char *m = strlen(s) >= 3 ? strstr(months, (char[4]){s[0], s[1], s[2], 0}) : NULL;
    if (!m || (m - months) % 3)
        return -1;
    tm.tm_mon = (int)(m - months) / 3;
    s = skip_blanks(s + 3);
    if (!(s = digits(s, -1, &tm.tm_mday)) || *s != ' ' || !(s = clock_part(skip_blanks(s), &tm)))
        return -1;
    s = skip_blanks(s);
    if (!(s = digits(s, 4, &tm.tm_year)))
        return -1;
    tm.tm_year -= 1900;
    return *skip_blanks(s) ? -1 : local_time(&tm, t);
}

int bl_when_parse(const char *s, time_t *t)
{
    if (!s)
        return -1;
    s = skip_blanks(s);
    if (*s == '@') {
        char *end;
        long long v = strtoll(s + 1, &end, 10);
        if (end == s + 1 || *skip_blanks(end) || v < 0)
            return -1;
        *t = (time_t)v;
        return 0;
    }
    if (isdigit((unsigned char)*s))
        return numeric_date(s, t);
    return ctime_date(s, t);
}

void bl_when_format(time_t t, char *buf)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, BL_WHEN_LEN, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void bl_when_set(bl_record *r, time_t t, const char *from)
{
    char buf[BL_WHEN_LEN];
    bl_when_format(t, buf);
    bl_record_set_str(&r->when, buf);
    bl_record_set_str(&r->when_from, from);
}

int bl_when_get(const bl_record *r, time_t *t)
{
    return r->when && bl_when_parse(r->when, t) == 0 ? 0 : -1;
}

void bl_when_from_date_label(bl_record *r)
{
    time_t t;
    if (!r->when && bl_when_parse(bl_record_label(r, "date"), &t) == 0)
        bl_when_set(r, t, "text");
}

void bl_when_from_date_label_cached(bl_record *r, bl_when_cache *c)
{
    const char *date = r->when ? NULL : bl_record_label(r, "date");
    if (!date)
        return;
    size_t n = strlen(date);
    if (!c->date[0] || n >= sizeof c->date || memcmp(c->date, date, n + 1) != 0) {
        time_t t;
        c->ok = bl_when_parse(date, &t) == 0;
        if (c->ok)
            bl_when_format(t, c->when);
        c->date[0] = 0;
        if (n && n < sizeof c->date)
            memcpy(c->date, date, n + 1);
    }
    if (c->ok) {
        bl_record_set_str(&r->when, c->when);
        bl_record_set_str(&r->when_from, "text");
    }
}
