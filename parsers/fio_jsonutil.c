/* Reading fio's JSON documents, shared by the fio-json and fio-client formats. */
#include "fio_jsonutil.h"
#include "../core/latency.h"
#include "../core/strbuf.h"
#include "fio_common.h"
#include "fio_units.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double bl_fj_num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : BL_ABSENT;
}

const char *bl_fj_str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* An option of a job: its own "job options", else the document's "global options". */
const char *bl_fj_option(json_t *job, json_t *global, const char *key, const char *alt)
{
    json_t *jo = json_object_get(job, "job options");
    const char *v = bl_fj_str(jo, key);
    if (!v && alt)
        v = bl_fj_str(jo, alt);
    if (!v)
        v = bl_fj_str(global, key);
    if (!v && alt)
        v = bl_fj_str(global, alt);
    return v;
}

static int cmp_pct(const void *a, const void *b)
{
    const bl_pct *x = a, *y = b;
    return x->pct < y->pct ? -1 : x->pct > y->pct;
}

static int cmp_bin(const void *a, const void *b)
{
    const bl_bin *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

const char *bl_fj_option_v(const bl_jv_node *job, const bl_jv_node *global, const char *key,
                           const char *alt)
{
    const bl_jv_node *jo = bl_jv_get(job, "job options");
    const char *v = bl_jv_str(jo, key);
    if (!v && alt)
        v = bl_jv_str(jo, alt);
    if (!v)
        v = bl_jv_str(global, key);
    if (!v && alt)
        v = bl_jv_str(global, alt);
    return v;
}

/* Whether percentiles are strictly ascending: then qsort, which they were put in for, has
 * nothing to move (and distinct keys have one order only). */
static int ascending(const bl_pct *p, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (!(p[i - 1].pct < p[i].pct))
            return 0;
    return 1;
}

/* A latency's "percentile" object ({"99.000000":..}) into l as bl_lat_add_pct would put it,
 * a key at a time, but in one allocation (a record's percentiles were 17 reallocs). */
static void read_pcts(const bl_jv_node *pct, double unit, bl_lat *l)
{
    bl_pct v[64];
    size_t i, n = 0;
    const bl_jv_node *k;
    int one_go = pct && pct->type == BL_JV_OBJ && pct->size <= 64 && l->n_pct == 0;
    bl_jv_foreach(pct, i, k)
    {
        double p = bl_fio_strtod(k->str, NULL);
        if (!(p > 0 && bl_jv_is_number(k + 1)))
            continue;
        bl_pct add = {bl_fio_pct_round(p), bl_fio_scale(k[1].d, unit)};
        if (!one_go) {
            bl_lat_add_pct(l, add.pct, add.value);
            continue;
        }
        size_t at = 0; /* bl_lat_add_pct's order: ascending, a repeated one's value replaced */
        while (at < n && v[at].pct != add.pct)
            at++;
        if (at < n) {
            v[at].value = add.value;
            continue;
        }
        for (at = n++; at > 0 && v[at - 1].pct > add.pct; at--)
            v[at] = v[at - 1];
        v[at] = add;
    }
    if (one_go && n) {
        l->pct = bl_xmalloc(n * sizeof *l->pct);
        memcpy(l->pct, v, n * sizeof *l->pct);
        l->n_pct = n;
    }
}

/* {"min":..,"max":..,"mean":..,"stddev":..,"N":..,"percentile":{"99.000000":..},"bins":{..}} */
void bl_fj_read_lat_v(const bl_jv_node *o, double unit, bl_lat *l)
{
    if (!o || o->type != BL_JV_OBJ)
        return;
    double n = bl_jv_num(o, "N");
    if (bl_present(n) && n == 0)
        return; /* no I/O of this kind was timed (psync has no slat) */
    l->present = true;
    l->min = bl_fio_scale(bl_jv_num(o, "min"), unit);
    l->max = bl_fio_scale(bl_jv_num(o, "max"), unit);
    l->mean = bl_fio_scale(bl_jv_num(o, "mean"), unit);
    double sd = bl_jv_num(o, "stddev");
    l->stdev = bl_fio_scale(bl_present(sd) ? sd : bl_jv_num(o, "stdev"), unit);
    size_t i;
    const bl_jv_node *k;
    read_pcts(bl_jv_get(o, "percentile"), unit, l);
    /* fio >= 2.99 keys bins by latency; earlier json+ by bin index, beside the
     * FIO_IO_U_PLAT_BITS/VAL/NR keys that say how to turn an index into a latency. */
    const bl_jv_node *bins = bl_jv_get(o, "bins");
    const bl_jv_node *bits = bl_jv_get(bins, "FIO_IO_U_PLAT_BITS");
    int by_index = bits != NULL;
    if (by_index && bl_jv_int(bits) != 6)
        bins = NULL; /* a layout this parser does not know: keep no bins */
    bl_jv_foreach(bins, i, k)
    {
        char *e;
        const bl_jv_node *v = k + 1;
        double at = bl_fio_strtod(k->str, &e);
        if (e == k->str || *e || v->type != BL_JV_INT || v->i <= 0)
            continue;
        if (by_index)
            at = at < BL_PLAT_NR ? (double)bl_plat_idx_to_val((unsigned)at) : NAN;
        if (bl_present(at))
            bl_lat_add_bin(l, bl_fio_scale(at, unit), (uint64_t)v->i);
    }
    /* jansson keeps insertion order, but do not rely on fio's key order. */
    if (l->n_pct > 1 && !ascending(l->pct, l->n_pct))
        qsort(l->pct, l->n_pct, sizeof *l->pct, cmp_pct);
    if (l->n_bins > 1)
        qsort(l->bins, l->n_bins, sizeof *l->bins, cmp_bin);
}

void bl_fj_read_sync_v(const bl_jv_node *job, bl_lat *l)
{
    /* total_ios stays 0 in fio 3.33's JSON even when it timed syncs: N is the count. */
    const bl_jv_node *lat = bl_jv_get(bl_jv_get(job, "sync"), "lat_ns");
    if (bl_jv_num(lat, "N") > 0)
        bl_fj_read_lat_v(lat, 1, l);
}

void bl_fj_read_lat(json_t *o, double unit, bl_lat *l)
{
    bl_jv v = {0};
    bl_jv_from_json(&v, o);
    bl_fj_read_lat_v(v.n ? v.nodes : NULL, unit, l);
    bl_jv_free(&v);
}

void bl_fj_read_sync(json_t *job, bl_lat *l)
{
    bl_jv v = {0};
    bl_jv_from_json(&v, job);
    bl_fj_read_sync_v(v.n ? v.nodes : NULL, l);
    bl_jv_free(&v);
}

long bl_fj_line_at(const bl_text *t, size_t off)
{
    size_t lo = 0, hi = t->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if ((size_t)(t->line[mid] - t->buf) <= off)
            lo = mid;
        else
            hi = mid;
    }
    return (long)lo + 1;
}

/* A copy of the n bytes at s with each comma that only whitespace separates from a closing
 * '}' or ']' (outside strings) made a space: offsets, and so line numbers, stay the same.
 * NULL when there is none. *first gets the offset of the first. */
static char *without_trailing_commas(const char *s, size_t n, size_t *first)
{
    char *c = NULL;
    int in_str = 0;
    for (size_t k = 0; k < n; k++) {
        if (in_str) {
            if (s[k] == '\\')
                k++;
            else if (s[k] == '"')
                in_str = 0;
            continue;
        }
        if (s[k] == '"') {
            in_str = 1;
            continue;
        }
        if (s[k] != ',')
            continue;
        size_t j = k + 1;
        while (j < n && strchr(" \t\r\n", s[j]))
            j++;
        if (j >= n || (s[j] != '}' && s[j] != ']'))
            continue;
        if (!c) {
            c = bl_xmalloc(n + 1);
            memcpy(c, s, n);
            c[n] = '\0';
            *first = k;
        }
        c[k] = ' ';
    }
    return c;
}

/* Appends why to the notes of records [from, out->recs.n). */
static void note_records(bl_parse_out *out, size_t from, const char *why)
{
    for (size_t k = from; k < out->recs.n; k++) {
        bl_record *r = out->recs.v[k];
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "%s%s%s", r->note ? r->note : "", r->note ? "; " : "", why);
        char *note = bl_strbuf_take(&sb);
        bl_record_set_str(&r->note, note);
        free(note);
        bl_strbuf_free(&sb);
    }
}

/* A document that jansson refuses only for trailing commas (a README's hand-shortened JSON,
 * "},\n}"): read with them gone, its records noted and a warning at the first. Returns the
 * document or NULL. */
static json_t *load_lenient(const bl_text *t, const char *joined, size_t off, bl_parse_out *out,
                            const char *what, size_t *from, long *last)
{
    size_t first;
    char *c = without_trailing_commas(joined + off, t->len - off, &first);
    if (!c)
        return NULL;
    json_error_t err;
    json_t *doc = json_loadb(c, t->len - off, JSON_DISABLE_EOF_CHECK, &err);
    free(c);
    if (doc) {
        *last = bl_fj_line_at(t, off + (size_t)err.position);
        bl_out_warn(out, bl_fj_line_at(t, off + first),
                    "%s: a trailing comma before a closing bracket (not JSON); read as if "
                    "it were not there",
                    what);
        *from = out->recs.n;
    }
    return doc;
}

/* The text with its newlines back, as jansson needs it: made when first needed. */
static const char *joined_text(const bl_text *t, char **joined)
{
    if (*joined)
        return *joined;
    *joined = bl_xmalloc(t->len + 1);
    memcpy(*joined, t->buf, t->len + 1);
    for (size_t k = 0; k < t->len; k++)
        if ((*joined)[k] == '\0')
            (*joined)[k] = '\n';
    return *joined;
}

/* A document read whole handed to stream ops as one read by elements would be. */
static void doc_to_stream(const bl_text *t, json_t *doc, long first, long last, const char *key,
                          const bl_fj_stream *ops, void *ctx)
{
    bl_fj_src src;
    bl_fj_src_text(&src, t);
    ops->begin(doc, first, last, &src, ctx);
    size_t i;
    json_t *el;
    bl_jv v = {0};
    json_array_foreach(json_object_get(doc, key), i, el)
    {
        bl_jv_from_json(&v, el);
        ops->element(v.nodes, i, ctx);
    }
    bl_jv_free(&v);
    ops->end(doc, ctx);
}

static void each_doc(const bl_text *t, bl_parse_out *out, const char *key, const char *what,
                     bl_fj_looks_fn looks, bl_fj_doc_fn fn, const bl_fj_stream *ops, void *ctx)
{
    char *own = NULL;
    bl_fj_src src;
    bl_fj_src_text(&src, t);
    for (size_t i = 0; i < t->nlines; i++) {
        const char *p = bl_fio_skip(t->line[i]);
        if (*p != '{')
            continue;
        size_t off = (size_t)(p - t->buf), end;
        if (ops && bl_fj_stream_doc(&src, off, key, ops, ctx, &end)) {
            i = (size_t)bl_fj_line_at(t, end) - 1;
            continue;
        }
        const char *joined = joined_text(t, &own);
        json_error_t err;
        json_t *doc = json_loadb(joined + off, t->len - off, JSON_DISABLE_EOF_CHECK, &err);
        long last = bl_fj_line_at(t, off + (size_t)err.position);
        size_t lenient = SIZE_MAX;
        if (!doc && looks(t, i)) {
            doc = load_lenient(t, joined, off, out, what, &lenient, &last);
            if (!doc) {
                bl_out_error(out, last, "%s: %s", what, err.text);
                continue;
            }
        }
        if (!doc)
            continue;
        if (json_is_object(doc) && json_is_array(json_object_get(doc, key))) {
            if (ops)
                doc_to_stream(t, doc, (long)i + 1, last, key, ops, ctx);
            else
                fn(doc, (long)i + 1, last, ctx);
            if (lenient != SIZE_MAX)
                note_records(out, lenient,
                             "fio JSON read leniently: trailing commas (not JSON) "
                             "ignored");
            i = (size_t)last - 1;
        }
        json_decref(doc);
    }
    free(own);
}

void bl_fj_each_doc(const bl_text *t, bl_parse_out *out, const char *key, const char *what,
                    bl_fj_looks_fn looks, bl_fj_doc_fn fn, void *ctx)
{
    each_doc(t, out, key, what, looks, fn, NULL, ctx);
}

void bl_fj_each_doc_stream(const bl_text *t, bl_parse_out *out, const char *key, const char *what,
                           bl_fj_looks_fn looks, const bl_fj_stream *ops, void *ctx)
{
    each_doc(t, out, key, what, looks, NULL, ops, ctx);
}
