/* The workbook's detail sheets: every record of each run, latency percentiles, sources. */
#include "../core/strbuf.h"
#include "smap.h"
#include "xlsx_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends at most max characters of UTF-8 text s, none of Excel's []:*?/\' in sheet names;
 * returns the characters appended. */
static size_t put_chars(char *out, size_t *o, size_t n, const char *s, size_t max)
{
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && chars < max; chars++) {
        size_t len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : 4;
        if (*o + len + 1 > n)
            break;
        if (len == 1 && strchr("[]:*?/\\'", *p))
            out[(*o)++] = '_';
        else
            for (size_t i = 0; i < len && p[i]; i++)
                out[(*o)++] = (char)p[i];
        p += len;
    }
    out[*o] = 0;
    return chars;
}

/* What names a run for a reader: its labels that tell set-ups and jobs apart, in this
 * order; the file name (often a hash) and run number only when it has none. */
static const char *const name_keys[] = {"host", "section", "row", "column", "job", "suite"};

/* A label the run's records share (a table row that changes within the run names tests, not
 * the run). */
static const char *run_value(const bl_records *recs, const bl_xrun *run, const char *key)
{
    const char *v = bl_record_label(recs->v[run->idx[0]], key);
    for (size_t i = 1; i < run->n && v; i++) {
        const char *w = bl_record_label(recs->v[run->idx[i]], key);
        if (!w || strcmp(v, w) != 0)
            return NULL;
    }
    return v;
}

static void run_label(const bl_records *recs, const bl_xrun *run, bl_strbuf *sb)
{
    for (size_t k = 0; k < sizeof name_keys / sizeof name_keys[0]; k++) {
        const char *v = run_value(recs, run, name_keys[k]);
        if (v && *v)
            bl_strbuf_printf(sb, "%s%s", sb->len ? " " : "", v);
    }
    if (sb->len)
        return;
    const bl_record *r = run->first;
    bl_strbuf_printf(sb, "%s #%lld", r->tool ? r->tool : "run", (long long)r->run);
}

static size_t utf8_chars(const char *s)
{
    size_t len = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        len += (*p & 0xC0) != 0x80;
    return len;
}

/* The last max characters of s. */
static const char *utf8_tail(const char *s, size_t max)
{
    size_t len = utf8_chars(s);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t skip = len > max ? len - max : 0; skip; p++)
        if ((p[1] & 0xC0) != 0x80)
            skip--;
    return (const char *)p;
}

/* "12 CIFS SSDキャッシュ無し 1 GbE": the run's number (unique whatever the labels) and its
 * labels, at most 31 characters; a long name keeps its start and end ("...~ 10 GbE"), where
 * runs of one heading differ. */
static void sheet_name(char *out, size_t n, size_t index, const bl_records *recs,
                       const bl_xrun *run)
{
    char pre[32];
    snprintf(pre, sizeof pre, "%zu ", index + 1);
    bl_strbuf label;
    bl_strbuf_init(&label);
    run_label(recs, run, &label);
    size_t o = 0, budget = 31 - strlen(pre);
    put_chars(out, &o, n, pre, 31);
    if (utf8_chars(label.s) > budget) {
        size_t head = (budget - 1) / 2, tail = budget - 1 - head;
        put_chars(out, &o, n, label.s, head);
        put_chars(out, &o, n, "~", 1);
        put_chars(out, &o, n, utf8_tail(label.s, tail), tail);
    } else {
        put_chars(out, &o, n, label.s, budget);
    }
    bl_strbuf_free(&label);
}

void bl_xruns_build(const bl_records *recs, bl_xruns *runs)
{
    bl_smap m = {0};
    size_t cap = 0;
    char **keys = bl_xcalloc(recs->n + 1, sizeof *keys);
    memset(runs, 0, sizeof *runs);
    size_t *run_of = bl_xmalloc((recs->n + 1) * sizeof *run_of);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < recs->n; i++) {
        const bl_record *r = recs->v[i];
        bl_strbuf_reset(&sb);
        bl_strbuf_printf(&sb, "%s\x1f%lld", r->source ? r->source : "", (long long)r->run);
        long k = bl_smap_get(&m, sb.s);
        if (k < 0) {
            void *p = runs->v;
            bl_grow(&p, &cap, runs->n + 1, sizeof *runs->v);
            runs->v = p;
            keys[runs->n] = bl_xstrdup(sb.s);
            runs->v[runs->n] = (bl_xrun){.first = r};
            bl_smap_put(&m, keys[runs->n], runs->n);
            k = (long)runs->n++;
        }
        run_of[i] = (size_t)k;
        runs->v[k].n++;
    }
    for (size_t k = 0; k < runs->n; k++) {
        runs->v[k].idx = bl_xmalloc(runs->v[k].n * sizeof(size_t));
        runs->v[k].n = 0;
        free(keys[k]);
    }
    for (size_t i = 0; i < recs->n; i++) {
        bl_xrun *run = &runs->v[run_of[i]];
        run->idx[run->n++] = i;
    }
    for (size_t k = 0; k < runs->n; k++)
        sheet_name(runs->v[k].sheet, sizeof runs->v[k].sheet, k, recs, &runs->v[k]);
    free(keys);
    free(run_of);
    bl_strbuf_free(&sb);
    bl_smap_free(&m);
}

void bl_xruns_free(bl_xruns *runs)
{
    for (size_t k = 0; k < runs->n; k++)
        free(runs->v[k].idx);
    free(runs->v);
    memset(runs, 0, sizeof *runs);
}

static void str(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, const char *s, lxw_format *f)
{
    if (s && *s)
        worksheet_write_string(ws, row, col, s, f);
}

static void num(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, double v, lxw_format *f)
{
    if (bl_present(v))
        worksheet_write_number(ws, row, col, v, f);
}

static void inum(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, int64_t v, lxw_format *f)
{
    if (v >= 0)
        worksheet_write_number(ws, row, col, (double)v, f);
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

static void labels_text(const bl_record *r, bl_strbuf *sb)
{
    bl_strbuf_reset(sb);
    bl_strbuf_puts(sb, "");
    for (size_t i = 0; i < r->n_labels; i++)
        bl_strbuf_printf(sb, "%s%s=%s", i ? "; " : "", r->labels[i].key, r->labels[i].value);
}

static void record_row(lxw_worksheet *ws, bl_xfmt *x, lxw_row_t row, lxw_col_t c,
                       const bl_record *r, bl_strbuf *sb)
{
    lxw_format *b = bl_xfmt_num(x, "#,##0"), *s3 = bl_xfmt_num(x, "0.000###");
    lxw_format *f1 = bl_xfmt_num(x, "#,##0.0"), *us = bl_xfmt_num(x, "#,##0.0");
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
    labels_text(r, sb);
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

void bl_xlsx_run_sheets(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs, const bl_xruns *runs,
                        size_t max_sheets)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (runs->n <= max_sheets) {
        for (size_t k = 0; k < runs->n; k++) {
            const bl_xrun *run = &runs->v[k];
            lxw_worksheet *ws = table_sheet(wb, x, run->sheet, rec_head, N_REC_HEAD, 0);
            worksheet_set_column(ws, 1, 1, 18, NULL);
            worksheet_set_column(ws, N_REC_HEAD - 1, N_REC_HEAD - 1, 60, NULL);
            for (size_t i = 0; i < run->n; i++)
                record_row(ws, x, (lxw_row_t)(i + 1), 0, recs->v[run->idx[i]], &sb);
            worksheet_autofilter(ws, 0, 0, (lxw_row_t)run->n, N_REC_HEAD - 1);
        }
    } else {
        static const char *const lead[] = {"Sheet", "Source", "Run"};
        lxw_worksheet *ws = table_sheet(wb, x, "Records", lead, 3, 0);
        for (size_t k = 0; k < N_REC_HEAD; k++)
            worksheet_write_string(ws, 0, (lxw_col_t)(3 + k), rec_head[k], x->head);
        worksheet_set_column(ws, 1, 1, 24, NULL);
        worksheet_set_column(ws, 4, 4, 18, NULL);
        /* Constant-memory mode writes rows in order: walk runs, not the store order. */
        lxw_row_t row = 1;
        for (size_t k = 0; k < runs->n; k++) {
            for (size_t i = 0; i < runs->v[k].n; i++, row++) {
                const bl_record *r = recs->v[runs->v[k].idx[i]];
                worksheet_write_number(ws, row, 0, (double)(k + 1), NULL);
                str(ws, row, 1, r->source, NULL);
                inum(ws, row, 2, r->run, NULL);
                record_row(ws, x, row, 3, r, &sb);
            }
        }
        worksheet_autofilter(ws, 0, 0, row - 1, 3 + N_REC_HEAD - 1);
    }
    bl_strbuf_free(&sb);
}

/* Column A of the detail sheets: the run's sheet name, or its number when the runs share
 * one Records sheet. */
static void run_cell(lxw_worksheet *ws, lxw_row_t row, const bl_xruns *runs, size_t k,
                     size_t max_sheets)
{
    if (runs->n <= max_sheets)
        worksheet_write_string(ws, row, 0, runs->v[k].sheet, NULL);
    else
        worksheet_write_number(ws, row, 0, (double)(k + 1), NULL);
}

static int has_lat(const bl_lat *l)
{
    return l->present && (bl_present(l->mean) || l->n_pct > 0);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The percentiles reported anywhere, ascending; at most cap of them. */
static size_t pct_union(const bl_records *recs, double *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < recs->n; i++) {
        const bl_record *r = recs->v[i];
        const bl_lat *ls[] = {&r->clat_ns, &r->lat_ns, &r->slat_ns, &r->sync_ns};
        for (size_t k = 0; k < 4; k++)
            for (size_t p = 0; p < ls[k]->n_pct; p++) {
                size_t j = 0;
                while (j < n && out[j] != ls[k]->pct[p].pct)
                    j++;
                if (j == n && n < cap)
                    out[n++] = ls[k]->pct[p].pct;
            }
    }
    qsort(out, n, sizeof *out, cmp_double);
    return n;
}

void bl_xlsx_latency_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs,
                           const bl_xruns *runs, size_t max_sheets)
{
    int any = 0;
    for (size_t i = 0; i < recs->n && !any; i++)
        any = has_lat(&recs->v[i]->clat_ns) || has_lat(&recs->v[i]->lat_ns) ||
              has_lat(&recs->v[i]->sync_ns);
    if (!any)
        return;
    double pct[48];
    size_t np = pct_union(recs, pct, 48);
    static const char *const head[] = {"Sheet",    "Line",      "Test",     "Latency",
                                       "min (µs)", "mean (µs)", "max (µs)", "stdev (µs)"};
    lxw_worksheet *ws = table_sheet(wb, x, "Latency", head, 8, 0);
    char buf[64];
    for (size_t p = 0; p < np; p++) {
        snprintf(buf, sizeof buf, "p%g (µs)", pct[p]);
        worksheet_write_string(ws, 0, (lxw_col_t)(8 + p), buf, x->head);
    }
    worksheet_set_column(ws, 0, 0, 22, NULL);
    worksheet_set_column(ws, 2, 2, 16, NULL);
    lxw_format *us = bl_xfmt_num(x, "#,##0.0");
    lxw_row_t row = 1;
    for (size_t k = 0; k < runs->n; k++) {
        for (size_t i = 0; i < runs->v[k].n; i++) {
            const bl_record *r = recs->v[runs->v[k].idx[i]];
            const bl_lat *ls[] = {&r->clat_ns, &r->lat_ns, &r->slat_ns, &r->sync_ns};
            static const char *const name[] = {"clat", "lat", "slat", "sync"};
            for (size_t w = 0; w < 4; w++) {
                const bl_lat *l = ls[w];
                if (!has_lat(l))
                    continue;
                run_cell(ws, row, runs, k, max_sheets);
                inum(ws, row, 1, r->line, NULL);
                str(ws, row, 2, r->test, NULL);
                worksheet_write_string(ws, row, 3, name[w], NULL);
                num(ws, row, 4, l->min / 1e3, us);
                num(ws, row, 5, l->mean / 1e3, us);
                num(ws, row, 6, l->max / 1e3, us);
                num(ws, row, 7, l->stdev / 1e3, us);
                for (size_t p = 0; p < l->n_pct; p++)
                    for (size_t j = 0; j < np; j++)
                        if (pct[j] == l->pct[p].pct)
                            num(ws, row, (lxw_col_t)(8 + j), l->pct[p].value / 1e3, us);
                row++;
            }
        }
    }
    worksheet_autofilter(ws, 0, 0, row - 1, (lxw_col_t)(7 + np));
}

/* The devices of a run, from its first record that has them (a parser puts the same
 * devices on every record of the run). */
static const bl_record *run_disks(const bl_records *recs, const bl_xrun *run)
{
    for (size_t i = 0; i < run->n; i++)
        if (recs->v[run->idx[i]]->n_disks)
            return recs->v[run->idx[i]];
    return NULL;
}

void bl_xlsx_disks_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs, const bl_xruns *runs,
                         size_t max_sheets)
{
    size_t with = 0;
    for (size_t k = 0; k < runs->n; k++)
        with += run_disks(recs, &runs->v[k]) != NULL;
    if (!with)
        return;
    static const char *const head[] = {
        "Sheet",        "Device",         "Read IOs",        "Write IOs",    "Read merges",
        "Write merges", "Read ticks (s)", "Write ticks (s)", "In queue (s)", "Util (%)"};
    lxw_worksheet *ws = table_sheet(wb, x, "Disks", head, 10, 0);
    worksheet_set_column(ws, 0, 0, 22, NULL);
    lxw_format *count = bl_xfmt_num(x, "#,##0"), *secs = bl_xfmt_num(x, "#,##0.000");
    lxw_format *pct = bl_xfmt_num(x, "0.00");
    lxw_row_t row = 1;
    for (size_t k = 0; k < runs->n; k++) {
        const bl_record *r = run_disks(recs, &runs->v[k]);
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
    worksheet_autofilter(ws, 0, 0, row - 1, 9);
}

void bl_xlsx_sources_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs,
                           const bl_xruns *runs, size_t max_sheets)
{
    static const char *const head[] = {"Sheet",   "Source",  "First line", "Tool",
                                       "Version", "Records", "Labels"};
    lxw_worksheet *ws = table_sheet(wb, x, "Sources", head, 7, 0);
    worksheet_set_column(ws, 0, 0, 22, NULL);
    worksheet_set_column(ws, 1, 1, 40, NULL);
    worksheet_set_column(ws, 6, 6, 80, NULL);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t k = 0; k < runs->n; k++) {
        const bl_xrun *run = &runs->v[k];
        const bl_record *r = run->first;
        lxw_row_t row = (lxw_row_t)(k + 1);
        run_cell(ws, row, runs, k, max_sheets);
        str(ws, row, 1, r->source, NULL);
        int64_t line = -1;
        for (size_t i = 0; i < run->n; i++) {
            int64_t l = recs->v[run->idx[i]]->line;
            if (l >= 0 && (line < 0 || l < line))
                line = l;
        }
        inum(ws, row, 2, line, NULL);
        str(ws, row, 3, r->tool, NULL);
        str(ws, row, 4, r->tool_version, NULL);
        worksheet_write_number(ws, row, 5, (double)run->n, NULL);
        labels_text(r, &sb);
        str(ws, row, 6, sb.s, NULL);
    }
    worksheet_autofilter(ws, 0, 0, (lxw_row_t)runs->n, 6);
    bl_strbuf_free(&sb);
}
