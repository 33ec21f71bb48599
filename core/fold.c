#include "fold.h"
#include "fields.h"
#include "jsonl.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double pct_of(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (fabs(l->pct[i].pct - p) < 1e-9)
            return l->pct[i].value;
    return BL_ABSENT;
}

void bl_fold_figs(const bl_record *r, double fig[BL_FOLD_N], int *flags)
{
    *flags = 0;
    for (int k = 0; k < BL_FOLD_N; k++)
        fig[k] = BL_ABSENT;
    fig[BL_FOLD_BW] = bl_present(r->bw_bytes_s) ? r->bw_bytes_s / 1e6 : BL_ABSENT;
    fig[BL_FOLD_IOPS] = r->iops;
    fig[BL_FOLD_VALUE] = r->value;
    /* fio prints percentiles of clat by default and of lat only with lat_percentiles=1: each
     * figure comes from the total latency where the record has it, else from clat. */
    const bl_lat *l = r->lat_ns.present && bl_present(r->lat_ns.mean) ? &r->lat_ns : &r->clat_ns;
    if (l->present && bl_present(l->mean)) {
        fig[BL_FOLD_LAT] = l->mean;
        *flags |= l == &r->clat_ns ? BL_FOLD_LAT_CLAT : 0;
    }
    const bl_lat *p = r->lat_ns.present && r->lat_ns.n_pct ? &r->lat_ns : &r->clat_ns;
    if (p->present && p->n_pct) {
        *flags |= BL_FOLD_PCT | (p == &r->clat_ns ? BL_FOLD_PCT_CLAT : 0);
        fig[BL_FOLD_P50] = pct_of(p, 50);
        fig[BL_FOLD_P99] = pct_of(p, 99);
        fig[BL_FOLD_P999] = pct_of(p, 99.9);
    }
    fig[BL_FOLD_CPU] = r->cpu_pct;
    if (r->note && !bl_present(r->bw_bytes_s) && !bl_present(r->iops) && !bl_present(r->value))
        *flags |= BL_FOLD_NOTE_ONLY;
}

/* The fields a shape keeps; the rest (figures, line, run, times, samples) differ between
 * repeats of one set-up and test. */
static const char *const kept[] = {"source",  "tool",       "tool_version", "test",    "op",
                                   "pattern", "bs",         "iodepth",      "numjobs", "ioengine",
                                   "direct",  "size_bytes", "metric",       "unit",    "note"};

int bl_fold_keeps(const char *name)
{
    if (!bl_field_find(name))
        return strcmp(name, "run") != 0 && strcmp(name, "line") != 0; /* a label */
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        if (strcmp(kept[i], name) == 0)
            return 1;
    return 0;
}

void bl_fold_shape(const bl_record *r, bl_strbuf *sb)
{
    bl_record s = {0}; /* borrows r's strings and labels */
    s.source = r->source;
    s.line = -1;
    s.run = 1;
    s.tool = r->tool;
    s.tool_version = r->tool_version;
    s.n_labels = r->n_labels;
    s.labels = r->labels;
    s.test = r->test;
    s.op = r->op;
    s.pattern = r->pattern;
    s.bs = r->bs;
    s.iodepth = r->iodepth;
    s.numjobs = r->numjobs;
    s.ioengine = r->ioengine;
    s.direct = r->direct;
    s.size_bytes = r->size_bytes;
    s.io_bytes = -1;
    s.runtime_s = s.bw_bytes_s = s.iops = s.value = s.cpu_pct = BL_ABSENT;
    s.cpu_usr_pct = s.cpu_sys_pct = BL_ABSENT;
    s.bw_prec = s.iops_prec = BL_ABSENT;
    s.metric = r->metric;
    s.unit = r->unit;
    s.note = r->note;
    bl_record_to_json(&s, sb);
}

void bl_fold_add(bl_fold_group *g, const double fig[BL_FOLD_N], int flags)
{
    for (int k = 0; k < BL_FOLD_N; k++) {
        double x = fig[k];
        if (!bl_present(x))
            continue;
        bl_fold_fig *f = &g->fig[k];
        f->n++;
        bl_xsum_add(&f->sum, x);
        bl_xsum_add_sq(&f->sumsq, x);
        if (f->n == 1 || x < f->lo)
            f->lo = x;
        if (f->n == 1 || x > f->hi)
            f->hi = x;
    }
    if (bl_present(fig[BL_FOLD_LAT]))
        g->lat_from[(flags & BL_FOLD_LAT_CLAT) != 0]++;
    if (flags & BL_FOLD_PCT)
        g->pct_from[(flags & BL_FOLD_PCT_CLAT) != 0]++;
    if (flags & BL_FOLD_NOTE_ONLY)
        g->n_notes++;
}

void bl_fold_group_free(bl_fold_group *g)
{
    for (int k = 0; k < BL_FOLD_N; k++) {
        bl_xsum_free(&g->fig[k].sum);
        bl_xsum_free(&g->fig[k].sumsq);
    }
    bl_record_free(g->shape);
    memset(g, 0, sizeof *g);
}
