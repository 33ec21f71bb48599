/* report --layout cdm: CrystalDiskMark's panel as a table. Each CrystalDiskMark-family set-up
 * (CrystalDiskMark, KDiskMark, fio-cdm) gets a Read and a Write column; each of its tests a
 * row named as CrystalDiskMark names it (SEQ1M Q8T1, RND4K Q32T16), in the table's order,
 * which is CrystalDiskMark's. */
#include "../core/strbuf.h"
#include "../core/escape.h"
#include "render.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "SEQ1M Q8T1" for seq-read 1MiB Q8T1; NULL for a test CrystalDiskMark does not run. */
static char *cdm_name(const bl_row *r, int *write)
{
    int seq = strncmp(r->test, "seq-", 4) == 0, rnd = strncmp(r->test, "rand-", 5) == 0;
    const char *op = r->test + (seq ? 4 : 5);
    if ((!seq && !rnd) || (strcmp(op, "read") != 0 && strcmp(op, "write") != 0) || r->bs <= 0 ||
        r->iodepth <= 0)
        return NULL;
    *write = strcmp(op, "write") == 0;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, seq ? "SEQ" : "RND");
    if (r->bs % 1048576 == 0)
        bl_strbuf_printf(&sb, "%lldM", (long long)(r->bs / 1048576));
    else if (r->bs % 1024 == 0)
        bl_strbuf_printf(&sb, "%lldK", (long long)(r->bs / 1024));
    else
        bl_strbuf_printf(&sb, "%lldB", (long long)r->bs);
    bl_strbuf_printf(&sb, " Q%lldT%lld", (long long)r->iodepth,
                     (long long)(r->numjobs > 0 ? r->numjobs : 1));
    return bl_strbuf_take(&sb);
}

typedef struct cdm_row {
    char *name;
    long read, write; /* table rows, -1 none */
} cdm_row;

static size_t cdm_rows(const bl_table *t, cdm_row *out)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        int w = 0;
        char *name = cdm_name(&t->rows[i], &w);
        if (!name)
            continue;
        size_t k = 0;
        while (k < n && strcmp(out[k].name, name) != 0)
            k++;
        if (k == n)
            out[n++] = (cdm_row){name, -1, -1};
        else
            free(name);
        if (w)
            out[k].write = (long)i;
        else
            out[k].read = (long)i;
    }
    return n;
}

static void fig(const bl_table *t, long row, size_t col, bl_strbuf *sb)
{
    if (row < 0)
        return;
    const bl_stat *s = &bl_table_cell(t, (size_t)row, col)->m[BL_M_BW];
    if (!s->n)
        return;
    bl_strbuf_printf(sb, "%.2f", s->fig);
    if (s->n > 1)
        bl_strbuf_printf(sb, " (n=%zu)", s->n);
}

void bl_render_cdm(const bl_table *t, const bl_report_opts *o, bl_strbuf *out)
{
    size_t *cols = bl_xcalloc(t->ncols + 1, sizeof *cols), nc = 0;
    for (size_t j = 0; j < t->ncols; j++)
        if (strcmp(bl_tool_family(t->cols[j].tool), "cdm") == 0)
            cols[nc++] = j;
    cdm_row *rows = bl_xcalloc(t->nrows + 1, sizeof *rows);
    size_t nr = cdm_rows(t, rows);
    bl_grid g = {0};
    g.nrows = nr;
    g.ncols = 1 + 2 * nc;
    g.head = bl_xcalloc(g.ncols, sizeof *g.head);
    g.cell = bl_xcalloc(g.nrows * g.ncols + 1, sizeof *g.cell);
    g.numeric = bl_xcalloc(g.ncols, sizeof *g.numeric);
    g.main_of = bl_xcalloc(g.ncols, sizeof *g.main_of);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    g.head[0] = bl_xstrdup("MB/s");
    for (size_t c = 0; c < nc; c++)
        for (int w = 0; w < 2; w++) {
            size_t k = 1 + 2 * c + (size_t)w;
            bl_strbuf_printf(&sb, "%s%s%s", nc > 1 ? t->cols[cols[c]].title : "",
                             nc > 1 ? " · " : "", w ? "Write" : "Read");
            g.head[k] = bl_strbuf_take(&sb);
            g.numeric[k] = 1;
            g.main_of[k] = -1;
        }
    g.main_of[0] = -1;
    for (size_t i = 0; i < nr; i++) {
        g.cell[i * g.ncols] = rows[i].name;
        for (size_t c = 0; c < nc; c++) {
            fig(t, rows[i].read, cols[c], &sb);
            g.cell[i * g.ncols + 1 + 2 * c] = bl_strbuf_take(&sb);
            fig(t, rows[i].write, cols[c], &sb);
            g.cell[i * g.ncols + 2 + 2 * c] = bl_strbuf_take(&sb);
        }
    }
    if (nc == 1) { /* the set-up's name comes from imported text */
        if (o->format == BL_REPORT_MD) {
            bl_strbuf_puts(out, "## ");
            bl_esc_md(out, t->cols[cols[0]].title);
        } else {
            bl_esc_term(out, t->cols[cols[0]].title, BL_ESC_LINE);
        }
        bl_strbuf_puts(out, "\n\n");
    }
    if (nc == 0)
        bl_strbuf_puts(out, "No CrystalDiskMark-family set-up (CrystalDiskMark, KDiskMark, "
                            "fio-cdm) among the records.\n");
    else if (o->format == BL_REPORT_MD)
        bl_render_grid_md(&g, out);
    else {
        bl_grid_escape_term(&g);
        bl_render_grid(&g, out);
    }
    size_t other_rows = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        int w;
        char *n = cdm_name(&t->rows[i], &w);
        other_rows += n == NULL;
        free(n);
    }
    bl_strbuf_printf(out,
                     "\nCrystalDiskMark's layout: MB/s = 10^6 bytes/s, read and write of each "
                     "test side by side; %zu set-up%s shown",
                     nc, nc == 1 ? "" : "s");
    if (t->ncols > nc)
        bl_strbuf_printf(out, ", %zu of other tools left out", t->ncols - nc);
    if (other_rows)
        bl_strbuf_printf(out, ", %zu test%s CrystalDiskMark does not run left out", other_rows,
                         other_rows == 1 ? "" : "s");
    bl_strbuf_puts(out, ".\n");
    bl_grid_free(&g);
    bl_strbuf_free(&sb);
    free(rows);
    free(cols);
}
