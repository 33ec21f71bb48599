/* Grouped horizontal bars: one group a test (top to bottom in the table's order), one bar a
 * compared column; bars are linear from zero unless --log asked otherwise (said in the axis
 * title), the figure at each bar that has room (outside, else inside), and the 95% confidence
 * interval of the mean as a whisker where there are repeats (n >= 2), as on the page. */
#include "../core/strbuf.h"
#include "../compare/diff.h"
#include "../compare/fmt.h"
#include "../compare/table.h"
#include "canvas.h"
#include "chart.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INK 0x1D2330
#define MUTED 0x5B6475

/* The interval x0..x1 with a cap at each end. */
static void whisker(bl_canvas *c, double x0, double x1, double y, double half)
{
    cairo_set_line_width(c->cr, 1.5 * c->s);
    bl_canvas_rgb(c, INK, 0.8);
    cairo_move_to(c->cr, x0, y);
    cairo_line_to(c->cr, x1, y);
    cairo_move_to(c->cr, x0, y - half);
    cairo_line_to(c->cr, x0, y + half);
    cairo_move_to(c->cr, x1, y - half);
    cairo_line_to(c->cr, x1, y + half);
    cairo_stroke(c->cr);
}

/* Whether a bar carries a whisker: the 95% CI of the mean, which needs two figures. */
static int has_ci(const bl_stat *st)
{
    return st->n > 1 && bl_present(st->ci) && bl_present(st->mean) && st->ci > 0;
}

/* The figure a bar shows: the chosen metric, else the row's main figure. */
static const bl_stat *bar_stat(const bl_table *t, size_t row, size_t col, int metric)
{
    const bl_cell *c = bl_table_cell(t, row, col);
    return metric >= 0 ? &c->m[metric] : bl_cell_main(&t->rows[row], c);
}

/* Bars of the page's columns a test has (indices into page), centred in its group: stores
 * compared across sources rarely hold every test, and empty slots would only thin the bars. */
static size_t present(const bl_table *t, size_t row, const size_t *page, size_t ns, int metric,
                      size_t *cols)
{
    size_t n = 0;
    for (size_t b = 0; b < ns; b++)
        if (bar_stat(t, row, page[b], metric)->n)
            cols[n++] = b;
    return n;
}

/* A p99 tick across a latency bar (the fio-plot way of showing the tail). */
static double p99_tick(bl_canvas *c, const bl_stat *p99, const bl_axis *ax, double y, double h)
{
    if (!p99->n)
        return c->px0;
    double x = bl_axis_pos(ax, p99->fig, c->px0, c->px1);
    cairo_set_line_width(c->cr, 3 * c->s);
    bl_canvas_rgb(c, INK, 1);
    cairo_move_to(c->cr, x, y);
    cairo_line_to(c->cr, x, y + h);
    cairo_stroke(c->cr);
    return x + 2 * c->s;
}

/* Value labels go right of the bar and its whisker (and of a p99 tick they would cross) while
 * they end before label_max, else inside the bar in white: never over a tick nor past the panel. */
/* changes (compare -o): a bar other than the baseline column's says its change against it and
 * the verdict, as compare's lines do ("580.2  +416.4% ▲"). */
static void change_label(bl_strbuf *sb, const bl_table *t, size_t row, size_t col, int metric)
{
    if (t->baseline < 0 || (long)col == t->baseline)
        return;
    const bl_stat *a = bar_stat(t, row, (size_t)t->baseline, metric),
                  *b = bar_stat(t, row, col, metric);
    if (!a->n || !b->n || a->fig == 0)
        return;
    bl_metric m = metric >= 0 ? (bl_metric)metric : bl_row_main(&t->rows[row]);
    int dir = bl_metric_direction(m, m == BL_M_VALUE ? t->rows[row].unit : NULL);
    bl_strbuf_printf(sb, "  %+.1f%% %s", (b->fig - a->fig) / a->fig * 100,
                     bl_verdict_arrow(bl_diff_verdict(a, b, dir)));
}

static void draw_bars(bl_canvas *c, const bl_table *t, const size_t *rows, size_t nr,
                      const size_t *page, size_t ns, int metric, int titles, const bl_axis *ax,
                      double label_max, int changes)
{
    size_t *cols = bl_xmalloc((ns + 1) * sizeof *cols), total = 0;
    /* The test's own figure (value) has no unit of its own: each row says its unit. */
    const char *metric_unit = metric >= 0 ? bl_metric_unit((bl_metric)metric) : NULL;
    int ns_axis = metric_unit && strcmp(metric_unit, "ns") == 0;
    for (size_t k = 0; k < nr; k++) {
        size_t n = present(t, rows[k], page, ns, metric, cols);
        total += n ? n : 1;
    }
    /* A test takes room for its own bars (one slot each, bars 80% of a slot): a test one
     * set-up ran is one bar high, not as high as the test every set-up ran, but never less
     * than its title's height (the other tests' slots give the room: only in a chart thin
     * enough for titles to run into each other). */
    double s = c->s, plot = c->py1 - c->py0, slot = plot / (double)total, gy = c->py0;
    double th = 17 * c->ts * 1.3; /* a 17-unit title line */
    for (size_t it = 0; it <= nr; it++) {
        double fixed = 0;
        size_t rest = 0;
        for (size_t k = 0; k < nr; k++) {
            size_t n = present(t, rows[k], page, ns, metric, cols);
            if ((double)(n ? n : 1) * slot < th)
                fixed += th;
            else
                rest += n ? n : 1;
        }
        if (!rest || fixed >= plot) { /* no room to give: one slot a bar as before */
            slot = plot / (double)total;
            th = 0;
            break;
        }
        if ((plot - fixed) / (double)rest >= slot)
            break;
        slot = (plot - fixed) / (double)rest;
    }
    double bar = fmin(slot * 0.8, 64 * s);
    /* Label sizes are scaled by c->ts when drawn: fit the bar's height in those units. */
    double label_size = fmin(16, bar * 0.85 / c->ts);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t k = 0; k < nr; k++) {
        const bl_row *row = &t->rows[rows[k]];
        size_t n = present(t, rows[k], page, ns, metric, cols);
        double group = fmax(slot * (double)(n ? n : 1), th),
               top = gy + (group - bar * (double)n) / 2;
        if (titles)
            bl_canvas_text(c, c->px0 - 14 * s, gy + group / 2, row->title, 17, 0, 1, 0.5, INK,
                           c->px0 - 50 * s);
        if (k) { /* a tick between groups */
            bl_canvas_rgb(c, 0xC9CED8, 1);
            cairo_set_line_width(c->cr, 1);
            cairo_move_to(c->cr, c->px0 - 8 * s, round(gy) + 0.5);
            cairo_line_to(c->cr, c->px0, round(gy) + 0.5);
            cairo_stroke(c->cr);
        }
        for (size_t b = 0; b < n; b++) {
            size_t j = cols[b]; /* the colour: place on the page */
            const bl_stat *st = bar_stat(t, rows[k], page[j], metric);
            double y = top + bar * (double)b;
            double x1 = fmax(bl_axis_pos(ax, st->fig, c->px0, c->px1), c->px0 + 1);
            bl_canvas_color(c, j, 1);
            cairo_rectangle(c->cr, c->px0, y + bar * 0.06, x1 - c->px0, bar * 0.88);
            cairo_fill(c->cr);
            double end = x1, tick = c->px0;
            if (metric == BL_M_LAT)
                tick = p99_tick(c, &bl_table_cell(t, rows[k], page[j])->m[BL_M_P99], ax,
                                y + bar * 0.06, bar * 0.88);
            if (has_ci(st)) {
                /* The interval is the mean's, whatever figure --repeats shows. */
                double lo = st->mean - st->ci;
                double a = bl_axis_pos(ax, ax->log && lo <= 0 ? ax->min : fmax(lo, ax->min), c->px0,
                                       c->px1);
                double tip = bl_axis_pos(ax, st->mean + st->ci, c->px0, c->px1);
                whisker(c, fmax(a, c->px0), tip, y + bar / 2, bar * 0.25);
                end = fmax(end, tip);
            }
            if (label_size < 6.5) /* no room for a legible figure: the chart is taller */
                continue;
            bl_strbuf_reset(&sb);
            if (ns_axis)
                bl_fmt_ns(&sb, st->fig);
            else
                bl_fmt_fig(&sb, st->fig);
            const bl_cell *cell = bl_table_cell(t, rows[k], page[j]);
            if (bl_present(cell->flag) && (metric < 0 || metric == (int)bl_row_main(row)))
                bl_strbuf_puts(&sb, " !"); /* implausible, as in the tables */
            if (changes)
                change_label(&sb, t, rows[k], page[j], metric);
            double lw;
            bl_canvas_measure(c, sb.s, label_size, 0, &lw, NULL);
            if (tick > end && tick < end + 10 * s + lw) /* the label would cross the p99 tick */
                end = tick;
            /* Outside when it fits before label_max, else inside when the bar is long enough,
             * else outside all the same (past the panel's end rather than unreadable). */
            if (end + 8 * s + lw < label_max || x1 - c->px0 < lw + 12 * s)
                bl_canvas_text(c, end + 6 * s, y + bar / 2, sb.s, label_size, 0, 0, 0.5, INK, 0);
            else
                bl_canvas_text(c, x1 - 6 * s, y + bar / 2, sb.s, label_size, 1, 1, 0.5, 0xFFFFFF,
                               0);
        }
        gy += group;
    }
    bl_strbuf_free(&sb);
    free(cols);
}

/* fio-plot's layout: IOPS on the left 58% of the plot, mean latency (with p99 ticks) on the
 * rest, the same bars in the same places so a set-up reads across. */
static void latency_panel(bl_canvas *c, const bl_table *t, const size_t *rows, size_t nr,
                          const size_t *page, size_t ns, const bl_axis *iops_ax, int log)
{
    double s = c->s, x0 = c->px0, x1 = c->px1, mid = x0 + (x1 - x0) * 0.58;
    c->px1 = mid - 24 * s;
    bl_canvas_xaxis(c, iops_ax, bl_tick_plain, log ? "IOPS (log scale)" : "IOPS");
    draw_bars(c, t, rows, nr, page, ns, BL_M_IOPS, 1, iops_ax, mid + 30 * s, 0);
    double hi = 0, lo = INFINITY;
    for (size_t k = 0; k < nr; k++)
        for (size_t b = 0; b < ns; b++) {
            const bl_cell *cell = bl_table_cell(t, rows[k], page[b]);
            const bl_stat *ms[] = {&cell->m[BL_M_LAT], &cell->m[BL_M_P99]};
            for (int q = 0; q < 2; q++)
                if (ms[q]->n && ms[q]->fig > 0) {
                    hi = ms[q]->fig > hi ? ms[q]->fig : hi;
                    lo = ms[q]->fig < lo ? ms[q]->fig : lo;
                }
        }
    c->px0 = mid + 40 * s;
    c->px1 = x1;
    if (hi > 0) {
        bl_axis ax;
        if (log)
            bl_axis_log(&ax, lo, hi * 1.5);
        else
            bl_axis_linear(&ax, 0, hi);
        bl_canvas_xaxis(c, &ax, bl_tick_ns, log ? "latency, log scale" : "latency");
        draw_bars(c, t, rows, nr, page, ns, BL_M_LAT, 0, &ax, c->w - 10 * s, 0);
    } else {
        bl_canvas_text(c, (c->px0 + c->px1) / 2, (c->py0 + c->py1) / 2,
                       "no latency in these records", 18, 0, 0.5, 0.5, MUTED, 0);
    }
    c->px0 = x0;
    c->px1 = x1;
}

/* The columns with a figure in any of the rows: the ones the pages share out. */
static size_t drawn_cols(const bl_table *t, const size_t *rows, size_t nr, int metric, size_t *out)
{
    size_t n = 0;
    for (size_t j = 0; j < t->ncols; j++) {
        int any = 0;
        for (size_t k = 0; k < nr && !any; k++)
            any = bar_stat(t, rows[k], j, metric)->n > 0;
        if (any)
            out[n++] = j;
    }
    return n;
}

static size_t metric_rows(const bl_table *t, int metric, size_t *rows, const char **unit)
{
    if (metric < 0)
        return bl_table_chart_rows(t, rows, unit);
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (bl_row_has(t, i, (bl_metric)metric))
            rows[n++] = i;
    *unit = metric == BL_M_VALUE ? (n ? t->rows[rows[0]].unit : "") : bl_metric_unit(metric);
    if (metric == BL_M_VALUE) { /* bars of one unit only */
        size_t kept = 0;
        for (size_t k = 0; k < n; k++)
            if (t->rows[rows[k]].unit && *unit && strcmp(t->rows[rows[k]].unit, *unit) == 0)
                rows[kept++] = rows[k];
        n = kept;
    }
    return n;
}

static const char *chart_name(int metric)
{
    switch (metric) {
    case BL_M_IOPS:
        return "IOPS by test";
    case BL_M_LAT:
        return "Mean latency by test";
    case BL_M_P50:
        return "Median latency (p50) by test";
    case BL_M_P99:
        return "p99 latency by test";
    case BL_M_P999:
        return "p99.9 latency by test";
    case BL_M_VALUE:
        return "Figure by test";
    default:
        return "Throughput by test";
    }
}

/* Rows and the most bars in a group for the page o->page: the chart's height follows them.
 * legend: the width its names take in a row (18-unit text, about 10 units a character, and a
 * swatch and gap each). */
static void page_shape(const bl_table *t, const bl_chart_opts *o, size_t *nrows, size_t *bars,
                       size_t *nsetups, double *legend)
{
    int metric = o->kind == BL_CHART_IOPS_LAT ? BL_M_IOPS : o->has_metric ? o->metric : -1;
    size_t *rows = bl_xmalloc((t->nrows + 1) * sizeof *rows);
    size_t *all = bl_xmalloc((t->ncols + 1) * sizeof *all);
    size_t *cols = bl_xmalloc((t->ncols + 1) * sizeof *cols);
    const char *unit = "";
    size_t nr = metric_rows(t, metric, rows, &unit);
    size_t nall = drawn_cols(t, rows, nr, metric, all), per = BL_CHART_MAX_CURVES;
    size_t first = o->page * per;
    size_t ns = first < nall ? (nall - first < per ? nall - first : per) : 0;
    *nrows = *bars = 0;
    for (size_t k = 0; k < nr; k++) {
        size_t n = present(t, rows[k], all + first, ns, metric, cols);
        *nrows += n > 0;
        *bars += n;
    }
    *nsetups = ns;
    *legend = 0;
    for (size_t b = 0; b < ns; b++) {
        double n = 0;
        for (const char *p = t->cols[all[first + b]].label; p && *p; p++)
            n += ((unsigned char)*p & 0xC0) != 0x80 ? ((unsigned char)*p >= 0x80 ? 1.8 : 1) : 0;
        *legend += 10 * n + 54;
    }
    free(rows);
    free(all);
    free(cols);
}

int bl_chart_bar_height(const bl_records *recs, const bl_chart_opts *o, int width)
{
    bl_table_opts to = {.by = o->by, .repeats = o->repeats};
    char err[256];
    bl_table *own = o->table ? NULL : bl_table_build(recs, &to, err, sizeof err);
    const bl_table *t = o->table ? o->table : own;
    if (!t)
        return 0;
    size_t nr, bars, ns;
    double legend;
    page_shape(t, o, &nr, &bars, &ns, &legend);
    bl_table_free(own);
    /* Bars of 14 px (at 1600 wide) hold a 12 px figure; the
     * title block, a legend row per two
     * set-ups (long names take a row each) and the axis around them. nr: tests. */
    (void)nr;
    double s = width / 1600.0;
    double head = o->compact ? 150 : 230, bar = 14;
    double need = (head + 34 * (double)((ns + 1) / 2) + (double)bars * bar / 0.8) * s;
    if (o->compact) {
        /* A report's chart, width units wide at the scale of 1600: the legend flows after the
         * subtitle (which takes some 500 units of its first row), the axis's name beside its
         * ticks, and 13-unit slots (a 6.8 pt figure on a PDF page, digits 4.9 pt high, clears the
         * next). */
        double rows = ceil((legend + 500) / (width - 80));
        need = 64 + 34 * (rows - 1) + 44 + (double)bars * 13;
    }
    return (int)fmin(ceil(need), 10000);
}

int bl_chart_bar(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                 size_t errlen)
{
    bl_table_opts to = {.by = o->by, .repeats = o->repeats};
    bl_table *own = o->table ? NULL : bl_table_build(recs, &to, err, errlen);
    const bl_table *t = o->table ? o->table : own;
    int iops_lat = o->kind == BL_CHART_IOPS_LAT;
    int metric = iops_lat ? BL_M_IOPS : o->has_metric ? o->metric : -1;
    size_t *rows = bl_xmalloc((t->nrows + 1) * sizeof *rows);
    size_t *all = bl_xmalloc((t->ncols + 1) * sizeof *all);
    const char *unit = "";
    size_t nr = metric_rows(t, metric, rows, &unit);
    size_t nall = drawn_cols(t, rows, nr, metric, all);
    size_t per = BL_CHART_MAX_CURVES, pages = (nall + per - 1) / per;
    size_t first = o->page * per;
    size_t ns = first < nall ? (nall - first < per ? nall - first : per) : 0;
    const size_t *page = all + first;
    /* Tests none of the page's columns has would be empty groups. */
    size_t *cols = bl_xmalloc((ns + 1) * sizeof *cols), kept = 0;
    for (size_t k = 0; k < nr; k++)
        if (present(t, rows[k], page, ns, metric, cols))
            rows[kept++] = rows[k];
    free(cols);
    nr = kept;
    if (o->pages)
        *o->pages = pages;
    if (nr == 0 || ns == 0) {
        if (iops_lat)
            snprintf(err, errlen, "no record has IOPS to draw (iops-lat charts IOPS and latency)");
        else if (metric >= 0)
            snprintf(err, errlen, "no record has a %s figure to draw as bars (--metric %s)",
                     bl_metric_name((bl_metric)metric), bl_metric_name((bl_metric)metric));
        else
            snprintf(err, errlen, "no record has a figure to draw as bars");
        free(rows);
        free(all);
        bl_table_free(own);
        return 1;
    }
    double hi = 0, lo = INFINITY, s = c->s;
    for (size_t k = 0; k < nr; k++)
        for (size_t b = 0; b < ns; b++) {
            const bl_stat *st = bar_stat(t, rows[k], page[b], metric);
            double v = st->n ? fmax(st->fig, has_ci(st) ? st->mean + st->ci : 0) : 0;
            hi = v > hi ? v : hi;
            if (st->n && st->fig > 0 && st->fig < lo)
                lo = st->fig;
        }
    bl_axis ax;
    /* Linear from zero unless asked: a log axis makes a 9.59 MB/s bar half a 580 MB/s one,
     * which no reader expects of a bar; figures spanning decades still get their labels. */
    int log = o->log > 0 && lo > 0 && isfinite(lo);
    if (log)
        bl_axis_log(&ax, lo, hi * 1.5);
    else
        bl_axis_linear(&ax, 0, hi);
    double left = 0;
    for (size_t k = 0; k < nr; k++) {
        double w;
        bl_canvas_measure(c, t->rows[rows[k]].title, 17, 0, &w, NULL);
        left = w > left ? w : left;
    }
    left = fmin(left + 64 * s, c->w * 0.4);
    const char **names = bl_xcalloc(ns, sizeof *names);
    for (size_t b = 0; b < ns; b++)
        names[b] = t->cols[page[b]].label;
    const char *kind = iops_lat ? "IOPS and latency by test" : chart_name(metric);
    bl_chart_common none = {0};
    char *title = o->common ? bl_chart_title_common(kind, o->common, o)
                  : recs    ? bl_chart_title(kind, (const bl_record **)recs->v, recs->n, o)
                            : bl_chart_title_common(kind, &none, o);
    int ns_axis = strcmp(unit ? unit : "", "ns") == 0;
    bl_strbuf sub;
    bl_strbuf_init(&sub);
    bl_strbuf_printf(&sub, "%s%s%s · %s", ns_axis ? "latency, lower is better" : unit,
                     strcmp(unit, "MB/s") == 0 ? " (10⁶ bytes/s)" : "", log ? ", log scale" : "",
                     bl_count(t->n_records, "record").s);
    if (iops_lat)
        bl_strbuf_puts(&sub, " · right: mean latency, tick = p99 (lat, else clat)");
    if (t->any_repeat)
        bl_strbuf_printf(&sub, " · repeats: %s, whisker = 95%% CI of the mean (n ≥ 2)",
                         bl_repeats_name(t->repeats));
    if (pages > 1)
        bl_strbuf_printf(&sub, " · page %zu of %zu: set-ups %zu–%zu of %zu", o->page + 1, pages,
                         first + 1, first + ns, nall);
    if (t->n_flagged)
        bl_strbuf_puts(&sub, " · ! = implausible, 100× off the test elsewhere");
    c->compact = o->compact;
    bl_canvas_frame(c, o->compact ? "" : title, sub.s, names, ns, left, 70 * s,
                    (o->compact ? 44 : 90) * s);
    if (iops_lat) {
        latency_panel(c, t, rows, nr, page, ns, &ax, log);
    } else {
        bl_strbuf axis_name;
        bl_strbuf_init(&axis_name);
        bl_strbuf_printf(&axis_name, "%s%s", ns_axis ? (log ? "log scale" : "") : unit,
                         log && !ns_axis ? " (log scale)" : "");
        bl_canvas_xaxis(c, &ax, ns_axis ? bl_tick_ns : bl_tick_plain, axis_name.s);
        bl_strbuf_free(&axis_name);
        draw_bars(c, t, rows, nr, page, ns, metric, 1, &ax, c->w - 10 * s, o->changes);
    }
    if (o->drawn)
        *o->drawn += ns;
    bl_strbuf_free(&sub);
    free(title);
    free(names);
    free(rows);
    free(all);
    bl_table_free(own);
    return 0;
}
