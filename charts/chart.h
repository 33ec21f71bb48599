/* `benchlog chart`: PNG, SVG or PDF charts of stored records, one kind a line of
 * BL_CHART_KINDS below (the command's help, `benchlog --help` and a test of the man page read
 * that list). Titles default to what the charted records have in common (heading, host,
 * suite). */
#ifndef BL_CHARTS_CHART_H
#define BL_CHARTS_CHART_H

#include "../core/record.h"
#include "../core/strbuf.h"
#include "../compare/stats.h"
#include <stddef.h>

/* The chart kinds: X(ENUM, "name", draw function, help line). */
#define BL_CHART_KINDS(X)                                                                          \
    X(BAR, "bar", bl_chart_bar,                                                                    \
      "grouped bars, tests x set-ups (as report --by), MB/s else IOPS, value labels")              \
    X(PERCENTILES, "percentiles", bl_chart_percentiles,                                            \
      "latency percentile curves on log scales, from fio's percentiles or latency histograms")     \
    X(TIMELINE, "timeline", bl_chart_timeline,                                                     \
      "a series over time: bandwidth, IOPS or latency (fio logs, benchlog run)")                   \
    X(HISTOGRAM, "histogram", bl_chart_histogram,                                                  \
      "the latency distribution: share of I/Os per latency bin")                                   \
    X(IOPS_LAT, "iops-lat", bl_chart_bar,                                                          \
      "as fio-plot: IOPS bars per test and set-up, mean latency bars beside with a p99 tick")      \
    X(SCALING, "scaling", bl_chart_scaling,                                                        \
      "a sweep: IOPS (MB/s) against iodepth, numjobs or bs, a line each; latency below")           \
    X(TREND, "trend", bl_chart_trend,                                                              \
      "one set-up's test over time: runs with CI, segment means, change points (history)")

#define BL_CHART_ENUM_(e, n, f, h) BL_CHART_##e,
typedef enum { BL_CHART_KINDS(BL_CHART_ENUM_) BL_CHART_N_KINDS } bl_chart_kind;
#undef BL_CHART_ENUM_
/* " bar percentiles timeline histogram iops-lat": the names as one string, for summaries. */
#define BL_CHART_NAME_(e, n, f, h) " " n
#define BL_CHART_KIND_NAMES BL_CHART_KINDS(BL_CHART_NAME_)

typedef struct bl_chart_opts {
    bl_chart_kind kind;
    int width, height;  /* 0: 1600×900 (bar: taller when its bars need it) */
    const char *by;     /* bar: columns; other kinds: the label naming each curve */
    const char *title;  /* NULL: from the records' common labels */
    const char *series; /* timeline: series name (bw, iops, lat, clat); NULL: first found */
    int log;            /* bar: 1 log scale (said on the axis), else linear from zero */
    /* bar: the figure (metric when has_metric, else MB/s, else IOPS, else the test's own
     * figure), how repeats combine, and the page: BL_CHART_MAX_CURVES set-ups a page, *pages
     * (when not NULL) set to how many pages hold every set-up. */
    int has_metric;
    int metric; /* a bl_metric */
    bl_repeats repeats;
    size_t page;
    size_t *pages;
    size_t *drawn; /* bar, when not NULL: increased by the set-ups (legend entries) drawn */
    /* bar: the comparison already built (a store walked row by row) and what its records
     * share (the default title); then the records are not read. */
    const struct bl_table *table;
    const struct bl_chart_common *common;
    int compact; /* bar: no title line (a report's heading stands above), the subtitle first */
    int changes; /* bar: each bar but the table's baseline column's says its change and verdict */
} bl_chart_opts;

/* What the charted records have in common (tool, heading, host, suite, table column), for
 * the default title, gathered one record at a time. Zero-initialise; free with
 * bl_chart_common_free. */
typedef struct bl_chart_common {
    size_t n;
    char *v[5];
    unsigned char varies[5];
} bl_chart_common;
void bl_chart_common_add(bl_chart_common *c, const bl_record *r);
void bl_chart_common_free(bl_chart_common *c);

/* Returns 0; 1 when no record has what the kind draws or the file cannot be written;
 * 2 for bad options. err says why. The file's format follows its name: .svg, .pdf, else PNG. */
int bl_chart_file(const char *path, const bl_records *recs, const bl_chart_opts *o, char *err,
                  size_t errlen);
/* The same (kept for its callers: it writes SVG and PDF too). */
int bl_chart_png(const char *path, const bl_records *recs, const bl_chart_opts *o, char *err,
                 size_t errlen);
/* A bar chart of every set-up: one file when they fit a page, else path's pages x-1.png,
 * x-2.png, ... (o->page ignored); *pages says how many were written. Once the new chart is in
 * place, the pages of an older, longer set beyond it are removed (x-3.png after a two-page set,
 * x-1.png... after one file); on failure the old set stays as it was. */
int bl_chart_png_pages(const char *path, const bl_records *recs, const bl_chart_opts *o,
                       size_t *pages, char *err, size_t errlen);
/* "x.png", 2 -> "x-2.png"; caller frees. */
char *bl_chart_page_path(const char *path, size_t page);
/* Drops the default pango font map and with it the fonts and caches it holds, so that leak
 * checkers see a clean exit. Call once, when no more charts will be drawn. (FcFini and
 * cairo_debug_reset_static_data would free more but abort while pango 1.50's font-sorting
 * threads still hold fonts; what the libraries keep is suppressed in tests/lsan.supp and
 * tests/valgrind.supp.) */
void bl_chart_cleanup(void);
/* The same, the PNG's bytes appended to png (binary: png->len) instead of a file. */
int bl_chart_png_mem(bl_strbuf *png, const bl_records *recs, const bl_chart_opts *o, char *err,
                     size_t errlen);
/* The same as SVG bytes (text as <text> elements), or as a PDF when pdf. */
int bl_chart_vector_mem(bl_strbuf *out, int pdf, const bl_records *recs, const bl_chart_opts *o,
                        char *err, size_t errlen);
/* "bar" -> BL_CHART_BAR...; -1 when unknown. */
int bl_chart_kind_from_name(const char *name);
const char *bl_chart_kind_name(bl_chart_kind k);
const char *bl_chart_kind_help(bl_chart_kind k);
struct bl_canvas;
/* Draws kind o->kind on a canvas the caller made (a page of a PDF report). */
int bl_chart_draw(struct bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                  size_t errlen);

/* The height a bar chart of o (its page) needs at width so that each bar holds its figure
 * (chart files are at least 900 tall at 1600 wide; a report's page takes what it needs).
 * o->compact (a report's chart): width is the canvas's, drawn at the scale of 1600 wide. */
int bl_chart_bar_height(const bl_records *recs, const bl_chart_opts *o, int width);

/* Internals shared by the kinds (chart.c). */
struct bl_canvas;
int bl_chart_bar(struct bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                 size_t errlen);
int bl_chart_percentiles(struct bl_canvas *c, const bl_records *recs, const bl_chart_opts *o,
                         char *err, size_t errlen);
int bl_chart_timeline(struct bl_canvas *c, const bl_records *recs, const bl_chart_opts *o,
                      char *err, size_t errlen);
int bl_chart_histogram(struct bl_canvas *c, const bl_records *recs, const bl_chart_opts *o,
                       char *err, size_t errlen);
int bl_chart_scaling(struct bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                     size_t errlen);
int bl_chart_trend(struct bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                   size_t errlen);
/* A curve's name: the `by` label, else what tells the record apart (job or CDM test,
 * table column or heading or host), else source #run. Caller frees. */
char *bl_chart_name(const bl_record *r, const char *by);
/* "KIND — common labels" unless o->title; caller frees. */
char *bl_chart_title(const char *kind, const bl_record *const *recs, size_t n,
                     const bl_chart_opts *o);
char *bl_chart_title_common(const char *kind, const bl_chart_common *c, const bl_chart_opts *o);

/* Percentiles, timeline and histogram draw the first BL_CHART_MAX_CURVES records that have
 * what they draw, and say whether more have it: of a walk's records, only a few can change such
 * a chart. bl_chart_keeps says whether r is one of them (1: keep it, in order); the chart drawn
 * from the records kept is the one all the records give, and memory holds at most 55 of them (11 a
 * series). Zero-initialise p. Other kinds keep every record. */
typedef struct bl_chart_pick {
    size_t n[5]; /* kept, per series (timeline) or drawn (percentiles, histogram) */
    int extra;   /* percentiles: a record kept that is not drawn */
} bl_chart_pick;
int bl_chart_keeps(bl_chart_pick *p, const bl_chart_opts *o, const bl_record *r);
/* Whether no later record can be kept: the walk may stop. */
int bl_chart_picked(const bl_chart_pick *p, const bl_chart_opts *o);
int bl_chart_pick_pct(bl_chart_pick *p, const bl_record *r);
int bl_chart_pick_series(bl_chart_pick *p, const bl_chart_opts *o, const bl_record *r);
int bl_chart_pick_bins(bl_chart_pick *p, const bl_record *r);

/* Percentiles from latency bins: the first bin whose cumulative count reaches p% of all, at
 * fio's points (1 .. 99.99) while at least one I/O lies beyond the point. */
size_t bl_lat_pct_from_bins(const bl_lat *l, bl_pct *out, size_t cap);

#define BL_CHART_MAX_CURVES 10

#endif
