/* fio per-I/O logs: write_bw_log, write_iops_log, write_lat_log (clat/slat/lat) and
 * write_hist_log (log_hist_msec), read in one pass in constant memory.
 *
 * A plain log line is "time_ms, value, ddir, bs[, offset][, prio]" (4 columns up to fio
 * 3.1x, 5 with the priority column, 6 with log_offset); a histogram line is "time_ms,
 * ddir, bs, count0, count1, ..." with 1216 bins (fio 2.x, usec) or 1856 (fio 3.x, ns), or
 * those summed by groups of 2^N (log_hist_coarseness=N, up to 6): a group counts at the value
 * of its first bin.
 * What the value means comes from the file name fio gives logs: NAME_bw.N.log,
 * NAME_iops.N.log, NAME_clat.N.log, NAME_slat.N.log, NAME_lat.N.log,
 * NAME_clat_hist.N.log. Values: bw in KiB/s, latencies in ns (fio >= 3.0).
 *
 * One record per direction: min/max/mean/stdev are exact, latency percentiles come from
 * fio's own log-linear histogram (error under 1/64, like fio's), and the timeline is
 * downsampled into at most BL_FIO_LOG_POINTS averaged points. */
#include "fio_log.h"
#include "../core/strbuf.h"
#include "../core/latency.h"
#include "../core/units.h"
#include "fio_common.h"
#include "parser.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ERRORS 10

typedef enum { K_UNKNOWN, K_BW, K_IOPS, K_CLAT, K_SLAT, K_LAT, K_HIST } kind_t;

/* Timeline of at most BL_FIO_LOG_POINTS buckets; when full, pairs merge and each bucket
 * takes twice as many samples. */
typedef struct downs {
    double t[BL_FIO_LOG_POINTS], v[BL_FIO_LOG_POINTS];
    size_t n;
    uint64_t per;  /* samples per bucket */
    double pt, pv; /* partial bucket sums */
    uint64_t pn;
} downs;

typedef struct acc {
    uint64_t n;
    double k, s1, s2; /* shifted sums: k = first value, s1 = sum(x-k), s2 = sum((x-k)^2) */
    double min, max;
    int64_t bs; /* -2: not seen yet, -1: varies */
    long first_line;
    double last_t;  /* time of the previous sample, ms */
    int backwards;  /* time went back once already: said once per direction */
    uint64_t *hist; /* BL_PLAT_NR counts, latency kinds only */
    downs ds;
} acc;

struct bl_fio_log {
    bl_parse_out *out;
    kind_t kind;
    char *job, *jobnum, *base;
    acc a[BL_FIO_NDIR];
    long line;
    int nerr;
    long more_errors;
    unsigned hist_bins;  /* bins per hist line (first line decides) */
    double hist_unit;    /* ns per histogram value unit */
    unsigned hist_shift; /* log_hist_coarseness: bins are groups of 2^shift */
};

static void ds_push(downs *d, double t, double v)
{
    if (d->per == 0)
        d->per = 1;
    d->pt += t;
    d->pv += v;
    if (++d->pn < d->per)
        return;
    if (d->n == BL_FIO_LOG_POINTS) {
        for (size_t i = 0; i < d->n / 2; i++) {
            d->t[i] = (d->t[2 * i] + d->t[2 * i + 1]) / 2;
            d->v[i] = (d->v[2 * i] + d->v[2 * i + 1]) / 2;
        }
        d->n /= 2;
        d->per *= 2;
        if (d->pn < d->per)
            return; /* the partial bucket now needs more samples */
    }
    d->t[d->n] = d->pt / (double)d->pn;
    d->v[d->n] = d->pv / (double)d->pn;
    d->n++;
    d->pt = d->pv = 0;
    d->pn = 0;
}

static void acc_add(acc *a, double v, long line)
{
    if (a->n == 0) {
        a->k = v;
        a->min = a->max = v;
        a->first_line = line;
    }
    a->n++;
    double d = v - a->k;
    a->s1 += d;
    a->s2 += d * d;
    if (v < a->min)
        a->min = v;
    if (v > a->max)
        a->max = v;
}

static const struct {
    const char *tag;
    kind_t k;
} tags[] = {{"_clat_hist", K_HIST}, {"_lat_hist", K_HIST}, {"_bw", K_BW},  {"_iops", K_IOPS},
            {"_clat", K_CLAT},      {"_slat", K_SLAT},     {"_lat", K_LAT}};

/* "dir/avg_clat.2.log" -> kind clat, job "avg", jobnum "2". A tag counts when '.' or '_'
 * follows it, so renamed copies ("x_clat_nsec.10.log") still say what they hold. */
static void name_parts(bl_fio_log *L, const char *source)
{
    const char *b = strrchr(source, '/');
    b = b ? b + 1 : source;
    L->base = bl_xstrdup(b);
    L->kind = K_UNKNOWN;
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        size_t n = strlen(tags[i].tag);
        const char *t = b;
        while ((t = strstr(t, tags[i].tag)) != NULL && t[n] != '.' && t[n] != '_')
            t++;
        if (!t)
            continue;
        L->kind = tags[i].k;
        L->job = bl_xstrndup(b, (size_t)(t - b));
        const char *num = strrchr(b, '.');
        while (num && num > b && num[-1] >= '0' && num[-1] <= '9')
            num--;
        size_t len = num ? strspn(num, "0123456789") : 0;
        if (len)
            L->jobnum = bl_xstrndup(num, len);
        return;
    }
}

static void alloc_hists(bl_fio_log *L)
{
    for (int d = 0; d < BL_FIO_NDIR; d++)
        if (!L->a[d].hist)
            L->a[d].hist = bl_xcalloc(BL_PLAT_NR, sizeof *L->a[d].hist);
}

bl_fio_log *bl_fio_log_new(bl_parse_out *out)
{
    bl_fio_log *L = bl_xcalloc(1, sizeof *L);
    L->out = out;
    name_parts(L, out->source ? out->source : "");
    for (int d = 0; d < BL_FIO_NDIR; d++)
        L->a[d].bs = -2;
    if (L->kind == K_CLAT || L->kind == K_SLAT || L->kind == K_LAT || L->kind == K_HIST)
        alloc_hists(L);
    return L;
}

static void bad_line(bl_fio_log *L, const char *what)
{
    if (L->nerr++ < MAX_ERRORS)
        bl_out_error(L->out, L->line, "fio log: %s", what);
    else
        L->more_errors++;
}

/* A number at *p (digits, optional fraction); advances past it and a following comma. */
static inline int field(const char **pp, const char *end, double *out)
{
    const char *p = *pp;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || (unsigned)(*p - '0') > 9)
        return 0;
    uint64_t x = 0;
    while (p < end && (unsigned)(*p - '0') <= 9)
        x = x * 10 + (uint64_t)(*p++ - '0');
    double v = (double)x;
    if (p < end && *p == '.') {
        double scale = 0.1;
        for (p++; p < end && (unsigned)(*p - '0') <= 9; p++, scale /= 10)
            v += (*p - '0') * scale;
    }
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p < end && *p == ',')
        p++;
    *pp = p;
    *out = v;
    return 1;
}

static void note_bs(acc *a, double bs)
{
    int64_t b = bl_count_or(bs, -1);
    if (a->bs == -2)
        a->bs = b;
    else if (a->bs != b)
        a->bs = -1;
}

static void hist_line(bl_fio_log *L, const char *p, const char *end, double t)
{
    double ddir, bs, c;
    if (!field(&p, end, &ddir) || !field(&p, end, &bs) || ddir > 2) {
        bad_line(L, "histogram line without direction and block size");
        return;
    }
    /* counts first, so that a line of the wrong width adds nothing */
    double counts[BL_PLAT_NR];
    unsigned nb = 0;
    while (field(&p, end, &c))
        if (nb++ < BL_PLAT_NR)
            counts[nb - 1] = c;
    if (L->hist_bins == 0)
        L->hist_bins = nb;
    bool width_ok = false;
    for (unsigned c = 0; c <= 6 && !width_ok; c++)
        if (nb == (1216u >> c) || nb == (BL_PLAT_NR >> c)) {
            width_ok = true;
            L->hist_shift = c;
        }
    if (nb != L->hist_bins || !width_ok) {
        bad_line(L, "histogram line with an unexpected number of bins");
        return;
    }
    acc *a = &L->a[(int)ddir];
    double sum = 0, cnt = 0;
    for (unsigned i = 0; i < nb; i++) {
        if (counts[i] <= 0)
            continue;
        double val = (double)bl_plat_idx_to_val(i << L->hist_shift) * L->hist_unit;
        a->hist[bl_plat_val_to_idx(val < 1.8e19 ? (uint64_t)val : UINT64_MAX)] +=
            (uint64_t)bl_count_or(counts[i], 0);
        sum += counts[i] * val;
        if (a->n == 0 && cnt == 0)
            a->min = a->max = val;
        a->min = fmin(a->min, val);
        a->max = fmax(a->max, val);
        cnt += counts[i];
    }
    note_bs(a, bs);
    if (a->first_line == 0)
        a->first_line = L->line;
    a->n += (uint64_t)bl_count_or(cnt, 0);
    a->s1 += sum; /* k stays 0: s1 is the plain sum for histograms */
    if (cnt > 0)
        ds_push(&a->ds, t / 1000.0, sum / cnt);
}

void bl_fio_log_line(bl_fio_log *L, const char *p, const char *end)
{
    L->line++;
    while (end > p && (end[-1] == '\r' || end[-1] == ' '))
        end--;
    if (p == end)
        return;
    double t, v, ddir, bs;
    if (!field(&p, end, &t)) {
        bad_line(L, "line does not start with a time");
        return;
    }
    if (L->line == 1 || L->kind == K_HIST) {
        if (L->hist_unit == 0) {
            /* fio 2.x logged 1216 usec bins, fio 3.x 1856 ns bins: count them once. */
            size_t commas = 0;
            for (const char *q = p; q < end; q++)
                commas += *q == ',';
            if (commas > 64 && L->kind != K_HIST) { /* a histogram log whatever its name */
                L->kind = K_HIST;
                alloc_hists(L);
            }
            /* fio 2.x widths (1216 >> N) are usec, fio 3.x ones (1856 >> N) ns. */
            size_t nb = commas ? commas - 1 : 0;
            bool v2 = false;
            for (unsigned c = 0; c <= 6; c++)
                v2 |= nb == (1216u >> c);
            L->hist_unit = v2 ? 1000 : 1;
        }
    }
    if (L->kind == K_HIST) {
        hist_line(L, p, end, t);
        return;
    }
    if (!field(&p, end, &v) || !field(&p, end, &ddir) || !field(&p, end, &bs) || ddir > 2) {
        bad_line(L, "expected \"time, value, direction, block size\"");
        return;
    }
    acc *a = &L->a[(int)ddir];
    /* A log out of order (two logs joined, a clock step): the summary is still exact, the
     * timeline keeps the file's order; said once, since every later line would repeat it. */
    if (a->n && t < a->last_t && !a->backwards) {
        a->backwards = 1;
        bl_out_error(L->out, L->line, "fio log: time goes back from %.0f ms to %.0f ms", a->last_t,
                     t);
    }
    a->last_t = t;
    note_bs(a, bs);
    acc_add(a, v, L->line);
    if (a->hist)
        a->hist[bl_plat_val_to_idx(v < 1e19 ? (uint64_t)v : UINT64_MAX)]++;
    ds_push(&a->ds, t / 1000.0, v);
}

/* The non-empty bins of fio's histogram, and percentiles from them as fio computes them. */
static void hist_to_lat(const uint64_t *hist, bl_lat *l)
{
    for (unsigned i = 0; i < BL_PLAT_NR; i++)
        if (hist[i])
            bl_lat_add_bin(l, (double)bl_plat_idx_to_val(i), hist[i]);
    if (l->n_bins)
        bl_lat_percentiles_from_bins(l);
}

static const char *lat_name(kind_t k)
{
    return k == K_SLAT ? "slat" : k == K_LAT ? "lat" : "clat";
}

/* An averaged latency log: no latency figure (see emit); how many windows, so that the
 * weighting knows whether the timeline still holds each window, and their range in the note. */
static void averaged_latency(bl_record *r, const acc *a)
{
    char b[64];
    snprintf(b, sizeof b, "%llu", (unsigned long long)a->n);
    bl_record_set_label(r, "log_windows", b);
    bl_strbuf note;
    bl_strbuf_init(&note);
    bl_strbuf_printf(&note,
                     "fio log written with log_avg_msec: each value is one window's mean latency "
                     "(%llu windows, from %.0f to %.0f ns); a mean of window means is not the "
                     "I/Os' mean, so no latency figure is given without the job's IOPS log",
                     (unsigned long long)a->n, a->min, a->max);
    bl_record_set_str(&r->note, note.s);
    bl_strbuf_free(&note);
}

/* An averaged rate log's mean over its run, checked. fio's helper logs a window's rate only
 * when the window had I/O, and a late helper logs one rate over a longer span: a gap between
 * entries is either, and the log does not say which. Taking every gap as one span gives the
 * highest run rate, taking a gap over 1.5 windows as one window and idle time the lowest; when the
 * two differ by over 2% the mean of the entries (what fio's own samples average says) is no run
 * figure, and 0 is returned with the bounds. Only a timeline that kept every entry can be checked.
 */
static int rate_trusted(const acc *a, double *lo, double *hi)
{
    const downs *d = &a->ds;
    if (d->per > 1 || d->n < 3)
        return 1;
    double w = INFINITY;
    for (size_t i = 1; i + 1 < d->n; i++)
        if (d->t[i] > d->t[i - 1])
            w = fmin(w, d->t[i] - d->t[i - 1]);
    /* from the job's start (the first entry's span is as unsure as a gap) to the last entry;
     * the low bound given counts up to one window more (the run ends after its last entry) */
    double late = 0, idle = 0, end = d->t[d->n - 1];
    for (size_t i = 0; i < d->n && isfinite(w); i++) {
        double step = d->t[i] - (i ? d->t[i - 1] : 0);
        late += d->v[i] * step;
        /* an idle sample and a logged one take two windows: shorter steps are one span */
        idle += d->v[i] * (step > 1.5 * w ? w : step);
    }
    if (!(end > 0) || !isfinite(w))
        return 1;
    *lo = idle / (end + w);
    *hi = late / end;
    return !(late - idle > 0.02 * late);
}

/* The headline rate of an averaged log left out (see rate_trusted), with its reasons. */
static void refuse_rate(bl_fio_log *L, bl_record *r, const acc *a, double lo, double hi,
                        double mult, const char *unit)
{
    char b[512];
    snprintf(b, sizeof b,
             "fio log written with log_avg_msec has gaps between its entries (windows without "
             "I/O, or late samples): the run's mean lies between %.6g and %.6g %s, so the mean of "
             "the entries (%.6g) is not given (the samples' min, max and mean are fio's)",
             lo * mult, hi * mult, unit, (a->k + a->s1 / (double)a->n) * mult);
    bl_record_add_note(r, b);
    bl_out_warn(L->out, a->first_line, "warning: %s", b);
}

static void emit(bl_fio_log *L, int ddir)
{
    acc *a = &L->a[ddir];
    if (a->n == 0)
        return;
    bl_record *r = bl_out_record(L->out, a->first_line);
    r->run = 1;
    bl_record_set_str(&r->tool, "fio");
    bl_record_set_str(&r->op, bl_fio_ddir_name(ddir));
    if (L->job)
        bl_record_set_label(r, "job", L->job);
    if (L->jobnum)
        bl_record_set_label(r, "jobnum", L->jobnum);
    bl_record_set_label(r, "log", L->base);
    if (a->bs > 0)
        r->bs = a->bs;
    /* log_avg_msec: fio writes bs 0 and one mean a window. A rate's mean over equal windows
     * is the run's; a latency's mean of window means is not the I/Os' mean (a slow window
     * holds few I/Os), and the log has no count to weight the windows by: the latency figures
     * are left out here, the window means stay as the timeline, and fio_log_weight.c puts a
     * weighted mean in when the job's IOPS log is given too. */
    int averaged = a->bs == 0 && L->kind != K_HIST;
    if (averaged)
        bl_record_set_label(r, "log_avg", "window means (log_avg_msec)");
    double n = (double)a->n;
    double mean = L->kind == K_HIST ? a->s1 / n : a->k + a->s1 / n;
    double var = L->kind == K_HIST ? NAN : (a->s2 - a->s1 * a->s1 / n) / (n > 1 ? n - 1 : 1);
    double sd = bl_present(var) ? sqrt(var > 0 ? var : 0) : BL_ABSENT;
    bl_series *s = NULL;
    double lo = 0, hi = 0;
    int trusted =
        !(averaged && (L->kind == K_BW || L->kind == K_IOPS)) || rate_trusted(a, &lo, &hi);
    if (L->kind == K_BW) {
        r->bw_bytes_s = trusted ? mean * 1024 : BL_ABSENT;
        if (!trusted)
            refuse_rate(L, r, a, lo, hi, 1024, "bytes/s");
        r->bw_samples =
            (bl_samples){true, a->min * 1024, a->max * 1024, mean * 1024, sd * 1024, (int64_t)a->n};
        s = bl_record_add_series(r, "bw", "bytes/s");
    } else if (L->kind == K_IOPS) {
        r->iops = trusted ? mean : BL_ABSENT;
        if (!trusted)
            refuse_rate(L, r, a, lo, hi, 1, "IO/s");
        r->iops_samples = (bl_samples){true, a->min, a->max, mean, sd, (int64_t)a->n};
        s = bl_record_add_series(r, "iops", "IO/s");
    } else if (L->kind == K_UNKNOWN) {
        bl_record_set_str(&r->metric, "fio log value");
        r->value = mean;
        s = bl_record_add_series(r, "value", "");
    } else if (averaged) {
        averaged_latency(r, a);
        s = bl_record_add_series(r, lat_name(L->kind), "ns");
    } else {
        bl_lat *l = L->kind == K_SLAT ? &r->slat_ns : L->kind == K_LAT ? &r->lat_ns : &r->clat_ns;
        l->present = true;
        l->min = a->min;
        l->max = a->max;
        l->mean = mean;
        l->stdev = sd;
        hist_to_lat(a->hist, l);
        s = bl_record_add_series(r, lat_name(L->kind), "ns");
    }
    double mult = L->kind == K_BW ? 1024 : 1;
    for (size_t i = 0; i < a->ds.n; i++)
        bl_series_push(s, bl_fio_scale(a->ds.t[i], 1), bl_fio_scale(a->ds.v[i], mult));
    if (a->ds.pn)
        bl_series_push(s, bl_fio_scale(a->ds.pt / (double)a->ds.pn, 1),
                       bl_fio_scale(a->ds.pv / (double)a->ds.pn, mult));
}

void bl_fio_log_finish(bl_fio_log *L)
{
    if (L->more_errors)
        bl_out_error(L->out, 0, "fio log: %ld more malformed lines", L->more_errors);
    for (int d = 0; d < BL_FIO_NDIR; d++)
        emit(L, d);
    for (int d = 0; d < BL_FIO_NDIR; d++)
        free(L->a[d].hist);
    free(L->job);
    free(L->jobnum);
    free(L->base);
    free(L);
}

static void fio_log_parse(const bl_text *t, bl_parse_out *out)
{
    bl_fio_log *L = bl_fio_log_new(out);
    for (size_t i = 0; i < t->nlines; i++)
        bl_fio_log_line(L, t->line[i], t->line[i] + strlen(t->line[i]));
    bl_fio_log_finish(L);
}

#define CHUNK (1u << 20)

static void fio_log_stream(FILE *f, bl_parse_out *out)
{
    bl_fio_log *L = bl_fio_log_new(out);
    char *buf = bl_xmalloc(2 * CHUNK);
    size_t have = 0, n;
    while ((n = fread(buf + have, 1, 2 * CHUNK - have, f)) > 0) {
        have += n;
        char *p = buf, *end = buf + have, *nl;
        while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
            bl_fio_log_line(L, p, nl);
            p = nl + 1;
        }
        have = (size_t)(end - p);
        if (have == 2 * CHUNK) { /* a 2 MiB line: not a fio log */
            bad_line(L, "line too long");
            have = 0;
        }
        memmove(buf, p, have);
    }
    if (have)
        bl_fio_log_line(L, buf, buf + have);
    free(buf);
    bl_fio_log_finish(L);
}

/* Each of the first lines is "int, int, int, int..." (a log has nothing else). */
static int fio_log_probe(const bl_text *t)
{
    size_t seen = 0;
    for (size_t i = 0; i < t->nlines && seen < 5; i++) {
        const char *p = t->line[i], *start = p, *end = p + strlen(p);
        if (p == end)
            continue;
        double v;
        int cols = 0;
        while (field(&p, end, &v))
            cols++;
        /* log_prio=1 prints the last column in hex: "0x0000" */
        if (p != end && !(p > start && p[-1] == '0' && *p == 'x'))
            return 0;
        if (cols < 4)
            return 0;
        seen++;
    }
    return seen ? 80 : 0;
}

const bl_format bl_format_fio_log = {
    .name = "fio-log",
    .summary = "fio per-I/O logs: bw, iops, clat/slat/lat and histogram logs",
    .family = "fio-log",
    .rank = 1,
    .probe = fio_log_probe,
    .parse = fio_log_parse,
    .parse_stream = fio_log_stream,
};
