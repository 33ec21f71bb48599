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

typedef struct run_keys {
    run_key *v;
    size_t n, cap;
} run_keys;

static int collect(void *ctx, const bl_run_info *ri)
{
    run_keys *k = ctx;
    void *p = k->v;
    bl_grow(&p, &k->cap, k->n + 1, sizeof *k->v);
    k->v = p;
    k->v[k->n++] = (run_key){ri->import_id, ri->head->run};
    return 0;
}

/* Begins the write and finds the runs `list f` would show, inside the transaction so they
 * cannot change under us. */
static int begin_with_runs(bl_store *s, const bl_filter *f, run_keys *keys, char *err,
                           size_t errlen)
{
    memset(keys, 0, sizeof *keys);
    if (bl_store_exec(s->db, "BEGIN IMMEDIATE", err, errlen) != 0)
        return -1;
    if (bl_store_sqlite_each_run(s, f, collect, keys, err, errlen) != 0) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        free(keys->v);
        return -1;
    }
    return 0;
}

static int finish(bl_store *s, int ok, run_keys *keys, char *err, size_t errlen)
{
    free(keys->v);
    if (ok && bl_store_exec(s->db, "COMMIT", err, errlen) == 0)
        return 0;
    if (ok == 0 && err[0] == 0)
        snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

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
    int rc, bad = 0;
    while (!bad && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
        bl_record *r = bl_record_from_json((const char *)sqlite3_column_text(sel, 1),
                                           (size_t)sqlite3_column_bytes(sel, 1), NULL, 0);
        if (!r) {
            bad = 1;
            break;
        }
        bl_store_edit_labels(r, set, n_set, unset, n_unset);
        bl_strbuf_reset(&sb);
        bl_record_to_json(r, &sb);
        bl_record_free(r);
        sqlite3_reset(upd);
        sqlite3_bind_text(upd, 1, sb.s, (int)sb.len, SQLITE_STATIC);
        sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
        bad = sqlite3_step(upd) != SQLITE_DONE;
        (*n_records)++;
    }
    bl_strbuf_free(&sb);
    sqlite3_finalize(sel);
    sqlite3_finalize(upd);
    return bad || rc != SQLITE_DONE ? -1 : 0;
}

int bl_store_sqlite_relabel(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                            char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records,
                            char *err, size_t errlen)
{
    run_keys keys;
    *n_runs = *n_records = 0;
    err[0] = 0;
    if (begin_with_runs(s, f, &keys, err, errlen) != 0)
        return -1;
    int ok = 1;
    for (size_t i = 0; ok && i < keys.n; i++)
        ok = relabel_run(s, &keys.v[i], set, n_set, unset, n_unset, n_records) == 0;
    *n_runs = keys.n;
    return finish(s, ok, &keys, err, errlen);
}

static int delete_run(bl_store *s, const run_key *k, size_t *n_records)
{
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
    run_keys keys;
    *n_runs = *n_records = 0;
    err[0] = 0;
    if (begin_with_runs(s, f, &keys, err, errlen) != 0)
        return -1;
    int ok = 1;
    for (size_t i = 0; ok && i < keys.n; i++)
        ok = delete_run(s, &keys.v[i], n_records) == 0;
    *n_runs = keys.n;
    return finish(s, ok, &keys, err, errlen);
}
