#include "diff.h"
#include "fmt.h"
#include "../core/escape.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

bl_diff_ci bl_diff_ci_test(const bl_stat *a, const bl_stat *b)
{
    int ra = a->n >= 2 && bl_present(a->ci), rb = b->n >= 2 && bl_present(b->ci);
    if (ra && rb)
        return fabs(a->mean - b->mean) > a->ci + b->ci ? BL_DIFF_OUTSIDE : BL_DIFF_INSIDE;
    if (ra)
        return fabs(b->fig - a->mean) > a->ci ? BL_DIFF_OUTSIDE : BL_DIFF_INSIDE;
    if (rb)
        return fabs(a->fig - b->mean) > b->ci ? BL_DIFF_OUTSIDE : BL_DIFF_INSIDE;
    return BL_DIFF_NO_REPEATS;
}

bl_verdict bl_diff_verdict(const bl_stat *a, const bl_stat *b, int dir)
{
    if (!a->n || !b->n || a->fig == b->fig)
        return BL_SAME;
    if (bl_diff_ci_test(a, b) == BL_DIFF_INSIDE)
        return BL_NOISE;
    return (b->fig > a->fig) == (dir > 0) ? BL_BETTER : BL_WORSE;
}

const char *bl_verdict_word(bl_verdict v)
{
    return v == BL_BETTER  ? "better"
           : v == BL_WORSE ? "worse"
           : v == BL_NOISE ? "within noise"
                           : "same";
}

bl_verdict bl_baseline_verdict(const bl_table *t, size_t row, size_t col)
{
    if (t->baseline < 0 || (long)col == t->baseline)
        return BL_SAME;
    const bl_row *r = &t->rows[row];
    bl_metric m = bl_row_main(r);
    const bl_stat *base = &bl_table_cell(t, row, (size_t)t->baseline)->m[m];
    const bl_stat *x = &bl_table_cell(t, row, col)->m[m];
    return bl_diff_verdict(base, x, bl_metric_direction(m, m == BL_M_VALUE ? r->unit : NULL));
}

const char *bl_verdict_arrow(bl_verdict v)
{
    return v == BL_BETTER ? "▲" : v == BL_WORSE ? "▼" : v == BL_NOISE ? "~" : "=";
}

size_t bl_diff(const bl_table *t, size_t ca, size_t cb, const bl_metric *ms, size_t nm,
               bl_diff_line *out)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        for (size_t q = 0; q < (nm ? nm : 1); q++) {
            bl_metric m = nm ? ms[q] : bl_row_main(&t->rows[i]);
            const bl_stat *a = &bl_table_cell(t, i, ca)->m[m];
            const bl_stat *b = &bl_table_cell(t, i, cb)->m[m];
            if (!a->n || !b->n)
                continue;
            const char *unit = m == BL_M_VALUE ? t->rows[i].unit : NULL;
            out[n] = (bl_diff_line){i,
                                    m,
                                    a,
                                    b,
                                    BL_ABSENT,
                                    bl_diff_ci_test(a, b),
                                    bl_diff_verdict(a, b, bl_metric_direction(m, unit))};
            if (a->fig != 0)
                out[n].change_pct = (b->fig - a->fig) / a->fig * 100;
            n++;
        }
    }
    return n;
}

static void fig(bl_strbuf *sb, bl_metric m, double v)
{
    const char *u = bl_metric_unit(m);
    if (u && strcmp(u, "ns") == 0)
        bl_fmt_ns(sb, v);
    else if (m == BL_M_IOPS)
        bl_fmt_iops(sb, v);
    else
        bl_fmt_fig(sb, v);
}

/* A side's figure; pooled (--pool) as the report says it, "87.60 ± 9.81 MB/s (pooled over 9
 * set-ups)": the spread of set-ups, never repeats' n and interval. */
static void side_text(bl_strbuf *sb, bl_metric m, const bl_stat *s, const char *unit,
                      size_t n_setups)
{
    fig(sb, m, s->fig);
    if (n_setups > 1 && s->n >= 2 && bl_present(s->sd)) {
        bl_strbuf_puts(sb, " ± ");
        fig(sb, m, s->sd);
    }
    if (unit && strcmp(unit, "ns") != 0)
        bl_strbuf_printf(sb, " %s", unit);
    if (n_setups > 1) {
        bl_strbuf_printf(sb, " (pooled over %zu set-ups)", n_setups);
    } else if (s->n >= 2 && !bl_present(s->ci)) {
        bl_strbuf_printf(sb, " (pooled, n=%zu)", s->n);
    } else if (s->n >= 2) {
        bl_strbuf_printf(sb, " (n=%zu, CI ±", s->n);
        fig(sb, m, s->ci);
        bl_strbuf_putc(sb, ')');
    }
}

static const char *ci_word(bl_diff_ci c)
{
    return c == BL_DIFF_OUTSIDE ? "yes" : c == BL_DIFF_INSIDE ? "no" : "no repeats";
}

/* Always quoted (as before), and a formula kept as text (core/escape.h). */
static void csv_field(bl_strbuf *out, const char *s)
{
    size_t n = strlen(s);
    if (n && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' ||
              s[0] == '\r' || strpbrk(s, ",\"\n\r"))) {
        bl_esc_csv(out, s, n);
        return;
    }
    bl_strbuf_putc(out, '"');
    bl_strbuf_putn(out, s, n);
    bl_strbuf_putc(out, '"');
}

static void csv_num(bl_strbuf *out, double v)
{
    bl_strbuf_putc(out, ',');
    if (bl_present(v))
        bl_strbuf_printf(out, "%.10g", v);
}

static void render_csv(const bl_table *t, const bl_diff_line *l, size_t n, bl_strbuf *out)
{
    bl_strbuf_puts(out, "test,metric,unit,a,a_n,a_ci,b,b_n,b_ci,change_pct,outside_ci,verdict\n");
    for (size_t k = 0; k < n; k++) {
        const char *u = l[k].metric == BL_M_VALUE ? bl_table_cell(t, l[k].row, 0)->unit
                                                  : bl_metric_unit(l[k].metric);
        csv_field(out, t->rows[l[k].row].title);
        bl_strbuf_printf(out, ",%s,", bl_metric_name(l[k].metric));
        csv_field(out, u ? u : t->rows[l[k].row].unit ? t->rows[l[k].row].unit : "");
        csv_num(out, l[k].a->fig);
        bl_strbuf_printf(out, ",%zu", l[k].a->n);
        csv_num(out, l[k].a->ci);
        csv_num(out, l[k].b->fig);
        bl_strbuf_printf(out, ",%zu", l[k].b->n);
        csv_num(out, l[k].b->ci);
        csv_num(out, l[k].change_pct);
        bl_strbuf_printf(out, ",%s,%s\n", ci_word(l[k].ci), bl_verdict_word(l[k].verdict));
    }
}

static void put_cell(bl_strbuf *out, const char *s, size_t w, int right)
{
    size_t dw = bl_display_width(s);
    if (right)
        for (size_t i = dw; i < w; i++)
            bl_strbuf_putc(out, ' ');
    bl_strbuf_puts(out, s);
    if (!right)
        for (size_t i = dw; i < w; i++)
            bl_strbuf_putc(out, ' ');
}

void bl_diff_render(const bl_table *t, size_t ca, size_t cb, const bl_diff_line *l, size_t n,
                    int csv, bl_strbuf *out)
{
    if (csv) {
        render_csv(t, l, n, out);
        return;
    }
    enum { NC = 6 };
    size_t rows = n + 1;
    char **cell = bl_xcalloc(rows * NC, sizeof *cell);
    const char *head[NC] = {"test",   t->cols[ca].title, t->cols[cb].title,
                            "change", "verdict",         "outside 95% CI"};
    for (int c = 0; c < NC; c++)
        cell[c] = bl_esc_term_dup(head[c], BL_ESC_LINE);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t k = 0; k < n; k++) {
        char **r = cell + (k + 1) * NC;
        const bl_diff_line *d = &l[k];
        const char *u = d->metric == BL_M_VALUE ? t->rows[d->row].unit : bl_metric_unit(d->metric);
        bl_esc_term(&sb, t->rows[d->row].title, BL_ESC_LINE);
        bl_strbuf_printf(&sb, " %s", bl_metric_name(d->metric));
        r[0] = bl_strbuf_take(&sb);
        side_text(&sb, d->metric, d->a, u, bl_table_cell(t, d->row, ca)->n_setups);
        r[1] = bl_strbuf_take(&sb);
        side_text(&sb, d->metric, d->b, u, bl_table_cell(t, d->row, cb)->n_setups);
        r[2] = bl_strbuf_take(&sb);
        if (bl_present(d->change_pct))
            bl_strbuf_printf(&sb, "%+.1f%%", d->change_pct);
        else
            bl_strbuf_puts(&sb, "n/a");
        r[3] = bl_strbuf_take(&sb);
        r[4] = bl_xstrdup(bl_verdict_word(d->verdict));
        r[5] = bl_xstrdup(ci_word(d->ci));
    }
    size_t w[NC] = {0};
    for (size_t i = 0; i < rows; i++)
        for (int c = 0; c < NC; c++) {
            size_t dw = bl_display_width(cell[i * NC + c]);
            w[c] = dw > w[c] ? dw : w[c];
        }
    for (size_t i = 0; i < rows; i++) {
        for (int c = 0; c < NC; c++) {
            if (c)
                bl_strbuf_puts(out, "  ");
            put_cell(out, cell[i * NC + c], c == NC - 1 ? 0 : w[c], c > 0 && c < 4);
        }
        while (out->len && out->s[out->len - 1] == ' ')
            out->s[--out->len] = 0;
        bl_strbuf_putc(out, '\n');
        if (i == 0) {
            for (int c = 0; c < NC; c++) {
                if (c)
                    bl_strbuf_puts(out, "  ");
                for (size_t x = 0; x < w[c]; x++)
                    bl_strbuf_putc(out, '-');
            }
            bl_strbuf_putc(out, '\n');
        }
    }
    for (size_t i = 0; i < rows * NC; i++)
        free(cell[i]);
    free(cell);
    bl_strbuf_printf(out,
                     "\n%zu common test figure%s. change = (B - A) / A; better or worse by the "
                     "figure's direction (MB/s, IOPS: higher is better; latency: lower); within "
                     "noise: the change lies inside the 95%% confidence intervals of the repeats. "
                     "Outside 95%% CI: the two sides' confidence intervals of the mean do not "
                     "overlap (with repeats on one side: the other's figure lies outside it).\n",
                     n, n == 1 ? "" : "s");
}
