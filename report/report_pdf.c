#include "report_pdf.h"
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "../compare/fmt.h"
#include "render.h"
#include "../compare/run_digest.h"
#include "../charts/canvas.h"
#include "../charts/chart.h"
#include <cairo-pdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define PW 842.0 /* A4 landscape, points */
#define PH 595.0
#define M 36.0
#define INK 0x1D2330
#define MUTED 0x5B6475
#define RULE 0xD5DAE3
#define LINE_H 13.0

typedef struct doc {
    cairo_surface_t *surf;
    cairo_t *cr;
    PangoLayout *lay;
    const char *title;
    size_t page;
} doc;

static void rgb(doc *d, unsigned c)
{
    cairo_set_source_rgb(d->cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                         (c & 255) / 255.0);
}

/* Text in a box of width w at (x, y top): align 0 left, 1 right; ell: ellipsize (middle keeps
 * the end of set-up names, which tells them apart), else wrap. Returns the height used. */
static double text(doc *d, double x, double y, double w, const char *s, double size, int bold,
                   double align, int ell, unsigned color)
{
    PangoFontDescription *fd = pango_font_description_from_string(BL_CHART_FONT);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description(d->lay, fd);
    pango_font_description_free(fd);
    pango_layout_set_width(d->lay, (int)(w * PANGO_SCALE));
    pango_layout_set_ellipsize(d->lay, ell ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_NONE);
    pango_layout_set_wrap(d->lay, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(d->lay, align > 0.5 ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
    pango_layout_set_text(d->lay, s, -1);
    int pw, ph;
    pango_layout_get_pixel_size(d->lay, &pw, &ph);
    rgb(d, color);
    cairo_move_to(d->cr, x, y);
    pango_cairo_show_layout(d->cr, d->lay);
    return ph;
}

static void rule(doc *d, double y, unsigned color, double width)
{
    rgb(d, color);
    cairo_set_line_width(d->cr, width);
    cairo_move_to(d->cr, M, y);
    cairo_line_to(d->cr, PW - M, y);
    cairo_stroke(d->cr);
}

/* The page's footer (title, page number), and the page out. */
static void end_page(doc *d)
{
    char foot[64];
    snprintf(foot, sizeof foot, "page %zu", d->page);
    text(d, M, PH - M + 10, PW / 2, d->title, 7.5, 0, 0, 1, MUTED);
    text(d, PW / 2, PH - M + 10, PW / 2 - M, foot, 7.5, 0, 1, 0, MUTED);
    cairo_show_page(d->cr);
}

static void new_page(doc *d)
{
    if (d->page)
        end_page(d);
    d->page++;
}

static const char *setup_name(const bl_table *t, size_t j)
{
    return t->cols[j].label; /* the labels where they tell set-ups apart */
}

/* Title page: what the reader needs before the figures. */
static void title_page(doc *d, const bl_table *t, const bl_strbuf *tools)
{
    new_page(d);
    double y = M + 40;
    y += text(d, M, y, PW - 2 * M, d->title, 26, 1, 0, 0, INK) + 6;
    char date[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%d", &tm);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s · %zu records · %zu tests × %zu set-ups", date, t->n_records,
                     t->nrows, t->ncols);
    y += text(d, M, y, PW - 2 * M, sb.s, 12, 0, 0, 0, MUTED) + 18;
    /* What was measured: the tools and the figures. */
    bl_strbuf_reset(&sb);
    bl_strbuf_puts(&sb, "Measured with ");
    bl_strbuf_puts(&sb, tools->s ? tools->s : "");
    bl_strbuf_puts(&sb, ". Figures: ");
    int first = 1;
    for (int m = 0; m < BL_M_COUNT; m++)
        for (size_t i = 0; i < t->nrows; i++)
            if (bl_row_has(t, i, (bl_metric)m)) {
                bl_strbuf_printf(&sb, "%s%s", first ? "" : ", ",
                                 m == BL_M_VALUE  ? "the test's own figure"
                                 : m == BL_M_LAT  ? "mean latency"
                                 : m == BL_M_CPU  ? "CPU %"
                                 : m == BL_M_BW   ? "MB/s (10^6 bytes/s)"
                                 : m == BL_M_IOPS ? "IOPS"
                                                  : bl_metric_name((bl_metric)m));
                first = 0;
                break;
            }
    bl_strbuf_puts(&sb, ". ");
    bl_report_opts ro = {.lat = 1};
    bl_report_footnote(t, &ro, &sb, "");
    y += text(d, M, y, PW - 2 * M, sb.s, 10, 0, 0, 0, INK) + 14;
    y += text(d, M, y, PW - 2 * M, "Set-ups compared", 13, 1, 0, 0, INK) + 4;
    for (size_t j = 0; j < t->ncols; j++) {
        if (y > PH - M - LINE_H) {
            new_page(d);
            y = M;
        }
        rgb(d, bl_canvas_palette(j));
        cairo_rectangle(d->cr, M, y + 3, 8, 8);
        cairo_fill(d->cr);
        y += text(d, M + 14, y, PW - 2 * M - 14, t->cols[j].title, 9.5, 0, 0, 1, INK) + 1.5;
    }
    bl_strbuf_free(&sb);
}

/* The summary in long form: columns of the table, their x and width. */
static const struct {
    const char *head;
    double w;
    double align;
} cols[] = {{"Test", 130, 0}, {"Set-up", 270, 0},  {"MB/s (or own)", 62, 1},
            {"IOPS", 62, 1},  {"Mean lat", 66, 1}, {"p99 lat", 66, 1},
            {"n", 28, 1},     {"95% CI ±", 86, 1}};
#define NCOLS (sizeof cols / sizeof cols[0])

static double head_row(doc *d, double y, const char *caption)
{
    text(d, M, y, PW - 2 * M, caption, 13, 1, 0, 0, INK);
    y += 22;
    double x = M;
    for (size_t k = 0; k < NCOLS; k++) {
        text(d, x + 3, y, cols[k].w - 6, cols[k].head, 8.5, 1, cols[k].align, 1, INK);
        x += cols[k].w;
    }
    y += LINE_H + 2;
    rule(d, y - 1, INK, 0.8);
    return y + 1;
}

static void cell_fig(bl_strbuf *sb, const bl_cell *c, bl_metric m, double v)
{
    bl_strbuf_reset(sb);
    if (!bl_present(v))
        return;
    if (bl_metric_unit(m) && strcmp(bl_metric_unit(m), "ns") == 0)
        bl_fmt_ns(sb, v);
    else if (m == BL_M_IOPS)
        bl_fmt_iops(sb, v);
    else
        bl_fmt_fig(sb, v);
    if (m == BL_M_VALUE && c->unit)
        bl_strbuf_printf(sb, " %s", c->unit);
}

static void summary(doc *d, const bl_table *t)
{
    new_page(d);
    double y = head_row(d, M, "Summary: each test on each set-up");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    static const bl_metric shown[] = {BL_M_BW, BL_M_IOPS, BL_M_LAT, BL_M_P99};
    for (size_t i = 0; i < t->nrows; i++) {
        int first = 1;
        for (size_t j = 0; j < t->ncols; j++) {
            const bl_cell *c = bl_table_cell(t, i, j);
            const bl_stat *main = bl_cell_main(&t->rows[i], c);
            if (!c->n_recs)
                continue;
            if (y > PH - M - 2 * LINE_H - 8) {
                new_page(d);
                y = head_row(d, M, "Summary (continued)");
                first = 1; /* the test named again at the top of a page */
            }
            double x = M;
            if (first)
                text(d, x + 3, y, cols[0].w - 6, t->rows[i].title, 8.5, 1, 0, 1, INK);
            x += cols[0].w;
            /* Set-up names wrap: what tells them apart is often in their middle. */
            double h = text(d, x + 3, y, cols[1].w - 6, setup_name(t, j), 8.5, 0, 0, 0, INK);
            x += cols[1].w;
            for (size_t k = 0; k < 4; k++) {
                const bl_stat *s = &c->m[shown[k]];
                cell_fig(&sb, c, shown[k], s->n ? s->fig : BL_ABSENT);
                if (!s->n && k == 0 && c->m[BL_M_VALUE].n) /* bonnie++'s seeks, files/s */
                    cell_fig(&sb, c, BL_M_VALUE, c->m[BL_M_VALUE].fig);
                else if (!s->n && k == 0 && c->note)
                    bl_strbuf_puts(&sb, c->note);
                if (k == 0 && bl_present(c->flag))
                    bl_strbuf_puts(&sb, " !");
                text(d, x + 3, y, cols[2 + k].w - 6, sb.s, 8.5, 0, 1, 1,
                     k == 0 && bl_present(c->flag) ? 0xC0392B : INK);
                x += cols[2 + k].w;
            }
            bl_strbuf_reset(&sb);
            bl_strbuf_printf(&sb, "%zu", main->n ? main->n : c->n_recs);
            text(d, x + 3, y, cols[6].w - 6, sb.s, 8.5, 0, 1, 0, INK);
            x += cols[6].w;
            bl_strbuf_reset(&sb);
            if (main->n > 1 && bl_present(main->ci))
                cell_fig(&sb, c, bl_row_main(&t->rows[i]), main->ci);
            text(d, x + 3, y, cols[7].w - 6, sb.s, 8.5, 0, 1, 0, INK);
            y += fmax(LINE_H, h + 2);
            first = 0;
        }
        rule(d, y + 1, RULE, 0.5);
        y += 3;
    }
    y += 6;
    if (y > PH - M - 60) {
        new_page(d);
        y = M;
    }
    bl_strbuf_reset(&sb);
    bl_report_opts ro = {.lat = 1};
    bl_report_footnote(t, &ro, &sb, "");
    text(d, M, y, PW - 2 * M, sb.s, 8, 0, 0, 0, MUTED);
    bl_strbuf_free(&sb);
}

/* One bar chart per metric, each set-up drawn (pages of ten as the chart kind makes them). */
static int charts(doc *d, const bl_table *t, const bl_chart_common *common, const bl_pdf_opts *o,
                  char *err, size_t errlen)
{
    double s = (PW - 2 * M) / 1600.0;
    int h = (int)((PH - 2 * M) / s);
    for (int m = 0; m < BL_M_COUNT; m++) {
        int has = 0;
        for (size_t i = 0; i < t->nrows && !has; i++)
            has = bl_row_has(t, i, (bl_metric)m);
        /* The tests' own figures (seeks/s, files/s) share no unit to draw on one axis. */
        if (!has || m == BL_M_CPU || m == BL_M_VALUE)
            continue;
        size_t pages = 1;
        for (size_t p = 0; p < pages; p++) {
            new_page(d);
            cairo_save(d->cr);
            cairo_translate(d->cr, M, M);
            cairo_scale(d->cr, s, s);
            bl_canvas c;
            bl_canvas_init_on(&c, d->cr, 1600, h);
            bl_chart_opts co = {.kind = BL_CHART_BAR,
                                .by = o->by,
                                .has_metric = 1,
                                .metric = m,
                                .repeats = o->repeats,
                                .page = p,
                                .pages = &pages,
                                .table = t,
                                .common = common};
            int rc = bl_chart_draw(&c, NULL, &co, err, errlen);
            bl_canvas_free(&c);
            cairo_restore(d->cr);
            if (rc == 2)
                return 1;
            if (rc) /* a metric no drawable test has: say so on the page */
                text(d, M, M, PW - 2 * M, err, 10, 0, 0, 0, MUTED);
        }
    }
    return 0;
}

/* The sources appendix, one run at a time as the walk brings its records. */
typedef struct {
    doc *d;
    double y;
    bl_run_digest run;
} src_walk;

static void source_line(src_walk *w)
{
    const bl_run_digest *run = &w->run;
    const bl_record *r = run->head;
    if (!r)
        return;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s  run %lld", r->source, (long long)r->run);
    if (run->line > 0)
        bl_strbuf_printf(&sb, ", line %lld", (long long)run->line);
    bl_strbuf_printf(&sb, " · %s · %zu record%s", r->tool ? r->tool : "?", run->n,
                     run->n == 1 ? "" : "s");
    const char *sep = " · ";
    for (size_t k = 0; k < r->n_labels; k++)
        if (run->same[k]) {
            bl_strbuf_printf(&sb, "%s%s=%s", sep, r->labels[k].key, r->labels[k].value);
            sep = "; ";
        }
    if (w->y > PH - M - 3 * LINE_H) {
        new_page(w->d);
        w->y = M;
    }
    w->y += text(w->d, M, w->y, PW - 2 * M, sb.s, 8, 0, 0, 0, INK) + 3;
    bl_strbuf_free(&sb);
    bl_run_digest_clear(&w->run);
}

static int source_add(void *ctx, const bl_record *r)
{
    src_walk *w = ctx;
    if (bl_run_digest_other(&w->run, r))
        source_line(w);
    bl_run_digest_add(&w->run, r);
    return 0;
}

static int sources(doc *d, bl_rec_walk_fn walk, void *src, char *err, size_t errlen)
{
    new_page(d);
    src_walk w = {.d = d, .y = M};
    w.y += text(d, M, w.y, PW - 2 * M, "Sources: each run, its file and first line", 13, 1, 0, 0,
                INK) +
           8;
    int rc = walk(src, source_add, &w, err, errlen) != 0;
    source_line(&w);
    return rc;
}

/* What the title page and the charts' titles say of the records: the tools, in the order
 * first seen, and the labels they share. */
typedef struct {
    bl_strbuf tools;
    size_t n_tools;
    bl_chart_common common;
} about_walk;

static int about_add(void *ctx, const bl_record *r)
{
    about_walk *a = ctx;
    bl_chart_common_add(&a->common, r);
    if (!r->tool)
        return 0;
    for (const char *p = a->tools.s; p && *p;) { /* "fio, dd": a short list */
        size_t n = strcspn(p, ",");
        if (n == strlen(r->tool) && strncmp(p, r->tool, n) == 0)
            return 0;
        p += n;
        p += strspn(p, ", ");
    }
    bl_strbuf_printf(&a->tools, "%s%s", a->n_tools++ ? ", " : "", r->tool);
    return 0;
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int bl_report_pdf_walk(const char *path, const bl_table *t, bl_rec_walk_fn walk, void *src,
                       const bl_pdf_opts *o, size_t *pages, char *err, size_t errlen)
{
    about_walk about = {0};
    bl_strbuf_init(&about.tools);
    if (walk(src, about_add, &about, err, errlen) != 0) {
        bl_strbuf_free(&about.tools);
        bl_chart_common_free(&about.common);
        return 1;
    }
    /* Whole or not at all: a failed write leaves the old PDF as it was. */
    bl_atomic out;
    if (bl_atomic_open(&out, path, err, errlen) != 0)
        return 1;
    FILE *f = out.f;
    doc d = {.title = o->title ? o->title : "Storage benchmark comparison"};
    d.surf = cairo_pdf_surface_create_for_stream(to_file, f, PW, PH);
    cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_TITLE, d.title);
    cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_CREATOR, "benchlog");
    d.cr = cairo_create(d.surf);
    d.lay = pango_cairo_create_layout(d.cr);
    title_page(&d, t, &about.tools);
    summary(&d, t);
    int rc = charts(&d, t, &about.common, o, err, errlen);
    if (rc == 0)
        rc = sources(&d, walk, src, err, errlen);
    bl_strbuf_free(&about.tools);
    bl_chart_common_free(&about.common);
    end_page(&d);
    g_object_unref(d.lay);
    cairo_destroy(d.cr);
    cairo_surface_finish(d.surf);
    if (rc == 0 && cairo_surface_status(d.surf) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cannot write %s: %s", path,
                 cairo_status_to_string(cairo_surface_status(d.surf)));
        rc = 1;
    }
    cairo_surface_destroy(d.surf);
    if (rc == 0 && bl_atomic_commit(&out, err, errlen) != 0)
        rc = 1;
    else if (rc != 0)
        bl_atomic_abort(&out);
    if (pages)
        *pages = d.page;
    return rc;
}

int bl_report_pdf(const char *path, const bl_table *t, const bl_records *recs, const bl_pdf_opts *o,
                  size_t *pages, char *err, size_t errlen)
{
    return bl_report_pdf_walk(path, t, bl_walk_records, (void *)recs, o, pages, err, errlen);
}
