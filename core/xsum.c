#include "xsum.h"
#include "strbuf.h"
#include <math.h>
#include <stdlib.h>

void bl_xsum_add(bl_xsum *s, double x)
{
    if (!isfinite(x)) {
        s->special += x;
        return;
    }
    /* Each partial p with x: hi + lo == p + x exactly (two-sum); the non-zero lo stay. */
    size_t i = 0;
    for (size_t j = 0; j < s->n; j++) {
        double y = s->p[j];
        if (fabs(x) < fabs(y)) {
            double t = x;
            x = y;
            y = t;
        }
        double hi = x + y, lo = y - (hi - x);
        if (lo != 0)
            s->p[i++] = lo;
        x = hi;
    }
    bl_grow((void **)&s->p, &s->cap, i + 1, sizeof *s->p);
    s->p[i++] = x;
    s->n = i;
}

void bl_xsum_add_sq(bl_xsum *s, double x)
{
    double hi = x * x;
    bl_xsum_add(s, hi);
    if (isfinite(hi))
        bl_xsum_add(s, fma(x, x, -hi));
}

void bl_xsum_merge(bl_xsum *dst, const bl_xsum *src)
{
    for (size_t i = 0; i < src->n; i++)
        bl_xsum_add(dst, src->p[i]);
    if (src->special != 0 || isnan(src->special))
        dst->special += src->special;
}

double bl_xsum_value(const bl_xsum *s)
{
    if (s->special != 0 || isnan(s->special))
        return s->special;
    size_t n = s->n;
    if (n == 0)
        return 0;
    /* From the largest partial down until the rounding leaves something (Python's fsum). */
    double hi = s->p[--n], lo = 0;
    while (n > 0) {
        double x = hi, y = s->p[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0)
            break;
    }
    /* A tie broken the wrong way by the first rounding: the partials below say which. */
    if (n > 0 && ((lo < 0 && s->p[n - 1] < 0) || (lo > 0 && s->p[n - 1] > 0))) {
        double y = lo * 2, x = hi + y;
        if (y == x - hi)
            hi = x;
    }
    return hi;
}

/* Adds a * b exactly: the product and its rounding error. */
static void add_product(bl_xsum *s, double a, double b)
{
    double p = a * b;
    bl_xsum_add(s, p);
    if (isfinite(p))
        bl_xsum_add(s, fma(a, b, -p));
}

double bl_xsum_spread(double n, const bl_xsum *sum, const bl_xsum *sumsq)
{
    if (sum->special != 0 || isnan(sum->special) || sumsq->special != 0 || isnan(sumsq->special))
        return NAN;
    bl_xsum d = {0};
    for (size_t i = 0; i < sumsq->n; i++)
        add_product(&d, n, sumsq->p[i]);
    for (size_t i = 0; i < sum->n; i++)
        for (size_t j = 0; j < sum->n; j++)
            add_product(&d, -sum->p[i], sum->p[j]);
    double v = bl_xsum_value(&d);
    bl_xsum_free(&d);
    return v > 0 ? v : 0;
}

void bl_xsum_free(bl_xsum *s)
{
    free(s->p);
    s->p = NULL;
    s->n = s->cap = 0;
}
