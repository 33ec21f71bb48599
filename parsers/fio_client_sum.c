#include "fio_client_sum.h"
#include "../core/latency.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_name[BL_FC_NKIND] = {"slat", "clat", "lat", "sync"};

bl_lat *bl_fc_lat(bl_record *r, int kind)
{
    switch (kind) {
    case BL_FC_SLAT:
        return &r->slat_ns;
    case BL_FC_CLAT:
        return &r->clat_ns;
    case BL_FC_SYNC:
        return &r->sync_ns;
    default:
        return &r->lat_ns;
    }
}

static void latsum_add(bl_fc_latsum *s, const bl_lat *l, double n)
{
    if (!l->present || !(n > 0))
        return;
    double sd = bl_present(l->stdev) ? l->stdev : 0;
    if (s->n == 0 || l->min < s->min)
        s->min = l->min;
    if (s->n == 0 || l->max > s->max)
        s->max = l->max;
    s->n += n;
    s->s1 += n * l->mean;
    s->s2 += (n - 1) * sd * sd + n * l->mean * l->mean;
    bl_lat_merge_bins(&s->bins, l);
    if (s->npcts == 0)
        for (size_t i = 0; i < l->n_pct && i < 32; i++)
            s->pcts[s->npcts++] = l->pct[i].pct;
}

void bl_fc_sum_add(bl_fc_sum *s, const bl_record *r, const double n[BL_FC_NKIND], double ios,
                   double weight)
{
    s->hosts++;
    s->io += r->io_bytes;
    s->ios += ios;
    if (r->runtime_s * 1000 > s->runtime_ms)
        s->runtime_ms = r->runtime_s * 1000;
    double w = weight > 0 ? weight : 1;
    if (bl_present(r->cpu_usr_pct) && bl_present(r->cpu_sys_pct)) {
        s->usr_w += w * r->cpu_usr_pct;
        s->sys_w += w * r->cpu_sys_pct;
        s->cpu_w += w;
    }
    for (int k = 0; k < BL_FC_NKIND; k++)
        latsum_add(&s->lat[k], bl_fc_lat((bl_record *)r, k), n[k]);
}

static void latsum_fill(bl_fc_latsum *s, bl_lat *l)
{
    if (s->n <= 0)
        return;
    l->present = true;
    l->min = s->min;
    l->max = s->max;
    l->mean = s->s1 / s->n;
    l->stdev = s->n > 1 ? sqrt(fmax(0, (s->s2 - s->n * l->mean * l->mean) / (s->n - 1))) : 0;
    l->bins = s->bins.bins;
    l->n_bins = s->bins.n_bins;
    s->bins.bins = NULL;
    s->bins.n_bins = 0;
    if (!l->n_bins)
        return;
    double v[32];
    const double *p = s->npcts ? s->pcts : bl_fio_default_pcts;
    size_t np = s->npcts ? s->npcts : bl_fio_default_npcts;
    bl_bins_percentiles(l->bins, l->n_bins, p, np, v);
    for (size_t i = 0; i < np; i++)
        if (bl_present(v[i]))
            bl_lat_add_pct(l, p[i], v[i]);
}

void bl_fc_sum_fill(bl_fc_sum *s, bl_record *r)
{
    r->io_bytes = s->io;
    r->runtime_s = s->runtime_ms / 1000.0;
    if (s->runtime_ms > 0) {
        r->bw_bytes_s = (double)s->io / r->runtime_s;
        r->iops = s->ios / r->runtime_s;
    }
    if (s->cpu_w > 0) {
        r->cpu_usr_pct = s->usr_w / s->cpu_w;
        r->cpu_sys_pct = s->sys_w / s->cpu_w;
    }
    int bins = 0, nobins = 0;
    for (int k = 0; k < BL_FC_NKIND; k++) {
        latsum_fill(&s->lat[k], bl_fc_lat(r, k));
        bins |= bl_fc_lat(r, k)->n_bins > 0;
        nobins |= s->lat[k].npcts && !bl_fc_lat(r, k)->n_bins; /* hosts had percentiles */
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "sum of %d host entr%s: bw and iops over the longest runtime", s->hosts,
                     s->hosts == 1 ? "y" : "ies");
    if (bins)
        bl_strbuf_puts(&sb, ", percentiles from the summed latency bins");
    if (nobins)
        bl_strbuf_puts(&sb, ", no percentiles (no bins: use --output-format=json+)");
    free(r->note);
    r->note = bl_strbuf_take(&sb);
}

/* Whether fio's figure is worth a mention: integer bw of fio vs our exact quotient is not. */
static int differs(double ours, double fio)
{
    return bl_present(fio) && (!bl_present(ours) || fabs(ours - fio) > 0.5 + 1e-6 * fabs(fio));
}

static void lat_diffs(bl_strbuf *d, const char *kind, const bl_lat *a, const bl_lat *b)
{
    const double ours[4] = {a->min, a->max, a->mean, a->stdev};
    const double its[4] = {b->min, b->max, b->mean, b->stdev};
    const char *what[4] = {"min", "max", "mean", "stdev"};
    for (int i = 0; i < 4; i++)
        if (differs(ours[i], its[i]))
            bl_strbuf_printf(d, ", %s %s %.0f ns", kind, what[i], its[i]);
    for (size_t i = 0; i < b->n_pct; i++) {
        double mine = BL_ABSENT;
        for (size_t j = 0; j < a->n_pct; j++)
            if (a->pct[j].pct == b->pct[i].pct)
                mine = a->pct[j].value;
        if (differs(mine, b->pct[i].value))
            bl_strbuf_printf(d, ", %s p%g %.0f ns", kind, b->pct[i].pct, b->pct[i].value);
    }
}

void bl_fc_note_fio_all(bl_record *r, const bl_record *f)
{
    bl_strbuf d, sb;
    bl_strbuf_init(&d);
    bl_strbuf_init(&sb);
    if (f->io_bytes >= 0 && f->io_bytes != r->io_bytes)
        bl_strbuf_printf(&d, ", io_bytes %lld", (long long)f->io_bytes);
    if (differs(r->bw_bytes_s, f->bw_bytes_s))
        bl_strbuf_printf(&d, ", bw %.0f B/s", f->bw_bytes_s);
    if (differs(r->iops, f->iops))
        bl_strbuf_printf(&d, ", iops %g", f->iops);
    int nopct = 0;
    for (int k = 0; k < BL_FC_NKIND; k++) {
        const bl_lat *a = bl_fc_lat(r, k), *b = bl_fc_lat((bl_record *)f, k);
        if (!b->present)
            continue;
        lat_diffs(&d, kind_name[k], a, b);
        nopct |= a->n_pct && !b->n_pct;
    }
    bl_strbuf_puts(&sb, r->note ? r->note : "");
    if (d.len)
        bl_strbuf_printf(&sb, "; fio's All clients differs: %s", d.s + 2);
    else
        bl_strbuf_puts(&sb, "; fio's All clients agrees");
    if (nopct)
        bl_strbuf_puts(&sb, " (it gives no percentiles)");
    free(r->note);
    r->note = bl_strbuf_take(&sb);
    bl_strbuf_free(&d);
}

void bl_fc_sum_free(bl_fc_sum *s)
{
    free(s->job);
    for (int k = 0; k < BL_FC_NKIND; k++) {
        free(s->lat[k].bins.bins);
        free(s->lat[k].bins.pct);
    }
}
