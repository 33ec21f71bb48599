/* CSV form of the comparison: one row a test, plain numbers (no units in cells, units in the
 * header), so that a spreadsheet or a script can compute with them. */
#include "../core/strbuf.h"
#include "render.h"
#include <math.h>
#include <string.h>

static void field(bl_strbuf *out, const char *v)
{
    if (!strpbrk(v, ",\"\n\r")) {
        bl_strbuf_puts(out, v);
        return;
    }
    bl_strbuf_putc(out, '"');
    for (; *v; v++) {
        if (*v == '"')
            bl_strbuf_putc(out, '"');
        bl_strbuf_putc(out, *v);
    }
    bl_strbuf_putc(out, '"');
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

void bl_render_csv(const bl_table *t, int lat, bl_strbuf *out)
{
    int show_lat = lat && t->any_lat;
    bl_strbuf_puts(out, "test,bs,iodepth,numjobs");
    for (size_t j = 0; j < t->ncols; j++) {
        const char *c = t->cols[j].title;
        head(out, c, "MB/s");
        head(out, c, "MB/s stdev");
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
