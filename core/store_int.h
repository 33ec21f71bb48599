/* Inside the store: the handle, the backends' table of operations, and the helpers the
 * SQLite backend's files share (store.c opens, migrates and imports; store_query.c reads;
 * store_edit.c relabels and deletes). store_backend.c picks the backend by address and
 * calls through the table; store_pg*.c is the PostgreSQL backend. */
#ifndef BL_STORE_INT_H
#define BL_STORE_INT_H

#include "store.h"
#include "strbuf.h"
#include <sqlite3.h>

struct pg_conn; /* libpq's PGconn */

typedef struct bl_import_info {
    char hash[65], format[64], imported_at[32];
} bl_import_info;

/* What a backend does; bl_store_* of store.h call these. each walks records: fn gets them
 * decoded, or (fn NULL) jfn gets the stored JSON text. */
typedef struct bl_store_ops {
    const char *name;
    void (*close)(bl_store *s);
    int (*has_legacy_keys)(bl_store *s);
    /* An import in steps (store.h's bl_import; store_backend.c keeps its bookkeeping):
     * begin sets im->id and im->dup (a new import's transaction opened and its row
     * inserted; a stored one's row found, nothing written); add writes a batch of a new
     * import; end commits (commit 1) or rolls back, and ends a duplicate's reading. 0, or
     * -1 with err. */
    int (*import_begin)(bl_import *im, const char *source, const bl_content_key *key,
                        const char *format, char *err, size_t errlen);
    int (*import_add)(bl_import *im, const bl_records *recs, char *err, size_t errlen);
    int (*import_end)(bl_import *im, int commit, char *err, size_t errlen);
    /* Optional: a whole import at once (bl_store_import), for a backend whose steps cost a
     * round trip each. 0: stored (committed, or in a batch done with) and its run IDs
     * appended to run_ids (may be NULL); 1: the content is stored already, im->id and
     * im->dup set, nothing written (the records are checked as the steps' would be); 2:
     * not taken (too big: the steps do it), nothing done; -1 with err, nothing stored. */
    /* Optional, in a batch (store.h's bl_store_import_all): the first jobs together;
     * returns how many it did (0: the first goes by bl_store_import). A job's rc is DONE or
     * FAILED (err, busy), or it sets dup_id (the content is stored: checked as the steps'
     * would be). It stops after a busy job. */
    size_t (*import_all)(bl_store *s, bl_import_job *jobs, size_t n);
    int (*import_once)(bl_import *im, const char *source, const bl_content_key *key,
                       const char *format, const bl_records *recs, bl_strbuf *run_ids, char *err,
                       size_t errlen);
    /* A batch's transaction (store.h): begin (what 0), commit (1) or roll back (2). While
     * it is open, import_begin opens a savepoint and import_end releases or undoes it. */
    int (*batch)(bl_store *s, int what, char *err, size_t errlen);
    /* The run IDs of an import, space-separated, in run order, appended to out. */
    void (*run_ids)(bl_store *s, int64_t import_id, bl_strbuf *out);
    /* The stored JSON of an import's records with id > *after, in id order, at most limit
     * (negative: all), each to fn (run_id NULL); *after moves to the last id given. The
     * number given, or -1 with err. */
    long (*stored_json)(bl_store *s, int64_t import_id, int64_t *after, long limit, bl_json_fn fn,
                        void *ctx, char *err, size_t errlen);
    int (*each)(bl_store *s, const bl_filter *f, bl_record_fn fn, bl_json_fn jfn, void *ctx,
                char *err, size_t errlen);
    int (*each_run)(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                    size_t errlen);
    int (*relabel)(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                   char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records, char *err,
                   size_t errlen);
    int (*del)(bl_store *s, const bl_filter *f, size_t *n_runs, size_t *n_records, char *err,
               size_t errlen);
    /* An import's content key ("" for a measured run), format and time; -1 with err. */
    int (*import_info)(bl_store *s, int64_t import_id, bl_import_info *info, char *err,
                       size_t errlen);
    /* bl_store_fold (store.h); NULL: the backend cannot (1). */
    int (*fold)(bl_store *s, const bl_filter *f, bl_fold_fn fn, void *ctx, char *err,
                size_t errlen);
} bl_store_ops;

/* An import under way: what every backend's steps share. */
struct bl_import {
    bl_store *s;
    int64_t id;       /* the import's row: the new one, or the one holding the content */
    int dup;          /* the content is stored already: batches are checked, not written */
    int spoilt;       /* a step failed: only rollback is left */
    char when[32];    /* imported_at, ISO 8601 UTC */
    bl_strbuf seed;   /* what run IDs are made from (bl_store_seed) */
    int64_t last_run; /* the run of the last record written (valid when n > 0) */
    size_t n;         /* records given so far */
    /* dup: the stored records read so far against those given, record by record */
    int64_t after;     /* the id of the last stored record read */
    size_t stored;     /* stored records read */
    int same;          /* every one read carries the labels of the one given */
    char differs[400]; /* the first label that differs (bl_store_has_labels) */
};

struct bl_store {
    const bl_store_ops *ops;
    char *path;         /* as messages name it: a URL without its password */
    sqlite3 *db;        /* SQLite backend */
    struct pg_conn *pg; /* PostgreSQL backend */
    int walking;        /* a walk's rows are streaming: no other query on pg until it ends */
    int batch;          /* a batch's transaction is open (store.h) */
    int batch_lost;     /* ... and was rolled back whole under it (SQLite on I/O errors) */
    int busy;           /* the last import failed on a deadlock with another writer */
    int pg_savepoint;   /* PostgreSQL: a done import's savepoint left open in the batch */
    /* SQLite: the import's statements, prepared once a store (store.c) */
    sqlite3_stmt *st_find, *st_import, *st_run, *st_record, *st_ids;
    int wal; /* SQLite: put in WAL mode by this writer, back to a rollback journal at close */
    struct bl_fold_stmts *fold; /* SQLite: the fold columns' statements (store_fold.c) */
    int no_fold;   /* a store of the schema before fold columns, read without write rights */
    int lean_json; /* one of schema 5 (no when_at column), read without write rights */
};

enum { BL_OPEN_CREATE = 1, BL_OPEN_WRITE = 2 };

/* The backends: open by address (a file path, or a postgresql:// URL); NULL with err. */
bl_store *bl_store_sqlite_open(const char *path, int mode, char *err, size_t errlen);
bl_store *bl_store_pg_open(const char *url, int mode, char *err, size_t errlen);
extern const bl_store_ops bl_store_sqlite_ops, bl_store_pg_ops;

/* The run-level fields of r (fields.h BL_FF_RUN) copied into head. */
void bl_run_head_fill(bl_record *head, const bl_record *r);
/* Whether stored carries every label of fresh with the same value; if not, the first one
 * it lacks goes to `differs` as "K=V (stored: W)" or "K=V (not stored)". */
int bl_store_has_labels(const bl_record *stored, const bl_record *fresh, char *differs, size_t n);
/* The time of an import as stored: ISO 8601 UTC. */
void bl_store_now_iso(char *buf, size_t n);
/* What an import's run IDs are made from (seed initialised here): the content key, or for
 * a measured run its source, time and process. */
void bl_store_seed(bl_strbuf *seed, const char *source, const bl_content_key *key);
/* r as stored: its JSON, with the import's time (imported_at, ISO 8601) as its `when` when
 * the record came without one (as the v4 migration gives older records). */
void bl_store_record_json(const bl_record *r, const char *imported_at, bl_strbuf *sb);
/* Removes the labels unset[] names from r, then sets set[] (relabel's edit of a record). */
void bl_store_edit_labels(bl_record *r, const bl_label *set, size_t n_set, char *const *unset,
                          size_t n_unset);
/* Frees what a run info owns and zeroes it. */
void bl_run_info_clear(bl_run_info *ri);
/* A run's labels are those all its records share: keeps in ri those whose value
 * get(src, key) gives alike (a record's labels, or a stored labels object). */
typedef const char *(*bl_label_get_fn)(const void *src, const char *key);
void bl_run_info_keep_labels(bl_run_info *ri, bl_label_get_fn get, const void *src);
/* A label's value in a stored labels object (a json_t; NULL has none). */
const char *bl_json_label(const void *labels, const char *key);
/* An import's info from its stored columns (NULL as ""). */
void bl_import_info_set(bl_import_info *info, const char *hash, const char *format,
                        const char *imported_at);
/* A stored record's JSON relabelled (bl_store_edit_labels) into out; -1 when it cannot be
 * read. */
int bl_store_relabel_json(const char *json, size_t len, const bl_label *set, size_t n_set,
                          char *const *unset, size_t n_unset, bl_strbuf *out);
/* Whether C's filter decides term t on a record's shape (fold.h) as on the record: what t
 * reads a shape keeps, so every record of a shape answers alike (not run, nor hints). */
int bl_store_shape_decides(const bl_filter_term *t);

/* --- SQLite backend --- */

/* The fold columns (fold.h, schema v5) in the order bl_fold_cols_bind binds them. */
#define BL_FOLD_COLS "shape_id, f_bw, f_iops, f_lat, f_p50, f_p99, f_p999, f_value, f_cpu, f_flags"
#define BL_FOLD_COLS_SET                                                                           \
    "shape_id = ?, f_bw = ?, f_iops = ?, f_lat = ?, f_p50 = ?, f_p99 = ?, f_p999 = ?, "            \
    "f_value = ?, f_cpu = ?, f_flags = ?"
#define BL_FOLD_NCOLS 10
typedef struct bl_fold_stmts {
    sqlite3_stmt *find, *add, *upd;
    bl_strbuf sb;
} bl_fold_stmts;
/* Binds r's fold columns to st's parameters col .. col + 9, adding its shape when new; -1 on
 * error. */
int bl_fold_cols_bind(sqlite3 *db, bl_fold_stmts *fs, sqlite3_stmt *st, int col,
                      const bl_record *r);
/* Sets the fold columns of record rec_id from r; -1 on error. */
int bl_fold_cols_set(sqlite3 *db, bl_fold_stmts *fs, sqlite3_int64 rec_id, const bl_record *r);
void bl_fold_stmts_free(bl_fold_stmts *fs);
/* The v5 migration's fill of every stored record's fold columns; -1 with err. */
int bl_store_sqlite_fill_fold(sqlite3 *db, const char *path, char *err, size_t errlen);
/* The registered progress (store.h), or a no-op: called by long upgrades. */
void bl_store_progress(const char *path, const char *what, int64_t done, int64_t total);
/* bl_store_fold on SQLite; and its statement (store_query.c): rows of (first id, shape,
 * bl_fold(...)) in order of first id; *exact 0 when C must check a term; f is read by the
 * statement (C's filter on each shape): it must outlive it. */
int bl_store_sqlite_fold(bl_store *s, const bl_filter *f, bl_fold_fn fn, void *ctx, char *err,
                         size_t errlen);
/* bl_store_each_lean's statement: rows of (shape id, run, line, when, fold figures) of the
 * matching records with a shape, in id order. */
sqlite3_stmt *bl_store_select_lean(bl_store *s, const bl_filter *f, int *exact, char *err,
                                   size_t errlen);
sqlite3_stmt *bl_store_select_fold(bl_store *s, const bl_filter *f, int *exact, char *err,
                                   size_t errlen);

/* sqlite3_exec; on failure err holds SQLite's message and -1 is returned. */
int bl_store_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);

/* The first column of the first row of sql, as an int (or text into text); -1 on error. */
int bl_store_query_first(sqlite3 *db, const char *sql, int *out, char *text, size_t textlen);

/* Brings a store at user_version v to BL_STORE_SCHEMA (core/store_migrate.c), inside the
 * caller's transaction, telling bl_store_progress of long steps; refuses newer stores. */
int bl_store_migrate(sqlite3 *db, const char *path, int v, char *err, size_t errlen);

/* Gives a run of an import its stable ID (runs table), made from seed ("content key:run"),
 * unless it has one; st is "INSERT INTO runs ... ON CONFLICT(import_id, run) DO NOTHING"
 * (bl_store_run_sql), prepared. */
extern const char bl_store_run_sql[];
int bl_store_add_run(sqlite3_stmt *st, sqlite3_int64 import_id, sqlite3_int64 run,
                     const char *seed);

/* The run ID of a run: a window of SHA-256 of "seed:run" (round >= 8 adds ":round"), the
 * round-th try when earlier windows were taken. Both backends name runs alike. */
void bl_store_run_uid(const char *seed, int64_t run, int round, char uid[BL_RUN_ID_LEN + 1]);

/* A SELECT narrowed by the terms of f SQL decides exactly, its parameters bound; columns
 * json, run uid, import id, imported_at, record id, run number, labels (JSON), line,
 * source, tool, tool_version. runs: every record of the runs holding a match, in
 * (import, run) order; else the matching records in import order. *exact is 0 when the
 * caller must still check f in C. NULL with err on failure. */
sqlite3_stmt *bl_store_select(bl_store *s, const bl_filter *f, int runs, int *exact, char *err,
                              size_t errlen);
int bl_store_sqlite_each(bl_store *s, const bl_filter *f, bl_record_fn fn, bl_json_fn jfn,
                         void *ctx, char *err, size_t errlen);
int bl_store_sqlite_each_run(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                             size_t errlen);
int bl_store_sqlite_relabel(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                            char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records,
                            char *err, size_t errlen);
int bl_store_sqlite_delete(bl_store *s, const bl_filter *f, size_t *n_runs, size_t *n_records,
                           char *err, size_t errlen);

#endif
