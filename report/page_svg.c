/* The page's charts: hand-written SVG so that each bar names its set-up (colours repeat past
 * ten set-ups; a name never does) and carries data-col for the page's show/hide. Every bar of
 * a chart (one metric) shares one linear scale from zero, so that lengths compare across tests
 * as well as set-ups; the figure printed at each bar keeps small ones readable. */
#include "../charts/canvas.h"
#include "../compare/fmt.h"
#include "page.h"
#include "render.h"
#include <math.h>
#include <string.h>

/* Narrow enough that at a phone's 390 px the text stays legible (the SVG scales with its
 * viewBox): set-ups are keyed (A, B, ...) at their bars, their whole names in the legend. */
#define W 600.0
#define NAME_W 40.0 /* the set-up's key, right-aligned before the bars */
#define VAL_W 190.0 /* figure after the longest bar */
#define BAR_H 19.0
#define GROUP_GAP 14.0
#define HEAD_H 24.0

const char *bl_page_metric_label(bl_metric m)
{
    static const char *const label[BL_M_COUNT] = {
        [BL_M_BW] = "MB/s (throughput)",
        [BL_M_IOPS] = "IOPS",
        [BL_M_LAT] = "mean latency",
        [BL_M_P50] = "median latency (p50)",
        [BL_M_P99] = "99th percentile latency",
        [BL_M_P999] = "99.9th percentile latency",
        [BL_M_VALUE] = "the test's own figure",
        [BL_M_CPU] = "CPU %",
    };
    return (unsigned)m < BL_M_COUNT ? label[m] : "";
}

void bl_page_fig(bl_strbuf *sb, bl_metric m, double v, const char *unit)
{
    const char *u = m == BL_M_VALUE ? unit : bl_metric_unit(m);
    if (u && strcmp(u, "ns") == 0) {
        bl_fmt_ns(sb, v);
        return;
    }
    if (m == BL_M_IOPS)
        bl_fmt_iops(sb, v);
    else
        bl_fmt_fig(sb, v);
    if (u)
        bl_strbuf_printf(sb, " %s", u);
}

void bl_page_key(size_t j, char *buf, size_t n)
{
    /* A..Z, then AA..ZZ, ...: bijective base 26. */
    char tmp[16];
    size_t k = 0;
    for (size_t v = j + 1; v && k < sizeof tmp; v = (v - 1) / 26)
        tmp[k++] = (char)('A' + (v - 1) % 26);
    size_t w = 0;
    while (k && w + 1 < n)
        buf[w++] = tmp[--k];
    buf[w] = '\0';
}

static double hi_of(const bl_stat *s)
{
    return fmax(s->fig, s->n > 1 && bl_present(s->ci) ? s->mean + s->ci : 0);
}

static size_t page_col(const size_t *colmap, size_t j)
{
    return colmap ? colmap[j] : j;
}

static void bar(const bl_table *t, size_t i, size_t j, bl_metric m, double y, double scale,
                const size_t *colmap, bl_strbuf *out)
{
    const bl_cell *c = bl_table_cell(t, i, j);
    const bl_stat *s = &c->m[m];
    double x0 = NAME_W + 6, len = s->fig > 0 ? s->fig * scale : 0;
    bl_strbuf_printf(out, "<g data-col=\"%zu\" data-row=\"%zu\"><title>", page_col(colmap, j), i);
    bl_page_esc(out, t->cols[j].title);
    bl_strbuf_puts(out, ": ");
    bl_strbuf tip;
    bl_strbuf_init(&tip);
    bl_metric_text(t, i, j, m, &tip);
    bl_page_esc(out, tip.s);
    bl_strbuf_free(&tip);
    char key[16];
    bl_page_key(j, key, sizeof key);
    bl_strbuf_printf(out, "</title><text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s", NAME_W,
                     y + BAR_H - 5, key);
    bl_strbuf_printf(out,
                     "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                     "fill=\"#%06X\"/>",
                     x0, y + 1, fmax(len, 1), BAR_H - 2, bl_canvas_palette(j));
    double end = x0 + len;
    if (s->n > 1 && bl_present(s->ci) && s->ci > 0) {
        /* The interval is the mean's, whatever figure --repeats shows (median, best). */
        double a = x0 + fmax(s->mean - s->ci, 0) * scale, b = x0 + (s->mean + s->ci) * scale;
        double my = y + BAR_H / 2;
        bl_strbuf_printf(out,
                         "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
                         "class=\"ci\"/>",
                         a, my, b, a, my - 4, my + 4, b, my - 4, my + 4);
        end = fmax(end, b);
    }
    bl_strbuf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"v%s\">", end + 5, y + BAR_H - 5,
                     bl_present(c->flag) && m == bl_row_main(&t->rows[i]) ? " flag" : "");
    bl_strbuf fig;
    bl_strbuf_init(&fig);
    bl_page_fig(&fig, m, s->fig, c->unit);
    if (s->n > 1)
        bl_strbuf_printf(&fig, " (n=%zu)", s->n);
    if (bl_present(c->flag) && m == bl_row_main(&t->rows[i]))
        bl_strbuf_puts(&fig, " !");
    bl_page_esc(out, fig.s);
    bl_strbuf_free(&fig);
    bl_strbuf_puts(out, "</text></g>\n");
}

void bl_page_svg_keys(const bl_table *t, bl_metric m, bl_strbuf *out)
{
    bl_page_svg_keys_map(t, m, NULL, out);
}

void bl_page_svg_keys_map(const bl_table *t, bl_metric m, const size_t *colmap, bl_strbuf *out)
{
    bl_strbuf_puts(out, "<table class=\"keys\"><tbody>");
    char key[16];
    for (size_t j = 0; j < t->ncols; j++) {
        int any = 0;
        for (size_t i = 0; i < t->nrows && !any; i++)
            any = bl_table_cell(t, i, j)->m[m].n > 0;
        if (!any)
            continue;
        bl_page_key(j, key, sizeof key);
        bl_strbuf_printf(out,
                         "<tr data-col=\"%zu\"><th><span class=\"sw\" "
                         "style=\"background:#%06X\"></span>%s</th><td>",
                         page_col(colmap, j), bl_canvas_palette(j), key);
        bl_page_esc(out, t->cols[j].label);
        bl_strbuf_puts(out, "</td></tr>");
    }
    bl_strbuf_puts(out, "</tbody></table>\n");
}

size_t bl_page_svg_chart(const bl_table *t, bl_metric m, bl_strbuf *out)
{
    return bl_page_svg_chart_map(t, m, NULL, out);
}

size_t bl_page_svg_chart_map(const bl_table *t, bl_metric m, const size_t *colmap, bl_strbuf *out)
{
    double h = 8;
    size_t bars = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        size_t n = 0;
        for (size_t j = 0; j < t->ncols; j++)
            n += bl_table_cell(t, i, j)->m[m].n > 0;
        if (n)
            h += HEAD_H + (double)n * BAR_H + GROUP_GAP;
        bars += n;
    }
    if (!bars)
        return 0;
    bl_strbuf_printf(out,
                     "<svg viewBox=\"0 0 %.0f %.0f\" "
                     "width=\"%.0f\" height=\"%.0f\" role=\"img\" class=\"bars\" "
                     "preserveAspectRatio=\"xMinYMin meet\" "
                     "data-metric=\"%s\" data-h=\"%.0f\" data-bar=\"%.0f\" "
                     "data-group=\"%.0f\"><title>",
                     W, h, W, h, bl_metric_name(m), h, BAR_H, HEAD_H + GROUP_GAP);
    bl_page_esc(out, bl_page_metric_label(m));
    bl_strbuf_puts(out, " by test and set-up</title>\n");
    double y = 8, top = 0;
    for (size_t i = 0; i < t->nrows; i++)
        for (size_t j = 0; j < t->ncols; j++) {
            const bl_stat *s = &bl_table_cell(t, i, j)->m[m];
            if (s->n)
                top = fmax(top, hi_of(s));
        }
    double scale = top > 0 ? (W - NAME_W - 6 - VAL_W) / top : 0;
    for (size_t i = 0; i < t->nrows; i++) {
        size_t n = 0;
        for (size_t j = 0; j < t->ncols; j++)
            n += bl_table_cell(t, i, j)->m[m].n > 0;
        if (!n)
            continue;
        bl_strbuf_printf(out, "<text x=\"0\" y=\"%.1f\" class=\"test\" data-row=\"%zu\">",
                         y + HEAD_H - 7, i);
        bl_page_esc(out, t->rows[i].title);
        bl_strbuf_puts(out, "</text>\n");
        y += HEAD_H;
        for (size_t j = 0; j < t->ncols; j++)
            if (bl_table_cell(t, i, j)->m[m].n) {
                bar(t, i, j, m, y, scale, colmap, out);
                y += BAR_H;
            }
        y += GROUP_GAP;
    }
    bl_strbuf_puts(out, "</svg>\n");
    return bars;
}

void bl_page_chart_text(const bl_table *t, bl_metric m, bl_strbuf *out)
{
    size_t tests = 0, setups = 0;
    for (size_t i = 0; i < t->nrows; i++)
        tests += bl_row_has(t, i, m) != 0;
    for (size_t j = 0; j < t->ncols; j++)
        for (size_t i = 0; i < t->nrows; i++)
            if (bl_table_cell(t, i, j)->m[m].n) {
                setups++;
                break;
            }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s of %zu test%s on %zu set-up%s", bl_page_metric_label(m), tests,
                     tests == 1 ? "" : "s", setups, setups == 1 ? "" : "s");
    if (m == BL_M_BW)
        bl_strbuf_puts(&sb, " (MB/s = 10⁶ bytes/s)");
    bl_strbuf_printf(&sb, "; %s is better. ", bl_metric_lower_better(m) ? "lower" : "higher");
    static const char *const how[] = {"their mean", "their median",
                                      "the best run (highest throughput, lowest latency)",
                                      "their mean (every run is listed in the table)"};
    bl_strbuf_printf(&sb,
                     "Runs of the same test on the same set-up are repeats, shown as %s with n; "
                     "the whisker is the 95%% confidence interval of the mean (Student's t). "
                     "Every bar of the chart shares one linear scale from zero; the figure is "
                     "printed at each bar.",
                     how[t->repeats]);
    bl_page_esc(out, sb.s);
    bl_strbuf_free(&sb);
}
