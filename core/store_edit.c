/* Changing the store after import: relabel and delete whole runs, each call one
 * transaction, so a crash or kill leaves every run as it was or as asked. */
#include "jsonl.h"
#include "store_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run_key {
    sqlite3_int64 import_id, run;
} run_key;

void bl_store_edit_labels(bl_record *r, const bl_label *set, size_t n_set, char *const *unset,
                          size_t n_unset)
{
    for (size_t u = 0; u < n_unset; u++) {
        size_t k = 0;
        for (size_t i = 0; i < r->n_labels; i++) {
            if (strcmp(r->labels[i].key, unset[u]) == 0) {
                free(r->labels[i].key);
                free(r->labels[i].value);
            } else {
                r->labels[k++] = r->labels[i];
            }
        }
        r->n_labels = k;
    }
    for (size_t i = 0; i < n_set; i++)
        bl_record_set_label(r, set[i].key, set[i].value);
}

static int relabel_run(bl_store *s, const run_key *k, const bl_label *set, size_t n_set,
                       char *const *unset, size_t n_unset, size_t *n_records)
{
    sqlite3_stmt *sel, *upd;
    if (sqlite3_prepare_v2(s->db, "SELECT id, json FROM records WHERE import_id = ? AND run = ?",
                           -1, &sel, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_prepare_v2(s->db, "UPDATE records SET json = ? WHERE id = ?", -1, &upd, NULL) !=
        SQLITE_OK) {
        sqlite3_finalize(sel);
        return -1;
    }
    sqlite3_bind_int64(sel, 1, k->import_id);
    sqlite3_bind_int64(sel, 2, k->run);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_fold_stmts fs = {0};
    bl_strbuf_init(&fs.sb);
    int rc, bad = 0;
    while (!bad && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
        if (bl_store_relabel_json((const char *)sqlite3_column_text(sel, 1),
                                  (size_t)sqlite3_column_bytes(sel, 1), set, n_set, unset, n_unset,
                                  &sb) != 0) {
            bad = 1;
            break;
        }
        sqlite3_reset(upd);
        sqlite3_bind_text(upd, 1, sb.s, (int)sb.len, SQLITE_STATIC);
        sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
        bad = sqlite3_step(upd) != SQLITE_DONE;
        /* its labels are part of its shape (fold.h) */
        bl_record *r = bad ? NULL : bl_record_from_json(sb.s, sb.len, NULL, 0);
        if (r)
            bad = bl_fold_cols_set(s->db, &fs, sqlite3_column_int64(sel, 0), r) != 0;
        bl_record_free(r);
        (*n_records)++;
    }
    bl_fold_stmts_free(&fs);
    bl_strbuf_free(&sb);
    sqlite3_finalize(sel);
    sqlite3_finalize(upd);
    return bad || rc != SQLITE_DONE ? -1 : 0;
}

typedef struct relabel_args {
    const bl_label *set;
    size_t n_set;
    char *const *unset;
    size_t n_unset;
} relabel_args;

static int relabel_one(bl_store *s, const run_key *k, void *ctx, size_t *n_records)
{
    const relabel_args *a = ctx;
    return relabel_run(s, k, a->set, a->n_set, a->unset, a->n_unset, n_records);
}

/* One transaction: finds the runs `list f` would show inside it (so they cannot change
 * under us), then does fn to each. */
static int edit_runs(bl_store *s, const bl_filter *f,
                     int (*fn)(bl_store *s, const run_key *k, void *ctx, size_t *n_records),
                     void *ctx, size_t *n_runs, size_t *n_records, char *err, size_t errlen)
{
    *n_runs = *n_records = 0;
    err[0] = 0;
    if (bl_store_exec(s->db, "BEGIN IMMEDIATE", err, errlen) != 0)
        return -1;
    bl_run_info *runs;
    size_t n;
    if (bl_store_runs(s, f, &runs, &n, err, errlen) != 0) {
        bl_run_infos_free(runs, n);
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++) {
        run_key k = {runs[i].import_id, runs[i].head->run};
        ok = fn(s, &k, ctx, n_records) == 0;
    }
    *n_runs = n;
    bl_run_infos_free(runs, n);
    if (ok && bl_store_exec(s->db, "COMMIT", err, errlen) == 0)
        return 0;
    if (!ok && err[0] == 0)
        snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

int bl_store_sqlite_relabel(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                            char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records,
                            char *err, size_t errlen)
{
    relabel_args a = {set, n_set, unset, n_unset};
    return edit_runs(s, f, relabel_one, &a, n_runs, n_records, err, errlen);
}

static int delete_run(bl_store *s, const run_key *k, void *ctx, size_t *n_records)
{
    (void)ctx;
    static const char *const sql[] = {
        "DELETE FROM records WHERE import_id = ?1 AND run = ?2",
        "DELETE FROM runs WHERE import_id = ?1 AND run = ?2",
        /* an import without runs goes too, so its content can be imported again */
        ("DELETE FROM imports WHERE id = ?1 AND NOT EXISTS "
         "(SELECT 1 FROM runs WHERE import_id = ?1)"),
    };
    for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(s->db, sql[i], -1, &st, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_int64(st, 1, k->import_id);
        if (i < 2)
            sqlite3_bind_int64(st, 2, k->run);
        int rc = sqlite3_step(st);
        if (i == 0)
            *n_records += (size_t)sqlite3_changes(s->db);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return -1;
    }
    return 0;
}

int bl_store_sqlite_delete(bl_store *s, const bl_filter *f, size_t *n_runs, size_t *n_records,
                           char *err, size_t errlen)
{
    return edit_runs(s, f, delete_run, NULL, n_runs, n_records, err, errlen);
}
