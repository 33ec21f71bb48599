/* The scaling chart: IOPS (or MB/s) against the swept parameter on a log2 axis, one line per
 * combination of what else varies (numjobs, bs, ...), with the 95% CI of repeats as whiskers;
 * below it, mean latency (solid) and p99 (dashed) on a log axis over the same x. The matrix is
 * compare/scaling.h's: the same one `benchlog chart --kind scaling -o x.csv` writes as a table. */
#include "../compare/fmt.h"
#include "../compare/scaling.h"
#include "../compare/table.h"
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

/* The log2 x axis: from half a step below the smallest x to half a step above the largest. */
typedef struct xaxis {
    double lo, hi; /* log2 */
} xaxis;

static double xpos(const bl_canvas *c, const xaxis *a, double x)
{
    return c->px0 + (log2(x) - a->lo) / (a->hi - a->lo) * (c->px1 - c->px0);
}

static void x_label(bl_scale_param p, int64_t x, char *buf, size_t n)
{
    if (p != BL_SCALE_BS) {
        snprintf(buf, n, "%lld", (long long)x);
        return;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_fmt_size(&sb, x);
    snprintf(buf, n, "%s", sb.s);
    bl_strbuf_free(&sb);
}

/* Grid and labels at every x the matrix has. */
static void draw_x(bl_canvas *c, const xaxis *a, const bl_scaling *m, bool labels)
{
    double s = c->s;
    cairo_set_line_width(c->cr, 1.2 * s);
    for (size_t l = 0; l < m->n; l++)
        for (size_t i = 0; i < m->v[l].n; i++) {
            int64_t x = m->v[l].v[i].x;
            double px = round(xpos(c, a, (double)x)) + 0.5;
            bl_canvas_rgb(c, GRID, 1);
            cairo_move_to(c->cr, px, c->py0);
            cairo_line_to(c->cr, px, c->py1);
            cairo_stroke(c->cr);
            if (!labels)
                continue;
            char buf[32];
            x_label(m->x, x, buf, sizeof buf);
            bl_canvas_text(c, px, c->py1 + 8 * s, buf, 16, 0, 0.5, 0, MUTED, 0);
        }
    bl_canvas_rgb(c, MUTED, 1);
    cairo_move_to(c->cr, c->px0, c->py1 + 0.5);
    cairo_line_to(c->cr, c->px1, c->py1 + 0.5);
    cairo_stroke(c->cr);
    if (labels) {
        char name[64];
        snprintf(name, sizeof name, "%s (log2 scale)", bl_scale_param_name(m->x));
        bl_canvas_text(c, (c->px0 + c->px1) / 2, c->py1 + 36 * s, name, 18, 1, 0.5, 0, INK, 0);
    }
}

static void line(bl_canvas *c, const double *x, const double *y, size_t n, size_t color,
                 bool dashed)
{
    double s = c->s, dash[] = {10 * s, 7 * s};
    cairo_set_line_width(c->cr, (dashed ? 2.2 : 3) * s);
    cairo_set_dash(c->cr, dash, dashed ? 2 : 0, 0);
    bl_canvas_color(c, color, dashed ? 0.8 : 1);
    for (size_t i = 0, k = 0; i < n; i++) {
        if (!isfinite(y[i]))
            continue;
        (k++ ? cairo_line_to : cairo_move_to)(c->cr, x[i], y[i]);
    }
    cairo_stroke(c->cr);
    cairo_set_dash(c->cr, NULL, 0, 0);
    for (size_t i = 0; i < n; i++)
        if (isfinite(y[i])) {
            cairo_arc(c->cr, x[i], y[i], (dashed ? 4 : 5.5) * s, 0, 2 * M_PI);
            cairo_fill(c->cr);
        }
}

static const bl_stat *throughput(const bl_scale_point *p, bool mbs)
{
    return mbs ? &p->bw : &p->iops;
}

static void throughput_panel(bl_canvas *c, const xaxis *xa, const bl_scaling *m, size_t nl,
                             bool mbs)
{
    double hi = 0, k = mbs ? 1e-6 : 1, s = c->s;
    for (size_t l = 0; l < nl; l++)
        for (size_t i = 0; i < m->v[l].n; i++) {
            const bl_stat *st = throughput(&m->v[l].v[i], mbs);
            if (st->n) /* the figures set the scale; a wide CI (two repeats) is cut */
                hi = fmax(hi, st->fig * k);
        }
    bl_axis ay;
    bl_axis_linear(&ay, 0, hi > 0 ? hi : 1);
    draw_x(c, xa, m, false);
    bl_canvas_yaxis(c, &ay, bl_tick_plain, mbs ? "MB/s" : "IOPS");
    cairo_save(c->cr);
    cairo_rectangle(c->cr, c->px0, c->py0 - 8 * s, c->px1 - c->px0, c->py1 - c->py0 + 8 * s);
    cairo_clip(c->cr);
    for (size_t l = 0; l < nl; l++) {
        const bl_scale_line *ln = &m->v[l];
        double *x = bl_xcalloc(ln->n + 1, sizeof *x), *y = bl_xcalloc(ln->n + 1, sizeof *y);
        for (size_t i = 0; i < ln->n; i++) {
            const bl_stat *st = throughput(&ln->v[i], mbs);
            x[i] = xpos(c, xa, (double)ln->v[i].x);
            y[i] = st->n ? bl_axis_pos(&ay, st->fig * k, c->py1, c->py0) : NAN;
            if (st->n > 1 && bl_present(st->ci)) { /* the repeats' 95% CI */
                double y0 = bl_axis_pos(&ay, (st->fig - st->ci) * k, c->py1, c->py0);
                double y1 = bl_axis_pos(&ay, (st->fig + st->ci) * k, c->py1, c->py0);
                bl_canvas_color(c, l, 1);
                cairo_set_line_width(c->cr, 2 * s);
                cairo_move_to(c->cr, x[i], y0);
                cairo_line_to(c->cr, x[i], y1);
                cairo_move_to(c->cr, x[i] - 7 * s, y0);
                cairo_line_to(c->cr, x[i] + 7 * s, y0);
                cairo_move_to(c->cr, x[i] - 7 * s, y1);
                cairo_line_to(c->cr, x[i] + 7 * s, y1);
                cairo_stroke(c->cr);
            }
        }
        line(c, x, y, ln->n, l, false);
        free(x);
        free(y);
    }
    cairo_restore(c->cr);
}

static void latency_panel(bl_canvas *c, const xaxis *xa, const bl_scaling *m, size_t nl)
{
    double lo = INFINITY, hi = 0;
    for (size_t l = 0; l < nl; l++)
        for (size_t i = 0; i < m->v[l].n; i++) {
            const bl_scale_point *p = &m->v[l].v[i];
            if (p->lat.n && p->lat.fig > 0)
                lo = fmin(lo, p->lat.fig), hi = fmax(hi, p->lat.fig);
            if (p->p99.n && p->p99.fig > 0)
                lo = fmin(lo, p->p99.fig), hi = fmax(hi, p->p99.fig);
        }
    if (!(hi > 0)) {
        bl_canvas_text(c, (c->px0 + c->px1) / 2, (c->py0 + c->py1) / 2,
                       "no latency in these records", 18, 0, 0.5, 0.5, MUTED, 0);
        draw_x(c, xa, m, true);
        return;
    }
    bl_axis ay;
    bl_axis_log(&ay, lo, hi);
    draw_x(c, xa, m, true);
    bl_canvas_yaxis(c, &ay, bl_tick_ns, "latency");
    for (size_t l = 0; l < nl; l++) {
        const bl_scale_line *ln = &m->v[l];
        double *x = bl_xcalloc(ln->n + 1, sizeof *x), *y = bl_xcalloc(ln->n + 1, sizeof *y);
        for (int pass = 0; pass < 2; pass++) {
            for (size_t i = 0; i < ln->n; i++) {
                const bl_stat *st = pass ? &ln->v[i].p99 : &ln->v[i].lat;
                x[i] = xpos(c, xa, (double)ln->v[i].x);
                y[i] = st->n && st->fig > 0 ? bl_axis_pos(&ay, st->fig, c->py1, c->py0) : NAN;
            }
            line(c, x, y, ln->n, l, pass == 1);
        }
        free(x);
        free(y);
    }
}

int bl_chart_scaling(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                     size_t errlen)
{
    bl_scaling m;
    if (bl_scaling_build(recs, o->by, o->repeats, &m, err, errlen) != 0)
        return 1;
    size_t nl = m.n < BL_CHART_MAX_CURVES ? m.n : BL_CHART_MAX_CURVES;
    /* MB/s when asked, or when the block size is what varies along x (IOPS then only falls). */
    bool mbs = o->has_metric ? o->metric == BL_M_BW : m.x == BL_SCALE_BS;
    double xlo = INFINITY, xhi = 0;
    size_t repeats = 1;
    for (size_t l = 0; l < m.n; l++)
        for (size_t i = 0; i < m.v[l].n; i++) {
            xlo = fmin(xlo, (double)m.v[l].v[i].x);
            xhi = fmax(xhi, (double)m.v[l].v[i].x);
            repeats = m.v[l].v[i].iops.n > repeats ? m.v[l].v[i].iops.n : repeats;
        }
    xaxis xa = {log2(xlo > 0 ? xlo : 1) - 0.5, log2(xhi > 0 ? xhi : 1) + 0.5};
    const char **names = bl_xcalloc(nl + 1, sizeof *names);
    for (size_t l = 0; l < nl; l++)
        names[l] = *m.v[l].name ? m.v[l].name : "all records";
    const bl_record **rv = bl_xcalloc(recs->n + 1, sizeof *rv);
    for (size_t i = 0; i < recs->n; i++)
        rv[i] = recs->v[i];
    char what[96];
    snprintf(what, sizeof what, "%s against %s", mbs ? "MB/s" : "IOPS", bl_scale_param_name(m.x));
    char *title = bl_chart_title(what, rv, recs->n, o);
    bl_strbuf sub;
    bl_strbuf_init(&sub);
    static const char *const kinds[] = {"total", "completion", "total (else completion)"};
    if (m.lat_kind == m.p99_kind)
        bl_strbuf_printf(&sub, "below: %s latency, mean (solid) and p99 (dashed)",
                         kinds[m.lat_kind]);
    else
        bl_strbuf_printf(&sub, "below: mean %s latency (solid), p99 %s latency (dashed)",
                         kinds[m.lat_kind], kinds[m.p99_kind]);
    if (repeats > 1)
        bl_strbuf_printf(&sub,
                         " · up to %zu repeats a point: %s, whiskers 95%% CI (cut at the panel)",
                         repeats, bl_repeats_name(o->repeats));
    if (m.n > nl)
        bl_strbuf_printf(&sub, " · first %zu of %zu lines", nl, m.n);
    if (m.left_out)
        bl_strbuf_printf(&sub, " · %s without %s or figures left out",
                         bl_count(m.left_out, "record").s, bl_scale_param_name(m.x));
    double s = c->s;
    bl_canvas_frame(c, title, sub.s, names, nl, 120 * s, 50 * s, 80 * s);
    double top = c->py0, bottom = c->py1, split = top + (bottom - top) * 0.56;
    c->py1 = split - 14 * s;
    throughput_panel(c, &xa, &m, nl, mbs);
    c->py0 = split + 14 * s;
    c->py1 = bottom;
    latency_panel(c, &xa, &m, nl);
    c->py0 = top;
    bl_strbuf_free(&sub);
    free(title);
    free(rv);
    free(names);
    bl_scaling_free(&m);
    return 0;
}
