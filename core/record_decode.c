/* The fast reader of record_decode.h: the exact form jsonl.c writes, read in place with
 * json_scan, building the record with no DOM. It answers only where it gives what jansson
 * and jsonl.c's reader give: any doubt (an escaped key, a \u escape, a repeated key whose
 * value jansson would replace, a number it cannot reproduce, nesting past 32) and it says
 * so, and the caller takes the jansson path. */
#include "record_decode.h"
#include "fields.h"
#include "json_scan.h"
#include "units.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 128 }; /* members of one labels/p/dist object checked for repeats */

typedef struct dec {
    bl_js s;
    bl_strbuf str, key;
    const bl_decode_want *want; /* NULL: the whole record */
} dec;

typedef struct span {
    const char *p;
    size_t n;
} span;

/* ---- numbers ---------------------------------------------------------------------------- */

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A real of at most 15 significant digits and a power of ten within 10^22 is one exact
 * double times or over another: one IEEE operation, correctly rounded, as strtod is. */
static int real_fast(const char *p, const char *e, double *out)
{
#if FLT_EVAL_METHOD != 0
    (void)p, (void)e, (void)out;
    return -1;
#else
    int neg = *p == '-';
    p += neg;
    uint64_t m = 0;
    int sig = 0, exp10 = 0;
    for (; p < e && *p >= '0' && *p <= '9'; p++) {
        if (m || *p != '0')
            sig++;
        m = m * 10 + (uint64_t)(*p - '0');
        if (sig > 15)
            return -1;
    }
    if (p < e && *p == '.')
        for (p++; p < e && *p >= '0' && *p <= '9'; p++) {
            if (m || *p != '0')
                sig++;
            m = m * 10 + (uint64_t)(*p - '0');
            exp10--;
            if (sig > 15)
                return -1;
        }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = *p == '-';
        p += *p == '-' || *p == '+';
        int x = 0;
        for (; p < e; p++)
            x = x * 10 + (*p - '0'); /* at most two digits (bl_js_number) */
        exp10 += eneg ? -x : x;
    }
    double d = (double)m;
    if (m && (exp10 < -22 || exp10 > 22))
        return -1;
    if (m)
        d = exp10 < 0 ? d / pow10_exact[-exp10] : d * pow10_exact[exp10];
    *out = neg ? -d : d;
    return 0;
#endif
}

/* A number as jansson reads it: an integer through int64 (so "-0" is 0), a real as strtod
 * does; a real jansson refuses (overflow) or a locale's strtod cannot read is a doubt. */
static int number(dec *d, double *out, int64_t *iv, int *is_int)
{
    const char *tok;
    size_t len;
    if (bl_js_number(&d->s, &tok, &len, is_int) != 0)
        return -1;
    if (*is_int) {
        const char *p = tok + (*tok == '-');
        int64_t v = 0;
        for (; p < tok + len; p++)
            v = v * 10 + (*p - '0'); /* at most 18 digits */
        *iv = *tok == '-' ? -v : v;
        *out = (double)*iv;
        return 0;
    }
    if (real_fast(tok, tok + len, out) == 0)
        return 0;
    char buf[320];
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end == buf + len && isfinite(*out) ? 0 : -1;
}

static int is_number_start(const bl_js *s)
{
    return s->p < s->e && (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'));
}

/* get_num: a number sets *dst; anything else is checked and left. */
static int get_num(dec *d, double *dst)
{
    if (!is_number_start(&d->s))
        return bl_js_value(&d->s);
    int64_t iv;
    int is_int;
    return number(d, dst, &iv, &is_int);
}

/* get_int: an integer as is, a real when it is a count, else -1. */
static int get_int(dec *d, int64_t *dst)
{
    if (!is_number_start(&d->s))
        return bl_js_value(&d->s);
    double v;
    int64_t iv;
    int is_int;
    if (number(d, &v, &iv, &is_int) != 0)
        return -1;
    if (is_int)
        *dst = iv;
    else if (!bl_to_count(v, dst))
        *dst = -1;
    return 0;
}

/* A value left out, checked as JSON. A number past a double's range (jansson refuses the
 * whole record) has over 200 digits in a row, its exponent two at most (bl_js_number): a
 * value holding such a run is a doubt. */
static int skip(dec *d)
{
    const char *from = d->s.p;
    if (bl_js_value(&d->s) != 0)
        return -1;
    if (d->s.p - from <= 200)
        return 0;
    size_t digits = 0;
    for (const char *p = from; p < d->s.p; p++)
        if ((digits = *p >= '0' && *p <= '9' ? digits + 1 : 0) > 200)
            return -1;
    return 0;
}

/* ---- containers ------------------------------------------------------------------------- */

/* fn reads the member's value at d->s.p; key is its text (a key with an escape is a doubt). */
typedef int (*member_fn)(dec *d, void *ctx, const char *key, size_t n);
typedef int (*element_fn)(dec *d, void *ctx, size_t i);

static int open_(dec *d, char c)
{
    if (d->s.p >= d->s.e || *d->s.p != c || ++d->s.depth > 32)
        return -1;
    d->s.p++;
    bl_js_ws(&d->s);
    return 0;
}

/* After a member or element: 1 for another, 0 at the close, -1 otherwise. */
static int next(dec *d, char close)
{
    bl_js_ws(&d->s);
    if (d->s.p < d->s.e && *d->s.p == ',') {
        d->s.p++;
        bl_js_ws(&d->s);
        return 1;
    }
    if (d->s.p < d->s.e && *d->s.p == close) {
        d->s.p++;
        d->s.depth--;
        return 0;
    }
    return -1;
}

static int object(dec *d, member_fn fn, void *ctx)
{
    if (open_(d, '{') != 0)
        return -1;
    if (d->s.p < d->s.e && *d->s.p == '}') {
        d->s.p++;
        d->s.depth--;
        return 0;
    }
    for (;;) {
        const char *k = d->s.p + 1;
        if (bl_js_string(&d->s, NULL) != 0)
            return -1;
        size_t n = (size_t)(d->s.p - 1 - k);
        if (memchr(k, '\\', n))
            return -1;
        bl_js_ws(&d->s);
        if (d->s.p >= d->s.e || *d->s.p != ':')
            return -1;
        d->s.p++;
        bl_js_ws(&d->s);
        if (fn(d, ctx, k, n) != 0)
            return -1;
        int more = next(d, '}');
        if (more <= 0)
            return more;
    }
}

static int array(dec *d, element_fn fn, void *ctx)
{
    if (open_(d, '[') != 0)
        return -1;
    if (d->s.p < d->s.e && *d->s.p == ']') {
        d->s.p++;
        d->s.depth--;
        return 0;
    }
    for (size_t i = 0;; i++) {
        if (fn(d, ctx, i) != 0)
            return -1;
        int more = next(d, ']');
        if (more <= 0)
            return more;
    }
}

static int is(const char *key, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(key, name, n) == 0;
}

/* A known member seen before: jansson keeps the last, we cannot undo the first. */
static int once(unsigned *seen, unsigned bit)
{
    if (*seen & bit)
        return -1;
    *seen |= bit;
    return 0;
}

/* Keys of one object, for repeats; past MAX_KEYS a doubt. */
typedef struct keyset {
    span k[MAX_KEYS];
    size_t n;
} keyset;

static int keyset_add(keyset *ks, const char *key, size_t n)
{
    if (ks->n == MAX_KEYS)
        return -1;
    for (size_t i = 0; i < ks->n; i++)
        if (ks->k[i].n == n && memcmp(ks->k[i].p, key, n) == 0)
            return -1;
    ks->k[ks->n++] = (span){key, n};
    return 0;
}

static const char *key_str(dec *d, const char *key, size_t n)
{
    bl_strbuf_reset(&d->key);
    bl_strbuf_putn(&d->key, key, n);
    return d->key.s;
}

/* A string value into d->str; 1 when the value is no string (checked and skipped). */
static int string_or_skip(dec *d)
{
    if (d->s.p < d->s.e && *d->s.p == '"')
        return bl_js_string(&d->s, &d->str) != 0 ? -1 : 0;
    return bl_js_value(&d->s) != 0 ? -1 : 1;
}

/* A key read as jsonl.c reads it, strtod's prefix; a key that is one JSON number whole is
 * read without strtod where real_fast can. */
static double key_number(dec *d, const char *key, size_t n)
{
    bl_js s = {key, key + n, 0};
    const char *tok;
    size_t len;
    int is_int;
    double v;
    if (bl_js_number(&s, &tok, &len, &is_int) == 0 && len == n && real_fast(key, key + n, &v) == 0)
        return v;
    return strtod(key_str(d, key, n), NULL);
}

/* ---- latency ------------------------------------------------------------------------------ */

typedef struct pctx {
    bl_lat *l;
    keyset ks;
} pctx;

static int pct_member(dec *d, void *ctx, const char *key, size_t n)
{
    pctx *c = ctx;
    if (keyset_add(&c->ks, key, n) != 0)
        return -1;
    if (!is_number_start(&d->s))
        return bl_js_value(&d->s);
    double v = 0;
    if (d->want && d->want->pct_keys) {
        if (skip(d) != 0)
            return -1;
    } else {
        int64_t iv;
        int is_int;
        if (number(d, &v, &iv, &is_int) != 0)
            return -1;
    }
    bl_lat_add_pct(c->l, key_number(d, key, n), v);
    return 0;
}

typedef struct bin {
    double v[2];
    int num[2];
} bin;

static int bin_element(dec *d, void *ctx, size_t i)
{
    bin *b = ctx;
    if (i > 1)
        return bl_js_value(&d->s);
    if (!is_number_start(&d->s))
        return bl_js_value(&d->s);
    int64_t iv;
    int is_int;
    b->num[i] = 1;
    return number(d, &b->v[i], &iv, &is_int);
}

static int bins_element(dec *d, void *ctx, size_t i)
{
    (void)i;
    if (d->s.p >= d->s.e || *d->s.p != '[')
        return bl_js_value(&d->s);
    bin b = {{0, 0}, {0, 0}};
    if (array(d, bin_element, &b) != 0)
        return -1;
    /* as jsonl.c: a count is a whole number of I/Os */
    double count = b.num[1] ? b.v[1] : -1;
    if (b.num[0] && count >= 0 && count < 18446744073709551616.0)
        bl_lat_add_bin((bl_lat *)ctx, b.v[0], (uint64_t)count);
    return 0;
}

typedef struct latctx {
    bl_lat *l;
    unsigned seen;
} latctx;

static int lat_member(dec *d, void *ctx, const char *key, size_t n)
{
    latctx *c = ctx;
    static const char *const names[] = {"min", "max", "mean", "stdev", "p", "bins"};
    for (unsigned i = 0; i < 6; i++) {
        if (!is(key, n, names[i]))
            continue;
        if (once(&c->seen, 1u << i) != 0)
            return -1;
        double *num[] = {&c->l->min, &c->l->max, &c->l->mean, &c->l->stdev};
        if (d->want && d->want->pct_keys && i != 2 && i != 4)
            return skip(d);
        if (i < 4)
            return get_num(d, num[i]);
        if (i == 4) {
            if (d->s.p >= d->s.e || *d->s.p != '{')
                return bl_js_value(&d->s);
            pctx p = {.l = c->l};
            return object(d, pct_member, &p);
        }
        if (d->s.p >= d->s.e || *d->s.p != '[')
            return bl_js_value(&d->s);
        return array(d, bins_element, c->l);
    }
    return bl_js_value(&d->s);
}

typedef struct samplesctx {
    bl_samples *s;
    unsigned seen;
} samplesctx;

static int samples_member(dec *d, void *ctx, const char *key, size_t n)
{
    samplesctx *c = ctx;
    bl_samples *s = c->s;
    static const char *const names[] = {"min", "max", "mean", "stdev", "samples"};
    for (unsigned i = 0; i < 5; i++) {
        if (!is(key, n, names[i]))
            continue;
        if (once(&c->seen, 1u << i) != 0)
            return -1;
        double *num[] = {&s->min, &s->max, &s->mean, &s->stdev};
        return i < 4 ? get_num(d, num[i]) : get_int(d, &s->count);
    }
    return bl_js_value(&d->s);
}

/* ---- distributions, devices, series, labels ----------------------------------------------- */

typedef struct distctx {
    bl_dist *dist;
    keyset ks;
} distctx;

static int dist_member(dec *d, void *ctx, const char *key, size_t n)
{
    distctx *c = ctx;
    if (keyset_add(&c->ks, key, n) != 0)
        return -1;
    if (!is_number_start(&d->s))
        return bl_js_value(&d->s);
    double v, at;
    int64_t iv;
    int is_int;
    bool ge;
    if (number(d, &v, &iv, &is_int) != 0)
        return -1;
    if (bl_dist_key(key_str(d, key, n), &at, &ge))
        bl_dist_add(c->dist, at, ge, v);
    return 0;
}

typedef struct diskctx {
    bl_disk k;
    bl_strbuf name;
    int named;
    unsigned seen;
} diskctx;

static int disk_member(dec *d, void *ctx, const char *key, size_t n)
{
    diskctx *c = ctx;
    static const char *const names[] = {"name",          "read_ios",     "write_ios",
                                        "read_merges",   "write_merges", "read_ticks_s",
                                        "write_ticks_s", "in_queue_s",   "util_pct"};
    for (unsigned i = 0; i < 9; i++) {
        if (!is(key, n, names[i]))
            continue;
        if (once(&c->seen, 1u << i) != 0)
            return -1;
        int64_t *ints[] = {&c->k.read_ios, &c->k.write_ios, &c->k.read_merges, &c->k.write_merges};
        double *nums[] = {&c->k.read_ticks_s, &c->k.write_ticks_s, &c->k.in_queue_s,
                          &c->k.util_pct};
        if (i == 0) {
            int rc = string_or_skip(d);
            if (rc == 0) {
                bl_strbuf_reset(&c->name);
                bl_strbuf_puts(&c->name, d->str.s);
            }
            c->named = rc == 0;
            return rc < 0 ? -1 : 0;
        }
        return i < 5 ? get_int(d, ints[i - 1]) : get_num(d, nums[i - 5]);
    }
    return bl_js_value(&d->s);
}

static int disks_element(dec *d, void *ctx, size_t i)
{
    (void)i;
    bl_record *r = ctx;
    diskctx c = {.k = bl_disk_absent(NULL)};
    bl_strbuf_init(&c.name);
    int rc;
    if (d->s.p < d->s.e && *d->s.p == '{')
        rc = object(d, disk_member, &c);
    else
        rc = bl_js_value(&d->s);
    if (rc == 0) {
        bl_disk *k = bl_record_add_disk(r, c.named ? c.name.s : "");
        char *name = k->name;
        *k = c.k;
        k->name = name;
    }
    bl_strbuf_free(&c.name);
    return rc;
}

typedef struct doubles {
    double *v;
    size_t n, cap;
} doubles;

static int doubles_element(dec *d, void *ctx, size_t i)
{
    (void)i;
    doubles *a = ctx;
    double v = 0; /* json_number_value of what is no number */
    if (is_number_start(&d->s)) {
        int64_t iv;
        int is_int;
        if (number(d, &v, &iv, &is_int) != 0)
            return -1;
    } else if (bl_js_value(&d->s) != 0) {
        return -1;
    }
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->v = bl_xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = v;
    return 0;
}

typedef struct seriesctx {
    bl_strbuf name, unit;
    int named, united;
    doubles t, v;
    unsigned seen;
} seriesctx;

static int series_member(dec *d, void *ctx, const char *key, size_t n)
{
    seriesctx *c = ctx;
    static const char *const names[] = {"name", "unit", "t", "v"};
    for (unsigned i = 0; i < 4; i++) {
        if (!is(key, n, names[i]))
            continue;
        if (once(&c->seen, 1u << i) != 0)
            return -1;
        if (i < 2) {
            int rc = string_or_skip(d);
            if (rc < 0)
                return -1;
            if (rc == 0) {
                bl_strbuf *dst = i ? &c->unit : &c->name;
                bl_strbuf_reset(dst);
                bl_strbuf_puts(dst, d->str.s);
                *(i ? &c->united : &c->named) = 1;
            }
            return 0;
        }
        if (d->s.p >= d->s.e || *d->s.p != '[')
            return bl_js_value(&d->s);
        return array(d, doubles_element, i == 2 ? &c->t : &c->v);
    }
    return bl_js_value(&d->s);
}

static int series_element(dec *d, void *ctx, size_t i)
{
    (void)i;
    bl_record *r = ctx;
    seriesctx c;
    memset(&c, 0, sizeof c);
    bl_strbuf_init(&c.name);
    bl_strbuf_init(&c.unit);
    int rc;
    if (d->s.p < d->s.e && *d->s.p == '{')
        rc = object(d, series_member, &c);
    else
        rc = bl_js_value(&d->s);
    if (rc == 0) {
        bl_series *s = bl_record_add_series(r, c.named ? c.name.s : "", c.united ? c.unit.s : "");
        size_t n = c.t.n < c.v.n ? c.t.n : c.v.n;
        for (size_t k = 0; k < n; k++)
            bl_series_push(s, c.t.v[k], c.v.v[k]);
    }
    bl_strbuf_free(&c.name);
    bl_strbuf_free(&c.unit);
    free(c.t.v);
    free(c.v.v);
    return rc;
}

typedef struct labelctx {
    bl_record *r;
    keyset ks;
} labelctx;

static int label_member(dec *d, void *ctx, const char *key, size_t n)
{
    labelctx *c = ctx;
    if (keyset_add(&c->ks, key, n) != 0)
        return -1;
    int rc = string_or_skip(d);
    if (rc == 0)
        bl_record_set_label(c->r, key_str(d, key, n), d->str.s);
    return rc < 0 ? -1 : 0;
}

/* ---- the record ------------------------------------------------------------------------- */

typedef struct top {
    bl_record *r;
    size_t cursor;           /* the writer's order: the next field is usually the next key */
    unsigned char seen[256]; /* bl_n_fields is checked against it */
} top;

static const bl_field *find_field(top *t, const char *key, size_t n)
{
    for (size_t j = 0; j < bl_n_fields; j++) {
        size_t i = (t->cursor + j) % bl_n_fields;
        if (is(key, n, bl_fields[i].name)) {
            t->cursor = i + 1;
            return &bl_fields[i];
        }
    }
    return NULL;
}

static int field_value(dec *d, const bl_field *f, bl_record *r)
{
    char c = d->s.p < d->s.e ? *d->s.p : 0;
    int rc;
    switch (f->kind) {
    case BL_FK_STR:
        rc = string_or_skip(d);
        if (rc == 0)
            bl_record_set_str(BL_FIELD(r, f, char *), d->str.s);
        return rc < 0 ? -1 : 0;
    case BL_FK_INT:
        return get_int(d, BL_FIELD(r, f, int64_t));
    case BL_FK_NUM:
        return get_num(d, BL_FIELD(r, f, double));
    case BL_FK_TRI:
        if (c == 't' || c == 'f')
            *BL_FIELD(r, f, int) = c == 't' ? BL_TRUE : BL_FALSE;
        return bl_js_value(&d->s);
    case BL_FK_LABELS: {
        if (c != '{')
            return bl_js_value(&d->s);
        labelctx lc = {.r = r};
        return object(d, label_member, &lc);
    }
    case BL_FK_LAT: {
        if (c != '{')
            return bl_js_value(&d->s);
        latctx lc = {BL_FIELD(r, f, bl_lat), 0};
        lc.l->present = true;
        return object(d, lat_member, &lc);
    }
    case BL_FK_SAMPLES: {
        if (c != '{')
            return bl_js_value(&d->s);
        bl_samples *s = BL_FIELD(r, f, bl_samples);
        s->present = true;
        samplesctx sc = {s, 0};
        return object(d, samples_member, &sc);
    }
    case BL_FK_DIST: {
        if (c != '{')
            return bl_js_value(&d->s);
        distctx dc = {.dist = BL_FIELD(r, f, bl_dist)};
        return object(d, dist_member, &dc);
    }
    case BL_FK_DISKS:
        return c == '[' ? array(d, disks_element, r) : bl_js_value(&d->s);
    case BL_FK_SERIES:
        return c == '[' ? array(d, series_element, r) : bl_js_value(&d->s);
    }
    return -1;
}

static int top_member(dec *d, void *ctx, const char *key, size_t n)
{
    top *t = ctx;
    const bl_field *f = find_field(t, key, n);
    if (!f)
        return bl_js_value(&d->s); /* jsonl.c's reader keeps no unknown member */
    size_t i = (size_t)(f - bl_fields);
    if (t->seen[i]++)
        return -1;
    if (d->want && !(d->want->fields & BL_DECODE_FIELD(i)))
        return skip(d);
    return field_value(d, f, t->r);
}

bl_record *bl_record_decode_want(const char *text, size_t len, const bl_decode_want *want)
{
    if (bl_n_fields > sizeof((top *)0)->seen || (want && bl_n_fields > 64))
        return NULL;
    dec d = {.s = {text, text + len, 0}, .want = want};
    bl_strbuf_init(&d.str);
    bl_strbuf_init(&d.key);
    bl_js_ws(&d.s);
    top t;
    memset(&t, 0, sizeof t);
    t.r = bl_record_new();
    int rc = object(&d, top_member, &t);
    if (rc == 0) {
        bl_js_ws(&d.s);
        rc = d.s.p == d.s.e ? 0 : -1;
    }
    bl_strbuf_free(&d.str);
    bl_strbuf_free(&d.key);
    if (rc != 0) {
        bl_record_free(t.r);
        return NULL;
    }
    return t.r;
}

bl_record *bl_record_decode_fast(const char *text, size_t len)
{
    return bl_record_decode_want(text, len, NULL);
}

bl_record *bl_labels_decode_fast(const char *text, size_t len)
{
    dec d = {.s = {text, text + len, 0}};
    bl_strbuf_init(&d.str);
    bl_strbuf_init(&d.key);
    bl_js_ws(&d.s);
    labelctx lc = {.r = bl_record_new()};
    int rc = object(&d, label_member, &lc);
    if (rc == 0) {
        bl_js_ws(&d.s);
        rc = d.s.p == d.s.e ? 0 : -1;
    }
    bl_strbuf_free(&d.str);
    bl_strbuf_free(&d.key);
    if (rc != 0) {
        bl_record_free(lc.r);
        return NULL;
    }
    return lc.r;
}
