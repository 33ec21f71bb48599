/* chart --kind trend: one set-up's test over time (compare/history.h): each run's figure with
 * its 95% CI, the mean of each segment between change points as a line, and each change point
 * marked with its change in per cent (red when worse, green when better). One series a chart:
 * the first of the records' series in history's order, the subtitle says how many there are. */
#include "../compare/history.h"
#include "../core/strbuf.h"
#include "canvas.h"
#include "chart.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define WORSE 0xc62828u
#define BETTER 0x2e7d32u

/* x is in days since the epoch: whole days as dates, parts of a day with the time. */
static void tick_day(double v, char *buf, size_t n)
{
    time_t t = (time_t)llround(v * 86400);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, fabs(v - round(v)) < 1e-6 ? "%Y-%m-%d" : "%m-%d %H:%M", &tm);
}

static double day(time_t t)
{
    return (double)t / 86400;
}

/* Figures in the unit the axis shows: latency in µs or ms, the rest as history has them. */
static double unit_scale(const bl_hist_series *s, double hi, const char **label)
{
    if (s->unit && strcmp(s->unit, "ns") == 0) {
        *label = hi >= 1e6 ? "ms" : "µs";
        return hi >= 1e6 ? 1e-6 : 1e-3;
    }
    *label = s->unit ? s->unit : "";
    return 1;
}

static void draw_points(bl_canvas *c, const bl_hist_series *s, const bl_axis *ax, const bl_axis *ay,
                        double k)
{
    cairo_set_line_width(c->cr, 2 * c->s);
    bl_canvas_color(c, 0, 1);
    for (size_t i = 0; i < s->n; i++) {
        const bl_stat *st = &s->p[i].s;
        double x = bl_axis_pos(ax, day(s->p[i].t), c->px0, c->px1);
        if (bl_present(st->ci)) {
            cairo_move_to(c->cr, x,
                          bl_axis_pos(ay, fmax(0, st->mean - st->ci) * k, c->py1, c->py0));
            cairo_line_to(c->cr, x, bl_axis_pos(ay, (st->mean + st->ci) * k, c->py1, c->py0));
            cairo_stroke(c->cr);
        }
        cairo_arc(c->cr, x, bl_axis_pos(ay, st->mean * k, c->py1, c->py0), 5 * c->s, 0, 2 * M_PI);
        cairo_fill(c->cr);
    }
}

/* The mean of each segment as a line over its runs, and a dashed line at each change. */
static void draw_segments(bl_canvas *c, const bl_hist_series *s, const bl_axis *ax,
                          const bl_axis *ay, double k)
{
    for (size_t g = 0; g <= s->cp.n; g++) {
        size_t from = g ? s->cp.v[g - 1].at : 0, to = g < s->cp.n ? s->cp.v[g].at : s->n;
        double sum = 0;
        for (size_t i = from; i < to; i++)
            sum += s->p[i].s.mean;
        double y = bl_axis_pos(ay, sum / (double)(to - from) * k, c->py1, c->py0);
        cairo_set_line_width(c->cr, 3 * c->s);
        bl_canvas_color(c, 1, 0.9);
        cairo_move_to(c->cr, bl_axis_pos(ax, day(s->p[from].t), c->px0, c->px1), y);
        cairo_line_to(c->cr, bl_axis_pos(ax, day(s->p[to - 1].t), c->px0, c->px1), y);
        cairo_stroke(c->cr);
    }
    for (size_t g = 0; g < s->cp.n; g++) {
        const bl_change *ch = &s->cp.v[g];
        double x = (bl_axis_pos(ax, day(s->p[ch->at - 1].t), c->px0, c->px1) +
                    bl_axis_pos(ax, day(s->p[ch->at].t), c->px0, c->px1)) /
                   2;
        unsigned rgb = ch->regression ? WORSE : BETTER;
        double dash = 8 * c->s;
        cairo_set_dash(c->cr, &dash, 1, 0);
        cairo_set_line_width(c->cr, 2 * c->s);
        bl_canvas_rgb(c, rgb, 1);
        cairo_move_to(c->cr, x, c->py0);
        cairo_line_to(c->cr, x, c->py1);
        cairo_stroke(c->cr);
        cairo_set_dash(c->cr, NULL, 0, 0);
        char label[64];
        if (bl_present(ch->pct))
            snprintf(label, sizeof label, "%+.1f%% (p=%.2g)", ch->pct, ch->p);
        else
            snprintf(label, sizeof label, "change (p=%.2g)", ch->p);
        bl_canvas_text(c, x + 6 * c->s, c->py0 + 6 * c->s, label, 16, 1, 0, 0, rgb, 0);
    }
}

int bl_chart_trend(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                   size_t errlen)
{
    const char *by[1] = {o->by};
    bl_metric m = o->has_metric ? (bl_metric)o->metric : BL_M_BW;
    bl_hist_opts ho = {.by = by, .n_by = o->by ? 1 : 0, .metrics = &m, .n_metrics = o->has_metric};
    bl_hist_builder *b = bl_history_begin(&ho);
    for (size_t i = 0; i < recs->n; i++)
        bl_history_add(b, recs->v[i]);
    bl_history *h = bl_history_end(b);
    if (h->n == 0) {
        snprintf(err, errlen, "no record has a test, a time and the figure to follow");
        bl_history_free(h);
        return 1;
    }
    const bl_hist_series *s = &h->v[0];
    double hi = 0, t0 = day(s->p[0].t), t1 = day(s->p[s->n - 1].t);
    for (size_t i = 0; i < s->n; i++)
        hi = fmax(hi, s->p[i].s.mean + (bl_present(s->p[i].s.ci) ? s->p[i].s.ci : 0));
    const char *unit;
    double k = unit_scale(s, hi, &unit);
    char title[512], sub[512];
    snprintf(title, sizeof title, "%s", o->title ? o->title : s->setup);
    snprintf(sub, sizeof sub, "%s · %s in %s (%s is better) · %s · %s%s%s", s->test,
             bl_metric_name(s->metric), *unit ? unit : "its unit",
             s->lower_better ? "lower" : "higher", bl_count(s->n, "point").s,
             bl_count(s->cp.n, "change").s,
             s->cp.too_short ? " (too few runs to look for any)" : "",
             h->n > 1 ? " · first of several series: narrow with FILTER" : "");
    const char *names[2] = {"runs (95% CI)", "segment mean"};
    double sc = c->s;
    bl_canvas_frame(c, title, sub, names, 2, 110 * sc, 50 * sc, 90 * sc);
    bl_axis ax = {floor(t0), t1 > floor(t0) ? ceil(t1 + 1e-9) : floor(t0) + 1, 0}, ay;
    if (ax.max - ax.min > 1 && t1 - t0 < 2) /* a day or two: keep the hours apart */
        ax = (bl_axis){t0 - 0.05, t1 + 0.05, 0};
    bl_axis_linear(&ay, 0, hi * k);
    bl_canvas_xaxis(c, &ax, tick_day, "when (UTC)");
    bl_canvas_yaxis(c, &ay, bl_tick_plain, unit);
    draw_segments(c, s, &ax, &ay, k);
    draw_points(c, s, &ax, &ay, k);
    bl_history_free(h);
    return 0;
}
