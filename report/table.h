/* The comparison model behind `benchlog report`, `chart --kind bar` and the workbook's summary.
 *
 * Rows are tests: canonical test + bs + iodepth + numjobs, ordered as CrystalDiskMark lists
 * them (sequential before random, larger blocks and deeper queues first, read before write),
 * then bonnie++'s tests in bonnie++'s order, then anything else by name.
 * Columns are the values of `by` (a record key or label; "run" = each source's run), or by
 * default the runs grouped by source, heading ("section") and table column ("column"), so
 * that the dd commands of one file form one column and ten bonnie++ rows under one heading
 * are one column summarised as mean ± stdev with their count.
 * A cell summarises every record of its row and column. */
#ifndef BL_REPORT_TABLE_H
#define BL_REPORT_TABLE_H

#include "../core/record.h"
#include <stddef.h>
#include <stdint.h>

/* Mean and sample standard deviation of the present values (n of them). */
typedef struct bl_stat {
    size_t n;
    double mean, sd; /* BL_ABSENT when n == 0; sd BL_ABSENT when n < 2 */
    double m2;       /* Welford's running sum of squares */
} bl_stat;

typedef struct bl_cell {
    size_t n_recs;
    size_t n_notes;   /* records with a note and no figure ("+++++") */
    bl_stat mbps;     /* 10^6 bytes/s */
    bl_stat iops;     /* IO/s */
    bl_stat value;    /* a metric's value (seeks, files/s), unit below */
    bl_stat lat_ns;   /* mean total latency (lat, else clat) */
    bl_stat p99_ns;   /* 99th percentile of the same */
    bl_stat cpu_pct;  /* bonnie++ %CP */
    const char *unit; /* borrowed from a record */
    const char *note; /* borrowed: "+++++" when the tool could not measure */
} bl_cell;

typedef struct bl_row {
    char *test;
    int64_t bs, iodepth, numjobs; /* -1 absent */
    char *title;                  /* "seq-read 1MiB Q8T1" */
    int small_block;              /* IOPS are the figure of interest */
    int has_bw, has_iops, has_value;
    const char *unit; /* of the row's metric, borrowed */
} bl_row;

typedef struct bl_col {
    char *key;
    char *title;
} bl_col;

typedef struct bl_table {
    size_t nrows, ncols;
    bl_row *rows;
    bl_col *cols;
    bl_cell *cells;    /* nrows * ncols, row-major; bl_table_cell() */
    char *by;          /* NULL: default grouping */
    long baseline;     /* column index or -1 */
    size_t n_records;  /* in the table */
    size_t n_left_out; /* without a test name: nothing to compare (bare fio logs) */
    int any_small, any_value, any_repeat, any_lat, any_cpu;
} bl_table;

typedef struct bl_table_opts {
    const char *by;       /* NULL: runs grouped by source/section/column */
    const char *baseline; /* a column's key or title, NULL for none */
} bl_table_opts;

/* Builds the model; returns NULL with a message when the baseline names no column. The
 * records are borrowed: keep them alive while the table is used (units, notes). */
bl_table *bl_table_build(const bl_records *recs, const bl_table_opts *o, char *err, size_t errlen);
void bl_table_free(bl_table *t);

static inline bl_cell *bl_table_cell(const bl_table *t, size_t row, size_t col)
{
    return &t->cells[row * t->ncols + col];
}

/* The figure a row is compared by: MB/s, else IOPS, else the metric value. */
const bl_stat *bl_cell_main(const bl_row *row, const bl_cell *c);
/* Column's main figure over the baseline's, BL_ABSENT when either is missing. */
double bl_table_ratio(const bl_table *t, size_t row, size_t col);

/* The rows a bar chart shows, into out (nrows entries): those in the unit most comparable
 * (MB/s, else IOPS, else the first metric's unit, said in *unit), since bars of different
 * units on one axis would compare nothing. */
size_t bl_table_chart_rows(const bl_table *t, size_t *out, const char **unit);

/* The key a record falls into for `by` (NULL = default grouping), into buf. */
const char *bl_table_col_key(const bl_record *r, const char *by, char *buf, size_t n);

#endif
