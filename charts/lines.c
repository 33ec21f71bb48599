/* Curves: latency percentiles on a "nines" axis, and series over time. */
#include "../core/latency.h"
#include "../core/strbuf.h"
#include "canvas.h"
#include "chart.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INK 0x1D2330
#define MUTED 0x5B6475
#define GRID 0xE3E6EC

/* The latency a record's percentiles describe: total (lat), else completion (clat). */
static const bl_lat *lat_of(const bl_record *r, const char **name)
{
    if (r->lat_ns.n_pct || (!r->clat_ns.n_pct && r->lat_ns.n_bins)) {
        *name = "lat";
        return &r->lat_ns;
    }
    *name = "clat";
    return &r->clat_ns;
}

size_t bl_lat_pct_from_bins(const bl_lat *l, bl_pct *out, size_t cap)
{
    double v[32], total = (double)bl_lat_bin_total(l);
    size_t np = bl_fio_default_npcts < 32 ? bl_fio_default_npcts : 32, n = 0;
    bl_bins_percentiles(l->bins, l->n_bins, bl_fio_default_pcts, np, v);
    for (size_t k = 0; k < np && n < cap && total > 0; k++) {
        if ((1 - bl_fio_default_pcts[k] / 100) * total < 1)
            break; /* no I/O lies beyond: the point says nothing */
        if (bl_present(v[k]))
            out[n++] = (bl_pct){bl_fio_default_pcts[k], v[k]};
    }
    return n;
}

static double nines(double p)
{
    return -log10(1 - p / 100);
}

/* Unique legend names: the second "seqread · nas1" becomes "seqread · nas1 (2)". */
static char **curve_names(const bl_record *const *rv, size_t n, const char *by)
{
    char **names = bl_xcalloc(n + 1, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        names[i] = bl_chart_name(rv[i], by);
        size_t same = 1;
        for (size_t k = 0; k < i; k++)
            same += strncmp(names[k], names[i], strlen(names[i])) == 0;
        if (same > 1) {
            bl_strbuf sb;
            bl_strbuf_init(&sb);
            bl_strbuf_printf(&sb, "%s (%zu)", names[i], same);
            free(names[i]);
            names[i] = bl_strbuf_take(&sb);
        }
    }
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void polyline(bl_canvas *c, const double *x, const double *y, size_t n, size_t color,
                     int markers)
{
    cairo_set_line_width(c->cr, 3 * c->s);
    cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
    bl_canvas_color(c, color, 1);
    for (size_t i = 0; i < n; i++)
        (i ? cairo_line_to : cairo_move_to)(c->cr, x[i], y[i]);
    cairo_stroke(c->cr);
    for (size_t i = 0; markers && i < n; i++) {
        cairo_arc(c->cr, x[i], y[i], 5 * c->s, 0, 2 * M_PI);
        cairo_fill(c->cr);
    }
}

static void nines_axis(bl_canvas *c, double xmax)
{
    static const struct {
        double x;
        const char *label;
    } t[] = {{0, "0"},    {0.30103, "50"}, {1, "90"},     {2, "99"},
             {3, "99.9"}, {4, "99.99"},    {5, "99.999"}, {6, "99.9999"}};
    double s = c->s;
    cairo_set_line_width(c->cr, 1.2 * s);
    for (size_t i = 0; i < sizeof t / sizeof t[0] && t[i].x <= xmax + 1e-9; i++) {
        double x = round(c->px0 + t[i].x / xmax * (c->px1 - c->px0)) + 0.5;
        bl_canvas_rgb(c, GRID, 1);
        cairo_move_to(c->cr, x, c->py0);
        cairo_line_to(c->cr, x, c->py1);
        cairo_stroke(c->cr);
        bl_canvas_text(c, x, c->py1 + 8 * s, t[i].label, 16, 0, 0.5, 0, MUTED, 0);
    }
    bl_canvas_text(c, (c->px0 + c->px1) / 2, c->py1 + 38 * s, "percentile (%)", 18, 1, 0.5, 0, INK,
                   0);
}

/* The points of a curve (24 at most): the percentiles below 100% given, else from the bins. */
static size_t points_of(const bl_lat *l, bl_pct *pts)
{
    size_t m = 0;
    for (size_t p = 0; p < l->n_pct && m < 24; p++)
        if (l->pct[p].pct < 99.99999 && l->pct[p].value > 0)
            pts[m++] = l->pct[p];
    return m ? m : bl_lat_pct_from_bins(l, pts, 24);
}

int bl_chart_pick_pct(bl_chart_pick *p, const bl_record *r)
{
    const char *k;
    const bl_lat *l = lat_of(r, &k);
    if (!l->n_pct && !l->n_bins)
        return 0;
    bl_pct pts[24];
    if (p->n[0] < BL_CHART_MAX_CURVES && points_of(l, pts)) {
        p->n[0]++; /* drawn */
        return 1;
    }
    if (p->extra) /* one that is not drawn says "first 10 records" */
        return 0;
    p->extra = 1;
    return 1;
}

int bl_chart_percentiles(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                         size_t errlen)
{
    const bl_record **rv = bl_xcalloc(recs->n + 1, sizeof *rv);
    bl_pct(*pts)[24] = bl_xcalloc(BL_CHART_MAX_CURVES, sizeof *pts);
    size_t np[BL_CHART_MAX_CURVES], n = 0, total = 0;
    double lo = INFINITY, hi = 0, xmax = 1;
    const char *kind = NULL;
    for (size_t i = 0; i < recs->n; i++) {
        const char *k;
        const bl_lat *l = lat_of(recs->v[i], &k);
        if (!l->n_pct && !l->n_bins)
            continue;
        total++;
        if (n == BL_CHART_MAX_CURVES)
            continue;
        size_t m = points_of(l, pts[n]);
        if (!m)
            continue;
        for (size_t p = 0; p < m; p++) {
            lo = fmin(lo, pts[n][p].value);
            hi = fmax(hi, pts[n][p].value);
            xmax = fmax(xmax, ceil(nines(pts[n][p].pct) - 1e-9));
        }
        kind = !kind || strcmp(kind, k) == 0 ? k : "mixed";
        np[n] = m;
        rv[n++] = recs->v[i];
    }
    if (n == 0) {
        snprintf(err, errlen, "no record has latency percentiles or a latency histogram");
        free(rv);
        free(pts);
        return 1;
    }
    char **names = curve_names(rv, n, o->by);
    char *title = bl_chart_title("Latency percentiles", rv, n, o);
    char sub[256];
    snprintf(sub, sizeof sub, "%s · log scale%s",
             strcmp(kind, "lat") == 0 ? "total latency (lat)"
             : strcmp(kind, "clat") == 0
                 ? "completion latency (clat)"
                 : "total latency (lat) where reported, else completion (clat)",
             total > n ? " · first 10 records" : "");
    double s = c->s;
    bl_canvas_frame(c, title, sub, (const char *const *)names, n, 120 * s, 50 * s, 90 * s);
    bl_axis ay;
    bl_axis_log(&ay, lo, hi);
    bl_canvas_yaxis(c, &ay, bl_tick_ns, "latency");
    nines_axis(c, xmax);
    double x[24], y[24];
    for (size_t i = 0; i < n; i++) {
        for (size_t p = 0; p < np[i]; p++) {
            x[p] = c->px0 + nines(pts[i][p].pct) / xmax * (c->px1 - c->px0);
            y[p] = bl_axis_pos(&ay, pts[i][p].value, c->py1, c->py0);
        }
        polyline(c, x, y, np[i], i, 1);
    }
    free_names(names, n);
    free(title);
    free(rv);
    free(pts);
    return 0;
}

static const bl_series *find_series(const bl_record *r, const char *name)
{
    for (size_t i = 0; i < r->n_series; i++)
        if (strcmp(r->series[i].name, name) == 0 && r->series[i].n)
            return &r->series[i];
    return NULL;
}

/* Display unit of a series: MB/s for bytes/s, IOPS, and µs or ms for latency. */
static double unit_scale(const char *unit, double hi, const char **label)
{
    if (strcmp(unit, "bytes/s") == 0) {
        *label = "MB/s";
        return 1e-6;
    }
    if (strcmp(unit, "ns") == 0) {
        *label = hi >= 1e6 ? "ms" : "µs";
        return hi >= 1e6 ? 1e-6 : 1e-3;
    }
    *label = strcmp(unit, "IO/s") == 0 ? "IOPS" : unit;
    return 1;
}

static const char *const prefer[] = {"bw", "iops", "lat", "clat", "slat"};

int bl_chart_pick_series(bl_chart_pick *p, const bl_chart_opts *o, const bl_record *r)
{
    int keep = 0;
    for (size_t k = 0; k < (o->series ? 1 : 5); k++) {
        if (p->n[k] > BL_CHART_MAX_CURVES || !find_series(r, o->series ? o->series : prefer[k]))
            continue;
        p->n[k]++; /* the first 10 of the series drawn, one more says "first 10 records" */
        keep = 1;
    }
    return keep;
}

int bl_chart_timeline(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                      size_t errlen)
{
    const char *want = o->series;
    for (size_t k = 0; !want && k < 5; k++)
        for (size_t i = 0; i < recs->n && !want; i++)
            if (find_series(recs->v[i], prefer[k]))
                want = prefer[k];
    const bl_record **rv = bl_xcalloc(recs->n + 1, sizeof *rv);
    const bl_series **sv = bl_xcalloc(recs->n + 1, sizeof *sv);
    size_t n = 0, total = 0;
    double t0 = INFINITY, t1 = -INFINITY, hi = 0;
    for (size_t i = 0; want && i < recs->n; i++) {
        const bl_series *se = find_series(recs->v[i], want);
        if (!se)
            continue;
        if (total++ >= BL_CHART_MAX_CURVES)
            continue;
        for (size_t p = 0; p < se->n; p++) {
            t0 = fmin(t0, se->t[p]);
            t1 = fmax(t1, se->t[p]);
            hi = fmax(hi, se->v[p]);
        }
        rv[n] = recs->v[i];
        sv[n++] = se;
    }
    if (n == 0) {
        if (want)
            snprintf(err, errlen, "no record has a '%s' series over time", want);
        else
            snprintf(err, errlen, "no record has a series over time");
        free(rv);
        free(sv);
        return 1;
    }
    const char *unit;
    double k = unit_scale(sv[0]->unit ? sv[0]->unit : "", hi, &unit);
    char **names = curve_names(rv, n, o->by);
    char *title = bl_chart_title(strcmp(want, "bw") == 0     ? "Bandwidth over time"
                                 : strcmp(want, "iops") == 0 ? "IOPS over time"
                                                             : "Latency over time",
                                 rv, n, o);
    char sub[256];
    snprintf(sub, sizeof sub, "series %s in %s%s", want, unit,
             total > n ? " · first 10 records" : "");
    double s = c->s;
    bl_canvas_frame(c, title, sub, (const char *const *)names, n, 110 * s, 50 * s, 90 * s);
    bl_axis ax, ay;
    bl_axis_linear(&ax, t0 < 0 ? t0 : 0, t1);
    ax.max = t1 > 0 ? t1 : 1; /* time ends where the run ended */
    bl_axis_linear(&ay, 0, hi * k);
    bl_canvas_xaxis(c, &ax, bl_tick_plain, "time (s)");
    bl_canvas_yaxis(c, &ay, bl_tick_plain, unit);
    for (size_t i = 0; i < n; i++) {
        double *x = bl_xmalloc(sv[i]->n * sizeof *x), *y = bl_xmalloc(sv[i]->n * sizeof *y);
        for (size_t p = 0; p < sv[i]->n; p++) {
            x[p] = bl_axis_pos(&ax, sv[i]->t[p], c->px0, c->px1);
            y[p] = bl_axis_pos(&ay, sv[i]->v[p] * k, c->py1, c->py0);
        }
        polyline(c, x, y, sv[i]->n, i, sv[i]->n <= 60);
        free(x);
        free(y);
    }
    free_names(names, n);
    free(title);
    free(rv);
    free(sv);
    return 0;
}
