/* Which formats claim a text: each format's probe, skipped for a text that holds none of the
 * format's needles (bl_format.needles, or the driver's own for fio JSON) or that fails the
 * driver's pre-test of a format without needles (bonnie-csv: the commas of a line). A big
 * file is probed piece by piece, every format on every piece; searching a piece once per
 * needle costs a fraction of a probe's walk over its lines, and most formats' needles are
 * absent from another tool's output. */
#include "driver_int.h"
#include "../core/strbuf.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Bytes of benchmark output from the most to the least frequent (fio's normal output, which
 * is what big files hold): a needle is looked for by its least frequent byte, so that memchr
 * stops rarely. Only the speed depends on this order. */
static const char common_bytes[] = " 0=,.1tse2469%:i3a5r8n7mdhcoup[]/()lBgwbK-vfxM|>yjIkORJ_STWq";

static size_t anchor_of(const char *needle, size_t n)
{
    size_t best = 0, best_rank = 0;
    for (size_t i = 0; i < n; i++) {
        const char *c = memchr(common_bytes, needle[i], sizeof common_bytes - 1);
        size_t rank = c ? (size_t)(c - common_bytes) : sizeof common_bytes;
        if (i == 0 || rank > best_rank)
            best = i, best_rank = rank;
    }
    return best;
}

/* Whether every line of t lies in t->buf[0..len], so that a needle absent from the buffer is
 * absent from every line (texts made by bl_text_load, bl_text_from_bytes, normalize). */
static int lines_in_buf(const bl_text *t)
{
    if (!t->buf || t->buf[t->len] != '\0')
        return 0;
    uintptr_t lo = (uintptr_t)t->buf, hi = lo + t->len;
    for (size_t i = 0; i < t->nlines; i++) {
        uintptr_t p = (uintptr_t)t->line[i];
        if (p < lo || p > hi)
            return 0;
    }
    return 1;
}

enum { MAX_NEEDLES = 128 };

/* The needles of the formats asked about, each with the byte it is looked for by. */
typedef struct needle {
    const char *s;
    size_t n, k; /* length; place of the anchor byte */
    size_t fmt;  /* the format's place among those asked about */
    int found;
} needle;

typedef struct needles {
    needle v[MAX_NEEDLES];
    size_t n;
} needles;

/* The needles of a format whose file declares none, which its probe looks for and nothing
 * else: fio JSON's probe claims exactly the texts with one of these in a line (a big fio
 * normal text's pieces hold no '"' at all, so one memchr spares its two strstr a line).
 * Belongs in parsers/fio_json.c's bl_format; test_probe_needles holds it to the probe. */
static const char *const fio_json_needles[] = {"\"fio version\"", "\"jobname\"", NULL};

static const char *const *needles_of(const bl_format *f)
{
    if (!f->needles && f->probe && strcmp(f->name, "fio-json") == 0)
        return fio_json_needles;
    return f->needles;
}

/* Whether t's lines are the NUL-ended runs of t->buf[0..len] (texts made by bl_text_load,
 * bl_text_from_bytes): each starts at the buffer or right after a NUL, so a line is the run
 * that starts where it does. Runs that are no line ("\r\n" leaves an empty one) may be
 * looked at too: a pre-test below only says less often that a probe cannot claim. in_buf:
 * lines_in_buf(t). */
static int lines_are_runs(const bl_text *t, int in_buf)
{
    if (!in_buf)
        return 0;
    for (size_t i = 0; i < t->nlines; i++)
        if (t->line[i] != t->buf && t->line[i][-1] != '\0')
            return 0;
    return 1;
}

/* Whether bonnie-csv's probe may find a line of its own in the run s with `commas` commas:
 * bl_bonnie_csv_line reads no line of fewer than 5 (6 fields), nor one of fewer than 19
 * that does not start "1.9" or "2.0" after its blanks (the versions that print short lines). */
static int csv_run(const char *s, size_t commas)
{
    if (commas < 5)
        return 0;
    s += strspn(s, " \t");
    return commas >= 19 || strncmp(s, "1.9", 3) == 0 || strncmp(s, "2.0", 3) == 0;
}

/* The bits set in x < 2^16 (without -mpopcnt, __builtin_popcount is a call). */
static size_t bits16(unsigned x)
{
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return (x + (x >> 8)) & 0x1fu;
}

/* 0 when no line of t can be a bonnie++ CSV line (csv_run), else 1: one pass over the
 * buffer counting each line's commas (16 bytes at a time), where the probe splits lines of
 * fio's output ("IO depths : 1=0.1%, 2=0.1%, ...") at their commas, line by line. */
static int csv_may_claim(const bl_text *t, int in_buf)
{
    if (!lines_are_runs(t, in_buf))
        return 1;
    const char *b = t->buf;
    size_t n = t->len + 1, i = 0, start = 0, commas = 0; /* the last NUL ends the last run */
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(','), nul = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
        unsigned c = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma));
        unsigned z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nul));
        for (; z; z &= z - 1) { /* each run that ends in these 16 bytes */
            unsigned at = (unsigned)__builtin_ctz(z), before = (1u << at) - 1;
            commas += c & before ? bits16(c & before) : 0;
            if (csv_run(b + start, commas))
                return 1;
            c &= ~(before | (1u << at));
            start = i + at + 1;
            commas = 0;
        }
        commas += c ? bits16(c) : 0;
    }
#endif
    for (; i < n; i++) {
        if (b[i] == ',')
            commas++;
        else if (b[i] == '\0') {
            if (csv_run(b + start, commas))
                return 1;
            start = i + 1;
            commas = 0;
        }
    }
    return 0;
}

/* A pre-test of a format that has none of its own: 0 when its probe cannot claim t. Like
 * the needles, it must hold for each claim; test_probe_needles holds it to the probe. */
static int pre_test(const bl_text *t, const bl_format *f, int in_buf)
{
    if (f->probe && strcmp(f->name, "bonnie-csv") == 0)
        return csv_may_claim(t, in_buf);
    return 1;
}

/* The needles of fmts[0..nf); 0 when there are more than MAX_NEEDLES. */
static int gather(needles *nd, const bl_format *const *fmts, size_t nf)
{
    nd->n = 0;
    for (size_t f = 0; f < nf; f++)
        for (const char *const *s = needles_of(fmts[f]); s && *s; s++) {
            if (nd->n == MAX_NEEDLES)
                return 0;
            needle *e = &nd->v[nd->n++];
            e->s = *s;
            e->n = strlen(*s);
            e->k = anchor_of(*s, e->n);
            e->fmt = f;
            e->found = e->n == 0;
        }
    return 1;
}

/* Marks the needles that buf[0..len) holds (no NUL in a needle: a match never spans two
 * lines). One memchr walk per anchor byte serves every needle looked for by it. */
static void search(needles *nd, const char *buf, size_t len)
{
    for (size_t i = 0; i < nd->n; i++) {
        unsigned char a = (unsigned char)nd->v[i].s[nd->v[i].k];
        int first = 1; /* else the walk of the first needle of anchor a served this one */
        for (size_t j = 0; j < i && first; j++)
            first = (unsigned char)nd->v[j].s[nd->v[j].k] != a;
        size_t of[MAX_NEEDLES], left = 0; /* the needles of anchor a not yet found */
        for (size_t j = i; first && j < nd->n; j++)
            if (!nd->v[j].found && (unsigned char)nd->v[j].s[nd->v[j].k] == a)
                of[left++] = j;
        for (const char *p = buf; left && (p = memchr(p, a, (size_t)(buf + len - p))); p++) {
            size_t at = (size_t)(p - buf);
            for (size_t m = 0; m < left; m++) {
                needle *e = &nd->v[of[m]];
                if (at >= e->k && at - e->k + e->n <= len && memcmp(p - e->k, e->s, e->n) == 0) {
                    e->found = 1;
                    of[m--] = of[--left];
                }
            }
        }
    }
}

/* The same over each line, for a text whose lines are not in its buffer. */
static void search_lines(needles *nd, const bl_text *t)
{
    for (size_t j = 0; j < nd->n; j++)
        for (size_t i = 0; i < t->nlines && !nd->v[j].found; i++)
            nd->v[j].found = strstr(t->line[i], nd->v[j].s) != NULL;
}

/* Which of fmts[0..nf) may claim t: may[f] is 1 when fmts[f] has no needles or t holds one of
 * them. */
static void claimable(const bl_text *t, const bl_format *const *fmts, size_t nf, unsigned char *may)
{
    needles *nd = bl_xmalloc(sizeof *nd);
    if (!gather(nd, fmts, nf)) {
        memset(may, 1, nf);
        free(nd);
        return;
    }
    int in_buf = lines_in_buf(t);
    if (in_buf)
        search(nd, t->buf, t->len);
    else
        search_lines(nd, t);
    for (size_t f = 0; f < nf; f++)
        may[f] = needles_of(fmts[f]) == NULL;
    for (size_t j = 0; j < nd->n; j++)
        may[nd->v[j].fmt] |= (unsigned char)nd->v[j].found;
    for (size_t f = 0; f < nf; f++)
        may[f] = may[f] && pre_test(t, fmts[f], in_buf);
    free(nd);
}

int bl_drv_may_claim(const bl_text *t, const bl_format *fmt)
{
    unsigned char may;
    claimable(t, &fmt, 1, &may);
    return may;
}

/* BENCHLOG_PROBE_ALL=1 probes every format whatever its needles: the same formats are found,
 * only slower (a check of the needles, e.g. over a corpus, compares both). */
static int probe_all(void)
{
    const char *v = getenv("BENCHLOG_PROBE_ALL");
    return v && *v && strcmp(v, "0") != 0;
}

size_t bl_drv_probe_formats(const bl_text *t, const bl_format **fmts, const bl_patterns *pats)
{
    enum { MAX_FORMATS = 64 }; /* the registry holds 15 */
    const bl_format *reg[MAX_FORMATS] = {0};
    unsigned char may[MAX_FORMATS];
    size_t n = 0, nf = bl_format_count();
    int all = probe_all() || nf > MAX_FORMATS;
    for (size_t i = 0; i < nf && i < MAX_FORMATS; i++)
        reg[i] = bl_format_at(i);
    if (!all)
        claimable(t, reg, nf, may);
    for (size_t i = 0; i < nf; i++) {
        const bl_format *f = bl_format_at(i);
        if ((all || may[i]) && f->probe(t) > 0)
            fmts[n++] = f;
    }
    for (size_t i = 0; i < bl_patterns_count(pats) && n < 64; i++)
        if (bl_patterns_probe(pats, i, t) > 0)
            fmts[n++] = bl_patterns_format(pats, i);
    return n;
}
