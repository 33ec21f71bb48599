/* The SQLite store's fold columns (fold.h, schema v5): records.shape_id names the record's
 * shape in table shapes, f_* hold its fold figures and flags. They are written with the JSON
 * (import, relabel), filled for older records by the v5 migration, and read by bl_store_fold:
 * one GROUP BY shape_id over the matching records, summed exactly by the aggregate bl_fold. */
#include "fold.h"
#include "jsonl.h"
#include "store_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bl_fold_stmts_free(bl_fold_stmts *fs)
{
    sqlite3_finalize(fs->find);
    sqlite3_finalize(fs->add);
    sqlite3_finalize(fs->upd);
    bl_strbuf_free(&fs->sb);
    memset(fs, 0, sizeof *fs);
}

static int prep(sqlite3 *db, sqlite3_stmt **st, const char *sql)
{
    if (!*st && sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK)
        *st = NULL;
    return *st ? 0 : -1;
}

/* The id of r's shape, added when new; -1 on error. */
static sqlite3_int64 shape_id(sqlite3 *db, bl_fold_stmts *fs, const bl_record *r)
{
    if (prep(db, &fs->find, "SELECT id FROM shapes WHERE shape = ?") ||
        prep(db, &fs->add, "INSERT INTO shapes(shape) VALUES (?)"))
        return -1;
    bl_strbuf_reset(&fs->sb);
    bl_fold_shape(r, &fs->sb);
    sqlite3_reset(fs->find);
    sqlite3_bind_text(fs->find, 1, fs->sb.s, (int)fs->sb.len, SQLITE_STATIC);
    if (sqlite3_step(fs->find) == SQLITE_ROW) {
        sqlite3_int64 id = sqlite3_column_int64(fs->find, 0);
        sqlite3_reset(fs->find);
        return id;
    }
    sqlite3_reset(fs->find);
    sqlite3_reset(fs->add);
    sqlite3_bind_text(fs->add, 1, fs->sb.s, (int)fs->sb.len, SQLITE_STATIC);
    int rc = sqlite3_step(fs->add);
    sqlite3_reset(fs->add);
    return rc == SQLITE_DONE ? sqlite3_last_insert_rowid(db) : -1;
}

int bl_fold_cols_bind(sqlite3 *db, bl_fold_stmts *fs, sqlite3_stmt *st, int col, const bl_record *r)
{
    sqlite3_int64 id = shape_id(db, fs, r);
    if (id < 0)
        return -1;
    sqlite3_bind_int64(st, col, id);
    double fig[BL_FOLD_N];
    int flags;
    bl_fold_figs(r, fig, &flags);
    for (int k = 0; k < BL_FOLD_N; k++) {
        if (bl_present(fig[k]))
            sqlite3_bind_double(st, col + 1 + k, fig[k]);
        else
            sqlite3_bind_null(st, col + 1 + k);
    }
    sqlite3_bind_int(st, col + 1 + BL_FOLD_N, flags);
    return 0;
}

int bl_fold_cols_set(sqlite3 *db, bl_fold_stmts *fs, sqlite3_int64 rec_id, const bl_record *r)
{
    if (prep(db, &fs->upd, "UPDATE records SET " BL_FOLD_COLS_SET " WHERE id = ?"))
        return -1;
    sqlite3_reset(fs->upd);
    if (bl_fold_cols_bind(db, fs, fs->upd, 1, r) != 0)
        return -1;
    sqlite3_bind_int64(fs->upd, BL_FOLD_NCOLS + 1, rec_id);
    int rc = sqlite3_step(fs->upd);
    sqlite3_reset(fs->upd);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* How often a fill tells its progress, in records. */
#define FILL_STEP 50000

int bl_store_sqlite_fill_fold(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    static const char what[] = "upgrading the store to schema 5 (the grouped report's columns)";
    sqlite3_stmt *sel, *count;
    sqlite3_int64 total = 0, done = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM records", -1, &count, NULL) == SQLITE_OK &&
        sqlite3_step(count) == SQLITE_ROW)
        total = sqlite3_column_int64(count, 0);
    sqlite3_finalize(count);
    bl_store_progress(path, what, 0, total);
    if (sqlite3_prepare_v2(db, "SELECT id, json FROM records ORDER BY id", -1, &sel, NULL) !=
        SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        return -1;
    }
    bl_fold_stmts fs = {0};
    bl_strbuf_init(&fs.sb);
    int rc, bad = 0;
    while (!bad && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
        bl_record *r = bl_record_from_json((const char *)sqlite3_column_text(sel, 1),
                                           (size_t)sqlite3_column_bytes(sel, 1), NULL, 0);
        if (!r)
            continue; /* unreadable: the walks skip it too; no shape, never folded */
        bad = bl_fold_cols_set(db, &fs, sqlite3_column_int64(sel, 0), r) != 0;
        bl_record_free(r);
        if (++done % FILL_STEP == 0 && done < total)
            bl_store_progress(path, what, done, total);
    }
    if (!bad && rc == SQLITE_DONE)
        bl_store_progress(path, what, total, total);
    if (bad || rc != SQLITE_DONE)
        snprintf(err, errlen, "filling the fold columns: %s", sqlite3_errmsg(db));
    bl_fold_stmts_free(&fs);
    sqlite3_finalize(sel);
    return bad || rc != SQLITE_DONE ? -1 : 0;
}

/* The aggregate bl_fold(f_bw, ..., f_cpu, f_flags): each group's sums in its own
 * bl_fold_group, handed at the end to the list in the function's user data; the result is
 * the group's index there. */
typedef struct fold_list {
    bl_fold_group **v;
    size_t n, cap;
} fold_list;

static void fold_step(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    bl_fold_group **g = sqlite3_aggregate_context(cx, sizeof *g);
    if (!g)
        return;
    if (!*g)
        *g = bl_xcalloc(1, sizeof **g);
    double fig[BL_FOLD_N];
    for (int k = 0; k < BL_FOLD_N && k < argc; k++)
        fig[k] =
            sqlite3_value_type(argv[k]) == SQLITE_NULL ? BL_ABSENT : sqlite3_value_double(argv[k]);
    bl_fold_add(*g, fig, sqlite3_value_int(argv[BL_FOLD_N]));
    (*g)->n_recs++;
}

static void fold_final(sqlite3_context *cx)
{
    bl_fold_group **g = sqlite3_aggregate_context(cx, 0);
    fold_list *l = sqlite3_user_data(cx);
    if (!g || !*g) {
        sqlite3_result_null(cx);
        return;
    }
    bl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n] = *g;
    *g = NULL;
    sqlite3_result_int64(cx, (sqlite3_int64)l->n++);
}

int bl_store_sqlite_fold(bl_store *s, const bl_filter *f, bl_fold_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    if (s->no_fold)
        return 1; /* no fold columns: the caller walks the records */
    fold_list l = {0};
    if (sqlite3_create_function(s->db, "bl_fold", BL_FOLD_N + 1, SQLITE_UTF8, &l, NULL, fold_step,
                                fold_final) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        return -1;
    }
    int exact;
    sqlite3_stmt *st = bl_store_select_fold(s, f, &exact, err, errlen);
    int rc = st ? 0 : -1;
    if (st && !exact)
        rc = 1; /* a term C must decide: the caller walks the records */
    int step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 at = sqlite3_column_int64(st, 2);
        if (sqlite3_column_type(st, 2) == SQLITE_NULL || at < 0 || (size_t)at >= l.n)
            continue;
        bl_fold_group *g = l.v[at];
        g->first = sqlite3_column_int64(st, 0);
        g->shape = bl_record_from_json((const char *)sqlite3_column_text(st, 1),
                                       (size_t)sqlite3_column_bytes(st, 1), NULL, 0);
        if (!g->shape) {
            snprintf(err, errlen, "%s: a stored shape cannot be read", s->path);
            rc = -1;
            break;
        }
        rc = fn(ctx, g);
    }
    if (rc == 0 && st && step != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        rc = -1;
    }
    sqlite3_finalize(st);
    for (size_t i = 0; i < l.n; i++) {
        bl_fold_group_free(l.v[i]);
        free(l.v[i]);
    }
    free(l.v);
    sqlite3_create_function(s->db, "bl_fold", BL_FOLD_N + 1, SQLITE_UTF8, NULL, NULL, NULL, NULL);
    return rc;
}

/* The shapes bl_store_each_lean has decoded, by id (ids are the shapes table's, small). */
typedef struct shape_cache {
    bl_record **v;
    size_t cap;
    sqlite3_stmt *get;
} shape_cache;

static bl_record *shape_of(bl_store *s, shape_cache *c, sqlite3_int64 id)
{
    if (id < 0 || id > (sqlite3_int64)1 << 40)
        return NULL;
    if ((size_t)id < c->cap && c->v[id])
        return c->v[id];
    if (!c->get && sqlite3_prepare_v2(s->db, "SELECT shape FROM shapes WHERE id = ?", -1, &c->get,
                                      NULL) != SQLITE_OK)
        return NULL;
    sqlite3_reset(c->get);
    sqlite3_bind_int64(c->get, 1, id);
    if (sqlite3_step(c->get) != SQLITE_ROW)
        return NULL;
    bl_record *r = bl_record_from_json((const char *)sqlite3_column_text(c->get, 0),
                                       (size_t)sqlite3_column_bytes(c->get, 0), NULL, 0);
    sqlite3_reset(c->get);
    if (!r)
        return NULL;
    if ((size_t)id >= c->cap) {
        size_t cap = (size_t)id + 16;
        c->v = bl_xrealloc(c->v, cap * sizeof *c->v);
        memset(c->v + c->cap, 0, (cap - c->cap) * sizeof *c->v);
        c->cap = cap;
    }
    c->v[id] = r;
    return r;
}

static void shape_cache_free(shape_cache *c)
{
    for (size_t i = 0; i < c->cap; i++)
        bl_record_free(c->v[i]);
    free(c->v);
    sqlite3_finalize(c->get);
}

/* Sets r's run, line and when from the row's columns 1..3 (absent as a decoded record has
 * them: run and line those of a new record, no when). */
static void lean_set(bl_record *r, sqlite3_stmt *st, const bl_record *blank)
{
    r->run = sqlite3_column_type(st, 1) == SQLITE_NULL ? blank->run : sqlite3_column_int64(st, 1);
    r->line = sqlite3_column_type(st, 2) == SQLITE_NULL ? blank->line : sqlite3_column_int64(st, 2);
    bl_record_set_str(&r->when, sqlite3_column_type(st, 3) == SQLITE_TEXT
                                    ? (const char *)sqlite3_column_text(st, 3)
                                    : NULL);
}

int bl_store_each_lean(bl_store *s, const bl_filter *f, bl_lean_fn fn, void *ctx, char *err,
                       size_t errlen)
{
    if (!s->db || s->no_fold)
        return 1; /* PostgreSQL, or no fold columns: the caller walks the records */
    int exact;
    sqlite3_stmt *st = bl_store_select_lean(s, f, &exact, err, errlen);
    if (!st)
        return -1;
    if (!exact) {
        sqlite3_finalize(st);
        return 1; /* a term C must decide */
    }
    shape_cache c = {0};
    bl_record *blank = bl_record_new();
    int rc = 0, step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        bl_record *r = shape_of(s, &c, sqlite3_column_int64(st, 0));
        if (!r) {
            snprintf(err, errlen, "%s: a stored shape cannot be read", s->path);
            rc = -1;
            break;
        }
        lean_set(r, st, blank);
        double fig[BL_FOLD_N];
        for (int k = 0; k < BL_FOLD_N; k++)
            fig[k] = sqlite3_column_type(st, 4 + k) == SQLITE_NULL
                         ? BL_ABSENT
                         : sqlite3_column_double(st, 4 + k);
        fn(ctx, r, fig);
    }
    if (rc == 0 && step != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        rc = -1;
    }
    sqlite3_finalize(st);
    shape_cache_free(&c);
    bl_record_free(blank);
    return rc;
}
