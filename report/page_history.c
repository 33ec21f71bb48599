/* The page's trends (page_history.h), drawn from compare/history.h's series. */
#include "page_history.h"
#include "../core/record.h"
#include "../compare/fmt.h"
#include "page.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { W = 760, H = 250, ML = 70, MR = 16, MT = 30, MB = 36 };

static const char css[] =
    "<style>section.trend{margin:1rem 0 1.6rem}section.trend h3{font-size:1rem;margin:.2rem 0;"
    "overflow-wrap:anywhere}svg.trend{width:100%;max-width:760px;height:auto;font-size:13px}"
    "svg.trend .grid{stroke:#e3e6ec}svg.trend .ci{stroke:#5b6475;stroke-width:1.2}"
    "svg.trend .pt{fill:#1f5fbf}svg.trend .seg{stroke:#1d2330;stroke-width:2}"
    "svg.trend .cp{stroke-width:1.5;stroke-dasharray:5 4}svg.trend .worse{stroke:#c0392b;"
    "fill:#c0392b}svg.trend .better{stroke:#1e8449;fill:#1e8449}svg.trend text{fill:#1d2330}"
    "svg.trend text.ax{fill:#5b6475}svg.trend text.worse{stroke:none;fill:#c0392b;"
    "font-weight:600}svg.trend text.better{stroke:none;fill:#1e8449;font-weight:600}"
    ".trend .chg{font-weight:600}.trend .chg.worse{color:#c0392b}.trend .chg.better{color:#1e8449}"
    "p.hlinks{font-size:.85rem;margin:.3rem 0;overflow-wrap:anywhere}"
    "table.pts td{text-align:right}table.pts td:first-child{text-align:left}"
    "@media (max-width:640px){svg.trend{font-size:19px}}</style>\n";

/* A figure with its unit, escaped: a test's own unit comes from the text (a pattern file's). */
static void put_fig(bl_strbuf *out, const bl_hist_series *s, double v)
{
    bl_strbuf tmp;
    bl_strbuf_init(&tmp);
    bl_page_fig(&tmp, s->metric, v, s->unit);
    bl_page_esc(out, tmp.s ? tmp.s : "");
    bl_strbuf_free(&tmp);
}

static int shown(const bl_hist_series *s)
{
    return s->n > 1;
}

static int has_source(const bl_hist_series *s, const char *src)
{
    for (size_t i = 0; i < s->n_sources; i++)
        if (strcmp(s->sources[i], src) == 0)
            return 1;
    return 0;
}

static void put_title(bl_strbuf *out, const bl_hist_series *s)
{
    bl_page_esc(out, s->setup);
    bl_strbuf_puts(out, " — ");
    bl_page_esc(out, s->test);
}

void bl_page_history_links(bl_strbuf *out, const bl_history *h, const bl_group *g)
{
    size_t n = 0;
    for (size_t i = 0; h && i < h->n; i++) {
        const bl_hist_series *s = &h->v[i];
        if (!shown(s) || !has_source(s, g->name))
            continue;
        bl_strbuf_puts(out, n ? " · " : "<p class=\"hlinks\">Over time: ");
        bl_strbuf_printf(out, "<a href=\"#h%zu\">", i + 1);
        put_title(out, s);
        bl_strbuf_printf(out, "</a> (%zu points)", s->n);
        n++;
    }
    if (n)
        bl_strbuf_puts(out, "</p>\n");
}

/* The figure's range over the points' intervals, padded a little; never empty. On a log scale
 * (every figure positive and spanning more than 20x: a drop to a fiftieth is as plain as the
 * noise before it, as the change-point search sees it) lo and hi are the figures' logs. */
static void y_range(const bl_hist_series *s, double *lo, double *hi, int *logscale)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        const bl_stat *p = &s->p[i].s;
        double ci = p->n > 1 && bl_present(p->ci) ? p->ci : 0;
        *lo = fmin(*lo, p->mean - ci);
        *hi = fmax(*hi, p->mean + ci);
    }
    double least = INFINITY;
    for (size_t i = 0; i < s->n; i++)
        least = fmin(least, s->p[i].s.mean);
    *logscale = least > 0 && *hi / least > 20;
    if (*logscale) {
        *lo = log10(fmax(*lo, least / 2)) - 0.05;
        *hi = log10(*hi) + 0.05;
        return;
    }
    double pad = (*hi - *lo) * 0.08;
    if (!(pad > 0))
        pad = fabs(*hi) * 0.05 + (*hi == 0);
    *lo -= pad;
    *hi += pad;
    if (*lo < 0 && least >= 0)
        *lo = 0; /* figures that cannot be negative keep the axis at 0 or up */
}

typedef struct frame {
    double lo, hi; /* of the axis: figures, or their logs */
    int logscale;
    time_t t0, t1;
} frame;

static double xat(const frame *f, time_t t)
{
    double span = difftime(f->t1, f->t0);
    return span > 0 ? ML + difftime(t, f->t0) / span * (W - ML - MR) : (ML + W - MR) / 2.0;
}

static double yat(const frame *f, double v)
{
    double a = f->logscale ? (v > 0 ? log10(v) : f->lo) : v;
    return MT + (f->hi - a) / (f->hi - f->lo) * (H - MT - MB);
}

/* A figure on the axis: latency with its unit (812 µs), others bare (the unit is above). */
static void put_tick_label(bl_strbuf *out, const bl_hist_series *s, double v)
{
    if (s->unit && strcmp(s->unit, "ns") == 0)
        put_fig(out, s, v);
    else
        bl_fmt_fig(out, v);
}

static void put_tick(bl_strbuf *out, const bl_hist_series *s, const frame *f, double v)
{
    double y = yat(f, v);
    bl_strbuf_printf(out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>", ML,
                     W - MR, y, y);
    bl_strbuf_printf(out, "<text class=\"ax\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", ML - 6,
                     y + 4);
    put_tick_label(out, s, v);
    bl_strbuf_puts(out, "</text>");
}

/* Ticks at round figures: steps of 1, 2 or 5 x 10^k, four or so; on a log scale 1, 2 and 5
 * of each decade (the decades alone when they are many). */
static void put_axes(bl_strbuf *out, const bl_hist_series *s, const frame *f)
{
    if (f->logscale) {
        int d0 = (int)floor(f->lo), d1 = (int)ceil(f->hi);
        static const double m[] = {1, 2, 5};
        for (int d = d0; d <= d1; d++)
            for (size_t k = 0; k < (d1 - d0 > 3 ? 1u : 3u); k++) {
                double v = m[k] * pow(10, d), a = log10(v);
                if (a >= f->lo && a <= f->hi)
                    put_tick(out, s, f, v);
            }
    } else {
        double raw = (f->hi - f->lo) / 4, mag = pow(10, floor(log10(raw))), step = mag;
        if (raw / mag > 5)
            step = 10 * mag;
        else if (raw / mag > 2)
            step = 5 * mag;
        else if (raw / mag > 1)
            step = 2 * mag;
        for (double v = ceil(f->lo / step) * step; v <= f->hi + step * 1e-9; v += step)
            put_tick(out, s, f, fabs(v) < step * 1e-9 ? 0 : v);
    }
    if (s->unit && strcmp(s->unit, "ns") != 0) {
        bl_strbuf_printf(out, "<text class=\"ax\" x=\"2\" y=\"%d\">", MT - 12);
        bl_page_esc(out, s->unit);
        bl_strbuf_puts(out, f->logscale ? " (log)</text>" : "</text>");
    } else if (f->logscale) {
        bl_strbuf_printf(out, "<text class=\"ax\" x=\"2\" y=\"%d\">(log)</text>", MT - 12);
    }
    const char *a = s->p[0].when, *b = s->p[s->n - 1].when;
    bl_strbuf_printf(out,
                     "<text class=\"ax\" x=\"%d\" y=\"%d\">%.10s</text>"
                     "<text class=\"ax\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%.10s</text>\n",
                     ML, H - 12, a, W - MR, H - 12, b);
}

/* The points: a whisker per 95% CI (points of one record have none), a dot per mean. */
static void put_points(bl_strbuf *out, const bl_hist_series *s, const frame *f)
{
    bl_strbuf_puts(out, "<path class=\"ci\" d=\"");
    for (size_t i = 0; i < s->n; i++) {
        const bl_stat *p = &s->p[i].s;
        if (p->n > 1 && bl_present(p->ci) && p->ci > 0)
            bl_strbuf_printf(out, "M%.1f %.1fV%.1f", xat(f, s->p[i].t), yat(f, p->mean + p->ci),
                             yat(f, p->mean - p->ci));
    }
    bl_strbuf_puts(out, "\"/>\n");
    double r = s->n > 200 ? 1.5 : s->n > 60 ? 2.2 : 3.2;
    for (size_t i = 0; i < s->n; i++) {
        bl_strbuf_printf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"><title>",
                         xat(f, s->p[i].t), yat(f, s->p[i].s.mean), r);
        bl_strbuf_printf(out, "%s: ", s->p[i].when);
        put_fig(out, s, s->p[i].s.mean);
        bl_strbuf_printf(out, ", n=%zu</title></circle>", s->p[i].s.n);
    }
    bl_strbuf_putc(out, '\n');
}

/* Each segment's mean as a line, each change as a dashed line between its two points with its
 * change and p above. */
static void put_segments(bl_strbuf *out, const bl_hist_series *s, const frame *f)
{
    size_t from = 0;
    for (size_t c = 0; c <= s->cp.n; c++) {
        size_t to = c < s->cp.n ? s->cp.v[c].at : s->n;
        double mean = c < s->cp.n ? s->cp.v[c].before : c ? s->cp.v[c - 1].after : NAN;
        if (!s->cp.n) { /* no change: the mean of the whole series */
            double sum = 0;
            for (size_t i = 0; i < s->n; i++)
                sum += s->p[i].s.mean;
            mean = sum / (double)s->n;
        }
        if (to > from && bl_present(mean))
            bl_strbuf_printf(out,
                             "<line class=\"seg\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                             "y2=\"%.1f\"/>",
                             xat(f, s->p[from].t), xat(f, s->p[to - 1].t), yat(f, mean),
                             yat(f, mean));
        from = to;
    }
    for (size_t c = 0; c < s->cp.n; c++) {
        const bl_change *ch = &s->cp.v[c];
        double x = (xat(f, s->p[ch->at - 1].t) + xat(f, s->p[ch->at].t)) / 2;
        const char *cls = ch->regression ? "worse" : "better";
        bl_strbuf_printf(out,
                         "<line class=\"cp %s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
                         "<text class=\"%s\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">",
                         cls, x, x, MT - 6, H - MB, cls, x + (x > W / 2.0 ? -4 : 4), MT - 12,
                         x > W / 2.0 ? "end" : "start");
        if (bl_present(ch->pct))
            bl_strbuf_printf(out, "%+.1f%% ", ch->pct);
        bl_strbuf_printf(out, "p=%.3g</text>\n", ch->p);
    }
}

static void put_svg(bl_strbuf *out, const bl_hist_series *s)
{
    frame f = {.t0 = s->p[0].t, .t1 = s->p[s->n - 1].t};
    y_range(s, &f.lo, &f.hi, &f.logscale);
    bl_strbuf_printf(out,
                     "<svg class=\"trend\" viewBox=\"0 0 %d %d\" role=\"img\" "
                     "xmlns=\"http://www.w3.org/2000/svg\"><title>",
                     W, H);
    put_title(out, s);
    bl_strbuf_puts(out, " over time</title>\n");
    put_axes(out, s, &f);
    put_segments(out, s, &f);
    put_points(out, s, &f);
    bl_strbuf_puts(out, "</svg>\n");
}

/* What was found: each change, or why none. */
static void put_changes(bl_strbuf *out, const bl_hist_series *s, const bl_history *h)
{
    (void)h;
    bl_strbuf_printf(out, "<p class=\"meta\">%s, %s is better · %zu points, %.10s to %.10s · ",
                     bl_page_metric_label(s->metric), s->lower_better ? "lower" : "higher", s->n,
                     s->p[0].when, s->p[s->n - 1].when);
    if (s->cp.too_short) {
        bl_strbuf_puts(out, "too few points to look for changes</p>\n");
        return;
    }
    if (!s->cp.n)
        bl_strbuf_puts(out, "no significant change");
    for (size_t c = 0; c < s->cp.n; c++) {
        const bl_change *ch = &s->cp.v[c];
        bl_strbuf_printf(out, "%s<span class=\"chg %s\">%s ", c ? "; " : "",
                         ch->regression ? "worse" : "better",
                         ch->regression ? "▼ regression" : "▲ improvement");
        put_fig(out, s, ch->before);
        bl_strbuf_puts(out, " → ");
        put_fig(out, s, ch->after);
        if (bl_present(ch->pct))
            bl_strbuf_printf(out, " (%+.1f%%)", ch->pct);
        bl_strbuf_printf(out, ", p=%.3g, at %s</span>", ch->p, s->p[ch->at].when);
    }
    bl_strbuf_puts(out, "</p>\n");
}

static void put_points_table(bl_strbuf *out, const bl_hist_series *s)
{
    bl_strbuf_printf(out,
                     "<details><summary>The %zu points</summary><div class=\"scroll\"><table "
                     "class=\"pts\"><thead><tr><th>when</th><th>figure</th><th>n</th>"
                     "<th>95%% CI ±</th></tr></thead><tbody>\n",
                     s->n);
    for (size_t i = 0; i < s->n; i++) {
        const bl_stat *p = &s->p[i].s;
        bl_strbuf_printf(out, "<tr><td>%s</td><td>", s->p[i].when);
        put_fig(out, s, p->mean);
        bl_strbuf_printf(out, "</td><td>%zu</td><td>", p->n);
        if (p->n > 1 && bl_present(p->ci))
            put_fig(out, s, p->ci);
        bl_strbuf_puts(out, "</td></tr>\n");
    }
    bl_strbuf_puts(out, "</tbody></table></div></details>\n");
}

/* Links back to the groups of the trend's sources (a few, then how many more). */
static void put_back_links(bl_strbuf *out, const bl_hist_series *s, const bl_groups *gs)
{
    size_t n = 0;
    for (size_t g = 0; gs && g < gs->n; g++) {
        if (!has_source(s, gs->v[g].name))
            continue;
        if (n < 6) {
            bl_strbuf_puts(out, n ? " · " : "<p class=\"hlinks\">In groups: ");
            bl_strbuf_printf(out, "<a href=\"#g%zu\">%zu</a>", g + 1, g + 1);
        }
        n++;
    }
    if (n > 6)
        bl_strbuf_printf(out, " and %zu more", n - 6);
    if (n)
        bl_strbuf_puts(out, "</p>\n");
}

void bl_page_history(bl_strbuf *out, const bl_history *h, const bl_groups *gs)
{
    size_t n = 0;
    for (size_t i = 0; h && i < h->n; i++)
        n += shown(&h->v[i]);
    if (!n)
        return;
    bl_strbuf_puts(out, css);
    bl_strbuf_printf(
        out,
        "<section id=\"history\"><h2>Over time: %zu set-up%s and test%s with more "
        "than one run time</h2>\n<p class=\"what\">Each set-up's test in time order "
        "(its records' <code>when</code>; records of one time are one point: their "
        "mean, with its 95%% confidence interval as a whisker). The lines are the "
        "means between the changes E-Divisive with means finds (as <code>benchlog "
        "history</code> does: permutation test, alpha %.3g, at least %zu points a "
        "segment); a dashed line is a change, red when it makes the figure worse.</p>\n",
        n, n == 1 ? "" : "s", n == 1 ? "" : "s", h->alpha, h->min_seg);
    for (size_t i = 0; i < h->n; i++) {
        const bl_hist_series *s = &h->v[i];
        if (!shown(s))
            continue;
        bl_strbuf_printf(out, "<section class=\"trend\" id=\"h%zu\"><h3>", i + 1);
        put_title(out, s);
        bl_strbuf_puts(out, "</h3>\n");
        put_changes(out, s, h);
        put_back_links(out, s, gs);
        put_svg(out, s);
        put_points_table(out, s);
        bl_strbuf_puts(out, "</section>\n");
    }
    bl_strbuf_puts(out, "</section>\n");
}
