#include "cdm_common.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bl_cdm_major(const char *version)
{
    return version && isdigit((unsigned char)*version) ? atoi(version) : 0;
}

/* Digits after `q`/`qd`/`t`, with an optional '=' and spaces: "Q= 32", "QD=1", "Q8", "T=16". */
static int64_t count_after(const char *s, size_t i, size_t n)
{
    if (i < n && s[i] == 'd')
        i++;
    if (i < n && s[i] == '=')
        i++;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || !isdigit((unsigned char)s[i]))
        return -1;
    return strtoll(s + i, NULL, 10);
}

/* The block size: digits followed by k or m ("4KiB", "1 MiB", "512k", "SEQ1M"), not the
 * digits of a queue or thread count ("Q8", "QD=32", "T1"). */
static int64_t block_size(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]) ||
            (i > 0 && (isdigit((unsigned char)s[i - 1]) || s[i - 1] == '.')))
            continue;
        char p = i > 0 ? s[i - 1] : ' ';
        char pp = i > 1 ? s[i - 2] : ' ';
        if (p == '=' || p == 't' || (p == 'q' && pp != 'e') || (p == 'd' && pp == 'q'))
            continue;
        if (p == ' ' && (pp == '=' || pp == 'q'))
            continue;
        size_t j = i;
        int64_t v = 0;
        while (j < n && isdigit((unsigned char)s[j]))
            v = v < (int64_t)1 << 40 ? v * 10 + (s[j++] - '0') : (j++, v);
        if (v >= (int64_t)1 << 40)
            continue; /* no block is a terabyte: not a size */
        while (j < n && s[j] == ' ')
            j++;
        if (j < n && s[j] == 'k')
            return v * 1024;
        if (j < n && s[j] == 'm' && !(j + 1 < n && s[j + 1] == 'i' && j + 2 < n && s[j + 2] == 'x'))
            return v * 1048576;
    }
    return -1;
}

static int has(const char *s, const char *w)
{
    return strstr(s, w) != NULL;
}

int bl_cdm_test_parse(const char *src, size_t n, int major, bl_cdm_test *out)
{
    char s[96];
    while (n && (src[n - 1] == ' ' || src[n - 1] == ':' || src[n - 1] == '\t'))
        n--;
    while (n && (*src == ' ' || *src == '|'))
        src++, n--;
    if (n == 0 || n >= sizeof s)
        return 0;
    for (size_t i = 0; i < n; i++)
        s[i] = (char)tolower((unsigned char)src[i]);
    s[n] = '\0';
    memset(out, 0, sizeof *out);
    if (has(s, "read") || has(s, "リード"))
        out->op = 'r';
    else if (has(s, "write") || has(s, "ライト"))
        out->op = 'w';
    else if (has(s, "mix"))
        out->op = 'm';
    int seq = strncmp(s, "seq", 3) == 0 || has(s, "sequential") || has(s, "シーケンシャル");
    int rnd = strncmp(s, "rnd", 3) == 0 || has(s, "random") || has(s, "ランダム");
    out->bs = block_size(s, n);
    if (!seq && !rnd && out->bs > 0 && isdigit((unsigned char)s[0]))
        rnd = 1; /* fio-cdm's first table: "512K", "4K", "4KQD32" */
    if (seq == rnd)
        return 0;
    out->seq = seq;
    out->qd = out->threads = -1;
    for (size_t i = 0; i < n; i++) {
        int word_start = i == 0 || !isalpha((unsigned char)s[i - 1]) ||
                         (i >= 1 && (s[i - 1] == 'k' || s[i - 1] == 'm' || s[i - 1] == 'b'));
        if (s[i] == 'q' && out->qd < 0 && (word_start || isdigit((unsigned char)s[i - 1])))
            out->qd = count_after(s, i + 1, n);
        else if (s[i] == 't' && out->threads < 0 && i > 0 &&
                 (s[i - 1] == ' ' || s[i - 1] == ',' || s[i - 1] == '(' ||
                  isdigit((unsigned char)s[i - 1])))
            out->threads = count_after(s, i + 1, n);
    }
    if (out->qd < 0)
        out->qd = 1;
    if (out->threads < 0)
        out->threads = 1;
    if (out->bs <= 0) {
        if (!seq)
            return 0;
        /* CrystalDiskMark 5 and 6 read "Seq Q32T1" in 128 KiB blocks, single-queue in 1 MiB */
        out->bs = ((major == 5 || major == 6) && out->qd > 1) ? 131072 : 1048576;
    }
    int64_t b = out->bs;
    char bsname[24];
    if (b % 1048576 == 0)
        snprintf(bsname, sizeof bsname, "%lldM", (long long)(b / 1048576));
    else
        snprintf(bsname, sizeof bsname, "%lldK", (long long)(b / 1024));
    snprintf(out->name, sizeof out->name, "%s%s Q%lldT%lld", seq ? "SEQ" : "RND", bsname,
             (long long)out->qd, (long long)out->threads);
    return 1;
}

static const char *spaces(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The value of one unit of the last digit of the number in [s, e): 0.001 for "73.698". */
static double last_digit_step(const char *s, const char *e)
{
    const char *dot = memchr(s, '.', (size_t)(e - s));
    return dot ? pow(10, -(double)(e - dot - 1)) : 1.0;
}

size_t bl_cdm_value_parse_prec(const char *s0, double *bw, double *iops, double *lat_us,
                               double prec[2])
{
    const char *s = spaces(s0), *e;
    double v;
    *bw = *iops = *lat_us = BL_ABSENT;
    if (prec)
        prec[0] = prec[1] = BL_ABSENT;
    if (!bl_parse_number(s, 0, &v, &e))
        return 0;
    double bw_step = last_digit_step(s, e);
    s = spaces(e);
    if (strncmp(s, "MB/s", 4) != 0)
        return 0;
    *bw = v * 1e6;
    if (prec)
        prec[0] = bw_step * 1e6;
    s = spaces(s + 4);
    if (*s == '[') {
        const char *p = spaces(s + 1);
        if (bl_parse_number(p, 0, &v, &e) && strncmp(spaces(e), "IOPS", 4) == 0) {
            *iops = v;
            if (prec)
                prec[1] = last_digit_step(p, e);
            p = spaces(spaces(e) + 4);
            if (*p == ']')
                s = spaces(p + 1);
        }
    }
    if (*s == '<') {
        const char *p = spaces(s + 1);
        if (bl_parse_number(p, 0, &v, &e) && strncmp(spaces(e), "us", 2) == 0) {
            *lat_us = v;
            p = spaces(spaces(e) + 2);
            if (*p == '>')
                s = p + 1;
        }
    }
    return (size_t)(s - s0);
}

size_t bl_cdm_value_parse(const char *s, double *bw, double *iops, double *lat_us)
{
    return bl_cdm_value_parse_prec(s, bw, iops, lat_us, NULL);
}

void bl_cdm_meta_label(bl_cdm_meta *m, const char *key, const char *value, size_t n)
{
    while (n && (value[n - 1] == ' ' || value[n - 1] == '\t'))
        n--;
    for (size_t i = 0; i < m->n_labels; i++) {
        if (strcmp(m->labels[i].key, key) == 0) {
            free(m->labels[i].value);
            m->labels[i].value = bl_xstrndup(value, n);
            return;
        }
    }
    if (m->n_labels >= sizeof m->labels / sizeof m->labels[0])
        return;
    m->labels[m->n_labels].key = bl_xstrdup(key);
    m->labels[m->n_labels++].value = bl_xstrndup(value, n);
}

void bl_cdm_meta_free(bl_cdm_meta *m)
{
    for (size_t i = 0; i < m->n_labels; i++) {
        free(m->labels[i].key);
        free(m->labels[i].value);
    }
    m->n_labels = 0;
}

bl_record *bl_cdm_emit(bl_parse_out *o, long line, int64_t run, const bl_cdm_meta *m,
                       const bl_cdm_test *t, int op, double bw, double iops, double lat_us)
{
    if (t->op)
        op = t->op;
    bl_record *r = bl_out_record(o, line);
    r->run = run;
    bl_record_set_str(&r->tool, m->tool);
    if (m->version)
        bl_record_set_str(&r->tool_version, m->version);
    for (size_t i = 0; i < m->n_labels; i++)
        bl_record_set_label(r, m->labels[i].key, m->labels[i].value);
    bl_record_set_label(r, "cdm_test", t->name);
    const char *opname = op == 'r' ? "read" : op == 'w' ? "write" : "mixed";
    char test[32];
    snprintf(test, sizeof test, "%s-%s", t->seq ? "seq" : "rand", opname);
    bl_record_set_str(&r->test, test);
    bl_record_set_str(&r->op, opname);
    bl_record_set_str(&r->pattern, t->seq ? "seq" : "rand");
    r->bs = t->bs;
    r->iodepth = t->qd;
    r->numjobs = t->threads;
    r->bw_bytes_s = bw;
    r->iops = iops;
    if (bl_present(lat_us)) {
        r->lat_ns.present = true;
        r->lat_ns.mean = lat_us * 1000.0;
    }
    return r;
}
