#include "fio_clones.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include "fio_common.h"
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* I/Os of a job as fio counts them (its group_reporting divides them by the run time):
 * iops x run time, or io / bs where that agrees within print (more digits: "1476.0KB" vs
 * "iops=72"); -1 when neither is known. fio 2.0.15's io= can hold more than the I/Os it
 * counted (corpus: io/bs is 1.2x iops x runt), and then its count is taken. */
static double ios_of(const bl_record *r)
{
    double counted = bl_present(r->iops) && bl_present(r->runtime_s) ? r->iops * r->runtime_s : -1;
    if (r->io_bytes >= 0 && r->bs > 0) {
        double by_io = (double)r->io_bytes / (double)r->bs;
        if (counted < 0 || fabs(by_io - counted) <= 0.02 * counted)
            return by_io;
    }
    return counted;
}

/* fio's sum_stat: the means weighted by sample counts, S = sum of squared deviations merged
 * (Chan et al.), stdev = sqrt(S / (N - 1)). */
static void merge_lat(bl_record *const *v, size_t n, const double *w, size_t off, bl_lat *out)
{
    double sw = 0, swm = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        const bl_lat *l = (const bl_lat *)((const char *)v[i] + off);
        if (!l->present || !bl_present(l->mean) || w[i] < 0)
            return;
        sw += w[i];
        swm += w[i] * l->mean;
        lo = bl_present(l->min) && l->min < lo ? l->min : lo;
        hi = bl_present(l->max) && l->max > hi ? l->max : hi;
    }
    if (sw <= 0)
        return;
    out->present = true;
    out->mean = swm / sw;
    out->min = isfinite(lo) ? lo : BL_ABSENT;
    out->max = isfinite(hi) ? hi : BL_ABSENT;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        const bl_lat *l = (const bl_lat *)((const char *)v[i] + off);
        if (!bl_present(l->stdev) || w[i] < 1)
            return;
        double d = l->mean - out->mean;
        s += (w[i] - 1) * l->stdev * l->stdev + w[i] * d * d;
    }
    out->stdev = sw > 1 ? sqrt(s / (sw - 1)) : BL_ABSENT;
}

static bl_record *make_total(bl_record *const *v, size_t n)
{
    const bl_record *f = v[0];
    bl_record *t = bl_record_new();
    bl_record_set_str(&t->source, f->source);
    t->line = f->line;
    t->run = f->run;
    bl_record_set_str(&t->tool, f->tool);
    bl_record_set_str(&t->tool_version, f->tool_version);
    for (size_t i = 0; i < f->n_labels; i++)
        bl_record_set_label(t, f->labels[i].key, f->labels[i].value);
    bl_record_set_str(&t->test, f->test);
    bl_record_set_str(&t->op, f->op);
    bl_record_set_str(&t->pattern, f->pattern);
    bl_record_set_str(&t->ioengine, f->ioengine);
    t->bs = f->bs;
    t->iodepth = f->iodepth;
    t->direct = f->direct;
    t->size_bytes = f->size_bytes;
    t->numjobs = (int64_t)n;
    double io = 0, rt = 0, ios = 0, bw = 0, iops = 0, *w = bl_xcalloc(n, sizeof *w);
    int whole = 1;
    for (size_t i = 0; i < n; i++) {
        w[i] = ios_of(v[i]);
        whole &= v[i]->io_bytes >= 0 && bl_present(v[i]->runtime_s) && w[i] >= 0;
        io += (double)v[i]->io_bytes;
        rt = bl_present(v[i]->runtime_s) && v[i]->runtime_s > rt ? v[i]->runtime_s : rt;
        ios += w[i];
        bw += v[i]->bw_bytes_s;
        iops += v[i]->iops;
    }
    if (whole && rt > 0) {
        t->io_bytes = bl_count_or(io, -1);
        t->runtime_s = rt;
        t->bw_bytes_s = io / rt;
        t->iops = ios / rt;
    } else { /* without io and run time: the rates added (NaN stays absent) */
        t->bw_bytes_s = bw;
        t->iops = iops;
    }
    merge_lat(v, n, w, offsetof(bl_record, slat_ns), &t->slat_ns);
    merge_lat(v, n, w, offsetof(bl_record, clat_ns), &t->clat_ns);
    merge_lat(v, n, w, offsetof(bl_record, lat_ns), &t->lat_ns);
    free(w);
    for (size_t i = 0; i < f->n_disks; i++)
        bl_fio_add_disk(&t, 1, &f->disks[i]);
    char note[256];
    snprintf(note, sizeof note,
             "total of %zu job blocks of job '%s' that ran at once (numjobs without "
             "group_reporting): io summed, bw and iops over the longest run time, latency "
             "weighted by I/Os, as group_reporting gives them; no percentiles",
             n, bl_record_label(f, "job"));
    bl_record_set_str(&t->note, note);
    bl_record_set_label(t, "scope", "group total");
    return t;
}

/* Ordering of possibly-NULL labels: absent before present. */
static int cmp_label(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

/* A record's place among its clones' keys: the same job of the same fio (a --client server is
 * a host of its own), group and direction, then the order of the text. */
typedef struct {
    const char *job, *group, *host, *op, *ddir;
    size_t idx;
} clone_key;

static clone_key key_of(const bl_record *r, size_t idx)
{
    return (clone_key){bl_record_label(r, "job"),  bl_record_label(r, "group"),
                       bl_record_label(r, "host"), r->op,
                       bl_record_label(r, "ddir"), idx};
}

/* A job block's record that may have clones: named, grouped, one job, not yet scoped (k its
 * labels, scope its "scope": looked up once, a record's labels being a list). */
static int is_job(const bl_record *r, const clone_key *k, const char *scope)
{
    return k->job && k->group && !k->host && !scope && r->numjobs <= 1 && r->op;
}

static int cmp_clone_identity(const clone_key *a, const clone_key *b)
{
    int c = cmp_label(a->job, b->job);
    c = c ? c : cmp_label(a->group, b->group);
    c = c ? c : cmp_label(a->host, b->host);
    c = c ? c : cmp_label(a->op, b->op);
    return c ? c : cmp_label(a->ddir, b->ddir);
}

static int cmp_clone_key(const void *pa, const void *pb)
{
    const clone_key *a = pa, *b = pb;
    int c = cmp_clone_identity(a, b);
    return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* Group and direction only: the records a "Run status group" line adds up. */
static int cmp_group_op(const void *pa, const void *pb)
{
    const clone_key *a = pa, *b = pb;
    int c = cmp_label(a->group, b->group);
    return c ? c : cmp_label(a->op, b->op);
}

/* A set of clones: where its members start in the sorted keys, how many, and the first
 * member's place in the text (totals are appended in the order the jobs first appear). */
typedef struct {
    size_t at, n, first;
} clone_set;

static int cmp_set_first(const void *pa, const void *pb)
{
    const clone_set *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

/* The status line's group total of this group and direction, when the group held no other
 * unscoped records of that direction than these n clones before any was labelled (counted
 * once, up front: a group holding two numjobs jobs has an aggregate of both, which neither
 * job's total alone can be checked against). by_group: the run's unscoped records' keys
 * sorted by group and direction. */
static const bl_record *status_of(const clone_key *by_group, size_t n_by_group,
                                  const bl_records *status, const bl_record *first, size_t n)
{
    if (bl_record_label(first, "host"))
        return NULL;
    clone_key probe = key_of(first, 0);
    /* bounds by bisection: walking the range made a JSON of N jobs of one group N^2 work */
    size_t lo = 0, hi = n_by_group;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_group_op(&by_group[mid], &probe) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t top = lo, end = n_by_group;
    while (top < end) {
        size_t mid = top + (end - top) / 2;
        if (cmp_group_op(&by_group[mid], &probe) <= 0)
            top = mid + 1;
        else
            end = mid;
    }
    if (top - lo != n)
        return NULL;
    for (size_t i = 0; i < status->n; i++)
        if (same(bl_record_label(status->v[i], "group"), probe.group) &&
            same(status->v[i]->op, first->op))
            return status->v[i];
    return NULL;
}

static void label_clones(bl_record *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char b[48];
        snprintf(b, sizeof b, "job %zu/%zu", i + 1, n);
        bl_record_set_label(v[i], "scope", b);
    }
}

/* Adds the total of one set of clones, or refuses it where the status line disagrees. */
static void add_total(bl_parse_out *out, bl_record *const *v, size_t n, const bl_record *st)
{
    bl_record *t = make_total(v, n);
    label_clones(v, n);
    /* fio prints 3-4 digits of each job's io and of the aggregate: 1% is print, more is
     * a text that does not add up (a block lost or retyped). */
    if (st && bl_present(st->bw_bytes_s) && bl_present(t->bw_bytes_s) &&
        fabs(st->bw_bytes_s - t->bw_bytes_s) > 0.01 * st->bw_bytes_s) {
        bl_out_error(out, st->line,
                     "fio group %s: aggregate bandwidth %.0f B/s is not the %zu job blocks' "
                     "io over the longest run time (%.0f B/s); their total is not given",
                     bl_record_label(t, "group"), st->bw_bytes_s, n, t->bw_bytes_s);
        bl_record_free(t);
        return;
    }
    bl_records_push(&out->recs, t);
}

/* Sorting the job records by their clone keys finds every set in n log n: a fio JSON of
 * 47,000 jobs compared each job with every later one. */
void bl_fio_clone_totals(bl_parse_out *out, size_t run_first, const bl_records *status)
{
    size_t end = out->recs.n, nk = 0, ng = 0, ns = 0;
    clone_key *keys = bl_xcalloc(end - run_first + 1, sizeof *keys);
    clone_key *by_group = bl_xcalloc(end - run_first + 1, sizeof *by_group);
    for (size_t i = run_first; i < end; i++) {
        const bl_record *r = out->recs.v[i];
        clone_key k = key_of(r, i);
        const char *scope = bl_record_label(r, "scope");
        if (is_job(r, &k, scope))
            keys[nk++] = k;
        if (!scope)
            by_group[ng++] = k;
    }
    qsort(keys, nk, sizeof *keys, cmp_clone_key);
    qsort(by_group, ng, sizeof *by_group, cmp_group_op);
    clone_set *sets = bl_xcalloc(nk + 1, sizeof *sets);
    for (size_t i = 0; i < nk;) {
        size_t j = i + 1;
        while (j < nk && cmp_clone_identity(&keys[i], &keys[j]) == 0)
            j++;
        if (j - i >= 2)
            sets[ns++] = (clone_set){i, j - i, keys[i].idx};
        i = j;
    }
    qsort(sets, ns, sizeof *sets, cmp_set_first);
    bl_record **v = bl_xcalloc(nk + 1, sizeof *v);
    for (size_t s = 0; s < ns; s++) {
        for (size_t k = 0; k < sets[s].n; k++)
            v[k] = out->recs.v[keys[sets[s].at + k].idx];
        add_total(out, v, sets[s].n, status_of(by_group, ng, status, v[0], sets[s].n));
    }
    free(v);
    free(sets);
    free(by_group);
    free(keys);
}
