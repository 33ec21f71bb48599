/* The self-contained HTML page: one file with its CSS inline, no script, no external font or
 * image, so that it can be mailed or attached to a ticket. Each figure carries a bar showing
 * it against the best of its row. */
#include "fmt.h"
#include "render.h"
#include <string.h>

static void esc(bl_strbuf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            bl_strbuf_puts(out, "&amp;");
            break;
        case '<':
            bl_strbuf_puts(out, "&lt;");
            break;
        case '>':
            bl_strbuf_puts(out, "&gt;");
            break;
        case '"':
            bl_strbuf_puts(out, "&quot;");
            break;
        default:
            bl_strbuf_putc(out, *s);
        }
    }
}

static const char css[] =
    "body{font-family:system-ui,'Noto Sans CJK JP','Noto Sans',sans-serif;margin:2rem;"
    "color:#1d2330;background:#fff}\n"
    "h1{font-size:1.4rem;margin:0 0 .3rem}\n"
    "p.meta{color:#5b6475;margin:0 0 1.2rem;font-size:.9rem}\n"
    "table{border-collapse:collapse;font-size:.92rem}\n"
    "th,td{padding:.35rem .7rem;border-bottom:1px solid #e3e6ec;white-space:nowrap}\n"
    "th{background:#f3f5f9;text-align:left;font-weight:600;position:sticky;top:0}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "td.bar{background-image:linear-gradient(#dbe7fb,#dbe7fb);background-repeat:no-repeat;"
    "background-size:var(--w) 100%;background-position:right}\n"
    "tr:hover td{background-color:#fafbfd}\n"
    "figure{margin:1.5rem 0 0}figure img{width:100%;max-width:1200px;height:auto}\n"
    "footer{color:#5b6475;font-size:.8rem;margin-top:1rem}\n";

static double row_max(const bl_table *t, size_t i)
{
    double m = 0;
    for (size_t j = 0; j < t->ncols; j++) {
        const bl_stat *s = bl_cell_main(&t->rows[i], bl_table_cell(t, i, j));
        if (s->n && s->fig > m)
            m = s->fig;
    }
    return m;
}

static void base64(bl_strbuf *out, const unsigned char *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {abc[v >> 18], abc[(v >> 12) & 63], i + 1 < n ? abc[(v >> 6) & 63] : '=',
                     i + 2 < n ? abc[v & 63] : '='};
        bl_strbuf_putn(out, q, 4);
    }
}

void bl_render_html(const bl_table *t, const bl_grid *g, const bl_report_opts *o, bl_strbuf *out)
{
    const char *title = o->title ? o->title : "Storage benchmark comparison";
    bl_strbuf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
                        "<title>");
    esc(out, title);
    bl_strbuf_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
    esc(out, title);
    bl_strbuf_printf(out, "</h1>\n<p class=\"meta\">%zu records · %zu tests · %zu columns",
                     t->n_records, t->nrows, t->ncols);
    if (t->by) {
        bl_strbuf_puts(out, " by ");
        esc(out, t->by);
    }
    bl_strbuf_puts(out, " · MB/s = 10<sup>6</sup> bytes/s</p>\n<table>\n<thead><tr>");
    for (size_t k = 0; k < g->ncols; k++) {
        bl_strbuf_puts(out, g->numeric[k] ? "<th class=\"n\">" : "<th>");
        esc(out, g->head[k]);
        bl_strbuf_puts(out, "</th>");
    }
    bl_strbuf_puts(out, "</tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < g->nrows; i++) {
        double max = row_max(t, i);
        bl_strbuf_puts(out, "<tr>");
        for (size_t k = 0; k < g->ncols; k++) {
            int j = g->main_of[k];
            const bl_stat *s =
                j >= 0 ? bl_cell_main(&t->rows[i], bl_table_cell(t, i, (size_t)j)) : NULL;
            if (s && s->n && max > 0)
                bl_strbuf_printf(out, "<td class=\"n bar\" style=\"--w:%.1f%%\">",
                                 100.0 * s->fig / max);
            else
                bl_strbuf_puts(out, g->numeric[k] ? "<td class=\"n\">" : "<td>");
            esc(out, g->cell[i * g->ncols + k]);
            bl_strbuf_puts(out, "</td>");
        }
        bl_strbuf_puts(out, "</tr>\n");
    }
    bl_strbuf_puts(out, "</tbody>\n</table>\n");
    if (o->png && o->png_len) {
        /* The chart travels inside the page: a data URI, nothing to fetch. */
        bl_strbuf_puts(out, "<figure><img alt=\"");
        esc(out, title);
        bl_strbuf_puts(out, " (bar chart)\" src=\"data:image/png;base64,");
        base64(out, (const unsigned char *)o->png, o->png_len);
        bl_strbuf_puts(out, "\"></figure>\n");
    }
    bl_strbuf_puts(out, "<footer>");
    bl_strbuf note;
    bl_strbuf_init(&note);
    bl_report_footnote(t, o, &note, "");
    esc(out, note.s);
    bl_strbuf_free(&note);
    bl_strbuf_puts(out, " Made by benchlog.</footer>\n</body>\n</html>\n");
}
