/* Figures of typed results tables with commas in them; see speed_table_num.h. */
#include "speed_table_num.h"
#include <ctype.h>
#include <string.h>

static size_t digits(const char *p, size_t max)
{
    size_t n = 0;
    while (n < max && isdigit((unsigned char)p[n]))
        n++;
    return n;
}

/* One figure of n bytes at p as strtod reads it, its commas resolved (see the top), in buf;
 * 0 when a comma may mean more than one thing. */
int bl_st_plain_figure(const char *p, size_t n, int decimal_comma, char *buf, size_t cap)
{
    const char *comma = memchr(p, ',', n), *dot = memchr(p, '.', n);
    if (n + 1 > cap)
        return 0;
    if (!comma) {
        memcpy(buf, p, n);
        buf[n] = '\0';
        return 1;
    }
    if (decimal_comma) {
        size_t dec = n - (size_t)(comma - p) - 1;
        if (dot || memchr(comma + 1, ',', dec) || dec < 1 || dec > 2)
            return 0;
        memcpy(buf, p, n);
        buf[comma - p] = '.';
        buf[n] = '\0';
        return 1;
    }
    if (!dot)
        return 0; /* "2,699": thousands or decimals, the figure cannot say */
    size_t k = 0, group = 0;
    for (const char *q = p; q < p + n; q++) {
        if (*q == ',') {
            if (q > dot || group == 0 || group > 3 || (k > group && group != 3) ||
                digits(q + 1, 4) != 3)
                return 0;
            group = 0;
            continue;
        }
        buf[k++] = *q;
        group = isdigit((unsigned char)*q) ? group + 1 : 0;
    }
    buf[k] = '\0';
    return 1;
}

long bl_st_decimal_commas(const char *s)
{
    long commas = 0;
    for (const char *p = s; *p; p++) {
        size_t d = *p == ',' ? digits(p + 1, 3) : 0;
        int dot = *p == '.' && isdigit((unsigned char)p[1]);
        if (dot || (*p == ',' && (d < 1 || d > 2 || p == s || !isdigit((unsigned char)p[-1]) ||
                                  p[1 + d] == ',' || p[1 + d] == '.')))
            return -1;
        commas += *p == ',';
    }
    return commas;
}

/* The figure around the comma at c cannot be read: say which and why. */
void bl_st_comma_error(bl_parse_out *o, long line, const char *c, long not_decimal)
{
    const char *a = c, *b = c + 1;
    while (a > c - 12 && (isdigit((unsigned char)a[-1]) || a[-1] == '.' || a[-1] == ','))
        a--;
    b += strspn(b, "0123456789.,");
    size_t d = digits(c + 1, 3);
    if (d >= 1 && d <= 2 && !memchr(a, '.', (size_t)(b - a)) && not_decimal)
        bl_out_error(o, line,
                     "results table row: '%.*s' would have a decimal comma, read only in a table "
                     "whose every comma is one, and line %ld of this table has a point or a "
                     "comma of thousands; no records kept",
                     (int)(b - a), a, not_decimal);
    else
        bl_out_error(o, line,
                     "results table row: cannot tell whether the comma in '%.*s' groups "
                     "thousands or marks decimals (\"1,020.5\" and, in a table of decimal commas "
                     "only, \"1020,5\" are read); no records kept",
                     (int)(b - a), a);
}
