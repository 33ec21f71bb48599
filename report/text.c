#include "../compare/fmt.h"
#include "render.h"
#include "../core/escape.h"
#include <stdlib.h>
#include <string.h>

static void pad(bl_strbuf *out, size_t n, char c)
{
    for (size_t i = 0; i < n; i++)
        bl_strbuf_putc(out, c);
}

static void put_aligned(bl_strbuf *out, const char *s, size_t width, int right)
{
    size_t w = bl_display_width(s);
    size_t fill = width > w ? width - w : 0;
    if (right)
        pad(out, fill, ' ');
    bl_strbuf_puts(out, s);
    if (!right)
        pad(out, fill, ' ');
}

#define SEP " · "

/* Widest part of a heading between " · " separators: what a wrapped heading needs. */
static size_t widest_part(const char *h)
{
    size_t w = 0;
    for (const char *p = h;;) {
        const char *e = strstr(p, SEP);
        char *part = bl_xstrndup(p, e ? (size_t)(e - p) : strlen(p));
        size_t pw = bl_display_width(part);
        free(part);
        w = pw > w ? pw : w;
        if (!e)
            return w;
        p = e + strlen(SEP);
    }
}

/* The heading cut into lines of at most w columns at its separators; returns the count. */
static size_t wrap(const char *h, size_t w, char **lines, size_t cap)
{
    size_t n = 0;
    bl_strbuf line;
    bl_strbuf_init(&line);
    for (const char *p = h;;) {
        const char *e = strstr(p, SEP);
        char *part = bl_xstrndup(p, e ? (size_t)(e - p) : strlen(p));
        size_t joined = line.len ? bl_display_width(line.s) + 3 + bl_display_width(part) : 0;
        if (line.len && joined > w && n + 1 < cap) {
            lines[n++] = bl_strbuf_take(&line);
            bl_strbuf_init(&line);
        }
        if (line.len)
            bl_strbuf_puts(&line, SEP);
        bl_strbuf_puts(&line, part);
        free(part);
        if (!e)
            break;
        p = e + strlen(SEP);
    }
    lines[n++] = bl_strbuf_take(&line);
    return n;
}

enum { MAX_HEAD_LINES = 8 };

static void head_lines(const bl_grid *g, const size_t *w, const size_t *ks, size_t nk, int wrapped,
                       bl_strbuf *out)
{
    char *(*lines)[MAX_HEAD_LINES] = bl_xcalloc(nk, sizeof *lines);
    size_t *nl = bl_xcalloc(nk, sizeof *nl), depth = 1;
    for (size_t q = 0; q < nk; q++) {
        if (wrapped)
            nl[q] = wrap(g->head[ks[q]], w[ks[q]], lines[q], MAX_HEAD_LINES);
        else
            lines[q][nl[q]++] = bl_xstrdup(g->head[ks[q]]);
        depth = nl[q] > depth ? nl[q] : depth;
    }
    /* Headings sit on the rule: short ones on its last lines. */
    for (size_t d = 0; d < depth; d++) {
        for (size_t q = 0; q < nk; q++) {
            size_t k = ks[q], skip = depth - nl[q];
            const char *s = d >= skip ? lines[q][d - skip] : "";
            if (q)
                bl_strbuf_puts(out, "  ");
            put_aligned(out, s, q + 1 == nk && !g->numeric[k] ? 0 : w[k], g->numeric[k]);
        }
        while (out->len && out->s[out->len - 1] == ' ')
            out->s[--out->len] = 0;
        bl_strbuf_putc(out, '\n');
    }
    for (size_t q = 0; q < nk; q++) {
        if (q)
            bl_strbuf_puts(out, "  ");
        pad(out, w[ks[q]], '-');
        for (size_t d = 0; d < nl[q]; d++)
            free(lines[q][d]);
    }
    bl_strbuf_putc(out, '\n');
    free(lines);
    free(nl);
}

static int row_empty(const bl_grid *g, size_t i, const size_t *ks, size_t nk)
{
    for (size_t q = 1; q < nk; q++)
        if (*g->cell[i * g->ncols + ks[q]])
            return 0;
    return 1;
}

/* Returns the rows left out as empty. */
static size_t block(const bl_grid *g, const size_t *w, const size_t *ks, size_t nk, int split,
                    bl_strbuf *out)
{
    size_t skipped = 0;
    head_lines(g, w, ks, nk, split, out);
    for (size_t i = 0; i < g->nrows; i++) {
        if (split && row_empty(g, i, ks, nk)) {
            skipped++;
            continue;
        }
        for (size_t q = 0; q < nk; q++) {
            if (q)
                bl_strbuf_puts(out, "  ");
            put_aligned(out, g->cell[i * g->ncols + ks[q]], w[ks[q]], g->numeric[ks[q]]);
        }
        while (out->len && out->s[out->len - 1] == ' ') /* empty last cells: no trailing blanks */
            out->s[--out->len] = 0;
        bl_strbuf_putc(out, '\n');
    }
    return skipped;
}

static size_t *widths(const bl_grid *g, int wrapped)
{
    size_t *w = bl_xcalloc(g->ncols, sizeof *w);
    for (size_t k = 0; k < g->ncols; k++) {
        w[k] = wrapped ? widest_part(g->head[k]) : bl_display_width(g->head[k]);
        for (size_t i = 0; i < g->nrows; i++) {
            size_t cw = bl_display_width(g->cell[i * g->ncols + k]);
            w[k] = cw > w[k] ? cw : w[k];
        }
    }
    return w;
}

static size_t total_width(const size_t *w, size_t n)
{
    size_t t = 0;
    for (size_t k = 0; k < n; k++)
        t += w[k] + (k ? 2 : 0);
    return t;
}

void bl_render_grid(const bl_grid *g, bl_strbuf *out)
{
    size_t *w = widths(g, 0);
    size_t *ks = bl_xcalloc(g->ncols + 1, sizeof *ks);
    for (size_t k = 0; k < g->ncols; k++)
        ks[k] = k;
    block(g, w, ks, g->ncols, 0, out);
    free(ks);
    free(w);
}

/* The table of g, in blocks of columns past o->width; no title, no footnote. */
void bl_render_text_table(const bl_grid *g, const bl_report_opts *o, bl_strbuf *out)
{
    size_t *w = widths(g, 0);
    int split = o->width > 0 && total_width(w, g->ncols) > (size_t)o->width;
    if (split) {
        free(w);
        w = widths(g, 1);
    }
    size_t *ks = bl_xcalloc(g->ncols + 1, sizeof *ks);
    size_t k = 1, nblocks = 0, skipped = 0;
    do {
        size_t nk = 1, used = w[0];
        ks[0] = 0;
        /* A block takes at least one column, however wide. */
        while (k < g->ncols && (nk == 1 || !split || used + 2 + w[k] <= (size_t)o->width)) {
            used += 2 + w[k];
            ks[nk++] = k++;
        }
        if (nblocks++)
            bl_strbuf_putc(out, '\n');
        skipped += block(g, w, ks, nk, split, out);
    } while (k < g->ncols);
    if (split)
        bl_strbuf_printf(out,
                         "\n%zu blocks of columns to fit %d terminal columns (--wide for one "
                         "table)%s.\n",
                         nblocks, o->width,
                         skipped ? "; rows with no figure in a block are left out of it" : "");
    free(ks);
    free(w);
}

static void title(const bl_report_opts *o, bl_strbuf *out)
{
    if (!o->title)
        return;
    bl_esc_term(out, o->title, 0);
    bl_strbuf_puts(out, "\n\n");
}

void bl_render_text(const bl_table *t, const bl_grid *g, const bl_report_opts *o, bl_strbuf *out)
{
    title(o, out);
    bl_render_text_table(g, o, out);
    bl_report_footnote(t, o, out, "\n");
}
