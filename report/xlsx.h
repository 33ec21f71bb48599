/* `benchlog xlsx`: a workbook a vendor's engineer can work with.
 *
 * Sheets: Summary (the comparison of table.h in long form: one row per test and set-up with
 * MB/s, IOPS, latency mean and percentiles, n, stdev, 95% CI and the implausibility check,
 * frozen header, autofilter), one pivot per metric (tests × set-ups) with native bar charts
 * of ten set-ups each that together hold every set-up, one sheet per run with every record and
 * metric (past max_run_sheets runs, one "Records" sheet instead, since a workbook of thousands of
 * sheets helps nobody), Latency (mean and percentiles in µs) when any record has latency, and
 * Sources (file, line, tool, version, labels of each run). Past 20,000 records it is written in
 * libxlsxwriter's constant-memory mode, the detail sheets' rows by benchlog itself (xlsx_own.h:
 * the same XML, deflated faster); walked from the store, no record is held whole. Every sheet
 * prints on A4 landscape, fit to the page width, with its header row repeated and a header and
 * footer. */
#ifndef BL_REPORT_XLSX_H
#define BL_REPORT_XLSX_H

#include "../core/diag.h"
#include "../core/record.h"
#include "../compare/load.h"
#include "../compare/table.h"
#include <stddef.h>

typedef struct bl_xlsx_opts {
    const char *by;           /* columns of the summary, as `report --by` */
    const char *baseline;     /* ratio columns, as `report --baseline` */
    const char *title;        /* print header and document title; NULL: a default */
    const bl_metric *metrics; /* pivot sheets; none: every metric the records have */
    size_t n_metrics;
    bl_repeats repeats;
    size_t max_run_sheets;       /* 0: 200 */
    size_t constant_memory_from; /* records from which to write in constant memory; 0: 20000 */
    size_t max_rows; /* rows a sheet holds, header included, the rest going on in "NAME (2)",
                        ...; 0 (or more): Excel's 1,048,576 */
    bl_diags *notes; /* notes for the person (set-ups too many to chart) added here; NULL: none */
    int lxw_rows;    /* constant memory: the detail rows through libxlsxwriter, as before benchlog
                        wrote them itself (the same XML, several times slower): what the tests
                        compare with */
    bl_rec_walk_fn runs_walk; /* the first walk (the runs) from here when set: the same records,
                                 each with at least what bl_xlsx_runs_want names */
    void *runs_src;
    bl_rec_take_fn rows_take; /* the second walk (the rows) from here when set: the walk's
                                 records of src handed over, not copied */
} bl_xlsx_opts;

/* What the first walk reads of each record (core/record_decode.h): where it comes from, its
 * labels, devices, and which latencies and percentiles it has, not their figures. */
struct bl_decode_want;
void bl_xlsx_runs_want(struct bl_decode_want *want);

/* Returns 0, 2 when the baseline names no column, 1 when the file cannot be written. */
int bl_xlsx_write(const char *path, const bl_records *recs, const bl_xlsx_opts *o, char *err,
                  size_t errlen);

/* The same from records walked twice (a store read row by row: first the runs, through
 * o->runs_walk when set, then each record's rows, read ahead in a second thread, through
 * o->rows_take when set) and the table
 * already built (compare/load.h): no record is held. walk calls fn for each record in order (r
 * valid during the call), returns nonzero with err when the records cannot be read. Returns 0, or 1
 * with err. */
int bl_xlsx_write_walk(const char *path, const bl_table *t, bl_rec_walk_fn walk, void *src,
                       const bl_xlsx_opts *o, char *err, size_t errlen);

#endif
