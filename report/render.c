#include "render.h"
#include "page.h"
#include "../core/escape.h"
#include "../compare/diff.h"
#include "../compare/fmt.h"
#include "../compare/overview.h"
#include <stdlib.h>
#include <string.h>

static void fig_text(bl_metric m, double v, bl_strbuf *sb)
{
    if (bl_metric_unit(m) && strcmp(bl_metric_unit(m), "ns") == 0)
        bl_fmt_ns(sb, v);
    else if (m == BL_M_IOPS)
        bl_fmt_iops(sb, v);
    else
        bl_fmt_fig(sb, v);
}

static void unit_text(bl_metric m, const bl_cell *c, bl_strbuf *sb)
{
    const char *u = m == BL_M_VALUE ? c->unit : bl_metric_unit(m);
    if (u && strcmp(u, "ns") != 0)
        bl_strbuf_printf(sb, " %s", u);
}

/* "424.8 ± 6.41 MB/s (n=4, CI ±10.2)": the figure by the repeats mode, the spread, and the
 * 95% confidence interval of the mean as a half-width. */
static void stat_text(bl_metric m, const bl_stat *s, const bl_cell *c, bl_repeats mode,
                      bl_strbuf *sb)
{
    if (s->n < 2) {
        fig_text(m, s->fig, sb);
        unit_text(m, c, sb);
        return;
    }
    if (c->n_setups > 1) { /* --pool: "250.6 ± 214.0 MB/s (pooled over 18 set-ups, 6.55–615.4)" */
        fig_text(m, s->mean, sb);
        bl_strbuf_puts(sb, " ± ");
        fig_text(m, s->sd, sb);
        unit_text(m, c, sb);
        bl_strbuf_printf(sb, " (pooled over %zu set-ups, ", c->n_setups);
        fig_text(m, s->min, sb);
        bl_strbuf_puts(sb, "–");
        fig_text(m, s->max, sb);
        bl_strbuf_putc(sb, ')');
        return;
    }
    if (mode == BL_REP_ALL) {
        for (size_t i = 0; i < s->n; i++) {
            if (i)
                bl_strbuf_puts(sb, ", ");
            fig_text(m, s->v[i], sb);
        }
        unit_text(m, c, sb);
        bl_strbuf_printf(sb, " (n=%zu, mean ", s->n);
        fig_text(m, s->mean, sb);
    } else {
        fig_text(m, s->fig, sb);
        if (mode == BL_REP_MEAN) {
            bl_strbuf_puts(sb, " ± ");
            fig_text(m, s->sd, sb);
        }
        unit_text(m, c, sb);
        bl_strbuf_printf(sb, " (n=%zu", s->n);
        if (mode != BL_REP_MEAN) {
            bl_strbuf_puts(sb, ", sd ");
            fig_text(m, s->sd, sb);
        }
    }
    bl_strbuf_puts(sb, ", CI ±");
    fig_text(m, s->ci, sb);
    bl_strbuf_putc(sb, ')');
}

/* The mark of a note, without its explanation: "+++++" of "+++++: too fast to measure". */
static int note_len(const char *note)
{
    const char *colon = strchr(note, ':');
    return (int)(colon ? (size_t)(colon - note) : strlen(note));
}

static void flag_text(const bl_cell *c, bl_strbuf *sb)
{
    if (bl_present(c->flag))
        bl_strbuf_puts(sb, " !");
}

/* Records that only carry a mark ("+++++") are said apart from the figures. */
static void notes_text(const bl_cell *c, const bl_stat *m, bl_strbuf *sb)
{
    size_t n = m->n ? m->n : c->n_recs - c->n_notes;
    if (c->n_notes && n)
        bl_strbuf_printf(sb, " (n=%zu; %.*s ×%zu)", n, note_len(c->note), c->note, c->n_notes);
    else if (c->n_recs > 1 && m->n < 2)
        bl_strbuf_printf(sb, " (n=%zu)", c->n_recs);
}

void bl_metric_text(const bl_table *t, size_t i, size_t j, bl_metric m, bl_strbuf *sb)
{
    const bl_cell *c = bl_table_cell(t, i, j);
    const bl_stat *s = &c->m[m];
    if (s->n) {
        stat_text(m, s, c, t->repeats, sb);
        if (m == bl_row_main(&t->rows[i]))
            flag_text(c, sb);
    } else if (c->note && m == bl_row_main(&t->rows[i])) {
        bl_strbuf_putn(sb, c->note, (size_t)note_len(c->note));
    }
}

void bl_cell_text(const bl_table *t, size_t i, size_t j, bl_strbuf *sb)
{
    const bl_row *row = &t->rows[i];
    const bl_cell *c = bl_table_cell(t, i, j);
    bl_metric main = bl_row_main(row);
    const bl_stat *m = &c->m[main];
    if (m->n) {
        stat_text(main, m, c, t->repeats, sb);
        if (main == BL_M_BW && row->small_block && c->m[BL_M_IOPS].n) {
            bl_strbuf_puts(sb, "  ");
            bl_fmt_iops(sb, c->m[BL_M_IOPS].fig);
            bl_strbuf_puts(sb, " IOPS");
        }
        flag_text(c, sb);
    } else if (c->note) {
        /* bonnie++'s "+++++" says the test ran too fast to time: keep the mark, not prose. */
        bl_strbuf_putn(sb, c->note, (size_t)note_len(c->note));
    } else if (c->n_recs) {
        bl_strbuf_puts(sb, "n/a");
    }
    notes_text(c, m, sb);
}

static void lat_text(const bl_cell *c, bl_strbuf *sb)
{
    if (c->m[BL_M_LAT].n)
        bl_fmt_ns(sb, c->m[BL_M_LAT].fig);
    if (c->m[BL_M_P99].n) {
        bl_strbuf_puts(sb, c->m[BL_M_LAT].n ? " · p99 " : "p99 ");
        bl_fmt_ns(sb, c->m[BL_M_P99].fig);
    }
}

static char *take(bl_strbuf *sb)
{
    if (!sb->s)
        bl_strbuf_puts(sb, "");
    return bl_strbuf_take(sb);
}

static void grid_col(bl_grid *g, size_t k, char *head, int main_of)
{
    g->head[k] = head;
    g->numeric[k] = 1;
    g->main_of[k] = main_of;
}

/* Columns of a set-up: its main figure (with latency when asked), or one a metric asked. */
static size_t setup_cols(const bl_table *t, size_t j, const bl_report_opts *o, int show_lat,
                         bl_grid *g, size_t k, bl_strbuf *sb)
{
    const char *title = t->cols[j].title;
    if (o->n_metrics == 0) {
        grid_col(g, k, bl_xstrdup(title), (int)j);
        for (size_t i = 0; i < t->nrows; i++) {
            bl_cell_text(t, i, j, sb);
            if (o->overview && bl_row_best(t, i) == (long)j)
                bl_strbuf_puts(sb, " *");
            g->cell[i * g->ncols + k] = take(sb);
        }
        k++;
        if (show_lat) {
            bl_strbuf_printf(sb, "%s latency", title);
            grid_col(g, k, take(sb), -1);
            for (size_t i = 0; i < t->nrows; i++) {
                lat_text(bl_table_cell(t, i, j), sb);
                g->cell[i * g->ncols + k] = take(sb);
            }
            k++;
        }
        return k;
    }
    for (size_t q = 0; q < o->n_metrics; q++) {
        bl_metric m = o->metrics[q];
        if (o->n_metrics > 1)
            bl_strbuf_printf(sb, "%s · %s", title, bl_metric_name(m));
        else
            bl_strbuf_puts(sb, title);
        grid_col(g, k, take(sb), q == 0 ? (int)j : -1);
        for (size_t i = 0; i < t->nrows; i++) {
            bl_metric_text(t, i, j, m, sb);
            g->cell[i * g->ncols + k] = take(sb);
        }
        k++;
    }
    return k;
}

void bl_grid_build(const bl_table *t, const bl_report_opts *o, bl_grid *g)
{
    int show_lat = o->lat && t->any_lat;
    size_t per = o->n_metrics ? o->n_metrics : 1 + (size_t)show_lat;
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
        k = setup_cols(t, j, o, show_lat, g, k, &sb);
        if (base && (long)j != t->baseline) {
            bl_strbuf_printf(&sb, "vs %s", base);
            grid_col(g, k, take(&sb), -1);
            for (size_t i = 0; i < t->nrows; i++) {
                double r = bl_table_ratio(t, i, j);
                if (bl_present(r)) /* "×5.16 ▲": better, by the figure's direction */
                    bl_strbuf_printf(&sb, "×%.*f %s", r < 10 ? 2 : 1, r,
                                     bl_verdict_arrow(bl_baseline_verdict(t, i, j)));
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

static int shows_latency(const bl_report_opts *o)
{
    int lat = o->lat;
    for (size_t q = 0; q < o->n_metrics; q++)
        lat |= bl_metric_unit(o->metrics[q]) && strcmp(bl_metric_unit(o->metrics[q]), "ns") == 0;
    return lat;
}

void bl_report_pooled_note(const bl_table *t, bl_strbuf *out)
{
    bl_strbuf_printf(out,
                     "Pooled (--pool): %zu cell%s average the records of several set-ups on "
                     "purpose: the mean ± sample stdev and the range over them; not repeats, "
                     "no confidence interval.",
                     t->n_pooled, t->n_pooled == 1 ? "" : "s");
}

void bl_report_footnote(const bl_table *t, const bl_report_opts *o, bl_strbuf *out,
                        const char *prefix)
{
    bl_strbuf_printf(out, "%sMB/s = 10^6 bytes/s. %zu record%s, %zu test%s, %zu column%s", prefix,
                     t->n_records, t->n_records == 1 ? "" : "s", t->nrows, t->nrows == 1 ? "" : "s",
                     t->ncols, t->ncols == 1 ? "" : "s");
    if (t->by)
        bl_strbuf_printf(out, " by %s", t->by);
    if (t->n_unlabelled)
        bl_strbuf_printf(out, " (%zu lacking %s, each its own column named after its source)",
                         t->n_unlabelled, t->by);
    if (t->n_left_out)
        bl_strbuf_printf(out, "; %zu record%s without a test name (logs) left out", t->n_left_out,
                         t->n_left_out == 1 ? "" : "s");
    bl_strbuf_puts(out, ".\n");
    if (t->any_repeat) {
        static const char *const how[] = {
            "the mean ± sample stdev", "the median (sd = sample stdev)",
            "the best run (highest throughput, lowest latency; sd = sample stdev)",
            "every run, in import order"};
        bl_strbuf_printf(out,
                         "Repeats (same test, same set-up; --repeats %s): %s, n runs, CI = "
                         "half-width of the 95%% confidence interval of the mean (Student's t).\n",
                         bl_repeats_name(t->repeats), how[t->repeats]);
    }
    if (t->baseline >= 0)
        bl_strbuf_printf(out,
                         "vs %s: each figure over the baseline's; ▲ better, ▼ worse (MB/s, IOPS: "
                         "higher is better; latency: lower), ~ within noise (inside the 95%% "
                         "confidence intervals of the repeats), = the same.\n",
                         t->cols[t->baseline].title);
    if (t->n_pooled) {
        bl_report_pooled_note(t, out);
        bl_strbuf_putc(out, '\n');
    }
    if (shows_latency(o) && (t->lat_from[0] || t->lat_from[1] || t->pct_from[0] || t->pct_from[1]))
        bl_strbuf_printf(out,
                         "Latency: mean of total latency (lat) for %zu record%s, of completion "
                         "latency (clat; no lat) for %zu; percentiles of lat for %zu, of clat "
                         "for %zu.\n",
                         t->lat_from[0], t->lat_from[0] == 1 ? "" : "s", t->lat_from[1],
                         t->pct_from[0], t->pct_from[1]);
    if (t->n_split)
        bl_strbuf_printf(out,
                         "Split: %zu column%s of set-ups whose runs of one test were run "
                         "differently, titled by the labels telling them apart (never averaged "
                         "together; --by LABEL groups otherwise).\n",
                         t->n_split, t->n_split == 1 ? "" : "s");
    if (t->n_flagged)
        bl_strbuf_printf(out,
                         "! = implausible: %zu figure%s 100× or more off the same test's median on "
                         "the other set-ups of the same tool family (page-cache figures such as "
                         "iozone's are not a disk's neighbours); check the source.\n",
                         t->n_flagged, t->n_flagged == 1 ? "" : "s");
}

static void md_text(bl_strbuf *out, const char *s)
{
    bl_esc_md(out, s);
}

/* The terminal table: labels and names of the grid as escape.h shows them, one line each. */
void bl_grid_escape_term(bl_grid *g)
{
    for (size_t i = 0; i < g->ncols; i++) {
        char *e = bl_esc_term_dup(g->head[i], BL_ESC_LINE);
        free(g->head[i]);
        g->head[i] = e;
    }
    for (size_t i = 0; i < g->nrows * g->ncols; i++) {
        char *e = bl_esc_term_dup(g->cell[i], BL_ESC_LINE);
        free(g->cell[i]);
        g->cell[i] = e;
    }
}

void bl_render_grid_md(const bl_grid *g, bl_strbuf *out)
{
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
}

static void render_md(const bl_table *t, const bl_grid *g, const bl_report_opts *o, bl_strbuf *out)
{
    if (o->title) {
        bl_strbuf_puts(out, "## ");
        md_text(out, o->title);
        bl_strbuf_puts(out, "\n\n");
    }
    bl_render_grid_md(g, out);
    bl_report_footnote(t, o, out, "\n");
}

void bl_report_render(const bl_table *t, const bl_report_opts *o, bl_strbuf *out)
{
    if (o->format == BL_REPORT_CSV) {
        bl_render_csv(t, o, out);
        return;
    }
    if (o->format == BL_REPORT_HTML) { /* the page (page.h), without the sources */
        bl_page_opts po = {.title = o->title, .charts = 1, .metric = -1};
        if (o->n_metrics)
            po.metric = (int)o->metrics[0];
        bl_page_html(t, NULL, &po, out);
        return;
    }
    if (o->layout_cdm) {
        bl_render_cdm(t, o, out);
        bl_render_overview(t, o, out);
        return;
    }
    if (bl_render_groups(t, o, out)) {
        bl_render_overview(t, o, out);
        return;
    }
    bl_grid g;
    bl_grid_build(t, o, &g);
    if (o->format == BL_REPORT_MD)
        render_md(t, &g, o, out);
    else {
        bl_grid_escape_term(&g);
        bl_render_text(t, &g, o, out);
    }
    bl_render_overview(t, o, out);
    bl_grid_free(&g);
}
