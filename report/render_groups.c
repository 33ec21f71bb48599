/* The text and Markdown reports by comparison group: one walk over the groups, the two formats
 * differing only in how a line is escaped, how a heading is marked and which table is drawn. */
#include "../compare/fmt.h"
#include "../compare/group.h"
#include "../core/escape.h"
#include "render.h"
#include <stdlib.h>
#include <string.h>

#define SEP " · "

/* Imported text on one line as the format shows it. */
static void put(const bl_report_opts *o, bl_strbuf *out, const char *s)
{
    if (o->format == BL_REPORT_MD)
        bl_esc_md(out, s);
    else
        bl_esc_term(out, s, BL_ESC_LINE);
}

static const char *s_of(size_t n)
{
    return n == 1 ? "" : "s";
}

/* The overview: one line a group, in the page's order, with its counts. */
static void overview(const bl_groups *gs, const bl_report_opts *o, bl_strbuf *out)
{
    int md = o->format == BL_REPORT_MD;
    bl_strbuf_printf(out,
                     "%s: %zu comparison groups, the set-ups of one source each\n"
                     "(a FILTER or --by makes one group of the set-ups chosen)\n%s",
                     md ? "**Overview**" : "Overview", gs->n, md ? "\n" : "");
    for (size_t k = 0; k < gs->n; k++) {
        const bl_group *gr = &gs->v[k];
        bl_strbuf_printf(out, md ? "%zu. " : "%4zu. ", k + 1);
        put(o, out, bl_basename(gr->name));
        bl_strbuf_printf(out, "%s%zu set-up%s · %zu test%s · %zu record%s\n", md ? " — " : "  ",
                         gr->ncols, s_of(gr->ncols), gr->nrows, s_of(gr->nrows), gr->records,
                         s_of(gr->records));
    }
}

/* Within a group its source goes without saying: "001.txt · iSCSI · 1 GbE" is "iSCSI · 1 GbE"
 * under the group's heading (a title that is the source alone stays). */
static void drop_source(bl_table *sub, const char *source)
{
    const char *base = bl_basename(source);
    size_t n = strlen(base);
    for (size_t k = 0; k < sub->ncols; k++) {
        char *ti = sub->cols[k].title;
        if (!ti || strncmp(ti, base, n) != 0 || strncmp(ti + n, SEP, strlen(SEP)) != 0 ||
            !ti[n + strlen(SEP)])
            continue;
        sub->cols[k].title = bl_xstrdup(ti + n + strlen(SEP));
        free(ti);
    }
}

int bl_render_groups(const bl_table *t, const bl_report_opts *o, bl_strbuf *out)
{
    if (o->format != BL_REPORT_TEXT && o->format != BL_REPORT_MD)
        return 0;
    int md = o->format == BL_REPORT_MD;
    bl_groups gs;
    bl_groups_make(t, o->across || t->by || t->baseline >= 0, &gs);
    if (gs.n < 2) {
        bl_groups_free(&gs);
        return 0;
    }
    if (o->title) {
        bl_strbuf_puts(out, md ? "## " : "");
        if (md)
            bl_esc_md(out, o->title);
        else
            bl_esc_term(out, o->title, 0);
        bl_strbuf_puts(out, "\n\n");
    }
    overview(&gs, o, out);
    for (size_t k = 0; k < gs.n; k++) {
        const bl_group *gr = &gs.v[k];
        bl_table *sub = bl_table_subset(t, gr->cols, gr->ncols);
        drop_source(sub, gr->name);
        bl_strbuf_printf(out, md ? "\n### %zu. " : "\n%zu. ", k + 1);
        put(o, out, gr->name);
        bl_strbuf_printf(out, " · %zu set-up%s\n\n", gr->ncols, s_of(gr->ncols));
        bl_grid g;
        bl_grid_build(sub, o, &g);
        if (md) {
            bl_render_grid_md(&g, out);
        } else {
            bl_grid_escape_term(&g);
            bl_render_text_table(&g, o, out);
        }
        bl_grid_free(&g);
        bl_table_free(sub);
    }
    bl_groups_free(&gs);
    bl_report_footnote(t, o, out, "\n");
    return 1;
}
