/* The workbook's detail sheets: every record of each run, latency percentiles, sources. */
#include "../core/strbuf.h"
#include "xlsx_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sheet the cells go to: through libxlsxwriter, or its rows written by benchlog
 * (xlsx_own.h) where own is set. */
typedef struct {
    lxw_worksheet *ws;
    bl_xown *own;
} dsheet;

static dsheet lxw(lxw_worksheet *ws)
{
    return (dsheet){ws, NULL};
}

static void put_num(dsheet ws, lxw_row_t row, lxw_col_t col, double v, lxw_format *f)
{
    if (ws.own)
        bl_xown_number(ws.own, row, col, v, f);
    else
        worksheet_write_number(ws.ws, row, col, v, f);
}

static void str(dsheet ws, lxw_row_t row, lxw_col_t col, const char *s, lxw_format *f)
{
    if (!s || !*s)
        return;
    if (ws.own)
        bl_xown_string(ws.own, row, col, s, f);
    else
        worksheet_write_string(ws.ws, row, col, s, f);
}

static void num(dsheet ws, lxw_row_t row, lxw_col_t col, double v, lxw_format *f)
{
    if (bl_present(v))
        put_num(ws, row, col, v, f);
}

static void inum(dsheet ws, lxw_row_t row, lxw_col_t col, int64_t v, lxw_format *f)
{
    if (v >= 0)
        put_num(ws, row, col, (double)v, f);
}

static double p99(const bl_lat *l)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == 99)
            return l->pct[i].value;
    return BL_ABSENT;
}

static const char *const rec_head[] = {"Line",
                                       "Test",
                                       "Op",
                                       "Pattern",
                                       "Block size (B)",
                                       "QD",
                                       "Jobs",
                                       "Engine",
                                       "Direct",
                                       "Size (B)",
                                       "I/O (B)",
                                       "Runtime (s)",
                                       "Bandwidth (MB/s)",
                                       "IOPS",
                                       "clat mean (µs)",
                                       "clat p99 (µs)",
                                       "lat mean (µs)",
                                       "lat p99 (µs)",
                                       "slat mean (µs)",
                                       "BW samples min (MB/s)",
                                       "BW samples mean (MB/s)",
                                       "BW samples max (MB/s)",
                                       "IOPS samples mean",
                                       "CPU usr (%)",
                                       "CPU sys (%)",
                                       "CPU (%)",
                                       "Metric",
                                       "Value",
                                       "Unit",
                                       "Note",
                                       "Labels"};
#define N_REC_HEAD (sizeof rec_head / sizeof rec_head[0])

void bl_xlsx_labels_text(const bl_record *r, bl_strbuf *sb)
{
    bl_strbuf_reset(sb);
    bl_strbuf_puts(sb, "");
    for (size_t i = 0; i < r->n_labels; i++) { /* a row each: no printf */
        if (i)
            bl_strbuf_puts(sb, "; ");
        bl_strbuf_puts(sb, r->labels[i].key);
        bl_strbuf_putc(sb, '=');
        bl_strbuf_puts(sb, r->labels[i].value);
    }
}

/* A format of the detail rows: made (or found) by the first row as before, then kept. */
static lxw_format *row_fmt(bl_xdetail *d, size_t i, const char *code)
{
    if (!(d->fmt_set & 1u << i)) {
        d->fmt[i] = bl_xfmt_num(d->x, code);
        d->fmt_set |= 1u << i;
    }
    return d->fmt[i];
}

static void record_row(dsheet ws, bl_xdetail *d, lxw_row_t row, lxw_col_t c, const bl_record *r,
                       bl_strbuf *sb)
{
    lxw_format *b = row_fmt(d, 0, "#,##0"), *s3 = row_fmt(d, 1, "0.000###");
    lxw_format *f1 = row_fmt(d, 2, "#,##0.0"), *us = row_fmt(d, 3, "#,##0.0");
    inum(ws, row, c++, r->line, NULL);
    str(ws, row, c++, r->test, NULL);
    str(ws, row, c++, r->op, NULL);
    str(ws, row, c++, r->pattern, NULL);
    inum(ws, row, c++, r->bs, b);
    inum(ws, row, c++, r->iodepth, NULL);
    inum(ws, row, c++, r->numjobs, NULL);
    str(ws, row, c++, r->ioengine, NULL);
    str(ws, row, c++, r->direct == BL_TRI_ABSENT ? NULL : r->direct ? "yes" : "no", NULL);
    inum(ws, row, c++, r->size_bytes, b);
    inum(ws, row, c++, r->io_bytes, b);
    num(ws, row, c++, r->runtime_s, s3);
    num(ws, row, c++, r->bw_bytes_s / 1e6, f1);
    num(ws, row, c++, r->iops, f1);
    num(ws, row, c++, r->clat_ns.present ? r->clat_ns.mean / 1e3 : BL_ABSENT, us);
    num(ws, row, c++, p99(&r->clat_ns) / 1e3, us);
    num(ws, row, c++, r->lat_ns.present ? r->lat_ns.mean / 1e3 : BL_ABSENT, us);
    num(ws, row, c++, p99(&r->lat_ns) / 1e3, us);
    num(ws, row, c++, r->slat_ns.present ? r->slat_ns.mean / 1e3 : BL_ABSENT, us);
    /* fio's sampled bandwidth ("bw (KiB/s): min=…, max=…, avg=…") beside its summary. */
    const bl_samples *bw = &r->bw_samples, *io = &r->iops_samples;
    num(ws, row, c++, bw->present ? bw->min / 1e6 : BL_ABSENT, f1);
    num(ws, row, c++, bw->present ? bw->mean / 1e6 : BL_ABSENT, f1);
    num(ws, row, c++, bw->present ? bw->max / 1e6 : BL_ABSENT, f1);
    num(ws, row, c++, io->present ? io->mean : BL_ABSENT, f1);
    num(ws, row, c++, r->cpu_usr_pct, f1);
    num(ws, row, c++, r->cpu_sys_pct, f1);
    num(ws, row, c++, r->cpu_pct, f1);
    str(ws, row, c++, r->metric, NULL);
    num(ws, row, c++, r->value, f1);
    str(ws, row, c++, r->unit, NULL);
    str(ws, row, c++, r->note, NULL);
    bl_xlsx_labels_text(r, sb);
    str(ws, row, c++, sb->s, NULL);
}

static lxw_worksheet *table_sheet(lxw_workbook *wb, bl_xfmt *x, const char *name,
                                  const char *const *head, size_t n, lxw_col_t first)
{
    lxw_worksheet *ws = workbook_add_worksheet(wb, name);
    bl_xlsx_print_setup(ws, x->title ? x->title : "benchlog", 1, 1);
    for (size_t k = 0; k < n; k++)
        worksheet_write_string(ws, 0, (lxw_col_t)(first + k), head[k], x->head);
    worksheet_set_row(ws, 0, 30, NULL);
    worksheet_freeze_panes(ws, 1, 0);
    return ws;
}

/* "NAME (i)": the name shortened to leave room for the suffix within 31 characters. */
static void part_name(char *out, size_t n, const char *name, size_t i)
{
    if (i == 0) {
        snprintf(out, n, "%s", name);
        return;
    }
    char suffix[32];
    int slen = snprintf(suffix, sizeof suffix, " (%zu)", i + 1);
    size_t chars = 0, o = 0, room = 31 - (size_t)slen;
    for (const unsigned char *p = (const unsigned char *)name; *p && o + 5 + slen < n; p++) {
        if ((*p & 0xC0) != 0x80 && chars++ == room)
            break;
        out[o++] = (char)*p;
    }
    snprintf(out + o, n - o, "%s", suffix);
}

/* Adds the sheets of a table of rows data rows named name, each made by make. */
typedef lxw_worksheet *(*part_fn)(bl_xdetail *d, lxw_workbook *wb, const char *name, size_t arg);
static void parts_add(bl_xdetail *d, lxw_workbook *wb, bl_xparts *p, const char *name, size_t rows,
                      part_fn make, size_t arg)
{
    p->n = rows > d->per_sheet ? (rows + d->per_sheet - 1) / d->per_sheet : 1;
    p->ws = bl_xcalloc(p->n, sizeof *p->ws);
    p->own = d->own_rows ? bl_xcalloc(p->n, sizeof *p->own) : NULL;
    char part[32 * 4 + 16];
    for (size_t i = 0; i < p->n; i++) {
        part_name(part, sizeof part, name, i);
        p->ws[i] = make(d, wb, part, arg);
        if (!p->own)
            continue;
        size_t before = i * d->per_sheet, left = rows > before ? rows - before : 0;
        p->own[i] = bl_xown_new(p->ws[i], left < d->per_sheet ? left : d->per_sheet);
        bl_grow((void **)&d->own, &d->own_cap, d->n_own + 1, sizeof *d->own);
        d->own[d->n_own++] = p->own[i];
    }
}

/* The sheet and row of the table's next data row; NULL past the rows it was made for (the
 * store changed between the walks). */
static int parts_next(const bl_xdetail *d, bl_xparts *p, lxw_row_t *row, dsheet *ws)
{
    size_t i = p->rows++, part = i / d->per_sheet;
    if (part >= p->n)
        return -1;
    *row = (lxw_row_t)(i % d->per_sheet + 1);
    *ws = (dsheet){p->ws[part], p->own ? p->own[part] : NULL};
    return 0;
}

static void parts_filter(const bl_xdetail *d, const bl_xparts *p, lxw_col_t last)
{
    for (size_t i = 0; i < p->n; i++) {
        size_t before = i * d->per_sheet, rows = p->rows > before ? p->rows - before : 0;
        if (rows > d->per_sheet)
            rows = d->per_sheet;
        worksheet_autofilter(p->ws[i], 0, 0, (lxw_row_t)rows, last);
    }
}

static lxw_worksheet *run_sheet(bl_xdetail *d, lxw_workbook *wb, const char *name, size_t k)
{
    lxw_worksheet *ws = table_sheet(wb, d->x, name, rec_head, N_REC_HEAD, 0);
    /* The whole name the sheet's 31 characters shorten: beside the header, and in the
     * printed page's header. */
    bl_strbuf_reset(&d->sb);
    bl_xrun_title(&d->runs->v[k], &d->sb);
    worksheet_write_string(ws, 0, N_REC_HEAD + 1, d->sb.s, d->x->head);
    worksheet_set_column(ws, N_REC_HEAD + 1, N_REC_HEAD + 1, 60, NULL);
    bl_xlsx_print_setup(ws, d->sb.s, 1, 1);
    worksheet_set_column(ws, 1, 1, 18, NULL);
    worksheet_set_column(ws, N_REC_HEAD - 1, N_REC_HEAD - 1, 60, NULL);
    return ws;
}

static lxw_worksheet *records_sheet(bl_xdetail *d, lxw_workbook *wb, const char *name, size_t arg)
{
    (void)arg;
    static const char *const lead[] = {"Sheet", "Source", "Run"};
    lxw_worksheet *ws = table_sheet(wb, d->x, name, lead, 3, 0);
    for (size_t k = 0; k < N_REC_HEAD; k++)
        worksheet_write_string(ws, 0, (lxw_col_t)(3 + k), rec_head[k], d->x->head);
    worksheet_set_column(ws, 1, 1, 24, NULL);
    worksheet_set_column(ws, 4, 4, 18, NULL);
    return ws;
}

static void run_sheets_begin(bl_xdetail *d, lxw_workbook *wb)
{
    bl_xruns *runs = d->runs;
    if (runs->n <= d->max_sheets) {
        for (size_t k = 0; k < runs->n; k++)
            parts_add(d, wb, &runs->v[k].sheets, runs->v[k].sheet, runs->v[k].n, run_sheet, k);
        return;
    }
    parts_add(d, wb, &d->records, "Records", runs->n_records, records_sheet, 0);
}

/* Column A of the detail sheets: the run's sheet name, or its number when the runs share
 * one Records sheet. */
static void run_cell(dsheet ws, lxw_row_t row, const bl_xruns *runs, size_t k, size_t max_sheets)
{
    if (runs->n <= max_sheets)
        str(ws, row, 0, runs->v[k].sheet, NULL);
    else
        put_num(ws, row, 0, (double)(k + 1), NULL);
}

static int has_lat(const bl_lat *l)
{
    return l->present && (bl_present(l->mean) || l->n_pct > 0);
}

static lxw_worksheet *latency_sheet(bl_xdetail *d, lxw_workbook *wb, const char *name, size_t arg)
{
    (void)arg;
    static const char *const head[] = {"Sheet",    "Line",      "Test",     "Latency",
                                       "min (µs)", "mean (µs)", "max (µs)", "stdev (µs)"};
    lxw_worksheet *ws = table_sheet(wb, d->x, name, head, 8, 0);
    char buf[64];
    for (size_t p = 0; p < d->runs->np; p++) {
        snprintf(buf, sizeof buf, "p%g (µs)", d->runs->pct[p]);
        worksheet_write_string(ws, 0, (lxw_col_t)(8 + p), buf, d->x->head);
    }
    worksheet_set_column(ws, 0, 0, 22, NULL);
    worksheet_set_column(ws, 2, 2, 16, NULL);
    return ws;
}

static void latency_begin(bl_xdetail *d, lxw_workbook *wb)
{
    if (d->runs->any_lat)
        parts_add(d, wb, &d->latency, "Latency", d->runs->n_lat_rows, latency_sheet, 0);
}

static void latency_rows(bl_xdetail *d, size_t k, const bl_record *r)
{
    const bl_xruns *runs = d->runs;
    lxw_format *us = row_fmt(d, 4, "#,##0.0");
    const bl_lat *ls[] = {&r->clat_ns, &r->lat_ns, &r->slat_ns, &r->sync_ns};
    static const char *const name[] = {"clat", "lat", "slat", "sync"};
    for (size_t w = 0; w < 4; w++) {
        const bl_lat *l = ls[w];
        if (!has_lat(l))
            continue;
        lxw_row_t row;
        dsheet ws;
        if (parts_next(d, &d->latency, &row, &ws) != 0)
            return;
        run_cell(ws, row, runs, k, d->max_sheets);
        inum(ws, row, 1, r->line, NULL);
        str(ws, row, 2, r->test, NULL);
        str(ws, row, 3, name[w], NULL);
        num(ws, row, 4, l->min / 1e3, us);
        num(ws, row, 5, l->mean / 1e3, us);
        num(ws, row, 6, l->max / 1e3, us);
        num(ws, row, 7, l->stdev / 1e3, us);
        for (size_t p = 0; p < l->n_pct; p++)
            for (size_t j = 0; j < runs->np; j++)
                if (runs->pct[j] == l->pct[p].pct)
                    num(ws, row, (lxw_col_t)(8 + j), l->pct[p].value / 1e3, us);
    }
}

/* Disks: fio's device figures of each run that has them; no sheet when none has. */
static void disks_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_xruns *runs, size_t max_sheets)
{
    size_t with = 0;
    for (size_t k = 0; k < runs->n; k++)
        with += runs->v[k].disks != NULL;
    if (!with)
        return;
    static const char *const head[] = {
        "Sheet",        "Device",         "Read IOs",        "Write IOs",    "Read merges",
        "Write merges", "Read ticks (s)", "Write ticks (s)", "In queue (s)", "Util (%)"};
    lxw_worksheet *sheet = table_sheet(wb, x, "Disks", head, 10, 0);
    dsheet ws = lxw(sheet);
    worksheet_set_column(sheet, 0, 0, 22, NULL);
    lxw_format *count = bl_xfmt_num(x, "#,##0"), *secs = bl_xfmt_num(x, "#,##0.000");
    lxw_format *pct = bl_xfmt_num(x, "0.00");
    lxw_row_t row = 1;
    for (size_t k = 0; k < runs->n; k++) {
        const bl_record *r = runs->v[k].disks;
        for (size_t d = 0; r && d < r->n_disks; d++, row++) {
            const bl_disk *dk = &r->disks[d];
            run_cell(ws, row, runs, k, max_sheets);
            str(ws, row, 1, dk->name, NULL);
            inum(ws, row, 2, dk->read_ios, count);
            inum(ws, row, 3, dk->write_ios, count);
            inum(ws, row, 4, dk->read_merges, count);
            inum(ws, row, 5, dk->write_merges, count);
            num(ws, row, 6, dk->read_ticks_s, secs);
            num(ws, row, 7, dk->write_ticks_s, secs);
            num(ws, row, 8, dk->in_queue_s, secs);
            num(ws, row, 9, dk->util_pct, pct);
        }
    }
    worksheet_autofilter(sheet, 0, 0, row - 1, 9);
}

static void sources_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_xruns *runs, size_t max_sheets)
{
    static const char *const head[] = {"Sheet",   "Source",  "First line", "Tool",
                                       "Version", "Records", "Labels"};
    lxw_worksheet *sheet = table_sheet(wb, x, "Sources", head, 7, 0);
    dsheet ws = lxw(sheet);
    worksheet_set_column(sheet, 0, 0, 22, NULL);
    worksheet_set_column(sheet, 1, 1, 40, NULL);
    worksheet_set_column(sheet, 6, 6, 80, NULL);
    for (size_t k = 0; k < runs->n; k++) {
        const bl_xrun *run = &runs->v[k];
        lxw_row_t row = (lxw_row_t)(k + 1);
        run_cell(ws, row, runs, k, max_sheets);
        str(ws, row, 1, run->source, NULL);
        inum(ws, row, 2, run->line, NULL);
        str(ws, row, 3, run->tool, NULL);
        str(ws, row, 4, run->version, NULL);
        put_num(ws, row, 5, (double)run->n, NULL);
        str(ws, row, 6, run->labels, NULL);
    }
    worksheet_autofilter(sheet, 0, 0, (lxw_row_t)runs->n, 6);
}

void bl_xlsx_details_begin(bl_xdetail *d, lxw_workbook *wb, bl_xfmt *x, bl_xruns *runs,
                           size_t max_sheets, size_t max_rows, int own_rows)
{
    memset(d, 0, sizeof *d);
    d->own_rows = own_rows;
    d->x = x;
    d->runs = runs;
    d->max_sheets = max_sheets;
    d->last_run = -1;
    d->per_sheet =
        (max_rows >= 2 && max_rows <= BL_XLSX_EXCEL_ROWS ? max_rows : BL_XLSX_EXCEL_ROWS) - 1;
    bl_strbuf_init(&d->sb);
    run_sheets_begin(d, wb);
    latency_begin(d, wb);
    disks_sheet(wb, x, runs, max_sheets);
    sources_sheet(wb, x, runs, max_sheets);
}

/* Rows go in the order of the walk, which is the runs' order where a source's runs follow
 * one another (constant-memory mode writes each sheet's rows in order). */
/* The run of r: most often the run of the record before. */
static long run_of(bl_xdetail *d, const bl_record *r)
{
    const bl_xrun *last = d->last_run >= 0 ? &d->runs->v[d->last_run] : NULL;
    if (last && last->run == r->run &&
        strcmp(last->source ? last->source : "", r->source ? r->source : "") == 0)
        return d->last_run;
    return d->last_run = bl_xruns_find(d->runs, r);
}

void bl_xlsx_details_row(bl_xdetail *d, const bl_record *r)
{
    long k = run_of(d, r);
    if (k < 0)
        return; /* not seen by the first walk: the store changed in between */
    lxw_row_t row;
    dsheet ws;
    if (d->records.n) {
        if (parts_next(d, &d->records, &row, &ws) == 0) {
            put_num(ws, row, 0, (double)(k + 1), NULL);
            str(ws, row, 1, r->source, NULL);
            inum(ws, row, 2, r->run, NULL);
            record_row(ws, d, row, 3, r, &d->sb);
        }
    } else if (parts_next(d, &d->runs->v[k].sheets, &row, &ws) == 0) {
        record_row(ws, d, row, 0, r, &d->sb);
    }
    if (d->latency.n)
        latency_rows(d, (size_t)k, r);
}

void bl_xlsx_details_end(bl_xdetail *d)
{
    parts_filter(d, &d->records, 3 + N_REC_HEAD - 1);
    for (size_t k = 0; !d->records.n && k < d->runs->n; k++)
        parts_filter(d, &d->runs->v[k].sheets, N_REC_HEAD - 1);
    parts_filter(d, &d->latency, (lxw_col_t)(7 + d->runs->np));
    free(d->records.ws);
    free(d->records.own);
    free(d->latency.ws);
    free(d->latency.own);
    for (size_t k = 0; k < d->runs->n; k++) {
        free(d->runs->v[k].sheets.own);
        d->runs->v[k].sheets.own = NULL;
    }
    bl_strbuf_free(&d->sb);
}

void bl_xlsx_details_free(bl_xdetail *d)
{
    for (size_t i = 0; i < d->n_own; i++)
        bl_xown_free(d->own[i]);
    free(d->own);
    d->own = NULL;
    d->n_own = 0;
}
