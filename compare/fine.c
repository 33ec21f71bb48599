#include "fine.h"
#include "../core/fields.h"
#include "../core/filter.h"
#include "../core/strbuf.h"
#include "stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bl_fines_init(bl_fines *f, const char *by, int keep)
{
    memset(f, 0, sizeof *f);
    f->by = by ? bl_xstrdup(by) : NULL;
    f->keep = keep;
    bl_setup_desc_fields(f->desc_f);
    for (int k = 0; k < BL_SETUP_INFO_N; k++) {
        f->info_f[k] = bl_field_find(bl_setup_info_keys[k]);
        if (f->info_f[k] && !bl_field_is_scalar(f->info_f[k]))
            f->info_f[k] = NULL;
    }
    bl_strbuf_init(&f->row);
    bl_strbuf_init(&f->desc);
    bl_strbuf_init(&f->key);
}

/* A record's value of key k of bl_setup_info_keys, as bl_record_field_text gives it. */
static const char *info_of(const bl_fines *f, const bl_record *r, int k, char *buf, size_t n)
{
    return f->info_f[k] ? bl_field_text(f->info_f[k], r, buf, n)
                        : bl_record_label(r, bl_setup_info_keys[k]);
}

void bl_fine_info_add(bl_fine_info *i, const char *v, size_t at)
{
    size_t k = 0;
    while (k < i->n && strcmp(i->v[k], v) != 0)
        k++;
    if (k < i->n) { /* known: it was first seen at the least of its sequence numbers */
        if (at < i->at[k])
            i->at[k] = at;
        return;
    }
    if (i->n < BL_FINE_INFO) {
        i->v[i->n] = bl_xstrdup(v);
        i->at[i->n++] = at;
        return;
    }
    /* Full: v replaces the latest seen, if it came earlier. A value dropped here has
     * BL_FINE_INFO values seen before it, so it is none of the first BL_FINE_INFO. */
    size_t last = 0;
    for (k = 1; k < i->n; k++)
        if (i->at[k] > i->at[last])
            last = k;
    if (at >= i->at[last])
        return;
    free(i->v[last]);
    i->v[last] = bl_xstrdup(v);
    i->at[last] = at;
}

void bl_fine_info_free(bl_fine_info *i)
{
    for (size_t k = 0; k < i->n; k++)
        free(i->v[k]);
    i->n = 0;
}

/* A string's length, then the string: keys of joined parts that no label can make collide. */
static void part(bl_strbuf *k, const char *s)
{
    if (!s) {
        bl_strbuf_puts(k, "-;");
        return;
    }
    bl_strbuf_printf(k, "%zu:%s;", strlen(s), s);
}

static bl_fine *group_of(bl_fines *f, const bl_record *r, int row_setup)
{
    char buf[4096];
    const char *setup = bl_setup_col_key(r, f->by, row_setup, buf, sizeof buf);
    bl_strbuf_reset(&f->row);
    bl_strbuf_reset(&f->key);
    bl_setup_row_key(r, &f->row);
    bl_setup_describe_with(r, f->desc_f, &f->desc);
    part(&f->key, setup);
    part(&f->key, f->row.s);
    part(&f->key, f->desc.s);
    part(&f->key, r->tool);
    part(&f->key, r->source);
    long at = bl_smap_get(&f->map, f->key.s);
    if (at >= 0)
        return &f->v[at];
    bl_grow((void **)&f->v, &f->cap, f->n + 1, sizeof *f->v);
    bl_grow((void **)&f->keys, &f->kcap, f->n + 1, sizeof *f->keys);
    bl_fine *g = &f->v[f->n];
    memset(g, 0, sizeof *g);
    g->setup = bl_xstrdup(setup);
    g->row = bl_xstrdup(f->row.s);
    g->desc = bl_xstrdup(f->desc.s);
    g->test = bl_xstrdup(r->test);
    g->bs = r->bs;
    g->iodepth = r->iodepth;
    g->numjobs = r->numjobs < 0 ? 1 : r->numjobs;
    g->tool = r->tool ? bl_xstrdup(r->tool) : NULL;
    g->source = r->source ? bl_xstrdup(r->source) : NULL;
    g->unit_at = g->note_at = SIZE_MAX;
    for (int k = 0; k < BL_M_COUNT; k++)
        g->c.m[k].keep = f->keep;
    f->keys[f->n] = bl_xstrdup(f->key.s);
    bl_smap_put(&f->map, f->keys[f->n], f->n);
    f->n++;
    return g;
}

_Static_assert((int)BL_FOLD_BW == (int)BL_M_BW && (int)BL_FOLD_IOPS == (int)BL_M_IOPS &&
                   (int)BL_FOLD_LAT == (int)BL_M_LAT && (int)BL_FOLD_P50 == (int)BL_M_P50 &&
                   (int)BL_FOLD_P99 == (int)BL_M_P99 && (int)BL_FOLD_P999 == (int)BL_M_P999 &&
                   (int)BL_FOLD_VALUE == (int)BL_M_VALUE && (int)BL_FOLD_CPU == (int)BL_M_CPU &&
                   (int)BL_FOLD_N == (int)BL_M_COUNT,
               "fold figures are the cell's metrics");

/* What the walk's seq-th record (r, its figures already in g's cell) adds but figures. */
static void add_firsts(bl_fines *f, bl_fine *g, const bl_record *r, size_t seq);

void bl_fines_add(bl_fines *f, const bl_record *r, int row_setup)
{
    size_t seq = f->seq++;
    if (!r->test || !*r->test) {
        f->n_left_out++;
        return;
    }
    bl_fine *g = group_of(f, r, row_setup);
    bl_cell_fold(&g->c, r);
    add_firsts(f, g, r, seq);
}

void bl_fines_add_fold(bl_fines *f, const bl_fold_group *fg)
{
    const bl_record *r = fg->shape;
    if (!r->test || !*r->test) {
        f->n_left_out += fg->n_recs;
        return;
    }
    bl_fine *g = group_of(f, r, 0);
    bl_cell *c = &g->c;
    c->n_recs += fg->n_recs;
    c->n_notes += fg->n_notes;
    for (int k = 0; k < 2; k++) {
        c->lat_from[k] += fg->lat_from[k];
        c->pct_from[k] += fg->pct_from[k];
    }
    for (int k = 0; k < BL_M_COUNT; k++) {
        const bl_fold_fig *x = &fg->fig[k];
        bl_stat src = {.n = x->n, .sum = x->sum, .sumsq = x->sumsq, .lo = x->lo, .hi = x->hi};
        bl_stat_merge(&c->m[k], &src); /* src borrows x's sums */
    }
    add_firsts(f, g, r, (size_t)fg->first);
}

static void add_firsts(bl_fines *f, bl_fine *g, const bl_record *r, size_t seq)
{
    if (r->unit && !g->c.unit) {
        g->c.unit = bl_xstrdup(r->unit);
        g->unit_at = seq;
    }
    if (r->note && !g->c.note) {
        g->c.note = bl_xstrdup(r->note);
        g->note_at = seq;
    }
    for (int k = 0; k < BL_SETUP_INFO_N; k++) {
        char buf[64];
        if (g->info[k].n == BL_FINE_INFO)
            continue; /* in order: the first values stay */
        const char *v = info_of(f, r, k, buf, sizeof buf);
        if (v && *v && !strchr(v, '\x1f'))
            bl_fine_info_add(&g->info[k], v, seq);
    }
}

void bl_fines_free(bl_fines *f)
{
    for (size_t i = 0; i < f->n; i++) {
        bl_fine *g = &f->v[i];
        free(g->setup);
        free(g->row);
        free(g->desc);
        free(g->test);
        free(g->tool);
        free(g->source);
        free((char *)g->c.unit);
        free((char *)g->c.note);
        for (int k = 0; k < BL_M_COUNT; k++)
            bl_stat_free(&g->c.m[k]);
        for (int k = 0; k < BL_SETUP_INFO_N; k++)
            bl_fine_info_free(&g->info[k]);
        free(f->keys[i]);
    }
    free(f->v);
    free(f->keys);
    bl_smap_free(&f->map);
    free(f->by);
    bl_strbuf_free(&f->row);
    bl_strbuf_free(&f->desc);
    bl_strbuf_free(&f->key);
    memset(f, 0, sizeof *f);
}
