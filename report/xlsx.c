/* The workbook: Summary with its native chart, then the detail sheets of xlsx_sheets.c. */
#include "xlsx.h"
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "../compare/table.h"
#include "xlsx_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    x->warn = workbook_add_format(wb);
    format_set_font_color(x->warn, 0xC00000);
    format_set_bold(x->warn);
    x->text = workbook_add_format(wb);
    format_set_italic(x->text);
    format_set_font_color(x->text, 0x595959);
}

static void xfmt_free(bl_xfmt *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->code[i]);
}

void bl_xlsx_print_setup(lxw_worksheet *ws, const char *title, int repeat_head, int fit_width)
{
    worksheet_set_paper(ws, 9); /* A4 */
    worksheet_set_landscape(ws);
    if (fit_width)
        worksheet_fit_to_pages(ws, 1, 0);
    worksheet_set_margins(ws, 0.4, 0.4, 0.6, 0.6);
    if (repeat_head)
        worksheet_repeat_rows(ws, 0, 0);
    /* '&' starts a code in headers: a title's own ampersands are doubled. */
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "&L");
    for (const char *p = title; *p && sb.len < 200; p++) {
        if (*p == '&')
            bl_strbuf_putc(&sb, '&');
        bl_strbuf_putc(&sb, *p);
    }
    bl_strbuf_puts(&sb, "&R&A");
    worksheet_set_header(ws, sb.s);
    worksheet_set_footer(ws, "&Lbenchlog, &D&RPage &P of &N");
    bl_strbuf_free(&sb);
}

static int gather(void *runs, const bl_record *r)
{
    bl_xruns_add(runs, r);
    return 0;
}

static int detail_row(void *d, const bl_record *r)
{
    bl_xlsx_details_row(d, r);
    return 0;
}

int bl_xlsx_write_walk(const char *path, const bl_table *t, bl_rec_walk_fn walk, void *src,
                       const bl_xlsx_opts *o, char *err, size_t errlen)
{
    bl_xruns runs = {0};
    if ((o->runs_walk ? o->runs_walk(o->runs_src, gather, &runs, err, errlen)
                      : walk(src, gather, &runs, err, errlen)) != 0) {
        bl_xruns_free(&runs);
        return 1;
    }
    bl_xruns_finish(&runs);
    /* Constant-memory mode keeps a huge workbook small in memory, but leaves the chart
     * without cached values (Excel and LibreOffice read the cells on opening); below this
     * size the cache costs nothing and makes the file complete. */
    size_t cm = o->constant_memory_from ? o->constant_memory_from : BL_XLSX_CONSTANT_MEMORY_FROM;
    lxw_workbook_options wo = {.constant_memory = runs.n_records >= cm, .tmpdir = NULL};
    int own = wo.constant_memory && !o->lxw_rows;
    /* libxlsxwriter writes by name: it writes the temporary file, renamed when complete; with
     * the rows benchlog writes, a second one beside it that the first is packed from. */
    bl_atomic out;
    if (bl_atomic_open(&out, path, err, errlen) != 0) {
        bl_xruns_free(&runs);
        return 1;
    }
    bl_atomic_close_stream(&out);
    char *lxw_path = NULL;
    if (own) {
        lxw_path = bl_xmalloc(strlen(out.tmp) + 8);
        sprintf(lxw_path, "%s.lxw", out.tmp);
    }
    lxw_workbook *wb = workbook_new_opt(own ? lxw_path : out.tmp, &wo);
    if (!wb) {
        snprintf(err, errlen, "cannot create %s", path);
        bl_atomic_abort(&out);
        bl_xruns_free(&runs);
        free(lxw_path);
        return 1;
    }
    const char *title = o->title ? o->title : "Storage benchmark comparison";
    char comments[256];
    snprintf(comments, sizeof comments, "%s, %s, %s; repeats combined by %s. Made by benchlog.",
             bl_count(t->n_records, "record").s, bl_count(t->nrows, "test").s,
             bl_count(t->ncols, "set-up").s, bl_repeats_name(t->repeats));
    lxw_doc_properties props = {.title = (char *)title,
                                .subject = "Storage benchmark results",
                                .author = "benchlog",
                                .category = "Benchmark",
                                .keywords = "storage, benchmark, fio, bonnie++, CrystalDiskMark",
                                .comments = comments,
                                .status = "Generated"};
    workbook_set_properties(wb, &props);
    bl_xfmt x;
    xfmt_init(&x, wb);
    x.title = title;
    bl_xlsx_summary(wb, &x, t, title);
    bl_xlsx_pivots(wb, &x, t, o->metrics, o->n_metrics, title, o->notes);
    bl_xdetail d;
    bl_xlsx_details_begin(&d, wb, &x, &runs, o->max_run_sheets ? o->max_run_sheets : 200,
                          o->max_rows, own);
    int rc = bl_xlsx_walk_ahead(walk, o->rows_take, src, detail_row, &d, err, errlen) != 0;
    bl_xlsx_details_end(&d);
    if (own)
        bl_xown_close_rows(wb, d.own, d.n_own);
    lxw_error e = workbook_close(wb);
    if (rc) {
        bl_atomic_abort(&out);
    } else if (e != LXW_NO_ERROR) {
        snprintf(err, errlen, "cannot write %s: %s (the old file, if any, is unchanged)", path,
                 lxw_strerror(e));
        bl_atomic_abort(&out);
        rc = 1;
    } else if (own && bl_xown_pack(lxw_path, out.tmp, d.own, d.n_own, err, errlen) != 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "%s: %s (the old file, if any, is unchanged)", path, why);
        bl_atomic_abort(&out);
        rc = 1;
    } else if (bl_atomic_commit(&out, err, errlen) != 0) {
        rc = 1;
    }
    if (lxw_path)
        remove(lxw_path);
    free(lxw_path);
    bl_xlsx_details_free(&d);
    bl_xruns_free(&runs);
    xfmt_free(&x);
    return rc;
}

int bl_xlsx_write(const char *path, const bl_records *recs, const bl_xlsx_opts *o, char *err,
                  size_t errlen)
{
    bl_table_opts to = {.by = o->by, .baseline = o->baseline, .repeats = o->repeats};
    bl_table *t = bl_table_build(recs, &to, err, errlen);
    if (!t)
        return 2;
    int rc = bl_xlsx_write_walk(path, t, bl_walk_records, (void *)recs, o, err, errlen);
    bl_table_free(t);
    return rc;
}
