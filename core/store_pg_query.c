/* Reading and changing the PostgreSQL store. Rows stream one at a time (libpq's single-row
 * mode), so memory does not grow with the store. The terms SQL decides as C does go into
 * the WHERE (run=ID through the runs' IDs, tool= and test= through their index); every
 * record of a filtered walk is still checked in C, the one rule of FILTER. The grouped query
 * (bl_pg_fold_walk) also takes the terms on what a shape keeps, C deciding them on each
 * shape: the same answer as on each of its records. Records come in
 * import order (import, then record id): concurrent imports interleave record ids, and an
 * import's records stay together. Relabel and delete are one transaction each, their
 * records read FOR UPDATE so that two editors of one run do not lose an edit. */
#include "fold.h"
#include "jsonl.h"
#include "store_pg_int.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pg_where {
    bl_strbuf sql;
    const char *params[64];
    int n;
} pg_where;

static void add_term(pg_where *w, const char *fmt, const char *p, const char *value)
{
    bl_strbuf_printf(&w->sql, fmt, p, w->n + 1);
    w->params[w->n++] = value;
}

/* The terms SQL decides exactly, on records alias p (its run alias p + "u"). */
static void where_of(pg_where *w, const bl_filter *f, const char *p)
{
    int runs = 0;
    for (size_t i = 0; f && i < f->n && w->n < 60; i++) {
        const bl_filter_term *t = &f->t[i];
        if (t->op != '=' || strcmp(t->key, "run") != 0)
            continue;
        if (runs)
            bl_strbuf_printf(&w->sql, ", $%d", w->n + 1);
        else
            bl_strbuf_printf(&w->sql, " AND %su.uid IN ($%d", p, w->n + 1);
        w->params[w->n++] = t->value;
        runs++;
    }
    if (runs)
        bl_strbuf_putc(&w->sql, ')');
    for (size_t i = 0; f && i < f->n && w->n < 60; i++) {
        const bl_filter_term *t = &f->t[i];
        if (t->op == '=' && strcmp(t->key, "tool") == 0)
            add_term(w, " AND %s.tool = $%d", p, t->value);
        else if (t->op == '=' && strcmp(t->key, "test") == 0)
            add_term(w, " AND %s.test = $%d", p, t->value);
    }
}

#define FROM_RECORDS(r)                                                                            \
    " FROM records " r " JOIN runs " r "u ON " r "u.import_id = " r ".import_id AND " r            \
    "u.run = " r ".run"

typedef bl_pg_row_fn row_fn;

/* Runs sql with w's parameters and calls fn on each row as it arrives; a nonzero return
 * of fn stops the calls (the rest of the rows are read and dropped) and is returned. */
static int walk(bl_store *s, const char *sql, const pg_where *w, row_fn fn, void *ctx, char *err,
                size_t errlen)
{
    if (s->walking) {
        snprintf(err, errlen, "%s: a walk within a walk of the store (a bug)", s->path);
        return -1;
    }
    if (!PQsendQueryParams(s->pg, sql, w->n, NULL, w->params, NULL, NULL, 0))
        return bl_pg_fail(s, NULL, err, errlen);
    s->walking = 1;
    PQsetSingleRowMode(s->pg);
    int stop = 0, failed = 0;
    PGresult *res;
    while ((res = PQgetResult(s->pg))) {
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_SINGLE_TUPLE && !stop && !failed) {
            stop = fn(ctx, res);
        } else if (st != PGRES_SINGLE_TUPLE && st != PGRES_TUPLES_OK && !failed) {
            failed = 1;
            bl_pg_fail(s, res, err, errlen);
            continue;
        }
        PQclear(res);
    }
    s->walking = 0;
    return stop ? stop : failed ? -1 : 0;
}

/* Whether C decides term t on a record's shape exactly: every record of a shape has the
 * value t reads (fold.h), and run, tool= and test= are SQL's. */
static int shape_term(const bl_filter_term *t)
{
    if (t->op == '=' && (!strcmp(t->key, "tool") || !strcmp(t->key, "test")))
        return 0;
    return bl_store_shape_decides(t);
}

typedef struct shape_ids {
    const bl_filter *f; /* the shape terms */
    bl_strbuf ids;      /* the matching shapes' ids, an array literal being built */
} shape_ids;

static int shape_row(void *ctx, const PGresult *row)
{
    shape_ids *c = ctx;
    bl_record *r =
        bl_record_from_json(PQgetvalue(row, 0, 1), (size_t)PQgetlength(row, 0, 1), NULL, 0);
    if (!r || bl_filter_match(c->f, r)) { /* unreadable: the grouped query says so */
        bl_strbuf_putc(&c->ids, c->ids.len ? ',' : '{');
        bl_strbuf_puts(&c->ids, PQgetvalue(row, 0, 0));
    }
    bl_record_free(r);
    return 0;
}

/* The ids of the shapes f's shape terms match, as an array literal into c->ids: one read of
 * the shapes table (thousands of rows for a store of many dd files), C's filter on each;
 * with run= terms, only the shapes of those runs' records (a run's report reads no more). */
static int shapes_matching(bl_store *s, const bl_filter *f, shape_ids *c, char *err, size_t errlen)
{
    bl_filter sf = {.t = bl_xcalloc(f->n, sizeof *sf.t)}; /* borrows f's terms */
    int runs = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (shape_term(&f->t[i]))
            sf.t[sf.n++] = f->t[i];
        runs |= f->t[i].op == '=' && strcmp(f->t[i].key, "run") == 0;
    }
    c->f = &sf;
    pg_where w = {.n = 0};
    bl_strbuf_init(&w.sql);
    bl_strbuf_puts(&w.sql, "SELECT id, shape FROM shapes");
    if (runs) {
        bl_strbuf_puts(&w.sql, " WHERE id IN (SELECT r.shape_id" FROM_RECORDS("r") " WHERE true");
        where_of(&w, f, "r");
        bl_strbuf_putc(&w.sql, ')');
    }
    int rc = walk(s, w.sql.s, &w, shape_row, c, err, errlen);
    bl_strbuf_free(&w.sql);
    bl_strbuf_puts(&c->ids, c->ids.len ? "}" : "{}");
    c->f = NULL;
    free(sf.t);
    return rc;
}

int bl_pg_fold_walk(bl_store *s, const bl_filter *f, const char *head, const char *tail,
                    bl_pg_row_fn fn, void *ctx, char *err, size_t errlen)
{
    int on_shapes = 0;
    for (size_t i = 0; f && i < f->n; i++) {
        const bl_filter_term *t = &f->t[i];
        if (shape_term(t))
            on_shapes = 1;
        else if (t->op != '=' ||
                 (strcmp(t->key, "run") && strcmp(t->key, "tool") && strcmp(t->key, "test")))
            return 1; /* a term C must decide on each record */
    }
    if (f && f->n > 60)
        return 1;
    pg_where w = {.n = 0};
    bl_strbuf_init(&w.sql);
    bl_strbuf_puts(&w.sql, head);
    where_of(&w, f, "r");
    shape_ids c = {.f = NULL};
    bl_strbuf_init(&c.ids);
    /* the shapes read and the grouped query see one snapshot: an import between them would
     * bring records of shapes not read */
    int tx = on_shapes && PQtransactionStatus(s->pg) == PQTRANS_IDLE;
    int rc =
        tx ? bl_pg_exec(s, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", err, errlen) : 0;
    if (rc == 0 && on_shapes)
        rc = shapes_matching(s, f, &c, err, errlen);
    if (on_shapes) {
        /* records without a shape stay in: the grouped query tells the unfilled (walk) and
         * leaves out the unreadable, as without the terms */
        bl_strbuf_printf(&w.sql, " AND (r.shape_id = ANY($%d::bigint[]) OR r.shape_id IS NULL)",
                         w.n + 1);
        w.params[w.n++] = c.ids.s;
    }
    bl_strbuf_puts(&w.sql, tail);
    if (rc == 0)
        rc = walk(s, w.sql.s, &w, fn, ctx, err, errlen);
    if (tx && rc < 0)
        bl_pg_rollback(s);
    else if (tx && bl_pg_exec(s, "COMMIT", err, errlen) != 0)
        rc = -1;
    bl_strbuf_free(&c.ids);
    bl_strbuf_free(&w.sql);
    return rc;
}

typedef struct each_ctx {
    const bl_filter *f;
    int exact;
    bl_record_fn fn;
    bl_json_fn jfn;
    void *ctx;
} each_ctx;

static int each_row(void *ctx, const PGresult *row)
{
    each_ctx *e = ctx;
    const char *json = PQgetvalue(row, 0, 0), *uid = PQgetvalue(row, 0, 1);
    size_t len = (size_t)PQgetlength(row, 0, 0);
    bl_record *r = NULL;
    if (e->fn || !e->exact) {
        r = bl_record_from_json(json, len, NULL, 0);
        if (!r)
            return 0;
        if (!e->exact && !bl_filter_match_run(e->f, r, uid)) {
            bl_record_free(r);
            return 0;
        }
    }
    if (e->fn)
        return e->fn(e->ctx, r, uid);
    bl_record_free(r);
    return e->jfn(e->ctx, json, len, uid);
}

int bl_store_pg_each(bl_store *s, const bl_filter *f, bl_record_fn fn, bl_json_fn jfn, void *ctx,
                     char *err, size_t errlen)
{
    pg_where w = {.n = 0};
    bl_strbuf_init(&w.sql);
    bl_strbuf_puts(&w.sql, "SELECT r.json, ru.uid" FROM_RECORDS("r") " WHERE true");
    where_of(&w, f, "r");
    bl_strbuf_puts(&w.sql, " ORDER BY r.import_id, r.id");
    each_ctx e = {f, !f || f->n == 0, fn, jfn, ctx};
    int rc = walk(s, w.sql.s, &w, each_row, &e, err, errlen);
    bl_strbuf_free(&w.sql);
    return rc;
}

typedef struct run_ctx {
    const bl_filter *f;
    int exact;
    bl_run_fn fn;
    void *ctx;
    bl_run_info ri;
    int have, matched;
} run_ctx;

static const char *record_label(const void *r, const char *key)
{
    return bl_record_label(r, key);
}

static void run_start(bl_run_info *ri, const PGresult *row, const bl_record *r)
{
    snprintf(ri->id, sizeof ri->id, "%s", PQgetvalue(row, 0, 1));
    ri->import_id = atoll(PQgetvalue(row, 0, 2));
    ri->imported_at = bl_xstrdup(PQgetvalue(row, 0, 3));
    ri->first_line = -1;
    ri->head = bl_record_new();
    bl_run_head_fill(ri->head, r);
    ri->labels = bl_xcalloc(r->n_labels ? r->n_labels : 1, sizeof *ri->labels);
    for (size_t i = 0; i < r->n_labels; i++)
        ri->labels[ri->n_labels++] =
            (bl_label){bl_xstrdup(r->labels[i].key), bl_xstrdup(r->labels[i].value)};
}

/* The run so far goes to fn when one of its records matched; then it is cleared. */
static int run_flush(run_ctx *c)
{
    int stop = c->have && c->matched ? c->fn(c->ctx, &c->ri) : 0;
    bl_run_info_clear(&c->ri);
    c->have = c->matched = 0;
    return stop;
}

static int run_row(void *ctx, const PGresult *row)
{
    run_ctx *c = ctx;
    const char *uid = PQgetvalue(row, 0, 1);
    if (c->have && strcmp(uid, c->ri.id) != 0) {
        int stop = run_flush(c);
        if (stop)
            return stop;
    }
    bl_record *r =
        bl_record_from_json(PQgetvalue(row, 0, 0), (size_t)PQgetlength(row, 0, 0), NULL, 0);
    if (!r)
        return 0;
    if (!c->have)
        run_start(&c->ri, row, r);
    else
        bl_run_info_keep_labels(&c->ri, record_label, r);
    c->have = 1;
    c->ri.n_records++;
    int64_t line = PQgetisnull(row, 0, 4) ? -1 : atoll(PQgetvalue(row, 0, 4));
    if (line >= 0 && (c->ri.first_line < 0 || line < c->ri.first_line))
        c->ri.first_line = line;
    if (!c->matched)
        c->matched = c->exact || bl_filter_match_run(c->f, r, uid);
    bl_record_free(r);
    return 0;
}

/* A run whole from one row of runs_sql: its first record's JSON (the run-level fields and
 * its labels), then those of its distinct labels objects all share. */
static int run_agg_row(void *ctx, const PGresult *row)
{
    run_ctx *c = ctx;
    bl_record *r =
        bl_record_from_json(PQgetvalue(row, 0, 0), (size_t)PQgetlength(row, 0, 0), NULL, 0);
    if (!r)
        return 0;
    run_start(&c->ri, row, r);
    bl_record_free(r);
    c->ri.first_line = PQgetisnull(row, 0, 4) ? -1 : atoll(PQgetvalue(row, 0, 4));
    c->ri.n_records = (size_t)atoll(PQgetvalue(row, 0, 5));
    json_t *sets = json_loads(PQgetvalue(row, 0, 6), 0, NULL);
    size_t i;
    json_t *labels;
    json_array_foreach(sets, i, labels) bl_run_info_keep_labels(&c->ri, bl_json_label, labels);
    json_decref(sets);
    int stop = c->fn(c->ctx, &c->ri);
    bl_run_info_clear(&c->ri);
    return stop;
}

/* Every run as one row, what list shows of it computed by the server in one pass over the
 * records: a few hundred rows for a store of 100k records, not a row a record. */
static const char runs_sql[] =
    "SELECT f.json, ru.uid, g.import_id, ri.imported_at, g.first_line, g.n, g.labels "
    "FROM (SELECT import_id, run, min(id) AS first_id, count(*) AS n, "
    "min(line) FILTER (WHERE line >= 0) AS first_line, "
    "jsonb_agg(DISTINCT (json::json->'labels')::jsonb) AS labels "
    "FROM records GROUP BY import_id, run) g "
    "JOIN records f ON f.id = g.first_id "
    "JOIN runs ru ON ru.import_id = g.import_id AND ru.run = g.run "
    "JOIN imports ri ON ri.id = g.import_id ORDER BY g.import_id, g.run";

int bl_store_pg_each_run(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    if (!f || f->n == 0) {
        pg_where none = {.n = 0};
        run_ctx c = {.exact = 1, .fn = fn, .ctx = ctx};
        return walk(s, runs_sql, &none, run_agg_row, &c, err, errlen);
    }
    /* a filter is checked in C on every record of the runs SQL narrows to */
    pg_where w = {.n = 0};
    bl_strbuf_init(&w.sql);
    bl_strbuf_puts(&w.sql,
                   "SELECT r.json, ru.uid, r.import_id, ri.imported_at, r.line" FROM_RECORDS(
                       "r") " JOIN imports ri ON ri.id = r.import_id WHERE true");
    pg_where m = {.n = 0};
    bl_strbuf_init(&m.sql);
    where_of(&m, f, "m");
    if (m.sql.len) {
        bl_strbuf_puts(&w.sql,
                       " AND (r.import_id, r.run) IN (SELECT m.import_id, m.run" FROM_RECORDS(
                           "m") " WHERE true");
        bl_strbuf_puts(&w.sql, m.sql.s);
        bl_strbuf_putc(&w.sql, ')');
    }
    bl_strbuf_free(&m.sql);
    w.n = m.n;
    memcpy(w.params, m.params, sizeof m.params);
    bl_strbuf_puts(&w.sql, " ORDER BY r.import_id, r.run, r.id");
    run_ctx c = {.f = f, .exact = !f || f->n == 0, .fn = fn, .ctx = ctx};
    int rc = walk(s, w.sql.s, &w, run_row, &c, err, errlen);
    if (rc == 0)
        rc = run_flush(&c);
    bl_run_info_clear(&c.ri);
    bl_strbuf_free(&w.sql);
    return rc;
}

/* The runs an edit acts on, as two array literals for unnest(): import ids and run
 * numbers. */
typedef struct run_keys {
    bl_strbuf imports, runs;
    size_t n;
} run_keys;

static int collect(void *ctx, const bl_run_info *ri)
{
    run_keys *k = ctx;
    bl_strbuf_printf(&k->imports, "%s%lld", k->n ? "," : "{", (long long)ri->import_id);
    bl_strbuf_printf(&k->runs, "%s%lld", k->n ? "," : "{", (long long)ri->head->run);
    k->n++;
    return 0;
}

static void keys_free(run_keys *keys)
{
    bl_strbuf_free(&keys->imports);
    bl_strbuf_free(&keys->runs);
}

/* Begins the write and finds the runs `list f` would show, inside the transaction. */
static int begin_with_runs(bl_store *s, const bl_filter *f, run_keys *keys, char *err,
                           size_t errlen)
{
    memset(keys, 0, sizeof *keys);
    bl_strbuf_init(&keys->imports);
    bl_strbuf_init(&keys->runs);
    if (bl_pg_exec(s, "BEGIN", err, errlen) != 0)
        return -1;
    if (bl_store_pg_each_run(s, f, collect, keys, err, errlen) != 0) {
        bl_pg_rollback(s);
        keys_free(keys);
        return -1;
    }
    bl_strbuf_puts(&keys->imports, keys->n ? "}" : "{}");
    bl_strbuf_puts(&keys->runs, keys->n ? "}" : "{}");
    return 0;
}

static int finish(bl_store *s, int ok, run_keys *keys, char *err, size_t errlen)
{
    keys_free(keys);
    if (ok && bl_pg_exec(s, "COMMIT", err, errlen) == 0)
        return 0;
    bl_pg_rollback(s);
    return -1;
}

#define IN_RUNS(r)                                                                                 \
    " (" r "import_id, " r "run) IN (SELECT * FROM unnest($1::bigint[], $2::bigint[]))"

/* The edited records go to a temporary table with COPY, then one UPDATE takes them: a few
 * round trips however many records. */
static int relabel_runs(bl_store *s, const run_keys *keys, const bl_label *set, size_t n_set,
                        char *const *unset, size_t n_unset, size_t *n_records, char *err,
                        size_t errlen)
{
    const char *params[] = {keys->imports.s, keys->runs.s};
    PGresult *rows =
        bl_pg_query(s, "SELECT id, json FROM records WHERE" IN_RUNS("") " ORDER BY id FOR UPDATE",
                    2, params, PGRES_TUPLES_OK, err, errlen);
    if (!rows)
        return -1;
    int ok = bl_pg_exec(
                 s, "CREATE TEMP TABLE bl_relabel(id BIGINT, json TEXT, shape TEXT) ON COMMIT DROP",
                 err, errlen) == 0 &&
             bl_pg_copy_begin(s, "COPY bl_relabel FROM STDIN", err, errlen) == 0;
    bl_strbuf line, json, shape;
    bl_strbuf_init(&line);
    bl_strbuf_init(&json);
    bl_strbuf_init(&shape);
    int n = PQntuples(rows);
    for (int i = 0; ok && i < n; i++) {
        if (bl_store_relabel_json(PQgetvalue(rows, i, 1), (size_t)PQgetlength(rows, i, 1), set,
                                  n_set, unset, n_unset, &json) != 0) {
            snprintf(err, errlen, "%s: record %s cannot be read", s->path, PQgetvalue(rows, i, 0));
            ok = 0;
            break;
        }
        bl_strbuf_printf(&line, "%s\t", PQgetvalue(rows, i, 0));
        bl_pg_copy_text(&line, json.s, json.len);
        /* the labels are part of the shape (fold.h): the record's changes with them */
        bl_record *r = bl_record_from_json(json.s, json.len, NULL, 0);
        int have = r != NULL;
        bl_strbuf_reset(&shape);
        if (have)
            bl_fold_shape(r, &shape);
        bl_record_free(r);
        bl_strbuf_putc(&line, '\t');
        if (have)
            bl_pg_copy_text(&line, shape.s, shape.len);
        else
            bl_strbuf_puts(&line, "\\N");
        bl_strbuf_putc(&line, '\n');
        if (line.len >= 65536 || i + 1 == n)
            ok = bl_pg_copy_put(s, &line);
    }
    if (bl_pg_copy_end(s, ok, err, errlen) != 0)
        ok = 0;
    bl_strbuf_free(&line);
    bl_strbuf_free(&json);
    bl_strbuf_free(&shape);
    PQclear(rows);
    if (ok && bl_pg_exec(s,
                         "INSERT INTO shapes(shape) SELECT DISTINCT shape FROM bl_relabel WHERE "
                         "shape IS NOT NULL ORDER BY 1 ON CONFLICT DO NOTHING;"
                         "UPDATE records r SET json = t.json, shape_id = sh.id FROM bl_relabel t "
                         "LEFT JOIN shapes sh ON md5(sh.shape) = md5(t.shape) AND sh.shape = "
                         "t.shape WHERE r.id = t.id",
                         err, errlen) != 0)
        ok = 0;
    *n_records = ok ? (size_t)n : 0;
    return ok ? 0 : -1;
}

int bl_store_pg_relabel(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                        char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records,
                        char *err, size_t errlen)
{
    run_keys keys;
    *n_runs = *n_records = 0;
    err[0] = 0;
    if (begin_with_runs(s, f, &keys, err, errlen) != 0)
        return -1;
    int ok = relabel_runs(s, &keys, set, n_set, unset, n_unset, n_records, err, errlen) == 0;
    *n_runs = keys.n;
    return finish(s, ok, &keys, err, errlen);
}

int bl_store_pg_delete(bl_store *s, const bl_filter *f, size_t *n_runs, size_t *n_records,
                       char *err, size_t errlen)
{
    static const char *const sql[] = {
        "DELETE FROM records WHERE" IN_RUNS(""),
        "DELETE FROM runs WHERE" IN_RUNS(""),
        /* an import without runs goes too, so its content can be imported again */
        ("DELETE FROM imports i WHERE i.id = ANY($1::bigint[]) AND $2::bigint[] IS NOT NULL "
         "AND NOT EXISTS (SELECT 1 FROM runs WHERE import_id = i.id)"),
    };
    run_keys keys;
    *n_runs = *n_records = 0;
    err[0] = 0;
    if (begin_with_runs(s, f, &keys, err, errlen) != 0)
        return -1;
    const char *params[] = {keys.imports.s, keys.runs.s};
    int ok = 1;
    for (size_t i = 0; ok && i < sizeof sql / sizeof sql[0]; i++) {
        PGresult *res = bl_pg_query(s, sql[i], 2, params, PGRES_COMMAND_OK, err, errlen);
        ok = res != NULL;
        if (ok && i == 0)
            *n_records = (size_t)atoll(PQcmdTuples(res));
        PQclear(res);
    }
    *n_runs = keys.n;
    return finish(s, ok, &keys, err, errlen);
}
