/* The workbook's comparison sheets: Summary in long form (one row per test and set-up, every
 * figure beside its n, stdev and 95% CI, the implausibility flag), then one pivot per metric
 * (tests down, set-ups across) with native bar charts that together hold every set-up. */
#include "../core/strbuf.h"
#include "../compare/table.h"
#include "xlsx_int.h"
#include "render.h"
#include "../compare/fmt.h"
#include "../compare/group.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bar group past ten bars is unreadable, and the palette has ten colours. */
#define SERIES_PER_CHART 10
/* Past this many set-ups, charts of ten each would be a stack nobody reads: the pivot holds
 * them, and the sheet says to narrow the store. */
#define MAX_CHARTED_SETUPS 200

static void num(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v, lxw_format *f)
{
    if (bl_present(v))
        worksheet_write_number(ws, r, c, v, f);
}

enum {
    C_TEST,
    C_BS,
    C_QD,
    C_JOBS,
    C_SETUP,
    C_MBPS,
    C_IOPS,
    C_VALUE,
    C_UNIT,
    C_LAT,
    C_P50,
    C_P99,
    C_P999,
    C_N,
    C_SD,
    C_CI,
    C_FLAG,
    C_RATIO,
    N_SUM
};

static const char *const sum_head[N_SUM] = {"Test",
                                            "Block size (B)",
                                            "QD",
                                            "Jobs",
                                            "Set-up",
                                            "MB/s",
                                            "IOPS",
                                            "Figure",
                                            "Unit",
                                            "Latency mean (µs)",
                                            "p50 (µs)",
                                            "p99 (µs)",
                                            "p99.9 (µs)",
                                            "n",
                                            "stdev (main figure)",
                                            "95% CI ± (main figure)",
                                            "Check",
                                            "vs baseline"};

/* Which columns some row has a figure in: the others are hidden, so that the page's width (it
 * prints one page wide) goes to the figures. */
static void mark_used(unsigned char *used, const bl_table *t, size_t i, size_t j)
{
    const bl_row *row = &t->rows[i];
    const bl_cell *c = bl_table_cell(t, i, j);
    used[C_BS] |= row->bs > 0;
    used[C_QD] |= row->iodepth > 0;
    used[C_JOBS] |= row->numjobs > 0;
    used[C_MBPS] |= bl_present(c->m[BL_M_BW].fig);
    used[C_IOPS] |= bl_present(c->m[BL_M_IOPS].fig);
    used[C_VALUE] |= bl_present(c->m[BL_M_VALUE].fig);
    used[C_UNIT] |= (c->m[BL_M_VALUE].n && c->unit) || (!bl_cell_main(row, c)->n && c->note);
    used[C_LAT] |= bl_present(c->m[BL_M_LAT].fig);
    used[C_P50] |= bl_present(c->m[BL_M_P50].fig);
    used[C_P99] |= bl_present(c->m[BL_M_P99].fig);
    used[C_P999] |= bl_present(c->m[BL_M_P999].fig);
    used[C_SD] |= bl_present(bl_cell_main(row, c)->sd);
    used[C_CI] |= bl_present(bl_cell_main(row, c)->ci);
    used[C_FLAG] |= bl_present(c->flag) || c->n_setups > 1;
    used[C_RATIO] |= t->baseline >= 0;
}

static void summary_line(lxw_worksheet *ws, bl_xfmt *x, const bl_table *t, size_t i, size_t j,
                         lxw_row_t r)
{
    const bl_row *row = &t->rows[i];
    const bl_cell *c = bl_table_cell(t, i, j);
    worksheet_write_string(ws, r, C_TEST, row->title, NULL);
    if (row->bs > 0)
        worksheet_write_number(ws, r, C_BS, (double)row->bs, bl_xfmt_num(x, "#,##0"));
    if (row->iodepth > 0)
        worksheet_write_number(ws, r, C_QD, (double)row->iodepth, NULL);
    if (row->numjobs > 0)
        worksheet_write_number(ws, r, C_JOBS, (double)row->numjobs, NULL);
    worksheet_write_string(ws, r, C_SETUP, t->cols[j].label, NULL);
    lxw_format *f1 = bl_xfmt_num(x, "#,##0.0"), *f0 = bl_xfmt_num(x, "#,##0");
    lxw_format *f3 = bl_xfmt_num(x, "#,##0.0##");
    num(ws, r, C_MBPS, c->m[BL_M_BW].fig, f1);
    num(ws, r, C_IOPS, c->m[BL_M_IOPS].fig, f0);
    num(ws, r, C_VALUE, c->m[BL_M_VALUE].fig, f1);
    if (c->m[BL_M_VALUE].n && c->unit)
        worksheet_write_string(ws, r, C_UNIT, c->unit, NULL);
    else if (!bl_cell_main(row, c)->n && c->note)
        worksheet_write_string(ws, r, C_UNIT, c->note, NULL);
    static const bl_metric lat[] = {BL_M_LAT, BL_M_P50, BL_M_P99, BL_M_P999};
    for (int k = 0; k < 4; k++)
        num(ws, r, (lxw_col_t)(C_LAT + k), c->m[lat[k]].fig / 1e3, f3);
    const bl_stat *m = bl_cell_main(row, c);
    worksheet_write_number(ws, r, C_N, (double)(m->n ? m->n : c->n_recs), NULL);
    num(ws, r, C_SD, m->sd, f3);
    num(ws, r, C_CI, m->ci, f3);
    /* a pooled cell's n, stdev and range are over set-ups, not repeats: said in its row */
    char buf[160] = "";
    if (c->n_setups > 1)
        snprintf(buf, sizeof buf, "pooled over %zu set-ups", c->n_setups);
    if (bl_present(c->flag))
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
                 "%simplausible: %.0f× the test's median elsewhere", *buf ? "; " : "", c->flag);
    if (*buf)
        worksheet_write_string(ws, r, C_FLAG, buf, x->warn);
    if (t->baseline >= 0) {
        double q = bl_table_ratio(t, i, j);
        num(ws, r, C_RATIO, q, bl_xfmt_num(x, "\"×\"0.00"));
    }
}

/* The set-up column as wide as its longest name (a CJK character counts two), so that names
 * are never cut where they differ; within reason (past 100 they are cut on screen, whole in
 * the cell). */
static double setup_width(const bl_table *t)
{
    size_t w = 24;
    for (size_t j = 0; j < t->ncols; j++) {
        size_t d = t->cols[j].label ? bl_display_width(t->cols[j].label) : 0;
        w = d > w ? d : w;
    }
    return w > 100 ? 100 : (double)w + 2;
}

/* Pages down for n rows: about 50 a page (a scale near 65%) unless the width asks for less. */
static uint16_t pages_down(lxw_row_t n)
{
    lxw_row_t p = (n + 49) / 50;
    return (uint16_t)(p < 1 ? 1 : p > 1000 ? 1000 : p);
}

void bl_xlsx_summary(lxw_workbook *wb, bl_xfmt *x, const bl_table *t, const char *title)
{
    lxw_worksheet *ws = workbook_add_worksheet(wb, "Summary");
    lxw_col_t last = t->baseline >= 0 ? C_RATIO : C_FLAG;
    for (lxw_col_t c = 0; c <= last; c++)
        worksheet_write_string(ws, 0, c, sum_head[c], x->head);
    worksheet_set_row(ws, 0, 46, NULL); /* three lines of a wrapped heading */
    unsigned char used[N_SUM] = {[C_TEST] = 1, [C_SETUP] = 1, [C_N] = 1};
    lxw_row_t r = 1;
    for (size_t i = 0; i < t->nrows; i++)
        for (size_t j = 0; j < t->ncols; j++)
            if (bl_table_cell(t, i, j)->n_recs) {
                mark_used(used, t, i, j);
                summary_line(ws, x, t, i, j, r++);
            }
    static const double width[N_SUM] = {
        [C_TEST] = 22, [C_BS] = 8, [C_QD] = 8, [C_JOBS] = 8, [C_SETUP] = 48, [C_FLAG] = 24};
    double shown = 0;
    for (lxw_col_t c = 0; c <= last; c++) {
        lxw_row_col_options hide = {.hidden = !used[c]};
        double w = c == C_SETUP ? setup_width(t) : width[c] ? width[c] : 10;
        worksheet_set_column_opt(ws, c, c, w, NULL, &hide);
        shown += used[c] ? w : 0;
    }
    worksheet_freeze_panes(ws, 1, 1);
    worksheet_autofilter(ws, 0, 0, r - 1, last);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb,
                     "MB/s = 10^6 bytes/s. %s, %s, %s. Repeats (same "
                     "test, same set-up) combined by --repeats %s; stdev and the 95%% confidence "
                     "interval of the mean (Student's t) are of the main figure (MB/s, else "
                     "IOPS, else the test's own). Latency: total (lat) where reported, else "
                     "completion (clat).",
                     bl_count(t->n_records, "record").s, bl_count(t->nrows, "test").s,
                     bl_count(t->ncols, "set-up").s, bl_repeats_name(t->repeats));
    if (t->n_pooled) {
        bl_strbuf_putc(&sb, ' ');
        bl_report_pooled_note(t, &sb);
    }
    if (t->n_unlabelled)
        bl_strbuf_printf(&sb, " %s lack%s the label '%s': each stands alone.",
                         bl_count(t->n_unlabelled, "set-up").s, t->n_unlabelled == 1 ? "s" : "",
                         t->by);
    /* The note wraps across the columns shown, so that the print area holds it whole. */
    worksheet_merge_range(ws, r + 1, 0, r + 1, last, sb.s, x->wrap);
    worksheet_set_row(ws, r + 1, 15.0 * (1 + (double)sb.len / shown), NULL);
    bl_strbuf_free(&sb);
    /* Printed: the table and its note, one page wide, the header row on every page. */
    bl_xlsx_print_setup(ws, title, 1, 1);
    worksheet_print_area(ws, 0, 0, r + 1, last);
    worksheet_fit_to_pages(ws, 1, pages_down(r + 1));
    worksheet_activate(ws);
}

static const char *pivot_name(bl_metric m)
{
    static const char *const n[BL_M_COUNT] = {
        [BL_M_BW] = "Throughput (MBps)", [BL_M_IOPS] = "IOPS",       [BL_M_LAT] = "Latency mean",
        [BL_M_P50] = "Latency p50",      [BL_M_P99] = "Latency p99", [BL_M_P999] = "Latency p99.9",
        [BL_M_VALUE] = "Other figures",  [BL_M_CPU] = "CPU"};
    return n[m];
}

/* The rows of a pivot: tests with the metric (for value: in the given unit). */
static size_t pivot_rows(const bl_table *t, bl_metric m, const char *vunit, size_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        if (!bl_row_has(t, i, m))
            continue;
        if (m == BL_M_VALUE && strcmp(t->rows[i].unit ? t->rows[i].unit : "", vunit) != 0)
            continue;
        rows[n++] = i;
    }
    return n;
}

/* The hidden "Chart data" sheet: one block per ten set-ups of a pivot, only the tests they
 * have (no empty bar groups), for the native charts to read. Blocks follow one another, so
 * rows are written in order (constant-memory mode). */
typedef struct chart_data {
    lxw_worksheet *ws;
    lxw_row_t next;
} chart_data;

static lxw_row_t data_block(chart_data *cd, bl_xfmt *x, const bl_table *t, const size_t *keep,
                            size_t nk, size_t j0, size_t j1, bl_metric m, double scale,
                            lxw_format *f)
{
    lxw_row_t h = cd->next;
    worksheet_write_string(cd->ws, h, 0, "Test", x->head);
    for (size_t j = j0; j < j1; j++)
        worksheet_write_string(cd->ws, h, (lxw_col_t)(j - j0 + 1), t->cols[j].label, x->head);
    /* Tests last to first: a bar chart draws its first category at the bottom. */
    for (size_t q = 0; q < nk; q++) {
        lxw_row_t r = h + 1 + (lxw_row_t)q;
        size_t i = keep[nk - 1 - q];
        worksheet_write_string(cd->ws, r, 0, t->rows[i].title, NULL);
        for (size_t j = j0; j < j1; j++) {
            const bl_stat *s = &bl_table_cell(t, i, j)->m[m];
            if (s->n)
                worksheet_write_number(cd->ws, r, (lxw_col_t)(j - j0 + 1), s->fig * scale, f);
        }
    }
    cd->next = h + (lxw_row_t)nk + 2;
    return h;
}

/* Native charts of ten set-ups each below the pivot, each on a page of its own when printed;
 * together they hold every set-up. */
static lxw_row_t pivot_charts(lxw_workbook *wb, lxw_worksheet *ws, bl_xfmt *x, chart_data *cd,
                              const bl_table *t, const size_t *rows, size_t nr, bl_metric m,
                              lxw_format *f, const char *unit, const char *what, lxw_row_t at,
                              int together)
{
    size_t nch = (t->ncols + SERIES_PER_CHART - 1) / SERIES_PER_CHART, nb = 0;
    lxw_row_t end = at;
    double scale = strcmp(unit, "µs") == 0 ? 1e-3 : 1;
    size_t *keep = bl_xmalloc((nr + 1) * sizeof *keep);
    lxw_row_t *breaks = bl_xcalloc(nch + 1, sizeof *breaks);
    for (size_t k = 0; k < nch; k++) {
        size_t j0 = k * SERIES_PER_CHART, j1 = j0 + SERIES_PER_CHART, nk = 0;
        if (j1 > t->ncols)
            j1 = t->ncols;
        for (size_t q = 0; q < nr; q++) {
            int any = 0;
            for (size_t j = j0; j < j1 && !any; j++)
                any = bl_table_cell(t, rows[q], j)->m[m].n > 0;
            if (any)
                keep[nk++] = rows[q];
        }
        if (nk == 0)
            continue;
        lxw_row_t h = data_block(cd, x, t, keep, nk, j0, j1, m, scale, f);
        lxw_chart *ch = workbook_add_chart(wb, LXW_CHART_BAR);
        /* Bars are drawn bottom-up, categories and series alike, and Excel and LibreOffice
         * list a bar chart's legend top-down from the last series. So the tests are written
         * last to first (data_block) and the series added last set-up first: the first test
         * is at the top, the first set-up the top bar of each group and the top of the
         * legend, as in the table (the page and the PDF chart draw them so too). Reversing
         * the category axis instead turned the legend upside down in LibreOffice. */
        for (size_t jj = j1; jj-- > j0;) {
            size_t j = jj;
            lxw_col_t c = (lxw_col_t)(j - j0 + 1);
            lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(s, "Chart data", h + 1, 0, h + (lxw_row_t)nk, 0);
            chart_series_set_values(s, "Chart data", h + 1, c, h + (lxw_row_t)nk, c);
            chart_series_set_name_range(s, "Chart data", h, c);
            /* showVal on each series: LibreOffice draws labels only from the series' own
             * dLbls, not from a chart-wide default. */
            chart_series_set_labels(s);
            chart_series_set_labels_position(s, LXW_CHART_LABEL_POSITION_OUTSIDE_END);
        }
        char buf[256];
        if (nch > 1)
            snprintf(buf, sizeof buf, "%s (%s), set-ups %zu–%zu of %zu", what, unit, j0 + 1, j1,
                     t->ncols);
        else
            snprintf(buf, sizeof buf, "%s (%s)", what, unit);
        chart_title_set_name(ch, buf);
        chart_axis_set_name(ch->x_axis, unit);
        chart_legend_set_position(ch, LXW_CHART_LEGEND_RIGHT);
        /* A default chart is 480×288 px; about 5 px a bar, a page at most. */
        double px = 220 + (double)(nk * (j1 - j0)) * 5;
        lxw_chart_options opt = {.x_scale = 2.4,
                                 .y_scale = (px > 860 ? 860 : px) / 288,
                                 .object_position = LXW_OBJECT_MOVE_DONT_SIZE};
        /* A group's table and its first chart share a page when they fit one (scaled). */
        if (!(together && k == 0))
            breaks[nb++] = at;
        worksheet_insert_chart_opt(ws, at, 0, ch, &opt);
        at += (lxw_row_t)(opt.y_scale * 288 / 20) + 2;
        end = at;
    }
    if (nb)
        worksheet_set_h_pagebreaks(ws, breaks);
    free(breaks);
    free(keep);
    return end;
}

static void pivot(lxw_workbook *wb, bl_xfmt *x, chart_data *cd, const bl_table *t, bl_metric m,
                  const char *vunit, const char *title, const char *name)
{
    size_t *rows = bl_xmalloc((t->nrows + 1) * sizeof *rows);
    const char *unit = m == BL_M_VALUE ? vunit : bl_metric_unit(m);
    size_t nr = pivot_rows(t, m, vunit, rows);
    if (nr == 0) {
        free(rows);
        return;
    }
    /* Sheet names may not hold '/': "files/s" becomes "files per s". */
    char sheet[64];
    if (m == BL_M_VALUE) {
        size_t o = 0;
        for (const char *u = vunit; *u && o + 5 < sizeof sheet; u++) {
            if (*u == '/') {
                memcpy(sheet + o, " per ", 5);
                o += 5;
            } else if (!strchr("[]:*?\\'", *u)) {
                sheet[o++] = *u;
            }
        }
        sheet[o] = 0;
        if (!o)
            snprintf(sheet, sizeof sheet, "Other figures");
    } else {
        snprintf(sheet, sizeof sheet, "%s", pivot_name(m));
    }
    if (name) /* a group's sheet */
        snprintf(sheet, sizeof sheet, "%s", name);
    lxw_worksheet *ws = workbook_add_worksheet(wb, sheet);
    int ns = unit && strcmp(unit, "ns") == 0;
    const char *shown = ns ? "µs" : unit ? unit : "";
    /* A sheet has 16,384 columns: one for the tests, the rest for set-ups. */
    size_t nc = t->ncols < LXW_COL_MAX - 1 ? t->ncols : LXW_COL_MAX - 1;
    worksheet_write_string(ws, 0, 0, "Test", x->head);
    for (size_t j = 0; j < nc; j++)
        worksheet_write_string(ws, 0, (lxw_col_t)(j + 1), t->cols[j].label, x->head);
    /* The header row as tall as the longest wrapped name needs (14 columns a line, about
     * 15 pt a line, at most ten lines): LibreOffice clips a wrapped header it has no room for. */
    size_t lines = 3;
    for (size_t j = 0; j < nc; j++) {
        size_t w = bl_display_width(t->cols[j].label ? t->cols[j].label : "");
        lines = (w + 11) / 12 > lines ? (w + 11) / 12 : lines;
    }
    worksheet_set_row(ws, 0, 15.0 * (double)(lines < 10 ? lines : 10) + 4, NULL);
    worksheet_set_column(ws, 0, 0, 22, NULL);
    worksheet_set_column(ws, 1, (lxw_col_t)nc, 14, NULL);
    lxw_format *f = bl_xfmt_unit(x, shown, m == BL_M_IOPS ? 0 : 1);
    for (size_t k = 0; k < nr; k++) {
        lxw_row_t r = (lxw_row_t)(k + 1);
        worksheet_write_string(ws, r, 0, t->rows[rows[k]].title, NULL);
        for (size_t j = 0; j < nc; j++) {
            const bl_stat *s = &bl_table_cell(t, rows[k], j)->m[m];
            if (s->n)
                worksheet_write_number(ws, r, (lxw_col_t)(j + 1), ns ? s->fig / 1e3 : s->fig, f);
        }
    }
    worksheet_freeze_panes(ws, 1, 1);
    bl_strbuf note;
    bl_strbuf_init(&note);
    bl_strbuf_printf(&note,
                     "%s in %s; repeats combined by --repeats %s (n, stdev and 95%% CI on "
                     "Summary).",
                     sheet, shown, bl_repeats_name(t->repeats));
    if (nc < t->ncols)
        bl_strbuf_printf(&note,
                         " The first %zu of %zu set-ups (a sheet has 16,384 columns); "
                         "Summary has them all.",
                         nc, t->ncols);
    if (t->ncols > MAX_CHARTED_SETUPS)
        bl_strbuf_printf(&note,
                         " %zu set-ups are too many to chart (%d at most): narrow with "
                         "FILTER or --by.",
                         t->ncols, MAX_CHARTED_SETUPS);
    worksheet_write_string(ws, (lxw_row_t)(nr + 1), 0, note.s, x->text);
    bl_strbuf_free(&note);
    const char *what = name ? name : m == BL_M_BW ? "Throughput" : sheet;
    /* A group's sheet with one chart and a short table prints on one page: table and chart
     * together, scaled to fit (the chart is at most 860 px, about a page). */
    int together = name && t->ncols <= SERIES_PER_CHART && nr <= 30;
    lxw_row_t end = (lxw_row_t)(nr + 2);
    if (t->ncols <= MAX_CHARTED_SETUPS)
        end = pivot_charts(wb, ws, x, cd, t, rows, nr, m, f, shown, what, (lxw_row_t)(nr + 3),
                           together);
    /* Past a dozen set-ups a page-wide fit is unreadable: pages across, each with the test
     * column and the header row. */
    bl_xlsx_print_setup(ws, title, 1, t->ncols <= 12);
    if (together) {
        /* The chart is 2.4 default widths (1152 px), up to 13 columns of 14 beside the tests'. */
        lxw_col_t last = nc > 13 ? (lxw_col_t)nc : 13;
        worksheet_print_area(ws, 0, 0, end, last);
        worksheet_fit_to_pages(ws, 1, 1);
    }
    if (t->ncols > 12) {
        /* Eleven set-ups a page across (about 60 %, still readable on A4): 70 % printed
         * about eight, and the whole-store pivots took a hundred pages each. */
        worksheet_fit_to_pages(ws, (uint16_t)((nc + 10) / 11), 0);
        worksheet_repeat_columns(ws, 0, 0);
    }
    free(rows);
}

/* "G2 001_8562a4b6946fb1ec.txt": the group's number (unique) and as much of its source's
 * file name as a sheet name holds (31 characters, none of []:*?/\'). */
static void group_sheet(char *out, size_t n, size_t g, const char *name)
{
    size_t o = (size_t)snprintf(out, n, "G%zu ", g + 1), chars = o;
    for (const unsigned char *p = (const unsigned char *)bl_basename(name); *p && chars < 31;) {
        size_t len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : 4;
        if (o + len + 1 > n)
            break;
        for (size_t i = 0; i < len && p[i]; i++)
            out[o++] = len == 1 && strchr("[]:*?/\\'", *p) ? '_' : (char)p[i];
        p += len;
        chars++;
    }
    out[o] = 0;
}

/* How the comparison groups were charted: on sheets of their own (or, for a single group, on
 * the metrics' pivots), with nothing to compare (one set-up, or no test shared), or with too
 * many set-ups for a chart. */
typedef struct {
    size_t n, charted, lone, large;
} group_count;

/* A sheet per comparison group whose set-ups share a test: its pivot of the main figure with
 * native charts of all its set-ups. A single group is the whole table: the metrics' pivots
 * are its sheets, and it is counted as they chart it. */
static group_count group_pivots(lxw_workbook *wb, bl_xfmt *x, chart_data *cd, const bl_table *t,
                                const char *title)
{
    bl_groups gs;
    bl_groups_make(t, t->by != NULL, &gs);
    group_count gc = {.n = gs.n};
    for (size_t g = 0; g < gs.n; g++) {
        bl_table *sub = bl_table_subset(t, gs.v[g].cols, gs.v[g].ncols);
        int shared = 0, bw = 0;
        for (size_t i = 0; i < sub->nrows; i++) {
            size_t n = 0;
            for (size_t j = 0; j < sub->ncols; j++)
                n += bl_table_cell(sub, i, j)->n_recs > 0;
            shared |= n > 1;
            bw |= sub->rows[i].has_bw;
        }
        if (!shared) {
            gc.lone++;
        } else if (sub->ncols > MAX_CHARTED_SETUPS) {
            gc.large++;
        } else {
            if (gs.n > 1) {
                char sheet[160];
                group_sheet(sheet, sizeof sheet, g, gs.v[g].name);
                pivot(wb, x, cd, sub, bw ? BL_M_BW : BL_M_IOPS, NULL, title, sheet);
            }
            gc.charted++;
        }
        bl_table_free(sub);
    }
    bl_groups_free(&gs);
    return gc;
}

void bl_xlsx_pivots(lxw_workbook *wb, bl_xfmt *x, const bl_table *t, const bl_metric *ms, size_t nm,
                    const char *title, bl_diags *notes)
{
    static const bl_metric all[] = {BL_M_BW, BL_M_IOPS, BL_M_LAT, BL_M_P99, BL_M_VALUE};
    if (nm == 0) {
        ms = all;
        nm = sizeof all / sizeof all[0];
    }
    chart_data cd = {workbook_add_worksheet(wb, "Chart data"), 0};
    worksheet_hide(cd.ws);
    for (size_t q = 0; q < nm; q++) {
        if (ms[q] != BL_M_VALUE) {
            pivot(wb, x, &cd, t, ms[q], NULL, title, NULL);
            continue;
        }
        /* One sheet a unit: seeks and files/s on one axis would compare nothing. */
        for (size_t i = 0; i < t->nrows; i++) {
            const char *u = t->rows[i].unit ? t->rows[i].unit : "";
            int seen = !t->rows[i].has_value;
            for (size_t k = 0; k < i && !seen; k++)
                seen =
                    t->rows[k].has_value && strcmp(t->rows[k].unit ? t->rows[k].unit : "", u) == 0;
            if (!seen)
                pivot(wb, x, &cd, t, BL_M_VALUE, u, title, NULL);
        }
    }
    group_count gc = group_pivots(wb, x, &cd, t, title);
    if (t->ncols <= MAX_CHARTED_SETUPS || !notes)
        return;
    /* Say where the charts are, and what has none. */
    if (gc.n == 1) {
        bl_diags_add(notes, 0,
                     "%zu set-ups are too many for one chart; they form one comparison group, "
                     "so none is charted (%d at most): narrow with FILTER or --by",
                     t->ncols, MAX_CHARTED_SETUPS);
        return;
    }
    bl_strbuf also;
    bl_strbuf_init(&also);
    if (gc.large)
        bl_strbuf_printf(&also, ", %zu with too many set-ups to chart (%d at most)", gc.large,
                         MAX_CHARTED_SETUPS);
    bl_diags_add(notes, 0,
                 "%zu set-ups are too many for one chart; %zu of %s charted on sheets of their "
                 "own (G1, G2, ...), %zu with nothing to compare (one set-up, or no test "
                 "shared)%s",
                 t->ncols, gc.charted, bl_count(gc.n, "comparison group").s, gc.lone,
                 also.s ? also.s : "");
    bl_strbuf_free(&also);
}
