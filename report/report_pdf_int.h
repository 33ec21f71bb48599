/* Internals of the PDF report shared by report_pdf.c (the document, its title page,
 * contents, sources) and report_pdf_groups.c (a comparison group's grid or table and chart). */
#ifndef BL_REPORT_REPORT_PDF_INT_H
#define BL_REPORT_REPORT_PDF_INT_H

#include "report_pdf.h"
#include <cairo.h>
#include <pango/pangocairo.h>

#define PW 842.0 /* A4 landscape, points */
#define PH 595.0
#define M 28.0
#define INK 0x1D2330
#define MUTED 0x5B6475
#define RULE 0xD5DAE3
#define LINE_H 13.0

typedef struct bl_pdf_doc {
    cairo_surface_t *surf;
    cairo_t *cr;
    PangoLayout *lay;
    const char *title;
    size_t page;
    double y; /* where the next block goes on the page */
    /* The box blocks go in: the page's width, or one of two columns (two == 1) that small
     * groups fill in turn, left then right, before a new page. */
    double x, w, col_top, left_bottom;
    int two, col;
} doc;

void bl_pdf_rgb(doc *d, unsigned c);
/* Text in a box of width w at (x, y top): align 0 left, 1 right; ell: ellipsize (middle keeps
 * the end), else wrap. Returns the height used. */
double bl_pdf_text(doc *d, double x, double y, double w, const char *s, double size, int bold,
                   double align, int ell, unsigned color);
/* The height of text at size wrapped to width w, and the width of a line of it (points). */
double bl_pdf_text_height(doc *d, const char *s, double w, double size);
double bl_pdf_measure(doc *d, const char *s, double size);
/* A rule across the box (d->x, d->w). */
void bl_pdf_rule(doc *d, double y, unsigned color, double width);
/* The page's footer, and the page out. */
void bl_pdf_end_page(doc *d);
void bl_pdf_new_page(doc *d);
/* A new page, the next block at y; in two columns, the right column first (unless the left
 * one is empty: the right one would have no more room). */
void bl_pdf_new_page_at(doc *d, double y);
/* Blocks in two columns from d->y, or across the page again below both. */
void bl_pdf_columns(doc *d, int two);

/* The width a single set-up's table needs without its set-up column (named above it). */
double bl_pdf_lone_width(const bl_table *t);
/* 1 when a grid of two or three set-ups fits width w, every figure whole. */
int bl_pdf_pivot_fits(doc *d, const bl_table *t, double w);
/* The room a group's table needs to begin on a page (the grid's header and keys, a few
 * lines): less, and it would begin on the next, its heading left alone. */
double bl_pdf_table_start(const bl_table *t);
/* A group's figures (its table, the group's set-ups only): a grid of tests × set-ups (keyed
 * ten to a grid past five set-ups), or the long form for a single set-up. */
void bl_pdf_group_table(doc *d, const bl_table *t, const char *name);
/* The group's bar charts of its main figure; 1 when a chart cannot be drawn (err says why). */
int bl_pdf_group_charts(doc *d, const bl_table *t, const char *name, const bl_pdf_opts *o,
                        char *err, size_t errlen);

#endif
