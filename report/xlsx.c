/* The workbook: Summary with its native chart, then the detail sheets of xlsx_sheets.c. */
#include "xlsx.h"
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "table.h"
#include "xlsx_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Excel refuses a chart with more than 255 series; past a dozen bars a group is unreadable. */
#define MAX_CHART_SERIES 16
#define BL_XLSX_CONSTANT_MEMORY_FROM 20000

lxw_format *bl_xfmt_num(bl_xfmt *x, const char *code)
{
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(x->code[i], code) == 0)
            return x->f[i];
    if (x->n == sizeof x->f / sizeof x->f[0])
        return NULL; /* General format: the figure stays right, only its look is plain */
    lxw_format *f = workbook_add_format(x->wb);
    format_set_num_format(f, code);
    x->code[x->n] = bl_xstrdup(code);
    x->f[x->n] = f;
    return x->f[x->n++];
}

lxw_format *bl_xfmt_unit(bl_xfmt *x, const char *unit, int decimals)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "#,##0%s%.*s \"", decimals ? "." : "", decimals, "000000");
    for (const char *u = unit; *u; u++)
        if (*u != '"')
            bl_strbuf_putc(&sb, *u);
    bl_strbuf_putc(&sb, '"');
    lxw_format *f = bl_xfmt_num(x, sb.s);
    bl_strbuf_free(&sb);
    return f;
}

static void xfmt_init(bl_xfmt *x, lxw_workbook *wb)
{
    memset(x, 0, sizeof *x);
    x->wb = wb;
    x->head = workbook_add_format(wb);
    format_set_bold(x->head);
    format_set_bg_color(x->head, 0xDCE6F1);
    format_set_bottom(x->head, LXW_BORDER_THIN);
    format_set_text_wrap(x->head);
    format_set_align(x->head, LXW_ALIGN_VERTICAL_CENTER);
    x->wrap = workbook_add_format(wb);
    format_set_text_wrap(x->wrap);
    x->text = workbook_add_format(wb);
    format_set_italic(x->text);
    format_set_font_color(x->text, 0x595959);
}

static void xfmt_free(bl_xfmt *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->code[i]);
}

/* The unit format of a row's main figure. */
static lxw_format *main_format(bl_xfmt *x, const bl_row *row)
{
    if (row->has_bw)
        return bl_xfmt_unit(x, "MB/s", 1);
    if (row->has_iops)
        return bl_xfmt_unit(x, "IOPS", 0);
    return bl_xfmt_unit(x, row->unit ? row->unit : "", 1);
}

static void write_stat(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const bl_stat *s, double scale,
                       lxw_format *f)
{
    if (s->n)
        worksheet_write_number(ws, r, c, s->fig * scale, f);
}

typedef struct sum_layout {
    int iops, sd, lat, ratio;
    lxw_col_t per, first; /* columns per compared column, first of them */
    size_t ncols;         /* compared columns that fit in a sheet's 16,384 columns */
} sum_layout;

static void summary_head(lxw_worksheet *ws, bl_xfmt *x, const bl_table *t, const sum_layout *L)
{
    static const char *const lead[] = {"Test", "Block size (B)", "QD", "Jobs"};
    for (lxw_col_t c = 0; c < 4; c++)
        worksheet_write_string(ws, 0, c, lead[c], x->head);
    char buf[512];
    const char *base = t->baseline >= 0 ? t->cols[t->baseline].title : NULL;
    for (size_t j = 0; j < L->ncols; j++) {
        lxw_col_t c = (lxw_col_t)(L->first + j * L->per);
        const char *title = t->cols[j].title;
        worksheet_write_string(ws, 0, c++, title, x->head);
        if (L->iops) {
            snprintf(buf, sizeof buf, "%s IOPS", title);
            worksheet_write_string(ws, 0, c++, buf, x->head);
        }
        if (L->sd) {
            snprintf(buf, sizeof buf, "%s ± stdev", title);
            worksheet_write_string(ws, 0, c++, buf, x->head);
            snprintf(buf, sizeof buf, "%s n", title);
            worksheet_write_string(ws, 0, c++, buf, x->head);
        }
        if (L->lat) {
            snprintf(buf, sizeof buf, "%s latency mean", title);
            worksheet_write_string(ws, 0, c++, buf, x->head);
            snprintf(buf, sizeof buf, "%s latency p99", title);
            worksheet_write_string(ws, 0, c++, buf, x->head);
        }
        if (L->ratio) {
            if ((long)j != t->baseline)
                snprintf(buf, sizeof buf, "%s vs %s", title, base);
            else
                snprintf(buf, sizeof buf, "%s (baseline)", title);
            worksheet_write_string(ws, 0, c++, buf, x->head);
        }
    }
}

static void summary_row(lxw_worksheet *ws, bl_xfmt *x, const bl_table *t, const sum_layout *L,
                        size_t i)
{
    const bl_row *row = &t->rows[i];
    lxw_row_t r = (lxw_row_t)(i + 1);
    worksheet_write_string(ws, r, 0, row->title, NULL);
    if (row->bs > 0)
        worksheet_write_number(ws, r, 1, (double)row->bs, bl_xfmt_num(x, "#,##0"));
    if (row->iodepth > 0)
        worksheet_write_number(ws, r, 2, (double)row->iodepth, NULL);
    if (row->numjobs > 0)
        worksheet_write_number(ws, r, 3, (double)row->numjobs, NULL);
    lxw_format *mf = main_format(x, row), *us = bl_xfmt_unit(x, "µs", 1);
    for (size_t j = 0; j < L->ncols; j++) {
        const bl_cell *c = bl_table_cell(t, i, j);
        const bl_stat *m = bl_cell_main(row, c);
        lxw_col_t col = (lxw_col_t)(L->first + j * L->per);
        if (m->n)
            worksheet_write_number(ws, r, col, m->fig, mf);
        else if (c->note)
            worksheet_write_string(ws, r, col, c->note, NULL);
        col++;
        if (L->iops) {
            if (row->small_block && row->has_bw)
                write_stat(ws, r, col, &c->m[BL_M_IOPS], 1, bl_xfmt_unit(x, "IOPS", 0));
            col++;
        }
        if (L->sd) {
            if (m->n > 1)
                worksheet_write_number(ws, r, col, m->sd, mf);
            if (m->n)
                worksheet_write_number(ws, r, col + 1, (double)m->n, NULL);
            col += 2;
        }
        if (L->lat) {
            write_stat(ws, r, col++, &c->m[BL_M_LAT], 1e-3, us);
            write_stat(ws, r, col++, &c->m[BL_M_P99], 1e-3, us);
        }
        if (L->ratio) {
            double q = bl_table_ratio(t, i, j);
            if (bl_present(q))
                worksheet_write_number(ws, r, col, q, bl_xfmt_num(x, "\"×\"0.00"));
            col++;
        }
    }
}

static void summary_chart(lxw_workbook *wb, lxw_worksheet *ws, bl_xfmt *x, const bl_table *t,
                          lxw_row_t at, const char *title)
{
    size_t *rows = bl_xmalloc((t->nrows + 1) * sizeof *rows);
    const char *unit = "";
    size_t nr = bl_table_chart_rows(t, rows, &unit);
    size_t ns = t->ncols < MAX_CHART_SERIES ? t->ncols : MAX_CHART_SERIES;
    if (nr == 0 || ns == 0) {
        free(rows);
        return;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "Chart data (%s%s)", unit,
             ns < t->ncols ? ", first columns only" : "");
    worksheet_write_string(ws, at, 0, buf, x->text);
    worksheet_set_row(ws, at + 1, 45, NULL); /* room for wrapped column titles */
    worksheet_write_string(ws, at + 1, 0, "Test", x->head);
    for (size_t j = 0; j < ns; j++)
        worksheet_write_string(ws, at + 1, (lxw_col_t)(j + 1), t->cols[j].title, x->head);
    lxw_format *f = bl_xfmt_unit(x, unit, strcmp(unit, "IOPS") == 0 ? 0 : 1);
    for (size_t k = 0; k < nr; k++) {
        lxw_row_t r = (lxw_row_t)(at + 2 + k);
        worksheet_write_string(ws, r, 0, t->rows[rows[k]].title, NULL);
        for (size_t j = 0; j < ns; j++) {
            const bl_stat *s = bl_cell_main(&t->rows[rows[k]], bl_table_cell(t, rows[k], j));
            if (s->n)
                worksheet_write_number(ws, r, (lxw_col_t)(j + 1), s->fig, f);
        }
    }
    lxw_chart *ch = workbook_add_chart(wb, LXW_CHART_BAR);
    lxw_row_t first = at + 2, last = (lxw_row_t)(at + 1 + nr);
    for (size_t j = 0; j < ns; j++) {
        lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(s, "Summary", first, 0, last, 0);
        chart_series_set_values(s, "Summary", first, (lxw_col_t)(j + 1), last, (lxw_col_t)(j + 1));
        chart_series_set_name_range(s, "Summary", at + 1, (lxw_col_t)(j + 1));
        if (ns * nr <= 40)
            chart_series_set_labels(s);
    }
    snprintf(buf, sizeof buf, "%s (%s)", title, unit);
    chart_title_set_name(ch, buf);
    chart_axis_set_name(ch->x_axis, unit);
    chart_axis_set_reverse(ch->y_axis); /* first test at the top, as in the table */
    chart_legend_set_position(ch, LXW_CHART_LEGEND_TOP);
    lxw_chart_options opt = {.x_scale = 2.0,
                             .y_scale = 1.0 + (double)(nr * ns) / 12.0,
                             .object_position = LXW_OBJECT_MOVE_DONT_SIZE};
    if (opt.y_scale > 8)
        opt.y_scale = 8;
    worksheet_insert_chart_opt(ws, last + 2, 0, ch, &opt);
    free(rows);
}

static void summary_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_table *t, const char *title)
{
    lxw_worksheet *ws = workbook_add_worksheet(wb, "Summary");
    sum_layout L = {.iops = t->any_small,
                    .sd = t->any_repeat,
                    .lat = t->any_lat,
                    .ratio = t->baseline >= 0,
                    .first = 4};
    L.per = (lxw_col_t)(1 + L.iops + 2 * L.sd + 2 * L.lat + L.ratio);
    size_t fit = (LXW_COL_MAX - L.first) / L.per;
    L.ncols = t->ncols < fit ? t->ncols : fit;
    lxw_col_t last = (lxw_col_t)(L.first + L.ncols * L.per - 1);
    worksheet_set_column(ws, 0, 0, 26, NULL);
    worksheet_set_column(ws, 1, 3, 9, NULL);
    worksheet_set_column(ws, 4, last, 15, NULL);
    worksheet_set_row(ws, 0, 45, NULL);
    summary_head(ws, x, t, &L);
    for (size_t i = 0; i < t->nrows; i++)
        summary_row(ws, x, t, &L, i);
    worksheet_freeze_panes(ws, 1, 1);
    worksheet_autofilter(ws, 0, 0, (lxw_row_t)t->nrows, last);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "MB/s = 10^6 bytes/s. %zu records.", t->n_records);
    if (L.ncols < t->ncols)
        bl_strbuf_printf(&sb,
                         " The first %zu of %zu columns (a sheet has 16,384); narrow with "
                         "FILTER or --by.",
                         L.ncols, t->ncols);
    if (t->any_repeat)
        bl_strbuf_puts(&sb, " Where n > 1 the figure is the mean of n records and ± their "
                            "sample standard deviation.");
    worksheet_write_string(ws, (lxw_row_t)(t->nrows + 1), 0, sb.s, x->text);
    bl_strbuf_free(&sb);
    summary_chart(wb, ws, x, t, (lxw_row_t)(t->nrows + 3), title);
    worksheet_activate(ws);
}

int bl_xlsx_write(const char *path, const bl_records *recs, const bl_xlsx_opts *o, char *err,
                  size_t errlen)
{
    bl_table_opts to = {.by = o->by, .baseline = o->baseline};
    bl_table *t = bl_table_build(recs, &to, err, errlen);
    if (!t)
        return 2;
    /* Constant-memory mode keeps a huge workbook small in memory, but leaves the chart
     * without cached values (Excel and LibreOffice read the cells on opening); below this
     * size the cache costs nothing and makes the file complete. */
    size_t cm = o->constant_memory_from ? o->constant_memory_from : BL_XLSX_CONSTANT_MEMORY_FROM;
    lxw_workbook_options wo = {.constant_memory = recs->n >= cm, .tmpdir = NULL};
    /* libxlsxwriter writes by name: it writes the temporary file, renamed when complete. */
    bl_atomic out;
    if (bl_atomic_open(&out, path, err, errlen) != 0) {
        bl_table_free(t);
        return 1;
    }
    bl_atomic_close_stream(&out);
    lxw_workbook *wb = workbook_new_opt(out.tmp, &wo);
    if (!wb) {
        snprintf(err, errlen, "cannot create %s", path);
        bl_atomic_abort(&out);
        bl_table_free(t);
        return 1;
    }
    lxw_doc_properties props = {.title = "Storage benchmark comparison",
                                .comments = "Made by benchlog"};
    workbook_set_properties(wb, &props);
    bl_xfmt x;
    xfmt_init(&x, wb);
    size_t max = o->max_run_sheets ? o->max_run_sheets : 200;
    bl_xruns runs;
    bl_xruns_build(recs, &runs);
    summary_sheet(wb, &x, t, o->title ? o->title : "Throughput by test");
    bl_xlsx_run_sheets(wb, &x, recs, &runs, max);
    bl_xlsx_latency_sheet(wb, &x, recs, &runs, max);
    bl_xlsx_disks_sheet(wb, &x, recs, &runs, max);
    bl_xlsx_sources_sheet(wb, &x, recs, &runs, max);
    lxw_error e = workbook_close(wb);
    int rc = 0;
    if (e != LXW_NO_ERROR) {
        snprintf(err, errlen, "cannot write %s: %s (the old file, if any, is unchanged)", path,
                 lxw_strerror(e));
        bl_atomic_abort(&out);
        rc = 1;
    } else if (bl_atomic_commit(&out, err, errlen) != 0) {
        rc = 1;
    }
    bl_xruns_free(&runs);
    xfmt_free(&x);
    bl_table_free(t);
    return rc;
}
