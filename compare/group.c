#include "group.h"
#include "../core/strbuf.h"
#include "smap.h"
#include <stdlib.h>
#include <string.h>

static const char *src_of(const bl_table *t, size_t j)
{
    return t->cols[j].source ? t->cols[j].source : "";
}

void bl_groups_make(const bl_table *t, int across, bl_groups *out)
{
    memset(out, 0, sizeof *out);
    bl_smap at = {0};
    out->v = bl_xcalloc(t->ncols + 1, sizeof *out->v);
    for (size_t j = 0; j < t->ncols; j++) {
        long g = across ? (out->n ? 0 : -1) : bl_smap_get(&at, src_of(t, j));
        if (g < 0) {
            g = (long)out->n++;
            out->v[g].name = bl_xstrdup(across ? "every set-up" : src_of(t, j));
            out->v[g].cols = bl_xcalloc(t->ncols, sizeof(size_t));
            bl_smap_put(&at, src_of(t, j), (size_t)g);
        }
        bl_group *gr = &out->v[g];
        gr->cols[gr->ncols++] = j;
    }
    bl_smap_free(&at);
    for (size_t g = 0; g < out->n; g++) {
        bl_group *gr = &out->v[g];
        for (size_t i = 0; i < t->nrows; i++) {
            int any = 0;
            for (size_t k = 0; k < gr->ncols; k++) {
                size_t n = bl_table_cell(t, i, gr->cols[k])->n_recs;
                gr->records += n;
                any |= n > 0;
            }
            gr->nrows += any;
        }
    }
    /* By source name; groups of one name keep the order first seen (stable). */
    for (size_t a = 1; a < out->n; a++)
        for (size_t b = a; b > 0 && strcmp(out->v[b - 1].name, out->v[b].name) > 0; b--) {
            bl_group tmp = out->v[b];
            out->v[b] = out->v[b - 1];
            out->v[b - 1] = tmp;
        }
}

void bl_groups_free(bl_groups *g)
{
    for (size_t k = 0; k < g->n; k++) {
        free(g->v[k].name);
        free(g->v[k].cols);
    }
    free(g->v);
    memset(g, 0, sizeof *g);
}

static char *dup_or_null(const char *s)
{
    return s ? bl_xstrdup(s) : NULL;
}

bl_table *bl_table_subset(const bl_table *t, const size_t *cols, size_t ncols)
{
    return bl_table_subset_rows(t, NULL, 0, cols, ncols);
}

bl_table *bl_table_subset_rows(const bl_table *t, const size_t *only, size_t nonly,
                               const size_t *cols, size_t ncols)
{
    bl_table *s = bl_xcalloc(1, sizeof *s);
    *s = *t;
    s->strs = NULL; /* borrowed from t */
    s->nstrs = s->strs_cap = 0;
    s->by = dup_or_null(t->by);
    s->baseline = -1;
    s->rows = bl_xcalloc(t->nrows + 1, sizeof *s->rows);
    s->cols = bl_xcalloc(ncols + 1, sizeof *s->cols);
    size_t *rows = bl_xcalloc(t->nrows + 1, sizeof *rows), nr = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        int any = 0;
        for (size_t k = 0; k < ncols && !any; k++)
            any = bl_table_cell(t, i, cols[k])->n_recs > 0;
        for (size_t q = 0; only && any && q < nonly && only[q] != i; q++)
            any = q + 1 < nonly;
        if (any)
            rows[nr++] = i;
    }
    s->nrows = nr;
    s->ncols = ncols;
    for (size_t r = 0; r < nr; r++) {
        s->rows[r] = t->rows[rows[r]];
        s->rows[r].test = dup_or_null(t->rows[rows[r]].test);
        s->rows[r].title = dup_or_null(t->rows[rows[r]].title);
    }
    for (size_t k = 0; k < ncols; k++) {
        s->cols[k] = t->cols[cols[k]];
        s->cols[k].key = dup_or_null(t->cols[cols[k]].key);
        s->cols[k].title = dup_or_null(t->cols[cols[k]].title);
        s->cols[k].label = dup_or_null(t->cols[cols[k]].label);
        for (int i = 0; i < BL_SETUP_INFO_N; i++) /* (the subset owns its copies too) */
            s->cols[k].info[i] = dup_or_null(t->cols[cols[k]].info[i]);
        if ((long)cols[k] == t->baseline)
            s->baseline = (long)k;
    }
    s->cells = bl_xcalloc(nr * ncols + 1, sizeof *s->cells);
    s->n_records = 0;
    s->n_flagged = 0;
    s->n_unlabelled = 0;
    for (size_t k = 0; k < ncols; k++)
        s->n_unlabelled += s->cols[k].unlabelled != 0;
    s->any_repeat = 0;
    for (size_t r = 0; r < nr; r++)
        for (size_t k = 0; k < ncols; k++) {
            const bl_cell *from = bl_table_cell(t, rows[r], cols[k]);
            bl_cell *to = bl_table_cell(s, r, k);
            *to = *from;
            for (int m = 0; m < BL_M_COUNT; m++) {
                bl_stat_copy(&to->m[m], &from->m[m]);
                s->any_repeat |= from->m[m].n > 1;
            }
            s->n_records += from->n_recs;
            s->n_flagged += bl_present(from->flag);
        }
    free(rows);
    return s;
}
