#include "table.h"
#include "setups.h"
#include "fine.h"
#include "../core/filter.h"
#include "../core/fold.h"
#include "../core/strbuf.h"
#include "fmt.h"
#include "smap.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name, *unit;
    int lower_better;
} metrics[BL_M_COUNT] = {
    [BL_M_BW] = {"bw", "MB/s", 0},     [BL_M_IOPS] = {"iops", "IOPS", 0},
    [BL_M_LAT] = {"lat", "ns", 1},     [BL_M_P50] = {"p50", "ns", 1},
    [BL_M_P99] = {"p99", "ns", 1},     [BL_M_P999] = {"p99.9", "ns", 1},
    [BL_M_VALUE] = {"value", NULL, 0}, [BL_M_CPU] = {"cpu", "%", 1},
};

int bl_metric_from_name(const char *name)
{
    for (int i = 0; i < BL_M_COUNT; i++)
        if (strcmp(name, metrics[i].name) == 0)
            return i;
    return -1;
}

const char *bl_metric_name(bl_metric m)
{
    return metrics[m].name;
}

const char *bl_metric_unit(bl_metric m)
{
    return metrics[m].unit;
}

int bl_metric_lower_better(bl_metric m)
{
    return metrics[m].lower_better;
}

int bl_metric_direction(bl_metric m, const char *unit)
{
    if (m != BL_M_VALUE)
        return metrics[m].lower_better ? -1 : 1;
    static const char *const times[] = {"ns", "us", "µs", "ms", "s"};
    for (size_t i = 0; unit && i < sizeof times / sizeof *times; i++)
        if (strcmp(unit, times[i]) == 0)
            return -1;
    return 1;
}

static const char *intern_str(bl_table *t, bl_smap *pool, const char *s);

const char *const bl_setup_info_keys[BL_SETUP_INFO_N] = {"tool", "tool_version", "host",   "device",
                                                         "fs",   "date",         "command"};

/* Whether v is one of the "\x1f"-joined values of list. */
static int has_value(const char *list, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = list; p; p = strchr(p, '\x1f') ? strchr(p, '\x1f') + 1 : NULL)
        if (strncmp(p, v, n) == 0 && (p[n] == '\x1f' || p[n] == '\0'))
            return 1;
    return 0;
}

static void col_info(bl_col *c, const bl_record *r)
{
    for (int k = 0; k < BL_SETUP_INFO_N; k++) {
        char buf[64];
        const char *v = bl_record_field_text(r, bl_setup_info_keys[k], buf, sizeof buf);
        if (!v || !*v || strchr(v, '\x1f') || (c->info[k] && has_value(c->info[k], v)))
            continue;
        c->n_info[k]++;
        if (c->n_info[k] > 4)
            continue;
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "%s%s%s", c->info[k] ? c->info[k] : "", c->info[k] ? "\x1f" : "", v);
        free(c->info[k]);
        c->info[k] = bl_strbuf_take(&sb);
    }
}

/* The record's figures are read once, by core's bl_fold_figs, so that the grouped query
 * (fold columns summed in the database) and this walk fold the very same numbers. */
void bl_cell_fold(bl_cell *c, const bl_record *r)
{
    double fig[BL_FOLD_N];
    int flags;
    bl_fold_figs(r, fig, &flags);
    c->n_recs++;
    for (int k = 0; k < BL_FOLD_N; k++)
        bl_stat_add(&c->m[k], fig[k]);
    if (bl_present(fig[BL_FOLD_LAT]))
        c->lat_from[(flags & BL_FOLD_LAT_CLAT) != 0]++;
    if (flags & BL_FOLD_PCT)
        c->pct_from[(flags & BL_FOLD_PCT_CLAT) != 0]++;
    if (flags & BL_FOLD_NOTE_ONLY)
        c->n_notes++;
}

static void cell_add(bl_table *t, bl_smap *pool, bl_cell *c, const bl_record *r)
{
    bl_cell_fold(c, r);
    if (r->unit && !c->unit)
        c->unit = intern_str(t, pool, r->unit);
    if (r->note && !c->note)
        c->note = intern_str(t, pool, r->note);
}

/* A tool that does not say how many jobs ran ran one (dd, bonnie++ 1.03): the same test
 * with and without "numjobs":1 is one row. Queue depth has no such default. */
static int64_t jobs_of(const bl_record *r)
{
    return r->numjobs < 0 ? 1 : r->numjobs;
}

void bl_setup_row_key(const bl_record *r, bl_strbuf *sb)
{
    bl_strbuf_printf(sb, "%s\x1f%lld\x1f%lld\x1f%lld", r->test ? r->test : "?", (long long)r->bs,
                     (long long)r->iodepth, (long long)jobs_of(r));
}

static void row_init(bl_row *row, const char *test, int64_t bs, int64_t iodepth, int64_t numjobs)
{
    row->test = bl_xstrdup(test ? test : "?");
    row->bs = bs;
    row->iodepth = iodepth;
    row->numjobs = numjobs;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, row->test);
    if (row->bs > 0) {
        bl_strbuf_putc(&sb, ' ');
        bl_fmt_size(&sb, row->bs);
    }
    if (row->iodepth > 0 || row->numjobs > 0) {
        bl_strbuf_putc(&sb, ' ');
        if (row->iodepth > 0)
            bl_strbuf_printf(&sb, "Q%lld", (long long)row->iodepth);
        if (row->numjobs > 0)
            bl_strbuf_printf(&sb, "T%lld", (long long)row->numjobs);
    }
    row->title = bl_strbuf_take(&sb);
    row->small_block = row->bs > 0 && row->bs < 65536;
}

/* Sort rank of a test name: transfers first, then bonnie++'s tests in its order. */
static const char *const transfers[] = {"seq-read",  "seq-write",  "seq-trim",
                                        "rand-read", "rand-write", "rand-trim"};
static const char *const bonnie[] = {"seq-write-char", "seq-write-block", "seq-rewrite",
                                     "seq-read-char",  "seq-read-block",  "rand-seeks",
                                     "seq-create",     "seq-stat",        "seq-delete",
                                     "rand-create",    "rand-stat",       "rand-delete"};

static int index_in(const char *s, const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return i;
    return -1;
}

static int cmp_desc(int64_t a, int64_t b)
{
    return a > b ? -1 : a < b;
}

static int row_cmp(const void *pa, const void *pb)
{
    const bl_row *a = pa, *b = pb;
    int ta = index_in(a->test, transfers, 6), tb = index_in(b->test, transfers, 6);
    int ba = index_in(a->test, bonnie, 12), bb = index_in(b->test, bonnie, 12);
    int ca = ta >= 0 ? 0 : ba >= 0 ? 1 : 2, cb = tb >= 0 ? 0 : bb >= 0 ? 1 : 2;
    if (ca != cb)
        return ca - cb;
    int c = 0;
    if (ca == 0) {
        /* As CrystalDiskMark's rows: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1..., read | write. */
        if ((c = ta / 3 - tb / 3)) /* seq before rand */
            return c;
    } else if (ca == 1) {
        if ((c = ba - bb))
            return c;
    } else if ((c = strcmp(a->test, b->test))) {
        return c;
    }
    if ((c = cmp_desc(a->bs, b->bs)) || (c = cmp_desc(a->iodepth, b->iodepth)) ||
        (c = cmp_desc(a->numjobs, b->numjobs)))
        return c;
    return ca == 0 ? ta % 3 - tb % 3 : 0;
}

static int row_idx_cmp(const void *a, const void *b, void *rows)
{
    const bl_row *r = rows;
    int c = row_cmp(&r[*(const size_t *)a], &r[*(const size_t *)b]);
    /* Equal ranks keep first-seen order: qsort is not stable. */
    return c ? c
             : (*(const size_t *)a > *(const size_t *)b) -
                   (*(const size_t *)a < *(const size_t *)b);
}

/* A string the table keeps (a cell's unit and note, a column's tool): records are gone once
 * added, so the table owns one copy of each distinct string. */
static const char *intern_str(bl_table *t, bl_smap *pool, const char *s)
{
    if (!s)
        return NULL;
    long i = bl_smap_get(pool, s);
    if (i >= 0)
        return t->strs[i];
    bl_grow((void **)&t->strs, &t->strs_cap, t->nstrs + 1, sizeof *t->strs);
    t->strs[t->nstrs] = bl_xstrdup(s);
    bl_smap_put(pool, t->strs[t->nstrs], t->nstrs);
    return t->strs[t->nstrs++];
}

typedef struct bcell {
    bl_cell c;
    size_t row, col;         /* row in first-seen order */
    char *key;               /* of cellmap */
    size_t unit_at, note_at; /* bl_table_add_fines: where c.unit, c.note were first seen */
} bcell;

struct bl_table_builder {
    bl_table *t;
    char *baseline;
    int lean;
    bl_smap rows, cols, cellmap, pool;
    size_t rcap, ccap, cellcap;
    bcell *cells; /* in first-seen order; placed by row and column at the end */
    size_t ncells;
    bl_strbuf key, split;
    bl_setup_plan *plan;                   /* owned; NULL: set-ups are not split */
    bl_fine_info (*info)[BL_SETUP_INFO_N]; /* bl_table_add_fines: per column, as cols */
    size_t icap, ninfo;
};

/* The row of key, made from the given fields when new (a record's, or a fine group's). */
static size_t intern_row_of(bl_table_builder *b, const char *key, const char *test, int64_t bs,
                            int64_t iodepth, int64_t numjobs)
{
    bl_table *t = b->t;
    long i = bl_smap_get(&b->rows, key);
    if (i >= 0)
        return (size_t)i;
    bl_grow((void **)&t->rows, &b->rcap, t->nrows + 1, sizeof *t->rows);
    bl_row *row = &t->rows[t->nrows];
    memset(row, 0, sizeof *row);
    row_init(row, test, bs, iodepth, numjobs);
    bl_smap_put(&b->rows, bl_xstrdup(key), t->nrows);
    return t->nrows++;
}

static size_t intern_row(bl_table_builder *b, const bl_record *r)
{
    bl_strbuf_reset(&b->key);
    bl_setup_row_key(r, &b->key);
    return intern_row_of(b, b->key.s, r->test, r->bs, r->iodepth, jobs_of(r));
}

static size_t intern_col(bl_table_builder *b, const char *key, const bl_record *r)
{
    bl_table *t = b->t;
    long i = bl_smap_get(&b->cols, key);
    if (i >= 0)
        return (size_t)i;
    bl_grow((void **)&t->cols, &b->ccap, t->ncols + 1, sizeof *t->cols);
    memset(&t->cols[t->ncols], 0, sizeof t->cols[t->ncols]);
    t->cols[t->ncols].key = bl_xstrdup(key);
    t->cols[t->ncols].tool = intern_str(t, &b->pool, r->tool);
    t->cols[t->ncols].source = intern_str(t, &b->pool, r->source);
    bl_smap_put(&b->cols, t->cols[t->ncols].key, t->ncols);
    return t->ncols++;
}

static bl_cell *cell_at(bl_table_builder *b, size_t row, size_t col)
{
    char k[48];
    snprintf(k, sizeof k, "%zu:%zu", row, col);
    long i = bl_smap_get(&b->cellmap, k);
    if (i >= 0)
        return &b->cells[i].c;
    bl_grow((void **)&b->cells, &b->cellcap, b->ncells + 1, sizeof *b->cells);
    bcell *c = &b->cells[b->ncells];
    memset(c, 0, sizeof *c);
    c->row = row;
    c->col = col;
    c->unit_at = c->note_at = SIZE_MAX;
    /* Only a median or every repeat needs the values themselves. */
    for (int k = 0; k < BL_M_COUNT; k++)
        c->c.m[k].keep = !b->lean || b->t->repeats == BL_REP_MEDIAN || b->t->repeats == BL_REP_ALL;
    c->key = bl_xstrdup(k);
    bl_smap_put(&b->cellmap, c->key, b->ncells);
    return &b->cells[b->ncells++].c;
}

static double median_of(double *v, size_t n)
{
    for (size_t i = 1; i < n; i++) /* insertion sort: a row has few set-ups */
        for (size_t k = i; k > 0 && v[k - 1] > v[k]; k--) {
            double x = v[k];
            v[k] = v[k - 1];
            v[k - 1] = x;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The family a tool's figures are like: CrystalDiskMark and its ports and fio's scripts of
 * it measure alike, as do fio and benchlog's engine; iozone (page cache unless -I) and
 * others only compare with themselves. */
const char *bl_tool_family(const char *tool)
{
    static const char *const fam[][2] = {
        {"CrystalDiskMark", "cdm"},
        {"KDiskMark", "cdm"},
        {"fio-cdm", "cdm"},
        {"cdm", "cdm"},
        {"fio", "fio"},
        {"benchlog", "fio"},
    };
    if (!tool)
        return "";
    for (size_t i = 0; i < sizeof fam / sizeof *fam; i++)
        if (strcmp(tool, fam[i][0]) == 0)
            return fam[i][1];
    return tool;
}

/* A figure 100 times above or below what the same test shows on the row's other set-ups of
 * the same tool family (their median, three set-ups at least) is more likely a misread unit or
 * a cache than a disk: blog 001 shows 0.37 MB/s of 4KiB writes on bare HDDs against 15 MB/s
 * with SSD cache. Only like figures are neighbours: iozone's page-cache rewrites (0.4-3.4 GB/s)
 * say nothing of a bonnie++ rewrite of an old disk at 11.97 MB/s. */
static void flag_row(bl_table *t, size_t i)
{
    bl_metric m = bl_row_main(&t->rows[i]);
    double *v = bl_xmalloc((t->ncols + 1) * sizeof *v);
    for (size_t j = 0; j < t->ncols; j++) {
        bl_cell *c = bl_table_cell(t, i, j);
        c->flag = BL_ABSENT;
        if (!c->m[m].n || !(c->m[m].fig > 0))
            continue;
        size_t n = 0;
        const char *fam = bl_tool_family(t->cols[j].tool);
        for (size_t k = 0; k < t->ncols; k++) {
            const bl_stat *s = &bl_table_cell(t, i, k)->m[m];
            if (k != j && s->n && s->fig > 0 && strcmp(bl_tool_family(t->cols[k].tool), fam) == 0)
                v[n++] = s->fig;
        }
        if (n < 2)
            continue;
        double q = c->m[m].fig / median_of(v, n);
        if (q >= BL_IMPLAUSIBLE || q <= 1.0 / BL_IMPLAUSIBLE) {
            c->flag = q;
            t->n_flagged++;
        }
    }
    free(v);
}

static void finish(bl_table *t)
{
    for (size_t i = 0; i < t->nrows; i++) {
        bl_row *row = &t->rows[i];
        for (size_t j = 0; j < t->ncols; j++) {
            bl_cell *c = bl_table_cell(t, i, j);
            for (int k = 0; k < BL_M_COUNT; k++) {
                bl_stat_finish(&c->m[k], t->repeats, metrics[k].lower_better);
                if (c->n_setups > 1) /* pooled set-ups are no sample of one: no interval */
                    c->m[k].ci = BL_ABSENT;
            }
            row->has_bw |= c->m[BL_M_BW].n > 0;
            row->has_iops |= c->m[BL_M_IOPS].n > 0;
            row->has_value |= c->m[BL_M_VALUE].n > 0;
            if (c->unit && !row->unit)
                row->unit = c->unit;
            t->any_repeat |= c->n_recs > 1 && c->n_setups < 2;
            t->n_pooled += c->n_setups > 1;
            t->any_lat |= c->m[BL_M_LAT].n > 0 || c->m[BL_M_P99].n > 0;
            t->any_cpu |= c->m[BL_M_CPU].n > 0;
            for (int k = 0; k < 2; k++) {
                t->lat_from[k] += c->lat_from[k];
                t->pct_from[k] += c->pct_from[k];
            }
        }
        /* A test that reports IOPS without bandwidth is compared by IOPS, whatever its bs. */
        if (row->has_iops && !row->has_bw)
            row->small_block = 1;
        t->any_small |= row->small_block && row->has_iops;
        t->any_value |= row->has_value;
        flag_row(t, i);
    }
}

static int find_baseline(bl_table *t, const char *name, char *err, size_t errlen)
{
    t->baseline = -1;
    if (!name)
        return 0;
    for (size_t j = 0; j < t->ncols; j++)
        if (strcmp(t->cols[j].title, name) == 0 || strcmp(t->cols[j].key, name) == 0)
            t->baseline = (long)j;
    if (t->baseline >= 0)
        return 0;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t j = 0; j < t->ncols && j < 8; j++)
        bl_strbuf_printf(&sb, "%s'%s'", j ? ", " : "", t->cols[j].title);
    snprintf(err, errlen, "--baseline '%s' is not a column; columns are %s%s", name,
             sb.s ? sb.s : "(none)", t->ncols > 8 ? ", ..." : "");
    bl_strbuf_free(&sb);
    return -1;
}

/* A record without a test name (a bare fio log: a timeline, no summary) has nothing to
 * compare in a table; charts still draw it. */
static int comparable(const bl_record *r)
{
    return r->test && *r->test;
}

bl_table_builder *bl_table_begin(const bl_table_opts *o)
{
    bl_table_builder *b = bl_xcalloc(1, sizeof *b);
    b->t = bl_xcalloc(1, sizeof *b->t);
    b->t->by = o && o->by ? bl_xstrdup(o->by) : NULL;
    b->t->repeats = o ? o->repeats : BL_REP_MEAN;
    b->t->pool = o && o->pool;
    b->baseline = o && o->baseline ? bl_xstrdup(o->baseline) : NULL;
    b->lean = o && o->lean;
    bl_strbuf_init(&b->key);
    bl_strbuf_init(&b->split);
    return b;
}

void bl_table_set_plan(bl_table_builder *b, bl_setup_plan *plan)
{
    bl_setup_plan_free(b->plan);
    b->plan = plan;
}

void bl_table_add(bl_table_builder *b, const bl_record *r, int row_setup)
{
    bl_table *t = b->t;
    if (!comparable(r)) {
        t->n_left_out++;
        return;
    }
    t->n_records++;
    char buf[4096];
    size_t row = intern_row(b, r);
    const char *key = bl_setup_col_key(r, t->by, row_setup, buf, sizeof buf);
    size_t setups = 1;
    if (b->plan && t->pool) {
        setups = bl_setup_plan_count(b->plan, key, r);
    } else if (b->plan) {
        bl_setup_plan_split(b->plan, key, r, &b->split);
        if (b->split.len) {           /* "<set-up>\x1d<labels that tell it apart>" */
            bl_strbuf_reset(&b->key); /* free again once the row is found */
            bl_strbuf_printf(&b->key, "%s\x1d%s", key, b->split.s);
            key = b->key.s;
        }
    }
    size_t col = intern_col(b, key, r);
    bl_cell *c = cell_at(b, row, col);
    cell_add(t, &b->pool, c, r);
    col_info(&t->cols[col], r);
    if (setups > c->n_setups)
        c->n_setups = setups;
}

/* The row of a group's key. */
static size_t intern_row_key(bl_table_builder *b, const bl_fine *g)
{
    return intern_row_of(b, g->row, g->test, g->bs, g->iodepth, g->numjobs);
}

/* A group's part of a cell: its records' figures, and its unit and note when seen first. */
static void cell_merge(bl_table_builder *b, bcell *c, const bl_fine *g)
{
    c->c.n_recs += g->c.n_recs;
    c->c.n_notes += g->c.n_notes;
    for (int k = 0; k < BL_M_COUNT; k++)
        bl_stat_merge(&c->c.m[k], &g->c.m[k]);
    for (int k = 0; k < 2; k++) {
        c->c.lat_from[k] += g->c.lat_from[k];
        c->c.pct_from[k] += g->c.pct_from[k];
    }
    if (g->c.unit && g->unit_at < c->unit_at) {
        c->c.unit = intern_str(b->t, &b->pool, g->c.unit);
        c->unit_at = g->unit_at;
    }
    if (g->c.note && g->note_at < c->note_at) {
        c->c.note = intern_str(b->t, &b->pool, g->c.note);
        c->note_at = g->note_at;
    }
}

/* Adds one group as bl_table_add would add each of its records. */
static void add_fine(bl_table_builder *b, const bl_fine *g)
{
    bl_table *t = b->t;
    t->n_records += g->c.n_recs;
    size_t row = intern_row_key(b, g);
    const char *key = g->setup;
    size_t setups = 1;
    if (b->plan && t->pool) {
        setups = bl_setup_plan_count_row(b->plan, key, g->row);
    } else if (b->plan) {
        bl_setup_plan_split_desc(b->plan, key, g->desc, &b->split);
        if (b->split.len) {
            bl_strbuf_reset(&b->key);
            bl_strbuf_printf(&b->key, "%s\x1d%s", key, b->split.s);
            key = b->key.s;
        }
    }
    bl_record first = {.tool = g->tool, .source = g->source}; /* what a column keeps of it */
    size_t col = intern_col(b, key, &first);
    bl_grow((void **)&b->info, &b->icap, t->ncols, sizeof *b->info);
    for (; b->ninfo < t->ncols; b->ninfo++)
        memset(b->info[b->ninfo], 0, sizeof b->info[b->ninfo]);
    bcell *c = (bcell *)cell_at(b, row, col);
    cell_merge(b, c, g);
    for (int k = 0; k < BL_SETUP_INFO_N; k++)
        for (size_t v = 0; v < g->info[k].n; v++)
            bl_fine_info_add(&b->info[col][k], g->info[k].v[v], g->info[k].at[v]);
    if (setups > c->c.n_setups)
        c->c.n_setups = setups;
}

/* The columns' first values of bl_setup_info_keys, in the order first seen; past 4 a
 * count that says only "more than 4". */
static int by_at(const void *a, const void *b, void *ctx)
{
    const size_t *at = ctx;
    size_t x = at[*(const size_t *)a], y = at[*(const size_t *)b];
    return (x > y) - (x < y);
}

static void fines_info(bl_table_builder *b)
{
    for (size_t j = 0; b->info && j < b->t->ncols; j++)
        for (int k = 0; k < BL_SETUP_INFO_N; k++) {
            bl_fine_info *i = &b->info[j][k];
            size_t order[BL_FINE_INFO];
            for (size_t v = 0; v < i->n; v++)
                order[v] = v;
            qsort_r(order, i->n, sizeof *order, by_at, i->at);
            bl_strbuf sb;
            bl_strbuf_init(&sb);
            for (size_t v = 0; v < i->n && v < 4; v++)
                bl_strbuf_printf(&sb, "%s%s", v ? "\x1f" : "", i->v[order[v]]);
            bl_col *c = &b->t->cols[j];
            c->n_info[k] = i->n;
            c->info[k] = i->n ? bl_strbuf_take(&sb) : NULL;
            if (!i->n)
                bl_strbuf_free(&sb);
            bl_fine_info_free(i);
        }
    free(b->info);
    b->info = NULL;
    b->icap = b->ninfo = 0;
}

void bl_table_add_fines(bl_table_builder *b, const bl_fines *f)
{
    b->t->n_left_out += f->n_left_out;
    for (size_t i = 0; i < f->n; i++)
        add_fine(b, &f->v[i]);
    fines_info(b);
}

static void builder_free(bl_table_builder *b)
{
    for (size_t i = 0; i < b->rows.cap; i++)
        free((char *)b->rows.k[i]);
    for (size_t i = 0; i < b->ncells; i++)
        free(b->cells[i].key);
    bl_smap_free(&b->rows);
    bl_smap_free(&b->cols);
    bl_smap_free(&b->cellmap);
    bl_smap_free(&b->pool);
    free(b->cells);
    free(b->baseline);
    bl_strbuf_free(&b->key);
    bl_strbuf_free(&b->split);
    bl_setup_plan_free(b->plan);
    free(b->info);
    free(b);
}

/* Column order: first-seen, except that the columns split from one set-up (finding runs run
 * differently, "key\x1d...") and its scoped parts under --by ("value\x1c...") stand together,
 * right after it: "srv1", "srv1 · row=seq read", "srv1 · row=seq read*4". */
typedef struct col_rank {
    size_t base_first, split, at;
} col_rank;

static int col_rank_cmp(const void *a, const void *b)
{
    const col_rank *x = a, *y = b;
    if (x->base_first != y->base_first)
        return x->base_first < y->base_first ? -1 : 1;
    if (x->split != y->split)
        return x->split < y->split ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Orders t's columns; col_order[old index] = new index. */
static size_t *order_columns(bl_table *t)
{
    col_rank *rank = bl_xcalloc(t->ncols + 1, sizeof *rank);
    for (size_t j = 0; j < t->ncols; j++) {
        const char *k = t->cols[j].key;
        size_t len = strcspn(k, "\x1c\x1d");
        rank[j].at = j;
        rank[j].split = k[len] != '\0';
        rank[j].base_first = j;
        for (size_t i = 0; i < j; i++)
            /* the same base: its key, or its key and a split or scope (strchr finds the NUL) */
            if (strncmp(t->cols[i].key, k, len) == 0 && strchr("\x1c\x1d", t->cols[i].key[len])) {
                rank[j].base_first = rank[i].base_first;
                break;
            }
    }
    qsort(rank, t->ncols, sizeof *rank, col_rank_cmp);
    size_t *order = bl_xmalloc((t->ncols + 1) * sizeof *order);
    bl_col *sorted = bl_xmalloc((t->ncols + 1) * sizeof *sorted);
    for (size_t j = 0; j < t->ncols; j++) {
        sorted[j] = t->cols[rank[j].at];
        order[rank[j].at] = j;
    }
    free(rank);
    free(t->cols);
    t->cols = sorted;
    return order;
}

/* Sorts the rows and places each cell at its row and column of the grid. */
static void place_cells(bl_table_builder *b)
{
    bl_table *t = b->t;
    size_t *col_order = order_columns(t);
    size_t *perm = bl_xmalloc((t->nrows + 1) * sizeof *perm);
    size_t *order = bl_xmalloc((t->nrows + 1) * sizeof *order);
    for (size_t i = 0; i < t->nrows; i++)
        perm[i] = i;
    qsort_r(perm, t->nrows, sizeof *perm, row_idx_cmp, t->rows);
    bl_row *sorted = bl_xmalloc((t->nrows + 1) * sizeof *sorted);
    for (size_t i = 0; i < t->nrows; i++) {
        sorted[i] = t->rows[perm[i]];
        order[perm[i]] = i;
    }
    free(perm);
    free(t->rows);
    t->rows = sorted;
    t->cells = bl_xcalloc(t->nrows * t->ncols + 1, sizeof *t->cells);
    for (size_t i = 0; i < b->ncells; i++)
        *bl_table_cell(t, order[b->cells[i].row], col_order[b->cells[i].col]) = b->cells[i].c;
    free(order);
    free(col_order);
}

bl_table *bl_table_end(bl_table_builder *b, char *err, size_t errlen)
{
    bl_table *t = b->t;
    place_cells(b);
    finish(t);
    bl_setup_name_columns(t);
    int bad = find_baseline(t, b->baseline, err, errlen) != 0;
    builder_free(b);
    if (bad) {
        bl_table_free(t);
        return NULL;
    }
    return t;
}

bl_table *bl_table_build(const bl_records *recs, const bl_table_opts *o, char *err, size_t errlen)
{
    bl_table_builder *b = bl_table_begin(o);
    int *row_setup = bl_setup_rows_naming(recs);
    bl_setup_plan *plan = bl_setup_plan_new(o ? o->by : NULL);
    for (size_t i = 0; i < recs->n; i++)
        bl_setup_plan_add(plan, recs->v[i], row_setup[i]);
    bl_setup_plan_end(plan);
    bl_table_set_plan(b, plan);
    for (size_t i = 0; i < recs->n; i++)
        bl_table_add(b, recs->v[i], row_setup[i]);
    free(row_setup);
    return bl_table_end(b, err, errlen);
}

void bl_table_free(bl_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nrows; i++) {
        free(t->rows[i].test);
        free(t->rows[i].title);
    }
    for (size_t j = 0; j < t->ncols; j++) {
        free(t->cols[j].key);
        free(t->cols[j].title);
        free(t->cols[j].label);
        for (int k = 0; k < BL_SETUP_INFO_N; k++)
            free(t->cols[j].info[k]);
    }
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        for (int k = 0; k < BL_M_COUNT; k++)
            bl_stat_free(&t->cells[i].m[k]);
    for (size_t i = 0; i < t->nstrs; i++)
        free(t->strs[i]);
    free(t->strs);
    free(t->rows);
    free(t->cols);
    free(t->cells);
    free(t->by);
    free(t);
}

bl_metric bl_row_main(const bl_row *row)
{
    return row->has_bw ? BL_M_BW : row->has_iops ? BL_M_IOPS : BL_M_VALUE;
}

const bl_stat *bl_cell_main(const bl_row *row, const bl_cell *c)
{
    return &c->m[bl_row_main(row)];
}

int bl_row_has(const bl_table *t, size_t row, bl_metric m)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (bl_table_cell(t, row, j)->m[m].n)
            return 1;
    return 0;
}

double bl_table_ratio(const bl_table *t, size_t row, size_t col)
{
    if (t->baseline < 0)
        return BL_ABSENT;
    const bl_row *r = &t->rows[row];
    const bl_stat *a = bl_cell_main(r, bl_table_cell(t, row, col));
    const bl_stat *b = bl_cell_main(r, bl_table_cell(t, row, (size_t)t->baseline));
    if (!a->n || !b->n || b->fig == 0)
        return BL_ABSENT;
    return a->fig / b->fig;
}

size_t bl_table_chart_rows(const bl_table *t, size_t *out, const char **unit)
{
    size_t n = 0;
    int any_bw = 0, any_iops = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        any_bw |= t->rows[i].has_bw;
        any_iops |= t->rows[i].has_iops;
    }
    int want = any_bw ? 0 : any_iops ? 1 : 2; /* MB/s, IOPS, a metric */
    *unit = want == 0 ? "MB/s" : want == 1 ? "IOPS" : NULL;
    for (size_t i = 0; i < t->nrows; i++) {
        const bl_row *r = &t->rows[i];
        int ok = want == 0 ? r->has_bw : want == 1 ? r->has_iops : r->has_value;
        if (ok && want == 2) {
            if (!*unit)
                *unit = r->unit ? r->unit : "";
            ok = r->unit && strcmp(r->unit, *unit) == 0;
        }
        if (ok)
            out[n++] = i;
    }
    return n;
}
