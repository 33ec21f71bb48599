/* CSV form of the comparison: one row a test, plain numbers (no units in cells, units in the
 * header), so that a spreadsheet or a script can compute with them. Repeats come with their
 * stdev and the half-width of the 95% confidence interval of the mean (CI95). */
#include "../core/escape.h"
#include "../core/strbuf.h"
#include "render.h"
#include <math.h>
#include <string.h>

static void field(bl_strbuf *out, const char *v)
{
    bl_esc_csv(out, v, strlen(v));
}

static void head(bl_strbuf *out, const char *title, const char *what)
{
    bl_strbuf h;
    bl_strbuf_init(&h);
    bl_strbuf_printf(&h, "%s %s", title, what);
    bl_strbuf_putc(out, ',');
    field(out, h.s);
    bl_strbuf_free(&h);
}

static void num(bl_strbuf *out, double v)
{
    bl_strbuf_putc(out, ',');
    if (bl_present(v))
        bl_strbuf_printf(out, "%.10g", v);
}

static void int_or_empty(bl_strbuf *out, int64_t v)
{
    bl_strbuf_putc(out, ',');
    if (v >= 0)
        bl_strbuf_printf(out, "%lld", (long long)v);
}

static const char *metric_head(bl_metric m)
{
    switch (m) {
    case BL_M_BW:
        return "MB/s";
    case BL_M_IOPS:
        return "IOPS";
    case BL_M_LAT:
        return "lat mean ns";
    case BL_M_P50:
        return "lat p50 ns";
    case BL_M_P99:
        return "lat p99 ns";
    case BL_M_P999:
        return "lat p99.9 ns";
    default:
        return "value";
    }
}

/* --metric: each set-up's chosen figures with their n, stdev and 95% CI half-width. */
static void render_metrics(const bl_table *t, const bl_report_opts *o, bl_strbuf *out)
{
    bl_strbuf_puts(out, "test,bs,iodepth,numjobs");
    bl_strbuf h;
    bl_strbuf_init(&h);
    for (size_t j = 0; j < t->ncols; j++)
        for (size_t q = 0; q < o->n_metrics; q++) {
            static const char *const what[] = {"", " n", " stdev", " CI95"};
            for (int k = 0; k < 4; k++) {
                bl_strbuf_reset(&h);
                bl_strbuf_printf(&h, "%s%s", metric_head(o->metrics[q]), what[k]);
                head(out, t->cols[j].title, h.s);
            }
        }
    bl_strbuf_free(&h);
    bl_strbuf_putc(out, '\n');
    for (size_t i = 0; i < t->nrows; i++) {
        const bl_row *r = &t->rows[i];
        field(out, r->test);
        int_or_empty(out, r->bs);
        int_or_empty(out, r->iodepth);
        int_or_empty(out, r->numjobs);
        for (size_t j = 0; j < t->ncols; j++)
            for (size_t q = 0; q < o->n_metrics; q++) {
                const bl_stat *s = &bl_table_cell(t, i, j)->m[o->metrics[q]];
                num(out, s->fig);
                bl_strbuf_putc(out, ',');
                if (s->n)
                    bl_strbuf_printf(out, "%zu", s->n);
                num(out, s->sd);
                num(out, s->ci);
            }
        bl_strbuf_putc(out, '\n');
    }
}

void bl_render_csv(const bl_table *t, const bl_report_opts *o, bl_strbuf *out)
{
    if (o->n_metrics) {
        render_metrics(t, o, out);
        return;
    }
    int show_lat = o->lat && t->any_lat;
    bl_strbuf_puts(out, "test,bs,iodepth,numjobs");
    for (size_t j = 0; j < t->ncols; j++) {
        const char *c = t->cols[j].title;
        head(out, c, "MB/s");
        head(out, c, "MB/s stdev");
        head(out, c, "MB/s CI95");
        head(out, c, "IOPS");
        if (t->any_value) {
            head(out, c, "value");
            head(out, c, "unit");
        }
        head(out, c, "n");
        if (show_lat) {
            head(out, c, "lat mean ns");
            head(out, c, "lat p99 ns");
        }
        if (t->baseline >= 0 && (long)j != t->baseline)
            head(out, c, "ratio");
    }
    bl_strbuf_putc(out, '\n');
    for (size_t i = 0; i < t->nrows; i++) {
        const bl_row *r = &t->rows[i];
        field(out, r->test);
        int_or_empty(out, r->bs);
        int_or_empty(out, r->iodepth);
        int_or_empty(out, r->numjobs);
        for (size_t j = 0; j < t->ncols; j++) {
            const bl_cell *c = bl_table_cell(t, i, j);
            num(out, c->m[BL_M_BW].fig);
            num(out, c->m[BL_M_BW].sd);
            num(out, c->m[BL_M_BW].ci);
            num(out, c->m[BL_M_IOPS].fig);
            if (t->any_value) {
                num(out, c->m[BL_M_VALUE].fig);
                bl_strbuf_putc(out, ',');
                field(out, c->m[BL_M_VALUE].n && c->unit ? c->unit : "");
            }
            bl_strbuf_printf(out, ",%zu", bl_cell_main(r, c)->n);
            if (show_lat) {
                num(out, c->m[BL_M_LAT].fig);
                num(out, c->m[BL_M_P99].fig);
            }
            if (t->baseline >= 0 && (long)j != t->baseline)
                num(out, bl_table_ratio(t, i, j));
        }
        bl_strbuf_putc(out, '\n');
    }
}
