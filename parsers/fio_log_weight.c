/* Weighting the windows of averaged fio latency logs by their I/O counts (see the header).
 *
 * What fio writes (stat.c, add_log_sample and __add_samples, fio 3.x):
 * - a latency window closes at the first completion at least log_avg_msec after the last
 *   close, and holds every I/O completed since the previous entry: entry i covers
 *   (t[i-1], t[i]], t[0] = the job's start; the last one is flushed at the job's end;
 * - the IOPS log's helper samples every log_avg_msec and logs completions*1000/spent over
 *   the time since its previous sample, but writes nothing for a sample without I/O: a gap
 *   longer than a window is either a late helper (the rate covers the whole gap) or idle
 *   samples (the rate covers the last window only). A completion inside the gap, which a
 *   latency window's close proves, rules out idle samples there.
 * Each IOPS span's count (rate x span) is shared among the latency windows it overlaps by
 * overlap / window mean (Little's law: at a steady queue depth completions come at a rate
 * inverse to latency), so a burst of fast I/Os after a stall goes to the fast window, not
 * half to the stall's. A window that has an entry had at least one I/O. The IOPS log stops
 * up to one window before the latency log (fio flushes no last rate): its last rate is
 * carried over at most two windows. */
#include "fio_log_weight.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS_S 0.0005 /* half of fio's 1 ms time unit */

static const char *kind_of(const bl_record *r)
{
    return r->n_series ? r->series[0].name : NULL;
}

static bl_lat *lat_by_kind(bl_record *r, const char *kind)
{
    return strcmp(kind, "slat") == 0  ? &r->slat_ns
           : strcmp(kind, "lat") == 0 ? &r->lat_ns
                                      : &r->clat_ns;
}

static int is_latency(const char *kind)
{
    return kind &&
           (strcmp(kind, "clat") == 0 || strcmp(kind, "slat") == 0 || strcmp(kind, "lat") == 0);
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static size_t folder_len(const char *source)
{
    const char *slash = source ? strrchr(source, '/') : NULL;
    return slash ? (size_t)(slash - source) : 0;
}

/* The IOPS log of the same job and direction as latency record r. */
static int is_partner(const bl_record *r, const bl_record *q)
{
    const char *k = kind_of(q);
    if (!k || strcmp(k, "iops") != 0 || !bl_record_label(q, "log_avg"))
        return 0;
    size_t fr = folder_len(r->source), fq = folder_len(q->source);
    return same_str(bl_record_label(r, "job"), bl_record_label(q, "job")) &&
           same_str(bl_record_label(r, "jobnum"), bl_record_label(q, "jobnum")) &&
           same_str(r->op, q->op) && fr == fq && strncmp(r->source, q->source, fr) == 0;
}

/* fio's log_avg_msec as the IOPS log shows it: its shortest step, the last one left out (a
 * final flush may come early). Seconds; 0 when the log is too short to tell. */
static double window_s(const bl_series *s)
{
    double w = INFINITY;
    for (size_t i = 1; i + 1 < s->n; i++)
        if (s->t[i] - s->t[i - 1] > EPS_S)
            w = fmin(w, s->t[i] - s->t[i - 1]);
    if (!isfinite(w) && s->n == 2)
        w = s->t[1] - s->t[0];
    return isfinite(w) ? w : 0;
}

/* Whether a latency window closes in (a, b]: a completion happened there. */
static int closes_in(const bl_series *lat, double a, double b)
{
    for (size_t i = 0; i < lat->n; i++)
        if (lat->t[i] > a + EPS_S && lat->t[i] <= b + EPS_S)
            return 1;
    return 0;
}

/* Adds count c of span (x, y] to the latency windows it overlaps (see the top). */
static void share_span(const bl_series *lat, double x, double y, double c, double *cnt)
{
    double tot = 0, prev = 0;
    for (int pass = 0; pass < 2; pass++, prev = 0)
        for (size_t i = 0; i < lat->n; prev = lat->t[i], i++) {
            double o = fmin(lat->t[i], y) - fmax(prev, x);
            if (o <= 0 || !(lat->v[i] > 0))
                continue;
            if (pass == 0)
                tot += o / lat->v[i];
            else
                cnt[i] += c * (o / lat->v[i]) / tot;
        }
}

/* Counts per latency window from the IOPS series; returns 0 when the logs do not fit
 * together (then *why says how). */
static int window_counts(const bl_series *lat, const bl_series *iops, double *cnt, const char **why)
{
    double w = window_s(iops);
    if (w <= 0 || lat->n == 0) {
        *why = "the IOPS log is too short to tell its window";
        return 0;
    }
    double lat_end = lat->t[lat->n - 1], iops_end = iops->t[iops->n - 1];
    if (lat_end > iops_end + 2 * w + EPS_S || iops_end > lat_end + 2 * w + EPS_S) {
        *why = "the IOPS log and the latency log do not span the same time";
        return 0;
    }
    double prev = 0;
    for (size_t j = 0; j < iops->n; prev = iops->t[j], j++) {
        double start = prev, t = iops->t[j];
        if (t - prev > 1.5 * w && !closes_in(lat, prev, t - w))
            start = t - w;
        if (t > start)
            share_span(lat, start, t, iops->v[j] * (t - start), cnt);
    }
    if (lat_end > iops_end)
        share_span(lat, iops_end, fmin(lat_end, iops_end + 2 * w),
                   iops->v[iops->n - 1] * (fmin(lat_end, iops_end + 2 * w) - iops_end), cnt);
    for (size_t i = 0; i < lat->n; i++)
        cnt[i] = fmax(cnt[i], 1);
    return 1;
}

static void set_weighted(bl_record *r, const bl_record *q, double mean, double ios)
{
    bl_lat *l = lat_by_kind(r, kind_of(r));
    l->present = true;
    l->min = l->max = l->stdev = BL_ABSENT;
    l->mean = mean;
    bl_record_set_label(r, "weighted_by", bl_record_label(q, "log"));
    char b[32];
    snprintf(b, sizeof b, "%.0f", ios);
    bl_record_set_label(r, "log_ios", b);
    bl_strbuf note;
    bl_strbuf_init(&note);
    bl_strbuf_printf(&note,
                     "fio log written with log_avg_msec: the mean is the window means weighted "
                     "by each window's I/O count, counted from the IOPS log %s (about %.0f I/Os); "
                     "min, max and percentiles of single I/Os are not in an averaged log",
                     bl_record_label(q, "log"), ios);
    bl_record_set_str(&r->note, note.s);
    bl_strbuf_free(&note);
}

/* An IOPS log whose gaps left its run figure unsure (fio_log.c) gets it back from the I/Os
 * counted here over the latency log's time, whose last window fio flushes at the job's end. */
static void recover_iops(bl_record *q, const bl_record *r, double ios, double end_s)
{
    if (bl_present(q->iops) || !(end_s > 0))
        return;
    q->iops = ios / end_s;
    char b[256];
    snprintf(b, sizeof b,
             "IOPS recovered as the %.0f I/Os counted with the latency log %s over its %.3f s", ios,
             bl_record_label(r, "log"), end_s);
    bl_record_add_note(q, b);
}

/* Weights r by q; returns 0 (with *why) when it cannot. */
static int weigh(bl_record *r, bl_record *q, const char **why)
{
    const bl_series *lat = &r->series[0], *iops = &q->series[0];
    const char *nw = bl_record_label(r, "log_windows");
    if (!nw || strtoull(nw, NULL, 10) != lat->n || q->iops_samples.count != (int64_t)iops->n) {
        *why = "the log has more windows than its timeline keeps";
        return 0;
    }
    double *cnt = bl_xcalloc(lat->n + 1, sizeof *cnt);
    int ok = window_counts(lat, iops, cnt, why);
    if (ok) {
        double num = 0, den = 0;
        for (size_t i = 0; i < lat->n; i++) {
            num += cnt[i] * lat->v[i];
            den += cnt[i];
        }
        set_weighted(r, q, num / den, den);
        recover_iops(q, r, den, lat->t[lat->n - 1]);
    }
    free(cnt);
    return ok;
}

static bl_record *find_partner(const bl_record *r, bl_parse_out *outs, size_t n)
{
    for (size_t f = 0; f < n; f++)
        for (size_t k = 0; k < outs[f].recs.n; k++)
            if (is_partner(r, outs[f].recs.v[k]))
                return outs[f].recs.v[k];
    return NULL;
}

void bl_fio_logs_weight(bl_parse_out *outs, size_t n)
{
    for (size_t f = 0; f < n; f++)
        for (size_t k = 0; k < outs[f].recs.n; k++) {
            bl_record *r = outs[f].recs.v[k];
            if (!is_latency(kind_of(r)) || !bl_record_label(r, "log_windows") ||
                lat_by_kind(r, kind_of(r))->present)
                continue;
            bl_record *q = find_partner(r, outs, n);
            const char *why = "give the job's IOPS log (write_iops_log) too to weight them";
            if (q && weigh(r, q, &why))
                continue;
            bl_out_warn(&outs[f], r->line,
                        "warning: fio log written with log_avg_msec: %s mean latency of the %s "
                        "windows "
                        "left out, since a mean of window means is not the I/Os' mean; %s",
                        kind_of(r), r->op ? r->op : "", why);
        }
}
