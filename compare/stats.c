#include "stats.h"
#include "../core/record.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void bl_stat_add(bl_stat *s, double x)
{
    if (!bl_present(x))
        return;
    if (s->keep) {
        bl_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v);
        s->v[s->n] = x;
    }
    s->n++;
    bl_xsum_add(&s->sum, x);
    bl_xsum_add_sq(&s->sumsq, x);
    if (s->n == 1 || x < s->lo)
        s->lo = x;
    if (s->n == 1 || x > s->hi)
        s->hi = x;
}

void bl_stat_merge(bl_stat *dst, const bl_stat *src)
{
    if (src->n == 0)
        return;
    if (dst->keep && !src->keep) { /* the values are no longer all at hand */
        dst->keep = 0;
        free(dst->v);
        dst->v = NULL;
        dst->cap = 0;
    }
    if (dst->keep) {
        bl_grow((void **)&dst->v, &dst->cap, dst->n + src->n, sizeof *dst->v);
        memcpy(dst->v + dst->n, src->v, src->n * sizeof *dst->v);
    }
    if (dst->n == 0 || src->lo < dst->lo)
        dst->lo = src->lo;
    if (dst->n == 0 || src->hi > dst->hi)
        dst->hi = src->hi;
    dst->n += src->n;
    bl_xsum_merge(&dst->sum, &src->sum);
    bl_xsum_merge(&dst->sumsq, &src->sumsq);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The continued fraction of the regularized incomplete beta function I_x(a, b) (modified
 * Lentz), which converges fast for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
        for (int odd = 0; odd < 2; odd++) {
            double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
                             : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
            d = 1 + num * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + num / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            if (odd && fabs(d * c - 1) < 1e-15)
                return h;
        }
    }
    return h;
}

/* I_x(a, b), the regularized incomplete beta function, 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_cf(a, b, x) / a;
    return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0: I_{df/(df+t^2)}(df/2, 1/2) / 2. */
static double t_tail(double t, double df)
{
    return beta_inc(df / 2, 0.5, df / (df + t * t)) / 2;
}

double bl_t_upper(double p, size_t df)
{
    if (df == 0 || !(p > 0 && p < 1))
        return BL_ABSENT;
    if (p >= 0.5) /* T is symmetric */
        return p == 0.5 ? 0 : -bl_t_upper(1 - p, df);
    double lo = 0, hi = 1;
    while (t_tail(hi, (double)df) > p && hi < 1e12) /* the tail falls as t grows */
        hi *= 2;
    while (hi - lo > 1e-10 * (1 + hi)) {
        double mid = (lo + hi) / 2;
        if (t_tail(mid, (double)df) > p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* Tabulated t(0.975, df) for df 1..30, then 40, 60, 120 and the normal limit. */
double bl_t95(size_t df)
{
    static const double t[] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
                               2.2622,  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
                               2.1098,  2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
                               2.0595,  2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
    static const struct {
        double df, t;
    } tail[] = {{30, 2.0423}, {40, 2.0211}, {60, 2.0003}, {120, 1.9799}};
    if (df == 0)
        return BL_ABSENT;
    if (df <= 30)
        return t[df - 1];
    /* Between tabulated points t is close to linear in 1/df. */
    for (size_t i = 0; i + 1 < sizeof tail / sizeof tail[0]; i++) {
        if ((double)df <= tail[i + 1].df) {
            double a = 1 / tail[i].df, b = 1 / tail[i + 1].df, x = 1 / (double)df;
            return tail[i].t + (tail[i + 1].t - tail[i].t) * (x - a) / (b - a);
        }
    }
    double a = 1.0 / 120, x = 1 / (double)df;
    return 1.95996 + (1.9799 - 1.95996) * x / a;
}

void bl_stat_finish(bl_stat *s, bl_repeats mode, int lower_better)
{
    s->fig = s->mean = s->median = s->min = s->max = s->sd = s->ci = BL_ABSENT;
    if (s->n == 0)
        return;
    double n = (double)s->n;
    s->mean = bl_xsum_value(&s->sum) / n;
    s->min = s->lo;
    s->max = s->hi;
    if (s->n >= 2) {
        /* n (n - 1) var = n sum(x^2) - sum(x)^2, exact before its one rounding */
        s->sd = sqrt(bl_xsum_spread(n, &s->sum, &s->sumsq) / n / (n - 1));
        s->ci = bl_t95(s->n - 1) * s->sd / sqrt((double)s->n);
    }
    if (s->keep) {
        double *sorted = bl_xmalloc(s->n * sizeof *sorted);
        memcpy(sorted, s->v, s->n * sizeof *sorted);
        qsort(sorted, s->n, sizeof *sorted, cmp_double);
        s->median = s->n % 2 ? sorted[s->n / 2] : (sorted[s->n / 2 - 1] + sorted[s->n / 2]) / 2;
        free(sorted);
    }
    switch (mode) {
    case BL_REP_MEDIAN:
        s->fig = s->median;
        break;
    case BL_REP_BEST:
        s->fig = lower_better ? s->min : s->max;
        break;
    default:
        s->fig = s->mean;
    }
}

static void xsum_copy(bl_xsum *to, const bl_xsum *from)
{
    *to = (bl_xsum){0};
    bl_xsum_merge(to, from);
}

void bl_stat_copy(bl_stat *to, const bl_stat *from)
{
    *to = *from;
    to->v = NULL;
    to->cap = 0;
    if (from->v && from->n) {
        to->v = bl_xmalloc(from->n * sizeof *to->v);
        memcpy(to->v, from->v, from->n * sizeof *to->v);
        to->cap = from->n;
    }
    xsum_copy(&to->sum, &from->sum);
    xsum_copy(&to->sumsq, &from->sumsq);
}

void bl_stat_free(bl_stat *s)
{
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
    bl_xsum_free(&s->sum);
    bl_xsum_free(&s->sumsq);
}

static const char *const names[] = {"mean", "median", "best", "all"};

int bl_repeats_from_name(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const char *bl_repeats_name(bl_repeats r)
{
    return (unsigned)r < 4 ? names[r] : "mean";
}
