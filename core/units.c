#include "units.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_spaces(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The common number read in place, without the copy below: a sign, at most 15 digits with
 * a point among them and no exponent. Then it is one exact step, as strtod reads it: up to 15
 * digits are an integer a double holds exactly, and so is 10^k, so the one division is
 * rounded once, as strtod rounds (Clinger's fast path). Returns 0 for any other text, which
 * the copy then reads (and strtod where this cannot). fio's text holds some hundred thousand
 * numbers a megabyte: the copy was a fifth of the parse of one. */
static int quick_number(const char *p, int flags, double *out, const char **end)
{
    static const double pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    int neg = *p == '-';
    p += neg || *p == '+';
    uint64_t m = 0;
    int digits = 0, frac = 0;
    for (; *p >= '0' && *p <= '9' && digits <= 15; p++, digits++)
        m = m * 10 + (uint64_t)(*p - '0');
    if ((*p == '.' || ((flags & BL_DECIMAL_COMMA) && *p == ',')) && p[1] >= '0' && p[1] <= '9')
        for (p++; *p >= '0' && *p <= '9' && digits <= 15; p++, digits++, frac++)
            m = m * 10 + (uint64_t)(*p - '0');
    if (digits == 0 || digits > 15 || (*p >= '0' && *p <= '9') || *p == 'e' || *p == 'E')
        return 0;
    double v = frac > 0 ? (double)m / pow10[frac] : (double)m;
    *out = neg ? -v : v;
    if (end)
        *end = p;
    return 1;
}

bool bl_parse_number(const char *s, int flags, double *out, const char **end)
{
    char buf[64];
    size_t n = 0;
    const char *p = skip_spaces(s);
    if (quick_number(p, flags, out, end))
        return true;
    if (*p == '+' || *p == '-')
        buf[n++] = *p++;
    int digits = 0;
    while (isdigit((unsigned char)*p) && n < sizeof buf - 8) {
        buf[n++] = *p++;
        digits++;
    }
    int comma_ok = (flags & BL_DECIMAL_COMMA) != 0;
    if ((*p == '.' || (comma_ok && *p == ',')) && isdigit((unsigned char)p[1])) {
        buf[n++] = '.';
        p++;
        while (isdigit((unsigned char)*p) && n < sizeof buf - 8) {
            buf[n++] = *p++;
            digits++;
        }
    }
    if (!digits)
        return false;
    /* An exponent only when digits follow, so "5e" in "5exabytes" is not eaten. */
    if ((*p == 'e' || *p == 'E') &&
        (isdigit((unsigned char)p[1]) ||
         ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
        buf[n++] = *p++;
        if (*p == '-' || *p == '+')
            buf[n++] = *p++;
        while (isdigit((unsigned char)*p) && n < sizeof buf - 1)
            buf[n++] = *p++;
    }
    buf[n] = '\0';
    const char *read_to; /* the copy holds a number alone: all of it read, or strtod */
    if (!quick_number(buf, 0, out, &read_to) || *read_to)
        *out = strtod(buf, NULL);
    if (end)
        *end = p;
    return true;
}

/* The power of a prefix letter: K=1, M=2, G=3, T=4, P=5; 0 when c is not a prefix. */
static int prefix_power(char c)
{
    switch (c) {
    case 'k':
    case 'K':
        return 1;
    case 'm':
    case 'M':
        return 2;
    case 'g':
    case 'G':
        return 3;
    case 't':
    case 'T':
        return 4;
    case 'p':
    case 'P':
        return 5;
    default:
        return 0;
    }
}

static double power_of(double base, int n)
{
    double m = 1;
    while (n-- > 0)
        m *= base;
    return m;
}

/* Parses [prefix][i][B|bytes|byte] after a number; returns the multiplier or 0 when no unit
 * is there. *unit_end receives the end; *bytes_word tells whether a byte unit was seen. */
static double size_unit(const char *p, int kilo, const char **unit_end, int *had_byte)
{
    int pw = prefix_power(*p);
    const char *q = p;
    int binary = (kilo & 0xff) == BL_BINARY;
    *had_byte = 0;
    if (pw) {
        q++;
        if (*q == 'i') {
            binary = 1;
            q++;
        }
    }
    if (strncmp(q, "bytes", 5) == 0 && !isalpha((unsigned char)q[5])) {
        q += 5;
        *had_byte = 1;
    } else if (strncmp(q, "byte", 4) == 0 && !isalpha((unsigned char)q[4])) {
        q += 4;
        *had_byte = 1;
    } else if (*q == 'B' || (*q == 'b' && pw)) {
        q++;
        *had_byte = 1;
    }
    if (!pw && !*had_byte)
        return 0;
    *unit_end = q;
    return power_of(binary ? 1024.0 : 1000.0, pw);
}

bool bl_parse_size(const char *s, int kilo, double *out, const char **end)
{
    double v;
    const char *p;
    if (!bl_parse_number(s, kilo, &v, &p))
        return false;
    const char *u = skip_spaces(p), *ue = NULL;
    int had_byte;
    double m = size_unit(u, kilo, &ue, &had_byte);
    if (m == 0 || isalpha((unsigned char)*ue)) {
        m = 1;
        ue = p;
    }
    *out = v * m;
    if (end)
        *end = ue;
    return true;
}

static const char *per_second(const char *p)
{
    static const char *const words[] = {"/sec", "/s", "/秒", "ps"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (strncmp(p, words[i], n) == 0 && !isalpha((unsigned char)p[n]))
            return p + n;
    }
    return NULL;
}

bool bl_parse_bandwidth(const char *s, int kilo, double *out, const char **end)
{
    double v;
    const char *p;
    if (!bl_parse_number(s, kilo, &v, &p))
        return false;
    const char *u = skip_spaces(p), *ue = NULL;
    int had_byte;
    double m = size_unit(u, kilo, &ue, &had_byte);
    if (m == 0)
        return false;
    const char *after = per_second(ue);
    if (!after)
        return false;
    *out = v * m;
    if (end)
        *end = after;
    return true;
}

double bl_time_unit_ns(const char *unit, int len)
{
    static const struct {
        const char *word;
        double ns;
    } units[] = {{"nsec", 1},   {"ns", 1},   {"usec", 1e3},    {"us", 1e3},      {"µs", 1e3},
                 {"msec", 1e6}, {"ms", 1e6}, {"seconds", 1e9}, {"secs", 1e9},    {"sec", 1e9},
                 {"s", 1e9},    {"秒", 1e9}, {"min", 60e9},    {"minutes", 60e9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if ((int)strlen(units[i].word) == len && strncmp(unit, units[i].word, len) == 0)
            return units[i].ns;
    return 0;
}

bool bl_parse_duration_ns(const char *s, double default_unit_ns, double *out, const char **end)
{
    double v;
    const char *p;
    if (!bl_parse_number(s, 0, &v, &p))
        return false;
    const char *u = skip_spaces(p), *ue = u;
    while (isalpha((unsigned char)*ue) || (unsigned char)*ue >= 0x80)
        ue++;
    /* Multibyte units (µs, 秒) end at the first ASCII byte; try the longest match first. */
    double m = 0;
    const char *best = u;
    for (const char *q = ue; q > u; q--) {
        m = bl_time_unit_ns(u, (int)(q - u));
        if (m) {
            best = q;
            break;
        }
    }
    if (!m) {
        if (default_unit_ns <= 0)
            return false;
        m = default_unit_ns;
        best = p;
    }
    *out = v * m;
    if (end)
        *end = best;
    return true;
}

bool bl_parse_count(const char *s, double *out, const char **end)
{
    double v;
    const char *p;
    if (!bl_parse_number(s, 0, &v, &p))
        return false;
    int pw = 0;
    if (*p && strchr("kKmMgG", *p) && !isalpha((unsigned char)p[1])) {
        pw = prefix_power(*p);
        p++;
    }
    *out = v * power_of(1000.0, pw);
    if (end)
        *end = p;
    return true;
}

bool bl_to_count(double v, int64_t *out)
{
    if (!(v >= 0 && v < 9.2e18))
        return false;
    *out = (int64_t)v;
    return true;
}

int64_t bl_count_or(double v, int64_t absent)
{
    int64_t n;
    return bl_to_count(round(v), &n) ? n : absent;
}
