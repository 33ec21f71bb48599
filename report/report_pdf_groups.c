#include "report_pdf_int.h"
#include "../charts/canvas.h"
#include "../charts/chart.h"
#include "../compare/fmt.h"
#include "../compare/group.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A group's table in long form (one line per test × set-up), with only the figure columns
 * some line of the group fills; the set-up column takes the width left. */
typedef struct {
    const char *head;
    double w;
    int metric; /* a bl_metric, or -1 n, -2 CI */
} fcol;

static size_t group_cols(const bl_table *t, fcol *out)
{
    static const fcol all[] = {
        {"MB/s (or own)", 62, BL_M_BW}, {"IOPS", 58, BL_M_IOPS}, {"Mean lat", 62, BL_M_LAT},
        {"p99 lat", 62, BL_M_P99},      {"n", 26, -1},           {"95% CI ±", 76, -2}};
    size_t n = 0;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        int any = all[k].metric == -1;
        for (size_t i = 0; i < t->nrows && !any; i++)
            for (size_t j = 0; j < t->ncols && !any; j++) {
                const bl_cell *c = bl_table_cell(t, i, j);
                const bl_stat *m = bl_cell_main(&t->rows[i], c);
                any = all[k].metric == -2        ? m->n > 1 && bl_present(m->ci)
                      : all[k].metric == BL_M_BW ? c->m[BL_M_BW].n || c->m[BL_M_VALUE].n
                                                 : c->m[all[k].metric].n > 0;
            }
        if (any)
            out[n++] = all[k];
    }
    return n;
}

#define TEST_W 150.0
/* A table line: 7.5-point text (figures 8) with its leading. */
#define TXT 7.5
#define ROW_H 10.5

double bl_pdf_lone_width(const bl_table *t)
{
    fcol fc[8];
    size_t nf = group_cols(t, fc);
    double w = TEST_W;
    for (size_t k = 0; k < nf; k++)
        w += fc[k].w;
    return w;
}

/* named 0: no set-up column's heading (a column of two, the set-up named above). */
static double head_row(doc *d, double y, const fcol *fc, size_t nf, double setup_w, int named)
{
    double x = d->x;
    bl_pdf_text(d, x + 3, y, TEST_W - 6, "Test", TXT, 1, 0, 1, INK);
    x += TEST_W;
    if (named)
        bl_pdf_text(d, x + 3, y, setup_w - 6, "Set-up", TXT, 1, 0, 1, INK);
    x += setup_w;
    for (size_t k = 0; k < nf; k++) {
        bl_pdf_text(d, x + 3, y, fc[k].w - 6, fc[k].head, TXT, 1, 1, 1, INK);
        x += fc[k].w;
    }
    y += ROW_H + 2;
    bl_pdf_rule(d, y - 1, INK, 0.8);
    return y + 1;
}

static void cell_fig(bl_strbuf *sb, const bl_cell *c, bl_metric m, double v)
{
    bl_strbuf_reset(sb);
    if (!bl_present(v))
        return;
    if (bl_metric_unit(m) && strcmp(bl_metric_unit(m), "ns") == 0)
        bl_fmt_ns(sb, v);
    else if (m == BL_M_IOPS)
        bl_fmt_iops(sb, v);
    else
        bl_fmt_fig(sb, v);
    if (m == BL_M_VALUE && c->unit)
        bl_strbuf_printf(sb, " %s", c->unit);
}

static void group_table(doc *d, const bl_table *t, const char *name)
{
    fcol fc[8];
    size_t nf = group_cols(t, fc);
    double setup_w = d->w - TEST_W;
    for (size_t k = 0; k < nf; k++)
        setup_w -= fc[k].w;
    /* In a column of two, the set-up is named above the table: its column is a gap. */
    int named = !d->two;
    if (d->y > PH - M - 4 * ROW_H)
        bl_pdf_new_page_at(d, M);
    d->y = head_row(d, d->y, fc, nf, setup_w, named);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < t->nrows; i++) {
        int first = 1;
        for (size_t j = 0; j < t->ncols; j++) {
            const bl_cell *c = bl_table_cell(t, i, j);
            const bl_stat *main = bl_cell_main(&t->rows[i], c);
            if (!c->n_recs)
                continue;
            if (d->y > PH - M - 2 * ROW_H - 8) {
                bl_pdf_new_page_at(d, M);
                bl_strbuf_reset(&sb);
                bl_strbuf_printf(&sb, "%s (continued)", name);
                d->y += bl_pdf_text(d, d->x, d->y, d->w, sb.s, 10, 1, 0, 0, INK) + 4;
                d->y = head_row(d, d->y, fc, nf, setup_w, named);
                first = 1; /* the test named again at the top of a page */
            }
            double x = d->x, y = d->y;
            if (first)
                bl_pdf_text(d, x + 3, y, TEST_W - 6, t->rows[i].title, TXT, 1, 0, 1, INK);
            x += TEST_W;
            /* Set-up names wrap: what tells them apart is often in their middle. */
            double h =
                named ? bl_pdf_text(d, x + 3, y, setup_w - 6, t->cols[j].label, TXT, 0, 0, 0, INK)
                      : 0;
            x += setup_w;
            for (size_t k = 0; k < nf; k++) {
                bl_strbuf_reset(&sb);
                int flag = 0;
                if (fc[k].metric >= 0) {
                    const bl_stat *st = &c->m[fc[k].metric];
                    cell_fig(&sb, c, (bl_metric)fc[k].metric, st->n ? st->fig : BL_ABSENT);
                    if (!st->n && fc[k].metric == BL_M_BW && c->m[BL_M_VALUE].n)
                        cell_fig(&sb, c, BL_M_VALUE, c->m[BL_M_VALUE].fig);
                    else if (!st->n && fc[k].metric == BL_M_BW && c->note)
                        bl_strbuf_puts(&sb, c->note);
                    flag = fc[k].metric == BL_M_BW && bl_present(c->flag);
                    if (flag)
                        bl_strbuf_puts(&sb, " !");
                } else if (fc[k].metric == -1) {
                    bl_strbuf_printf(&sb, "%zu", main->n ? main->n : c->n_recs);
                } else if (main->n > 1 && bl_present(main->ci)) {
                    cell_fig(&sb, c, bl_row_main(&t->rows[i]), main->ci);
                }
                bl_pdf_text(d, x + 3, y, fc[k].w - 6, sb.s, TXT, 0, 1, 1, flag ? 0xC0392B : INK);
                x += fc[k].w;
            }
            d->y += fmax(ROW_H, h + 1);
            first = 0;
        }
        bl_pdf_rule(d, d->y + 1, RULE, 0.5);
        d->y += 2;
    }
    bl_strbuf_free(&sb);
    d->y += 6;
}

/* A group as a grid: a line per test, a column per set-up, the main figure with its unit, and
 * where there are repeats the 95% CI half-width and n. A few set-ups have their whole names
 * (wrapped) as headers; more go ten to a grid (as the charts' colours), keyed A, B, ... with a
 * legend of whole names. */
#define PIVOT_MAX 5
#define PIVOT_CHUNK 10

static void key_of(size_t j, char *buf, size_t n)
{
    snprintf(buf, n, "%c%s", (char)('A' + j % 26), j >= 26 ? "'" : "");
}

static double pivot_head(doc *d, const bl_table *t, size_t first, size_t nc, double colw, int keyed)
{
    double x = d->x + TEST_W, h = ROW_H;
    char key[8];
    bl_pdf_text(d, d->x + 3, d->y, TEST_W - 6, "Test", TXT, 1, 0, 1, INK);
    for (size_t j = first; j < first + nc; j++) {
        key_of(j - first, key, sizeof key);
        if (keyed) {
            bl_pdf_rgb(d, bl_canvas_palette(j - first));
            cairo_rectangle(d->cr, x + colw - 18, d->y + 2, 7, 7);
            cairo_fill(d->cr);
        }
        h = fmax(h, bl_pdf_text(d, x + 3, d->y, colw - 6, keyed ? key : t->cols[j].label, TXT, 1, 1,
                                0, INK));
        x += colw;
    }
    d->y += h + 2;
    bl_pdf_rule(d, d->y - 1, INK, 0.8);
    return d->y + 1;
}

/* The keys' legend: "A  the set-up's whole name", two columns. */
static void pivot_keys(doc *d, const bl_table *t, size_t first, size_t nc)
{
    double colw = d->w / 2, top = d->y, bottom = d->y;
    char key[8];
    for (size_t j = first; j < first + nc; j++) {
        size_t k = j - first;
        double x = d->x + (k % 2) * colw;
        if (k % 2 == 0)
            top = bottom;
        key_of(k, key, sizeof key);
        bl_pdf_rgb(d, bl_canvas_palette(k));
        cairo_rectangle(d->cr, x, top + 2.5, 7, 7);
        cairo_fill(d->cr);
        bl_pdf_text(d, x + 10, top, 14, key, TXT, 1, 0, 0, INK);
        double h = bl_pdf_text(d, x + 24, top, colw - 30, t->cols[j].label, TXT, 0, 0, 0, INK);
        bottom = fmax(bottom, top + h + 1.5);
    }
    d->y = bottom + 4;
}

/* A grid's cell: the main figure (its unit unless keyed), the 95% CI half-width and n of
 * repeats, "!" when implausible; else the cell's note. */
static void pivot_cell(bl_strbuf *sb, const bl_cell *c, bl_metric m, int keyed)
{
    const bl_stat *st = &c->m[m];
    bl_strbuf_reset(sb);
    if (!st->n) {
        if (c->note)
            bl_strbuf_puts(sb, c->note);
        return;
    }
    cell_fig(sb, c, m, st->fig);
    if (m != BL_M_VALUE && !keyed)
        bl_strbuf_printf(sb, " %s", bl_metric_unit(m));
    if (st->n > 1 && bl_present(st->ci)) { /* the 95% CI half-width */
        bl_strbuf tmp;
        bl_strbuf_init(&tmp);
        cell_fig(&tmp, c, m, st->ci);
        bl_strbuf_printf(sb, " ±%s", tmp.s);
        bl_strbuf_free(&tmp);
    }
    if (st->n > 1)
        bl_strbuf_printf(sb, keyed ? " n%zu" : " (n=%zu)", st->n);
    if (bl_present(c->flag))
        bl_strbuf_puts(sb, " !");
}

int bl_pdf_pivot_fits(doc *d, const bl_table *t, double w)
{
    if (t->ncols < 2 || t->ncols > 3)
        return 0;
    double colw = (w - TEST_W) / (double)t->ncols;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    int fits = 1;
    for (size_t i = 0; i < t->nrows && fits; i++)
        for (size_t j = 0; j < t->ncols && fits; j++) {
            pivot_cell(&sb, bl_table_cell(t, i, j), bl_row_main(&t->rows[i]), 0);
            fits = bl_pdf_measure(d, sb.s ? sb.s : "", 8) <= colw - 6;
        }
    bl_strbuf_free(&sb);
    return fits;
}

static void group_pivot(doc *d, const bl_table *t, const char *name)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    int keyed = t->ncols > PIVOT_MAX;
    for (size_t first = 0; first < t->ncols; first += PIVOT_CHUNK) {
        size_t nc =
            keyed ? (t->ncols - first < PIVOT_CHUNK ? t->ncols - first : PIVOT_CHUNK) : t->ncols;
        double colw = (d->w - TEST_W) / (double)nc;
        if (d->y > PH - M - 6 * ROW_H - (keyed ? ROW_H * (double)(nc + 1) / 2 : 0))
            bl_pdf_new_page_at(d, M);
        if (keyed)
            pivot_keys(d, t, first, nc);
        d->y = pivot_head(d, t, first, nc, colw, keyed);
        for (size_t i = 0; i < t->nrows; i++) {
            int any = 0;
            for (size_t j = first; j < first + nc && !any; j++)
                any = bl_table_cell(t, i, j)->n_recs > 0;
            if (!any)
                continue;
            if (d->y > PH - M - 2 * ROW_H) {
                bl_pdf_new_page_at(d, M);
                bl_strbuf_reset(&sb);
                bl_strbuf_printf(&sb, "%s (continued)", name);
                d->y += bl_pdf_text(d, d->x, d->y, d->w, sb.s, 10, 1, 0, 0, INK) + 4;
                d->y = pivot_head(d, t, first, nc, colw, keyed);
            }
            bl_pdf_text(d, d->x + 3, d->y, TEST_W - (keyed ? 42 : 6), t->rows[i].title, TXT, 1, 0,
                        1, INK);
            bl_metric m = bl_row_main(&t->rows[i]);
            for (size_t j = first; j < first + nc; j++) {
                const bl_cell *c = bl_table_cell(t, i, j);
                pivot_cell(&sb, c, m, keyed);
                bl_pdf_text(d, d->x + TEST_W + colw * (double)(j - first) + 2, d->y, colw - 4, sb.s,
                            keyed ? 7 : 8, 0, 1, 1, bl_present(c->flag) ? 0xC0392B : INK);
            }
            if (keyed) { /* the unit once, in the test's line */
                bl_strbuf_reset(&sb);
                bl_strbuf_puts(&sb, m == BL_M_VALUE ? (t->rows[i].unit ? t->rows[i].unit : "")
                                                    : bl_metric_unit(m));
                bl_pdf_text(d, d->x + TEST_W - 38, d->y + 1, 34, sb.s, 6.5, 0, 1, 1, MUTED);
            }
            d->y += ROW_H;
            bl_pdf_rule(d, d->y, RULE, 0.4);
            d->y += 1;
        }
        d->y += 6;
        if (!keyed)
            break;
    }
    bl_strbuf_free(&sb);
}

/* A keyed group's chart names its set-ups by the keys of its grid (the same ten to a chart,
 * the same colours): its first part with the whole names too ("A  name"), the parts it
 * continues in on further columns and pages by the keys alone (ten whole names took a third
 * of a page, again on every page the chart ran on). */
static bl_table *chart_sub(const bl_table *t, const size_t *rows, size_t nr, const size_t *cols,
                           size_t nc, int first)
{
    bl_table *sub = bl_table_subset_rows(t, rows, nr, cols, nc);
    if (t->ncols > PIVOT_MAX)
        for (size_t j = 0; j < sub->ncols; j++) {
            char key[8];
            key_of(j, key, sizeof key);
            bl_strbuf sb;
            bl_strbuf_init(&sb);
            bl_strbuf_puts(&sb, key);
            if (first)
                bl_strbuf_printf(&sb, "  %s", sub->cols[j].label);
            free(sub->cols[j].label);
            sub->cols[j].label = bl_strbuf_take(&sb);
        }
    return sub;
}

/* The group's bar chart of its main figure: every set-up (ten to a chart, the palette's
 * colours), its tests in as many charts as the pages need, each as tall as its bars. A chart
 * taller than a page goes in two columns, half the page wide, at the same scale (the bars'
 * and the text's height as in a chart across the page), so that it takes half the pages. */
int bl_pdf_group_charts(doc *d, const bl_table *t, const char *name, const bl_pdf_opts *o,
                        char *err, size_t errlen)
{
    double s = (PW - 2 * M) / 1600.0;
    size_t *rows = bl_xmalloc((t->nrows + 1) * sizeof *rows), *all = NULL;
    const char *unit = "";
    size_t nr = bl_table_chart_rows(t, rows, &unit);
    if (!nr) {
        free(rows);
        return 0;
    }
    all = bl_xmalloc((t->ncols + 1) * sizeof *all);
    for (size_t j = 0; j < t->ncols; j++)
        all[j] = j;
    char title[300];
    snprintf(title, sizeof title, "%s", name);
    int own_columns = 0; /* columns begun here, for this chart (else the group's) */
    if (!d->two) {
        bl_table *sub = chart_sub(t, rows, nr, all, t->ncols, 0);
        bl_chart_opts co = {.kind = BL_CHART_BAR, .by = o->by, .table = sub, .compact = 1};
        own_columns = bl_chart_bar_height(NULL, &co, 1600) * s > PH - 2 * M;
        bl_table_free(sub);
        bl_pdf_columns(d, own_columns);
    }
    double cw = d->w / s; /* the canvas's width in units: 1600 across the page */
    for (size_t first_col = 0; first_col < t->ncols; first_col += BL_CHART_MAX_CURVES) {
        size_t nc =
            t->ncols - first_col < BL_CHART_MAX_CURVES ? t->ncols - first_col : BL_CHART_MAX_CURVES;
        for (size_t r0 = 0; r0 < nr;) {
            /* As many tests as the rest of the page holds (one at least, on a new page). */
            double room = (PH - M - 12 - d->y) / s;
            size_t take = 0;
            int h = 0;
            for (size_t k = 1; r0 + k <= nr; k++) {
                bl_table *sub = chart_sub(t, rows + r0, k, all + first_col, nc, r0 == 0);
                bl_chart_opts co = {.kind = BL_CHART_BAR,
                                    .by = o->by,
                                    .repeats = o->repeats,
                                    .table = sub,
                                    .title = title,
                                    .compact = 1};
                int hk = bl_chart_bar_height(NULL, &co, (int)cw);
                bl_table_free(sub);
                if (hk > room && k > 1)
                    break;
                take = k;
                h = hk;
                if (hk > room)
                    break;
            }
            if (h > room && d->y > M + 1) {
                bl_pdf_new_page_at(d, M);
                continue; /* measured again with a whole page, or column */
            }
            bl_table *sub = chart_sub(t, rows + r0, take, all + first_col, nc, r0 == 0);
            cairo_save(d->cr);
            cairo_translate(d->cr, d->x, d->y);
            cairo_scale(d->cr, s, s);
            bl_canvas c;
            int ch = (int)fmin(h, (PH - M - 12 - d->y) / s);
            bl_canvas_init_on(&c, d->cr, (int)cw, ch);
            if (d->two) { /* half the width at the scale of a chart across the page */
                c.s = fmax(0.35, fmin(1, ch / 900.0));
                c.ts = c.s < 1 ? sqrt(c.s) : 1;
            }
            bl_chart_opts co = {.kind = BL_CHART_BAR,
                                .by = o->by,
                                .repeats = o->repeats,
                                .table = sub,
                                .title = title,
                                .compact = 1};
            int rc = bl_chart_draw(&c, NULL, &co, err, errlen);
            bl_canvas_free(&c);
            cairo_restore(d->cr);
            bl_table_free(sub);
            if (rc == 2) {
                free(rows);
                free(all);
                if (own_columns)
                    bl_pdf_columns(d, 0);
                return 1;
            }
            d->y += ch * s + 8;
            r0 += take;
        }
    }
    if (own_columns)
        bl_pdf_columns(d, 0);
    free(rows);
    free(all);
    return 0;
}

double bl_pdf_table_start(const bl_table *t)
{
    if (t->ncols < 2)
        return 4 * ROW_H;
    size_t nc = t->ncols < PIVOT_CHUNK ? t->ncols : PIVOT_CHUNK;
    return 6 * ROW_H + (t->ncols > PIVOT_MAX ? ROW_H * (double)(nc + 1) / 2 : 0);
}

void bl_pdf_group_table(doc *d, const bl_table *t, const char *name)
{
    if (t->ncols > 1)
        group_pivot(d, t, name);
    else
        group_table(d, t, name);
}
