/* Which formats claim a text: each format's probe, skipped for a text that holds none of the
 * format's needles (bl_format.needles) or that its quick test refuses (bl_format.may_claim).
 * A big file is probed piece by piece, every format on every piece; searching a piece once
 * per needle costs a fraction of a probe's walk over its lines, and most formats' needles
 * are absent from another tool's output. */
#include "driver_int.h"
#include "../core/strbuf.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* The needles of fmts[0..nf); 0 when there are more than MAX_NEEDLES. */
static int gather(needles *nd, const bl_format *const *fmts, size_t nf)
{
    nd->n = 0;
    for (size_t f = 0; f < nf; f++)
        for (const char *const *s = fmts[f]->needles; s && *s; s++) {
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
    if (lines_in_buf(t))
        search(nd, t->buf, t->len);
    else
        search_lines(nd, t);
    for (size_t f = 0; f < nf; f++)
        may[f] = fmts[f]->needles == NULL;
    for (size_t j = 0; j < nd->n; j++)
        may[nd->v[j].fmt] |= (unsigned char)nd->v[j].found;
    for (size_t f = 0; f < nf; f++)
        may[f] = may[f] && (!fmts[f]->may_claim || fmts[f]->may_claim(t));
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
