/* One series for the N logs of a numjobs=N job, given together (NAME_bw.1.log ...
 * NAME_bw.N.log): fio's own tools leave them as N series.
 *
 * Logs merge when they have the same job name, kind, direction and folder and different job
 * numbers. Bandwidth and IOPS of averaged logs (log_avg_msec) are summed window by window
 * (a window counts when every job has a value in it); the merged figure is the sum of the
 * jobs' means. Latency logs merge as a distribution: their histogram bins add up, so the
 * percentiles are those of all I/Os (or windows, for averaged logs, as their note says);
 * the mean is weighted by each log's sample count. Raw (per-I/O) bandwidth logs are not
 * summed: one I/O's rate plus another's is no rate. Label merged_jobs says how many. */
#include "fio_log_merge.h"
#include "../core/latency.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_of(const bl_record *r)
{
    return r->n_series ? r->series[0].name : NULL;
}

static char *folder_of(const char *source)
{
    const char *slash = source ? strrchr(source, '/') : NULL;
    return slash ? bl_xstrndup(source, (size_t)(slash - source)) : bl_xstrdup("");
}

static int same_group(const bl_record *a, const bl_record *b)
{
    const char *ja = bl_record_label(a, "job"), *jb = bl_record_label(b, "job");
    const char *na = bl_record_label(a, "jobnum"), *nb = bl_record_label(b, "jobnum");
    if (!ja || !jb || !na || !nb || strcmp(ja, jb) != 0 || strcmp(na, nb) == 0)
        return 0;
    if (!a->op || !b->op || strcmp(a->op, b->op) != 0 || !kind_of(a) || !kind_of(b) ||
        strcmp(kind_of(a), kind_of(b)) != 0)
        return 0;
    char *fa = folder_of(a->source), *fb = folder_of(b->source);
    int same = strcmp(fa, fb) == 0;
    free(fa);
    free(fb);
    return same;
}

static int is_rate(const char *kind)
{
    return strcmp(kind, "bw") == 0 || strcmp(kind, "iops") == 0;
}

/* Window length of an averaged series: the smallest step between its points, ms. */
static double window_of(const bl_series *s)
{
    double w = INFINITY;
    for (size_t i = 1; i < s->n; i++)
        if (s->t[i] - s->t[i - 1] > 0 && s->t[i] - s->t[i - 1] < w)
            w = s->t[i] - s->t[i - 1];
    return w;
}

/* Per-window sums of the members' series into dst (windows every member has). */
static void sum_windows(bl_record **m, size_t n, bl_series *dst)
{
    double w = window_of(&m[0]->series[0]);
    if (!isfinite(w))
        return;
    const bl_series *s0 = &m[0]->series[0];
    for (size_t i = 0; i < s0->n; i++) {
        long k = lround(s0->t[i] / w);
        double sum = s0->v[i];
        size_t have = 1;
        for (size_t j = 1; j < n; j++) {
            const bl_series *s = &m[j]->series[0];
            for (size_t q = 0; q < s->n; q++)
                if (lround(s->t[q] / w) == k) {
                    sum += s->v[q];
                    have++;
                    break;
                }
        }
        if (have == n)
            bl_series_push(dst, s0->t[i], sum);
    }
}

static uint64_t bins_total(const bl_lat *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        n += l->bins[i].count;
    return n;
}

static int cmp_bin(const void *a, const void *b)
{
    const bl_bin *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

static bl_lat *lat_of(bl_record *r)
{
    return r->clat_ns.present ? &r->clat_ns : r->slat_ns.present ? &r->slat_ns : &r->lat_ns;
}

static bl_lat *lat_by_kind(bl_record *r, const char *kind)
{
    return strcmp(kind, "slat") == 0  ? &r->slat_ns
           : strcmp(kind, "lat") == 0 ? &r->lat_ns
                                      : &r->clat_ns;
}

static void merge_latency(bl_record **m, size_t n, bl_record *r)
{
    bl_lat *dst = lat_of(r); /* r is a clone of m[0]: same latency object */
    double min = INFINITY, max = -INFINITY, wsum = 0, wn = 0;
    for (size_t j = 0; j < n; j++) {
        const bl_lat *l = lat_of(m[j]);
        min = fmin(min, l->min);
        max = fmax(max, l->max);
        double c = (double)bins_total(l);
        wsum += l->mean * c;
        wn += c;
    }
    free(dst->pct);
    dst->pct = NULL;
    dst->n_pct = 0;
    /* add every member's bins: equal values (fio's bucket values) add up */
    for (size_t j = 1; j < n; j++) {
        const bl_lat *l = lat_of(m[j]);
        for (size_t i = 0; i < l->n_bins; i++) {
            size_t k = 0;
            while (k < dst->n_bins && dst->bins[k].value != l->bins[i].value)
                k++;
            if (k < dst->n_bins)
                dst->bins[k].count += l->bins[i].count;
            else
                bl_lat_add_bin(dst, l->bins[i].value, l->bins[i].count);
        }
    }
    if (dst->n_bins > 1)
        qsort(dst->bins, dst->n_bins, sizeof *dst->bins, cmp_bin);
    dst->min = min;
    dst->max = max;
    dst->mean = wn > 0 ? wsum / wn : BL_ABSENT;
    dst->stdev = BL_ABSENT; /* the members' spreads do not add into one */
    if (dst->n_bins)
        bl_lat_percentiles_from_bins(dst);
}

/* Averaged latency logs (log_avg_msec) hold no I/O latency figure unless fio_log_weight.c
 * weighted them: the merged mean is then their means weighted by their I/O counts; if any
 * member was not weighted, the merged record has none either. */
static void merge_averaged_latency(bl_record **m, size_t n, bl_record *r, const char *kind)
{
    bl_lat *dst = lat_by_kind(r, kind);
    double wsum = 0, wn = 0;
    bl_strbuf by;
    bl_strbuf_init(&by);
    for (size_t j = 0; j < n; j++) {
        const bl_lat *l = lat_by_kind(m[j], kind);
        const char *ios = bl_record_label(m[j], "log_ios");
        double c = ios ? strtod(ios, NULL) : 0;
        if (!l->present || !bl_present(l->mean) || !(c > 0)) {
            wn = 0;
            break;
        }
        wsum += l->mean * c;
        wn += c;
        bl_strbuf_printf(&by, "%s%s", j ? "," : "", bl_record_label(m[j], "weighted_by"));
    }
    if (wn > 0) {
        dst->mean = wsum / wn;
        char b[32];
        snprintf(b, sizeof b, "%.0f", wn);
        bl_record_set_label(r, "log_ios", b);
        bl_record_set_label(r, "weighted_by", by.s);
        bl_record_set_str(&r->note, "fio logs written with log_avg_msec: the mean is the jobs' "
                                    "weighted means weighted by their I/O counts; min, max and "
                                    "percentiles of single I/Os are not in averaged logs");
    } else {
        dst->present = false; /* an averaged log's latency has no bins or percentiles */
        dst->mean = BL_ABSENT;
        bl_record_del_label(r, "log_ios");
        bl_record_del_label(r, "weighted_by");
        bl_record_set_str(&r->note,
                          "fio logs written with log_avg_msec, not all weighted by an IOPS log: "
                          "no latency figure (a mean of window means is not the I/Os' mean)");
    }
    bl_strbuf_free(&by);
}

/* The merged record of members m[0..n) (same job, kind, direction), or NULL. */
static bl_record *merge_group(bl_record **m, size_t n)
{
    const char *kind = kind_of(m[0]);
    int averaged = bl_record_label(m[0], "log_avg") != NULL;
    if (is_rate(kind) && !averaged)
        return NULL;
    bl_record *r = bl_record_clone(m[0]);
    for (size_t i = 0; i < r->n_series; i++) {
        free(r->series[i].name);
        free(r->series[i].unit);
        free(r->series[i].t);
        free(r->series[i].v);
    }
    r->n_series = 0;
    bl_strbuf logs;
    bl_strbuf_init(&logs);
    for (size_t j = 0; j < n; j++)
        bl_strbuf_printf(&logs, "%s%s", j ? "," : "", bl_record_label(m[j], "log"));
    bl_record_set_label(r, "log", logs.s);
    bl_strbuf_free(&logs);
    bl_strbuf nums;
    bl_strbuf_init(&nums);
    for (size_t j = 0; j < n; j++)
        bl_strbuf_printf(&nums, "%s%s", j ? "," : "", bl_record_label(m[j], "jobnum"));
    bl_record_set_label(r, "jobnum", nums.s);
    bl_strbuf_free(&nums);
    char nj[24];
    snprintf(nj, sizeof nj, "%zu", n);
    bl_record_set_label(r, "merged_jobs", nj);
    r->numjobs = (int64_t)n;
    if (is_rate(kind)) {
        bl_series *s = bl_record_add_series(r, kind, m[0]->series[0].unit);
        double sum = 0;
        for (size_t j = 0; j < n; j++)
            sum += strcmp(kind, "bw") == 0 ? m[j]->bw_bytes_s : m[j]->iops;
        if (strcmp(kind, "bw") == 0)
            r->bw_bytes_s = sum;
        else
            r->iops = sum;
        r->bw_samples.present = r->iops_samples.present = false;
        sum_windows(m, n, s);
    } else if (averaged)
        merge_averaged_latency(m, n, r, kind);
    else
        merge_latency(m, n, r);
    return r;
}

static int cmp_jobnum(const void *a, const void *b)
{
    const bl_record *x = *(bl_record *const *)a, *y = *(bl_record *const *)b;
    long long i = atoll(bl_record_label(x, "jobnum")), j = atoll(bl_record_label(y, "jobnum"));
    return i < j ? -1 : i > j;
}

void bl_fio_logs_merge(const bl_records *in, bl_records *out)
{
    size_t *used = bl_xcalloc(in->n + 1, sizeof *used);
    bl_record **m = bl_xcalloc(in->n + 1, sizeof *m);
    for (size_t i = 0; i < in->n; i++) {
        if (used[i] || !bl_record_label(in->v[i], "jobnum") || !kind_of(in->v[i]))
            continue;
        size_t n = 0;
        m[n++] = in->v[i];
        for (size_t j = i + 1; j < in->n; j++)
            if (!used[j] && same_group(in->v[i], in->v[j])) {
                int dup = 0;
                for (size_t k = 0; k < n; k++)
                    dup |= strcmp(bl_record_label(m[k], "jobnum"),
                                  bl_record_label(in->v[j], "jobnum")) == 0;
                if (!dup) {
                    m[n++] = in->v[j];
                    used[j] = 1;
                }
            }
        if (n < 2)
            continue;
        /* in job order, whatever the order the files came in: the same logs, the same record */
        qsort(m, n, sizeof *m, cmp_jobnum);
        bl_record *r = merge_group(m, n);
        if (r)
            bl_records_push(out, r);
    }
    free(m);
    free(used);
}
