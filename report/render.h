/* Renderers of the comparison model (table.h): an aligned terminal table, Markdown, CSV with
 * plain numbers for spreadsheets, and a self-contained HTML page (inline CSS, no scripts). */
#ifndef BL_REPORT_RENDER_H
#define BL_REPORT_RENDER_H

#include "../core/strbuf.h"
#include "table.h"

typedef enum { BL_REPORT_TEXT, BL_REPORT_MD, BL_REPORT_CSV, BL_REPORT_HTML } bl_report_format;

typedef struct bl_report_opts {
    bl_report_format format;
    int lat;           /* add latency columns (mean and p99) */
    const char *title; /* heading (HTML default "Storage benchmark comparison"; text, md: none) */
    const char *png;   /* HTML: a chart embedded below the table (PNG bytes), or NULL */
    size_t png_len;
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

void bl_grid_build(const bl_table *t, int lat, bl_grid *g);
void bl_grid_free(bl_grid *g);
/* The main cell of a row and column as the renderers print it ("238.2 MB/s"). */
void bl_cell_text(const bl_row *row, const bl_cell *c, bl_strbuf *sb);

void bl_render_csv(const bl_table *t, int lat, bl_strbuf *out);
void bl_render_html(const bl_table *t, const bl_grid *g, const bl_report_opts *o, bl_strbuf *out);

#endif
