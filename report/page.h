/* The report people open: one self-contained HTML page built from the comparison model
 * (table.h) and the records behind it. Nothing is fetched: CSS, a small hand-written script and
 * the charts (inline SVG, one per metric, every set-up drawn) are in the page, so it works from
 * file:// and as a mail attachment, and without its script it still shows the table and the
 * charts of the main figure.
 *   - the table: a scroll container with the test column and the header kept in view, sortable
 *     by any column, set-ups hidden/shown, a metric choice switching table and charts, repeats
 *     with n and the 95% interval on hover;
 *   - the sources: each run with its file, line and labels, collapsible;
 *   - lang from the content (ja for Japanese labels); a print stylesheet. */
#ifndef BL_REPORT_PAGE_H
#define BL_REPORT_PAGE_H

#include "../core/record.h"
#include "../core/strbuf.h"
#include "../compare/run_digest.h"
#include "../compare/table.h"

typedef struct {
    const char *title; /* NULL: a default */
    int charts;        /* 0 leaves the charts out */
    int metric;        /* the metric the page opens on (report --metric), -1: the main figure */
    int across;        /* the records were chosen (a filter): one group across sources */
    const struct bl_history *history; /* NULL: no trends (page_history.h) */
} bl_page_opts;

/* recs are the records the table was built from (for the sources; NULL: none listed). With a
 * baseline column (t->baseline), each other column's main figure carries its ratio to it. */
void bl_page_html(const bl_table *t, const bl_records *recs, const bl_page_opts *o, bl_strbuf *out);

/* What the page says of the records (its language, the Sources table: each run once, as its
 * records follow one another, with its file, first line, tool, records and the labels they all
 * share), gathered one record at a time so that the records need not be held.
 * Zero-initialise, add every record, free. */
typedef struct bl_page_recs {
    int kana, han, hangul;
    size_t runs;
    bl_strbuf rows;    /* the Sources rows of the runs finished */
    bl_run_digest run; /* the run being read */
} bl_page_recs;
void bl_page_recs_add(bl_page_recs *p, const bl_record *r);
void bl_page_recs_free(bl_page_recs *p);
/* The page from the table and the records gathered (NULL: no sources). */
void bl_page_html_recs(const bl_table *t, bl_page_recs *recs, const bl_page_opts *o,
                       bl_strbuf *out);

/* Internals shared with page_svg.c and page_sources.c. */
void bl_page_put_sources(bl_page_recs *p, bl_strbuf *out);
const char *bl_page_lang_of(const char *s, int *kana, int *han, int *hangul);
void bl_page_esc(bl_strbuf *out, const char *s);
/* A figure of metric m for display: "424.8 MB/s", "812 µs", "61206 IOPS"; unit for
 * BL_M_VALUE from the cell. */
void bl_page_fig(bl_strbuf *sb, bl_metric m, double v, const char *unit);
/* The chart of metric m as inline SVG: per test, one bar per set-up that has the figure,
 * labelled with the set-up's key and the figure, the 95% CI as a whisker; data-col marks a set-up's
 * elements for the page's show/hide. Returns the number of bars (0: nothing written). */
size_t bl_page_svg_chart(const bl_table *t, bl_metric m, bl_strbuf *out);
/* The legend of the chart of m: each set-up's key (A, B, ..., as at its bars) and whole name,
 * as an HTML table that wraps at any width. */
void bl_page_svg_keys(const bl_table *t, bl_metric m, bl_strbuf *out);
/* The same for a group's table (compare/group.h): colmap[j] is set-up j's column on the page
 * (its data-col, for show/hide); colours follow the place in the group, so they differ within
 * it. */
void bl_page_svg_keys_map(const bl_table *t, bl_metric m, const size_t *colmap, bl_strbuf *out);
size_t bl_page_svg_chart_map(const bl_table *t, bl_metric m, const size_t *colmap, bl_strbuf *out);
/* Set-up j's key: 0 -> "A", 25 -> "Z", 26 -> "AA". */
void bl_page_key(size_t j, char *buf, size_t n);
/* A short text saying what the chart of m compares and how repeats were combined. */
void bl_page_chart_text(const bl_table *t, bl_metric m, bl_strbuf *out);
/* "bw" -> "MB/s (throughput)"; what the metric choice shows. */
const char *bl_page_metric_label(bl_metric m);

#endif
