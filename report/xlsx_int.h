/* Internals shared by xlsx.c (workbook, Summary, chart) and xlsx_sheets.c (runs, Latency,
 * Sources). */
#ifndef BL_REPORT_XLSX_INT_H
#define BL_REPORT_XLSX_INT_H

#include "../core/record.h"
#include "../core/strbuf.h"
#include "../compare/smap.h"
#include "../compare/table.h"
#include "xlsx.h"
#include "xlsx_own.h"
#include <xlsxwriter.h>

/* Formats are made once per number format text: a workbook holds a few dozen at most. */
typedef struct bl_xfmt {
    lxw_workbook *wb;
    lxw_format *head, *text, *wrap, *warn;
    const char *title; /* of the print headers */
    size_t n;
    char *code[64];
    lxw_format *f[64];
} bl_xfmt;

lxw_format *bl_xfmt_num(bl_xfmt *x, const char *code);
/* '#,##0.0 "MB/s"': a number format showing unit after the figure. */
lxw_format *bl_xfmt_unit(bl_xfmt *x, const char *unit, int decimals);

/* Print-ready: A4 landscape, fit to the page width when fit_width, title and sheet in the
 * header, date and page in the footer, the first row repeated on each page when
 * repeat_head. */
void bl_xlsx_print_setup(lxw_worksheet *ws, const char *title, int repeat_head, int fit_width);
/* Summary (long form) and one pivot sheet with native charts per metric (ms; none: every
 * metric the records have); notes (may be NULL) get what the person should know. */
void bl_xlsx_summary(lxw_workbook *wb, bl_xfmt *x, const bl_table *t, const char *title);
void bl_xlsx_pivots(lxw_workbook *wb, bl_xfmt *x, const bl_table *t, const bl_metric *ms, size_t nm,
                    const char *title, bl_diags *notes);

/* A table's sheets: past the rows a sheet holds (Excel: 1,048,576, header included) it goes
 * on in "NAME (2)", "NAME (3)", ... right after it. */
#define BL_XLSX_EXCEL_ROWS 1048576
typedef struct bl_xparts {
    lxw_worksheet **ws;
    bl_xown **own; /* their rows where benchlog writes them, else NULL */
    size_t n;
    size_t rows; /* data rows written */
} bl_xparts;

/* The runs of the records, in first-seen order, gathered as they are walked (xlsx_runs.c):
 * what names each run's sheet and fills its Sources and Disks rows. */
#define BL_XRUN_NAME_KEYS 6
#define BL_XLSX_MAX_PCT 48
typedef struct bl_xrun {
    char *key;                     /* source \x1f run */
    size_t n;                      /* records */
    int64_t line;                  /* first line, -1 when unknown */
    char *source, *tool, *version; /* of its first record */
    char *labels;                  /* its first record's labels, as Sources shows them */
    int64_t run;
    bl_record *disks;                /* its first record with devices, owned, or NULL */
    char *name_v[BL_XRUN_NAME_KEYS]; /* labels naming it, when every record has the same */
    unsigned char name_varies[BL_XRUN_NAME_KEYS];
    char sheet[32 * 4]; /* sheet name, at most 31 characters of UTF-8 */
    bl_xparts sheets;   /* its sheets while written */
} bl_xrun;

typedef struct bl_xruns {
    size_t n, cap, n_records;
    bl_xrun *v;
    bl_smap map;
    int any_lat;       /* a record has latency figures */
    size_t n_lat_rows; /* rows of the Latency sheet */
    size_t np;         /* percentiles reported anywhere, ascending once finished */
    double pct[BL_XLSX_MAX_PCT];
} bl_xruns;

/* Zero-initialise; add every record, then finish (sheet names). */
void bl_xruns_add(bl_xruns *runs, const bl_record *r);
void bl_xruns_finish(bl_xruns *runs);
long bl_xruns_find(const bl_xruns *runs, const bl_record *r); /* index of r's run, or -1 */
void bl_xruns_free(bl_xruns *runs);
/* The run's whole name (its labels, else tool #run), the title its sheet's name shortens. */
void bl_xrun_title(const bl_xrun *run, bl_strbuf *sb);

/* The detail sheets: begin adds the per-run sheets (or one Records sheet past max_sheets runs)
 * and Latency, each with the sheets it goes on in when too long for one, and writes Disks and
 * Sources, which need no record; row writes a record into its run's sheet and Latency, in the order
 * of the walk; end sets their autofilters. */
typedef struct bl_xdetail {
    bl_xfmt *x;
    bl_xruns *runs;
    size_t max_sheets;
    long last_run;              /* the run of the last record written, or -1 */
    size_t per_sheet;           /* data rows a sheet holds */
    bl_xparts records, latency; /* none (n 0) where the runs have their own sheets / no latency */
    bl_strbuf sb;
    int own_rows;  /* the record rows written by benchlog (xlsx_own.h), not libxlsxwriter */
    bl_xown **own; /* every such sheet, in the order made */
    size_t n_own, own_cap;
    lxw_format *fmt[5]; /* the rows' number formats, once looked up (fmt_set) */
    unsigned fmt_set;
} bl_xdetail;

/* "k=v; k=v": a record's labels in one cell. */
void bl_xlsx_labels_text(const bl_record *r, bl_strbuf *sb);

/* max_rows: rows a sheet holds, header included (0: Excel's); own_rows: the per-run, Records
 * and Latency rows written by benchlog (constant-memory workbooks only: d->own then lists those
 * sheets for bl_xown_close_rows and bl_xown_pack), else by libxlsxwriter. free frees d->own
 * once the workbook is written. */
void bl_xlsx_details_begin(bl_xdetail *d, lxw_workbook *wb, bl_xfmt *x, bl_xruns *runs,
                           size_t max_sheets, size_t max_rows, int own_rows);
void bl_xlsx_details_row(bl_xdetail *d, const bl_record *r);
void bl_xlsx_details_end(bl_xdetail *d);
void bl_xlsx_details_free(bl_xdetail *d);

/* walk(src, fn, ctx) with the records read and decoded in a second thread (xlsx_ahead.c),
 * handed over a few hundred at a time: fn sees them in the walk's order. take (may be NULL)
 * walks the same records handed over: then none is copied. Returns as walk. */
int bl_xlsx_walk_ahead(bl_rec_walk_fn walk, bl_rec_take_fn take, void *src, bl_report_rec_fn fn,
                       void *ctx, char *err, size_t errlen);

#endif
