#include "canvas.h"
#include "../core/atomic.h"
#include "../core/escape.h"
#include "../core/strbuf.h"
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Tableau 10: distinct for the colour-blind in its first six, prints well in grey. */
static const unsigned palette[] = {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F,
                                   0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F, 0xBAB0AC};
#define N_PALETTE (sizeof palette / sizeof palette[0])
#define INK 0x1D2330
#define MUTED 0x5B6475
#define GRID 0xE3E6EC

bl_canvas_fmt bl_canvas_fmt_of(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (dot && strcasecmp(dot, ".svg") == 0)
        return BL_CANVAS_SVG;
    if (dot && strcasecmp(dot, ".pdf") == 0)
        return BL_CANVAS_PDF;
    return BL_CANVAS_PNG;
}

static cairo_status_t to_strbuf(void *closure, const unsigned char *data, unsigned int len)
{
    bl_strbuf_putn(closure, (const char *)data, len);
    return CAIRO_STATUS_SUCCESS;
}

/* Scale and text sizes from the canvas size, the white background, and pango's fontconfig
 * thread started (laying out one glyph waits for it, so that bl_chart_cleanup never runs while
 * that thread still holds caches). */
static void setup(bl_canvas *c, int width, int height)
{
    c->layout = pango_cairo_create_layout(c->cr);
    c->w = width;
    c->h = height;
    c->s = fmin(width / 1600.0, height / 900.0);
    if (c->s < 0.35)
        c->s = 0.35; /* below this text would be unreadable anyway */
    c->ts = c->s < 1 ? sqrt(c->s) : c->s;
    if (c->fmt == BL_CANVAS_PDF) { /* points a unit, as the caller's transformation has it */
        double ux = 1, uy = 0;
        cairo_user_to_device_distance(c->cr, &ux, &uy);
        double pt = hypot(ux, uy);
        c->min_text = pt > 0 ? BL_CANVAS_MIN_PT / pt : 0;
    }
    cairo_set_source_rgb(c->cr, 1, 1, 1);
    cairo_rectangle(c->cr, 0, 0, width, height);
    cairo_fill(c->cr);
    bl_canvas_measure(c, "0", 10, 0, NULL, NULL);
}

int bl_canvas_init_fmt(bl_canvas *c, int width, int height, bl_canvas_fmt fmt)
{
    memset(c, 0, sizeof *c);
    c->fmt = fmt;
    bl_strbuf_init(&c->vec);
    bl_strbuf_init(&c->texts);
    if (fmt == BL_CANVAS_SVG) {
        c->surf = cairo_svg_surface_create_for_stream(to_strbuf, &c->vec, width, height);
        /* cairo's default is pt, which a browser shows 4/3 larger than the text measured. */
        cairo_svg_surface_set_document_unit(c->surf, CAIRO_SVG_UNIT_PX);
    } else if (fmt == BL_CANVAS_PDF) /* half a point a unit: 1600×900 is an 800×450 pt page */
        c->surf =
            cairo_pdf_surface_create_for_stream(to_strbuf, &c->vec, width * 0.5, height * 0.5);
    else
        c->surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(c->surf) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(c->surf);
        c->surf = NULL;
        bl_strbuf_free(&c->vec);
        bl_strbuf_free(&c->texts);
        return -1;
    }
    c->cr = cairo_create(c->surf);
    if (fmt == BL_CANVAS_PDF)
        cairo_scale(c->cr, 0.5, 0.5);
    setup(c, width, height);
    return 0;
}

int bl_canvas_init(bl_canvas *c, int width, int height)
{
    return bl_canvas_init_fmt(c, width, height, BL_CANVAS_PNG);
}

void bl_canvas_init_on(bl_canvas *c, cairo_t *cr, int width, int height)
{
    memset(c, 0, sizeof *c);
    c->fmt = BL_CANVAS_PDF;
    c->borrowed = 1;
    bl_strbuf_init(&c->vec);
    bl_strbuf_init(&c->texts);
    c->cr = cr;
    setup(c, width, height);
}

void bl_canvas_free(bl_canvas *c)
{
    if (c->layout)
        g_object_unref(c->layout);
    if (c->cr && !c->borrowed)
        cairo_destroy(c->cr);
    if (c->surf)
        cairo_surface_destroy(c->surf);
    bl_strbuf_free(&c->vec);
    bl_strbuf_free(&c->texts);
    memset(c, 0, sizeof *c);
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Ends the vector document: cairo writes its last bytes on finish; the SVG's text goes in
 * last, above the shapes, as the chart kinds draw labels after what they label. */
static int finish_vector(bl_canvas *c)
{
    cairo_surface_finish(c->surf);
    if (cairo_surface_status(c->surf) != CAIRO_STATUS_SUCCESS)
        return -1;
    if (c->fmt == BL_CANVAS_SVG) {
        char *end = c->vec.len ? strstr(c->vec.s, "</svg>") : NULL;
        if (!end)
            return -1;
        size_t at = (size_t)(end - c->vec.s);
        bl_strbuf tail;
        bl_strbuf_init(&tail);
        bl_strbuf_puts(&tail, c->vec.s + at);
        c->vec.len = at;
        c->vec.s[at] = 0;
        bl_strbuf_putn(&c->vec, c->texts.s ? c->texts.s : "", c->texts.len);
        bl_strbuf_putn(&c->vec, tail.s, tail.len);
        bl_strbuf_free(&tail);
    }
    return 0;
}

int bl_canvas_save(bl_canvas *c, const char *path, char *err, size_t errlen)
{
    if (c->fmt != BL_CANVAS_PNG) {
        if (finish_vector(c) != 0) {
            snprintf(err, errlen, "cannot write %s: cairo could not finish the document", path);
            return -1;
        }
        /* Whole or not at all, as the PNG below. */
        return bl_write_file(path, c->vec.s ? c->vec.s : "", c->vec.len, err, errlen);
    }
    cairo_surface_flush(c->surf);
    /* Whole or not at all: a full disk leaves the old image, not half of a new one. */
    bl_atomic a;
    if (bl_atomic_open(&a, path, err, errlen) != 0)
        return -1;
    cairo_status_t st = cairo_surface_write_to_png_stream(c->surf, to_file, a.f);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cannot write %s: %s (the old file, if any, is unchanged)", path,
                 cairo_status_to_string(st));
        bl_atomic_abort(&a);
        return -1;
    }
    return bl_atomic_commit(&a, err, errlen);
}

int bl_canvas_save_mem(bl_canvas *c, bl_strbuf *out)
{
    if (c->fmt != BL_CANVAS_PNG) {
        if (finish_vector(c) != 0)
            return -1;
        bl_strbuf_putn(out, c->vec.s, c->vec.len);
        return 0;
    }
    cairo_surface_flush(c->surf);
    return cairo_surface_write_to_png_stream(c->surf, to_strbuf, out) == CAIRO_STATUS_SUCCESS ? 0
                                                                                              : -1;
}

void bl_canvas_rgb(bl_canvas *c, unsigned rgb, double alpha)
{
    cairo_set_source_rgba(c->cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0,
                          (rgb & 255) / 255.0, alpha);
}

unsigned bl_canvas_palette(size_t i)
{
    return palette[i % N_PALETTE];
}

void bl_canvas_color(bl_canvas *c, size_t i, double alpha)
{
    bl_canvas_rgb(c, palette[i % N_PALETTE], alpha);
}

static void set_font(bl_canvas *c, double size, int bold)
{
    PangoFontDescription *fd = pango_font_description_from_string(BL_CHART_FONT);
    pango_font_description_set_absolute_size(fd, fmax(size * c->ts, c->min_text) * PANGO_SCALE);
    pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description(c->layout, fd);
    pango_font_description_free(fd);
}

int bl_canvas_unknown_glyphs(bl_canvas *c, const char *s, double size)
{
    set_font(c, size, 0);
    pango_layout_set_width(c->layout, -1);
    pango_layout_set_text(c->layout, s, -1);
    return pango_layout_get_unknown_glyphs_count(c->layout);
}

void bl_canvas_measure(bl_canvas *c, const char *s, double size, int bold, double *w, double *h)
{
    set_font(c, size, bold);
    pango_layout_set_width(c->layout, -1);
    pango_layout_set_text(c->layout, s, -1);
    int iw, ih;
    pango_layout_get_pixel_size(c->layout, &iw, &ih);
    if (w)
        *w = iw;
    if (h)
        *h = ih;
}

static void xml_esc(bl_strbuf *out, const char *s)
{
    bl_esc_xml(out, s);
}

/* s cut to fit max_w with "…" (pango's ellipsis, done by hand so that the SVG text holds
 * what the image shows). Caller frees. */
static char *fit_text(bl_canvas *c, const char *s, double size, int bold, double max_w)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    size_t n = strlen(s);
    for (;;) {
        while (n && (s[n] & 0xC0) == 0x80) /* back to a character's first byte */
            n--;
        bl_strbuf_reset(&sb);
        bl_strbuf_putn(&sb, s, n);
        if (n < strlen(s))
            bl_strbuf_puts(&sb, "…");
        double w;
        bl_canvas_measure(c, sb.s, size, bold, &w, NULL);
        if (w <= max_w || n == 0)
            return bl_strbuf_take(&sb);
        n--;
    }
}

/* The SVG form of a text: a <text> anchored as asked, the baseline where pango puts it, in
 * the current transformation (rotated axis names). */
static void svg_text(bl_canvas *c, double x, double top, double baseline, const char *s,
                     double size, int bold, double ax, unsigned rgb)
{
    cairo_matrix_t m;
    cairo_get_matrix(c->cr, &m);
    bl_strbuf *o = &c->texts;
    bl_strbuf_puts(o, "<text");
    if (m.xx != 1 || m.yx != 0 || m.xy != 0 || m.yy != 1 || m.x0 != 0 || m.y0 != 0)
        bl_strbuf_printf(o, " transform=\"matrix(%g %g %g %g %g %g)\"", m.xx, m.yx, m.xy, m.yy,
                         m.x0, m.y0);
    bl_strbuf_printf(o,
                     " x=\"%.2f\" y=\"%.2f\" font-family=\"Noto Sans CJK JP, DejaVu Sans, "
                     "sans-serif\" font-size=\"%.2f\"%s text-anchor=\"%s\" fill=\"#%06X\">",
                     x, top + baseline, size * c->ts, bold ? " font-weight=\"bold\"" : "",
                     ax < 0.25   ? "start"
                     : ax > 0.75 ? "end"
                                 : "middle",
                     rgb & 0xFFFFFF);
    xml_esc(o, s);
    bl_strbuf_puts(o, "</text>\n");
}

double bl_canvas_text(bl_canvas *c, double x, double y, const char *s, double size, int bold,
                      double ax, double ay, unsigned rgb, double max_w)
{
    char *fit = NULL;
    if (max_w > 0) {
        double w0;
        bl_canvas_measure(c, s, size, bold, &w0, NULL);
        if (w0 > max_w)
            s = fit = fit_text(c, s, size, bold, max_w);
    }
    set_font(c, size, bold);
    pango_layout_set_width(c->layout, -1);
    pango_layout_set_ellipsize(c->layout, PANGO_ELLIPSIZE_NONE);
    pango_layout_set_text(c->layout, s, -1);
    PangoRectangle ink, log;
    pango_layout_get_pixel_extents(c->layout, &ink, &log);
    double w = log.width, h = log.height;
    if (c->fmt == BL_CANVAS_SVG) {
        svg_text(c, x, y - ay * h, pango_layout_get_baseline(c->layout) / (double)PANGO_SCALE, s,
                 size, bold, ax, rgb);
    } else {
        bl_canvas_rgb(c, rgb, 1);
        cairo_move_to(c->cr, x - ax * w - log.x, y - ay * h);
        pango_cairo_show_layout(c->cr, c->layout);
    }
    free(fit);
    return w;
}

/* The byte offset where s breaks so that its start fits max_w: after the last space that
 * fits, else after the last whole character that does. */
static size_t split_at(bl_canvas *c, const char *s, double size, double max_w)
{
    size_t fit = 0, space = 0, len = strlen(s);
    for (size_t n = 1; n <= len; n++) {
        if (n < len && (s[n] & 0xC0) == 0x80)
            continue;
        char *head = bl_xstrndup(s, n);
        double w;
        bl_canvas_measure(c, head, size, 0, &w, NULL);
        free(head);
        if (w > max_w)
            break;
        fit = n;
        if (s[n - 1] == ' ')
            space = n;
    }
    return space > fit / 2 ? space : fit ? fit : len;
}

void bl_canvas_frame(bl_canvas *c, const char *title, const char *subtitle,
                     const char *const *names, size_t n, double left, double right, double bottom)
{
    double s = c->s, m = 40 * s, y = 28 * s, th;
    if (title && *title) { /* "": no title line, the subtitle at the top */
        bl_canvas_measure(c, title, 30, 1, NULL, &th);
        bl_canvas_text(c, m, y, title, 30, 1, 0, 0, INK, c->w - 2 * m);
        y += th + 2 * s;
    } else {
        y = 6 * s;
    }
    double x = m, lh = 0, full = c->w - 2 * m;
    if (subtitle && *subtitle) {
        double sh, sw;
        bl_canvas_measure(c, subtitle, 17, 0, &sw, &sh);
        bl_canvas_text(c, m, y, subtitle, 17, 0, 0, 0, MUTED, c->w - 2 * m);
        if (c->compact && n) /* the legend goes on in the subtitle's line */
            x = m + fmin(sw, full) + 30 * s, lh = sh;
        else
            y += sh + 14 * s;
    } else {
        y += 14 * s;
    }
    /* Legend: swatch + name, flowing onto further rows when wide. A name too long for half
     * the width gets a row of its own, on two lines when one cannot hold it: set-ups often
     * differ in their middle, so a name is never cut there. */
    for (size_t i = 0; i < n; i++) {
        double w, h, t = c->ts;
        bl_canvas_measure(c, names[i], 18, 0, &w, &h);
        int own_row = w > c->w * 0.45;
        double item = 24 * t + (own_row ? full : w + 30 * s);
        if (x > m && x + item > c->w - m) {
            x = m;
            y += lh + 8 * s;
        }
        lh = h;
        bl_canvas_color(c, i, 1);
        cairo_rectangle(c->cr, x, y + h / 2 - 8 * t, 16 * t, 16 * t);
        cairo_fill(c->cr);
        double room = full - 24 * t;
        if (!own_row || w <= room) {
            bl_canvas_text(c, x + 24 * t, y, names[i], 18, 0, 0, 0, INK, own_row ? room : w + 1);
        } else {
            size_t cut = split_at(c, names[i], 18, room);
            char *first = bl_xstrndup(names[i], cut);
            bl_canvas_text(c, x + 24 * t, y, first, 18, 0, 0, 0, INK, room);
            bl_canvas_text(c, x + 24 * t, y + h, names[i] + cut, 18, 0, 0, 0, INK, room);
            free(first);
            lh = 2 * h;
        }
        x += item;
    }
    if (n)
        y += lh + 16 * s;
    c->px0 = left;
    c->px1 = c->w - right;
    c->py0 = y + 10 * s;
    c->py1 = c->h - bottom;
}

static double nice_step(double range, int target)
{
    double raw = range / target, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

void bl_axis_linear(bl_axis *a, double lo, double hi)
{
    a->log = 0;
    a->min = lo < 0 ? lo : 0;
    if (!(hi > a->min))
        hi = a->min + 1;
    double step = nice_step(hi - a->min, 6);
    a->max = ceil(hi / step) * step;
    if (a->max < hi * 1.04) /* room for the value label at the end of the longest bar */
        a->max += step;
    if (lo < 0)
        a->min = floor(lo / step) * step;
}

/* The 1-2-5 step at or below (down) or at or above v. */
static double step125(double v, int down)
{
    double d = pow(10, floor(log10(v))), m[] = {1, 2, 5, 10};
    if (down) {
        for (int i = 3; i >= 0; i--)
            if (m[i] * d <= v * (1 + 1e-9))
                return m[i] * d;
        return d;
    }
    for (int i = 0; i < 4; i++)
        if (m[i] * d >= v * (1 - 1e-9))
            return m[i] * d;
    return 10 * d;
}

void bl_axis_log(bl_axis *a, double lo, double hi)
{
    a->log = 1;
    if (!(lo > 0))
        lo = 1;
    if (!(hi > lo))
        hi = lo * 10;
    a->min = step125(lo, 1);
    a->max = step125(hi, 0);
    if (a->max <= a->min)
        a->max = a->min * 10;
}

double bl_axis_pos(const bl_axis *a, double v, double p0, double p1)
{
    double f;
    if (a->log)
        f = (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
    else
        f = (v - a->min) / (a->max - a->min);
    return p0 + f * (p1 - p0);
}

size_t bl_axis_ticks(const bl_axis *a, double *ticks, size_t max)
{
    size_t n = 0;
    if (a->log) {
        /* 1-2-5 within the range when it spans few decades, else decades only. */
        int few = log10(a->max / a->min) <= 3.01;
        double d = pow(10, floor(log10(a->min) + 1e-9));
        for (; d <= a->max * 1.0001 && n < max; d *= 10)
            for (int k = 1; k <= 5 && n < max; k += (k == 1 ? 1 : 3))
                if ((few || k == 1 || fabs(d * k / a->min - 1) < 1e-6 ||
                     fabs(d * k / a->max - 1) < 1e-6) && /* the ends are labelled too */
                    d * k >= a->min * 0.9999 &&
                    d * k <= a->max * 1.0001)
                    ticks[n++] = d * k;
        return n;
    }
    double step = nice_step(a->max - a->min, 6);
    for (double v = a->min; v <= a->max + step * 1e-6 && n < max; v += step)
        ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    return n;
}

void bl_canvas_xaxis(bl_canvas *c, const bl_axis *a, bl_tick_fmt fmt, const char *name)
{
    double t[64], s = c->s;
    size_t n = bl_axis_ticks(a, t, 64);
    char buf[64];
    cairo_set_line_width(c->cr, 1.2 * s);
    for (size_t i = 0; i < n; i++) {
        double x = round(bl_axis_pos(a, t[i], c->px0, c->px1)) + 0.5;
        bl_canvas_rgb(c, GRID, 1);
        cairo_move_to(c->cr, x, c->py0);
        cairo_line_to(c->cr, x, c->py1);
        cairo_stroke(c->cr);
        fmt(t[i], buf, sizeof buf);
        bl_canvas_text(c, x, c->py1 + 8 * s, buf, 16, 0, 0.5, 0, MUTED, 0);
    }
    if (name && c->compact && n) { /* left of the ticks, under the tests' names */
        double w0;
        fmt(t[0], buf, sizeof buf);
        bl_canvas_measure(c, buf, 16, 0, &w0, NULL);
        double x0 = round(bl_axis_pos(a, t[0], c->px0, c->px1)) - w0 / 2;
        bl_canvas_text(c, fmin(x0, c->px0) - 12, c->py1 + 8 * s, name, 18, 1, 1, 0, INK, 0);
    } else if (name && !c->compact)
        bl_canvas_text(c, (c->px0 + c->px1) / 2, c->py1 + 38 * s, name, 18, 1, 0.5, 0, INK, 0);
    bl_canvas_rgb(c, MUTED, 1);
    cairo_move_to(c->cr, c->px0, c->py1 + 0.5);
    cairo_line_to(c->cr, c->px1, c->py1 + 0.5);
    cairo_stroke(c->cr);
}

void bl_canvas_yaxis(bl_canvas *c, const bl_axis *a, bl_tick_fmt fmt, const char *name)
{
    double t[64], s = c->s;
    size_t n = bl_axis_ticks(a, t, 64);
    char buf[64];
    cairo_set_line_width(c->cr, 1.2 * s);
    for (size_t i = 0; i < n; i++) {
        double y = round(bl_axis_pos(a, t[i], c->py1, c->py0)) + 0.5;
        bl_canvas_rgb(c, GRID, 1);
        cairo_move_to(c->cr, c->px0, y);
        cairo_line_to(c->cr, c->px1, y);
        cairo_stroke(c->cr);
        fmt(t[i], buf, sizeof buf);
        bl_canvas_text(c, c->px0 - 10 * s, y, buf, 16, 0, 1, 0.5, MUTED, 0);
    }
    if (name) {
        cairo_save(c->cr);
        cairo_translate(c->cr, 24 * s, (c->py0 + c->py1) / 2);
        cairo_rotate(c->cr, -M_PI / 2);
        bl_canvas_text(c, 0, 0, name, 18, 1, 0.5, 0, INK, 0);
        cairo_restore(c->cr);
    }
    bl_canvas_rgb(c, MUTED, 1);
    cairo_move_to(c->cr, c->px0 - 0.5, c->py0);
    cairo_line_to(c->cr, c->px0 - 0.5, c->py1);
    cairo_stroke(c->cr);
}

void bl_tick_plain(double v, char *buf, size_t n)
{
    double a = fabs(v);
    if (a >= 1e6)
        snprintf(buf, n, "%gM", v / 1e6);
    else if (a >= 1e4)
        snprintf(buf, n, "%gk", v / 1e3);
    else
        snprintf(buf, n, "%g", v);
}

void bl_tick_ns(double v, char *buf, size_t n)
{
    static const char *const unit[] = {"ns", "µs", "ms", "s"};
    int u = 0;
    while (fabs(v) >= 1000 && u < 3) {
        v /= 1000;
        u++;
    }
    snprintf(buf, n, "%g %s", v, unit[u]);
}
