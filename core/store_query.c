/* Reading the store: records and runs matching a FILTER, one row at a time. The terms SQL
 * decides exactly as C would (run IDs; '=' and '!=' on tool and test through their index,
 * on string keys and labels through json_extract; '~' with an ASCII needle on those) go into
 * the SELECT; when any term is left (numbers, '~' on numbers or with a needle beyond ASCII),
 * every record is decoded and checked in C too. A walk that needs
 * no decoded record (export as JSON Lines) reads the stored text as it is. */
#include "fields.h"
#include "fold.h"
#include "jsonl.h"
#include "record_decode.h"
#include "store_int.h"
#include <jansson.h>
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
    int exact; /* every term was decided in SQL: no check in C needed */
} sql_where;

static void add_param(sql_where *w, const char *v, char *owned)
{
    w->params[w->n] = v;
    w->owned[w->n] = owned;
    w->n++;
}

/* The JSON path of a key SQL compares as text exactly as C does (strings and labels). */
static int text_path(const char *k, bl_strbuf *path)
{
    if (strncmp(k, "label.", 6) == 0)
        return label_path(k + 6, path);
    if (is_string_key(k)) {
        bl_strbuf_printf(path, "$.%s", k);
        return 1;
    }
    return !is_field(k) && label_path(k, path);
}

/* An integer field compared with an integer as C prints one ("4096", not "4k" or "04096"):
 * the stored JSON holds it as C printed it, so SQL's comparison is C's. */
static int int_path(const char *k, const char *value, bl_strbuf *path)
{
    const bl_field *f = bl_field_find(k);
    if (!f || f->kind != BL_FK_INT)
        return 0;
    const char *d = value; /* C never prints a negative one: absent */
    if (!*d || strspn(d, "0123456789") != strlen(d) || (d[0] == '0' && d[1]) || strlen(d) > 18)
        return 0;
    bl_strbuf_printf(path, "$.%s", k);
    return 1;
}

static int is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

/* Key k's value on records `r` as SQL gives it in C's text form: the indexed column for
 * tool and test, else json_extract (its path added as a parameter) for string keys and labels,
 * and for integer fields when `value` is an integer as C prints one. 0 when SQL cannot. */
static int key_sql(sql_where *w, const char *k, const char *value, int ints, const char *r,
                   bl_strbuf *expr)
{
    if (strcmp(k, "tool") == 0 || strcmp(k, "test") == 0) {
        bl_strbuf_printf(expr, "%s.%s", r, k);
        return 1;
    }
    bl_strbuf path;
    bl_strbuf_init(&path);
    if (!text_path(k, &path) && !(ints && int_path(k, value, &path))) {
        bl_strbuf_free(&path);
        return 0;
    }
    bl_strbuf_printf(expr, "json_extract(%s.json, ?)", r);
    char *owned = bl_strbuf_take(&path);
    add_param(w, owned, owned);
    return 1;
}

/* KEY~TEXT: C's strcasestr folds ASCII letters only, and so do SQLite's lower() and instr()
 * (without ICU, which benchlog's SQLite lacks); a needle that is not ASCII is left to C,
 * where the locale could fold more. An absent key matches neither. */
static int contains_sql(sql_where *w, const bl_filter_term *t, const char *r, bl_strbuf *expr)
{
    if (!is_ascii(t->value) || sqlite3_compileoption_used("ENABLE_ICU") ||
        !key_sql(w, t->key, t->value, 0, r, expr))
        return 0;
    bl_strbuf_printf(&w->sql, " AND instr(lower(%s), lower(?)) > 0", expr->s);
    add_param(w, t->value, NULL);
    return 1;
}

/* KEY=VALUE and KEY!=VALUE ('!=' also matches an absent key, as in C). */
static int equals_sql(sql_where *w, const bl_filter_term *t, const char *r, bl_strbuf *expr)
{
    const char *k = t->key;
    if (strcmp(k, "run") == 0) {
        bl_strbuf_printf(&w->sql, " AND %su.uid IS NOT ?", r);
        add_param(w, t->value, NULL);
        return 1;
    }
    if (!key_sql(w, k, t->value, 1, r, expr))
        return 0;
    int as_int = is_field(k) && !is_string_key(k) && strncmp(k, "label.", 6) != 0;
    bl_strbuf_printf(&w->sql, " AND %s %s %s", expr->s, t->op == '=' ? "=" : "IS NOT",
                     as_int ? "CAST(? AS INTEGER)" : "?");
    add_param(w, t->value, NULL);
    return 1;
}

/* One term as SQL on records `r`: '=' and '!=' on text keys and integer keys, '~' on text
 * keys with an ASCII needle; what SQL cannot decide as C would (fractional numbers, '~' on
 * numbers) is left to C. */
static void where_term(sql_where *w, const bl_filter_term *t, const char *r)
{
    if (strcmp(t->key, "run") == 0 && t->op == '=')
        return;         /* where_runs */
    if (t->op == 'h') { /* filter.h: the JSON text holds it, or the caller wants none */
        if (w->n + 1 <= 64) {
            bl_strbuf_printf(&w->sql, " AND instr(%s.json, ?) > 0", r);
            add_param(w, t->value, NULL);
        }
        return;
    }
    bl_strbuf expr;
    bl_strbuf_init(&expr);
    int in_sql = w->n + 2 <= 64 &&
                 (t->op == '~' ? contains_sql(w, t, r, &expr) : equals_sql(w, t, r, &expr));
    if (!in_sql)
        w->exact = 0;
    bl_strbuf_free(&expr);
}

/* run=ID terms select any of their runs. */
static void where_runs(sql_where *w, const bl_filter *f, const char *r)
{
    int first = 1;
    for (size_t i = 0; f && i < f->n; i++) {
        if (strcmp(f->t[i].key, "run") != 0 || f->t[i].op != '=')
            continue;
        if (w->n >= 64) {
            w->exact = 0;
            break;
        }
        bl_strbuf_printf(&w->sql, first ? " AND %su.uid IN (?" : ", ?", r);
        add_param(w, f->t[i].value, NULL);
        first = 0;
    }
    if (!first)
        bl_strbuf_putc(&w->sql, ')');
}

static void where_all(sql_where *w, const bl_filter *f, const char *r)
{
    where_runs(w, f, r);
    for (size_t i = 0; f && i < f->n; i++)
        where_term(w, &f->t[i], r);
}

#define FROM_RECORDS(r)                                                                            \
    " FROM records " r " JOIN runs " r "u ON " r "u.import_id = " r ".import_id AND " r            \
    "u.run = " r ".run JOIN imports " r "i ON " r "i.id = " r ".import_id"

/* w's statement prepared with its parameters bound; w's buffers freed; NULL with err. */
static sqlite3_stmt *prepare_where(bl_store *s, sql_where *w, int *exact, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, w->sql.s, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        st = NULL;
    }
    for (int i = 0; i < w->n; i++) {
        if (st)
            sqlite3_bind_text(st, i + 1, w->params[i], -1, SQLITE_TRANSIENT);
        free(w->owned[i]);
    }
    bl_strbuf_free(&w->sql);
    *exact = w->exact;
    return st;
}

sqlite3_stmt *bl_store_select(bl_store *s, const bl_filter *f, int runs, int *exact, char *err,
                              size_t errlen)
{
    sql_where w = {.n = 0, .exact = 1};
    bl_strbuf_init(&w.sql);
    /* the run's own columns are read by SQLite's JSON functions only for a walk of runs */
    bl_strbuf_puts(
        &w.sql,
        runs ? "SELECT r.json, ru.uid, r.import_id, ri.imported_at, r.id, r.run, "
               "json_extract(r.json, '$.labels'), r.line"
             : "SELECT r.json, ru.uid, r.import_id, ri.imported_at, r.id, r.run" FROM_RECORDS(
                   "r") " WHERE 1");
    /* a walk of runs reads their run-level fields, as the field table names them */
    for (size_t i = 0; runs && i < bl_n_fields; i++)
        if (bl_fields[i].flags & BL_FF_RUN)
            bl_strbuf_printf(&w.sql, ", json_extract(r.json, '$.%s')", bl_fields[i].name);
    if (runs)
        bl_strbuf_puts(&w.sql, FROM_RECORDS("r") " WHERE 1");
    if (runs) {
        /* whole runs holding a matching record */
        sql_where m = {.n = 0, .exact = 1};
        bl_strbuf_init(&m.sql);
        where_all(&m, f, "m");
        if (m.sql.len) {
            bl_strbuf_puts(&w.sql,
                           " AND (r.import_id, r.run) IN (SELECT m.import_id, m.run" FROM_RECORDS(
                               "m") " WHERE 1");
            bl_strbuf_puts(&w.sql, m.sql.s);
            bl_strbuf_putc(&w.sql, ')');
        }
        for (int i = 0; i < m.n; i++)
            add_param(&w, m.params[i], m.owned[i]);
        w.exact = m.exact;
        bl_strbuf_free(&m.sql);
        bl_strbuf_puts(&w.sql, " ORDER BY r.import_id, r.run, r.id");
    } else {
        where_all(&w, f, "r");
        bl_strbuf_puts(&w.sql, " ORDER BY r.id");
    }
    return prepare_where(s, &w, exact, err, errlen);
}

static sqlite3_stmt *prepare_shaped(bl_store *s, const bl_filter *f, sql_where *w, const char *tail,
                                    int *exact, char *err, size_t errlen);

sqlite3_stmt *bl_store_select_lean(bl_store *s, const bl_filter *f, int *exact, char *err,
                                   size_t errlen)
{
    sql_where w = {.n = 0, .exact = 1};
    bl_strbuf_init(&w.sql);
    /* run, line and when as the walk's decoder reads them: from schema 6 the columns, all in
     * the index records_lean; a schema 5 store read as it is parses each record's JSON */
    bl_strbuf_puts(&w.sql, s->lean_json ? "SELECT r.shape_id, json_extract(r.json, '$.run'), "
                                          "json_extract(r.json, '$.line'), "
                                          "json_extract(r.json, '$.when'), "
                                        : "SELECT r.shape_id, r.run, r.line, r.when_at, ");
    bl_strbuf_puts(&w.sql, "r.f_bw, r.f_iops, r.f_lat, r.f_p50, r.f_p99, r.f_p999, r.f_value, "
                           "r.f_cpu" FROM_RECORDS("r") " WHERE r.shape_id IS NOT NULL");
    return prepare_shaped(s, f, &w, " ORDER BY r.id", exact, err, errlen);
}

int bl_store_shape_decides(const bl_filter_term *t)
{
    if (t->op != '=' && t->op != '!' && t->op != '~')
        return 0;
    if (strncmp(t->key, "label.", 6) == 0)
        return 1;
    return strcmp(t->key, "run") != 0 && bl_fold_keeps(t->key);
}

/* SQL's bl_shape_match(shape): whether the stored shape matches every term of the filter
 * (user data) a shape decides; an unreadable one is in, so that the fold says so. */
static void shape_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const bl_filter *f = sqlite3_user_data(ctx);
    bl_record *r = bl_record_from_json((const char *)sqlite3_value_text(argv[0]),
                                       (size_t)sqlite3_value_bytes(argv[0]), NULL, 0);
    int in = 1;
    for (size_t i = 0; r && in && i < f->n; i++) {
        bl_filter one = {1, &f->t[i]}; /* never run=, whose terms select any of their runs */
        in = !bl_store_shape_decides(&f->t[i]) || bl_filter_match(&one, r);
    }
    bl_record_free(r);
    sqlite3_result_int(ctx, in);
}

/* Splits f: its terms on what a shape keeps become one condition on the record's shape_id,
 * C deciding them on each shape (bl_shape_match, in the same statement: one snapshot), so
 * that no record's JSON is read for them; the others go to rest (borrowed, caller frees
 * rest->t) for where_all. f must outlive the statement. 0, or -1 with err. */
static int where_shapes(bl_store *s, const bl_filter *f, sql_where *w, bl_filter *rest, char *err,
                        size_t errlen)
{
    int on_shapes = 0;
    *rest = (bl_filter){0};
    if (f && f->n)
        rest->t = bl_xcalloc(f->n, sizeof *rest->t);
    for (size_t i = 0; f && i < f->n; i++) {
        if (bl_store_shape_decides(&f->t[i]))
            on_shapes = 1;
        else
            rest->t[rest->n++] = f->t[i];
    }
    if (!on_shapes)
        return 0;
    if (sqlite3_create_function(s->db, "bl_shape_match", 1, SQLITE_UTF8, (void *)f, shape_match,
                                NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        return -1;
    }
    bl_strbuf_puts(&w->sql,
                   " AND r.shape_id IN (SELECT id FROM shapes WHERE bl_shape_match(shape))");
    return 0;
}

/* w's statement with f's terms (where_shapes, then where_all) and tail, prepared as
 * prepare_where does. */
static sqlite3_stmt *prepare_shaped(bl_store *s, const bl_filter *f, sql_where *w, const char *tail,
                                    int *exact, char *err, size_t errlen)
{
    bl_filter rest;
    if (where_shapes(s, f, w, &rest, err, errlen) != 0) {
        free(rest.t);
        for (int i = 0; i < w->n; i++)
            free(w->owned[i]);
        bl_strbuf_free(&w->sql);
        return NULL;
    }
    where_all(w, &rest, "r");
    free(rest.t);
    bl_strbuf_puts(&w->sql, tail);
    return prepare_where(s, w, exact, err, errlen);
}

sqlite3_stmt *bl_store_select_fold(bl_store *s, const bl_filter *f, int *exact, char *err,
                                   size_t errlen)
{
    sql_where w = {.n = 0, .exact = 1};
    bl_strbuf_init(&w.sql);
    /* every record has its run and import (foreign keys, a run added before its records):
     * the joins only serve run=ID terms */
    int runs = 0;
    for (size_t i = 0; f && i < f->n; i++)
        runs |= strcmp(f->t[i].key, "run") == 0;
    bl_strbuf_puts(&w.sql, "SELECT min(r.id), sh.shape, bl_fold(r.f_bw, r.f_iops, r.f_lat, "
                           "r.f_p50, r.f_p99, r.f_p999, r.f_value, r.f_cpu, r.f_flags)");
    bl_strbuf_puts(&w.sql, runs ? FROM_RECORDS("r") : " FROM records r");
    bl_strbuf_puts(&w.sql, " JOIN shapes sh ON sh.id = r.shape_id WHERE 1");
    return prepare_shaped(s, f, &w, " GROUP BY r.shape_id ORDER BY 1", exact, err, errlen);
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

/* Walks the matching rows; decodes a record only when fn wants it or C must check a term. */
int bl_store_sqlite_each(bl_store *s, const bl_filter *f, bl_record_fn fn, bl_json_fn jfn,
                         void *ctx, char *err, size_t errlen)
{
    int exact;
    sqlite3_stmt *st = bl_store_select(s, f, 0, &exact, err, errlen);
    if (!st)
        return -1;
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *json = (const char *)sqlite3_column_text(st, 0);
        size_t len = (size_t)sqlite3_column_bytes(st, 0);
        const char *uid = (const char *)sqlite3_column_text(st, 1);
        bl_record *r = NULL;
        if (fn || !exact) {
            r = bl_record_from_json(json, len, NULL, 0);
            if (!r)
                continue;
            if (!exact && !bl_filter_match_run(f, r, uid)) {
                bl_record_free(r);
                continue;
            }
        }
        if (fn) {
            stop = fn(ctx, r, uid);
        } else {
            bl_record_free(r);
            stop = jfn(ctx, json, len, uid);
        }
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

static char *column_dup(sqlite3_stmt *row, int col)
{
    const char *v = (const char *)sqlite3_column_text(row, col);
    return bl_xstrdup(v ? v : "");
}

static void run_info_start(bl_run_info *ri, sqlite3_stmt *row, const bl_record *labels)
{
    snprintf(ri->id, sizeof ri->id, "%s", (const char *)sqlite3_column_text(row, 1));
    ri->import_id = sqlite3_column_int64(row, 2);
    ri->imported_at = column_dup(row, 3);
    ri->first_line = sqlite3_column_type(row, 7) == SQLITE_NULL ? -1 : sqlite3_column_int64(row, 7);
    ri->head = bl_record_new();
    int col = 8; /* the run-level fields, in the table's order (bl_store_select) */
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        if (!(f->flags & BL_FF_RUN))
            continue;
        int null = sqlite3_column_type(row, col) == SQLITE_NULL;
        if (f->kind == BL_FK_STR && !null)
            bl_record_set_str(BL_FIELD(ri->head, f, char *),
                              (const char *)sqlite3_column_text(row, col));
        else if (f->kind == BL_FK_INT && !null)
            *BL_FIELD(ri->head, f, int64_t) = sqlite3_column_int64(row, col);
        else if (f->kind == BL_FK_NUM && !null)
            *BL_FIELD(ri->head, f, double) = sqlite3_column_double(row, col);
        col++;
    }
    size_t n = labels->n_labels;
    ri->labels = bl_xcalloc(n ? n : 1, sizeof *ri->labels);
    for (size_t i = 0; i < n; i++)
        ri->labels[ri->n_labels++] =
            (bl_label){bl_xstrdup(labels->labels[i].key), bl_xstrdup(labels->labels[i].value)};
}

/* A row's labels (json_extract(json, '$.labels'), NULL when none) as a record holding them:
 * read in place, or through jansson where the fast reader is unsure; string values only. */
static bl_record *row_labels(const char *lj)
{
    if (!lj)
        return bl_record_new();
    bl_record *r = bl_labels_decode_fast(lj, strlen(lj));
    if (r)
        return r;
    r = bl_record_new();
    json_t *labels = json_loads(lj, 0, NULL);
    const char *k;
    json_t *v;
    json_object_foreach(labels, k, v)
    {
        if (json_is_string(v))
            bl_record_set_label(r, k, json_string_value(v));
    }
    json_decref(labels);
    return r;
}

static const char *record_label(const void *r, const char *key)
{
    return bl_record_label(r, key);
}

/* The runs are walked whole in the order of the (import, run) index: their labels are those
 * all their records share, read from each record's labels alone. When SQL cannot decide
 * the filter, each record is decoded and checked in C. */
int bl_store_sqlite_each_run(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                             size_t errlen)
{
    int exact;
    sqlite3_stmt *st = bl_store_select(s, f, 1, &exact, err, errlen);
    if (!st)
        return -1;
    bl_run_info ri;
    memset(&ri, 0, sizeof ri);
    int rc, stop = 0, have = 0, matched = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *uid = (const char *)sqlite3_column_text(st, 1);
        if (have && strcmp(uid, ri.id) != 0) {
            if (matched)
                stop = fn(ctx, &ri);
            bl_run_info_clear(&ri);
            have = matched = 0;
            if (stop)
                break;
        }
        const char *lj = (const char *)sqlite3_column_text(st, 6);
        bl_record *labels = row_labels(lj);
        if (!have)
            run_info_start(&ri, st, labels);
        else
            bl_run_info_keep_labels(&ri, record_label, labels);
        bl_record_free(labels);
        have = 1;
        ri.n_records++;
        int64_t line = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 7);
        if (line >= 0 && (ri.first_line < 0 || line < ri.first_line))
            ri.first_line = line;
        if (exact) {
            matched = 1;
        } else if (!matched) {
            bl_record *r = bl_record_from_json((const char *)sqlite3_column_text(st, 0),
                                               (size_t)sqlite3_column_bytes(st, 0), NULL, 0);
            matched = r && bl_filter_match_run(f, r, uid);
            bl_record_free(r);
        }
    }
    if (!stop && rc == SQLITE_DONE && have && matched)
        stop = fn(ctx, &ri);
    bl_run_info_clear(&ri);
    if (!stop && rc != SQLITE_DONE)
        step_error(s, err, errlen);
    sqlite3_finalize(st);
    return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}
