/* Drawing shared by the chart kinds: a white 1600×900 (or --width×--height) cairo surface with
 * pango text in Noto Sans CJK JP (so Japanese labels render), one palette, a title block, a
 * legend row and axes with "nice" ticks on linear or log scales. Sizes are given for the
 * 1600×900 default and scaled with the image. The surface is a PNG image, an SVG or a PDF
 * page (one unit a pixel; a PDF page is 0.5 pt a unit); in SVG, text is written as <text>
 * elements rather than glyph outlines, so that it stays searchable and selectable. */
#ifndef BL_CHARTS_CANVAS_H
#define BL_CHARTS_CANVAS_H

#include "../core/strbuf.h"
#include <cairo.h>
#include <pango/pangocairo.h>
#include <stddef.h>

#define BL_CHART_FONT "Noto Sans CJK JP, DejaVu Sans"

typedef enum { BL_CANVAS_PNG, BL_CANVAS_SVG, BL_CANVAS_PDF } bl_canvas_fmt;

/* The format a file name asks for: ".svg", ".pdf" (any case), else PNG. */
bl_canvas_fmt bl_canvas_fmt_of(const char *path);

typedef struct bl_canvas {
    bl_canvas_fmt fmt;
    int borrowed;    /* drawing on a caller's cairo context (bl_canvas_init_on) */
    bl_strbuf vec;   /* SVG/PDF bytes as cairo writes them */
    bl_strbuf texts; /* SVG: the <text> elements, added before </svg> */
    cairo_surface_t *surf;
    cairo_t *cr;
    PangoLayout *layout;
    double w, h, s;  /* size in pixels; s = scale against 1600×900 */
    double ts;       /* text scale: shrinks slower than s so small charts stay legible */
    int compact;     /* a report's chart: the legend after the subtitle, the x axis's name beside
                        its ticks (left of the plot) */
    double min_text; /* PDF: the smallest text, in units (BL_CANVAS_MIN_PT on the page); else 0 */
    double px0, py0, px1, py1; /* plot area, set by bl_canvas_frame */
} bl_canvas;

/* No text of a PDF chart is smaller than this on the page, however short the chart: a short
 * chart's text scale (ts) would otherwise take it to 4-5 pt. */
#define BL_CANVAS_MIN_PT 6.8

/* Returns -1 when cairo cannot make the image (size too big). */
int bl_canvas_init(bl_canvas *c, int width, int height);
int bl_canvas_init_fmt(bl_canvas *c, int width, int height, bl_canvas_fmt fmt);
/* A canvas of width×height units drawing on cr (a page of the caller's document, already
 * translated and scaled); bl_canvas_free leaves cr alone. */
void bl_canvas_init_on(bl_canvas *c, cairo_t *cr, int width, int height);
void bl_canvas_free(bl_canvas *c);
/* Finishes the drawing and writes the PNG, SVG or PDF file. */
int bl_canvas_save(bl_canvas *c, const char *path, char *err, size_t errlen);
/* The file's bytes appended to out (binary: use out->len). */
int bl_canvas_save_mem(bl_canvas *c, bl_strbuf *out);

/* Glyphs the chart font lacks for s (0 when every character renders, e.g. Japanese). */
int bl_canvas_unknown_glyphs(bl_canvas *c, const char *s, double size);
/* Palette colour i as 0xRRGGBB. */
unsigned bl_canvas_palette(size_t i);

/* Palette colour i (wraps), with alpha. */
void bl_canvas_color(bl_canvas *c, size_t i, double alpha);
void bl_canvas_rgb(bl_canvas *c, unsigned rgb, double alpha);

/* Text at (x, y) aligned by ax (0 left, .5 centre, 1 right) and ay (0 top, .5 middle,
 * 1 bottom); size in px at the default image size. Returns the width drawn. Text wider than
 * max_w (0: no limit) is ellipsized. */
double bl_canvas_text(bl_canvas *c, double x, double y, const char *s, double size, int bold,
                      double ax, double ay, unsigned rgb, double max_w);
void bl_canvas_measure(bl_canvas *c, const char *s, double size, int bold, double *w, double *h);

/* Title, subtitle and a legend of n names (palette colours); sets the plot area inside
 * the given margins (left, right, bottom) below them. */
void bl_canvas_frame(bl_canvas *c, const char *title, const char *subtitle,
                     const char *const *names, size_t n, double left, double right, double bottom);

typedef struct bl_axis {
    double min, max;
    int log; /* log10 scale */
} bl_axis;

/* A linear axis from 0 (or lo when negative) to a round value above hi. */
void bl_axis_linear(bl_axis *a, double lo, double hi);
/* A log axis from the decade at or below lo to the decade at or above hi. */
void bl_axis_log(bl_axis *a, double lo, double hi);
/* Pixel position of v between pixel ends p0 (min) and p1 (max). */
double bl_axis_pos(const bl_axis *a, double v, double p0, double p1);
/* Tick values (at most max); linear: 1-2-5 steps; log: decades (and 2, 5 when few). */
size_t bl_axis_ticks(const bl_axis *a, double *ticks, size_t max);

/* Grid line and tick label helpers over the plot area. fmt turns a tick into its label. */
typedef void (*bl_tick_fmt)(double v, char *buf, size_t n);
void bl_canvas_xaxis(bl_canvas *c, const bl_axis *a, bl_tick_fmt fmt, const char *name);
void bl_canvas_yaxis(bl_canvas *c, const bl_axis *a, bl_tick_fmt fmt, const char *name);

/* Tick labels: "0", "250", "1.5k"; latency in ns as "100 µs", "2 ms". */
void bl_tick_plain(double v, char *buf, size_t n);
void bl_tick_ns(double v, char *buf, size_t n);

#endif
