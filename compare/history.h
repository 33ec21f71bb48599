/* History: each set-up's results over time, and the changes in them (`benchlog history`,
 * `benchlog check`, `chart --kind trend`).
 *
 * A series is one test (test, bs, iodepth, numjobs) of one set-up with one metric. A set-up is
 * the comparison's identity minus time: by default the tool, heading ("section"), table
 * column, host, part of a run ("scope") and every field and label describing how it was run
 * (setups.h: bl_setup_desc, size_bytes aside); under --by the tool, scope and the values of
 * the labels given, so that a command changed within a set-up is a change the series shows.
 * Records of a series with the same `when` are one point (their mean, n, 95% CI); points are
 * in time order; E-Divisive (changepoint.h) runs over the logs of the points' means when all
 * are positive (throughput and latency: their noise multiplies, a run twice as fast is as
 * far as one half as fast, and a stall of one run does not outweigh the change of many),
 * else over the means; the means either side are of the figures themselves. Records without a
 * test or a `when`, or without the metric, are left out (counted). Memory: per record one
 * time and the figures asked for, never the record. */
#ifndef BL_COMPARE_HISTORY_H
#define BL_COMPARE_HISTORY_H

#include "../core/record.h"
#include "../core/when.h"
#include "changepoint.h"
#include "stats.h"
#include "table.h"
#include <stddef.h>
#include <time.h>

typedef struct bl_hist_opts {
    const char *const *by; /* labels naming set-ups; NULL or n_by 0: the default identity */
    size_t n_by;
    const bl_metric *metrics; /* figures to follow; none: each test's main (MB/s, else IOPS, else
                                 its value) */
    size_t n_metrics;
    bl_cp_opts cp;
    int sources; /* keep each series' sources (the page links a source's group to them) */
} bl_hist_opts;

typedef struct bl_hist_point {
    time_t t;
    char when[BL_WHEN_LEN];
    bl_stat s; /* finished: n, mean, sd, ci (the figure is the mean) */
} bl_hist_point;

typedef struct bl_hist_series {
    char *setup; /* "dd · dd_if=/dev/zero", "fio · host=nas1 · job=randread" */
    char *test;  /* "seq-read 1MiB Q8T1" */
    char *tool;
    bl_metric metric;
    const char *unit; /* "MB/s", "IOPS", "ns", or the records' unit for value; owned */
    int lower_better;
    size_t n;
    bl_hist_point *p; /* ascending by t */
    bl_cp_result cp;  /* over the points' means */
    char **sources;   /* with opts.sources: the records' distinct sources, first seen first */
    size_t n_sources;
} bl_hist_series;

typedef struct bl_history {
    size_t n;
    bl_hist_series *v; /* by set-up, then test as the comparison orders tests, then metric */
    size_t n_records;  /* in a series */
    size_t n_untimed;  /* left out: no when */
    size_t n_untested; /* left out: no test name */
    double alpha;      /* the change-point search's, defaults filled in */
    size_t min_seg;
} bl_history;

typedef struct bl_hist_builder bl_hist_builder;
bl_hist_builder *bl_history_begin(const bl_hist_opts *o);
void bl_history_add(bl_hist_builder *b, const bl_record *r); /* r read during the call only */
/* The same for a record given as its fold shape and figures (core/store.h,
 * bl_store_each_lean): fig[m] stands for bl_hist_figure(r, m), as bl_fold_figs makes them.
 * r's set-up (all but run, line, when) must stay the same at one address for the whole
 * build, as the lean walk's shapes do: its series is looked up once. */
void bl_history_add_figs(bl_hist_builder *b, const bl_record *r, const double *fig);
/* Frees the builder; finds each series' changes. */
bl_history *bl_history_end(bl_hist_builder *b);
void bl_history_free(bl_history *h);

/* The figure of r for metric m in the comparison's units (table.h: bw in MB/s, latency in
 * ns, the latency of lat where present, else clat); BL_ABSENT when r lacks it. */
double bl_hist_figure(const bl_record *r, bl_metric m);

/* The verdict on a series' newest points (the last `last` points, or those at or after
 * `since` when last is 0): a significant change point among them that makes the figure worse,
 * or, when fewer than the minimum segment follow the last change, their mean beyond the
 * one-sided prediction bound at level alpha (0: 0.01) of the segment before them on the worse
 * side (Student's t, on a log scale when every figure is positive: noise in throughput and
 * latency multiplies), so that flat noise is called a regression with probability alpha, as a
 * change point is. lo..hi is the two-sided interval of those bounds (1 - 2 alpha). */
typedef struct bl_hist_verdict {
    int regression;
    int by_interval;      /* decided by the interval, not by a change point */
    size_t newest;        /* points looked at */
    size_t at;            /* first point of the newest (or of the change) */
    double before, after; /* means */
    double pct;
    double p;         /* change point's p-value; BL_ABSENT when by_interval */
    double lo, hi;    /* the interval, when by_interval */
    const char *note; /* why no verdict could be reached, or NULL */
} bl_hist_verdict;
void bl_hist_check(const bl_hist_series *s, size_t last, time_t since, size_t min_seg, double alpha,
                   bl_hist_verdict *v);

#endif
