#include "chart.h"
#include "../core/filter.h"
#include "../core/strbuf.h"
#include "../compare/fmt.h"
#include "canvas.h"
#include "../core/atomic.h"
#include <errno.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bl_chart_cleanup(void)
{
    pango_cairo_font_map_set_default(NULL);
}

typedef int (*draw_fn)(bl_canvas *, const bl_records *, const bl_chart_opts *, char *, size_t);

static const struct {
    const char *name, *help;
    draw_fn draw;
} kinds[] = {
#define KIND(e, n, f, h) {n, h, f},
    BL_CHART_KINDS(KIND)
#undef KIND
};

int bl_chart_kind_from_name(const char *name)
{
    for (int i = 0; i < BL_CHART_N_KINDS; i++)
        if (strcmp(name, kinds[i].name) == 0)
            return i;
    return -1;
}

const char *bl_chart_kind_name(bl_chart_kind k)
{
    return (unsigned)k < BL_CHART_N_KINDS ? kinds[k].name : NULL;
}

const char *bl_chart_kind_help(bl_chart_kind k)
{
    return (unsigned)k < BL_CHART_N_KINDS ? kinds[k].help : NULL;
}

int bl_chart_draw(bl_canvas *c, const bl_records *recs, const bl_chart_opts *o, char *err,
                  size_t errlen)
{
    if ((unsigned)o->kind >= BL_CHART_N_KINDS) {
        snprintf(err, errlen, "no chart kind %d", (int)o->kind);
        return 2;
    }
    return kinds[o->kind].draw(c, recs, o, err, errlen);
}

int bl_chart_keeps(bl_chart_pick *p, const bl_chart_opts *o, const bl_record *r)
{
    switch (o->kind) {
    case BL_CHART_PERCENTILES:
        return bl_chart_pick_pct(p, r);
    case BL_CHART_TIMELINE:
        return bl_chart_pick_series(p, o, r);
    case BL_CHART_HISTOGRAM:
        return bl_chart_pick_bins(p, r);
    default:
        return 1;
    }
}

int bl_chart_picked(const bl_chart_pick *p, const bl_chart_opts *o)
{
    switch (o->kind) {
    case BL_CHART_PERCENTILES:
        return p->n[0] == BL_CHART_MAX_CURVES && p->extra;
    case BL_CHART_TIMELINE:
        for (size_t k = 0; k < (o->series ? 1 : 5); k++)
            if (p->n[k] <= BL_CHART_MAX_CURVES)
                return 0;
        return 1;
    case BL_CHART_HISTOGRAM:
        return p->n[0] > BL_CHART_MAX_CURVES;
    default:
        return 0;
    }
}

char *bl_chart_name(const bl_record *r, const char *by)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    char buf[64];
    if (by) {
        const char *v = bl_record_field_text(r, by, buf, sizeof buf);
        bl_strbuf_puts(&sb, v ? v : "(none)");
        return bl_strbuf_take(&sb);
    }
    /* A job or CDM cell names a setup; its read and write sides share it, so add the op. */
    const char *what = bl_record_label(r, "job");
    if (!what)
        what = bl_record_label(r, "cdm_test");
    const char *where = bl_record_label(r, "column");
    if (!where)
        where = bl_record_label(r, "section");
    if (!where)
        where = bl_record_label(r, "host");
    int say_op = what && r->op && !strcasestr(what, r->op);
    if (what)
        bl_strbuf_printf(&sb, "%s%s%s", what, say_op ? " " : "", say_op ? r->op : "");
    else
        bl_strbuf_puts(&sb, r->test ? r->test : "?");
    if (where)
        bl_strbuf_printf(&sb, " · %s", where);
    else
        bl_strbuf_printf(&sb, " · %s #%lld", bl_basename(r->source), (long long)r->run);
    return bl_strbuf_take(&sb);
}

static const char *const common_keys[] = {"tool", "section", "host", "suite", "column"};

void bl_chart_common_add(bl_chart_common *c, const bl_record *r)
{
    for (size_t k = 0; k < sizeof common_keys / sizeof common_keys[0]; k++) {
        if (c->varies[k])
            continue;
        char b[64];
        const char *w = bl_record_field_text(r, common_keys[k], b, sizeof b);
        if (!w || (c->n && strcmp(c->v[k], w) != 0)) {
            c->varies[k] = 1;
            free(c->v[k]);
            c->v[k] = NULL;
        } else if (!c->n) {
            c->v[k] = bl_xstrdup(w);
        }
    }
    c->n++;
}

void bl_chart_common_free(bl_chart_common *c)
{
    for (size_t k = 0; k < sizeof common_keys / sizeof common_keys[0]; k++)
        free(c->v[k]);
    memset(c, 0, sizeof *c);
}

char *bl_chart_title_common(const char *kind, const bl_chart_common *c, const bl_chart_opts *o)
{
    if (o->title)
        return bl_xstrdup(o->title);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, kind);
    const char *sep = " — ";
    for (size_t k = 0; k < sizeof common_keys / sizeof common_keys[0]; k++) {
        if (c->n && !c->varies[k]) {
            bl_strbuf_printf(&sb, "%s%s", sep, c->v[k]);
            sep = " · ";
        }
    }
    return bl_strbuf_take(&sb);
}

char *bl_chart_title(const char *kind, const bl_record *const *recs, size_t n,
                     const bl_chart_opts *o)
{
    bl_chart_common c = {0};
    for (size_t i = 0; i < n && !o->title; i++)
        bl_chart_common_add(&c, recs[i]);
    char *s = bl_chart_title_common(kind, &c, o);
    bl_chart_common_free(&c);
    return s;
}

/* Draws the chart and writes it to path, or appends it to mem when path is NULL. */
static int chart_to(const char *path, bl_strbuf *mem, bl_canvas_fmt fmt, const bl_records *recs,
                    const bl_chart_opts *o, char *err, size_t errlen)
{
    int w = o->width ? o->width : 1600, h = o->height ? o->height : 900;
    if (!o->height && (o->kind == BL_CHART_BAR || o->kind == BL_CHART_IOPS_LAT) && w >= 320 &&
        w <= 10000)
        h = (int)fmax(900, bl_chart_bar_height(recs, o, w));
    if (w < 320 || h < 200 || w > 10000 || h > 10000) {
        snprintf(err, errlen, "chart size %dx%d is outside 320x200 .. 10000x10000", w, h);
        return 2;
    }
    bl_canvas c;
    if (bl_canvas_init_fmt(&c, w, h, fmt) != 0) {
        snprintf(err, errlen, "cannot make a %dx%d image", w, h);
        return 1;
    }
    int rc = bl_chart_draw(&c, recs, o, err, errlen);
    if (rc == 0 && path && bl_canvas_save(&c, path, err, errlen) != 0)
        rc = 1;
    if (rc == 0 && !path && bl_canvas_save_mem(&c, mem) != 0) {
        snprintf(err, errlen, "cannot encode the chart");
        rc = 1;
    }
    bl_canvas_free(&c);
    return rc;
}

int bl_chart_file(const char *path, const bl_records *recs, const bl_chart_opts *o, char *err,
                  size_t errlen)
{
    return chart_to(path, NULL, bl_canvas_fmt_of(path), recs, o, err, errlen);
}

int bl_chart_png(const char *path, const bl_records *recs, const bl_chart_opts *o, char *err,
                 size_t errlen)
{
    return bl_chart_file(path, recs, o, err, errlen);
}

char *bl_chart_page_path(const char *path, size_t page)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        dot = path + strlen(path);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_putn(&sb, path, (size_t)(dot - path));
    bl_strbuf_printf(&sb, "-%zu%s", page, dot);
    return bl_strbuf_take(&sb);
}

/* The pages of an older, longer set beyond the new one's count (from on), removed once the new
 * chart is in place: x-3.png of an old three-page set never stands beside a new two-page set.
 * Pages are numbered without gaps, so the first missing one ends the old set. */
static void drop_old_pages(const char *path, size_t from)
{
    for (size_t p = from;; p++) {
        char *pp = bl_chart_page_path(path, p);
        int gone = unlink(pp) != 0;
        free(pp);
        if (gone)
            return;
    }
}

/* Page p of the set drawn into *a (opened on the page's file, not yet in place): the bytes
 * written and flushed, so that a full disk shows here, before any page is renamed. */
static int page_to(bl_atomic *a, const char *pp, const bl_records *recs, const bl_chart_opts *o,
                   char *err, size_t errlen)
{
    bl_strbuf mem;
    bl_strbuf_init(&mem);
    int rc = chart_to(NULL, &mem, bl_canvas_fmt_of(pp), recs, o, err, errlen);
    if (rc == 0 && bl_atomic_open(a, pp, err, errlen) != 0)
        rc = 1;
    else if (rc == 0 && (fwrite(mem.s, 1, mem.len, a->f) != mem.len || fflush(a->f) != 0 ||
                         fsync(fileno(a->f)) != 0)) {
        snprintf(err, errlen, "cannot write %s: %s (the old set of pages, if any, is unchanged)",
                 pp, strerror(errno));
        bl_atomic_abort(a);
        rc = 1;
    }
    bl_strbuf_free(&mem);
    return rc;
}

int bl_chart_png_pages(const char *path, const bl_records *recs, const bl_chart_opts *o,
                       size_t *pages, char *err, size_t errlen)
{
    bl_chart_opts po = *o;
    size_t n = 0;
    po.page = 0;
    po.pages = &n;
    *pages = 0;
    if (o->kind != BL_CHART_BAR && o->kind != BL_CHART_IOPS_LAT) {
        int rc = chart_to(path, NULL, bl_canvas_fmt_of(path), recs, o, err, errlen);
        *pages = rc == 0;
        return rc;
    }
    /* Page one is drawn in memory first: only then is it known whether there are more. */
    bl_strbuf first;
    bl_strbuf_init(&first);
    po.drawn = NULL;
    int rc = chart_to(NULL, &first, bl_canvas_fmt_of(path), recs, &po, err, errlen);
    bl_strbuf_free(&first);
    po.drawn = o->drawn;
    if (rc == 0 && n <= 1) {
        rc = chart_to(path, NULL, bl_canvas_fmt_of(path), recs, &po, err, errlen);
        *pages = rc == 0;
        if (rc == 0)
            drop_old_pages(path, 1);
        return rc;
    }
    /* A set of pages is whole or not at all: every page goes to a temporary file beside its
     * name, and only when all are written are they renamed into place; a failure (full disk)
     * removes them all and leaves the old set as it was, never page 1 new beside page 2 old. */
    bl_atomic *tmp = bl_xcalloc(n, sizeof *tmp);
    size_t done = 0;
    for (size_t p = 0; rc == 0 && p < n; p++) {
        char *pp = bl_chart_page_path(path, p + 1);
        po.page = p;
        rc = page_to(&tmp[p], pp, recs, &po, err, errlen);
        done += rc == 0;
        free(pp);
    }
    for (size_t p = 0; p < done; p++) {
        if (rc == 0 && bl_atomic_commit(&tmp[p], err, errlen) != 0)
            rc = 1;
        else if (rc != 0)
            bl_atomic_abort(&tmp[p]);
    }
    free(tmp);
    if (rc == 0) {
        *pages = n;
        drop_old_pages(path, n + 1);
    }
    return rc;
}

int bl_chart_png_mem(bl_strbuf *png, const bl_records *recs, const bl_chart_opts *o, char *err,
                     size_t errlen)
{
    return chart_to(NULL, png, BL_CANVAS_PNG, recs, o, err, errlen);
}

int bl_chart_vector_mem(bl_strbuf *out, int pdf, const bl_records *recs, const bl_chart_opts *o,
                        char *err, size_t errlen)
{
    return chart_to(NULL, out, pdf ? BL_CANVAS_PDF : BL_CANVAS_SVG, recs, o, err, errlen);
}
