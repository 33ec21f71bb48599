#include "record.h"
#include "strbuf.h"
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

static void lat_init(bl_lat *l)
{
    memset(l, 0, sizeof *l);
    l->min = l->max = l->mean = l->stdev = BL_ABSENT;
}

static void samples_init(bl_samples *s)
{
    s->present = false;
    s->min = s->max = s->mean = s->stdev = BL_ABSENT;
    s->count = -1;
}

/* Room for n elements in p, an array any code may have allocated at any length (parsers
 * hand records arrays of their own): what malloc gave is asked, not assumed. It grows by
 * half, so that adding 17 percentiles one at a time is 6 reallocs, not 17, while the one
 * device or bucket most records have costs no more than it did. */
static void *room_for(void *p, size_t n, size_t size)
{
    if (p && malloc_usable_size(p) >= n * size)
        return p;
    return bl_xrealloc(p, (n + n / 2) * size);
}

bl_record *bl_record_new(void)
{
    bl_record *r = bl_xcalloc(1, sizeof *r);
    r->line = r->run = -1;
    r->bs = r->iodepth = r->numjobs = -1;
    r->direct = BL_TRI_ABSENT;
    r->size_bytes = r->io_bytes = -1;
    r->runtime_s = r->bw_bytes_s = r->iops = BL_ABSENT;
    r->bw_prec = r->iops_prec = BL_ABSENT;
    lat_init(&r->clat_ns);
    lat_init(&r->slat_ns);
    lat_init(&r->lat_ns);
    lat_init(&r->sync_ns);
    r->cpu_usr_pct = r->cpu_sys_pct = BL_ABSENT;
    r->value = BL_ABSENT;
    r->cpu_pct = BL_ABSENT;
    samples_init(&r->bw_samples);
    samples_init(&r->iops_samples);
    return r;
}

static void lat_free(bl_lat *l)
{
    free(l->pct);
    free(l->bins);
}

static void series_free(bl_series *s)
{
    free(s->name);
    free(s->unit);
    free(s->t);
    free(s->v);
}

void bl_record_free(bl_record *r)
{
    if (!r)
        return;
    free(r->source);
    free(r->tool);
    free(r->tool_version);
    for (size_t i = 0; i < r->n_labels; i++) {
        free(r->labels[i].key);
        free(r->labels[i].value);
    }
    free(r->labels);
    free(r->test);
    free(r->op);
    free(r->pattern);
    free(r->ioengine);
    lat_free(&r->clat_ns);
    lat_free(&r->slat_ns);
    lat_free(&r->lat_ns);
    lat_free(&r->sync_ns);
    free(r->metric);
    free(r->unit);
    free(r->note);
    free(r->when);
    free(r->when_from);
    free(r->lat_dist.v);
    free(r->iodepth_dist.v);
    for (size_t i = 0; i < r->n_disks; i++)
        free(r->disks[i].name);
    free(r->disks);
    for (size_t i = 0; i < r->n_series; i++)
        series_free(&r->series[i]);
    free(r->series);
    free(r);
}

void bl_record_add_note(bl_record *r, const char *text)
{
    if (!text || !*text)
        return;
    if (!r->note) {
        r->note = bl_xstrdup(text);
        return;
    }
    if (strstr(r->note, text))
        return;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s; %s", r->note, text);
    free(r->note);
    r->note = bl_strbuf_take(&sb);
}

static char *dup_or_null(const char *s)
{
    return s ? bl_xstrdup(s) : NULL;
}

static void *dup_array(const void *p, size_t n, size_t size)
{
    if (!p || n == 0)
        return NULL;
    void *q = bl_xmalloc(n * size);
    memcpy(q, p, n * size);
    return q;
}

static void lat_copy(bl_lat *dst, const bl_lat *src)
{
    *dst = *src;
    dst->pct = dup_array(src->pct, src->n_pct, sizeof *src->pct);
    dst->bins = dup_array(src->bins, src->n_bins, sizeof *src->bins);
}

bl_record *bl_record_clone(const bl_record *r)
{
    bl_record *c = bl_xmalloc(sizeof *c);
    *c = *r;
    c->source = dup_or_null(r->source);
    c->tool = dup_or_null(r->tool);
    c->tool_version = dup_or_null(r->tool_version);
    c->labels = r->n_labels ? bl_xmalloc(r->n_labels * sizeof *c->labels) : NULL;
    for (size_t i = 0; i < r->n_labels; i++) {
        c->labels[i].key = bl_xstrdup(r->labels[i].key);
        c->labels[i].value = bl_xstrdup(r->labels[i].value);
    }
    c->test = dup_or_null(r->test);
    c->op = dup_or_null(r->op);
    c->pattern = dup_or_null(r->pattern);
    c->ioengine = dup_or_null(r->ioengine);
    lat_copy(&c->clat_ns, &r->clat_ns);
    lat_copy(&c->slat_ns, &r->slat_ns);
    lat_copy(&c->lat_ns, &r->lat_ns);
    lat_copy(&c->sync_ns, &r->sync_ns);
    c->metric = dup_or_null(r->metric);
    c->unit = dup_or_null(r->unit);
    c->note = dup_or_null(r->note);
    c->when = dup_or_null(r->when);
    c->when_from = dup_or_null(r->when_from);
    c->lat_dist.v = dup_array(r->lat_dist.v, r->lat_dist.n, sizeof *r->lat_dist.v);
    c->iodepth_dist.v = dup_array(r->iodepth_dist.v, r->iodepth_dist.n, sizeof *r->iodepth_dist.v);
    c->disks = dup_array(r->disks, r->n_disks, sizeof *r->disks);
    for (size_t i = 0; i < r->n_disks; i++)
        c->disks[i].name = dup_or_null(r->disks[i].name);
    c->series = r->n_series ? bl_xmalloc(r->n_series * sizeof *c->series) : NULL;
    for (size_t i = 0; i < r->n_series; i++) {
        const bl_series *s = &r->series[i];
        c->series[i] = (bl_series){.name = dup_or_null(s->name),
                                   .unit = dup_or_null(s->unit),
                                   .n = s->n,
                                   .cap = s->n,
                                   .t = dup_array(s->t, s->n, sizeof *s->t),
                                   .v = dup_array(s->v, s->n, sizeof *s->v)};
    }
    return c;
}

void bl_record_set_str(char **field, const char *value)
{
    free(*field);
    *field = dup_or_null(value);
}

void bl_record_set_label(bl_record *r, const char *key, const char *value)
{
    for (size_t i = 0; i < r->n_labels; i++) {
        if (r->labels[i].key[0] == key[0] && strcmp(r->labels[i].key, key) == 0) {
            bl_record_set_str(&r->labels[i].value, value ? value : "");
            return;
        }
    }
    /* four at first: most records get several (a fio job's name, rw, group and date), which
     * grown from one took three allocations */
    r->labels = r->labels ? room_for(r->labels, r->n_labels + 1, sizeof *r->labels)
                          : bl_xmalloc(4 * sizeof *r->labels);
    r->labels[r->n_labels].key = bl_xstrdup(key);
    r->labels[r->n_labels].value = bl_xstrdup(value ? value : "");
    r->n_labels++;
}

void bl_record_del_label(bl_record *r, const char *key)
{
    for (size_t i = 0; i < r->n_labels; i++)
        if (strcmp(r->labels[i].key, key) == 0) {
            free(r->labels[i].key);
            free(r->labels[i].value);
            memmove(&r->labels[i], &r->labels[i + 1], (r->n_labels - i - 1) * sizeof *r->labels);
            r->n_labels--;
            return;
        }
}

const char *bl_record_label(const bl_record *r, const char *key)
{
    /* asked for several labels of every record: the first letter spares most strcmp calls */
    for (size_t i = 0; i < r->n_labels; i++)
        if (r->labels[i].key[0] == key[0] && strcmp(r->labels[i].key, key) == 0)
            return r->labels[i].value;
    return NULL;
}

void bl_lat_add_pct(bl_lat *l, double pct, double value_ns)
{
    l->present = true;
    size_t i = l->n_pct;
    l->pct = room_for(l->pct, l->n_pct + 1, sizeof *l->pct);
    /* Keep ascending order; a repeated percentile replaces the earlier value. */
    for (size_t k = 0; k < l->n_pct; k++) {
        if (l->pct[k].pct == pct) {
            l->pct[k].value = value_ns;
            return;
        }
    }
    while (i > 0 && l->pct[i - 1].pct > pct) {
        l->pct[i] = l->pct[i - 1];
        i--;
    }
    l->pct[i] = (bl_pct){pct, value_ns};
    l->n_pct++;
}

void bl_lat_add_bin(bl_lat *l, double value_ns, uint64_t count)
{
    l->present = true;
    size_t i = l->n_bins;
    l->bins = room_for(l->bins, l->n_bins + 1, sizeof *l->bins);
    while (i > 0 && l->bins[i - 1].value > value_ns) {
        l->bins[i] = l->bins[i - 1];
        i--;
    }
    l->bins[i] = (bl_bin){value_ns, count};
    l->n_bins++;
}

bl_series *bl_record_add_series(bl_record *r, const char *name, const char *unit)
{
    r->series = bl_xrealloc(r->series, (r->n_series + 1) * sizeof *r->series);
    bl_series *s = &r->series[r->n_series++];
    *s = (bl_series){.name = bl_xstrdup(name), .unit = bl_xstrdup(unit)};
    return s;
}

void bl_series_push(bl_series *s, double t, double v)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->t = bl_xrealloc(s->t, s->cap * sizeof *s->t);
        s->v = bl_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->t[s->n] = t;
    s->v[s->n] = v;
    s->n++;
}

void bl_records_init(bl_records *rs)
{
    rs->v = NULL;
    rs->n = rs->cap = 0;
}

void bl_records_push(bl_records *rs, bl_record *r)
{
    void *p = rs->v;
    bl_grow(&p, &rs->cap, rs->n + 1, sizeof *rs->v);
    rs->v = p;
    rs->v[rs->n++] = r;
}

void bl_records_free(bl_records *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        bl_record_free(rs->v[i]);
    free(rs->v);
    bl_records_init(rs);
}

bl_disk bl_disk_absent(char *name)
{
    return (bl_disk){.name = name,
                     .read_ios = -1,
                     .write_ios = -1,
                     .read_merges = -1,
                     .write_merges = -1,
                     .read_ticks_s = BL_ABSENT,
                     .write_ticks_s = BL_ABSENT,
                     .in_queue_s = BL_ABSENT,
                     .util_pct = BL_ABSENT};
}

bl_disk *bl_record_add_disk(bl_record *r, const char *name)
{
    r->disks = room_for(r->disks, r->n_disks + 1, sizeof *r->disks);
    bl_disk *d = &r->disks[r->n_disks++];
    *d = bl_disk_absent(bl_xstrdup(name));
    return d;
}

static int dist_before(const bl_dist_bin *a, double at, bool ge)
{
    return a->ge != ge ? !a->ge : a->at < at;
}

void bl_dist_add(bl_dist *d, double at, bool ge, double pct)
{
    for (size_t k = 0; k < d->n; k++)
        if (d->v[k].at == at && d->v[k].ge == ge) {
            d->v[k].pct = pct;
            return;
        }
    d->v = room_for(d->v, d->n + 1, sizeof *d->v);
    size_t i = d->n++;
    while (i > 0 && !dist_before(&d->v[i - 1], at, ge)) {
        d->v[i] = d->v[i - 1];
        i--;
    }
    d->v[i] = (bl_dist_bin){at, ge, pct};
}

void bl_dist_reserve(bl_dist *d, size_t n)
{
    if (n > d->n && !(d->v && malloc_usable_size(d->v) >= n * sizeof *d->v))
        d->v = bl_xrealloc(d->v, n * sizeof *d->v);
}

const char *bl_dist_key(const char *s, double *at, bool *ge)
{
    *ge = strncmp(s, ">=", 2) == 0;
    const char *p = s + (*ge ? 2 : 0);
    char *end;
    *at = strtod(p, &end);
    return end != p && isfinite(*at) ? end : NULL;
}
