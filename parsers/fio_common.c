#include "fio_common.h"
#include "fio_units.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include <assert.h>
#include <ctype.h>
#include <strings.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bl_fio_jobdefs_clear(bl_fio_jobdefs *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].name);
        free(d->v[i].rw);
        free(d->v[i].ioengine);
    }
    d->n = 0;
}

void bl_fio_jobdefs_free(bl_fio_jobdefs *d)
{
    bl_fio_jobdefs_clear(d);
    free(d->v);
    d->v = NULL;
    d->cap = 0;
}

const bl_fio_jobdef *bl_fio_jobdef_find(const bl_fio_jobdefs *d, const char *name)
{
    for (size_t i = d->n; name && i-- > 0;)
        if (strcmp(d->v[i].name, name) == 0)
            return &d->v[i];
    return NULL;
}

static bl_fio_jobdef *jobdef_push(bl_fio_jobdefs *d, const char *name, size_t name_len)
{
    void *p = d->v;
    bl_grow(&p, &d->cap, d->n + 1, sizeof *d->v);
    d->v = p;
    bl_fio_jobdef *j = &d->v[d->n++];
    memset(j, 0, sizeof *j);
    j->name = bl_xstrndup(name, name_len);
    for (int i = 0; i < BL_FIO_NDIR; i++)
        j->bs[i] = -1;
    j->iodepth = j->numjobs = j->size = -1;
    j->direct = BL_TRI_ABSENT;
    j->group = -1;
    return j;
}

const char *bl_fio_skip(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

const char *bl_fio_after(const char *s, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strstr(s, key); p; p = strstr(p + 1, key))
        if (p == s || !isalnum((unsigned char)p[-1]))
            return p + n;
    return NULL;
}

/* "4096B-4096B", "64.0KiB-64.0KiB", "1M-1M", "4k" -> bytes when the range is one size; a K/M
 * without 'i' means what kilo says. */
static int64_t fixed_bs_in(const char *s, int kilo, const char **end)
{
    double lo, hi;
    const char *p;
    if (!bl_parse_size(s, kilo, &lo, &p))
        return -1;
    hi = lo;
    if (*p == '-' && !bl_parse_size(p + 1, kilo, &hi, &p))
        return -1;
    if (end)
        *end = p;
    return lo == hi && lo > 0 ? bl_count_or(lo, -1) : -1;
}

static int64_t fixed_bs(const char *s, const char **end)
{
    return fixed_bs_in(s, BL_BINARY, end);
}

/* Both layouts: "1M-1M/1M-1M[/...]" (fio 2.x, K = 1024) and "(R) 4096B-4096B, (W) ..., (T) ..."
 * (3.x, whose num2str writes KiB for 1024 and kB for 1000: "(R) 64.0kB-64.0kB" under
 * kb_base=1000 is 64000 bytes). */
static void parse_bs_field(const char *s, int64_t bs[BL_FIO_NDIR])
{
    if (*s == '(') {
        static const char tags[] = "RWT";
        for (int d = 0; d < BL_FIO_NDIR; d++) {
            char tag[5] = {'(', tags[d], ')', ' ', 0};
            const char *p = strstr(s, tag);
            if (p)
                bs[d] = fixed_bs_in(p + 4, BL_SI, NULL);
        }
        return;
    }
    const char *p = s;
    for (int d = 0; d < BL_FIO_NDIR; d++) {
        const char *e = NULL;
        bs[d] = fixed_bs(p, &e);
        if (!e || *e != '/')
            break;
        p = e + 1;
    }
    if (bs[BL_FIO_TRIM] < 0 && bs[BL_FIO_WRITE] >= 0 && bs[BL_FIO_WRITE] == bs[BL_FIO_READ])
        bs[BL_FIO_TRIM] = bs[BL_FIO_READ]; /* fio 2.0 printed no trim range */
}

static char *word_after(const char *line, const char *key)
{
    const char *v = bl_fio_after(line, key);
    if (!v)
        return NULL;
    size_t n = strcspn(v, ", \t:");
    return n ? bl_xstrndup(v, n) : NULL;
}

bool bl_fio_parse_jobdef_line(const char *line, bl_fio_jobdefs *d)
{
    const char *g = strstr(line, ": (g=");
    if (!g || !bl_fio_after(g, "rw="))
        return false;
    /* The name may follow a "Jobs: ... [eta 00m:00s]" status glued on by a \r. */
    const char *start = line;
    for (const char *p = line; p < g; p++)
        if (*p == ']')
            start = p + 1;
    start = bl_fio_skip(start);
    /* fio --client prefixes a server's lines with "<hostname> " */
    const char *gt = *start == '<' ? memchr(start, '>', (size_t)(g - start)) : NULL;
    if (gt && gt[1] == ' ')
        start = bl_fio_skip(gt + 1);
    if (g == start)
        return false;
    bl_fio_jobdef *j = jobdef_push(d, start, (size_t)(g - start));
    j->group = strtol(g + 5, NULL, 10);
    char *rw = word_after(g, "rw=");
    if (rw) {
        rw[strcspn(rw, ":")] = '\0';
        j->rw = rw;
    }
    const char *bs = bl_fio_after(g, "bs=");
    if (bs)
        parse_bs_field(bs, j->bs);
    j->ioengine = word_after(g, "ioengine=");
    const char *qd = bl_fio_after(g, "iodepth=");
    if (qd)
        j->iodepth = strtoll(qd, NULL, 10);
    return true;
}

bool bl_fio_parse_layout_line(const char *line, bl_fio_jobdefs *d)
{
    const char *l = strstr(line, ": Laying out IO file");
    const char *slash = l ? strstr(l, " / ") : NULL;
    if (!slash)
        return false;
    const char *start = bl_fio_skip(line);
    size_t n = (size_t)(l - start);
    double size;
    if (!bl_parse_size(slash + 3, BL_BINARY, &size, NULL) || size <= 0)
        return true;
    for (size_t i = d->n; i-- > 0;)
        if (strlen(d->v[i].name) == n && strncmp(d->v[i].name, start, n) == 0) {
            d->v[i].size = bl_count_or(size, -1);
            break;
        }
    return true;
}

/* "4k" or "4k,64k[,8k]" for read,write,trim. */
static void set_bs(bl_fio_jobdef *j, const char *bs, int kilo)
{
    const char *p = bs;
    for (int dd = 0; dd < BL_FIO_NDIR; dd++) {
        const char *e = NULL;
        int64_t v = fixed_bs_in(p, kilo, &e);
        j->bs[dd] = v;
        if (!e || *e != ',') {
            for (int k = dd + 1; k < BL_FIO_NDIR; k++)
                j->bs[k] = v;
            break;
        }
        p = e + 1;
    }
}

void bl_fio_jobdef_kb_base(bl_fio_jobdefs *d, const char *bs, const char *kb_base)
{
    if (d->n && bs && kb_base && strtol(kb_base, NULL, 10) == 1000)
        set_bs(&d->v[d->n - 1], bs, BL_SI);
}

void bl_fio_jobdef_add(bl_fio_jobdefs *d, const char *name, const char *rw, const char *bs,
                       const char *ioengine, const char *iodepth, const char *numjobs)
{
    bl_fio_jobdef *j = jobdef_push(d, name ? name : "", name ? strlen(name) : 0);
    if (rw) {
        j->rw = bl_xstrdup(rw);
        j->rw[strcspn(j->rw, ":")] = '\0';
    }
    if (bs)
        set_bs(j, bs, BL_BINARY);
    if (ioengine)
        j->ioengine = bl_xstrdup(ioengine);
    if (iodepth)
        j->iodepth = strtoll(iodepth, NULL, 10);
    if (numjobs)
        j->numjobs = strtoll(numjobs, NULL, 10);
}

const char *bl_fio_ddir_name(int ddir)
{
    static const char *const names[] = {"read", "write", "trim"};
    return ddir >= 0 && ddir < BL_FIO_NDIR ? names[ddir] : NULL;
}

int bl_fio_ddir_from(const char *s, size_t len)
{
    if (len != 4 && len != 5) /* "read", "trim", "write": asked of every line's first word */
        return -1;
    for (int d = 0; d < BL_FIO_NDIR; d++)
        if (strlen(bl_fio_ddir_name(d)) == len && strncasecmp(s, bl_fio_ddir_name(d), len) == 0)
            return d;
    return -1;
}

/* rw strings: read write trim randread randwrite randtrim rw readwrite randrw trimwrite
 * randtrimwrite. The pattern is the same for every direction of a job. */
static const char *pattern_of(const char *rw)
{
    if (!rw)
        return NULL;
    return strncmp(rw, "rand", 4) == 0 ? "rand" : "seq";
}

void bl_fio_fill(bl_record *r, int ddir, const char *job, const bl_fio_jobdef *def,
                 const char *version)
{
    bl_record_set_str(&r->tool, "fio");
    if (version)
        bl_record_set_str(&r->tool_version, version);
    if (job)
        bl_record_set_label(r, "job", job);
    const char *op = bl_fio_ddir_name(ddir);
    bl_record_set_str(&r->op, op);
    if (!def)
        return;
    if (def->group >= 0 && !bl_record_label(r, "group")) {
        char g[24]; /* "%ld" of a group >= 0, without printf per record */
        g[sizeof g - 1] = '\0';
        bl_record_set_label(r, "group", bl_digits_of((unsigned long long)def->group, g + 23));
    }
    if (def->rw)
        bl_record_set_label(r, "rw", def->rw);
    const char *pat = pattern_of(def->rw);
    if (pat && op) {
        char test[32]; /* "rand-write": pat and op are short words of ours */
        size_t pn = strlen(pat), on = strlen(op);
        assert(pn + on + 2 <= sizeof test);
        memcpy(test, pat, pn);
        test[pn] = '-';
        memcpy(test + pn + 1, op, on + 1);
        bl_record_set_str(&r->pattern, pat);
        bl_record_set_str(&r->test, test);
    }
    if (ddir >= 0 && def->bs[ddir] > 0)
        r->bs = def->bs[ddir];
    if (def->ioengine)
        bl_record_set_str(&r->ioengine, def->ioengine);
    if (def->iodepth > 0)
        r->iodepth = def->iodepth;
    if (def->numjobs > 0 && r->numjobs < 0)
        r->numjobs = def->numjobs;
    if (def->size > 0 && r->size_bytes < 0)
        r->size_bytes = def->size;
    if (def->direct != BL_TRI_ABSENT)
        r->direct = def->direct;
}

char *bl_fio_strip_version(const char *v)
{
    if (!v)
        return NULL;
    v = bl_fio_skip(v);
    if (strncmp(v, "fio", 3) == 0 && (v[3] == '-' || v[3] == ' '))
        v += 4;
    size_t n = strcspn(v, " \t");
    return n ? bl_xstrndup(v, n) : NULL;
}

char *bl_fio_version_line(const char *line)
{
    const char *p = bl_fio_skip(line);
    if (*p != 'f' || strncmp(p, "fio", 3) != 0 || (p[3] != '-' && p[3] != ' ') ||
        !isdigit((unsigned char)p[4]))
        return NULL;
    const char *e = p + 4 + strcspn(p + 4, " \t");
    if (*bl_fio_skip(e) != '\0')
        return NULL;
    return bl_fio_strip_version(p);
}

double bl_fio_scale(double x, double mult)
{
    if (!bl_present(x))
        return x;
    /* 15 significant digits: more than any figure fio prints, fewer than the noise. A
     * product that is m / 10^k for an integer m < 10^15 (k <= 6) already is what %.15g and
     * strtod give back (a decimal of 15 digits or fewer survives the round trip, DBL_DIG):
     * most products, and no printf for them. */
    static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
    double y = x * mult, a = fabs(y);
    for (int k = 0; k <= 6 && a * p10[k] < 1e15; k++) {
        double m = floor(a * p10[k] + 0.5);
        if (m / p10[k] == a)
            return y;
    }
    char b[40];
    snprintf(b, sizeof b, "%.15g", x * mult);
    return strtod(b, NULL);
}

double bl_fio_pct_round(double pct)
{
    return round(pct * 10000.0) / 10000.0;
}

void bl_fio_add_disk(bl_record *const *recs, size_t n, const bl_disk *d)
{
    for (size_t i = 0; i < n; i++) {
        bl_disk *k = bl_record_add_disk(recs[i], d->name);
        char *name = k->name;
        *k = *d;
        k->name = name;
    }
}

/* "a/b" after key= into two counts. */
static int pair_after(const char *s, const char *key, int64_t *a, int64_t *b)
{
    const char *p = bl_fio_after(s, key);
    char *end;
    if (!p)
        return 0;
    double x = bl_fio_strtod(p, &end);
    if (end == p || *end != '/')
        return 0;
    const char *q = end + 1;
    double y = bl_fio_strtod(q, &end);
    return end != q && bl_to_count(x, a) && bl_to_count(y, b);
}

int bl_fio_disk_line(const char *line, bl_record *const *recs, size_t n)
{
    const char *p = bl_fio_skip(line);
    size_t nl = strcspn(p, ": \t");
    char name[64];
    if (nl == 0 || nl >= sizeof name || p[nl] != ':' || strncmp(p + nl, ": ios=", 6) != 0)
        return 0;
    memcpy(name, p, nl);
    name[nl] = '\0';
    bl_disk d = bl_disk_absent(name);
    if (!pair_after(p, "ios=", &d.read_ios, &d.write_ios))
        return 0;
    pair_after(p, "merge=", &d.read_merges, &d.write_merges);
    int64_t rt, wt;
    if (pair_after(p, "ticks=", &rt, &wt)) { /* fio prints ms */
        d.read_ticks_s = (double)rt / 1e3;
        d.write_ticks_s = (double)wt / 1e3;
    }
    const char *q = bl_fio_after(p, "in_queue=");
    if (q)
        d.in_queue_s = strtod(q, NULL) / 1e3;
    q = bl_fio_after(p, "util=");
    if (q)
        d.util_pct = strtod(q, NULL);
    bl_fio_add_disk(recs, n, &d);
    return 1;
}

int bl_fio_parse_dist(const char *s, double unit, bl_dist *d)
{
    const char *p = s;
    for (;;) {
        p = bl_fio_skip(p);
        if (*p == ',') {
            p++;
            continue;
        }
        if (!*p)
            return 1;
        bool ge = strncmp(p, ">=", 2) == 0; /* bl_dist_key, with the fast strtod */
        const char *k = p + (ge ? 2 : 0);
        char *end;
        double at = bl_fio_strtod(k, &end);
        if (end == k || !isfinite(at) || *end != '=')
            return 0;
        p = end + 1;
        double pct = bl_fio_strtod(p, &end);
        if (end == p || !isfinite(pct))
            return 0;
        p = end + (*end == '%');
        if (pct > 0) /* fio's JSON and its lat lines leave empty buckets out; so do we */
            bl_dist_add(d, at * unit, ge, pct);
    }
}
