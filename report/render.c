#include "render.h"
#include "fmt.h"
#include <stdlib.h>
#include <string.h>

static void stat_text(const bl_stat *s, bl_strbuf *sb)
{
    bl_fmt_fig(sb, s->mean);
    if (s->n > 1) {
        bl_strbuf_puts(sb, " ± ");
        bl_fmt_fig(sb, s->sd);
    }
}

/* The mark of a note, without its explanation: "+++++" of "+++++: too fast to measure". */
static int note_len(const char *note)
{
    const char *colon = strchr(note, ':');
    return (int)(colon ? (size_t)(colon - note) : strlen(note));
}

void bl_cell_text(const bl_row *row, const bl_cell *c, bl_strbuf *sb)
{
    if (c->mbps.n) {
        stat_text(&c->mbps, sb);
        bl_strbuf_puts(sb, " MB/s");
        if (row->small_block && c->iops.n) {
            bl_strbuf_puts(sb, "  ");
            bl_fmt_iops(sb, c->iops.mean);
            bl_strbuf_puts(sb, " IOPS");
        }
    } else if (c->iops.n) {
        stat_text(&c->iops, sb);
        bl_strbuf_puts(sb, " IOPS");
    } else if (c->value.n) {
        stat_text(&c->value, sb);
        bl_strbuf_printf(sb, " %s", c->unit ? c->unit : "");
    } else if (c->note) {
        /* bonnie++'s "+++++" says the test ran too fast to time: keep the mark, not prose. */
        bl_strbuf_putn(sb, c->note, (size_t)note_len(c->note));
    } else if (c->n_recs) {
        bl_strbuf_puts(sb, "n/a");
    }
    /* n counts the figures averaged; records that only carry a mark are said apart. */
    const bl_stat *m = bl_cell_main(row, c);
    size_t n = m->n ? m->n : c->n_recs - c->n_notes;
    if (c->n_notes && n)
        bl_strbuf_printf(sb, " (n=%zu; %.*s ×%zu)", n, note_len(c->note), c->note, c->n_notes);
    else if (c->n_recs > 1)
        bl_strbuf_printf(sb, " (n=%zu)", c->n_recs);
}

static void lat_text(const bl_cell *c, bl_strbuf *sb)
{
    if (c->lat_ns.n)
        bl_fmt_ns(sb, c->lat_ns.mean);
    if (c->p99_ns.n) {
        bl_strbuf_puts(sb, c->lat_ns.n ? " · p99 " : "p99 ");
        bl_fmt_ns(sb, c->p99_ns.mean);
    }
}

static char *take(bl_strbuf *sb)
{
    if (!sb->s)
        bl_strbuf_puts(sb, "");
    return bl_strbuf_take(sb);
}

void bl_grid_build(const bl_table *t, int lat, bl_grid *g)
{
    int show_lat = lat && t->any_lat;
    size_t per = 1 + (size_t)show_lat;
    size_t ncols = 1 + t->ncols * per + (t->baseline >= 0 ? t->ncols - 1 : 0);
    g->nrows = t->nrows;
    g->ncols = ncols;
    g->head = bl_xcalloc(ncols, sizeof *g->head);
    g->cell = bl_xcalloc(t->nrows * ncols + 1, sizeof *g->cell);
    g->numeric = bl_xcalloc(ncols, sizeof *g->numeric);
    g->main_of = bl_xcalloc(ncols, sizeof *g->main_of);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    g->head[0] = bl_xstrdup("test");
    g->main_of[0] = -1;
    size_t k = 1;
    const char *base = t->baseline >= 0 ? t->cols[t->baseline].title : NULL;
    for (size_t j = 0; j < t->ncols; j++) {
        g->head[k] = bl_xstrdup(t->cols[j].title);
        g->numeric[k] = 1;
        g->main_of[k] = (int)j;
        for (size_t i = 0; i < t->nrows; i++) {
            bl_cell_text(&t->rows[i], bl_table_cell(t, i, j), &sb);
            g->cell[i * ncols + k] = take(&sb);
        }
        k++;
        if (show_lat) {
            bl_strbuf_printf(&sb, "%s latency", t->cols[j].title);
            g->head[k] = take(&sb);
            g->numeric[k] = 1;
            g->main_of[k] = -1;
            for (size_t i = 0; i < t->nrows; i++) {
                lat_text(bl_table_cell(t, i, j), &sb);
                g->cell[i * ncols + k] = take(&sb);
            }
            k++;
        }
        if (base && (long)j != t->baseline) {
            bl_strbuf_printf(&sb, "vs %s", base);
            g->head[k] = take(&sb);
            g->numeric[k] = 1;
            g->main_of[k] = -1;
            for (size_t i = 0; i < t->nrows; i++) {
                double r = bl_table_ratio(t, i, j);
                if (bl_present(r))
                    bl_strbuf_printf(&sb, "×%.*f", r < 10 ? 2 : 1, r);
                g->cell[i * ncols + k] = take(&sb);
            }
            k++;
        }
    }
    for (size_t i = 0; i < t->nrows; i++)
        g->cell[i * ncols] = bl_xstrdup(t->rows[i].title);
    bl_strbuf_free(&sb);
}

void bl_grid_free(bl_grid *g)
{
    for (size_t i = 0; i < g->ncols; i++)
        free(g->head[i]);
    for (size_t i = 0; i < g->nrows * g->ncols; i++)
        free(g->cell[i]);
    free(g->head);
    free(g->cell);
    free(g->numeric);
    free(g->main_of);
    memset(g, 0, sizeof *g);
}

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

static void footnote(const bl_table *t, bl_strbuf *out, const char *prefix)
{
    bl_strbuf_printf(out, "%sMB/s = 10^6 bytes/s. %zu record%s, %zu test%s, %zu column%s", prefix,
                     t->n_records, t->n_records == 1 ? "" : "s", t->nrows, t->nrows == 1 ? "" : "s",
                     t->ncols, t->ncols == 1 ? "" : "s");
    if (t->by)
        bl_strbuf_printf(out, " by %s", t->by);
    if (t->n_left_out)
        bl_strbuf_printf(out, "; %zu record%s without a test name (logs) left out", t->n_left_out,
                         t->n_left_out == 1 ? "" : "s");
    if (t->any_repeat)
        bl_strbuf_puts(out, "; repeated runs as mean ± sample stdev (n=count)");
    bl_strbuf_puts(out, ".\n");
}

static void render_text(const bl_table *t, const bl_grid *g, const char *title, bl_strbuf *out)
{
    if (title)
        bl_strbuf_printf(out, "%s\n\n", title);
    size_t *w = bl_xcalloc(g->ncols, sizeof *w);
    for (size_t k = 0; k < g->ncols; k++) {
        w[k] = bl_display_width(g->head[k]);
        for (size_t i = 0; i < g->nrows; i++) {
            size_t cw = bl_display_width(g->cell[i * g->ncols + k]);
            w[k] = cw > w[k] ? cw : w[k];
        }
    }
    for (size_t k = 0; k < g->ncols; k++) {
        if (k)
            bl_strbuf_puts(out, "  ");
        put_aligned(out, g->head[k], k + 1 == g->ncols && !g->numeric[k] ? 0 : w[k], g->numeric[k]);
    }
    bl_strbuf_putc(out, '\n');
    for (size_t k = 0; k < g->ncols; k++) {
        if (k)
            bl_strbuf_puts(out, "  ");
        pad(out, w[k], '-');
    }
    bl_strbuf_putc(out, '\n');
    for (size_t i = 0; i < g->nrows; i++) {
        for (size_t k = 0; k < g->ncols; k++) {
            if (k)
                bl_strbuf_puts(out, "  ");
            put_aligned(out, g->cell[i * g->ncols + k], w[k], g->numeric[k]);
        }
        while (out->len && out->s[out->len - 1] == ' ') /* empty last cells: no trailing blanks */
            out->s[--out->len] = 0;
        bl_strbuf_putc(out, '\n');
    }
    footnote(t, out, "\n");
    free(w);
}

static void md_text(bl_strbuf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '*')
            bl_strbuf_putc(out, '\\');
        bl_strbuf_putc(out, *s);
    }
}

static void render_md(const bl_table *t, const bl_grid *g, const char *title, bl_strbuf *out)
{
    if (title) {
        bl_strbuf_puts(out, "## ");
        md_text(out, title);
        bl_strbuf_puts(out, "\n\n");
    }
    for (size_t k = 0; k < g->ncols; k++) {
        bl_strbuf_puts(out, "| ");
        md_text(out, g->head[k]);
        bl_strbuf_putc(out, ' ');
    }
    bl_strbuf_puts(out, "|\n");
    for (size_t k = 0; k < g->ncols; k++)
        bl_strbuf_puts(out, g->numeric[k] ? "| ---: " : "| :--- ");
    bl_strbuf_puts(out, "|\n");
    for (size_t i = 0; i < g->nrows; i++) {
        for (size_t k = 0; k < g->ncols; k++) {
            bl_strbuf_puts(out, "| ");
            md_text(out, g->cell[i * g->ncols + k]);
            bl_strbuf_putc(out, ' ');
        }
        bl_strbuf_puts(out, "|\n");
    }
    footnote(t, out, "\n");
}

void bl_report_render(const bl_table *t, const bl_report_opts *o, bl_strbuf *out)
{
    if (o->format == BL_REPORT_CSV) {
        bl_render_csv(t, o->lat, out);
        return;
    }
    bl_grid g;
    bl_grid_build(t, o->lat, &g);
    if (o->format == BL_REPORT_MD)
        render_md(t, &g, o->title, out);
    else if (o->format == BL_REPORT_HTML)
        bl_render_html(t, &g, o, out);
    else
        render_text(t, &g, o->title, out);
    bl_grid_free(&g);
}
