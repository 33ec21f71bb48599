#include "jsonl.h"
#include "fields.h"
#include "record_decode.h"
#include "units.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writer ---------------------------------------------------------------------------- */

typedef struct writer {
    bl_strbuf *sb;
    int first;
} writer;

/* A key of ours (field names, "min", "p"): nothing to escape, written in one piece. */
static void key(writer *w, const char *k)
{
    size_t n = strlen(k);
    bl_strbuf_reserve(w->sb, n + 4);
    char *o = w->sb->s + w->sb->len;
    if (!w->first)
        *o++ = ',';
    w->first = 0;
    *o++ = '"';
    memcpy(o, k, n);
    o += n;
    *o++ = '"';
    *o++ = ':';
    *o = '\0';
    w->sb->len = (size_t)(o - w->sb->s);
}

/* A key from the source (a label's name): escaped. */
static void any_key(writer *w, const char *k)
{
    if (!w->first)
        bl_strbuf_putc(w->sb, ',');
    w->first = 0;
    bl_strbuf_put_json_string(w->sb, k);
    bl_strbuf_putc(w->sb, ':');
}

static void put_str(writer *w, const char *k, const char *v)
{
    if (!v)
        return;
    key(w, k);
    bl_strbuf_put_json_string(w->sb, v);
}

static void put_int(writer *w, const char *k, int64_t v)
{
    if (v < 0)
        return;
    key(w, k);
    bl_strbuf_put_uint(w->sb, (unsigned long long)v);
}

static void put_num(writer *w, const char *k, double v)
{
    if (!bl_present(v))
        return;
    key(w, k);
    bl_strbuf_put_double(w->sb, v);
}

/* A number's text holds nothing JSON escapes: quoted as it is. */
static void put_pct_key(bl_strbuf *sb, double pct)
{
    bl_strbuf_putc(sb, '"');
    bl_strbuf_put_double(sb, pct);
    bl_strbuf_putc(sb, '"');
}

/* fio's default percentiles, in its order: the keys of most records' "p", written from
 * here rather than by the digit writer, which takes a while on 99.95 (test_jsonl holds them to
 * what it writes). */
static const struct {
    double pct;
    const char *key; /* quoted, with the ':' after it */
} fio_pcts[] = {{1, "\"1\":"},         {5, "\"5\":"},        {10, "\"10\":"},
                {20, "\"20\":"},       {30, "\"30\":"},      {40, "\"40\":"},
                {50, "\"50\":"},       {60, "\"60\":"},      {70, "\"70\":"},
                {80, "\"80\":"},       {90, "\"90\":"},      {95, "\"95\":"},
                {99, "\"99\":"},       {99.5, "\"99.5\":"},  {99.9, "\"99.9\":"},
                {99.95, "\"99.95\":"}, {99.99, "\"99.99\":"}};

/* The key of percentile i (pct), with its ':'. */
static void put_pct_at(bl_strbuf *sb, size_t i, double pct)
{
    if (i < sizeof fio_pcts / sizeof fio_pcts[0] && pct == fio_pcts[i].pct) {
        bl_strbuf_puts(sb, fio_pcts[i].key);
        return;
    }
    put_pct_key(sb, pct);
    bl_strbuf_putc(sb, ':');
}

static void put_lat(writer *w, const char *k, const bl_lat *l)
{
    if (!l->present)
        return;
    key(w, k);
    writer in = {w->sb, 1};
    bl_strbuf_putc(w->sb, '{');
    put_num(&in, "min", l->min);
    put_num(&in, "max", l->max);
    put_num(&in, "mean", l->mean);
    put_num(&in, "stdev", l->stdev);
    if (l->n_pct) {
        key(&in, "p");
        bl_strbuf_putc(w->sb, '{');
        for (size_t i = 0; i < l->n_pct; i++) {
            if (i)
                bl_strbuf_putc(w->sb, ',');
            put_pct_at(w->sb, i, l->pct[i].pct);
            bl_strbuf_put_double(w->sb, l->pct[i].value);
        }
        bl_strbuf_putc(w->sb, '}');
    }
    if (l->n_bins) {
        key(&in, "bins");
        bl_strbuf_putc(w->sb, '[');
        for (size_t i = 0; i < l->n_bins; i++) {
            bl_strbuf_puts(w->sb, i ? ",[" : "[");
            bl_strbuf_put_double(w->sb, l->bins[i].value);
            bl_strbuf_putc(w->sb, ',');
            bl_strbuf_put_uint(w->sb, (unsigned long long)l->bins[i].count);
            bl_strbuf_putc(w->sb, ']');
        }
        bl_strbuf_putc(w->sb, ']');
    }
    bl_strbuf_putc(w->sb, '}');
}

static void put_samples(writer *w, const char *k, const bl_samples *s)
{
    if (!s->present)
        return;
    key(w, k);
    writer in = {w->sb, 1};
    bl_strbuf_putc(w->sb, '{');
    put_num(&in, "min", s->min);
    put_num(&in, "max", s->max);
    put_num(&in, "mean", s->mean);
    put_num(&in, "stdev", s->stdev);
    put_int(&in, "samples", s->count);
    bl_strbuf_putc(w->sb, '}');
}

static void put_doubles(bl_strbuf *sb, const double *v, size_t n)
{
    bl_strbuf_putc(sb, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            bl_strbuf_putc(sb, ',');
        bl_strbuf_put_double(sb, v[i]);
    }
    bl_strbuf_putc(sb, ']');
}

/* {"250000":61.91,">=2000000000":0.01}: fio's own key style. */
static void put_dist(writer *w, const char *k, const bl_dist *d)
{
    if (!d->n)
        return;
    key(w, k);
    bl_strbuf_putc(w->sb, '{');
    for (size_t i = 0; i < d->n; i++) {
        /* quoted as put_pct_key quotes: neither ">=" nor a number holds anything to escape */
        bl_strbuf_puts(w->sb, i ? ",\"" : "\"");
        if (d->v[i].ge)
            bl_strbuf_puts(w->sb, ">=");
        bl_strbuf_put_double(w->sb, d->v[i].at);
        bl_strbuf_puts(w->sb, "\":");
        bl_strbuf_put_double(w->sb, d->v[i].pct);
    }
    bl_strbuf_putc(w->sb, '}');
}

static void put_disks(writer *w, const char *k, const bl_record *r)
{
    if (!r->n_disks)
        return;
    key(w, k);
    bl_strbuf_putc(w->sb, '[');
    for (size_t i = 0; i < r->n_disks; i++) {
        const bl_disk *d = &r->disks[i];
        writer in = {w->sb, 1};
        bl_strbuf_puts(w->sb, i ? ",{" : "{");
        put_str(&in, "name", d->name);
        put_int(&in, "read_ios", d->read_ios);
        put_int(&in, "write_ios", d->write_ios);
        put_int(&in, "read_merges", d->read_merges);
        put_int(&in, "write_merges", d->write_merges);
        put_num(&in, "read_ticks_s", d->read_ticks_s);
        put_num(&in, "write_ticks_s", d->write_ticks_s);
        put_num(&in, "in_queue_s", d->in_queue_s);
        put_num(&in, "util_pct", d->util_pct);
        bl_strbuf_putc(w->sb, '}');
    }
    bl_strbuf_putc(w->sb, ']');
}

static void put_series(writer *w, const char *k, const bl_record *r)
{
    if (!r->n_series)
        return;
    key(w, k);
    bl_strbuf_putc(w->sb, '[');
    for (size_t i = 0; i < r->n_series; i++) {
        const bl_series *s = &r->series[i];
        writer in = {w->sb, 1};
        bl_strbuf_puts(w->sb, i ? ",{" : "{");
        put_str(&in, "name", s->name);
        put_str(&in, "unit", s->unit);
        key(&in, "t");
        put_doubles(w->sb, s->t, s->n);
        key(&in, "v");
        put_doubles(w->sb, s->v, s->n);
        bl_strbuf_putc(w->sb, '}');
    }
    bl_strbuf_putc(w->sb, ']');
}

static void put_labels(writer *w, const bl_record *r)
{
    if (!r->n_labels)
        return;
    key(w, "labels");
    writer in = {w->sb, 1};
    bl_strbuf_putc(w->sb, '{');
    for (size_t i = 0; i < r->n_labels; i++) {
        if (!r->labels[i].value)
            continue;
        any_key(&in, r->labels[i].key);
        bl_strbuf_put_json_string(w->sb, r->labels[i].value);
    }
    bl_strbuf_putc(w->sb, '}');
}

static void put_field(writer *w, const bl_field *f, const bl_record *r)
{
    switch (f->kind) {
    case BL_FK_STR:
        put_str(w, f->name, *BL_CFIELD(r, f, char *));
        break;
    case BL_FK_INT:
        put_int(w, f->name, *BL_CFIELD(r, f, int64_t));
        break;
    case BL_FK_NUM:
        put_num(w, f->name, *BL_CFIELD(r, f, double));
        break;
    case BL_FK_TRI:
        if (*BL_CFIELD(r, f, int) != BL_TRI_ABSENT) {
            key(w, f->name);
            bl_strbuf_puts(w->sb, *BL_CFIELD(r, f, int) ? "true" : "false");
        }
        break;
    case BL_FK_LABELS:
        put_labels(w, r);
        break;
    case BL_FK_LAT:
        put_lat(w, f->name, BL_CFIELD(r, f, bl_lat));
        break;
    case BL_FK_SAMPLES:
        put_samples(w, f->name, BL_CFIELD(r, f, bl_samples));
        break;
    case BL_FK_DIST:
        put_dist(w, f->name, BL_CFIELD(r, f, bl_dist));
        break;
    case BL_FK_DISKS:
        put_disks(w, f->name, r);
        break;
    case BL_FK_SERIES:
        put_series(w, f->name, r);
        break;
    }
}

void bl_record_to_json(const bl_record *r, bl_strbuf *sb)
{
    writer w = {sb, 1};
    bl_strbuf_putc(sb, '{');
    for (size_t i = 0; i < bl_n_fields; i++)
        put_field(&w, &bl_fields[i], r);
    bl_strbuf_putc(sb, '}');
}

int bl_record_write_jsonl(const bl_record *r, FILE *out)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    /* most records fit: one allocation rather than a doubling from 8 bytes */
    bl_strbuf_reserve(&sb, 1000);
    bl_record_to_json(r, &sb);
    bl_strbuf_putc(&sb, '\n');
    size_t n = fwrite(sb.s, 1, sb.len, out);
    int ok = n == sb.len;
    bl_strbuf_free(&sb);
    return ok ? 0 : -1;
}

int bl_records_write_jsonl(bl_record *const *v, size_t n, FILE *out)
{
    enum { FLUSH = 1 << 16 }; /* a write of many records, not one a record */
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_reserve(&sb, FLUSH + 1000);
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        bl_record_to_json(v[i], &sb);
        bl_strbuf_putc(&sb, '\n');
        if (sb.len >= FLUSH || i + 1 == n) {
            ok &= fwrite(sb.s, 1, sb.len, out) == sb.len;
            bl_strbuf_reset(&sb);
        }
    }
    bl_strbuf_free(&sb);
    return ok ? 0 : -1;
}

/* ---- reader ---------------------------------------------------------------------------- */

static void get_str(json_t *o, const char *k, char **dst)
{
    json_t *v = json_object_get(o, k);
    if (json_is_string(v))
        bl_record_set_str(dst, json_string_value(v));
}

static void get_int(json_t *o, const char *k, int64_t *dst)
{
    json_t *v = json_object_get(o, k);
    if (json_is_integer(v))
        *dst = json_integer_value(v);
    else if (json_is_real(v) && !bl_to_count(json_real_value(v), dst))
        *dst = -1;
}

static void get_num(json_t *o, const char *k, double *dst)
{
    json_t *v = json_object_get(o, k);
    if (json_is_number(v))
        *dst = json_number_value(v);
}

static void get_lat(json_t *o, const char *k, bl_lat *l)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_object(v))
        return;
    l->present = true;
    get_num(v, "min", &l->min);
    get_num(v, "max", &l->max);
    get_num(v, "mean", &l->mean);
    get_num(v, "stdev", &l->stdev);
    json_t *p = json_object_get(v, "p");
    const char *pk;
    json_t *pv;
    json_object_foreach(p, pk, pv)
    {
        if (json_is_number(pv))
            bl_lat_add_pct(l, strtod(pk, NULL), json_number_value(pv));
    }
    json_t *bins = json_object_get(v, "bins");
    size_t i;
    json_t *b;
    json_array_foreach(bins, i, b)
    {
        json_t *bv = json_array_get(b, 0), *bc = json_array_get(b, 1);
        /* a count is a whole number of I/Os: a negative or huge one is no bin (and its cast
         * would be undefined) */
        double count = json_is_number(bc) ? json_number_value(bc) : -1;
        if (json_is_number(bv) && count >= 0 && count < 18446744073709551616.0)
            bl_lat_add_bin(l, json_number_value(bv), (uint64_t)count);
    }
}

static void get_samples(json_t *o, const char *k, bl_samples *s)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_object(v))
        return;
    s->present = true;
    get_num(v, "min", &s->min);
    get_num(v, "max", &s->max);
    get_num(v, "mean", &s->mean);
    get_num(v, "stdev", &s->stdev);
    get_int(v, "samples", &s->count);
}

static void get_dist(json_t *o, const char *k, bl_dist *d)
{
    const char *dk;
    json_t *dv;
    json_object_foreach(json_object_get(o, k), dk, dv)
    {
        double at;
        bool ge;
        if (json_is_number(dv) && bl_dist_key(dk, &at, &ge))
            bl_dist_add(d, at, ge, json_number_value(dv));
    }
}

static void get_disks(json_t *o, const char *k, bl_record *r)
{
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(o, k), i, d)
    {
        json_t *name = json_object_get(d, "name");
        bl_disk *k = bl_record_add_disk(r, json_is_string(name) ? json_string_value(name) : "");
        get_int(d, "read_ios", &k->read_ios);
        get_int(d, "write_ios", &k->write_ios);
        get_int(d, "read_merges", &k->read_merges);
        get_int(d, "write_merges", &k->write_merges);
        get_num(d, "read_ticks_s", &k->read_ticks_s);
        get_num(d, "write_ticks_s", &k->write_ticks_s);
        get_num(d, "in_queue_s", &k->in_queue_s);
        get_num(d, "util_pct", &k->util_pct);
    }
}

static void get_series(json_t *o, const char *k, bl_record *r)
{
    json_t *arr = json_object_get(o, k);
    size_t i;
    json_t *s;
    json_array_foreach(arr, i, s)
    {
        json_t *name = json_object_get(s, "name"), *unit = json_object_get(s, "unit");
        json_t *t = json_object_get(s, "t"), *v = json_object_get(s, "v");
        bl_series *ser =
            bl_record_add_series(r, json_is_string(name) ? json_string_value(name) : "",
                                 json_is_string(unit) ? json_string_value(unit) : "");
        size_t n =
            json_array_size(t) < json_array_size(v) ? json_array_size(t) : json_array_size(v);
        for (size_t k = 0; k < n; k++)
            bl_series_push(ser, json_number_value(json_array_get(t, k)),
                           json_number_value(json_array_get(v, k)));
    }
}

static void get_labels(json_t *o, bl_record *r)
{
    const char *lk;
    json_t *lv;
    json_object_foreach(json_object_get(o, "labels"), lk, lv)
    {
        if (json_is_string(lv))
            bl_record_set_label(r, lk, json_string_value(lv));
    }
}

static void get_field(json_t *o, const bl_field *f, bl_record *r)
{
    json_t *d;
    switch (f->kind) {
    case BL_FK_STR:
        get_str(o, f->name, BL_FIELD(r, f, char *));
        break;
    case BL_FK_INT:
        get_int(o, f->name, BL_FIELD(r, f, int64_t));
        break;
    case BL_FK_NUM:
        get_num(o, f->name, BL_FIELD(r, f, double));
        break;
    case BL_FK_TRI:
        d = json_object_get(o, f->name);
        if (json_is_boolean(d))
            *BL_FIELD(r, f, int) = json_is_true(d) ? BL_TRUE : BL_FALSE;
        break;
    case BL_FK_LABELS:
        get_labels(o, r);
        break;
    case BL_FK_LAT:
        get_lat(o, f->name, BL_FIELD(r, f, bl_lat));
        break;
    case BL_FK_SAMPLES:
        get_samples(o, f->name, BL_FIELD(r, f, bl_samples));
        break;
    case BL_FK_DIST:
        get_dist(o, f->name, BL_FIELD(r, f, bl_dist));
        break;
    case BL_FK_DISKS:
        get_disks(o, f->name, r);
        break;
    case BL_FK_SERIES:
        get_series(o, f->name, r);
        break;
    }
}

bl_record *bl_record_from_json(const char *text, size_t len, char *err, size_t errlen)
{
    bl_record *r = bl_record_decode_fast(text, len);
    return r ? r : bl_record_from_json_dom(text, len, err, errlen);
}

bl_record *bl_record_from_json_dom(const char *text, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *o = json_loadb(text, len, 0, &je);
    if (!o || !json_is_object(o)) {
        if (err)
            snprintf(err, errlen, "not a JSON object: %s", o ? "wrong type" : je.text);
        json_decref(o);
        return NULL;
    }
    bl_record *r = bl_record_new();
    for (size_t i = 0; i < bl_n_fields; i++)
        get_field(o, &bl_fields[i], r);
    json_decref(o);
    return r;
}
