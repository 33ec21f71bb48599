/* Renderers of the comparison model (table.h): an aligned terminal table, Markdown, CSV with
 * plain numbers for spreadsheets, and the HTML page (page.h, without the sources list). */
#ifndef BL_REPORT_RENDER_H
#define BL_REPORT_RENDER_H

#include "../core/strbuf.h"
#include "../compare/table.h"

typedef enum { BL_REPORT_TEXT, BL_REPORT_MD, BL_REPORT_CSV, BL_REPORT_HTML } bl_report_format;

typedef struct bl_report_opts {
    bl_report_format format;
    int lat;           /* add latency columns (mean and p99) */
    const char *title; /* heading (HTML default "Storage benchmark comparison"; text, md: none) */
    const bl_metric *metrics; /* --metric: these figures per set-up; none: the main figure */
    size_t n_metrics;
    int width;      /* text: split into blocks past this many columns (0: one table) */
    int overview;   /* text, md: mark each test's best set-up (*) and add the overview (geometric
                       mean of ratios to the baseline, compare/overview.h) */
    int setups;     /* text, md: add the set-up table (each set-up's tool, version, host...) */
    int layout_cdm; /* text, md: CrystalDiskMark's own layout (cdm_layout.c) */
    int across;     /* text, md: the records were chosen (a FILTER): one group, not one a source */
} bl_report_opts;

void bl_report_render(const bl_table *t, const bl_report_opts *o, bl_strbuf *out);

/* A table of display strings, the common form of the text, Markdown and HTML renderers. */
typedef struct bl_grid {
    size_t nrows, ncols; /* ncols includes the test column */
    char **head;         /* ncols */
    char **cell;         /* nrows * ncols */
    int *numeric;        /* ncols: right-aligned */
    int *main_of;        /* ncols: compared column index of a main figure column, else -1 */
} bl_grid;

void bl_grid_build(const bl_table *t, const bl_report_opts *o, bl_grid *g);
void bl_grid_free(bl_grid *g);
/* The main cell of a row and column as the renderers print it ("238.2 MB/s"), with the
 * repeats (n, ± stdev, CI) and the implausibility flag " !". */
void bl_cell_text(const bl_table *t, size_t row, size_t col, bl_strbuf *sb);
/* One metric of a cell the same way ("812 µs ± 20 µs (n=3, CI ±50 µs)"); empty when absent. */
void bl_metric_text(const bl_table *t, size_t row, size_t col, bl_metric m, bl_strbuf *sb);
/* The footnote: units, counts, how repeats combine, where latency came from (when o shows
 * latency), flags. */
/* The sentence saying that t's pooled cells (t->n_pooled, --pool) are not repeats. */
void bl_report_pooled_note(const bl_table *t, bl_strbuf *out);
void bl_report_footnote(const bl_table *t, const bl_report_opts *o, bl_strbuf *out,
                        const char *prefix);

/* The aligned terminal table: past o->width columns, blocks of set-ups that each repeat the
 * test column, headers wrapped at " · " and rows empty in a block left out of it. */
void bl_render_text(const bl_table *t, const bl_grid *g, const bl_report_opts *o, bl_strbuf *out);
/* Its table alone, in blocks past o->width: no title, no footnote (text.c). */
void bl_render_text_table(const bl_grid *g, const bl_report_opts *o, bl_strbuf *out);
/* The text or Markdown report organised by comparison group (compare/group.h) when there is
 * more than one: the title, an overview of the groups with their counts, then each group's
 * heading and table, in the page's order, the footnote once (render_groups.c); returns 0
 * (writing nothing) for a single group (a FILTER, --by or a baseline make one). */
int bl_render_groups(const bl_table *t, const bl_report_opts *o, bl_strbuf *out);
void bl_render_csv(const bl_table *t, const bl_report_opts *o, bl_strbuf *out);
/* Names from imported text in g's heads and cells shown as escape.h does for a terminal. */
void bl_grid_escape_term(bl_grid *g);
/* One aligned table of g, no blocks, no footnote (text.c); escape g first. */
void bl_render_grid(const bl_grid *g, bl_strbuf *out);
/* The same as a Markdown table (render.c). */
void bl_render_grid_md(const bl_grid *g, bl_strbuf *out);
/* --layout cdm: the CrystalDiskMark-family set-ups as CrystalDiskMark's panel shows them,
 * tests as rows named SEQ1M Q8T1, Read and Write side by side (MB/s, two decimals); other
 * set-ups and tests are counted as left out. */
void bl_render_cdm(const bl_table *t, const bl_report_opts *o, bl_strbuf *out);
/* The overview and the set-up table (overview.c), as o asks, in text or Markdown. */
void bl_render_overview(const bl_table *t, const bl_report_opts *o, bl_strbuf *out);

#endif
