#include "bonnie_common.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_XFER = 0, KIND_SEEKS = 1, KIND_FILES = 2 };

static const struct {
    const char *test, *op, *pattern, *metric;
    int kind;
} tests[BL_BONNIE_NTESTS] = {
    {"seq-write-char", "write", "seq", NULL, KIND_XFER},
    {"seq-write-block", "write", "seq", NULL, KIND_XFER},
    {"seq-rewrite", "write", "seq", NULL, KIND_XFER},
    {"seq-read-char", "read", "seq", NULL, KIND_XFER},
    {"seq-read-block", "read", "seq", NULL, KIND_XFER},
    {"rand-seeks", "meta", "rand", "seeks", KIND_SEEKS},
    {"seq-create", "meta", "seq", "create", KIND_FILES},
    {"seq-stat", "meta", "seq", "stat", KIND_FILES},
    {"seq-delete", "meta", "seq", "delete", KIND_FILES},
    {"rand-create", "meta", "rand", "create", KIND_FILES},
    {"rand-stat", "meta", "rand", "stat", KIND_FILES},
    {"rand-delete", "meta", "rand", "delete", KIND_FILES},
};

const char *bl_bonnie_test_name(int i)
{
    return i >= 0 && i < BL_BONNIE_NTESTS ? tests[i].test : NULL;
}

void bl_bonnie_run_init(bl_bonnie_run *r)
{
    memset(r, 0, sizeof *r);
    r->chunk = -1;
    r->concurrency = -1;
    for (int i = 0; i < BL_BONNIE_NTESTS; i++) {
        r->cell[i].cpu = BL_ABSENT;
        r->cell[i].lat_ns = BL_ABSENT;
        r->cell[i].value = BL_ABSENT;
    }
}

static int all_char(const char *s, size_t n, char c)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != c)
            return 0;
    return 1;
}

/* A number that spans exactly n bytes, with an optional k/m/g suffix for transfers; *step
 * (when asked) is one unit of its last printed digit, in the same units. */
static int number_step(const char *s, size_t n, int kind, double *out, double *step)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    double v;
    const char *end;
    if (!bl_parse_number(buf, 0, &v, &end))
        return 0;
    double mul = 1;
    if (kind == KIND_XFER) {
        mul = 1024; /* K/sec */
        switch (*end) {
        case 'k':
        case 'K':
            mul = 1024.0, end++;
            break;
        case 'm':
        case 'M':
            mul = 1048576.0, end++;
            break;
        case 'g':
        case 'G':
            mul = 1073741824.0, end++;
            break;
        default:
            break;
        }
    }
    if (*end != '\0')
        return 0;
    *out = v * mul;
    if (step) {
        const char *dot = memchr(buf, '.', n);
        double unit = 1;
        for (const char *d = dot ? dot + 1 : end; d < end && isdigit((unsigned char)*d); d++)
            unit /= 10;
        *step = unit * mul;
    }
    return 1;
}

static int number_in(const char *s, size_t n, int kind, double *out)
{
    return number_step(s, n, kind, out, NULL);
}

int bl_bonnie_cell_parse(const char *val, size_t vlen, const char *cpu, size_t clen, int test,
                         bl_bonnie_cell *c, long line)
{
    c->line = line;
    c->cpu = BL_ABSENT;
    c->lat_ns = BL_ABSENT; /* the Latency row, if any, comes later */
    c->step = 0;
    /* bon_csv2txt 2.00 prints "+++++" as "0k +++": the %CP "+++" is what tells */
    if (all_char(val, vlen, '+') || (cpu && all_char(cpu, clen, '+'))) {
        c->state = BL_CELL_PLUS;
        c->value = BL_ABSENT;
    } else if (number_step(val, vlen, tests[test].kind, &c->value, &c->step)) {
        c->state = BL_CELL_VALUE;
    } else {
        return 0;
    }
    double p;
    if (cpu && clen && number_in(cpu, clen, KIND_SEEKS, &p))
        c->cpu = p;
    return 1;
}

int bl_bonnie_same_figures(const bl_bonnie_run *a, const bl_bonnie_run *b)
{
    for (int i = 0; i < BL_BONNIE_NTESTS; i++) {
        const bl_bonnie_cell *x = &a->cell[i], *y = &b->cell[i];
        if (x->state == BL_CELL_EMPTY || y->state == BL_CELL_EMPTY)
            continue;
        if (x->state != y->state)
            return 0;
        double slack = (x->step > y->step ? x->step : y->step) / 2;
        if (x->state == BL_CELL_VALUE && fabs(x->value - y->value) > slack * (1 + 1e-9))
            return 0;
    }
    return 1;
}

/* Splits a CSV line in place-free fashion: offsets of up to max fields. */
static size_t split_csv(const char *s, const char **f, size_t *len, size_t max)
{
    size_t n = 0;
    const char *p = s;
    for (;;) {
        const char *q = strchr(p, ',');
        size_t l = q ? (size_t)(q - p) : strlen(p);
        while (l && (p[l - 1] == ' ' || p[l - 1] == '\r'))
            l--;
        if (n < max) {
            f[n] = p;
            len[n] = l;
        }
        n++;
        if (!q)
            break;
        p = q + 1;
    }
    return n;
}

static int looks_version(const char *s, size_t n)
{
    if (n < 3 || n > 8 || !isdigit((unsigned char)s[0]) || s[1] != '.')
        return 0;
    for (size_t i = 2; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '.')
            return 0;
    return 1;
}

static void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static int cell_ok(const char *s, size_t n)
{
    double v;
    return n == 0 || all_char(s, n, '+') || number_in(s, n, KIND_SEEKS, &v);
}

/* Fills cells first..first+count-1 from value/cpu pairs starting at field f0. */
static int fill_cells(bl_bonnie_run *r, const char **f, size_t *len, size_t f0, int first,
                      int count, long line)
{
    for (int i = 0; i < count; i++) {
        const char *v = f[f0 + 2 * (size_t)i], *c = f[f0 + 2 * (size_t)i + 1];
        size_t vl = len[f0 + 2 * (size_t)i], cl = len[f0 + 2 * (size_t)i + 1];
        if (!cell_ok(v, vl) || !cell_ok(c, cl))
            return 0;
        if (vl == 0)
            continue;
        if (!bl_bonnie_cell_parse(v, vl, c, cl, first + i, &r->cell[first + i], line))
            return 0;
    }
    return 1;
}

static void fill_latencies(bl_bonnie_run *r, const char **f, size_t *len, size_t f0, size_t n)
{
    for (size_t i = 0; i < BL_BONNIE_NTESTS && f0 + i < n; i++) {
        char buf[32];
        if (len[f0 + i] == 0 || len[f0 + i] >= sizeof buf)
            continue;
        copy_field(buf, sizeof buf, f[f0 + i], len[f0 + i]);
        double ns;
        const char *end;
        if (bl_parse_duration_ns(buf, 1000, &ns, &end) && *end == '\0')
            r->cell[i].lat_ns = ns;
    }
}

static int64_t size_bytes(const char *s)
{
    double v;
    const char *end;
    if (!*s || !bl_parse_size(s, BL_BINARY, &v, &end))
        return -1;
    /* bonnie++ sizes without a suffix are MiB */
    if (end == s + strspn(s, "0123456789."))
        v *= 1048576.0;
    int64_t bytes;
    return bl_to_count(v, &bytes) ? bytes : -1;
}

static void set_files(bl_bonnie_run *r, const char **f, size_t *len, size_t i, size_t n)
{
    /* num_files[:max_size[:min_size]][/num_dirs] as bon_csv2txt writes it */
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_putn(&sb, f[i], len[i]);
    if (n > 1 && len[i + 1])
        bl_strbuf_putc(&sb, ':'), bl_strbuf_putn(&sb, f[i + 1], len[i + 1]);
    if (n > 2 && len[i + 2])
        bl_strbuf_putc(&sb, ':'), bl_strbuf_putn(&sb, f[i + 2], len[i + 2]);
    if (n > 3 && len[i + 3])
        bl_strbuf_putc(&sb, '/'), bl_strbuf_putn(&sb, f[i + 3], len[i + 3]);
    copy_field(r->files, sizeof r->files, sb.s ? sb.s : "", sb.len);
    bl_strbuf_free(&sb);
}

/* bonnie++ prints a test's value and its %CP together: both empty, "+++++" with "+++", or
 * two numbers. Pairs that break this are fields read from the wrong columns. */
static int pairs_agree(const char **f, size_t *len, size_t f0, int count)
{
    for (int i = 0; i < count; i++) {
        size_t v = f0 + 2 * (size_t)i, c = v + 1;
        if ((len[v] == 0) != (len[c] == 0) ||
            all_char(f[v], len[v], '+') != all_char(f[c], len[c], '+'))
            return 0;
    }
    return 1;
}

/* A latency field as bonnie++ prints it: empty, or a whole number with s, ms or us. */
static int latency_field(const char *s, size_t n)
{
    if (n == 0)
        return 1;
    size_t d = 0;
    while (d < n && isdigit((unsigned char)s[d]))
        d++;
    if (d == 0)
        return 0;
    return (n - d == 1 && s[d] == 's') ||
           (n - d == 2 && (s[d] == 'm' || s[d] == 'u') && s[d + 1] == 's');
}

/* Some bonnie++ 1.96 builds print one comma too few in place of the I/O tests of a run
 * without them (-s 0): 47 fields where the header has 48. Read from the end (twelve
 * latencies with their suffixes, the file tests' pairs), the line is whole again; the I/O
 * part must then be all empty. Returns the shift (1), or 0 when the line cannot be placed. */
static size_t short_line_shift(const char **f, size_t *len, size_t n, size_t io, size_t fc)
{
    size_t lat = n - 12;
    for (size_t i = lat; i < n; i++)
        if (!latency_field(f[i], len[i]))
            return 0;
    if (len[lat - 1] && latency_field(f[lat - 1], len[lat - 1]))
        return 0;
    for (size_t i = io; i < fc - 1 - 5; i++)
        if (len[i])
            return 0;
    return pairs_agree(f, len, fc - 1, BL_BONNIE_NIO) ? 1 : 0;
}

static int csv_new(bl_bonnie_run *r, const char **f, size_t *len, size_t n, long line, char *err,
                   size_t errlen)
{
    /* 1.96/1.97 ("1.97"): 48 fields; 1.98 (bonnie++ 2.00) adds seeks and seek procs after
     * chunk_size: 50 fields. */
    int v198 = len[0] >= 4 && strncmp(f[0], "1.98", 4) >= 0;
    size_t io = v198 ? 9 : 7, fl = io + 12, fc = fl + 5, lat = fc + 12;
    int shifted = 0;
    if (n + 1 == lat + 12 && !pairs_agree(f, len, fc, BL_BONNIE_NIO)) {
        if (!short_line_shift(f, len, n, io, fc)) {
            snprintf(err, errlen,
                     "bonnie++ %.*s CSV line has %zu fields, expected %zu, and no way to tell "
                     "which one is missing",
                     (int)len[0], f[0], n, lat + 12);
            return -1;
        }
        fl--, fc--, lat--, shifted = 1;
    }
    if (n < fc + 12) {
        snprintf(err, errlen, "bonnie++ %.*s CSV line has %zu fields, expected %zu", (int)len[0],
                 f[0], n, lat + 12);
        return -1;
    }
    copy_field(r->version, sizeof r->version, f[1], len[1]);
    copy_field(r->host, sizeof r->host, f[2], len[2]);
    if (len[3])
        r->concurrency = strtoll(f[3], NULL, 10);
    copy_field(r->size, sizeof r->size, f[5], len[5]);
    if (len[6]) {
        char buf[32];
        copy_field(buf, sizeof buf, f[6], len[6]);
        double c;
        int64_t bytes;
        if (bl_parse_size(buf, BL_BINARY, &c, NULL) && bl_to_count(c, &bytes))
            r->chunk = bytes;
    }
    if ((!shifted && !fill_cells(r, f, len, io, 0, BL_BONNIE_NIO, line)) ||
        !fill_cells(r, f, len, fc, BL_BONNIE_NIO, BL_BONNIE_NIO, line)) {
        snprintf(err, errlen, "bonnie++ CSV line has a cell that is not a number");
        return -1;
    }
    set_files(r, f, len, fl, 4);
    fill_latencies(r, f, len, lat, n);
    if (v198) { /* -X seeks and seeker processes */
        copy_field(r->seeks, sizeof r->seeks, f[7], len[7]);
        copy_field(r->seek_procs, sizeof r->seek_procs, f[8], len[8]);
    }
    return 1;
}

static int csv_old(bl_bonnie_run *r, const char **f, size_t *len, size_t n, long line, char *err,
                   size_t errlen)
{
    if (n < 27) {
        snprintf(err, errlen, "bonnie++ 1.0x CSV line has %zu fields, expected 27", n);
        return -1;
    }
    copy_field(r->host, sizeof r->host, f[0], len[0]);
    copy_field(r->size, sizeof r->size, f[1], len[1]);
    if (!fill_cells(r, f, len, 2, 0, BL_BONNIE_NIO, line) ||
        !fill_cells(r, f, len, 15, BL_BONNIE_NIO, BL_BONNIE_NIO, line)) {
        snprintf(err, errlen, "bonnie++ CSV line has a cell that is not a number");
        return -1;
    }
    copy_field(r->files, sizeof r->files, f[14], len[14]);
    return 1;
}

int bl_bonnie_csv_line(const char *s, long line, bl_bonnie_run *r, char *err, size_t errlen)
{
    const char *f[64];
    size_t len[64];
    s += strspn(s, " \t");
    const char *comma = s;
    for (int k = 0; k < 5; k++, comma++) /* under 6 fields is no bonnie++ line (below) */
        if (!(comma = strchr(comma, ',')))
            return 0;
    /* Not "1.9..." or "2.0..." first: only a line of 20 fields or more can be one (below),
     * and most lines with commas have fewer; counting them costs less than splitting. */
    if (strncmp(s, "1.9", 3) != 0 && strncmp(s, "2.0", 3) != 0)
        for (int k = 5; k < 19; k++, comma++)
            if (!(comma = strchr(comma, ',')))
                return 0;
    size_t n = split_csv(s, f, len, 64);
    /* "1.97,1.97,host,..." is bonnie++'s however short; a host-first line needs its 27 fields */
    double h;
    int versioned = n >= 6 && n <= 64 && looks_version(f[0], len[0]) &&
                    (strncmp(f[0], "1.9", 3) == 0 || strncmp(f[0], "2.0", 3) == 0) &&
                    looks_version(f[1], len[1]) && !number_in(f[2], len[2], KIND_SEEKS, &h);
    if (!versioned && (n < 20 || n > 64))
        return 0;
    bl_bonnie_run_init(r);
    r->line = r->last_line = line;
    int rc;
    if (versioned)
        rc = csv_new(r, f, len, n, line, err, errlen);
    else if (n >= 26 && n <= 28 && len[1] && isdigit((unsigned char)f[1][0]) &&
             cell_ok(f[2], len[2]) && cell_ok(f[3], len[3]))
        rc = csv_old(r, f, len, n, line, err, errlen);
    else
        return 0;
    if (rc == 1) {
        for (int i = 0; i < BL_BONNIE_NTESTS; i++) {
            if (r->cell[i].state == BL_CELL_EMPTY)
                continue;
            if (i < BL_BONNIE_NIO)
                r->has_io = 1;
            else
                r->has_files = 1;
        }
    }
    return rc;
}

/* bon_csv2txt's size column "128M::8192:5" is size:chunk_size:seeks:seek_procs (1.03:
 * "1G:32k"); the parts a CSV line would have given are taken from it. */
typedef struct size_parts {
    int64_t chunk;
    char seeks[24], seek_procs[24];
} size_parts;

static void split_size_column(const char *col, size_parts *p)
{
    p->chunk = -1;
    p->seeks[0] = p->seek_procs[0] = '\0';
    const char *c = strchr(col, ':');
    if (!c)
        return;
    size_t n = strcspn(c + 1, ":");
    char buf[32];
    double v;
    int64_t bytes;
    snprintf(buf, sizeof buf, "%.*s", (int)(n < 31 ? n : 31), c + 1);
    if (n && bl_parse_size(buf, BL_BINARY, &v, NULL) && bl_to_count(v, &bytes))
        p->chunk = bytes;
    const char *s = c[1 + n] == ':' ? c + 2 + n : NULL;
    if (!s)
        return;
    n = strcspn(s, ":");
    snprintf(p->seeks, sizeof p->seeks, "%.*s", (int)(n < 23 ? n : 23), s);
    if (s[n] == ':')
        snprintf(p->seek_procs, sizeof p->seek_procs, "%.23s", s + n + 1);
}

void bl_bonnie_emit(bl_parse_out *o, const bl_bonnie_run *r, int64_t run, const char *section)
{
    int64_t size = size_bytes(r->size);
    size_parts parts;
    split_size_column(r->size, &parts);
    int64_t chunk = r->chunk > 0 ? r->chunk : parts.chunk;
    const char *seeks = r->seeks[0] ? r->seeks : parts.seeks;
    const char *seek_procs = r->seek_procs[0] ? r->seek_procs : parts.seek_procs;
    for (int i = 0; i < BL_BONNIE_NTESTS; i++) {
        const bl_bonnie_cell *c = &r->cell[i];
        if (c->state == BL_CELL_EMPTY)
            continue;
        bl_record *rec = bl_out_record(o, c->line > 0 ? c->line : r->line);
        rec->run = run;
        bl_record_set_str(&rec->tool, "bonnie++");
        if (r->version[0])
            bl_record_set_str(&rec->tool_version, r->version);
        if (r->host[0])
            bl_record_set_label(rec, "host", r->host);
        if (r->size[0])
            bl_record_set_label(rec, "size", r->size);
        if (r->files[0] && i >= BL_BONNIE_NIO)
            bl_record_set_label(rec, "files", r->files);
        if (section)
            bl_record_set_label(rec, "section", section);
        if (i == 5 && seeks[0])
            bl_record_set_label(rec, "seeks", seeks);
        if (i == 5 && seek_procs[0])
            bl_record_set_label(rec, "seek_procs", seek_procs);
        bl_record_set_str(&rec->test, tests[i].test);
        bl_record_set_str(&rec->op, tests[i].op);
        bl_record_set_str(&rec->pattern, tests[i].pattern);
        if (r->concurrency > 0)
            rec->numjobs = r->concurrency;
        if (tests[i].kind == KIND_XFER) {
            if (i == 0 || i == 3)
                rec->bs = 1; /* putc/getc move one byte a call */
            else if (chunk > 0)
                rec->bs = chunk;
            if (size > 0)
                rec->size_bytes = size;
            rec->bw_bytes_s = c->value;
        } else {
            bl_record_set_str(&rec->metric, tests[i].metric);
            bl_record_set_str(&rec->unit, tests[i].kind == KIND_SEEKS ? "ops/s" : "files/s");
            rec->value = c->value;
        }
        if (c->state == BL_CELL_PLUS)
            bl_record_set_str(&rec->note, "+++++: too fast to measure");
        rec->cpu_pct = c->cpu;
        if (bl_present(c->lat_ns)) {
            rec->lat_ns.present = true;
            rec->lat_ns.max = c->lat_ns;
        }
    }
}
