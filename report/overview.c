/* report --overview and --setups: the comparison summed up per set-up (compare/overview.h)
 * and the set-ups' descriptions side by side, each as a small table after the main one. */
#include "../compare/overview.h"
#include "../core/strbuf.h"
#include "../core/escape.h"
#include "render.h"
#include <stdlib.h>
#include <string.h>

static void grid_new(bl_grid *g, size_t nrows, size_t ncols)
{
    g->nrows = nrows;
    g->ncols = ncols;
    g->head = bl_xcalloc(ncols, sizeof *g->head);
    g->cell = bl_xcalloc(nrows * ncols + 1, sizeof *g->cell);
    g->numeric = bl_xcalloc(ncols, sizeof *g->numeric);
    g->main_of = bl_xcalloc(ncols, sizeof *g->main_of);
}

/* Set-up names come from imported text: escaped for where they are shown. */
static void put_grid(bl_grid *g, int md, bl_strbuf *out)
{
    if (md) {
        bl_render_grid_md(g, out);
        return;
    }
    bl_grid_escape_term(g);
    bl_render_grid(g, out);
}

static void put_name(bl_strbuf *out, int md, const char *name)
{
    if (md)
        bl_esc_md(out, name);
    else
        bl_esc_term(out, name, BL_ESC_LINE);
}

static void overview(const bl_table *t, int md, bl_strbuf *out)
{
    bl_overview_col *ov = bl_xcalloc(t->ncols + 1, sizeof *ov);
    bl_overview(t, ov);
    size_t base = bl_overview_base(t);
    bl_grid g;
    grid_new(&g, t->ncols, 4);
    static const char *const head[] = {"set-up", "geometric mean", "tests", "best in"};
    for (int k = 0; k < 4; k++) {
        g.head[k] = bl_xstrdup(head[k]);
        g.numeric[k] = k > 0;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t j = 0; j < t->ncols; j++) {
        char **r = g.cell + j * 4;
        r[0] = bl_xstrdup(t->cols[j].title);
        if (bl_present(ov[j].geomean))
            bl_strbuf_printf(&sb, "×%.3f", ov[j].geomean);
        r[1] = bl_strbuf_take(&sb);
        bl_strbuf_printf(&sb, "%zu", ov[j].n);
        r[2] = bl_strbuf_take(&sb);
        bl_strbuf_printf(&sb, "%zu", ov[j].best);
        r[3] = bl_strbuf_take(&sb);
    }
    bl_strbuf_printf(out, "\n%sOverview against ", md ? "**" : "");
    put_name(out, md, t->cols[base].title);
    bl_strbuf_printf(out,
                     "%s: each set-up's geometric mean of its ratios to it "
                     "over the tests both have (above 1 is better: MB/s and IOPS over the "
                     "baseline's, the baseline's latency over its own); best in: tests where "
                     "its figure is the best (marked *).\n\n",
                     md ? "**" : "");
    put_grid(&g, md, out);
    bl_grid_free(&g);
    bl_strbuf_free(&sb);
    free(ov);
}

static void setups(const bl_table *t, int md, bl_strbuf *out)
{
    static const char *const head[BL_SETUP_INFO_N] = {"tool", "version", "host",   "device",
                                                      "fs",   "date",    "command"};
    int used[BL_SETUP_INFO_N] = {0};
    size_t nc = 1;
    for (int k = 0; k < BL_SETUP_INFO_N; k++) {
        for (size_t j = 0; j < t->ncols && !used[k]; j++)
            used[k] = t->cols[j].info[k] != NULL;
        nc += (size_t)used[k];
    }
    bl_grid g;
    grid_new(&g, t->ncols, nc);
    g.head[0] = bl_xstrdup("set-up");
    for (int k = 0, c = 1; k < BL_SETUP_INFO_N; k++)
        if (used[k])
            g.head[c++] = bl_xstrdup(head[k]);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t j = 0; j < t->ncols; j++) {
        const bl_col *col = &t->cols[j];
        g.cell[j * nc] = bl_xstrdup(col->title);
        for (int k = 0, c = 1; k < BL_SETUP_INFO_N; k++) {
            if (!used[k])
                continue;
            const char *v = col->info[k];
            if (v) /* the first value, and how many others there are */
                bl_strbuf_printf(&sb, "%.*s", (int)strcspn(v, "\x1f"), v);
            if (col->n_info[k] > 4) /* past 4 the count is not kept exactly */
                bl_strbuf_puts(&sb, " (and others)");
            else if (col->n_info[k] > 1)
                bl_strbuf_printf(&sb, " (+%zu more)", col->n_info[k] - 1);
            g.cell[j * nc + (size_t)c++] = bl_strbuf_take(&sb);
        }
    }
    bl_strbuf_printf(out, "\n%sSet-ups%s: what each was run with, as its records say.\n\n",
                     md ? "**" : "", md ? "**" : "");
    put_grid(&g, md, out);
    bl_grid_free(&g);
    bl_strbuf_free(&sb);
}

void bl_render_overview(const bl_table *t, const bl_report_opts *o, bl_strbuf *out)
{
    int md = o->format == BL_REPORT_MD;
    if (o->format != BL_REPORT_TEXT && !md)
        return;
    if (o->overview && t->ncols >= 2)
        overview(t, md, out);
    if (o->setups)
        setups(t, md, out);
}
