#include "report_pdf.h"
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "../compare/fmt.h"
#include "render.h"
#include "../compare/run_digest.h"
#include "../charts/canvas.h"
#include "../charts/chart.h"
#include "../compare/group.h"
#include <stdlib.h>
#include <cairo-pdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report_pdf_int.h"

void bl_pdf_rgb(doc *d, unsigned c)
{
    cairo_set_source_rgb(d->cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                         (c & 255) / 255.0);
}

/* Text in a box of width w at (x, y top): align 0 left, 1 right; ell: ellipsize (middle keeps
 * the end of set-up names, which tells them apart), else wrap. Returns the height used. */
double bl_pdf_text(doc *d, double x, double y, double w, const char *s, double size, int bold,
                   double align, int ell, unsigned color)
{
    if (!s)
        s = "";
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
    bl_pdf_rgb(d, color);
    cairo_move_to(d->cr, x, y);
    pango_cairo_show_layout(d->cr, d->lay);
    return ph;
}

double bl_pdf_text_height(doc *d, const char *s, double w, double size)
{
    PangoFontDescription *fd = pango_font_description_from_string(BL_CHART_FONT);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    pango_layout_set_font_description(d->lay, fd);
    pango_font_description_free(fd);
    pango_layout_set_width(d->lay, (int)(w * PANGO_SCALE));
    pango_layout_set_ellipsize(d->lay, PANGO_ELLIPSIZE_NONE);
    pango_layout_set_wrap(d->lay, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_text(d->lay, s, -1);
    int pw, ph;
    pango_layout_get_pixel_size(d->lay, &pw, &ph);
    return ph;
}

double bl_pdf_measure(doc *d, const char *s, double size)
{
    PangoFontDescription *fd = pango_font_description_from_string(BL_CHART_FONT);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    pango_layout_set_font_description(d->lay, fd);
    pango_font_description_free(fd);
    pango_layout_set_width(d->lay, -1);
    pango_layout_set_text(d->lay, s, -1);
    int pw, ph;
    pango_layout_get_pixel_size(d->lay, &pw, &ph);
    return pw;
}

void bl_pdf_rule(doc *d, double y, unsigned color, double width)
{
    bl_pdf_rgb(d, color);
    cairo_set_line_width(d->cr, width);
    cairo_move_to(d->cr, d->x, y);
    cairo_line_to(d->cr, d->x + d->w, y);
    cairo_stroke(d->cr);
}

/* The page's footer (title, page number), and the page out. */
void bl_pdf_end_page(doc *d)
{
    char foot[64];
    snprintf(foot, sizeof foot, "page %zu", d->page);
    bl_pdf_text(d, M, PH - M + 10, PW / 2, d->title, 7.5, 0, 0, 1, MUTED);
    bl_pdf_text(d, PW / 2, PH - M + 10, PW / 2 - M, foot, 7.5, 0, 1, 0, MUTED);
    cairo_show_page(d->cr);
}

void bl_pdf_new_page(doc *d)
{
    if (d->page)
        bl_pdf_end_page(d);
    d->page++;
}

#define COL_GAP 18.0

void bl_pdf_new_page_at(doc *d, double y)
{
    /* An empty left column: the right one has no more room, a new page. */
    if (d->two && d->col == 0 && d->y > d->col_top + 1) {
        d->left_bottom = d->y;
        d->col = 1;
        d->x = M + (PW - 2 * M + COL_GAP) / 2;
        d->y = d->col_top;
        return;
    }
    bl_pdf_new_page(d);
    d->y = d->col_top = d->left_bottom = y;
    d->col = 0;
    d->x = M;
}

void bl_pdf_columns(doc *d, int two)
{
    if (two == d->two)
        return;
    if (!two && d->col == 1) /* below the longer of the two */
        d->y = fmax(d->y, d->left_bottom);
    d->two = two;
    d->col = 0;
    d->col_top = d->left_bottom = d->y;
    d->x = M;
    d->w = two ? (PW - 2 * M - COL_GAP) / 2 : PW - 2 * M;
}

/* Title page: what the reader needs before the figures. */
static void title_page(doc *d, const bl_table *t, const bl_strbuf *tools, const bl_groups *gs)
{
    bl_pdf_new_page(d);
    double y = M + 40;
    y += bl_pdf_text(d, M, y, PW - 2 * M, d->title, 26, 1, 0, 0, INK) + 6;
    char date[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%d", &tm);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s · %s · %s × %s", date, bl_count(t->n_records, "record").s,
                     bl_count(t->nrows, "test").s, bl_count(t->ncols, "set-up").s);
    y += bl_pdf_text(d, M, y, PW - 2 * M, sb.s, 12, 0, 0, 0, MUTED) + 18;
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
    y += bl_pdf_text(d, M, y, PW - 2 * M, sb.s, 10, 0, 0, 0, INK) + 14;
    /* The overview: how the comparison is organised, where the figures are. */
    bl_strbuf_reset(&sb);
    bl_strbuf_printf(&sb,
                     "%zu comparison group%s (%s), each with its table and its chart; the "
                     "contents follow, and the PDF's outline (bookmarks) lists them.",
                     gs->n, gs->n == 1 ? "" : "s",
                     gs->n == 1 && t->ncols > 0 && gs->v[0].ncols == t->ncols &&
                             strcmp(gs->v[0].name, "every set-up") == 0
                         ? "one across sources"
                         : "one per source document");
    y += bl_pdf_text(d, M, y, PW - 2 * M, sb.s, 10, 0, 0, 0, INK) + 10;
    size_t most = 0;
    for (size_t g = 1; g < gs->n; g++)
        most = gs->v[g].ncols > gs->v[most].ncols ? g : most;
    if (gs->n) {
        bl_strbuf_reset(&sb);
        bl_strbuf_printf(&sb, "The largest group: %s, %s on %s.", gs->v[most].name,
                         bl_count(gs->v[most].ncols, "set-up").s,
                         bl_count(gs->v[most].nrows, "test").s);
        y += bl_pdf_text(d, M, y, PW - 2 * M, sb.s, 10, 0, 0, 0, INK) + 4;
    }
    bl_strbuf_free(&sb);
    d->y = y + 14;
}

static void dest_name(char *buf, size_t n, size_t g)
{
    snprintf(buf, n, "group%zu", g + 1);
}

/* The contents below the title page's overview (its columns a page of their own when the
 * overview leaves little room): each group (source) with its counts, linked to it. */
#define CONTENTS_COLS 4

static void contents(doc *d, const bl_groups *gs)
{
    if (d->y > PH - M - 120)
        bl_pdf_new_page_at(d, M);
    cairo_tag_begin(d->cr, CAIRO_TAG_DEST, "name='contents'");
    d->y +=
        bl_pdf_text(d, M, d->y, PW - 2 * M, "Contents: the comparison groups", 13, 1, 0, 0, INK);
    cairo_tag_end(d->cr, CAIRO_TAG_DEST);
    d->y += bl_pdf_text(
                d, M, d->y + 2, PW - 2 * M,
                "A group is the set-ups meant to be compared (one source document each, or one "
                "across sources when the records were filtered or grouped --by), with the tests "
                "they share: its table, then its chart.",
                8.5, 0, 0, 0, MUTED) +
            8;
    double colw = (PW - 2 * M) / CONTENTS_COLS;
    char **text = bl_xcalloc(gs->n + 1, sizeof *text);
    double *h = bl_xcalloc(gs->n + 1, sizeof *h), left = 0;
    for (size_t g = 0; g < gs->n; g++) { /* whole names, wrapped: they differ at their ends */
        const bl_group *gr = &gs->v[g];
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "%zu. %s — %s, %s, %zu rec.", g + 1, bl_basename(gr->name),
                         bl_count(gr->ncols, "set-up").s, bl_count(gr->nrows, "test").s,
                         gr->records);
        text[g] = bl_strbuf_take(&sb);
        h[g] = bl_pdf_text_height(d, text[g], colw - 10, 6.5) + 0.5;
        left += h[g];
    }
    /* Columns a page; the last page's columns balanced, the groups following below them. */
    for (size_t g = 0; g < gs->n;) {
        double room = PH - M - d->y, most = 0;
        if (room < 3 * LINE_H) {
            bl_pdf_new_page_at(d, M);
            continue;
        }
        for (size_t k = g; k < gs->n; k++)
            most = fmax(most, h[k]);
        /* All that is left fits: each column takes its share, the one crossing it in too. */
        int last = left <= CONTENTS_COLS * (room - most);
        double share = left / CONTENTS_COLS, bottom = d->y;
        for (int col = 0; col < CONTENTS_COLS && g < gs->n; col++) {
            double y = d->y;
            for (; g < gs->n && (last ? y - d->y < share : y + h[g] <= PH - M); g++) {
                char dest[48], attr[80];
                dest_name(dest, sizeof dest, g);
                snprintf(attr, sizeof attr, "dest='%s'", dest);
                cairo_tag_begin(d->cr, CAIRO_TAG_LINK, attr);
                bl_pdf_text(d, M + col * colw, y, colw - 10, text[g], 6.5, 0, 0, 0, INK);
                cairo_tag_end(d->cr, CAIRO_TAG_LINK);
                y += h[g];
                left -= h[g];
            }
            bottom = fmax(bottom, y);
        }
        d->y = bottom;
        if (g < gs->n)
            bl_pdf_new_page_at(d, M);
    }
    for (size_t g = 0; g < gs->n; g++)
        free(text[g]);
    free(text);
    free(h);
}

/* The groups one after the other, each starting where the last ended when its heading and
 * table header fit: small groups share pages. */
static int groups(doc *d, const bl_table *t, const bl_groups *gs, const bl_pdf_opts *o, char *err,
                  size_t errlen)
{
    d->y += 16; /* after the contents, on its last page when there is room */
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    int rc = 0;
    for (size_t g = 0; g < gs->n && rc == 0; g++) {
        const bl_group *gr = &gs->v[g];
        bl_table *sub = bl_table_subset(t, gr->cols, gr->ncols);
        /* One set-up, or set-ups that share no test, compare nothing: the table holds every
         * figure a chart would. */
        int shared = 0;
        for (size_t i = 0; i < sub->nrows && !shared; i++) {
            size_t n = 0;
            for (size_t j = 0; j < sub->ncols; j++)
                n += bl_table_cell(sub, i, j)->n_recs > 0;
            shared = n > 1;
        }
        /* A single set-up's table is narrow, and so is a grid of two or three: such groups
         * share the page in two columns, their charts half the page wide. */
        double half = (PW - 2 * M - COL_GAP) / 2;
        bl_pdf_columns(d, gr->ncols == 1 ? bl_pdf_lone_width(sub) <= half
                                         : bl_pdf_pivot_fits(d, sub, half));
        if (d->y > PH - M - 36 - bl_pdf_table_start(sub)) /* its heading and table's start */
            bl_pdf_new_page_at(d, M);
        else if (d->y > d->col_top + 1)
            d->y += 6;
        char dest[48], attr[200];
        dest_name(dest, sizeof dest, g);
        snprintf(attr, sizeof attr, "name='%s'", dest);
        bl_strbuf_reset(&sb);
        bl_strbuf_printf(&sb, "%zu. %s", g + 1, gr->name);
        bl_pdf_rule(d, d->y, INK, 1.2);
        d->y += 4;
        cairo_tag_begin(d->cr, CAIRO_TAG_DEST, attr);
        d->y += bl_pdf_text(d, d->x, d->y, d->w, sb.s, d->two ? 9.5 : 10.5, 1, 0, 0, INK);
        cairo_tag_end(d->cr, CAIRO_TAG_DEST);
        snprintf(attr, sizeof attr, "dest='%s'", dest);
        cairo_pdf_surface_add_outline(d->surf, CAIRO_PDF_OUTLINE_ROOT, sb.s, attr, 0);
        bl_strbuf_reset(&sb);
        bl_strbuf_printf(&sb, "%s · %s · %s", bl_count(gr->ncols, "set-up").s,
                         bl_count(sub->nrows, "test").s, bl_count(sub->n_records, "record").s);
        if (d->two && gr->ncols == 1) /* the set-up named once, whole, above its table */
            bl_strbuf_printf(&sb, " · set-up: %s", sub->cols[0].label);
        else if (gr->ncols == 1)
            bl_strbuf_puts(&sb, " · one set-up: the table, no chart");
        if (d->two && gr->ncols > 1 && !shared)
            bl_strbuf_puts(&sb, " · no test shared by two set-ups: the table, no chart");
        else if (!shared)
            bl_strbuf_puts(&sb, " · no test shared by two set-ups: the table, no chart");
        d->y += bl_pdf_text(d, d->x, d->y, d->w, sb.s, 7.5, 0, 0, 0, MUTED) + 3;
        bl_pdf_group_table(d, sub, gr->name);
        if (shared)
            rc = bl_pdf_group_charts(d, sub, gr->name, o, err, errlen);
        bl_table_free(sub);
    }
    bl_pdf_columns(d, 0);
    bl_strbuf_free(&sb);
    if (d->y > PH - M - 60)
        bl_pdf_new_page_at(d, M);
    bl_strbuf_reset(&sb);
    bl_report_opts ro = {.lat = 1};
    bl_report_footnote(t, &ro, &sb, "");
    d->y += bl_pdf_text(d, M, d->y + 6, PW - 2 * M, sb.s, 8, 0, 0, 0, MUTED) + 6;
    bl_strbuf_free(&sb);
    return rc;
}

/* The sources appendix, one run at a time as the walk brings its records: under each folder,
 * a line a file: its first runs with their lines (the first with its headings), the last one,
 * and how many. */
typedef struct {
    doc *d;
    double y, top; /* top: where the columns start on this page */
    int col;
    bl_run_digest run;
    char *source;    /* the source being listed */
    char *dir;       /* its folder, said once above its files */
    bl_strbuf entry; /* its line so far */
    bl_strbuf heads; /* its first run's headings, a line below */
    size_t records, runs;
    long long last_run, last_line;
} src_walk;

#define SOURCE_RUNS_NAMED 3
#define SOURCE_COLS 4

/* One line in the appendix's columns. */
static void source_put(src_walk *w, const char *s, int bold)
{
    double colw = (PW - 2 * M - 3 * 12) / SOURCE_COLS;
    if (w->y > PH - M - (bold ? 3 : 2) * LINE_H) { /* a folder's line above a file at least */
        if (w->col < SOURCE_COLS - 1) {
            w->col++;
        } else {
            bl_pdf_new_page(w->d);
            w->col = 0;
            w->top = M;
        }
        w->y = w->top;
    }
    w->y += bl_pdf_text(w->d, M + w->col * (colw + 12), w->y, colw, s, 6.5, bold, 0, 0, INK) + 1;
}

/* The source's line out: "file · tool · run 1 line 3, run 2 line 6 · 2 records", under its
 * folder's line when the folder changes. */
static void source_flush(src_walk *w)
{
    if (!w->entry.len)
        return;
    const char *base = bl_basename(w->source);
    size_t dl = (size_t)(base - w->source);
    if (dl && (!w->dir || strlen(w->dir) != dl || strncmp(w->dir, w->source, dl) != 0)) {
        free(w->dir);
        w->dir = bl_xstrdup(w->source);
        w->dir[dl] = 0;
        source_put(w, w->dir, 1);
    }
    if (w->runs > SOURCE_RUNS_NAMED) {
        bl_strbuf_printf(&w->entry, ", … run %lld", w->last_run);
        if (w->last_line > 0)
            bl_strbuf_printf(&w->entry, " line %lld", w->last_line);
        bl_strbuf_printf(&w->entry, " (%zu runs)", w->runs);
    }
    bl_strbuf_printf(&w->entry, " · %zu record%s", w->records, w->records == 1 ? "" : "s");
    if (w->heads.len)
        bl_strbuf_printf(&w->entry, "\n    %s", w->heads.s);
    bl_strbuf_reset(&w->heads);
    /* Three columns a page: a file's line is short, and the appendix is for looking up. */
    source_put(w, w->entry.s, 0);
    bl_strbuf_reset(&w->entry);
    w->records = w->runs = 0;
}

/* Characters, not bytes, of UTF-8 text. */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* A run finished: added to its source's line (runs of a source follow one another). */
static void source_line(src_walk *w)
{
    const bl_run_digest *run = &w->run;
    const bl_record *r = run->head;
    if (!r)
        return;
    const char *src = r->source ? r->source : "?";
    if (!w->source || strcmp(w->source, src) != 0) {
        source_flush(w);
        free(w->source);
        w->source = bl_xstrdup(src);
        bl_strbuf_printf(&w->entry, "%s · %s · ", bl_basename(src), r->tool ? r->tool : "?");
    }
    if (w->runs < SOURCE_RUNS_NAMED) {
        bl_strbuf_printf(&w->entry, "%srun %lld", w->runs ? ", " : "", (long long)r->run);
        if (run->line > 0)
            bl_strbuf_printf(&w->entry, " line %lld", (long long)run->line);
        /* The first run's headings in its source (test_heading, run_heading: the author's
         * words, how a reader finds the run in the post), whole, on a line of their own as
         * many as fit; its other labels are in the set-ups' names and `benchlog show`. */
        for (size_t k = 0; k < r->n_labels && !w->runs; k++) {
            const char *key = r->labels[k].key;
            size_t kl = strlen(key);
            if (!run->same[k] || kl < 8 || strcmp(key + kl - 8, "_heading") != 0)
                continue;
            if (chars(w->heads.s ? w->heads.s : "") + chars(key) + chars(r->labels[k].value) > 36) {
                bl_strbuf_puts(&w->heads, w->heads.len ? "; …" : "…");
                break;
            }
            bl_strbuf_printf(&w->heads, "%s%s=%s", w->heads.len ? "; " : "", key,
                             r->labels[k].value);
        }
    }
    w->runs++;
    w->last_run = (long long)r->run;
    w->last_line = (long long)run->line;
    w->records += run->n;
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
    /* Below the last group when a third of the page is left. */
    if (d->y > PH - PH / 3)
        bl_pdf_new_page_at(d, M);
    else
        bl_pdf_rule(d, d->y += 12, INK, 1.2), d->y += 4;
    src_walk w = {.d = d, .y = d->y};
    w.y += bl_pdf_text(d, M, w.y, PW - 2 * M, "Sources: each file, its runs and their first lines",
                       13, 1, 0, 0, INK) +
           8;
    w.top = w.y;
    bl_strbuf_init(&w.entry);
    bl_strbuf_init(&w.heads);
    int rc = walk(src, source_add, &w, err, errlen) != 0;
    source_line(&w);
    source_flush(&w);
    bl_strbuf_free(&w.entry);
    bl_strbuf_free(&w.heads);
    free(w.source);
    free(w.dir);
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
    doc d = {
        .title = o->title ? o->title : "Storage benchmark comparison", .x = M, .w = PW - 2 * M};
    d.surf = cairo_pdf_surface_create_for_stream(to_file, f, PW, PH);
    cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_TITLE, d.title);
    cairo_pdf_surface_set_metadata(d.surf, CAIRO_PDF_METADATA_CREATOR, "benchlog");
    d.cr = cairo_create(d.surf);
    d.lay = pango_cairo_create_layout(d.cr);
    bl_groups gs;
    bl_groups_make(t, o->across || o->by, &gs);
    title_page(&d, t, &about.tools, &gs);
    cairo_pdf_surface_add_outline(d.surf, CAIRO_PDF_OUTLINE_ROOT, "Contents", "dest='contents'", 0);
    contents(&d, &gs);
    int rc = groups(&d, t, &gs, o, err, errlen);
    bl_groups_free(&gs);
    if (rc == 0)
        rc = sources(&d, walk, src, err, errlen);
    bl_strbuf_free(&about.tools);
    bl_chart_common_free(&about.common);
    bl_pdf_end_page(&d);
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
