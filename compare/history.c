/* Series over time and their changes (history.h). */
#include "history.h"
#include "../core/filter.h"
#include "../core/strbuf.h"
#include "fmt.h"
#include "setups.h"
#include "smap.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A series while records come: one test of one set-up, every metric's figure per record. */
typedef struct hser {
    char *key, *setup, *test, *tool, *unit;
    size_t n, cap;
    time_t *t;
    double *v;  /* per record the figures of want[] */
    char **src; /* with o.sources: distinct sources */
    size_t nsrc;
} hser;

struct bl_hist_builder {
    bl_hist_opts o;
    bl_metric want[BL_M_COUNT]; /* the figures kept: --metric's, else those a main one can be */
    size_t nw;
    bl_smap map;
    bl_smap srcs;   /* "series index \x1f source" seen; keys in srckeys */
    char **srckeys; /* owned */
    size_t nsrckeys;
    hser *s;
    size_t ns, cap;
    bl_strbuf key, name;
    size_t n_records, n_untimed, n_untested;
    /* bl_history_add_figs: the series of each shape seen, by its address (open addressing:
     * a store of many sources holds a shape per source and test, 100,000 and more) */
    const bl_record **shape;
    size_t *shape_series, nshape, shape_cap;
};

static double pct_of(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (fabs(l->pct[i].pct - p) < 1e-9)
            return l->pct[i].value;
    return BL_ABSENT;
}

/* As table.c's cells read a record. */
double bl_hist_figure(const bl_record *r, bl_metric m)
{
    const bl_lat *l = r->lat_ns.present && bl_present(r->lat_ns.mean) ? &r->lat_ns : &r->clat_ns;
    const bl_lat *p = r->lat_ns.present && r->lat_ns.n_pct ? &r->lat_ns : &r->clat_ns;
    switch (m) {
    case BL_M_BW:
        return bl_present(r->bw_bytes_s) ? r->bw_bytes_s / 1e6 : BL_ABSENT;
    case BL_M_IOPS:
        return r->iops;
    case BL_M_LAT:
        return l->present ? l->mean : BL_ABSENT;
    case BL_M_P50:
        return p->present ? pct_of(p, 50) : BL_ABSENT;
    case BL_M_P99:
        return p->present ? pct_of(p, 99) : BL_ABSENT;
    case BL_M_P999:
        return p->present ? pct_of(p, 99.9) : BL_ABSENT;
    case BL_M_VALUE:
        return r->value;
    case BL_M_CPU:
        return r->cpu_pct;
    default:
        return BL_ABSENT;
    }
}

bl_hist_builder *bl_history_begin(const bl_hist_opts *o)
{
    bl_hist_builder *b = bl_xcalloc(1, sizeof *b);
    b->o = *o;
    static const bl_metric mains[] = {BL_M_BW, BL_M_IOPS, BL_M_VALUE};
    for (size_t i = 0; i < (o->n_metrics ? o->n_metrics : 3) && i < BL_M_COUNT; i++)
        b->want[b->nw++] = o->n_metrics ? o->metrics[i] : mains[i];
    bl_strbuf_init(&b->key);
    bl_strbuf_init(&b->name);
    return b;
}

/* One part of the set-up: into the key always (absent as empty), into the name when present. */
static void part(bl_hist_builder *b, const char *k, const char *v)
{
    bl_strbuf_putc(&b->key, '\x1f');
    if (!v || !*v)
        return;
    for (const char *c = v; *c; c++)
        bl_strbuf_putc(&b->key, *c == '\x1f' ? ' ' : *c);
    bl_strbuf_puts(&b->name, " · ");
    if (k)
        bl_strbuf_printf(&b->name, "%s=", k);
    bl_strbuf_puts(&b->name, v);
}

/* Of the comparison's identity (setup_plan.c's desc[]), what a series leaves out: the source,
 * since each night's run comes in a file of its own (a series is the same set-up over many
 * sources), and what identity() puts in its key before the rest. */
static int in_series_key_already(const char *name)
{
    static const char *const skip[] = {"source", "section", "column", "host", "tool"};
    for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
        if (strcmp(name, skip[i]) == 0)
            return 1;
    return 0;
}

static void identity(bl_hist_builder *b, const bl_record *r)
{
    char buf[1024];
    bl_strbuf_reset(&b->key);
    bl_strbuf_reset(&b->name);
    bl_strbuf_puts(&b->key, r->tool ? r->tool : "");
    bl_strbuf_puts(&b->name, r->tool ? r->tool : "?");
    if (b->o.n_by) {
        for (size_t i = 0; i < b->o.n_by; i++)
            part(b, b->o.by[i], bl_record_field_text(r, b->o.by[i], buf, sizeof buf));
    } else {
        part(b, NULL, bl_record_label(r, "section"));
        part(b, NULL, bl_record_label(r, "column"));
        part(b, "host", bl_record_label(r, "host"));
        for (size_t i = 0; i + 1 < bl_setup_n_desc; i++) /* size_bytes (last) aside */
            if (!in_series_key_already(bl_setup_desc[i]))
                part(b, bl_setup_desc[i],
                     bl_record_field_text(r, bl_setup_desc[i], buf, sizeof buf));
    }
    part(b, NULL, bl_record_label(r, "scope"));
    bl_strbuf_putc(&b->key, '\x1e');
    bl_setup_row_key(r, &b->key);
}

static char *test_title(const bl_record *r)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, r->test);
    if (r->bs > 0) {
        bl_strbuf_putc(&sb, ' ');
        bl_fmt_size(&sb, r->bs);
    }
    if (r->iodepth > 0)
        bl_strbuf_printf(&sb, " Q%lld", (long long)r->iodepth);
    if (r->numjobs > 0)
        bl_strbuf_printf(&sb, "%sT%lld", r->iodepth > 0 ? "" : " ", (long long)r->numjobs);
    return bl_strbuf_take(&sb);
}

static hser *series_of(bl_hist_builder *b, const bl_record *r)
{
    identity(b, r);
    long i = bl_smap_get(&b->map, b->key.s);
    if (i >= 0)
        return &b->s[i];
    bl_grow((void **)&b->s, &b->cap, b->ns + 1, sizeof *b->s);
    hser *s = &b->s[b->ns];
    *s = (hser){.key = bl_xstrdup(b->key.s),
                .setup = bl_xstrdup(b->name.s),
                .test = test_title(r),
                .tool = bl_xstrdup(r->tool ? r->tool : "")};
    bl_smap_put(&b->map, s->key, b->ns++);
    return s;
}

static size_t shape_slot(const bl_hist_builder *b, const bl_record *r)
{
    uint64_t x = (uint64_t)(uintptr_t)r;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL; /* the finaliser of MurmurHash3: addresses differ in few bits */
    x ^= x >> 33;
    size_t i = (size_t)x & (b->shape_cap - 1);
    while (b->shape[i] && b->shape[i] != r)
        i = (i + 1) & (b->shape_cap - 1);
    return i;
}

static void shapes_grow(bl_hist_builder *b)
{
    const bl_record **old = b->shape;
    size_t *old_series = b->shape_series, old_cap = b->shape_cap;
    b->shape_cap = old_cap ? 2 * old_cap : 64;
    b->shape = bl_xcalloc(b->shape_cap, sizeof *b->shape);
    b->shape_series = bl_xcalloc(b->shape_cap, sizeof *b->shape_series);
    for (size_t k = 0; k < old_cap; k++)
        if (old[k]) {
            size_t i = shape_slot(b, old[k]);
            b->shape[i] = old[k];
            b->shape_series[i] = old_series[k];
        }
    free(old);
    free(old_series);
}

/* The series of a shape (bl_history_add_figs: its set-up is the same at one address). */
static hser *series_of_shape(bl_hist_builder *b, const bl_record *r)
{
    if (2 * (b->nshape + 1) > b->shape_cap)
        shapes_grow(b);
    size_t i = shape_slot(b, r);
    if (!b->shape[i]) {
        b->shape[i] = r;
        b->shape_series[i] = (size_t)(series_of(b, r) - b->s);
        b->nshape++;
    }
    return &b->s[b->shape_series[i]];
}

/* A source once per series; a source's records follow one another, so the last is checked
 * first and the map only when it differs. */
static void add_source(bl_hist_builder *b, hser *s, const char *src)
{
    if (s->nsrc && strcmp(s->src[s->nsrc - 1], src) == 0)
        return;
    bl_strbuf_reset(&b->name);
    bl_strbuf_printf(&b->name, "%zu\x1f%s", (size_t)(s - b->s), src);
    if (bl_smap_get(&b->srcs, b->name.s) >= 0)
        return;
    b->srckeys = bl_xrealloc(b->srckeys, (b->nsrckeys + 1) * sizeof *b->srckeys);
    b->srckeys[b->nsrckeys] = bl_strbuf_take(&b->name);
    bl_smap_put(&b->srcs, b->srckeys[b->nsrckeys++], 0);
    s->src = bl_xrealloc(s->src, (s->nsrc + 1) * sizeof *s->src);
    s->src[s->nsrc++] = bl_xstrdup(src);
}

static void add(bl_hist_builder *b, const bl_record *r, const double *fig);

void bl_history_add(bl_hist_builder *b, const bl_record *r)
{
    add(b, r, NULL);
}

void bl_history_add_figs(bl_hist_builder *b, const bl_record *r, const double *fig)
{
    add(b, r, fig);
}

static void add(bl_hist_builder *b, const bl_record *r, const double *fig)
{
    time_t t;
    if (!r->test || !*r->test) {
        b->n_untested++;
        return;
    }
    if (bl_when_get(r, &t) != 0) {
        b->n_untimed++;
        return;
    }
    b->n_records++;
    hser *s = fig ? series_of_shape(b, r) : series_of(b, r);
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->t = bl_xrealloc(s->t, s->cap * sizeof *s->t);
        s->v = bl_xrealloc(s->v, s->cap * b->nw * sizeof *s->v);
    }
    s->t[s->n] = t;
    for (size_t w = 0; w < b->nw; w++) {
        double x = fig ? fig[b->want[w]] : bl_hist_figure(r, b->want[w]);
        s->v[s->n * b->nw + w] = x;
    }
    if (!s->unit && r->unit)
        s->unit = bl_xstrdup(r->unit);
    s->n++;
    if (b->o.sources && r->source)
        add_source(b, s, r->source);
}

static int cmp_time(const void *a, const void *b, void *ctx)
{
    const time_t *t = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return t[i] < t[j] ? -1 : t[i] > t[j] ? 1 : (i > j) - (i < j);
}

/* The points of s for its figure w (of nw kept); 0 when no record has it. */
static size_t make_points(const hser *s, size_t w, size_t nw, bl_metric m, const size_t *order,
                          bl_hist_series *out)
{
    int lower = bl_metric_lower_better(m);
    size_t times = s->n ? 1 : 0;
    for (size_t k = 1; k < s->n; k++)
        times += s->t[order[k]] != s->t[order[k - 1]];
    out->p = bl_xcalloc(times + 1, sizeof *out->p);
    out->n = 0;
    for (size_t k = 0; k < s->n;) {
        time_t t = s->t[order[k]];
        bl_hist_point *p = &out->p[out->n];
        memset(p, 0, sizeof *p);
        for (; k < s->n && s->t[order[k]] == t; k++)
            bl_stat_add(&p->s, s->v[order[k] * nw + w]);
        if (!p->s.n)
            continue;
        bl_stat_finish(&p->s, BL_REP_MEAN, lower);
        p->t = t;
        bl_when_format(t, p->when);
        out->n++;
    }
    return out->n;
}

/* Which of want[] (bw, iops, value) is the series' main figure. */
static size_t main_metric(const hser *s)
{
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < s->n; i++)
            if (!isnan(s->v[i * 3 + k]))
                return k;
    return 0;
}

static void emit(bl_history *h, const hser *s, const bl_hist_builder *b, size_t w,
                 const size_t *order)
{
    const bl_cp_opts *cp = &b->o.cp;
    bl_metric m = b->want[w];
    bl_hist_series out = {0};
    if (!make_points(s, w, b->nw, m, order, &out)) {
        free(out.p);
        return;
    }
    out.setup = bl_xstrdup(s->setup);
    out.test = bl_xstrdup(s->test);
    if (s->nsrc) {
        out.sources = bl_xcalloc(s->nsrc, sizeof *out.sources);
        for (size_t i = 0; i < s->nsrc; i++)
            out.sources[i] = bl_xstrdup(s->src[i]);
        out.n_sources = s->nsrc;
    }
    out.tool = bl_xstrdup(s->tool);
    out.metric = m;
    out.lower_better = bl_metric_lower_better(m);
    out.unit = m == BL_M_VALUE ? s->unit : bl_metric_unit(m);
    if (out.unit)
        out.unit = bl_xstrdup(out.unit);
    double *x = bl_xcalloc(out.n, sizeof *x), *logs = bl_xcalloc(out.n, sizeof *logs);
    int positive = 1;
    for (size_t i = 0; i < out.n; i++) {
        x[i] = out.p[i].s.mean;
        positive &= x[i] > 0;
        logs[i] = positive ? log(x[i]) : 0;
    }
    bl_changepoints(positive ? logs : x, out.n, cp, out.lower_better, &out.cp);
    bl_cp_describe(x, out.n, out.lower_better, &out.cp);
    free(x);
    free(logs);
    h->v = bl_xrealloc(h->v, (h->n + 1) * sizeof *h->v);
    h->v[h->n++] = out;
}

static int cmp_series(const void *a, const void *b)
{
    const bl_hist_series *x = a, *y = b;
    int c = strcmp(x->setup, y->setup);
    if (!c)
        c = strcmp(x->test, y->test);
    return c ? c : (int)x->metric - (int)y->metric;
}

bl_history *bl_history_end(bl_hist_builder *b)
{
    bl_history *h = bl_xcalloc(1, sizeof *h);
    h->n_records = b->n_records;
    h->n_untimed = b->n_untimed;
    h->n_untested = b->n_untested;
    h->alpha = b->o.cp.alpha > 0 ? b->o.cp.alpha : 0.01;
    h->min_seg = b->o.cp.min_seg ? b->o.cp.min_seg : 3;
    for (size_t i = 0; i < b->ns; i++) {
        hser *s = &b->s[i];
        size_t *order = bl_xcalloc(s->n, sizeof *order);
        for (size_t k = 0; k < s->n; k++)
            order[k] = k;
        qsort_r(order, s->n, sizeof *order, cmp_time, s->t);
        if (b->o.n_metrics)
            for (size_t w = 0; w < b->nw; w++)
                emit(h, s, b, w, order);
        else
            emit(h, s, b, main_metric(s), order);
        free(order);
        free(s->key);
        free(s->setup);
        free(s->test);
        free(s->tool);
        free(s->unit);
        free(s->t);
        free(s->v);
        for (size_t k = 0; k < s->nsrc; k++)
            free(s->src[k]);
        free(s->src);
    }
    for (size_t k = 0; k < b->nsrckeys; k++)
        free(b->srckeys[k]);
    free(b->srckeys);
    bl_smap_free(&b->srcs);
    if (h->n)
        qsort(h->v, h->n, sizeof *h->v, cmp_series);
    free(b->s);
    bl_smap_free(&b->map);
    bl_strbuf_free(&b->key);
    bl_strbuf_free(&b->name);
    free(b->shape);
    free(b->shape_series);
    free(b);
    return h;
}

void bl_history_free(bl_history *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++) {
        bl_hist_series *s = &h->v[i];
        for (size_t k = 0; k < s->n; k++)
            bl_stat_free(&s->p[k].s);
        free(s->p);
        free(s->setup);
        free(s->test);
        free(s->tool);
        free((char *)s->unit);
        bl_cp_result_free(&s->cp);
        for (size_t k = 0; k < s->n_sources; k++)
            free(s->sources[k]);
        free(s->sources);
    }
    free(h->v);
    free(h);
}

/* The figure as the interval sees it: its log when every figure is positive (throughput and
 * latency are, and their noise multiplies: a run twice as fast is as far as one half as
 * fast), else itself. */
static double scaled(double v, int logs)
{
    return logs ? log(v) : v;
}

/* Mean and sample stdev of the points' (scaled) means in [from, to). */
static void spread(const bl_hist_series *s, size_t from, size_t to, int logs, double *mean,
                   double *sd)
{
    double sum = 0, sq = 0;
    for (size_t i = from; i < to; i++)
        sum += scaled(s->p[i].s.mean, logs);
    *mean = sum / (double)(to - from);
    for (size_t i = from; i < to; i++) {
        double d = scaled(s->p[i].s.mean, logs) - *mean;
        sq += d * d;
    }
    *sd = to - from > 1 ? sqrt(sq / (double)(to - from - 1)) : 0;
}

void bl_hist_check(const bl_hist_series *s, size_t last, time_t since, size_t min_seg, double alpha,
                   bl_hist_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->p = v->lo = v->hi = v->pct = BL_ABSENT;
    min_seg = min_seg >= 2 ? min_seg : 3;
    size_t k = 0;
    if (last)
        k = last < s->n ? last : s->n;
    else
        while (k < s->n && s->p[s->n - 1 - k].t >= since)
            k++;
    v->newest = k;
    if (!k) {
        v->note = "no new runs";
        return;
    }
    size_t first = s->n - k, start = 0;
    for (size_t i = 0; i < s->cp.n; i++) {
        const bl_change *c = &s->cp.v[i];
        if (c->at < first) {
            start = c->at;
            continue;
        }
        /* a change among the newest runs: the first one decides */
        *v = (bl_hist_verdict){.regression = c->regression,
                               .newest = k,
                               .at = c->at,
                               .before = c->before,
                               .after = c->after,
                               .pct = c->pct,
                               .p = c->p,
                               .lo = BL_ABSENT,
                               .hi = BL_ABSENT};
        return;
    }
    if (k >= min_seg) /* enough points that a change among them would have been found */
        return;
    v->at = first;
    if (first - start < 2) {
        v->note = "too few runs before the newest to judge them";
        return;
    }
    int logs = 1;
    for (size_t i = start; i < s->n; i++)
        logs &= s->p[i].s.mean > 0;
    double mean, sd, after = 0;
    spread(s, start, first, logs, &mean, &sd);
    for (size_t i = first; i < s->n; i++)
        after += scaled(s->p[i].s.mean, logs);
    after /= (double)k;
    double m = (double)(first - start);
    /* Why this bound. If the k newest points come from the segment before them (the same
     * normal noise around the same mean, on the log scale), their mean minus the segment's,
     * over sd * sqrt(1/k + 1/m), follows Student's t with m - 1 degrees of freedom: the new
     * mean and the old are independent normals, and sd, the segment's own, is independent of
     * both. Only the worse side raises the alarm, so the bound is t's one-sided quantile: with
     * P(T > t) = alpha, flat noise crosses it with probability alpha, what --alpha promises for
     * a change point too. The 95% two-sided interval used before (t at 0.975) was crossed on
     * the worse side 2.5% of the time: one flat series in forty was a false alarm where alpha
     * 0.01 promises one in a hundred (tests/test_changepoint.c measures both). */
    double half = bl_t_upper(alpha > 0 ? alpha : 0.01, first - start - 1) * sd *
                  sqrt(1.0 / (double)k + 1.0 / m);
    v->by_interval = 1;
    double sum = 0;
    for (size_t i = start; i < first; i++)
        sum += s->p[i].s.mean;
    v->before = sum / m;
    sum = 0;
    for (size_t i = first; i < s->n; i++)
        sum += s->p[i].s.mean;
    v->after = sum / (double)k;
    v->pct = v->before != 0 ? (v->after - v->before) / fabs(v->before) * 100 : BL_ABSENT;
    v->lo = logs ? exp(mean - half) : mean - half;
    v->hi = logs ? exp(mean + half) : mean + half;
    int low = after<mean - half, high = after> mean + half;
    v->regression = s->lower_better ? high : low;
}
