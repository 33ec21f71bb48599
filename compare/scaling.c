/* Records -> the scaling matrix (scaling.h). */
#include "scaling.h"
#include "../core/latency.h"
#include "../core/strbuf.h"
#include "fmt.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const param_names[] = {"iodepth", "numjobs", "bs"};

const char *bl_scale_param_name(bl_scale_param p)
{
    return (unsigned)p < BL_SCALE_N ? param_names[p] : "?";
}

static int64_t param_of(const bl_record *r, bl_scale_param p)
{
    return p == BL_SCALE_IODEPTH ? r->iodepth : p == BL_SCALE_NUMJOBS ? r->numjobs : r->bs;
}

static bool has_figures(const bl_record *r)
{
    return bl_present(r->iops) || bl_present(r->bw_bytes_s);
}

/* Whether parameter p takes two values or more among the usable records. */
static bool varies(const bl_records *recs, bl_scale_param p)
{
    int64_t first = -1;
    for (size_t i = 0; i < recs->n; i++) {
        int64_t v = param_of(recs->v[i], p);
        if (v < 0 || !has_figures(recs->v[i]))
            continue;
        if (first < 0)
            first = v;
        else if (v != first)
            return true;
    }
    return false;
}

static int pick_x(const bl_records *recs, bl_scale_param *x)
{
    for (size_t i = 0; i < recs->n; i++) {
        const char *keys = bl_record_label(recs->v[i], "sweep");
        for (const char *k = keys; k && *k;) {
            size_t len = strcspn(k, ",");
            for (int p = 0; p < BL_SCALE_N; p++)
                if (strlen(param_names[p]) == len && strncmp(k, param_names[p], len) == 0 &&
                    varies(recs, (bl_scale_param)p)) {
                    *x = (bl_scale_param)p;
                    return 0;
                }
            k += len + (k[len] == ',');
        }
    }
    for (int p = 0; p < BL_SCALE_N; p++)
        if (varies(recs, (bl_scale_param)p)) {
            *x = (bl_scale_param)p;
            return 0;
        }
    return -1;
}

/* Whether a text field takes several values among the records. */
static bool text_varies(const bl_records *recs, char *(*get)(const bl_record *))
{
    const char *first = NULL;
    for (size_t i = 0; i < recs->n; i++) {
        const char *v = get(recs->v[i]);
        v = v ? v : "";
        if (!first)
            first = v;
        else if (strcmp(first, v) != 0)
            return true;
    }
    return false;
}

static char *get_test(const bl_record *r)
{
    return r->test;
}

static char *get_op(const bl_record *r)
{
    return r->op;
}

static void line_name(const bl_record *r, bl_scale_param x, const bool *vary, bool test_v,
                      bool op_v, const char *by, bl_strbuf *sb)
{
    const char *sep = "";
    for (int p = 0; p < BL_SCALE_N; p++) {
        if (p == (int)x || !vary[p])
            continue;
        int64_t v = param_of(r, (bl_scale_param)p);
        if (p == BL_SCALE_BS && v >= 0) {
            bl_strbuf_printf(sb, "%sbs=", sep);
            bl_fmt_size(sb, v);
        } else
            bl_strbuf_printf(sb, "%s%s=%lld", sep, param_names[p], (long long)v);
        sep = " · ";
    }
    if (test_v || op_v) {
        bl_strbuf_printf(sb, "%s%s", sep, test_v && r->test ? r->test : r->op ? r->op : "");
        if (test_v && op_v && r->op && r->test && !strstr(r->test, r->op))
            bl_strbuf_printf(sb, " %s", r->op);
        sep = " · ";
    }
    if (by) {
        const char *v = bl_record_label(r, by);
        bl_strbuf_printf(sb, "%s%s=%s", sep, by, v ? v : "(none)");
    }
}

/* p99 of total latency where reported, else completion; from percentiles, else bins. */
static double p99_of(const bl_lat *l)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (fabs(l->pct[i].pct - 99) < 1e-9)
            return l->pct[i].value;
    if (l->n_bins && bl_lat_bin_total(l) >= 100) {
        static const double p = 99;
        double v;
        bl_bins_percentiles(l->bins, l->n_bins, &p, 1, &v);
        return v;
    }
    return BL_ABSENT;
}

static const bl_lat *lat_of(const bl_record *r, int *kind)
{
    if (r->lat_ns.present && bl_present(r->lat_ns.mean)) {
        *kind = 0;
        return &r->lat_ns;
    }
    *kind = 1;
    return r->clat_ns.present ? &r->clat_ns : NULL;
}

static bl_scale_point *point_for(bl_scale_line *l, int64_t x, bl_repeats mode)
{
    size_t i = 0;
    while (i < l->n && l->v[i].x < x)
        i++;
    if (i < l->n && l->v[i].x == x)
        return &l->v[i];
    l->v = bl_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    memmove(&l->v[i + 1], &l->v[i], (l->n - i) * sizeof *l->v);
    l->n++;
    bl_scale_point *p = &l->v[i];
    memset(p, 0, sizeof *p);
    p->x = x;
    int keep = mode == BL_REP_MEDIAN;
    p->iops.keep = p->bw.keep = p->lat.keep = p->p99.keep = keep;
    return p;
}

int bl_scaling_build(const bl_records *recs, const char *by, bl_repeats mode, bl_scaling *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (pick_x(recs, &out->x) != 0) {
        snprintf(err, errlen,
                 "the records form no scaling matrix: none of iodepth, numjobs, bs takes two "
                 "values among %s with IOPS or bandwidth",
                 bl_count(recs->n, "record").s);
        return 1;
    }
    bool vary[BL_SCALE_N];
    for (int p = 0; p < BL_SCALE_N; p++)
        vary[p] = varies(recs, (bl_scale_param)p);
    bool test_v = text_varies(recs, get_test), op_v = text_varies(recs, get_op);
    int kinds = 0, p99_kinds = 0;
    bl_strbuf name;
    bl_strbuf_init(&name);
    for (size_t i = 0; i < recs->n; i++) {
        const bl_record *r = recs->v[i];
        int64_t x = param_of(r, out->x);
        if (x < 0 || !has_figures(r)) {
            out->left_out++;
            continue;
        }
        bl_strbuf_free(&name);
        bl_strbuf_init(&name);
        bl_strbuf_puts(&name, "");
        line_name(r, out->x, vary, test_v, op_v, by, &name);
        size_t l = 0;
        while (l < out->n && strcmp(out->v[l].name, name.s) != 0)
            l++;
        if (l == out->n) {
            out->v = bl_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
            out->v[out->n++] = (bl_scale_line){bl_xstrdup(name.s), 0, NULL};
        }
        bl_scale_point *p = point_for(&out->v[l], x, mode);
        bl_stat_add(&p->iops, r->iops);
        bl_stat_add(&p->bw, r->bw_bytes_s);
        int k;
        const bl_lat *lat = lat_of(r, &k);
        if (lat) {
            kinds |= 1 << k;
            bl_stat_add(&p->lat, lat->mean);
            double p99 = p99_of(lat);
            int pk = k;
            if (!bl_present(p99) && k == 0 && r->clat_ns.present) {
                p99 = p99_of(&r->clat_ns); /* fio prints clat percentiles only, by default */
                pk = 1;
            }
            if (bl_present(p99))
                p99_kinds |= 1 << pk;
            bl_stat_add(&p->p99, p99);
        }
    }
    bl_strbuf_free(&name);
    out->lat_kind = kinds == 3 ? 2 : kinds == 2 ? 1 : 0;
    out->p99_kind = p99_kinds == 3 ? 2 : p99_kinds == 2 ? 1 : 0;
    for (size_t l = 0; l < out->n; l++)
        for (size_t i = 0; i < out->v[l].n; i++) {
            bl_scale_point *p = &out->v[l].v[i];
            bl_stat_finish(&p->iops, mode, 0);
            bl_stat_finish(&p->bw, mode, 0);
            bl_stat_finish(&p->lat, mode, 1);
            bl_stat_finish(&p->p99, mode, 1);
        }
    return 0;
}

void bl_scaling_free(bl_scaling *s)
{
    for (size_t l = 0; l < s->n; l++) {
        for (size_t i = 0; i < s->v[l].n; i++) {
            bl_scale_point *p = &s->v[l].v[i];
            bl_stat_free(&p->iops);
            bl_stat_free(&p->bw);
            bl_stat_free(&p->lat);
            bl_stat_free(&p->p99);
        }
        free(s->v[l].v);
        free(s->v[l].name);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}
