#include "jsonl.h"
#include "store_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int bl_store_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

int bl_store_query_first(sqlite3 *db, const char *sql, int *out, char *text, size_t textlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (out)
            *out = sqlite3_column_int(st, 0);
        if (text)
            snprintf(text, textlen, "%s", (const char *)sqlite3_column_text(st, 0));
    } else if (text && textlen) {
        text[0] = 0;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

const char bl_store_run_sql[] = "INSERT INTO runs(uid, import_id, run) VALUES (?, ?, ?) "
                                "ON CONFLICT(import_id, run) DO NOTHING";

/* A uid taken by another run is a constraint failure: the next window is tried. */
int bl_store_add_run(sqlite3_stmt *st, sqlite3_int64 import_id, sqlite3_int64 run, const char *seed)
{
    char uid[BL_RUN_ID_LEN + 1];
    int rc = SQLITE_CONSTRAINT;
    for (int round = 0; rc == SQLITE_CONSTRAINT && round < 64; round++) {
        bl_store_run_uid(seed, run, round, uid);
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, uid, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, import_id);
        sqlite3_bind_int64(st, 3, run);
        rc = sqlite3_step(st);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The ID is a window of the seed's SHA-256: the same content gets the same IDs in any
 * store; a window already taken there moves to the next one. */
void bl_store_run_uid(const char *seed, int64_t run, int round, char uid[BL_RUN_ID_LEN + 1])
{
    char hex[65];
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s:%lld", seed, (long long)run);
    if (round >= 8)
        bl_strbuf_printf(&sb, ":%d", round);
    bl_sha256_hex(sb.s, sb.len, hex);
    memcpy(uid, hex + (round % 8) * BL_RUN_ID_LEN, BL_RUN_ID_LEN);
    uid[BL_RUN_ID_LEN] = 0;
    bl_strbuf_free(&sb);
}

/* Whether the file is an SQLite database: its first 16 bytes. An empty file is a new store. */
static int looks_like_sqlite(const char *path, int *empty)
{
    FILE *f = fopen(path, "rb");
    *empty = 1;
    if (!f)
        return 1; /* not there yet: SQLite creates it */
    char head[16];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    *empty = n == 0;
    return n == 0 || (n == 16 && memcmp(head, "SQLite format 3", 16) == 0);
}

/* Refuses a database that benchlog did not make: tables of another program in a file of
 * user_version 0, or a version without benchlog's tables. */
static int check_ours(sqlite3 *db, const char *path, int v, char *err, size_t errlen)
{
    char names[256];
    int n_tables = 0, ours = 0;
    if (bl_store_query_first(db, "SELECT count(*) FROM sqlite_master", &n_tables, NULL, 0) != 0 ||
        bl_store_query_first(db,
                             "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                             "name IN ('imports', 'records')",
                             &ours, NULL, 0) != 0 ||
        bl_store_query_first(db,
                             "SELECT group_concat(name, ', ') FROM (SELECT name FROM sqlite_master "
                             "WHERE type = 'table' ORDER BY name LIMIT 6)",
                             NULL, names, sizeof names) != 0) {
        snprintf(err, errlen, "%s: cannot read the store: %s", path, sqlite3_errmsg(db));
        return -1;
    }
    if (v == 0 && n_tables == 0)
        return 0; /* a new, empty database: ours to set up */
    char made_by[128] = "";
    if (v >= 2)
        bl_store_query_first(db, "SELECT value FROM meta WHERE key = 'created_by'", NULL, made_by,
                             sizeof made_by);
    if ((v == 0 || ours < 2 || (v >= 2 && strncmp(made_by, "benchlog", 8) != 0)) &&
        v <= BL_STORE_SCHEMA) {
        snprintf(err, errlen,
                 "%s: an SQLite database of another program, not a benchlog store (tables: "
                 "%s); left as it is",
                 path, names);
        return -1;
    }
    return 0;
}

/* PRAGMA quick_check: a damaged file is refused before anything is written to it. */
static int check_sound(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    char verdict[384];
    if (bl_store_query_first(db, "PRAGMA quick_check(1)", NULL, verdict, sizeof verdict) != 0)
        snprintf(verdict, sizeof verdict, "%s", sqlite3_errmsg(db));
    if (strcmp(verdict, "ok") == 0)
        return 0;
    snprintf(err, errlen,
             "%s: the store is damaged (PRAGMA quick_check: %s); nothing was written. Restore "
             "it from a backup, or read what is left with sqlite3 .recover",
             path, verdict);
    return -1;
}

bl_store *bl_store_sqlite_open(const char *path, int mode, char *err, size_t errlen)
{
    if (!(mode & BL_OPEN_CREATE) && access(path, F_OK) != 0) {
        snprintf(err, errlen, "%s: no store there (import or run something first, or --db)", path);
        return NULL;
    }
    int empty;
    if (!looks_like_sqlite(path, &empty)) {
        snprintf(err, errlen, "%s: not a benchlog store (not an SQLite database); left as it is",
                 path);
        return NULL;
    }
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open store: %s", path,
                 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 30000);
    char inner[512];
    int v = 0;
    /* One snapshot for the checks: another process may be creating the store right now. */
    if (bl_store_exec(db, "BEGIN", inner, sizeof inner) != 0 ||
        bl_store_query_first(db, "PRAGMA user_version", &v, NULL, 0) != 0) {
        snprintf(err, errlen, "%s: cannot read the store: %s", path, sqlite3_errmsg(db));
        goto fail;
    }
    /* A write, including an upgrade, happens only to a sound file of ours. */
    if (check_ours(db, path, v, err, errlen) != 0)
        goto fail;
    /* Schemas 5 and 6 only add what report's grouped query and the lean walk read: a reader
     * who may not write the file reads a schema 4 store as it is, record by record, and one of
     * schema 5 with its lean walk parsing the JSON. */
    int as_is =
        (v == 4 || v == 5) && !(mode & BL_OPEN_WRITE) && sqlite3_db_readonly(db, "main") == 1;
    int no_fold = as_is && v == 4;
    if (!empty && ((mode & BL_OPEN_WRITE) || (v < BL_STORE_SCHEMA && !as_is)) &&
        check_sound(db, path, err, errlen) != 0)
        goto fail;
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    /* While a writer has it, the store is in WAL mode: a commit is one sync, and readers go
     * on meanwhile. A file system where it cannot be (no shared memory) keeps the rollback
     * journal. */
    int wal = (mode & BL_OPEN_WRITE) &&
              sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) == SQLITE_OK;
    if (bl_store_exec(db, "PRAGMA foreign_keys = ON", inner, sizeof inner) != 0 ||
        (!as_is && bl_store_migrate(db, path, v, inner, sizeof inner) != 0)) {
        if (strncmp(inner, path, strlen(path)) == 0)
            snprintf(err, errlen, "%s", inner);
        else
            snprintf(err, errlen, "%s: cannot set up the store: %s", path, inner);
        goto fail;
    }
    bl_store *s = bl_xcalloc(1, sizeof *s);
    s->ops = &bl_store_sqlite_ops;
    s->db = db;
    s->path = bl_xstrdup(path);
    s->wal = wal;
    s->no_fold = no_fold;
    s->lean_json = as_is && v == 5;
    return s;
fail:
    sqlite3_close(db);
    return NULL;
}

/* *st prepared once for the store (finalized by sqlite_close); NULL on failure. */
static sqlite3_stmt *prepared(bl_store *s, sqlite3_stmt **st, const char *sql)
{
    if (!*st && sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL))
        *st = NULL;
    return *st;
}

static void sqlite_close(bl_store *s)
{
    sqlite3_finalize(s->st_find);
    sqlite3_finalize(s->st_import);
    sqlite3_finalize(s->st_run);
    sqlite3_finalize(s->st_record);
    sqlite3_finalize(s->st_ids);
    if (s->fold) {
        bl_fold_stmts_free(s->fold);
        free(s->fold);
    }
    /* WAL mode stays with the file, and a WAL store cannot be read from a folder the reader
     * may not write (its -shm file): the last writer to close returns it to a rollback
     * journal, which also folds the log back into the file. While another connection has
     * the store this fails, and that connection's close does it. */
    if (s->wal)
        sqlite3_exec(s->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    sqlite3_close(s->db);
}

static int sqlite_has_legacy_keys(bl_store *s)
{
    int n = 0;
    bl_store_query_first(
        s->db, "SELECT count(*) FROM (SELECT 1 FROM imports WHERE length(hash) = 32 LIMIT 1)", &n,
        NULL, 0);
    return n > 0;
}

void bl_store_now_iso(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void bl_store_record_json(const bl_record *r, const char *imported_at, bl_strbuf *sb)
{
    bl_record timed = *r;
    if (!r->when) {
        timed.when = (char *)imported_at;
        timed.when_from = (char *)"import";
    }
    bl_record_to_json(&timed, sb);
}

void bl_store_seed(bl_strbuf *seed, const char *source, const bl_content_key *key)
{
    bl_strbuf_init(seed);
    if (key) {
        bl_strbuf_puts(seed, key->sha256);
        return;
    }
    /* A measured run has no content to name it: its source, time and process. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    bl_strbuf_printf(seed, "measured:%s:%lld.%09ld:%d", source, (long long)ts.tv_sec, ts.tv_nsec,
                     (int)getpid());
}

/* The import already holding this content (by its SHA-256 or its legacy FNV key), or 0. */
static int find_import(bl_store *s, const bl_content_key *key, sqlite3_int64 *id)
{
    *id = 0;
    if (!key)
        return 0;
    sqlite3_stmt *st =
        prepared(s, &s->st_find, "SELECT id FROM imports WHERE hash IN (?, ?) LIMIT 1");
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, key->sha256, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, key->fnv[0] ? key->fnv : key->sha256, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static int insert_import(bl_store *s, const char *source, const char *hash, const char *format,
                         const char *when, sqlite3_int64 *id)
{
    sqlite3_stmt *st = prepared(s, &s->st_import,
                                "INSERT INTO imports(source, hash, format, imported_at) "
                                "VALUES (?, ?, ?, ?)");
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
    if (hash)
        sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 2);
    sqlite3_bind_text(st, 3, format ? format : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, when, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    *id = sqlite3_last_insert_rowid(s->db);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* A batch of a new import: each run's ID when the run is met (a run met again, formats
 * merged out of order, keeps its first), then the records. */
static int insert_records(bl_import *im, const bl_records *recs)
{
    bl_store *s = im->s;
    sqlite3_stmt *st =
        prepared(s, &s->st_record,
                 "INSERT INTO records(import_id, run, line, tool, test, json, " BL_FOLD_COLS
                 ", when_at) VALUES (?, ?, ?, ?, ?, ?, "
                 "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    sqlite3_stmt *run = prepared(s, &s->st_run, bl_store_run_sql);
    if (!st || !run)
        return -1;
    if (!s->fold) {
        s->fold = bl_xcalloc(1, sizeof *s->fold);
        bl_strbuf_init(&s->fold->sb);
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    int rc = SQLITE_DONE;
    for (size_t i = 0; i < recs->n && rc == SQLITE_DONE; i++) {
        const bl_record *r = recs->v[i];
        if ((im->n + i == 0 || im->last_run != r->run) &&
            bl_store_add_run(run, im->id, r->run, im->seed.s) != 0) {
            rc = SQLITE_ERROR;
            break;
        }
        im->last_run = r->run;
        bl_strbuf_reset(&sb);
        bl_store_record_json(r, im->when, &sb);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, im->id);
        sqlite3_bind_int64(st, 2, r->run);
        sqlite3_bind_int64(st, 3, r->line);
        sqlite3_bind_text(st, 4, r->tool, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, r->test, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, sb.s, (int)sb.len, SQLITE_STATIC);
        if (bl_fold_cols_bind(s->db, s->fold, st, 7, r) != 0) {
            rc = SQLITE_ERROR;
            break;
        }
        /* the `when` bl_store_record_json wrote */
        sqlite3_bind_text(st, 17, r->when ? r->when : im->when, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    sqlite3_reset(st);
    bl_strbuf_free(&sb);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void sqlite_run_ids(bl_store *s, int64_t import_id, bl_strbuf *out)
{
    sqlite3_stmt *st =
        prepared(s, &s->st_ids, "SELECT uid FROM runs WHERE import_id = ? ORDER BY run");
    if (!out || !st)
        return;
    sqlite3_bind_int64(st, 1, import_id);
    for (int i = 0; sqlite3_step(st) == SQLITE_ROW; i++)
        bl_strbuf_printf(out, "%s%s", i ? " " : "", (const char *)sqlite3_column_text(st, 0));
    sqlite3_reset(st);
}

/* Whether stored carries every label of fresh with the same value; if not, the first one
 * it lacks goes to `differs` as "K=V (stored: W)" or "K=V (not stored)". */
int bl_store_has_labels(const bl_record *stored, const bl_record *fresh, char *differs, size_t n)
{
    for (size_t i = 0; i < fresh->n_labels; i++) {
        const bl_label *l = &fresh->labels[i];
        const char *v = bl_record_label(stored, l->key);
        if (v && strcmp(v, l->value) == 0)
            continue;
        if (v)
            snprintf(differs, n, "%s=%s (stored: %s)", l->key, l->value, v);
        else
            snprintf(differs, n, "%s=%s (not stored)", l->key, l->value);
        return 0;
    }
    return 1;
}

/* The records of one import lie together in rowid order (SQLite writes one transaction at
 * a time): read by rowid from the import's first, never sorted whole. */
static long sqlite_stored_json(bl_store *s, int64_t import_id, int64_t *after, long limit,
                               bl_json_fn fn, void *ctx, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT id, json FROM records WHERE +import_id = ?1 AND id > max(?2, "
                           "(SELECT coalesce(min(id), 0) - 1 FROM records WHERE import_id = ?1)) "
                           "ORDER BY id LIMIT ?3",
                           -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        return -1;
    }
    sqlite3_bind_int64(st, 1, import_id);
    sqlite3_bind_int64(st, 2, *after);
    sqlite3_bind_int64(st, 3, limit);
    long n = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        *after = sqlite3_column_int64(st, 0);
        fn(ctx, (const char *)sqlite3_column_text(st, 1), (size_t)sqlite3_column_bytes(st, 1),
           NULL);
        n++;
    }
    if (rc != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        n = -1;
    }
    sqlite3_finalize(st);
    return n;
}

/* Inside a batch an import is a savepoint; after a failure, SQLite may have rolled back the
 * whole transaction (I/O errors, a full disk): then the batch is lost. */
static void undo_import(bl_store *s)
{
    if (!s->batch) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return;
    }
    if (sqlite3_get_autocommit(s->db) ||
        sqlite3_exec(s->db, "ROLLBACK TO bl_import; RELEASE bl_import", NULL, NULL, NULL))
        s->batch_lost = 1;
}

/* The transaction is taken for writing at once (IMMEDIATE, a batch's too): a duplicate found
 * is then known to stay so, and a new import's records follow without waiting. */
static int sqlite_import_begin(bl_import *im, const char *source, const bl_content_key *key,
                               const char *format, char *err, size_t errlen)
{
    bl_store *s = im->s;
    if (s->batch && (s->batch_lost || sqlite3_get_autocommit(s->db))) {
        s->batch_lost = 1;
        snprintf(err, errlen, "%s: the batch was rolled back by an earlier failure", s->path);
        return -1;
    }
    if (bl_store_exec(s->db, s->batch ? "SAVEPOINT bl_import" : "BEGIN IMMEDIATE", err, errlen) !=
        0)
        return -1;
    sqlite3_int64 id;
    if (find_import(s, key, &id) != 0)
        goto fail;
    if (id) {
        im->id = id;
        im->dup = 1;
        return 0;
    }
    if (insert_import(s, source, key ? key->sha256 : NULL, format, im->when, &id) != 0)
        goto fail;
    im->id = id;
    return 0;
fail:
    snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
    undo_import(s);
    return -1;
}

static int sqlite_import_add(bl_import *im, const bl_records *recs, char *err, size_t errlen)
{
    if (insert_records(im, recs) == 0)
        return 0;
    snprintf(err, errlen, "%s", sqlite3_errmsg(im->s->db));
    return -1;
}

static int sqlite_import_end(bl_import *im, int commit, char *err, size_t errlen)
{
    bl_store *s = im->s;
    if (commit && bl_store_exec(s->db, s->batch ? "RELEASE bl_import" : "COMMIT", err, errlen) == 0)
        return 0;
    undo_import(s);
    return commit ? -1 : 0;
}

/* The savepoints of a batch's imports keep their undo in memory (a few pages a file; on
 * disk it would be a temporary file a savepoint); queries outside a batch keep their big
 * sorts on disk. */
static int sqlite_batch(bl_store *s, int what, char *err, size_t errlen)
{
    static const char *const sql[] = {"PRAGMA temp_store = MEMORY; BEGIN IMMEDIATE", "COMMIT",
                                      "ROLLBACK"};
    int rc = what == 2 && sqlite3_get_autocommit(s->db)
                 ? 0
                 : bl_store_exec(s->db, sql[what], err, errlen);
    if (what != 0 || rc != 0)
        sqlite3_exec(s->db, "PRAGMA temp_store = DEFAULT", NULL, NULL, NULL);
    return rc;
}

static int sqlite_import_info(bl_store *s, int64_t import_id, bl_import_info *info, char *err,
                              size_t errlen)
{
    sqlite3_stmt *st;
    memset(info, 0, sizeof *info);
    if (sqlite3_prepare_v2(s->db, "SELECT hash, format, imported_at FROM imports WHERE id = ?", -1,
                           &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", s->path, sqlite3_errmsg(s->db));
        return -1;
    }
    sqlite3_bind_int64(st, 1, import_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        bl_import_info_set(info, (const char *)sqlite3_column_text(st, 0),
                           (const char *)sqlite3_column_text(st, 1),
                           (const char *)sqlite3_column_text(st, 2));
    else
        snprintf(err, errlen, "%s: import %lld not found", s->path, (long long)import_id);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

const bl_store_ops bl_store_sqlite_ops = {
    .name = "sqlite",
    .close = sqlite_close,
    .has_legacy_keys = sqlite_has_legacy_keys,
    .import_begin = sqlite_import_begin,
    .import_add = sqlite_import_add,
    .import_end = sqlite_import_end,
    .batch = sqlite_batch,
    .run_ids = sqlite_run_ids,
    .stored_json = sqlite_stored_json,
    .each = bl_store_sqlite_each,
    .each_run = bl_store_sqlite_each_run,
    .relabel = bl_store_sqlite_relabel,
    .del = bl_store_sqlite_delete,
    .import_info = sqlite_import_info,
    .fold = bl_store_sqlite_fold,
};
