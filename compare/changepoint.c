/* E-Divisive with means (changepoint.h). */
#include "changepoint.h"
#include "../core/record.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One point of a segment: its value (scaled), its rank among the segment's values (ties in
 * any order: a tie adds |z - z| = 0 whichever side it stands) and the sum of its distances
 * to all of them; rank and row sum depend on the value alone, so a shuffle carries them. */
typedef struct pt {
    double z, row;
    size_t rank;
} pt;

typedef struct work {
    pt *p, *shuf;
    double *fcnt, *fsum; /* Fenwick trees over ranks, 1-based */
    size_t *order;
} work;

static int cmp_by_value(const void *a, const void *b, void *ctx)
{
    const pt *p = ctx;
    double x = p[*(const size_t *)a].z, y = p[*(const size_t *)b].z;
    return x < y ? -1 : x > y;
}

/* qsort_r is a GNU extension the build enables (-D_GNU_SOURCE). */
static void rank_points(pt *p, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, cmp_by_value, p);
    double total = 0, below = 0;
    for (size_t i = 0; i < n; i++)
        total += p[order[i]].z;
    for (size_t i = 0; i < n; i++) {
        pt *q = &p[order[i]];
        q->rank = i;
        double above = total - below - q->z;
        q->row = q->z * (double)i - below + above - q->z * (double)(n - 1 - i);
        below += q->z;
    }
}

/* The greatest Q over splits of p[0..n) leaving min_seg points either side; its split. */
static double best_split(const pt *p, size_t n, size_t min_seg, work *w, size_t *at)
{
    memset(w->fcnt, 0, (n + 1) * sizeof *w->fcnt);
    memset(w->fsum, 0, (n + 1) * sizeof *w->fsum);
    double all = 0;
    for (size_t i = 0; i < n; i++)
        all += p[i].row;
    all /= 2; /* every pair once */
    double within = 0, between = 0, prev_sum = 0, best = -INFINITY;
    *at = 0;
    for (size_t t = 0; t + 1 < n; t++) {
        double cb = 0, sb = 0; /* count and sum of earlier points ranked below */
        for (size_t i = p[t].rank; i > 0; i -= i & -i) {
            cb += w->fcnt[i];
            sb += w->fsum[i];
        }
        double ca = (double)t - cb, sa = prev_sum - sb;
        double left = cb * p[t].z - sb + sa - ca * p[t].z; /* sum |z_i - z_t|, i < t */
        within += left;
        between += p[t].row - 2 * left; /* t crosses: its distances to the right join */
        for (size_t i = p[t].rank + 1; i <= n; i += i & -i) {
            w->fcnt[i] += 1;
            w->fsum[i] += p[t].z;
        }
        prev_sum += p[t].z;
        double m = (double)(t + 1), k = (double)(n - t - 1);
        if (t + 1 < min_seg || n - t - 1 < min_seg)
            continue;
        double right = all - within - between;
        double e = 2 * between / (m * k) - within / (m * (m - 1) / 2) - right / (k * (k - 1) / 2);
        double q = m * k / (m + k) * e;
        if (q > best) {
            best = q;
            *at = t + 1;
        }
    }
    return best;
}

static uint64_t next_random(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The share of shuffles of p[0..n) whose best Q reaches q, counting the series itself; stops
 * once the answer is surely above alpha. */
static double permutation_p(const pt *p, size_t n, double q, const bl_cp_opts *o, size_t n_perm,
                            uint64_t *rng, work *w)
{
    size_t reach = 0, limit = (size_t)(o->alpha * (double)(n_perm + 1));
    memcpy(w->shuf, p, n * sizeof *p);
    size_t done = 0;
    for (; done < n_perm && reach <= limit; done++) {
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)(next_random(rng) % (i + 1));
            pt tmp = w->shuf[i];
            w->shuf[i] = w->shuf[j];
            w->shuf[j] = tmp;
        }
        size_t at;
        if (best_split(w->shuf, n, o->min_seg, w, &at) >= q * (1 - 1e-12))
            reach++;
    }
    if (done < n_perm) /* stopped early: p is over alpha whatever the rest would say */
        return (double)(reach + 1) / (double)(done + 1);
    return (double)(reach + 1) / (double)(n_perm + 1);
}

double bl_cp_mean(const double *x, size_t from, size_t to)
{
    double s = 0;
    for (size_t i = from; i < to; i++)
        s += x[i];
    return to > from ? s / (double)(to - from) : BL_ABSENT;
}

/* Values centred and scaled to the range of the segment, so that the sums stay small and
 * exact enough whatever the unit (bytes/s reach 10^10). */
static void scale_points(const double *x, size_t n, pt *p)
{
    double lo = x[0], hi = x[0], mean = bl_cp_mean(x, 0, n);
    for (size_t i = 1; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    double scale = hi > lo ? hi - lo : 1;
    for (size_t i = 0; i < n; i++)
        p[i].z = (x[i] - mean) / scale;
}

typedef struct seg {
    size_t from, to; /* [from, to) */
    double q;        /* its best split's Q, -INFINITY when it cannot be split */
    size_t at;       /* that split, absolute */
} seg;

static void seg_best(const double *x, seg *s, const bl_cp_opts *o, work *w)
{
    size_t n = s->to - s->from;
    s->q = -INFINITY;
    if (n < 2 * o->min_seg)
        return;
    scale_points(x + s->from, n, w->p);
    rank_points(w->p, n, w->order);
    size_t at;
    s->q = best_split(w->p, n, o->min_seg, w, &at);
    s->at = s->from + at;
}

static void add_change(bl_cp_result *out, size_t at, double p)
{
    out->v = bl_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
    size_t i = out->n++;
    while (i > 0 && out->v[i - 1].at > at) {
        out->v[i] = out->v[i - 1];
        i--;
    }
    out->v[i] = (bl_change){.at = at, .p = p};
}

void bl_cp_describe(const double *x, size_t n, int lower_better, bl_cp_result *out)
{
    for (size_t i = 0; i < out->n; i++) {
        bl_change *c = &out->v[i];
        size_t from = i ? out->v[i - 1].at : 0, to = i + 1 < out->n ? out->v[i + 1].at : n;
        c->before = bl_cp_mean(x, from, c->at);
        c->after = bl_cp_mean(x, c->at, to);
        c->pct = c->before != 0 ? (c->after - c->before) / fabs(c->before) * 100 : BL_ABSENT;
        c->regression = lower_better ? c->after > c->before : c->after < c->before;
    }
}

void bl_changepoints(const double *x, size_t n, const bl_cp_opts *opts, int lower_better,
                     bl_cp_result *out)
{
    bl_cp_opts o = *opts;
    o.alpha = o.alpha > 0 ? o.alpha : 0.01;
    o.min_seg = o.min_seg >= 2 ? o.min_seg : 3;
    uint64_t rng = o.seed ? o.seed : 1;
    memset(out, 0, sizeof *out);
    /* enough shuffles that p can fall to alpha / 2 */
    out->n_perm = o.alpha >= 0.01 ? 199 : (size_t)ceil(2 / o.alpha) - 1;
    if (n < 2 * o.min_seg) {
        out->too_short = 1;
        return;
    }
    work w = {.p = bl_xcalloc(n, sizeof(pt)),
              .shuf = bl_xcalloc(n, sizeof(pt)),
              .fcnt = bl_xcalloc(n + 1, sizeof(double)),
              .fsum = bl_xcalloc(n + 1, sizeof(double)),
              .order = bl_xcalloc(n, sizeof(size_t))};
    size_t nseg = 1;
    seg *segs = bl_xcalloc(n / o.min_seg + 1, sizeof *segs);
    segs[0] = (seg){0, n, 0, 0};
    seg_best(x, &segs[0], &o, &w);
    for (;;) {
        size_t b = 0;
        for (size_t i = 1; i < nseg; i++)
            if (segs[i].q > segs[b].q)
                b = i;
        if (!isfinite(segs[b].q))
            break;
        seg s = segs[b];
        /* the segment's points as seg_best left them for another segment: made again */
        seg_best(x, &s, &o, &w);
        double p = permutation_p(w.p, s.to - s.from, s.q, &o, out->n_perm, &rng, &w);
        if (p > o.alpha)
            break;
        add_change(out, s.at, p);
        segs[b] = (seg){s.from, s.at, 0, 0};
        segs[nseg++] = (seg){s.at, s.to, 0, 0};
        seg_best(x, &segs[b], &o, &w);
        seg_best(x, &segs[nseg - 1], &o, &w);
    }
    free(segs);
    free(w.p);
    free(w.shuf);
    free(w.fcnt);
    free(w.fsum);
    free(w.order);
    bl_cp_describe(x, n, lower_better, out);
}

void bl_cp_result_free(bl_cp_result *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}
