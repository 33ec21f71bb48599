#include "load.h"
#include "../core/filter.h"
#include "../core/jsonl.h"
#include "../core/record_decode.h"
#include "../core/store.h"
#include "fine.h"
#include "setups.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int open_filtered(const char *db, int nterms, char **terms, bl_filter *f, bl_store **s,
                         char *err, size_t errlen)
{
    for (int i = 0; i < nterms; i++)
        if (bl_filter_add(f, terms[i], err, errlen) != 0)
            return 2;
    *s = bl_store_open_existing(db, err, errlen);
    return *s ? 0 : 1;
}

/* One walk over a store's records that match: 0 with *seen of them, or nonzero with err. */
typedef int (*filtered_fn)(bl_store *s, const bl_filter *f, void *ctx, size_t *seen, char *err,
                           size_t errlen);

/* The store opened with the filter of terms, walked by fn, closed: the commands' rc (2 a bad
 * term, 1 a store that cannot be opened, fn's failure, or "no stored record matches"). */
static int walk_filtered(const char *db, int nterms, char **terms, filtered_fn fn, void *ctx,
                         char *err, size_t errlen)
{
    bl_filter f = {0};
    bl_store *s = NULL;
    int rc = open_filtered(db, nterms, terms, &f, &s, err, errlen);
    if (rc == 0) {
        size_t seen = 0;
        rc = fn(s, &f, ctx, &seen, err, errlen);
        bl_store_close(s);
        if (rc == 0 && seen == 0) {
            snprintf(err, errlen, "no stored record matches");
            rc = 1;
        }
    }
    bl_filter_free(&f);
    return rc;
}

static int query_all(bl_store *s, const bl_filter *f, void *out, size_t *seen, char *err,
                     size_t errlen)
{
    bl_records *rs = out;
    int rc = bl_store_query(s, f, rs, err, errlen) == 0 ? 0 : 1;
    *seen = rs->n;
    return rc;
}

int bl_report_load(const char *db, int nterms, char **terms, bl_records *out, char *err,
                   size_t errlen)
{
    return walk_filtered(db, nterms, terms, query_all, out, err, errlen);
}

/* Whether a record's "row" label names its set-up depends on the run's other records
 * (setups.c): from a source's first record with a row label, the source's records wait
 * until the walk leaves that source (an import is one source, its records consecutive).
 * The store is walked once, into fine groups (fine.h); the set-up plan (setups.h: which
 * set-ups mix runs described differently) and then the table are built from the groups.
 * Only --repeats all, which lists every repeat in record order, walks twice: first into the
 * plan, then into the table. */
typedef struct walk {
    bl_fines *fines;     /* the one walk's */
    bl_table_builder *b; /* the second walk's (--repeats all) */
    bl_setup_plan *plan; /* the first walk's (--repeats all) */
    bl_report_each_fn each;
    bl_report_tag_fn tag; /* before each, may change the record */
    void *ctx;
    size_t n;
    char *source;
    bl_records pending;
    int waiting;
} walk;

static void add(walk *w, const bl_record *r, int row_setup)
{
    if (w->fines)
        bl_fines_add(w->fines, r, row_setup);
    else if (w->b)
        bl_table_add(w->b, r, row_setup);
    else
        bl_setup_plan_add(w->plan, r, row_setup);
}

static void flush(walk *w)
{
    if (w->pending.n) {
        int *row_setup = bl_setup_rows_naming(&w->pending);
        for (size_t i = 0; i < w->pending.n; i++)
            add(w, w->pending.v[i], row_setup[i]);
        free(row_setup);
    }
    bl_records_free(&w->pending);
    bl_records_init(&w->pending);
    w->waiting = 0;
}

static int take(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    walk *w = ctx;
    w->n++;
    if (w->tag)
        w->tag(w->ctx, r);
    if (w->each)
        w->each(w->ctx, r);
    const char *src = r->source ? r->source : "";
    if (!w->source || strcmp(w->source, src) != 0) {
        flush(w);
        free(w->source);
        w->source = bl_xstrdup(src);
    }
    if (!w->waiting && !bl_record_label(r, "row")) {
        add(w, r, 0);
        bl_record_free(r);
        return 0;
    }
    w->waiting = 1;
    bl_records_push(&w->pending, r);
    return 0;
}

/* Walks s into w (set up but for the pending records); returns 0 or 1. */
static int walk_store(bl_store *s, const bl_filter *f, walk *w, char *err, size_t errlen)
{
    bl_records_init(&w->pending);
    int rc = bl_store_each(s, f, take, w, err, errlen) == 0 ? 0 : 1;
    flush(w);
    free(w->source);
    w->source = NULL;
    return rc;
}

/* Whether the store's fold (bl_store_fold: one row per record shape, summed in SQL) can
 * stand for the walk: no caller wanting every record (each without shapes), no median (which
 * needs the values), and --by naming only what a shape keeps. */
static int foldable(const bl_table_opts *o, const bl_report_sees *see)
{
    if ((see->each && !see->shape && !see->lean) || o->repeats == BL_REP_ALL ||
        o->repeats == BL_REP_MEDIAN)
        return 0;
    for (const char *p = o->by; p && *p;) {
        size_t len = strcspn(p, ",");
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        if (!bl_fold_keeps(name))
            return 0;
        p += len + (p[len] == ',');
    }
    return 1;
}

typedef struct fold_ctx {
    bl_fines *fines;
    size_t n;
    int row; /* a record's "row" label may name its set-up (setups.c): walk instead */
    /* the shapes for see->shape, handed on once the fold is sure to stand (no row label) */
    int keep_shapes;
    bl_records shapes;
    size_t *n_recs, n_recs_cap; /* each shape's records */
} fold_ctx;

static int fold_one(void *ctx, bl_fold_group *g)
{
    fold_ctx *c = ctx;
    if (bl_record_label(g->shape, "row")) {
        c->row = 1;
        return 1;
    }
    c->n += g->n_recs;
    bl_fines_add_fold(c->fines, g);
    if (c->keep_shapes) {
        bl_grow((void **)&c->n_recs, &c->n_recs_cap, c->shapes.n + 1, sizeof *c->n_recs);
        c->n_recs[c->shapes.n] = g->n_recs;
        bl_records_push(&c->shapes, g->shape);
        g->shape = NULL;
    }
    return 0;
}

/* The fine groups from the store's fold; 0, else 1 (the walk must make them) or -1. */
static int fold_store(bl_store *s, const bl_filter *f, bl_fines *fines, const bl_report_sees *see,
                      size_t *n, char *err, size_t errlen)
{
    fold_ctx c = {.fines = fines, .keep_shapes = see->shape && !see->lean};
    bl_records_init(&c.shapes);
    int rc = bl_store_fold(s, f, fold_one, &c, err, errlen);
    *n = c.n;
    rc = rc == 1 || c.row ? 1 : rc;
    if (rc == 0 && see->lean) /* 1: the store cannot, the walk makes the table and sees all */
        rc = bl_store_each_lean(s, f, see->lean, see->ctx, err, errlen);
    for (size_t i = 0; rc == 0 && i < c.shapes.n; i++)
        see->shape(see->ctx, c.shapes.v[i], c.n_recs[i]);
    bl_records_free(&c.shapes);
    free(c.n_recs);
    return rc;
}

/* The builder of the table, fed: by the store's fold or one walk into fine groups, or by two
 * walks for --repeats all. */
static int fill(bl_store *s, const bl_filter *f, const bl_table_opts *o, const bl_report_sees *see,
                bl_table_builder *b, size_t *n, char *err, size_t errlen)
{
    bl_report_each_fn each = see->each;
    void *ctx = see->ctx;
    bl_setup_plan *plan = bl_setup_plan_new(o->by);
    int rc;
    if (foldable(o, see) && getenv("BENCHLOG_NO_FOLD") == NULL) {
        bl_fines fines;
        bl_fines_init(&fines, o->by, 0);
        rc = fold_store(s, f, &fines, see, n, err, errlen);
        if (rc == 0) {
            bl_setup_plan_add_fines(plan, &fines);
            bl_setup_plan_end(plan);
            bl_table_set_plan(b, plan);
            bl_table_add_fines(b, &fines);
        }
        bl_fines_free(&fines);
        if (rc <= 0) {
            if (rc < 0)
                bl_setup_plan_free(plan);
            return rc ? 1 : 0;
        }
    }
    if (o->repeats != BL_REP_ALL) {
        bl_fines fines;
        bl_fines_init(&fines, o->by, o->repeats == BL_REP_MEDIAN);
        walk w = {.fines = &fines, .each = each, .ctx = ctx};
        rc = walk_store(s, f, &w, err, errlen);
        *n = w.n;
        bl_setup_plan_add_fines(plan, &fines);
        bl_setup_plan_end(plan);
        bl_table_set_plan(b, plan);
        bl_table_add_fines(b, &fines);
        bl_fines_free(&fines);
        return rc;
    }
    walk w = {.plan = plan};
    rc = walk_store(s, f, &w, err, errlen);
    bl_setup_plan_end(plan);
    bl_table_set_plan(b, plan);
    w = (walk){.b = b, .each = each, .ctx = ctx};
    if (rc == 0)
        rc = walk_store(s, f, &w, err, errlen);
    *n = w.n;
    return rc;
}

int bl_report_table(const char *db, int nterms, char **terms, const bl_table_opts *o,
                    bl_report_each_fn each, void *ctx, bl_table **out, char *err, size_t errlen)
{
    bl_report_sees see = {.each = each, .ctx = ctx};
    return bl_report_table_sees(db, nterms, terms, o, &see, out, err, errlen);
}

typedef struct fill_ctx {
    const bl_table_opts *o;
    const bl_report_sees *see;
    bl_table_builder *b;
} fill_ctx;

static int fill_filtered(bl_store *s, const bl_filter *f, void *ctx, size_t *seen, char *err,
                         size_t errlen)
{
    fill_ctx *c = ctx;
    return fill(s, f, c->o, c->see, c->b, seen, err, errlen);
}

int bl_report_table_sees(const char *db, int nterms, char **terms, const bl_table_opts *o,
                         const bl_report_sees *see, bl_table **out, char *err, size_t errlen)
{
    *out = NULL;
    bl_table_opts lean = *o;
    lean.lean = 1;
    fill_ctx c = {&lean, see, bl_table_begin(&lean)};
    int rc = walk_filtered(db, nterms, terms, fill_filtered, &c, err, errlen);
    char ignored[256];
    bl_table *t = bl_table_end(c.b, rc ? ignored : err, rc ? sizeof ignored : errlen);
    if (rc == 0 && !t)
        rc = 3;
    if (rc)
        bl_table_free(t);
    else
        *out = t;
    return rc;
}

static int fines_filtered(bl_store *s, const bl_filter *f, void *ctx, size_t *seen, char *err,
                          size_t errlen)
{
    walk *w = ctx;
    int rc = walk_store(s, f, w, err, errlen);
    *seen = w->n;
    return rc;
}

int bl_report_fines(const char *db, int nterms, char **terms, bl_fines *fines, bl_report_tag_fn tag,
                    void *ctx, char *err, size_t errlen)
{
    walk w = {.fines = fines, .tag = tag, .ctx = ctx};
    return walk_filtered(db, nterms, terms, fines_filtered, &w, err, errlen);
}

typedef struct each_ctx {
    bl_report_rec_fn fn;
    void *ctx;
    size_t n;
    bl_report_tag_fn tag; /* may be NULL */
    void *tag_ctx;
} each_ctx;

static int each_one(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    each_ctx *e = ctx;
    e->n++;
    if (e->tag)
        e->tag(e->tag_ctx, r);
    int stop = e->fn(e->ctx, r);
    bl_record_free(r);
    return stop;
}

static int stop_at_first(void *seen, const bl_record *r)
{
    (void)r;
    *(int *)seen = 1;
    return 1;
}

int bl_report_walk(const char *db, int nterms, char **terms, bl_report_rec_fn fn, void *ctx,
                   char *err, size_t errlen)
{
    return bl_report_walk_hint(db, nterms, terms, NULL, fn, ctx, err, errlen);
}

static int walk_tagged(const char *db, int nterms, char **terms, const char *hint,
                       bl_report_tag_fn tag, void *tag_ctx, bl_report_rec_fn fn, void *ctx,
                       char *err, size_t errlen)
{
    bl_filter f = {0};
    bl_store *s = NULL;
    int rc = open_filtered(db, nterms, terms, &f, &s, err, errlen);
    if (rc == 0) {
        if (hint && getenv("BENCHLOG_NO_FOLD") == NULL) /* the tests' way to compare */
            bl_filter_add_hint(&f, hint);
        else
            hint = NULL;
        each_ctx e = {fn, ctx, 0, tag, tag_ctx};
        rc = bl_store_each(s, &f, each_one, &e, err, errlen) == 0 ? 0 : 1;
        bl_store_close(s);
        bl_filter_free(&f);
        /* None has the text, so fn would ignore every record: whether any matches at all
         * is all the walk would tell (its first record stops it). */
        if (rc == 0 && e.n == 0 && hint) {
            int seen = 0;
            rc =
                walk_tagged(db, nterms, terms, NULL, NULL, NULL, stop_at_first, &seen, err, errlen);
            return seen ? 0 : rc;
        }
        if (rc == 0 && e.n == 0) {
            snprintf(err, errlen, "no stored record matches");
            rc = 1;
        }
        return rc;
    }
    bl_filter_free(&f);
    return rc;
}

int bl_report_walk_hint(const char *db, int nterms, char **terms, const char *hint,
                        bl_report_rec_fn fn, void *ctx, char *err, size_t errlen)
{
    return walk_tagged(db, nterms, terms, hint, NULL, NULL, fn, ctx, err, errlen);
}

int bl_report_walk_tag(const char *db, int nterms, char **terms, bl_report_tag_fn tag,
                       void *tag_ctx, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen)
{
    return walk_tagged(db, nterms, terms, NULL, tag, tag_ctx, fn, ctx, err, errlen);
}

typedef struct lean_ctx {
    bl_lean_fn fn;
    void *ctx;
    size_t n;
} lean_ctx;

static void lean_one(void *ctx, const bl_record *r, const double fig[BL_FOLD_N])
{
    lean_ctx *c = ctx;
    c->n++;
    c->fn(c->ctx, r, fig);
}

static int lean_filtered(bl_store *s, const bl_filter *f, void *ctx, size_t *seen, char *err,
                         size_t errlen)
{
    lean_ctx *c = ctx;
    int rc = bl_store_each_lean(s, f, lean_one, c, err, errlen);
    *seen = c->n;
    if (rc == 1) /* the store cannot: nothing was given yet */
        return -1;
    return rc < 0 ? 1 : 0;
}

int bl_report_lean(const char *db, int nterms, char **terms, bl_lean_fn fn, void *ctx, char *err,
                   size_t errlen)
{
    if (getenv("BENCHLOG_NO_FOLD")) /* the tests' way to compare */
        return -1;
    lean_ctx c = {fn, ctx, 0};
    return walk_filtered(db, nterms, terms, lean_filtered, &c, err, errlen);
}

int bl_walk_records(void *src, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const bl_records *rs = src;
    for (size_t i = 0; i < rs->n; i++)
        if (fn(ctx, rs->v[i]) != 0)
            return 1;
    return 0;
}

typedef struct take_ctx {
    const bl_decode_want *want;
    bl_report_take_fn fn;
    void *ctx;
    size_t n;
} take_ctx;

static int take_one(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    take_ctx *w = ctx;
    w->n++;
    return w->fn(w->ctx, r);
}

/* The stored text decoded in part, or whole where the part is in doubt; a record that cannot
 * be read is skipped, as bl_store_each skips it. */
static int want_one(void *ctx, const char *json, size_t len, const char *run_id)
{
    take_ctx *w = ctx;
    bl_record *r = bl_record_decode_want(json, len, w->want);
    if (!r)
        r = bl_record_from_json(json, len, NULL, 0);
    return r ? take_one(ctx, r, run_id) : 0;
}

static int take_filtered(bl_store *s, const bl_filter *f, void *ctx, size_t *seen, char *err,
                         size_t errlen)
{
    take_ctx *w = ctx;
    int rc = w->want ? bl_store_each_json(s, f, want_one, w, err, errlen)
                     : bl_store_each(s, f, take_one, w, err, errlen);
    *seen = w->n;
    return rc == 0 ? 0 : 1;
}

/* bl_report_walk's walk (no hint, no tag), fn owning each record. */
static int walk_take(const bl_store_walk *sw, bl_report_take_fn fn, void *ctx, char *err,
                     size_t errlen)
{
    take_ctx w = {sw->want, fn, ctx, 0};
    return walk_filtered(sw->db, sw->nterms, sw->terms, take_filtered, &w, err, errlen);
}

typedef struct lend_ctx {
    bl_report_rec_fn fn;
    void *ctx;
} lend_ctx;

static int lend(void *ctx, bl_record *r)
{
    lend_ctx *l = ctx;
    int stop = l->fn(l->ctx, r);
    bl_record_free(r);
    return stop;
}

int bl_walk_store_take(void *src, bl_report_take_fn fn, void *ctx, char *err, size_t errlen)
{
    return walk_take(src, fn, ctx, err, errlen);
}

int bl_walk_store(void *src, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen)
{
    const bl_store_walk *s = src;
    if (s->want)
        return walk_take(s, lend, &(lend_ctx){fn, ctx}, err, errlen);
    return bl_report_walk(s->db, s->nterms, s->terms, fn, ctx, err, errlen);
}
