#include "fio_units.h"
#include "fio_common.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double bl_fio_strtod(const char *s, char **end)
{
    static const double pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char *p = s;
    unsigned long long m = 0;
    int digits = 0, frac = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        m = m * 10 + (unsigned long long)(*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, digits++, frac++)
            m = m * 10 + (unsigned long long)(*p - '0');
    /* a sign, blank, exponent, hex, inf or nan, or more digits than a double holds exactly */
    if (digits == 0 || digits > 15 || *p == 'e' || *p == 'E' || *p == 'x' || *p == 'X')
        return strtod(s, end);
    if (end)
        *end = (char *)p;
    return (double)m / pow10[frac];
}

typedef struct fig {
    double num;   /* as printed */
    int decimals; /* digits after the point */
    int power;    /* 0 none, 1 k/Ki, 2 M/Mi, ... */
    int iec;      /* the prefix has its 'i' */
    int bits;     /* "bit", "bit/s": fio's unit_base=1 */
} fig;

/* "4222MB/s", "35.1MiB/s", "105Mi", "8448MB", "500B/s", "12345": fio's num2str forms. */
static const char *read_fig(const char *s, fig *f)
{
    const char *p = s;
    memset(f, 0, sizeof *f);
    if (!isdigit((unsigned char)*p))
        return NULL;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == '.' && isdigit((unsigned char)p[1])) {
        const char *d = ++p;
        while (isdigit((unsigned char)*p))
            p++;
        f->decimals = (int)(p - d);
    }
    f->num = bl_fio_strtod(s, NULL);
    const char *prefixes = strchr("kKMGTPE", *p) && *p ? strchr("kKMGTPE", *p) : NULL;
    if (prefixes) {
        f->power = *p == 'k' || *p == 'K' ? 1 : (int)(prefixes - "kKMGTPE");
        p++;
        if (*p == 'i') {
            f->iec = 1;
            p++;
        }
    }
    if (strncmp(p, "bit", 3) == 0) {
        f->bits = 1;
        p += 3;
    } else if (*p == 'B') {
        p++;
    }
    if (p[0] == '/' && p[1] == 's' && !isalnum((unsigned char)p[2]))
        p += 2;
    return isalnum((unsigned char)*p) ? NULL : p;
}

static double mult_of(const fig *f, int si)
{
    double m = pow(si ? 1000.0 : 1024.0, f->power);
    return f->bits ? m / 8 : m;
}

/* The bytes the printed figure may stand for: fio rounds to the last digit when it prints
 * no fraction (after truncating once per prefix step), and before fio 3.26 printed the
 * fraction of a.b loosely (num2str: modulo digits), so a.b is only known to lie in [a, a+1]. */
static void bounds(const fig *f, int si, double *lo, double *hi)
{
    double m = mult_of(f, si);
    if (f->decimals > 0) {
        double a = floor(f->num);
        *lo = (a - pow(10.0, -f->decimals)) * m;
        *hi = (a + 1) * m;
    } else {
        double slack = f->power ? m / 1000 : 0;
        *lo = (f->num - 0.5) * m - slack;
        *hi = (f->num + 0.5) * m + slack;
    }
}

static int agree(const fig *a, int a_si, const fig *b, int b_si)
{
    double alo, ahi, blo, bhi;
    bounds(a, a_si, &alo, &ahi);
    bounds(b, b_si, &blo, &bhi);
    return alo <= bhi && blo <= ahi;
}

int bl_fio_figure(const char *s, int base_si, double *x, int *si, const char **end)
{
    fig a, b;
    const char *p = read_fig(s, &a);
    if (!p)
        return BL_FIO_FIG_BAD;
    const char *q = *p == ' ' ? p + 1 : p, *r = NULL;
    int pair = 0;
    if (*q == '(' && (r = read_fig(q + 1, &b)) && *r == ')') {
        pair = 1;
        p = r + 1;
    }
    if (end)
        *end = p;
    int a_si = base_si;
    if (a.iec || !a.power) {
        a_si = 0;
    } else if (pair && b.power && b.iec) {
        a_si = 1;
    } else if (pair) { /* no IEC figure to tell by: the base in which the two agree */
        int s_ok = agree(&a, 1, &b, 0), b_ok = agree(&a, 0, &b, 1);
        if (s_ok == b_ok)
            return BL_FIO_FIG_DISAGREE;
        a_si = s_ok;
    }
    if (pair) {
        int b_si = b.iec || !b.power ? 0 : !a_si;
        if (!agree(&a, a_si, &b, b_si))
            return BL_FIO_FIG_DISAGREE;
    }
    if (si && a.power)
        *si = a_si;
    *x = bl_fio_scale(a.num, mult_of(&a, a_si));
    return BL_FIO_FIG_OK;
}

int bl_fio_figure_after(const char *s, const char *key, int base_si, double *x, int *si)
{
    const char *v = bl_fio_after(s, key);
    return v ? bl_fio_figure(v, base_si, x, si, NULL) : BL_FIO_FIG_BAD;
}

double bl_fio_sample_unit(const char *unit, int kb_base_si)
{
    char u[16];
    size_t n = 0;
    for (const char *p = unit; *p && *p != ')' && n < sizeof u - 1; p++)
        if (*p != ' ' && *p != '(')
            u[n++] = *p;
    u[n] = '\0';
    if (strcmp(u, "kB/s") == 0 || strcmp(u, "KiB/s") == 0)
        return 1024;
    if (strcmp(u, "MiB/s") == 0)
        return kb_base_si ? 1024.0 * 1000 : 1024.0 * 1024;
    return 0;
}
