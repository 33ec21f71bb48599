/* The SQLite store's schema, step by step (v1..BL_STORE_SCHEMA), and the upgrade that takes an
 * older store to the current one inside the caller's transaction; also the upgrades' one
 * progress registration. */
#include "store_int.h"
#include "version.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* v3: a stable short ID for every run (filled for older stores by add_run_ids). imports.hash
 * holds SHA-256 keys from now on, beside the FNV keys of older imports. */
static const char *const schema_v3 = "CREATE TABLE runs("
                                     "  id INTEGER PRIMARY KEY,"
                                     "  uid TEXT NOT NULL UNIQUE,"
                                     "  import_id INTEGER NOT NULL REFERENCES imports(id),"
                                     "  run INTEGER NOT NULL,"
                                     "  UNIQUE(import_id, run));"
                                     "PRAGMA user_version = 3;";

/* v4: every record has a time (`when`, core/when.h) in its JSON; records stored before have
 * the time of their import, which is all an old store knows of them. */
static const char *const schema_v4 =
    "UPDATE records SET json = json_set(json, '$.when',"
    "  (SELECT imported_at FROM imports WHERE imports.id = records.import_id),"
    "  '$.when_from', 'import') WHERE json_extract(json, '$.when') IS NULL;"
    "PRAGMA user_version = 4;";

/* v5: what a comparison groups and sums, as columns (fold.h): records.shape_id (the record
 * less its figures, in shapes) and f_* (its fold figures), so that report's GROUP BY reads no
 * JSON, and an index of them. Filled from the JSON of older records by
 * bl_store_sqlite_fill_fold (migrate_v5). */
static const char *const schema_v5 = "ALTER TABLE records ADD COLUMN shape_id INTEGER;"
                                     "ALTER TABLE records ADD COLUMN f_bw REAL;"
                                     "ALTER TABLE records ADD COLUMN f_iops REAL;"
                                     "ALTER TABLE records ADD COLUMN f_lat REAL;"
                                     "ALTER TABLE records ADD COLUMN f_p50 REAL;"
                                     "ALTER TABLE records ADD COLUMN f_p99 REAL;"
                                     "ALTER TABLE records ADD COLUMN f_p999 REAL;"
                                     "ALTER TABLE records ADD COLUMN f_value REAL;"
                                     "ALTER TABLE records ADD COLUMN f_cpu REAL;"
                                     "ALTER TABLE records ADD COLUMN f_flags INTEGER;";

/* v6: the record's time as a column (when_at: its JSON's `when`, ISO 8601) and an index in
 * id order holding what the lean walk reads (store.h bl_store_each_lean: report --html,
 * history, check), so that it reads the index, not a million records' JSON and pages. run
 * and line are the columns stored since v1, bound from the record the JSON was written
 * from. Filled from the JSON of older records by migrate_v6. */
static const char *const schema_v6_index = "CREATE INDEX IF NOT EXISTS records_lean ON records(id, "
                                           "import_id, run, line, when_at, " BL_FOLD_COLS ");"
                                           "PRAGMA user_version = 6;";

/* Runs of a store made before v3 get their IDs from their import's key. */
static int add_run_ids(sqlite3 *db, char *err, size_t errlen)
{
    sqlite3_stmt *st, *ins;
    if (sqlite3_prepare_v2(db, bl_store_run_sql, -1, &ins, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        return -1;
    }
    if (sqlite3_prepare_v2(db,
                           "SELECT DISTINCT r.import_id, r.run, "
                           "  coalesce(i.hash, 'import:' || i.id || ':' || i.imported_at) "
                           "FROM records r JOIN imports i ON i.id = r.import_id "
                           "ORDER BY r.import_id, r.run",
                           -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        sqlite3_finalize(ins);
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (bl_store_add_run(ins, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                             (const char *)sqlite3_column_text(st, 2)) != 0)
            break;
    if (rc != SQLITE_DONE)
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_finalize(ins);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The one registration (store.h): set at the program's start, read by upgrades. */
static bl_store_progress_fn progress_fn;

void bl_store_register_progress(bl_store_progress_fn fn)
{
    progress_fn = fn;
}

void bl_store_progress(const char *path, const char *what, int64_t done, int64_t total)
{
    if (progress_fn)
        progress_fn(path, what, done, total);
}

/* The columns are added unless there (a store whose user_version was set back by hand), the
 * shapes made again, every record's fold columns filled. */
static int migrate_v5(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    int has = 0;
    if (bl_store_query_first(
            db, "SELECT count(*) FROM pragma_table_info('records') WHERE name = 'shape_id'", &has,
            NULL, 0) != 0 ||
        (!has && bl_store_exec(db, schema_v5, err, errlen) != 0) ||
        bl_store_exec(db,
                      "DROP TABLE IF EXISTS shapes;"
                      "CREATE TABLE shapes(id INTEGER PRIMARY KEY, shape TEXT NOT NULL UNIQUE);",
                      err, errlen) != 0 ||
        bl_store_sqlite_fill_fold(db, path, err, errlen) != 0)
        return -1;
    /* covering report's GROUP BY: it reads the index in shape order, never the JSON's pages
     * nor a sorter (1M records: 0.5 s of CPU, against 3 s through the table) */
    return bl_store_exec(db,
                         "CREATE INDEX IF NOT EXISTS records_fold ON records(" BL_FOLD_COLS ");"
                         "PRAGMA user_version = 5;",
                         err, errlen);
}

/* How many records migrate_v6 fills a statement, between two progress lines' chances. */
#define WHEN_STEP 50000

/* The column added unless there, filled a range of ids at a time (the progress line's
 * steps), then the index. */
static int migrate_v6(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    static const char what[] = "upgrading the store to schema 6 (the time column history reads)";
    int has = 0, total = 0;
    if (bl_store_query_first(
            db, "SELECT count(*) FROM pragma_table_info('records') WHERE name = 'when_at'", &has,
            NULL, 0) != 0 ||
        (!has && bl_store_exec(db, "ALTER TABLE records ADD COLUMN when_at TEXT", err, errlen)) ||
        bl_store_query_first(db, "SELECT count(*) FROM records", &total, NULL, 0) != 0)
        return -1;
    sqlite3_stmt *fill;
    if (sqlite3_prepare_v2(db,
                           "UPDATE records SET when_at = json_extract(json, '$.when') WHERE id IN "
                           "(SELECT id FROM records WHERE id > ? ORDER BY id LIMIT ?) RETURNING id",
                           -1, &fill, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s", sqlite3_errmsg(db));
        return -1;
    }
    bl_store_progress(path, what, 0, total);
    sqlite3_int64 after = -1, done = 0;
    int rc;
    for (;;) {
        sqlite3_int64 last = after, n = 0;
        sqlite3_reset(fill);
        sqlite3_bind_int64(fill, 1, after);
        sqlite3_bind_int(fill, 2, WHEN_STEP);
        while ((rc = sqlite3_step(fill)) == SQLITE_ROW) {
            sqlite3_int64 id = sqlite3_column_int64(fill, 0);
            last = id > last ? id : last;
            n++;
        }
        if (rc != SQLITE_DONE || n == 0)
            break;
        after = last;
        done += n;
        if (done < total)
            bl_store_progress(path, what, done, total);
    }
    if (rc != SQLITE_DONE)
        snprintf(err, errlen, "filling the time column: %s", sqlite3_errmsg(db));
    sqlite3_finalize(fill);
    if (rc != SQLITE_DONE || bl_store_exec(db, schema_v6_index, err, errlen) != 0)
        return -1;
    bl_store_progress(path, what, total, total);
    return 0;
}

/* Brings the schema to BL_STORE_SCHEMA inside one transaction; refuses newer stores. */
int bl_store_migrate(sqlite3 *db, const char *path, int v, char *err, size_t errlen)
{
    if (v == BL_STORE_SCHEMA)
        return 0;
    if (v > BL_STORE_SCHEMA) {
        snprintf(err, errlen,
                 "%s: store schema version %d is newer than this benchlog's (%d); "
                 "use a newer benchlog",
                 path, v, BL_STORE_SCHEMA);
        return -1;
    }
    if (bl_store_exec(db, "BEGIN IMMEDIATE", err, errlen) != 0)
        return -1;
    /* Another process may have upgraded it while we waited for the lock. */
    if (bl_store_query_first(db, "PRAGMA user_version", &v, NULL, 0) != 0)
        goto fail;
    /* Each step upgrades one version, so a store of any older version is brought up in
     * place, in the same transaction. */
    if (v < 1 && bl_store_exec(db, schema_v1, err, errlen) != 0)
        goto fail;
    if (v < 2 && bl_store_exec(db, schema_v2, err, errlen) != 0)
        goto fail;
    if (v < 3 && (bl_store_exec(db, schema_v3, err, errlen) != 0 || add_run_ids(db, err, errlen)))
        goto fail;
    if (v < 4 && bl_store_exec(db, schema_v4, err, errlen) != 0)
        goto fail;
    if (v < 5 && migrate_v5(db, path, err, errlen) != 0)
        goto fail;
    if (v < 6 && migrate_v6(db, path, err, errlen) != 0)
        goto fail;
    return bl_store_exec(db, "COMMIT", err, errlen);
fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}
