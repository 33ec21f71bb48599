/* Which set-ups must be split so that a cell never averages runs that were run differently.
 *
 * Honest repeats of one command differ in their dates and figures, never in the command: a
 * record's description is what is known of how it was run (the fields and labels of desc[]).
 * The plan keeps, per (set-up, test row), the distinct descriptions seen; a set-up whose cells
 * hold two descriptions is split by the fewest labels that tell every cell's descriptions apart,
 * taken in desc[]'s order (what the reader knows the set-up by first: job, device, target). */
#include "setups.h"
#include "fine.h"
#include "../core/fields.h"
#include "../core/filter.h"
#include "../core/strbuf.h"
#include "smap.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A run's identity: the fields and labels that describe a command or its target (fio's job,
 * rw, engine and direct flag, hdparm's device and timing, dd's operands, CrystalDiskMark's
 * drive and profile, bonnie++'s size and file counts, a typed table's row, "seq read*4" beside
 * "seq read", a record's size) and those that describe the set-up it ran on (the heading it
 * stood under, its table column, machine, file system, tool, and last its source). Without
 * --by the set-up key holds the set-up's part already; under --by they keep a column's
 * different set-ups apart (blog 001's 18 NAS configurations under one host). bs, iodepth and
 * numjobs are in the test row already; dates, run times, versions and figures differ between
 * repeats. `body` (parsers/bodies.h) tells apart bodies of one text that nothing else does. */
static const char *const desc[] = {
    "job",       "device",      "target",        "drive",    "dd_of",    "dd_if",         "row",
    "section",   "column",      "host",          "fs",       "rw",       "hdparm_timing", "offset",
    "command",   "iozone_test", "sysbench_mode", "profile",  "mode",     "test_size",     "size",
    "files",     "seeks",       "seek_procs",    "runs",     "dd_oflag", "dd_iflag",      "dd_conv",
    "dd_count",  "dd_bs",       "direct",        "ioengine", "tool",     "source",        "body",
    "size_bytes"};
#define NDESC (sizeof desc / sizeof *desc)
const char *const *const bl_setup_desc = desc;
const size_t bl_setup_n_desc = NDESC;
_Static_assert(NDESC <= 64, "a set-up's split is a 64-bit mask of desc[]");

typedef struct pcell {
    size_t setup; /* index in setups */
    size_t next;  /* next cell of the same set-up, or SIZE_MAX */
    char **d;     /* distinct descriptions: NDESC values joined by \x1f */
    size_t nd, dcap;
} pcell;

typedef struct psetup {
    char *key;
    size_t first; /* its first cell, SIZE_MAX */
    size_t last;
    uint64_t split; /* bits of desc[] the set-up is split by */
} psetup;

struct bl_setup_plan {
    char *by;
    bl_smap setups, cells;
    psetup *s;
    size_t ns, scap;
    pcell *c;
    char **ckeys;
    size_t nc, ccap, kcap;
    bl_smap mixed;          /* "<set-up index>\x1c<display>" of the values mixed cells hold */
    bl_smap full, sizeless; /* "<cell index>\x1c<description>", that without its size */
    char **owned;           /* the keys of full and sizeless */
    size_t nown, ocap;
    char **mkeys;
    size_t nm, mcap;
    bl_strbuf k, d;
};

bl_setup_plan *bl_setup_plan_new(const char *by)
{
    bl_setup_plan *p = bl_xcalloc(1, sizeof *p);
    p->by = by ? bl_xstrdup(by) : NULL;
    bl_strbuf_init(&p->k);
    bl_strbuf_init(&p->d);
    return p;
}

/* The fields of desc[] resolved once (NULL: a label), as bl_record_field_text reads them. */
void bl_setup_desc_fields(const bl_field **f)
{
    for (size_t i = 0; i < NDESC; i++) {
        f[i] = bl_field_find(desc[i]);
        if (f[i] && !bl_field_is_scalar(f[i]))
            f[i] = NULL;
    }
}

/* r's description: desc[]'s values in order, "\x1f"-joined, absent as empty. */
void bl_setup_describe_with(const bl_record *r, const bl_field *const *f, bl_strbuf *d)
{
    bl_strbuf_reset(d);
    for (size_t i = 0; i < NDESC; i++) {
        char buf[64];
        const char *v =
            f[i] ? bl_field_text(f[i], r, buf, sizeof buf) : bl_record_label(r, desc[i]);
        if (i)
            bl_strbuf_putc(d, '\x1f');
        for (; v && *v; v++) /* a label holding the separator must not shift the fields */
            bl_strbuf_putc(d, *v == '\x1f' ? ' ' : *v);
    }
    if (!d->s)
        bl_strbuf_puts(d, "");
}

void bl_setup_describe(const bl_record *r, bl_strbuf *d)
{
    const bl_field *f[NDESC];
    bl_setup_desc_fields(f);
    bl_setup_describe_with(r, f, d);
}

static size_t setup_at(bl_setup_plan *p, const char *key)
{
    long i = bl_smap_get(&p->setups, key);
    if (i >= 0)
        return (size_t)i;
    bl_grow((void **)&p->s, &p->scap, p->ns + 1, sizeof *p->s);
    p->s[p->ns] = (psetup){bl_xstrdup(key), SIZE_MAX, SIZE_MAX, 0};
    bl_smap_put(&p->setups, p->s[p->ns].key, p->ns);
    return p->ns++;
}

static pcell *cell_at(bl_setup_plan *p, size_t setup, const char *key)
{
    long i = bl_smap_get(&p->cells, key);
    if (i >= 0)
        return &p->c[i];
    bl_grow((void **)&p->c, &p->ccap, p->nc + 1, sizeof *p->c);
    bl_grow((void **)&p->ckeys, &p->kcap, p->nc + 1, sizeof *p->ckeys);
    p->c[p->nc] = (pcell){setup, SIZE_MAX, NULL, 0, 0};
    p->ckeys[p->nc] = bl_xstrdup(key);
    bl_smap_put(&p->cells, p->ckeys[p->nc], p->nc);
    psetup *s = &p->s[setup];
    if (s->last == SIZE_MAX)
        s->first = p->nc;
    else
        p->c[s->last].next = p->nc;
    s->last = p->nc;
    return &p->c[p->nc++];
}

/* Remembers key (a copy the plan owns) in m as v. */
static void remember(bl_setup_plan *p, bl_smap *m, const char *key, size_t v)
{
    bl_grow((void **)&p->owned, &p->ocap, p->nown + 1, sizeof *p->owned);
    p->owned[p->nown] = bl_xstrdup(key);
    bl_smap_put(m, p->owned[p->nown++], v);
}

/* A record's size is known only where the tool printed it (fio says "Laying out IO file(s)
 * (1 file(s) / 512MB)" on the run that made the file, not on its repeats): absent, it agrees
 * with a size. Elsewhere an absent label is part of the command (dd without conv=). size_bytes
 * is desc[]'s last: a description without it is the text up to its last separator. */
static void add_description(bl_setup_plan *p, size_t ci, const char *d)
{
    pcell *c = &p->c[ci];
    bl_strbuf_reset(&p->k);
    bl_strbuf_printf(&p->k, "%zu\x1c%s", ci, d);
    if (bl_smap_get(&p->full, p->k.s) >= 0)
        return;
    remember(p, &p->full, p->k.s, 0);
    const char *size = strrchr(d, '\x1f') + 1;
    p->k.len -= strlen(size);
    p->k.s[p->k.len] = '\0';
    long e = bl_smap_get(&p->sizeless, p->k.s);
    if (e >= 0 && !*size)
        return;
    if (e >= 0 && !*(strrchr(c->d[e], '\x1f') + 1)) {
        free(c->d[e]);
        c->d[e] = bl_xstrdup(d);
        return;
    }
    if (e < 0)
        remember(p, &p->sizeless, p->k.s, c->nd);
    bl_grow((void **)&c->d, &c->dcap, c->nd + 1, sizeof *c->d);
    c->d[c->nd++] = bl_xstrdup(d);
}

void bl_setup_plan_add(bl_setup_plan *p, const bl_record *r, int row_setup)
{
    if (!r->test || !*r->test)
        return;
    char buf[4096];
    size_t setup = setup_at(p, bl_setup_col_key(r, p->by, row_setup, buf, sizeof buf));
    bl_strbuf_reset(&p->k);
    bl_strbuf_printf(&p->k, "%zu\x1c", setup);
    bl_setup_row_key(r, &p->k);
    size_t ci = (size_t)(cell_at(p, setup, p->k.s) - p->c);
    bl_setup_describe(r, &p->d);
    add_description(p, ci, p->d.s);
}

/* A group's records have one set-up, row and description: adding the groups in the order of
 * their first records gives each cell the descriptions in the order the records would. */
void bl_setup_plan_add_fines(bl_setup_plan *p, const bl_fines *f)
{
    for (size_t i = 0; i < f->n; i++) {
        const bl_fine *g = &f->v[i];
        size_t setup = setup_at(p, g->setup);
        bl_strbuf_reset(&p->k);
        bl_strbuf_printf(&p->k, "%zu\x1c%s", setup, g->row);
        size_t ci = (size_t)(cell_at(p, setup, p->k.s) - p->c);
        add_description(p, ci, g->desc);
    }
}

/* Value i of a description. */
static const char *value_of(const char *d, size_t i, size_t *len)
{
    for (; i > 0; i--)
        d = strchr(d, '\x1f') + 1;
    const char *e = strchr(d, '\x1f');
    *len = e ? (size_t)(e - d) : strlen(d);
    return d;
}

/* d's values under mask, "\x1f"-joined. */
static char *project(const char *d, uint64_t mask)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t k = 0; k < NDESC; k++) {
        size_t len;
        const char *v = value_of(d, k, &len);
        if (mask >> k & 1)
            bl_strbuf_printf(&sb, "%.*s\x1f", (int)len, v);
    }
    bl_strbuf_putc(&sb, '\x1f');
    return bl_strbuf_take(&sb);
}

/* How many of a set-up's cells' descriptions mask fails to tell apart: over each cell, its
 * descriptions less its distinct projections. Linear in the descriptions. */
static size_t together(const bl_setup_plan *p, const psetup *s, uint64_t mask)
{
    size_t n = 0;
    for (size_t ci = s->first; ci != SIZE_MAX; ci = p->c[ci].next) {
        const pcell *c = &p->c[ci];
        if (c->nd < 2)
            continue;
        bl_smap seen = {0};
        char **v = bl_xmalloc(c->nd * sizeof *v);
        size_t distinct = 0;
        for (size_t i = 0; i < c->nd; i++) {
            v[i] = project(c->d[i], mask);
            if (bl_smap_get(&seen, v[i]) < 0) {
                bl_smap_put(&seen, v[i], i);
                distinct++;
            }
        }
        n += c->nd - distinct;
        for (size_t i = 0; i < c->nd; i++)
            free(v[i]);
        free(v);
        bl_smap_free(&seen);
    }
    return n;
}

/* "job=ssd · direct=true": the values of description d under mask, absent ones left out. */
static void display(const char *d, uint64_t mask, bl_strbuf *out)
{
    bl_strbuf_reset(out);
    for (size_t k = 0; k < NDESC; k++) {
        size_t len;
        const char *v = value_of(d, k, &len);
        if (!(mask >> k & 1) || !len)
            continue;
        if (strcmp(desc[k], "source") == 0) { /* the file's name: paths are long */
            const char *base = v;
            for (const char *q = v; q < v + len; q++)
                if (*q == '/')
                    base = q + 1;
            len -= (size_t)(base - v);
            v = base;
        }
        bl_strbuf_printf(out, "%s%s=%.*s", out->len ? " · " : "", desc[k], (int)len, v);
    }
}

/* Marks the values a split set-up's mixed cells hold: those, and only those, get columns of
 * their own; records of values never mixed stay in the set-up's column (a typed table's
 * "seq write" row beside the "seq read" and "seq read*4" that share a test). */
static void mark_mixed(bl_setup_plan *p, size_t si)
{
    psetup *s = &p->s[si];
    for (size_t ci = s->first; ci != SIZE_MAX; ci = p->c[ci].next) {
        const pcell *c = &p->c[ci];
        for (size_t i = 0; c->nd > 1 && i < c->nd; i++) {
            display(c->d[i], s->split, &p->d);
            bl_strbuf_reset(&p->k);
            bl_strbuf_printf(&p->k, "%zu\x1c%s", si, p->d.s ? p->d.s : "");
            if (bl_smap_get(&p->mixed, p->k.s) >= 0)
                continue;
            bl_grow((void **)&p->mkeys, &p->mcap, p->nm + 1, sizeof *p->mkeys);
            p->mkeys[p->nm] = bl_xstrdup(p->k.s);
            bl_smap_put(&p->mixed, p->mkeys[p->nm], p->nm);
            p->nm++;
        }
    }
}

void bl_setup_plan_end(bl_setup_plan *p)
{
    for (size_t i = 0; i < p->ns; i++) {
        psetup *s = &p->s[i];
        size_t left = together(p, s, 0);
        for (size_t k = 0; k < NDESC && left; k++) {
            size_t now = together(p, s, s->split | (uint64_t)1 << k);
            if (now < left) {
                s->split |= (uint64_t)1 << k;
                left = now;
            }
        }
        if (s->split)
            mark_mixed(p, i);
    }
}

void bl_setup_plan_split(bl_setup_plan *p, const char *setup_key, const bl_record *r,
                         bl_strbuf *out)
{
    bl_strbuf_reset(out);
    long i = bl_smap_get(&p->setups, setup_key);
    if (i < 0 || !p->s[i].split)
        return;
    bl_setup_describe(r, &p->d);
    bl_setup_plan_split_desc(p, setup_key, p->d.s, out);
}

void bl_setup_plan_split_desc(bl_setup_plan *p, const char *setup_key, const char *d,
                              bl_strbuf *out)
{
    bl_strbuf_reset(out);
    long i = bl_smap_get(&p->setups, setup_key);
    if (i < 0 || !p->s[i].split)
        return;
    display(d, p->s[i].split, out);
    bl_strbuf_reset(&p->k);
    bl_strbuf_printf(&p->k, "%ld\x1c%s", i, out->s ? out->s : "");
    if (bl_smap_get(&p->mixed, p->k.s) < 0)
        bl_strbuf_reset(out);
}

size_t bl_setup_plan_count(bl_setup_plan *p, const char *setup_key, const bl_record *r)
{
    bl_strbuf row;
    bl_strbuf_init(&row);
    bl_setup_row_key(r, &row);
    size_t n = bl_setup_plan_count_row(p, setup_key, row.s);
    bl_strbuf_free(&row);
    return n;
}

size_t bl_setup_plan_count_row(bl_setup_plan *p, const char *setup_key, const char *row)
{
    long i = bl_smap_get(&p->setups, setup_key);
    if (i < 0)
        return 1;
    bl_strbuf_reset(&p->k);
    bl_strbuf_printf(&p->k, "%ld\x1c%s", i, row);
    long c = bl_smap_get(&p->cells, p->k.s);
    return c < 0 || !p->c[c].nd ? 1 : p->c[c].nd;
}

void bl_setup_plan_free(bl_setup_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->ns; i++)
        free(p->s[i].key);
    for (size_t i = 0; i < p->nc; i++) {
        for (size_t k = 0; k < p->c[i].nd; k++)
            free(p->c[i].d[k]);
        free(p->c[i].d);
        free(p->ckeys[i]);
    }
    for (size_t i = 0; i < p->nm; i++)
        free(p->mkeys[i]);
    free(p->mkeys);
    bl_smap_free(&p->mixed);
    for (size_t i = 0; i < p->nown; i++)
        free(p->owned[i]);
    free(p->owned);
    bl_smap_free(&p->full);
    bl_smap_free(&p->sizeless);
    bl_smap_free(&p->setups);
    bl_smap_free(&p->cells);
    free(p->s);
    free(p->c);
    free(p->ckeys);
    free(p->by);
    bl_strbuf_free(&p->k);
    bl_strbuf_free(&p->d);
    free(p);
}
