/* Text and CSV tables of the scaling matrix (scaling_table.h). */
#include "scaling_table.h"
#include "../compare/fmt.h"
#include <stdlib.h>
#include <string.h>

#define NCOL 7

static void fig_ci(bl_strbuf *sb, const bl_stat *st, void (*fmt)(bl_strbuf *, double), double k)
{
    if (!st->n)
        return;
    fmt(sb, st->fig * k);
    if (st->n > 1 && bl_present(st->ci)) {
        bl_strbuf_puts(sb, " ± ");
        fmt(sb, st->ci * k);
    }
}

static void cells(const bl_scaling *m, const bl_scale_line *l, const bl_scale_point *p,
                  bl_strbuf *c)
{
    bl_strbuf_puts(&c[0], *l->name ? l->name : "all");
    if (m->x == BL_SCALE_BS)
        bl_fmt_size(&c[1], p->x);
    else
        bl_strbuf_printf(&c[1], "%lld", (long long)p->x);
    bl_strbuf_printf(&c[2], "%zu", p->iops.n > p->bw.n ? p->iops.n : p->bw.n);
    fig_ci(&c[3], &p->iops, bl_fmt_iops, 1);
    fig_ci(&c[4], &p->bw, bl_fmt_fig, 1e-6);
    fig_ci(&c[5], &p->lat, bl_fmt_ns, 1);
    fig_ci(&c[6], &p->p99, bl_fmt_ns, 1);
}

void bl_scaling_text(const bl_scaling *m, bl_strbuf *out)
{
    const char *head[NCOL] = {"line",   bl_scale_param_name(m->x), "n", "IOPS", "MB/s", "lat mean",
                              "lat p99"};
    size_t rows = 0;
    for (size_t l = 0; l < m->n; l++)
        rows += m->v[l].n;
    bl_strbuf *c = bl_xcalloc((rows + 1) * NCOL, sizeof *c);
    for (int k = 0; k < NCOL; k++) {
        bl_strbuf_init(&c[k]);
        bl_strbuf_puts(&c[k], head[k]);
    }
    size_t r = 1;
    for (size_t l = 0; l < m->n; l++)
        for (size_t i = 0; i < m->v[l].n; i++, r++) {
            for (int k = 0; k < NCOL; k++) {
                bl_strbuf_init(&c[r * NCOL + k]);
                bl_strbuf_puts(&c[r * NCOL + k], "");
            }
            cells(m, &m->v[l], &m->v[l].v[i], &c[r * NCOL]);
        }
    size_t w[NCOL] = {0};
    for (size_t i = 0; i <= rows; i++)
        for (int k = 0; k < NCOL; k++) {
            size_t d = bl_display_width(c[i * NCOL + k].s);
            w[k] = d > w[k] ? d : w[k];
        }
    for (size_t i = 0; i <= rows; i++) {
        for (int k = 0; k < NCOL; k++) {
            const char *s = c[i * NCOL + k].s;
            size_t pad = w[k] - bl_display_width(s);
            if (k == 0)
                bl_strbuf_printf(out, "%s%*s", s, (int)pad, "");
            else
                bl_strbuf_printf(out, "  %*s%s", (int)pad, "", s);
            bl_strbuf_free(&c[i * NCOL + k]);
        }
        bl_strbuf_putc(out, '\n');
    }
    static const char *const kinds[] = {"total (lat)", "completion (clat)",
                                        "total (lat) where reported, else completion (clat)"};
    bl_strbuf_printf(out, "lat mean: %s; lat p99: %s\n", kinds[m->lat_kind], kinds[m->p99_kind]);
    if (m->left_out)
        bl_strbuf_printf(out, "%s without %s or figures left out\n",
                         bl_count(m->left_out, "record").s, bl_scale_param_name(m->x));
    free(c);
}

static void csv_num(bl_strbuf *sb, double v)
{
    if (bl_present(v))
        bl_strbuf_printf(sb, ",%.17g", v);
    else
        bl_strbuf_putc(sb, ',');
}

static void csv_text(bl_strbuf *sb, const char *s)
{
    bl_strbuf_putc(sb, '"');
    for (; *s; s++) {
        if (*s == '"')
            bl_strbuf_putc(sb, '"');
        bl_strbuf_putc(sb, *s);
    }
    bl_strbuf_putc(sb, '"');
}

void bl_scaling_csv(const bl_scaling *m, bl_strbuf *out)
{
    bl_strbuf_printf(out,
                     "line,%s,n,iops,iops_ci95,bw_bytes_s,bw_ci95,lat_mean_ns,lat_mean_ci95,"
                     "lat_p99_ns,lat_p99_ci95\n",
                     bl_scale_param_name(m->x));
    for (size_t l = 0; l < m->n; l++)
        for (size_t i = 0; i < m->v[l].n; i++) {
            const bl_scale_point *p = &m->v[l].v[i];
            csv_text(out, m->v[l].name);
            bl_strbuf_printf(out, ",%lld,%zu", (long long)p->x,
                             p->iops.n > p->bw.n ? p->iops.n : p->bw.n);
            const bl_stat *st[] = {&p->iops, &p->bw, &p->lat, &p->p99};
            for (int k = 0; k < 4; k++) {
                csv_num(out, st[k]->n ? st[k]->fig : BL_ABSENT);
                csv_num(out, st[k]->n > 1 ? st[k]->ci : BL_ABSENT);
            }
            bl_strbuf_putc(out, '\n');
        }
}
