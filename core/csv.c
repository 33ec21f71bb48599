/* CSV rows, from records or straight from their stored JSON text: decoding every record
 * (jansson builds a tree, the record copies it out) cost 10x the time of `sqlite3 .dump`.
 * The direct reader handles only what is plainly valid JSON; anything else (escapes it does
 * not know, lone surrogates, duplicate labels, huge integers, deep nesting) goes through
 * the decoder, so both ways give the same row. */
#include "csv.h"
#include "escape.h"
#include "fields.h"
#include "json_scan.h"
#include "jsonl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void csv_field(bl_strbuf *sb, const char *v, size_t n)
{
    bl_esc_csv(sb, v, n);
}

/* A scalar: text escaped (a formula stays text), a number as written ("-3.5" is a figure). */
static void csv_scalar(bl_strbuf *sb, const bl_field *f, const char *v)
{
    if (!v)
        return;
    if (f->kind == BL_FK_STR)
        csv_field(sb, v, strlen(v));
    else
        bl_strbuf_puts(sb, v);
}

static double pct_of(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == p)
            return l->pct[i].value;
    return BL_ABSENT;
}

static void csv_num(bl_strbuf *sb, double v)
{
    if (bl_present(v))
        bl_strbuf_put_double(sb, v);
}

void bl_csv_header(bl_strbuf *sb)
{
    int first = 1;
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        char base[64];
        snprintf(base, sizeof base, "%.*s", (int)(strlen(f->name) - 3), f->name); /* -"_ns" */
        if (f->flags & BL_FF_CSV)
            bl_strbuf_printf(sb, "%s%s", first ? "" : ",", f->name), first = 0;
        if (f->kind == BL_FK_LAT && (f->flags & BL_FF_CSV_MEAN))
            bl_strbuf_printf(sb, "%s%s_mean_ns", first ? "" : ",", base), first = 0;
        if (f->kind == BL_FK_LAT && (f->flags & BL_FF_CSV_P99))
            bl_strbuf_printf(sb, "%s%s_p99_ns", first ? "" : ",", base), first = 0;
    }
    bl_strbuf_putc(sb, '\n');
}

void bl_csv_row(bl_strbuf *sb, const bl_record *r)
{
    char buf[64];
    int first = 1;
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        if (f->flags & BL_FF_CSV) {
            if (!first)
                bl_strbuf_putc(sb, ',');
            first = 0;
            if (f->kind == BL_FK_LABELS) {
                bl_strbuf lb;
                bl_strbuf_init(&lb);
                for (size_t k = 0; k < r->n_labels; k++)
                    bl_strbuf_printf(&lb, "%s%s=%s", k ? "; " : "", r->labels[k].key,
                                     r->labels[k].value);
                if (lb.len)
                    csv_field(sb, lb.s, lb.len);
                bl_strbuf_free(&lb);
            } else {
                csv_scalar(sb, f, bl_field_text(f, r, buf, sizeof buf));
            }
        }
        if (f->kind != BL_FK_LAT)
            continue;
        const bl_lat *l = BL_CFIELD(r, f, bl_lat);
        if (f->flags & BL_FF_CSV_MEAN) {
            bl_strbuf_putc(sb, ',');
            csv_num(sb, l->present ? l->mean : BL_ABSENT);
        }
        if (f->flags & BL_FF_CSV_P99) {
            bl_strbuf_putc(sb, ',');
            csv_num(sb, pct_of(l, 99));
        }
    }
    bl_strbuf_putc(sb, '\n');
}

/* ---- the row from the text: one pass; a value is kept as where it starts ---------- */

/* The number at p (after validation) as jansson reads it: 1 with *v or *iv, 0 when the
 * value is no number (absent), -1 when unsure. */
static int num_at(const char *p, const char *e, double *v, int want_int, int64_t *iv)
{
    bl_js s = {p, e, 0};
    const char *tok;
    size_t len;
    int is_int;
    if (p >= e || !(*p == '-' || (*p >= '0' && *p <= '9')))
        return 0;
    if (bl_js_number(&s, &tok, &len, &is_int) != 0)
        return -1;
    char buf[400];
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, tok, len);
    buf[len] = 0;
    if (want_int) {
        if (!is_int)
            return -1; /* a fraction where a count belongs: the decoder's rule */
        *iv = strtoll(buf, NULL, 10);
        return 1;
    }
    *v = strtod(buf, NULL);
    return isinf(*v) ? -1 : 1;
}

/* Whether put_double prints the number of token t as t itself: an integer of at most 15
 * digits (printed "%.0f"), or a decimal of at most 15 significant digits, no trailing zero,
 * between 1e-4 and 1e15 (printed "%.15g", which rounds it back to these digits). */
static int canonical(const char *t, size_t n)
{
    size_t i = t[0] == '-', int_digits = 0, sig = 0, lead0 = 0;
    int dot = 0, nonzero = 0;
    for (; i < n; i++) {
        char c = t[i];
        if (c == '.') {
            dot = 1;
            continue;
        }
        if (c < '0' || c > '9')
            return 0; /* an exponent */
        if (!dot)
            int_digits++;
        if (c != '0' || nonzero) {
            nonzero = 1;
            sig++;
        } else if (dot) {
            lead0++; /* zeros after "0." before the first significant digit */
        }
    }
    if (!dot)
        return int_digits <= 15;
    if (t[n - 1] == '0' || sig > 15 || !nonzero)
        return 0;
    if (int_digits == 1 && t[t[0] == '-'] == '0')
        return lead0 <= 3; /* 0.000123 is %g's last fixed form */
    return int_digits <= 15;
}

/* The number at p as put_double prints it; 1 written, 0 not a number, -1 unsure. */
static int num_put(bl_strbuf *sb, const char *p, const char *e)
{
    if (p >= e || !(*p == '-' || (*p >= '0' && *p <= '9')))
        return 0;
    bl_js s = {p, e, 0};
    const char *tok;
    size_t len;
    int is_int;
    if (bl_js_number(&s, &tok, &len, &is_int) != 0)
        return -1;
    int neg_zero = is_int && len == 2 && tok[0] == '-'; /* "-0": jansson's integer 0 */
    if (canonical(tok, len) && !neg_zero) {
        bl_strbuf_putn(sb, tok, len);
        return 1;
    }
    if (is_int) { /* jansson reads an integer as int64, then as a double */
        csv_num(sb, (double)strtoll(tok, NULL, 10));
        return 1;
    }
    double v;
    int64_t iv;
    int k = num_at(p, e, &v, 0, &iv);
    if (k == 1)
        csv_num(sb, v);
    return k;
}

/* Whether a percentile's key reads as 99 (the decoder reads keys with strtod). Keys as
 * benchlog writes them (digits, one point, no leading or trailing zero) are compared as
 * text; anything else is read as the decoder reads it. */
static int is_99(const char *k, size_t n)
{
    int plain = n > 0 && k[0] != '0' && k[0] != '.' && k[n - 1] != '.';
    size_t dots = 0;
    for (size_t i = 0; plain && i < n; i++) {
        if (k[i] == '.')
            dots++;
        else if (k[i] < '0' || k[i] > '9')
            plain = 0;
    }
    if (plain && dots <= 1 && !(dots && k[n - 1] == '0'))
        return n == 2 && k[0] == '9' && k[1] == '9';
    return strtod(k, NULL) == 99;
}

#define MAX_FIELDS 64
#define MAX_LABELS 64

typedef struct lat_at {
    const char *mean, *p99; /* the last "mean", the "99" of the last "p" */
    int n99;                /* keys of the last "p" reading as 99 */
} lat_at;

typedef struct row_ctx {
    const char *at[MAX_FIELDS]; /* each scalar's value, the last one given */
    lat_at lat[MAX_FIELDS];
    int cur;          /* the latency being read */
    bl_strbuf labels; /* "k=v; k=v" of the last labels object */
    bl_strbuf val;    /* a label's value */
    size_t key_off[MAX_LABELS], n_keys;
    bl_strbuf keys;      /* the label keys seen, NUL-separated */
    int has_labels, bad; /* bad: the decoder must decide */
    size_t hint;
} row_ctx;

static int label_member(void *ctx, const bl_strbuf *key, bl_js *s)
{
    row_ctx *c = ctx;
    for (size_t i = 0; i < c->n_keys; i++)
        if (strcmp(c->keys.s + c->key_off[i], key->s) == 0)
            c->bad = 1; /* a repeated label: the decoder keeps its first place, last value */
    if (c->n_keys == MAX_LABELS) {
        c->bad = 1;
    } else {
        c->key_off[c->n_keys++] = c->keys.len;
        bl_strbuf_putn(&c->keys, key->s, key->len + 1);
    }
    if (s->p < s->e && *s->p != '"')
        return bl_js_value(s); /* not a string: the decoder skips it */
    if (bl_js_string(s, &c->val) != 0)
        return -1;
    if (c->labels.len)
        bl_strbuf_putn(&c->labels, "; ", 2);
    bl_strbuf_putn(&c->labels, key->s, key->len);
    bl_strbuf_putc(&c->labels, '=');
    bl_strbuf_putn(&c->labels, c->val.s, c->val.len);
    return 0;
}

static int pct_member(void *ctx, const bl_strbuf *key, bl_js *s)
{
    row_ctx *c = ctx;
    const char *at = s->p;
    if (bl_js_value(s) != 0)
        return -1;
    if (*at != '-' && (*at < '0' || *at > '9'))
        return 0; /* not a number: the decoder skips it */
    if (is_99(key->s, key->len)) {
        c->lat[c->cur].p99 = at;
        c->lat[c->cur].n99++;
    }
    return 0;
}

static int lat_member(void *ctx, const bl_strbuf *key, bl_js *s)
{
    row_ctx *c = ctx;
    lat_at *l = &c->lat[c->cur];
    if (strcmp(key->s, "mean") == 0)
        l->mean = s->p;
    if (strcmp(key->s, "p") != 0)
        return bl_js_value(s);
    l->p99 = NULL; /* the last "p" counts, an object or not */
    l->n99 = 0;
    if (s->p >= s->e || *s->p != '{')
        return bl_js_value(s);
    bl_strbuf key2;
    bl_strbuf_init(&key2);
    int rc = bl_js_object(s, pct_member, c, &key2);
    bl_strbuf_free(&key2);
    return rc;
}

static int top_member(void *ctx, const bl_strbuf *key, bl_js *s)
{
    row_ctx *c = ctx;
    size_t i = SIZE_MAX;
    /* benchlog writes the keys in the table's order: look on from the last one found */
    for (size_t k = 0; i == SIZE_MAX && k < bl_n_fields; k++) {
        size_t at = (c->hint + k) % bl_n_fields;
        if (strcmp(bl_fields[at].name, key->s) == 0)
            i = at;
    }
    if (i == SIZE_MAX)
        return bl_js_value(s);
    c->hint = i + 1;
    c->at[i] = s->p;
    const bl_field *f = &bl_fields[i];
    int is_obj = s->p < s->e && *s->p == '{';
    bl_strbuf k2;
    bl_strbuf_init(&k2);
    int rc;
    if (f->kind == BL_FK_LABELS && is_obj) {
        bl_strbuf_reset(&c->labels); /* the last labels object counts */
        bl_strbuf_reset(&c->keys);
        c->n_keys = 0;
        c->has_labels = 1;
        rc = bl_js_object(s, label_member, c, &k2);
    } else if (f->kind == BL_FK_LAT && is_obj) {
        c->cur = (int)i;
        memset(&c->lat[i], 0, sizeof c->lat[i]);
        rc = bl_js_object(s, lat_member, c, &k2);
    } else {
        if (f->kind == BL_FK_LABELS)
            c->has_labels = 0;
        rc = bl_js_value(s);
    }
    bl_strbuf_free(&k2);
    return rc;
}

static void put_count(bl_strbuf *sb, int64_t v)
{
    char buf[24];
    size_t i = sizeof buf;
    do
        buf[--i] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    bl_strbuf_putn(sb, buf + i, sizeof buf - i);
}

static int scalar_put(bl_strbuf *sb, const bl_field *f, const row_ctx *c, const char *e,
                      bl_strbuf *tmp)
{
    const char *p = c->at[f - bl_fields];
    if (f->kind == BL_FK_LABELS) {
        if (c->has_labels && c->labels.len)
            csv_field(sb, c->labels.s, c->labels.len);
        return 0;
    }
    if (!p)
        return 0;
    double v;
    int64_t iv;
    int k;
    switch (f->kind) {
    case BL_FK_STR: {
        if (*p != '"')
            return 0;
        bl_js s = {p, e, 0};
        if (bl_js_string(&s, tmp) != 0)
            return -1;
        csv_field(sb, tmp->s, tmp->len);
        return 0;
    }
    case BL_FK_INT:
        if ((k = num_at(p, e, &v, 1, &iv)) == 1 && iv >= 0)
            put_count(sb, iv);
        return k < 0 ? -1 : 0;
    case BL_FK_NUM:
        return num_put(sb, p, e) < 0 ? -1 : 0;
    case BL_FK_TRI:
        if (e - p >= 4 && memcmp(p, "true", 4) == 0)
            bl_strbuf_puts(sb, "true");
        else if (e - p >= 5 && memcmp(p, "false", 5) == 0)
            bl_strbuf_puts(sb, "false");
        return 0;
    default:
        return 0;
    }
}

/* A latency's mean and p99 columns. */
static int lat_put(bl_strbuf *sb, const bl_field *f, const row_ctx *c, const char *e)
{
    size_t i = (size_t)(f - bl_fields);
    const char *p = c->at[i];
    const lat_at *l = &c->lat[i];
    int obj = p && *p == '{';
    if (obj && l->n99 > 1)
        return -1; /* "99" twice (or "99.0" beside it): the decoder's order decides */
    if (f->flags & BL_FF_CSV_MEAN) {
        bl_strbuf_putc(sb, ',');
        if (obj && l->mean && num_put(sb, l->mean, e) < 0)
            return -1;
    }
    if (f->flags & BL_FF_CSV_P99) {
        bl_strbuf_putc(sb, ',');
        if (obj && l->p99 && num_put(sb, l->p99, e) < 0)
            return -1;
    }
    return 0;
}

static int row_direct(bl_strbuf *sb, const char *json, size_t len)
{
    if (bl_n_fields > MAX_FIELDS)
        return -1;
    bl_js s = {json, json + len, 0};
    row_ctx *c = bl_xcalloc(1, sizeof *c);
    bl_strbuf key, tmp;
    bl_strbuf_init(&key);
    bl_strbuf_init(&tmp);
    bl_js_ws(&s);
    int rc = s.p < s.e && *s.p == '{' ? bl_js_object(&s, top_member, c, &key) : -1;
    bl_js_ws(&s);
    if (rc == 0 && (s.p != s.e || c->bad))
        rc = -1;
    size_t start = sb->len;
    int first = 1;
    for (size_t i = 0; rc == 0 && i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        if (f->flags & BL_FF_CSV) {
            if (!first)
                bl_strbuf_putc(sb, ',');
            first = 0;
            rc = scalar_put(sb, f, c, s.e, &tmp);
        }
        if (rc == 0 && f->kind == BL_FK_LAT && (f->flags & (BL_FF_CSV_MEAN | BL_FF_CSV_P99)))
            rc = lat_put(sb, f, c, s.e);
    }
    if (rc == 0)
        bl_strbuf_putc(sb, '\n');
    else
        sb->len = start; /* the decoder writes the row */
    if (sb->s)
        sb->s[sb->len] = 0;
    bl_strbuf_free(&c->labels);
    bl_strbuf_free(&c->val);
    bl_strbuf_free(&c->keys);
    free(c);
    bl_strbuf_free(&key);
    bl_strbuf_free(&tmp);
    return rc;
}

int bl_csv_row_json(bl_strbuf *sb, const char *json, size_t len)
{
    if (row_direct(sb, json, len) == 0)
        return 0;
    bl_record *r = bl_record_from_json(json, len, NULL, 0);
    if (!r)
        return -1;
    bl_csv_row(sb, r);
    bl_record_free(r);
    return 0;
}
