/* The figures check (figures.h), walking the field table so that a new field is checked by
 * its kind and unit without a line here. */
#include "figures.h"
#include "fields.h"
#include "strbuf.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct bound {
    double max;       /* HUGE_VAL: finite is enough */
    int signed_ok;    /* a figure of no known unit may be negative */
    const char *what; /* "IO/s", for the message */
} bound;

/* Called for every present figure of every record: the first letter picks the one unit it
 * can be, so that a figure costs one strcmp. */
static bound bound_of(const char *unit)
{
    if (!unit || !*unit)
        return (bound){BL_MAX_BYTES_S, 1, ""}; /* "value": a figure of the test's own unit */
    switch (unit[0]) {
    case 'b':
        if (strcmp(unit, "bytes/s") == 0)
            return (bound){BL_MAX_BYTES_S, 0, "bytes/s"};
        if (strcmp(unit, "bytes") == 0)
            return (bound){BL_MAX_BYTES, 0, "bytes"};
        break;
    case '1':
    case 'I':
        if (strcmp(unit, "1/s") == 0 || strcmp(unit, "IO/s") == 0)
            return (bound){BL_MAX_IOPS, 0, "IO/s"};
        break;
    case 'n':
        if (strcmp(unit, "ns") == 0)
            return (bound){BL_MAX_LAT_NS, 0, "ns"};
        break;
    case 's':
        if (strcmp(unit, "s") == 0)
            return (bound){BL_MAX_RUNTIME_S, 0, "s"};
        break;
    }
    return (bound){HUGE_VAL, 0, unit}; /* "%": shares of CPUs (bonnie++'s pass 100) */
}

static int refuse(char *why, size_t n, const char *field, const char *sub, double v,
                  const char *what)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s%s%s ", field, *sub ? "." : "", sub);
    if (isinf(v))
        bl_strbuf_puts(&sb, v > 0 ? "infinite" : "-infinite");
    else
        bl_strbuf_put_double(&sb, v);
    snprintf(why, n, "%s %s", sb.s, what);
    bl_strbuf_free(&sb);
    return -1;
}

/* One figure against its bound; absent (NaN) passes. */
static int check(double v, bound b, const char *field, const char *sub, char *why, size_t n)
{
    if (isnan(v))
        return 0;
    char what[96];
    if (isinf(v))
        return refuse(why, n, field, sub, v, "is no figure");
    if (v < 0 && !b.signed_ok)
        return refuse(why, n, field, sub, v, "is negative, which this quantity cannot be");
    if (fabs(v) > b.max) {
        double e = round(log10(b.max));
        if (pow(10, e) == b.max)
            snprintf(what, sizeof what, "is beyond any storage device (at most 10^%.0f %s)", e,
                     b.what);
        else
            snprintf(what, sizeof what, "is beyond any storage device (at most %g %s)", b.max,
                     b.what);
        return refuse(why, n, field, sub, v, what);
    }
    return 0;
}

static int check_count(int64_t v, const char *field, const char *sub, char *why, size_t n)
{
    if (v >= -1) /* -1: absent */
        return 0;
    return refuse(why, n, field, sub, (double)v, "is negative, which this quantity cannot be");
}

static int check_lat(const bl_lat *l, bound b, const char *name, char *why, size_t n)
{
    if (!l->present)
        return 0;
    if (check(l->min, b, name, "min", why, n) || check(l->max, b, name, "max", why, n) ||
        check(l->mean, b, name, "mean", why, n) || check(l->stdev, b, name, "stdev", why, n))
        return -1;
    bound pct = {100, 0, "%"};
    for (size_t i = 0; i < l->n_pct; i++)
        if (check(l->pct[i].pct, pct, name, "p", why, n) ||
            check(l->pct[i].value, b, name, "p", why, n))
            return -1;
    for (size_t i = 0; i < l->n_bins; i++)
        if (check(l->bins[i].value, b, name, "bins", why, n))
            return -1;
    return 0;
}

static int check_samples(const bl_samples *s, bound b, const char *name, char *why, size_t n)
{
    if (!s->present)
        return 0;
    return check(s->min, b, name, "min", why, n) || check(s->max, b, name, "max", why, n) ||
                   check(s->mean, b, name, "mean", why, n) ||
                   check(s->stdev, b, name, "stdev", why, n) ||
                   check_count(s->count, name, "samples", why, n)
               ? -1
               : 0;
}

static int check_dist(const bl_dist *d, const char *name, char *why, size_t n)
{
    bound any = {HUGE_VAL, 0, ""};
    for (size_t i = 0; i < d->n; i++)
        if (check(d->v[i].at, any, name, "at", why, n) || check(d->v[i].pct, any, name, "", why, n))
            return -1;
    return 0;
}

static int check_disks(const bl_record *r, const char *name, char *why, size_t n)
{
    bound any = {HUGE_VAL, 0, ""};
    for (size_t i = 0; i < r->n_disks; i++) {
        const bl_disk *d = &r->disks[i];
        if (check_count(d->read_ios, name, "read_ios", why, n) ||
            check_count(d->write_ios, name, "write_ios", why, n) ||
            check_count(d->read_merges, name, "read_merges", why, n) ||
            check_count(d->write_merges, name, "write_merges", why, n) ||
            check(d->read_ticks_s, any, name, "read_ticks", why, n) ||
            check(d->write_ticks_s, any, name, "write_ticks", why, n) ||
            check(d->in_queue_s, any, name, "in_queue", why, n) ||
            check(d->util_pct, any, name, "util", why, n))
            return -1;
    }
    return 0;
}

static int check_series(const bl_record *r, const char *name, char *why, size_t n)
{
    for (size_t i = 0; i < r->n_series; i++) {
        const bl_series *s = &r->series[i];
        bound b = bound_of(s->unit);
        bound t = {HUGE_VAL, 1, "s"};
        for (size_t k = 0; k < s->n; k++)
            if (check(s->t[k], t, name, s->name ? s->name : "", why, n) ||
                check(s->v[k], b, name, s->name ? s->name : "", why, n))
                return -1;
    }
    return 0;
}

/* A field's bound is looked up only when it holds a figure: most of a record's fields are
 * absent or strings. */
static int check_field(const bl_field *f, const bl_record *r, char *why, size_t n)
{
    switch (f->kind) {
    case BL_FK_INT: {
        int64_t v = *BL_CFIELD(r, f, int64_t);
        if (check_count(v, f->name, "", why, n))
            return -1;
        return f->unit && v > 0 ? check((double)v, bound_of(f->unit), f->name, "", why, n) : 0;
    }
    case BL_FK_NUM: {
        double v = *BL_CFIELD(r, f, double);
        return isnan(v) ? 0 : check(v, bound_of(f->unit), f->name, "", why, n);
    }
    case BL_FK_LAT: {
        const bl_lat *l = BL_CFIELD(r, f, bl_lat);
        return l->present ? check_lat(l, bound_of(f->unit), f->name, why, n) : 0;
    }
    case BL_FK_SAMPLES: {
        const bl_samples *s = BL_CFIELD(r, f, bl_samples);
        return s->present ? check_samples(s, bound_of(f->unit), f->name, why, n) : 0;
    }
    case BL_FK_DIST:
        return check_dist(BL_CFIELD(r, f, bl_dist), f->name, why, n);
    case BL_FK_DISKS:
        return check_disks(r, f->name, why, n);
    case BL_FK_SERIES:
        return check_series(r, f->name, why, n);
    default:
        return 0;
    }
}

int bl_figures_check(const bl_record *r, char *why, size_t n)
{
    for (size_t i = 0; i < bl_n_fields; i++)
        if (check_field(&bl_fields[i], r, why, n))
            return -1;
    return 0;
}
