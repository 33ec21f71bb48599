#include "show_units.h"
#include "../compare/fmt.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void bl_show_name(char *buf, size_t n, const bl_field *f)
{
    static const char *const suffix[] = {"_bytes_s", "_bytes", "_ns", "_pct", "_s"};
    snprintf(buf, n, "%s", f->name);
    if (!f->unit)
        return;
    size_t len = strlen(buf);
    for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
        size_t sl = strlen(suffix[i]);
        if (len > sl && strcmp(buf + len - sl, suffix[i]) == 0) {
            buf[len - sl] = 0;
            return;
        }
    }
}

/* One figure of the unit: "52.67 MB/s", "12860 IOPS", "3.00 s", "518.1 µs", "3.03%". */
static void figure(bl_strbuf *sb, const char *unit, double v)
{
    if (strcmp(unit, "bytes/s") == 0) {
        bl_fmt_fig(sb, v / 1e6);
        bl_strbuf_puts(sb, " MB/s");
    } else if (strcmp(unit, "1/s") == 0) {
        bl_fmt_iops(sb, v);
        bl_strbuf_puts(sb, " IOPS");
    } else if (strcmp(unit, "ns") == 0) {
        bl_fmt_ns(sb, v);
    } else if (strcmp(unit, "s") == 0) {
        bl_fmt_ns(sb, v * 1e9); /* "14.68 ms", "3.00 s" */
    } else if (strcmp(unit, "%") == 0) {
        bl_fmt_fig(sb, v);
        bl_strbuf_puts(sb, "%");
    } else {
        bl_fmt_fig(sb, v);
    }
}

/* "64MiB", or "1.0MiB (1099999 bytes)" when the size is not a whole number of its unit,
 * so that no byte is lost to rounding. */
static void size(bl_strbuf *sb, int64_t b)
{
    size_t at = sb->len;
    bl_fmt_size(sb, b);
    if (b >= 1024 && strchr(sb->s + at, '.'))
        bl_strbuf_printf(sb, " (%lld bytes)", (long long)b);
}

static void stat_part(bl_strbuf *sb, const char *what, const char *unit, double v)
{
    if (!bl_present(v))
        return;
    bl_strbuf_printf(sb, "%s%s ", sb->len ? ", " : "", what);
    figure(sb, unit, v);
}

static void latency(const char *name, const bl_lat *l, bl_show_line_fn line, void *ctx)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    char key[64];
    stat_part(&sb, "mean", "ns", l->mean);
    stat_part(&sb, "min", "ns", l->min);
    stat_part(&sb, "max", "ns", l->max);
    stat_part(&sb, "stdev", "ns", l->stdev);
    if (sb.len)
        line(ctx, name, sb.s);
    if (l->n_pct) {
        bl_strbuf_reset(&sb);
        for (size_t i = 0; i < l->n_pct; i++) {
            bl_strbuf_printf(&sb, "%sp", i ? "  " : "");
            bl_strbuf_put_double(&sb, l->pct[i].pct);
            bl_strbuf_putc(&sb, ' ');
            bl_fmt_ns(&sb, l->pct[i].value);
        }
        snprintf(key, sizeof key, "%.40s percentiles", name);
        line(ctx, key, sb.s);
    }
    if (l->n_bins) {
        bl_strbuf_reset(&sb);
        uint64_t n = 0;
        for (size_t i = 0; i < l->n_bins; i++)
            n += l->bins[i].count;
        bl_strbuf_printf(&sb, "%zu bins, %llu I/Os from ", l->n_bins, (unsigned long long)n);
        bl_fmt_ns(&sb, l->bins[0].value);
        bl_strbuf_puts(&sb, " to ");
        bl_fmt_ns(&sb, l->bins[l->n_bins - 1].value);
        snprintf(key, sizeof key, "%.40s histogram", name);
        line(ctx, key, sb.s);
    }
    bl_strbuf_free(&sb);
}

static void samples(const char *name, const char *unit, const bl_samples *s, bl_show_line_fn line,
                    void *ctx)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    stat_part(&sb, "mean", unit, s->mean);
    stat_part(&sb, "min", unit, s->min);
    stat_part(&sb, "max", unit, s->max);
    stat_part(&sb, "stdev", unit, s->stdev);
    if (s->count >= 0)
        bl_strbuf_printf(&sb, "%s%lld sample%s", sb.len ? ", " : "", (long long)s->count,
                         s->count == 1 ? "" : "s");
    if (sb.len)
        line(ctx, name, sb.s);
    bl_strbuf_free(&sb);
}

/* lat_dist: "≤50 µs 22.36%  ≤100 µs 69.68%  ... ≥2 s 0.01%" (buckets by their upper bound);
 * iodepth_dist: "1 100%  2 0.5%" ("≥64" for fio's open last bucket). */
static void dist(bl_strbuf *sb, const bl_field *f, const bl_dist *d)
{
    int ns = strcmp(f->name, "lat_dist") == 0;
    for (size_t i = 0; i < d->n; i++) {
        bl_strbuf_puts(sb, i ? "  " : "");
        bl_strbuf_puts(sb, d->v[i].ge ? "≥" : ns ? "≤" : "");
        if (ns)
            bl_fmt_ns(sb, d->v[i].at);
        else
            bl_strbuf_put_double(sb, d->v[i].at);
        bl_strbuf_putc(sb, ' ');
        bl_fmt_fig(sb, d->v[i].pct);
        bl_strbuf_putc(sb, '%');
    }
}

int bl_show_field(const bl_field *f, const bl_record *r, bl_show_line_fn line, void *ctx)
{
    if (!f->unit)
        return 0;
    char name[64];
    bl_show_name(name, sizeof name, f);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    int done = 1;
    switch (f->kind) {
    case BL_FK_INT: {
        int64_t v = *BL_CFIELD(r, f, int64_t);
        if (v < 0 || strcmp(f->unit, "bytes") != 0) {
            done = 0;
            break;
        }
        size(&sb, v);
        line(ctx, name, sb.s);
        break;
    }
    case BL_FK_NUM: {
        double v = *BL_CFIELD(r, f, double);
        if (!bl_present(v)) {
            done = 0;
            break;
        }
        figure(&sb, f->unit, v);
        line(ctx, name, sb.s);
        break;
    }
    case BL_FK_LAT: {
        const bl_lat *l = BL_CFIELD(r, f, bl_lat);
        if (!l->present || strcmp(f->unit, "ns") != 0) {
            done = 0;
            break;
        }
        latency(name, l, line, ctx);
        break;
    }
    case BL_FK_SAMPLES: {
        const bl_samples *s = BL_CFIELD(r, f, bl_samples);
        if (!s->present) {
            done = 0;
            break;
        }
        samples(name, f->unit, s, line, ctx);
        break;
    }
    case BL_FK_DIST: {
        const bl_dist *d = BL_CFIELD(r, f, bl_dist);
        if (d->n == 0) {
            done = 0;
            break;
        }
        dist(&sb, f, d);
        line(ctx, name, sb.s);
        break;
    }
    default:
        done = 0;
    }
    bl_strbuf_free(&sb);
    return done;
}
