/* The latency distribution: share of I/Os per latency bin on a log latency axis; with one
 * record its median and 99th percentile are marked. */
#include "../core/latency.h"
#include "../core/strbuf.h"
#include "../compare/fmt.h"
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

/* fio's histograms have up to 1,856 fine bins; drawn as they are they are noise. They are
 * summed into display bins of a tenth of a decade (ten per 10×), the share of I/Os in each. */
#define PER_DECADE 10
#define MAX_DBINS 160 /* 16 decades: 1 ns .. 10^16 ns */

static size_t display_bins(const bl_lat *l, double *share, size_t *first)
{
    double total = (double)bl_lat_bin_total(l);
    memset(share, 0, MAX_DBINS * sizeof *share);
    size_t lo = MAX_DBINS, hi = 0;
    for (size_t b = 0; b < l->n_bins && total > 0; b++) {
        if (!(l->bins[b].value >= 1) || !l->bins[b].count)
            continue;
        double k = floor(log10(l->bins[b].value) * PER_DECADE + 1e-9);
        size_t i = k < 0 ? 0 : k >= MAX_DBINS ? MAX_DBINS - 1 : (size_t)k;
        share[i] += 100.0 * (double)l->bins[b].count / total;
        lo = i < lo ? i : lo;
        hi = i > hi ? i : hi;
    }
    *first = lo;
    return lo == MAX_DBINS ? 0 : hi - lo + 1;
}

static double edge(size_t i)
{
    return pow(10, (double)i / PER_DECADE);
}

static double pct_value(const bl_lat *l, double p)
{
    double v;
    bl_bins_percentiles(l->bins, l->n_bins, &p, 1, &v);
    return v;
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
    bl_strbuf lab;
    bl_strbuf_init(&lab);
    bl_strbuf_printf(&lab, "%s ", what);
    bl_fmt_ns(&lab, v);
    bl_canvas_text(c, x + 6 * s, c->py0 + 4 * s, lab.s, 15, 1, 0, 0, INK, 0);
    bl_strbuf_free(&lab);
}

static void draw_one(bl_canvas *c, const bl_axis *ax, const bl_axis *ay, const bl_lat *l, size_t i,
                     size_t n)
{
    double share[MAX_DBINS];
    size_t first, nb = display_bins(l, share, &first);
    cairo_new_path(c->cr);
    for (size_t b = first; b < first + nb; b++) {
        double x0 = bl_axis_pos(ax, edge(b), c->px0, c->px1);
        double x1 = bl_axis_pos(ax, edge(b + 1), c->px0, c->px1);
        double y = bl_axis_pos(ay, share[b], c->py1, c->py0);
        if (b == first)
            cairo_move_to(c->cr, x0, c->py1);
        cairo_line_to(c->cr, x0, y);
        cairo_line_to(c->cr, x1, y);
    }
    cairo_line_to(c->cr, bl_axis_pos(ax, edge(first + nb), c->px0, c->px1), c->py1);
    /* Filled when one or two, outlines when more: overlapping fills turn to mud. */
    if (n <= 2) {
        bl_canvas_color(c, i, n == 1 ? 0.85 : 0.35);
        cairo_fill_preserve(c->cr);
    }
    bl_canvas_color(c, i, 1);
    cairo_set_line_width(c->cr, 2.5 * c->s);
    cairo_stroke(c->cr);
    if (n == 1) {
        mark(c, ax, pct_value(l, 50), "p50");
        mark(c, ax, pct_value(l, 99), "p99");
    }
}

int bl_chart_pick_bins(bl_chart_pick *p, const bl_record *r)
{
    double share[MAX_DBINS];
    size_t first;
    const bl_lat *l = bins_of(r);
    if (!l->n_bins || !display_bins(l, share, &first) || p->n[0] > BL_CHART_MAX_CURVES)
        return 0;
    p->n[0]++; /* the first 10 drawn, one more says "first 10 records" */
    return 1;
}

int bl_chart_histogram(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                       size_t errlen)
{
    const bl_record **rv = bl_xcalloc(recs->n + 1, sizeof *rv);
    size_t n = 0, total_recs = 0;
    double lo = INFINITY, hi = 0, top = 0, share[MAX_DBINS];
    for (size_t i = 0; i < recs->n; i++) {
        const bl_lat *l = bins_of(recs->v[i]);
        size_t first, nb = l->n_bins ? display_bins(l, share, &first) : 0;
        if (!nb)
            continue;
        if (total_recs++ >= BL_CHART_MAX_CURVES)
            continue;
        lo = fmin(lo, edge(first));
        hi = fmax(hi, edge(first + nb));
        for (size_t b = first; b < first + nb; b++)
            top = fmax(top, share[b]);
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
    snprintf(sub, sizeof sub, "share of I/Os per tenth of a decade of latency · log scale%s",
             total_recs > n ? " · first 10 records" : "");
    double s = c->s;
    bl_canvas_frame(c, title, sub, (const char *const *)names, n, 110 * s, 50 * s, 90 * s);
    bl_axis ax, ay;
    bl_axis_log(&ax, lo, hi);
    bl_axis_linear(&ay, 0, top);
    bl_canvas_xaxis(c, &ax, bl_tick_ns, "latency");
    bl_canvas_yaxis(c, &ay, bl_tick_plain, "% of I/Os");
    for (size_t i = 0; i < n; i++)
        draw_one(c, &ax, &ay, bins_of(rv[i]), i, n);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(title);
    free(rv);
    return 0;
}
