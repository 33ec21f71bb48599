/* Reading the store: records and runs matching a FILTER, one row at a time. The terms
 * SQL can decide exactly (run IDs, tool and test through their index, string keys and
 * labels through json_extract) narrow the SELECT; every term is then checked in C on the
 * decoded record, so SQL only ever removes rows C would remove too. */
#include "fields.h"
#include "jsonl.h"
#include "store_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Record keys held as JSON strings: '=' on them is exact in SQL too. Numbers and flags are
 * left to C, whose text form of a number is the rule. */
static int is_string_key(const char *k)
{
    const bl_field *f = bl_field_find(k);
    return f && f->kind == BL_FK_STR;
}

static int is_field(const char *k)
{
    const bl_field *f = bl_field_find(k);
    return f && bl_field_is_scalar(f);
}

/* A JSON path for a label name, or 0 when the name needs quoting SQLite's paths lack. */
static int label_path(const char *name, bl_strbuf *path)
{
    if (strpbrk(name, "\"\\") || !*name)
        return 0;
    bl_strbuf_printf(path, "$.labels.\"%s\"", name);
    return 1;
}

typedef struct sql_where {
    bl_strbuf sql;
    const char *params[64];
    char *owned[64];
    int n;
} sql_where;

static void add_param(sql_where *w, const char *v, char *owned)
{
    w->params[w->n] = v;
    w->owned[w->n] = owned;
    w->n++;
}

static void where_term(sql_where *w, const bl_filter_term *t)
{
    if (w->n + 2 > 64 || t->op != '=')
        return;
    const char *k = t->key;
    bl_strbuf path;
    bl_strbuf_init(&path);
    if (strcmp(k, "tool") == 0 || strcmp(k, "test") == 0) {
        bl_strbuf_printf(&w->sql, " AND r.%s = ?", k);
        add_param(w, t->value, NULL);
    } else if (strncmp(k, "label.", 6) == 0 ? label_path(k + 6, &path)
               : is_string_key(k)           ? (bl_strbuf_printf(&path, "$.%s", k), 1)
               : !is_field(k)               ? label_path(k, &path)
                                            : 0) {
        bl_strbuf_puts(&w->sql, " AND json_extract(r.json, ?) = ?");
        char *owned = bl_strbuf_take(&path);
        add_param(w, owned, owned);
        add_param(w, t->value, NULL);
    }
    bl_strbuf_free(&path);
}

/* run=ID terms select any of their runs; the other run terms are left to C. */
static void where_runs(sql_where *w, const bl_filter *f)
{
    int first = 1;
    for (size_t i = 0; f && i < f->n && w->n < 64; i++) {
        if (strcmp(f->t[i].key, "run") != 0 || f->t[i].op != '=')
            continue;
        bl_strbuf_puts(&w->sql, first ? " AND u.uid IN (?" : ", ?");
        add_param(w, f->t[i].value, NULL);
        first = 0;
    }
    if (!first)
        bl_strbuf_putc(&w->sql, ')');
}

sqlite3_stmt *bl_store_select(bl_store *s, const bl_filter *f, const char *order, char *err,
                              size_t errlen)
{
    sql_where w = {.n = 0};
    bl_strbuf_init(&w.sql);
    bl_strbuf_puts(&w.sql, "SELECT r.json, u.uid, r.import_id, i.imported_at, r.id, r.run "
                           "FROM records r "
                           "JOIN runs u ON u.import_id = r.import_id AND u.run = r.run "
                           "JOIN imports i ON i.id = r.import_id WHERE 1");
    where_runs(&w, f);
    for (size_t i = 0; f && i < f->n; i++)
        where_term(&w, &f->t[i]);
    bl_strbuf_printf(&w.sql, " ORDER BY %s", order);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, w.sql.s, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        st = NULL;
    }
    for (int i = 0; i < w.n; i++) {
        if (st)
            sqlite3_bind_text(st, i + 1, w.params[i], -1, SQLITE_TRANSIENT);
        free(w.owned[i]);
    }
    bl_strbuf_free(&w.sql);
    return st;
}

static void step_error(bl_store *s, char *err, size_t errlen)
{
    int code = sqlite3_errcode(s->db);
    snprintf(err, errlen, "%s: %s%s", s->path, sqlite3_errmsg(s->db),
             code == SQLITE_CORRUPT || code == SQLITE_NOTADB
                 ? " (the store is damaged: restore it from a backup, or read what is left "
                   "with sqlite3 .recover)"
                 : "");
}

int bl_store_each(bl_store *s, const bl_filter *f, bl_record_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    sqlite3_stmt *st = bl_store_select(s, f, "r.id", err, errlen);
    if (!st)
        return -1;
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *json = (const char *)sqlite3_column_text(st, 0);
        const char *uid = (const char *)sqlite3_column_text(st, 1);
        bl_record *r = bl_record_from_json(json, (size_t)sqlite3_column_bytes(st, 0), NULL, 0);
        if (!r)
            continue;
        if (bl_filter_match_run(f, r, uid))
            stop = fn(ctx, r, uid);
        else
            bl_record_free(r);
    }
    if (stop) {
        sqlite3_finalize(st);
        return stop;
    }
    if (rc != SQLITE_DONE)
        step_error(s, err, errlen);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int keep_record(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    bl_records_push(ctx, r);
    return 0;
}

int bl_store_query(bl_store *s, const bl_filter *f, bl_records *out, char *err, size_t errlen)
{
    return bl_store_each(s, f, keep_record, out, err, errlen);
}

/* Keeps in the run's labels only those r has with the same value. */
static void intersect_labels(bl_run_info *ri, const bl_record *r)
{
    size_t k = 0;
    for (size_t i = 0; i < ri->n_labels; i++) {
        const char *v = bl_record_label(r, ri->labels[i].key);
        if (v && strcmp(v, ri->labels[i].value) == 0) {
            ri->labels[k++] = ri->labels[i];
        } else {
            free(ri->labels[i].key);
            free(ri->labels[i].value);
        }
    }
    ri->n_labels = k;
}

static void run_info_clear(bl_run_info *ri)
{
    free(ri->source);
    free(ri->tool);
    free(ri->tool_version);
    free(ri->imported_at);
    for (size_t i = 0; i < ri->n_labels; i++) {
        free(ri->labels[i].key);
        free(ri->labels[i].value);
    }
    free(ri->labels);
    memset(ri, 0, sizeof *ri);
}

static void run_info_start(bl_run_info *ri, sqlite3_stmt *row, const bl_record *r)
{
    snprintf(ri->id, sizeof ri->id, "%s", (const char *)sqlite3_column_text(row, 1));
    ri->import_id = sqlite3_column_int64(row, 2);
    ri->imported_at = bl_xstrdup((const char *)sqlite3_column_text(row, 3));
    ri->run = sqlite3_column_int64(row, 5);
    ri->source = bl_xstrdup(r->source ? r->source : "");
    ri->tool = bl_xstrdup(r->tool ? r->tool : "");
    ri->tool_version = bl_xstrdup(r->tool_version ? r->tool_version : "");
    ri->first_line = r->line;
    ri->n_labels = r->n_labels;
    ri->labels = bl_xcalloc(r->n_labels ? r->n_labels : 1, sizeof *ri->labels);
    for (size_t i = 0; i < r->n_labels; i++)
        ri->labels[i] = (bl_label){bl_xstrdup(r->labels[i].key), bl_xstrdup(r->labels[i].value)};
}

/* The runs are walked whole (their labels are those of all their records), in the order of
 * the (import, run) index; only the run terms narrow the SELECT. */
int bl_store_each_run(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                      size_t errlen)
{
    bl_filter runs_only = {0, NULL};
    bl_filter_term terms[64];
    for (size_t i = 0; f && i < f->n && runs_only.n < 64; i++)
        if (strcmp(f->t[i].key, "run") == 0)
            terms[runs_only.n++] = f->t[i];
    runs_only.t = terms;
    sqlite3_stmt *st = bl_store_select(s, &runs_only, "r.import_id, r.run, r.id", err, errlen);
    if (!st)
        return -1;
    bl_run_info ri;
    memset(&ri, 0, sizeof ri);
    int rc, stop = 0, have = 0, matched = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        bl_record *r = bl_record_from_json((const char *)sqlite3_column_text(st, 0),
                                           (size_t)sqlite3_column_bytes(st, 0), NULL, 0);
        if (!r)
            continue;
        const char *uid = (const char *)sqlite3_column_text(st, 1);
        if (have && strcmp(uid, ri.id) != 0) {
            if (matched)
                stop = fn(ctx, &ri);
            run_info_clear(&ri);
            have = matched = 0;
        }
        if (!stop) {
            if (!have)
                run_info_start(&ri, st, r);
            else
                intersect_labels(&ri, r);
            have = 1;
            ri.n_records++;
            if (r->line >= 0 && (ri.first_line < 0 || r->line < ri.first_line))
                ri.first_line = r->line;
            matched |= bl_filter_match_run(f, r, uid);
        }
        bl_record_free(r);
    }
    if (!stop && rc == SQLITE_DONE && have && matched)
        stop = fn(ctx, &ri);
    run_info_clear(&ri);
    if (!stop && rc != SQLITE_DONE)
        step_error(s, err, errlen);
    sqlite3_finalize(st);
    return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}

typedef struct runs_acc {
    bl_run_info *v;
    size_t n, cap;
} runs_acc;

static int keep_run(void *ctx, const bl_run_info *ri)
{
    runs_acc *acc = ctx;
    void *p = acc->v;
    bl_grow(&p, &acc->cap, acc->n + 1, sizeof *acc->v);
    acc->v = p;
    bl_run_info *c = &acc->v[acc->n++];
    *c = *ri;
    c->source = bl_xstrdup(ri->source);
    c->tool = bl_xstrdup(ri->tool);
    c->tool_version = bl_xstrdup(ri->tool_version);
    c->imported_at = bl_xstrdup(ri->imported_at);
    c->labels = bl_xcalloc(ri->n_labels ? ri->n_labels : 1, sizeof *c->labels);
    for (size_t i = 0; i < ri->n_labels; i++)
        c->labels[i] = (bl_label){bl_xstrdup(ri->labels[i].key), bl_xstrdup(ri->labels[i].value)};
    return 0;
}

int bl_store_runs(bl_store *s, const bl_filter *f, bl_run_info **runs, size_t *n, char *err,
                  size_t errlen)
{
    runs_acc acc = {0};
    int rc = bl_store_each_run(s, f, keep_run, &acc, err, errlen);
    *runs = acc.v;
    *n = acc.n;
    return rc;
}

void bl_run_infos_free(bl_run_info *runs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        run_info_clear(&runs[i]);
    free(runs);
}
