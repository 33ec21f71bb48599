#include "store.h"
#include "jsonl.h"
#include "strbuf.h"
#include "version.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct bl_store {
    sqlite3 *db;
};

static const char *const schema_v1 = "CREATE TABLE imports("
                                     "  id INTEGER PRIMARY KEY,"
                                     "  source TEXT NOT NULL,"
                                     "  hash TEXT UNIQUE,"
                                     "  format TEXT,"
                                     "  imported_at TEXT NOT NULL);"
                                     "CREATE TABLE records("
                                     "  id INTEGER PRIMARY KEY,"
                                     "  import_id INTEGER NOT NULL REFERENCES imports(id),"
                                     "  run INTEGER, line INTEGER, tool TEXT, test TEXT,"
                                     "  json TEXT NOT NULL);"
                                     "CREATE INDEX records_import ON records(import_id, run);"
                                     "PRAGMA user_version = 1;";

/* v2: which benchlog wrote the store, and an index for the usual tool/test filters. */
static const char *const schema_v2 =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
    "INSERT INTO meta VALUES('created_by', 'benchlog " BENCHLOG_VERSION "');"
    "CREATE INDEX records_tool_test ON records(tool, test);"
    "PRAGMA user_version = 2;";

const char *bl_store_default_path(void)
{
    const char *env = getenv("BENCHLOG_DB");
    return env && *env ? env : "benchlog.db";
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

static int user_version(sqlite3 *db, int *version, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return -1;
    }
    *version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return 0;
}

/* Brings the schema to BL_STORE_SCHEMA inside one transaction; refuses newer stores. */
static int migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    if (exec(db, "BEGIN IMMEDIATE", err, errlen) != 0)
        return -1;
    int v;
    if (user_version(db, &v, err, errlen) != 0)
        goto fail;
    if (v > BL_STORE_SCHEMA) {
        snprintf(err, errlen,
                 "%s: store schema version %d is newer than this benchlog's (%d); "
                 "use a newer benchlog",
                 path, v, BL_STORE_SCHEMA);
        goto fail;
    }
    /* Each step upgrades one version, so a store of any older version is brought up in
     * place, in the same transaction. */
    if (v < 1 && exec(db, schema_v1, err, errlen) != 0)
        goto fail;
    if (v < 2 && exec(db, schema_v2, err, errlen) != 0)
        goto fail;
    return exec(db, "COMMIT", err, errlen);
fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

bl_store *bl_store_open(const char *path, char *err, size_t errlen)
{
    if (!path)
        path = bl_store_default_path();
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
    if (exec(db, "PRAGMA foreign_keys = ON", inner, sizeof inner) != 0 ||
        migrate(db, path, inner, sizeof inner) != 0) {
        if (strncmp(inner, path, strlen(path)) == 0)
            snprintf(err, errlen, "%s", inner);
        else
            snprintf(err, errlen, "%s: not a benchlog store: %s", path, inner);
        sqlite3_close(db);
        return NULL;
    }
    bl_store *s = bl_xcalloc(1, sizeof *s);
    s->db = db;
    return s;
}

bl_store *bl_store_open_existing(const char *path, char *err, size_t errlen)
{
    if (!path)
        path = bl_store_default_path();
    if (access(path, F_OK) != 0) {
        snprintf(err, errlen, "%s: no store there (import or run something first, or --db)", path);
        return NULL;
    }
    return bl_store_open(path, err, errlen);
}

void bl_store_close(bl_store *s)
{
    if (!s)
        return;
    sqlite3_close(s->db);
    free(s);
}

static void now_iso(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int already_imported(bl_store *s, const char *hash, int *found)
{
    sqlite3_stmt *st;
    *found = 0;
    if (!hash)
        return 0;
    if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM imports WHERE hash = ?", -1, &st, NULL))
        return -1;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static int insert_import(bl_store *s, const char *source, const char *hash, const char *format,
                         sqlite3_int64 *id)
{
    sqlite3_stmt *st;
    char when[32];
    now_iso(when, sizeof when);
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO imports(source, hash, format, imported_at) "
                           "VALUES (?, ?, ?, ?)",
                           -1, &st, NULL))
        return -1;
    sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
    if (hash)
        sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, format ? format : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, when, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    *id = sqlite3_last_insert_rowid(s->db);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int insert_records(bl_store *s, sqlite3_int64 import_id, const bl_records *recs)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO records(import_id, run, line, tool, test, json) "
                           "VALUES (?, ?, ?, ?, ?, ?)",
                           -1, &st, NULL))
        return -1;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    int rc = SQLITE_DONE;
    for (size_t i = 0; i < recs->n && rc == SQLITE_DONE; i++) {
        const bl_record *r = recs->v[i];
        bl_strbuf_reset(&sb);
        bl_record_to_json(r, &sb);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, import_id);
        sqlite3_bind_int64(st, 2, r->run);
        sqlite3_bind_int64(st, 3, r->line);
        sqlite3_bind_text(st, 4, r->tool, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, r->test, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, sb.s, (int)sb.len, SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    bl_strbuf_free(&sb);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int bl_store_import(bl_store *s, const char *source, const char *hash, const char *format,
                    const bl_records *recs, char *err, size_t errlen)
{
    if (exec(s->db, "BEGIN IMMEDIATE", err, errlen) != 0)
        return BL_IMPORT_FAILED;
    int found;
    sqlite3_int64 id;
    if (already_imported(s, hash, &found) != 0)
        goto fail;
    if (found) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return BL_IMPORT_DUPLICATE;
    }
    if (insert_import(s, source, hash, format, &id) != 0 || insert_records(s, id, recs) != 0)
        goto fail;
    if (exec(s->db, "COMMIT", err, errlen) != 0)
        goto rollback;
    return BL_IMPORT_DONE;
fail:
    snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
rollback:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return BL_IMPORT_FAILED;
}

/* Calls fn for every stored record matching f, in import order. */
typedef int (*record_fn)(void *ctx, sqlite3_stmt *row, bl_record *r);

static int each_record(bl_store *s, const bl_filter *f, record_fn fn, void *ctx, char *err,
                       size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT r.json, r.import_id, i.imported_at FROM records r "
                           "JOIN imports i ON i.id = r.import_id ORDER BY r.id",
                           -1, &st, NULL)) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *json = (const char *)sqlite3_column_text(st, 0);
        bl_record *r = bl_record_from_json(json, (size_t)sqlite3_column_bytes(st, 0), NULL, 0);
        if (!r)
            continue;
        if (!bl_filter_match(f, r) || fn(ctx, st, r) != 0)
            bl_record_free(r);
    }
    if (rc != SQLITE_DONE)
        snprintf(err, errlen, "%s", sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int keep_record(void *ctx, sqlite3_stmt *row, bl_record *r)
{
    (void)row;
    bl_records_push(ctx, r);
    return 0;
}

int bl_store_query(bl_store *s, const bl_filter *f, bl_records *out, char *err, size_t errlen)
{
    return each_record(s, f, keep_record, out, err, errlen);
}

typedef struct runs_acc {
    bl_run_info *v;
    size_t n, cap;
} runs_acc;

static void labels_text(const bl_record *r, bl_strbuf *sb)
{
    for (size_t i = 0; i < r->n_labels; i++)
        bl_strbuf_printf(sb, "%s%s=%s", i ? ", " : "", r->labels[i].key, r->labels[i].value);
}

static int add_to_runs(void *ctx, sqlite3_stmt *row, bl_record *r)
{
    runs_acc *acc = ctx;
    int64_t import_id = sqlite3_column_int64(row, 1);
    bl_run_info *last = acc->n ? &acc->v[acc->n - 1] : NULL;
    if (last && last->import_id == import_id && last->run == r->run) {
        last->n_records++;
        if (r->line >= 0 && (last->first_line < 0 || r->line < last->first_line))
            last->first_line = r->line;
        return 1;
    }
    void *p = acc->v;
    bl_grow(&p, &acc->cap, acc->n + 1, sizeof *acc->v);
    acc->v = p;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    labels_text(r, &sb);
    acc->v[acc->n++] = (bl_run_info){
        .import_id = import_id,
        .source = bl_xstrdup(r->source ? r->source : ""),
        .run = r->run,
        .first_line = r->line,
        .tool = bl_xstrdup(r->tool ? r->tool : ""),
        .tool_version = bl_xstrdup(r->tool_version ? r->tool_version : ""),
        .imported_at = bl_xstrdup((const char *)sqlite3_column_text(row, 2)),
        .n_records = 1,
        .labels = bl_strbuf_take(&sb),
    };
    return 1;
}

int bl_store_runs(bl_store *s, const bl_filter *f, bl_run_info **runs, size_t *n, char *err,
                  size_t errlen)
{
    runs_acc acc = {0};
    int rc = each_record(s, f, add_to_runs, &acc, err, errlen);
    *runs = acc.v;
    *n = acc.n;
    return rc;
}

void bl_run_infos_free(bl_run_info *runs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(runs[i].source);
        free(runs[i].tool);
        free(runs[i].tool_version);
        free(runs[i].imported_at);
        free(runs[i].labels);
    }
    free(runs);
}

void bl_content_hash(const void *data, size_t len, char out[33])
{
    /* Two independent 64-bit FNV-1a lanes: a content identity, not a security measure. */
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        a = (a ^ p[i]) * 0x100000001b3ULL;
        b = (b ^ p[i] ^ (i & 0xff)) * 0x100000001b3ULL;
    }
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}
