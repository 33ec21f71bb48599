/* The latency distribution: share of I/Os per latency bin on a log latency axis; with one
 * record its median and 99th percentile are marked. */
#include "../core/strbuf.h"
#include "canvas.h"
#include "chart.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INK 0x1D2330

static const bl_lat *bins_of(const bl_record *r)
{
    return r->lat_ns.n_bins ? &r->lat_ns : &r->clat_ns;
}

/* Bin i spans the geometric midpoints to its neighbours. */
static void bin_edges(const bl_lat *l, size_t i, double *a, double *b)
{
    double v = l->bins[i].value;
    double prev =
        i ? l->bins[i - 1].value : v / (i + 1 < l->n_bins ? l->bins[i + 1].value / v : 1.25);
    double next = i + 1 < l->n_bins ? l->bins[i + 1].value : v * (v / prev);
    *a = sqrt(prev * v);
    *b = sqrt(v * next);
}

static double pct_value(const bl_lat *l, double total, double p)
{
    double cum = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        if ((cum += (double)l->bins[i].count) >= p / 100 * total)
            return l->bins[i].value;
    return l->bins[l->n_bins - 1].value;
}

static void mark(bl_canvas *c, const bl_axis *ax, double v, const char *what)
{
    double x = round(bl_axis_pos(ax, v, c->px0, c->px1)) + 0.5, s = c->s;
    static const double dash[] = {6, 4};
    cairo_set_dash(c->cr, dash, 2, 0);
    cairo_set_line_width(c->cr, 1.5 * s);
    bl_canvas_rgb(c, INK, 0.7);
    cairo_move_to(c->cr, x, c->py0);
    cairo_line_to(c->cr, x, c->py1);
    cairo_stroke(c->cr);
    cairo_set_dash(c->cr, NULL, 0, 0);
    char buf[64], lab[96];
    bl_tick_ns(v, buf, sizeof buf);
    snprintf(lab, sizeof lab, "%s %s", what, buf);
    bl_canvas_text(c, x + 6 * s, c->py0 + 4 * s, lab, 15, 1, 0, 0, INK, 0);
}

int bl_chart_histogram(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                       size_t errlen)
{
    const bl_record **rv = bl_xcalloc(recs->n + 1, sizeof *rv);
    size_t n = 0, total_recs = 0;
    double lo = INFINITY, hi = 0, top = 0;
    for (size_t i = 0; i < recs->n; i++) {
        const bl_lat *l = bins_of(recs->v[i]);
        if (!l->n_bins || !(l->bins[0].value > 0))
            continue;
        if (total_recs++ >= BL_CHART_MAX_CURVES)
            continue;
        double total = 0;
        for (size_t b = 0; b < l->n_bins; b++)
            total += (double)l->bins[b].count;
        for (size_t b = 0; b < l->n_bins && total > 0; b++) {
            double a, z;
            bin_edges(l, b, &a, &z);
            lo = fmin(lo, a);
            hi = fmax(hi, z);
            top = fmax(top, 100.0 * (double)l->bins[b].count / total);
        }
        rv[n++] = recs->v[i];
    }
    if (n == 0) {
        snprintf(err, errlen, "no record has a latency histogram (bins)");
        free(rv);
        return 1;
    }
    char **names = bl_xcalloc(n, sizeof *names);
    for (size_t i = 0; i < n; i++)
        names[i] = bl_chart_name(rv[i], o->by);
    char *title = bl_chart_title("Latency distribution", rv, n, o);
    char sub[160];
    snprintf(sub, sizeof sub, "share of I/Os per latency bin · log latency scale%s",
             total_recs > n ? " · first 10 records" : "");
    double s = c->s;
    bl_canvas_frame(c, title, sub, (const char *const *)names, n, 110 * s, 50 * s, 90 * s);
    bl_axis ax, ay;
    bl_axis_log(&ax, lo, hi);
    bl_axis_linear(&ay, 0, top);
    bl_canvas_xaxis(c, &ax, bl_tick_ns, "latency");
    bl_canvas_yaxis(c, &ay, bl_tick_plain, "% of I/Os");
    for (size_t i = 0; i < n; i++) {
        const bl_lat *l = bins_of(rv[i]);
        double total = 0;
        for (size_t b = 0; b < l->n_bins; b++)
            total += (double)l->bins[b].count;
        cairo_new_path(c->cr);
        for (size_t b = 0; b < l->n_bins; b++) {
            double a, z;
            bin_edges(l, b, &a, &z);
            double x0 = bl_axis_pos(&ax, a, c->px0, c->px1);
            double x1 = bl_axis_pos(&ax, z, c->px0, c->px1);
            double y = bl_axis_pos(&ay, 100.0 * (double)l->bins[b].count / total, c->py1, c->py0);
            if (b == 0)
                cairo_move_to(c->cr, x0, c->py1);
            cairo_line_to(c->cr, x0, y);
            cairo_line_to(c->cr, x1, y);
            if (b + 1 == l->n_bins)
                cairo_line_to(c->cr, x1, c->py1);
        }
        bl_canvas_color(c, i, n == 1 ? 0.85 : 0.25);
        cairo_fill_preserve(c->cr);
        bl_canvas_color(c, i, 1);
        cairo_set_line_width(c->cr, 2.5 * s);
        cairo_stroke(c->cr);
        if (n == 1) {
            mark(c, &ax, pct_value(l, total, 50), "p50");
            mark(c, &ax, pct_value(l, total, 99), "p99");
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(title);
    free(rv);
    return 0;
}
