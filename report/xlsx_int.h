/* Internals shared by xlsx.c (workbook, Summary, chart) and xlsx_sheets.c (runs, Latency,
 * Sources). */
#ifndef BL_REPORT_XLSX_INT_H
#define BL_REPORT_XLSX_INT_H

#include "../core/record.h"
#include "table.h"
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
 * metric the records have). */
void bl_xlsx_summary(lxw_workbook *wb, bl_xfmt *x, const bl_table *t, const char *title);
void bl_xlsx_pivots(lxw_workbook *wb, bl_xfmt *x, const bl_table *t, const bl_metric *ms, size_t nm,
                    const char *title);

/* The runs of the records, in first-seen order. */
typedef struct bl_xrun {
    const bl_record *first;
    size_t n;
    size_t *idx;        /* the run's records, in order */
    char sheet[32 * 4]; /* sheet name, at most 31 characters of UTF-8 */
} bl_xrun;

typedef struct bl_xruns {
    size_t n;
    bl_xrun *v;
} bl_xruns;

void bl_xruns_build(const bl_records *recs, bl_xruns *runs);
void bl_xruns_free(bl_xruns *runs);

/* Writes the per-run sheets (or one Records sheet past max sheets), Latency, Disks, Sources. */
void bl_xlsx_run_sheets(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs, const bl_xruns *runs,
                        size_t max_sheets);
void bl_xlsx_latency_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs,
                           const bl_xruns *runs, size_t max_sheets);
/* Disks: fio's device figures of each run that has them; no sheet when none has. */
void bl_xlsx_disks_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs, const bl_xruns *runs,
                         size_t max_sheets);
void bl_xlsx_sources_sheet(lxw_workbook *wb, bl_xfmt *x, const bl_records *recs,
                           const bl_xruns *runs, size_t max_sheets);

#endif
