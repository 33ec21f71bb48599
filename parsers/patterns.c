/* Matching pattern-file formats against a text. The text is joined back with '\n' and each
 * pattern runs over all of it (PCRE2_MULTILINE), so `^`/`$` are line ends and one record
 * may span lines. A record takes, in order: the file's global `set`s, the captures of the
 * last `context` match above it, its own `set`s, its own captures. A context match (or a
 * detect match, when the file has no context) starts a run. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "patterns_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pt_cap {
    const char *name;
    char *value;
} pt_cap;

typedef struct pt_match {
    size_t off;
    size_t order;       /* detect, then contexts, then records, each in file order */
    const pt_regex *rx; /* NULL for a detect match */
    size_t n;
    pt_cap *caps;
} pt_match;

typedef struct pt_matches {
    size_t n, cap;
    pt_match *v;
} pt_matches;

typedef struct joined {
    bl_strbuf s;
    size_t *start; /* offset of each line */
    size_t n;
} joined;

static void join(const bl_text *t, joined *j)
{
    bl_strbuf_init(&j->s);
    j->n = t->nlines;
    j->start = bl_xcalloc(t->nlines + 1, sizeof *j->start);
    for (size_t i = 0; i < t->nlines; i++) {
        j->start[i] = j->s.len;
        bl_strbuf_puts(&j->s, t->line[i]);
        bl_strbuf_putc(&j->s, '\n');
    }
    if (!j->s.s)
        bl_strbuf_puts(&j->s, "");
}

static long line_of(const joined *j, size_t off)
{
    size_t lo = 0, hi = j->n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (j->start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return (long)lo + 1;
}

static void captures(const pcre2_code *re, pcre2_match_data *md, const char *subject, pt_match *m)
{
    uint32_t count = 0, size = 0;
    PCRE2_SPTR table = NULL;
    pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &size);
    pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    m->caps = count ? bl_xcalloc(count, sizeof *m->caps) : NULL;
    for (uint32_t i = 0; i < count; i++) {
        const unsigned char *e = table + i * size;
        unsigned group = (unsigned)(e[0] << 8 | e[1]);
        if (ov[2 * group] == PCRE2_UNSET)
            continue;
        m->caps[m->n].name = (const char *)(e + 2);
        m->caps[m->n++].value =
            bl_xstrndup(subject + ov[2 * group], ov[2 * group + 1] - ov[2 * group]);
    }
}

static void find_all(const pcre2_code *re, const pt_regex *rx, size_t order, const joined *j,
                     pt_matches *out)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    size_t off = 0, len = j->s.len;
    while (off <= len) {
        int rc = pcre2_match(re, (PCRE2_SPTR)j->s.s, len, off, 0, md, NULL);
        if (rc < 0)
            break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        bl_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v);
        pt_match *m = &out->v[out->n++];
        *m = (pt_match){.off = ov[0], .order = order, .rx = rx};
        if (rx)
            captures(re, md, j->s.s, m);
        off = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
    }
    pcre2_match_data_free(md);
}

static int cmp_off(const void *a, const void *b)
{
    const pt_match *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static const pt_unit *unit_of(const pt_format *f, const char *field)
{
    for (size_t i = 0; i < f->n_units; i++)
        if (strcmp(f->units[i].field, field) == 0)
            return &f->units[i];
    return NULL;
}

static const char *cap_value(const pt_cap *caps, size_t n, const char *name)
{
    for (size_t i = n; i > 0; i--)
        if (strcmp(caps[i - 1].name, name) == 0)
            return caps[i - 1].value;
    return NULL;
}

/* Puts one field's text into the record; returns 0 with a message when it cannot. */
static int put_field(const pt_format *f, bl_record *r, const char *field, const char *text,
                     const pt_cap *caps, size_t ncap, bl_strbuf *why)
{
    if (strncmp(field, "label_", 6) == 0) {
        bl_record_set_label(r, field + 6, text);
        return 1;
    }
    double pct = 0;
    int kind = pt_field_kind(field, &pct);
    if (kind < 0)
        return 1; /* a unit source */
    if (kind == PK_STR) {
        char **dst = strcmp(field, "test") == 0           ? &r->test
                     : strcmp(field, "op") == 0           ? &r->op
                     : strcmp(field, "pattern") == 0      ? &r->pattern
                     : strcmp(field, "tool_version") == 0 ? &r->tool_version
                     : strcmp(field, "ioengine") == 0     ? &r->ioengine
                                                          : &r->note;
        bl_record_set_str(dst, text);
        return 1;
    }
    if (kind == PK_BOOL) {
        r->direct = strcmp(text, "true") == 0 || strcmp(text, "1") == 0 ? BL_TRUE : BL_FALSE;
        return 1;
    }
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end) {
        bl_strbuf_printf(why, "%s '%s' is no number", field, text);
        return 0;
    }
    const pt_unit *u = unit_of(f, field);
    double mult = 1;
    if (u && u->from) {
        const char *ut = cap_value(caps, ncap, u->from);
        mult = ut ? pt_unit_mult((pt_kind)kind, ut, u->binary) : 0;
        if (mult == 0) {
            bl_strbuf_printf(why, "unknown unit '%s' for %s", ut ? ut : "", field);
            return 0;
        }
    } else if (u)
        mult = u->mult;
    v *= mult;
    switch ((pt_kind)kind) {
    case PK_SIZE:
    case PK_COUNT: {
        int64_t *dst = strcmp(field, "bs") == 0           ? &r->bs
                       : strcmp(field, "size_bytes") == 0 ? &r->size_bytes
                       : strcmp(field, "io_bytes") == 0   ? &r->io_bytes
                       : strcmp(field, "iodepth") == 0    ? &r->iodepth
                                                          : &r->numjobs;
        *dst = bl_count_or(v, -1);
        break;
    }
    case PK_BW:
        r->bw_bytes_s = v;
        break;
    case PK_IOPS:
        r->iops = v;
        break;
    case PK_SECONDS:
        r->runtime_s = v;
        break;
    case PK_LAT:
        r->lat_ns.present = true;
        if (pct > 0)
            bl_lat_add_pct(&r->lat_ns, pct, v);
        else if (strcmp(field, "lat_min") == 0)
            r->lat_ns.min = v;
        else if (strcmp(field, "lat_max") == 0)
            r->lat_ns.max = v;
        else if (strcmp(field, "lat_mean") == 0)
            r->lat_ns.mean = v;
        else
            r->lat_ns.stdev = v;
        break;
    default:
        break;
    }
    return 1;
}

static double field_value(const bl_record *r, const char *field)
{
    if (strcmp(field, "bw") == 0)
        return r->bw_bytes_s;
    if (strcmp(field, "iops") == 0)
        return r->iops;
    if (strcmp(field, "io_bytes") == 0)
        return (double)r->io_bytes;
    return NAN;
}

/* Builds the record of match m under context c (may be NULL); 0 when refused. */
static int make_record(const pt_format *f, const pt_match *m, const pt_match *c, bl_record *r,
                       bl_strbuf *why)
{
    size_t n = (c ? c->n : 0) + m->n;
    pt_cap *all = bl_xcalloc(n + 1, sizeof *all);
    size_t k = 0;
    for (size_t i = 0; c && i < c->n; i++)
        all[k++] = c->caps[i];
    for (size_t i = 0; i < m->n; i++)
        all[k++] = m->caps[i];
    int ok = 1;
    for (size_t i = 0; ok && i < f->n_sets; i++)
        ok = put_field(f, r, f->sets[i].field, f->sets[i].value, all, n, why);
    for (size_t i = 0; ok && c && i < c->n; i++)
        ok = put_field(f, r, c->caps[i].name, c->caps[i].value, all, n, why);
    for (size_t i = 0; ok && i < m->rx->n_sets; i++)
        ok = put_field(f, r, m->rx->sets[i].field, m->rx->sets[i].value, all, n, why);
    for (size_t i = 0; ok && i < m->n; i++)
        ok = put_field(f, r, m->caps[i].name, m->caps[i].value, all, n, why);
    free(all);
    return ok;
}

static void free_matches(pt_matches *ms)
{
    for (size_t i = 0; i < ms->n; i++) {
        for (size_t k = 0; k < ms->v[i].n; k++)
            free(ms->v[i].caps[k].value);
        free(ms->v[i].caps);
    }
    free(ms->v);
}

int bl_patterns_probe(const bl_patterns *p, size_t i, const bl_text *t)
{
    const pt_format *f = p->v[i];
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(f->detect, NULL);
    int hit = 0;
    for (size_t k = 0; k < t->nlines && !hit; k++)
        hit = pcre2_match(f->detect, (PCRE2_SPTR)t->line[k], PCRE2_ZERO_TERMINATED, 0, 0, md,
                          NULL) >= 0;
    pcre2_match_data_free(md);
    return hit ? 70 : 0;
}

void bl_patterns_parse(const bl_patterns *p, size_t i, const bl_text *t, bl_parse_out *out)
{
    const pt_format *f = p->v[i];
    joined j;
    join(t, &j);
    pt_matches ms = {0};
    if (f->n_ctx == 0)
        find_all(f->detect, NULL, 0, &j, &ms);
    for (size_t k = 0; k < f->n_ctx; k++)
        find_all(f->ctx[k].re, &f->ctx[k], 1 + k, &j, &ms);
    for (size_t k = 0; k < f->n_rec; k++)
        find_all(f->rec[k].re, &f->rec[k], 1 + f->n_ctx + k, &j, &ms);
    qsort(ms.v, ms.n, sizeof *ms.v, cmp_off);
    const pt_match *ctx = NULL;
    int64_t run = 0;
    int run_used = 1;
    for (size_t k = 0; k < ms.n; k++) {
        const pt_match *m = &ms.v[k];
        int is_record = m->rx && m->rx >= f->rec && m->rx < f->rec + f->n_rec;
        if (!is_record) {
            if (m->rx)
                ctx = m;
            if (run_used)
                run++, run_used = 0;
            continue;
        }
        long line = line_of(&j, m->off);
        bl_record *r = bl_out_record(out, line);
        bl_strbuf why;
        bl_strbuf_init(&why);
        bl_record_set_str(&r->tool, f->tool);
        r->run = run ? run : 1;
        int ok = make_record(f, m, ctx, r, &why);
        if (!ok)
            bl_out_error(out, line, "%s: %s", f->name, why.s);
        if (!ok || (m->rx->nonzero && !(field_value(r, m->rx->nonzero) != 0))) {
            out->recs.n--; /* r is the last record: it was never handed out */
            bl_record_free(r);
        } else
            run_used = 1;
        bl_strbuf_free(&why);
    }
    free_matches(&ms);
    bl_strbuf_free(&j.s);
    free(j.start);
}
