/* The comparison model behind `benchlog report`, `chart --kind bar` and the workbook's summary.
 *
 * Rows are tests: canonical test + bs + iodepth + numjobs, ordered as CrystalDiskMark lists
 * them (sequential before random, larger blocks and deeper queues first, read before write),
 * then bonnie++'s tests in bonnie++'s order, then anything else by name.
 * Columns are set-ups: the values of `by` (a record key or label; "run" = each source's run),
 * or by default the runs grouped by source, heading ("section"), table row ("row", when it
 * is one for the whole run), table column ("column") and machine ("host"), so that the dd commands
 * of one file form one column and ten bonnie++ rows under one heading are one column of repeats.
 * Records lacking the `by` label are never pooled: each source's set-up (as the default grouping
 * sees it) stands as its own column, marked unlabelled. Either way a set-up whose cell would hold
 * runs described differently (another fio job, device, dd target, direct flag: setup_plan.c) is
 * split into columns by the labels telling them apart ("f3.txt · job=ssd"), so that a cell's
 * records are repeats of one command; bl_table_build and load.h's walk decide the split in a
 * first pass over the records. A cell holds the repeats of one test on one
 * set-up, summarised per metric (stats.h), and is flagged when its main figure is far (100×) from
 * the row's median over >= 3 set-ups. */
#ifndef BL_COMPARE_TABLE_H
#define BL_COMPARE_TABLE_H

#include "../core/record.h"
#include "stats.h"
#include <stddef.h>
#include <stdint.h>

/* The figures a cell summarises. Latency is the total latency (lat) where the tool reports
 * it, else the completion latency (clat), for the mean and for the percentiles apart (fio
 * gives percentiles of clat unless lat_percentiles=1); the table counts which (lat_from,
 * pct_from). */
typedef enum {
    BL_M_BW,   /* MB/s, 10^6 bytes/s */
    BL_M_IOPS, /* IO/s */
    BL_M_LAT,  /* mean latency, ns */
    BL_M_P50,  /* percentiles of the same latency, ns */
    BL_M_P99,
    BL_M_P999,
    BL_M_VALUE, /* a test's own figure (seeks, files/s), unit in the cell */
    BL_M_CPU,   /* bonnie++ %CP */
    BL_M_COUNT
} bl_metric;

/* "bw" -> BL_M_BW, "iops", "lat", "p50", "p99", "p99.9", "value"; -1 when unknown. */
int bl_metric_from_name(const char *name);
const char *bl_metric_name(bl_metric m); /* "bw" */
const char *bl_metric_unit(bl_metric m); /* "MB/s", "IOPS", "ns", NULL for value */
int bl_metric_lower_better(bl_metric m);
/* Which way is better: +1 higher (throughput, IOPS, a count per second), -1 lower (latency,
 * CPU, a test's own figure in a unit of time: bonnie++'s latencies). unit: of BL_M_VALUE. */
int bl_metric_direction(bl_metric m, const char *unit);

/* The family whose figures are alike: "cdm" for CrystalDiskMark, KDiskMark and fio-cdm,
 * "fio" for fio and benchlog's engine, else the tool's own name ("" for none). */
const char *bl_tool_family(const char *tool);

/* How far (a factor either way) from the same test's median on the other set-ups a figure
 * must lie to be flagged: a slow disk is 40× below an SSD cache, a misread unit 1000×. */
#define BL_IMPLAUSIBLE 100.0

typedef struct bl_cell {
    size_t n_recs;
    size_t n_notes;        /* records with a note and no figure ("+++++") */
    bl_stat m[BL_M_COUNT]; /* one summary of the repeats per metric */
    const char *unit;      /* of BL_M_VALUE, borrowed from a record */
    const char *note;      /* borrowed: "+++++" when the tool could not measure */
    size_t lat_from[2],
        pct_from[2]; /* records whose mean, percentiles came from [0] lat, [1] clat */
    double flag;     /* main figure over the row's median elsewhere when implausible
                        (>= 100 or <= 1/100), else BL_ABSENT */
    size_t n_setups; /* --pool: the distinct set-ups (identities) its records came from */
} bl_cell;

typedef struct bl_row {
    char *test;
    int64_t bs, iodepth, numjobs; /* -1 absent */
    char *title;                  /* "seq-read 1MiB Q8T1" */
    int small_block;              /* IOPS are the figure of interest */
    int has_bw, has_iops, has_value;
    const char *unit; /* of the row's metric, borrowed */
} bl_row;

/* What the set-up table (report --setups) shows of each set-up, as PTS shows its systems:
 * these keys' values over the set-up's records. */
#define BL_SETUP_INFO_N 7
extern const char *const bl_setup_info_keys[BL_SETUP_INFO_N]; /* tool, tool_version, host,
                                                                  device, fs, date, command */

typedef struct bl_col {
    char *key;
    char *title;      /* for tables: names the file when several files are compared */
    char *label;      /* for legends and sheets: the set-up's labels alone when that is unique,
                         else its tool when the set-up has no labels, else the title */
    const char *tool; /* of its first record, borrowed */
    int unlabelled;   /* --by LABEL given and this source/run lacks it: a column of its own */
    int title_as_label;
    char *info[BL_SETUP_INFO_N];    /* distinct values of bl_setup_info_keys over its records,
                                       "\x1f"-joined (a few at most), NULL when none has it */
    size_t n_info[BL_SETUP_INFO_N]; /* distinct values seen: exact up to 4 (info keeps the
                                       first 4), past that only "more than 4" */
    const char *source; /* of its first record, borrowed (group.h: one group per source) */
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
    bl_repeats repeats;              /* how repeats combine into the figure shown */
    size_t lat_from[2], pct_from[2]; /* records whose latency mean, percentiles came from [0]
                                        total latency (lat), [1] completion latency (clat) */
    size_t n_unlabelled;             /* columns of records lacking --by */
    size_t n_split;                  /* columns of a set-up split as its runs differ (setups.h) */
    size_t n_flagged;                /* cells flagged implausible */
    int pool;                        /* --pool: a column's set-ups pooled, not split */
    size_t n_pooled;                 /* cells pooled over several set-ups */
    char **strs;                     /* owned: the cells' units and notes, columns' tools */
    size_t nstrs, strs_cap;
} bl_table;

typedef struct bl_table_opts {
    const char *by;       /* NULL: runs grouped by source/section/column; "a,b": by pairs */
    int pool;             /* pool a column's different set-ups on purpose (no split; cells
                             count the set-ups they pool, n_setups) */
    const char *baseline; /* a column's key or title, NULL for none */
    bl_repeats repeats;   /* default mean */
    int lean;             /* keep each repeat's value only where the figure needs it (median,
                             all); else cells hold running sums (stats.h) and v stays empty */
} bl_table_opts;

/* Builds the model; returns NULL with a message when the baseline names no column. The
 * table keeps copies of what it shows: the records may go once it is built. */
bl_table *bl_table_build(const bl_records *recs, const bl_table_opts *o, char *err, size_t errlen);

/* The same, one record at a time (a store walked row by row): the table keeps per record only
 * the figures its statistics need. Set-ups are split only as a plan given to the builder says
 * (setups.h: bl_table_set_plan, made by a first walk or from fine groups, fine.h: which also
 * feed the builder, bl_table_add_fines); without one they are not split. row_setup
 * says whether r's "row" label is the same over the run's records (setups.h: bl_setup_rows_naming);
 * r is read during the call only. bl_table_end frees the builder and returns what bl_table_build
 * would. */
typedef struct bl_table_builder bl_table_builder;
bl_table_builder *bl_table_begin(const bl_table_opts *o);
void bl_table_add(bl_table_builder *b, const bl_record *r, int row_setup);
bl_table *bl_table_end(bl_table_builder *b, char *err, size_t errlen);
void bl_table_free(bl_table *t);

static inline bl_cell *bl_table_cell(const bl_table *t, size_t row, size_t col)
{
    return &t->cells[row * t->ncols + col];
}

/* The figure a row is compared by: MB/s, else IOPS, else the metric value. */
const bl_stat *bl_cell_main(const bl_row *row, const bl_cell *c);
bl_metric bl_row_main(const bl_row *row);
/* Whether any cell of the row has the metric. */
int bl_row_has(const bl_table *t, size_t row, bl_metric m);
/* Column's main figure over the baseline's, BL_ABSENT when either is missing. */
double bl_table_ratio(const bl_table *t, size_t row, size_t col);

/* The rows a bar chart shows, into out (nrows entries): those in the unit most comparable
 * (MB/s, else IOPS, else the first metric's unit, said in *unit), since bars of different
 * units on one axis would compare nothing. */
size_t bl_table_chart_rows(const bl_table *t, size_t *out, const char **unit);

#endif
