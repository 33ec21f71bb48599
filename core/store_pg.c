/* The PostgreSQL store: one database (its current schema) a team shares. libpq reads the
 * address as a URL, and also its own ways: PGPASSFILE/.pgpass, PGSERVICE, sslmode; the
 * address in messages never holds the password. The schema is made on first use and
 * migrated forward in one transaction under an advisory lock (meta 'schema' is its
 * version). Here too: what the other store_pg_*.c share (queries, COPY), the reads of one
 * import, and the ops table; an import by steps is store_pg_import.c's. */
#include "store_pg_int.h"
#include "version.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One step a version; the store's version is the number of steps applied. */
static const char *const pg_steps[] = {
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE imports("
    "  id BIGSERIAL PRIMARY KEY,"
    "  source TEXT NOT NULL,"
    "  hash TEXT UNIQUE,"
    "  format TEXT,"
    "  imported_at TEXT NOT NULL);"
    "CREATE TABLE records("
    "  id BIGSERIAL PRIMARY KEY,"
    "  import_id BIGINT NOT NULL REFERENCES imports(id),"
    "  run BIGINT, line BIGINT, tool TEXT, test TEXT,"
    "  json TEXT NOT NULL);"
    "CREATE INDEX records_import ON records(import_id, run, id);"
    "CREATE INDEX records_tool_test ON records(tool, test);"
    "CREATE TABLE runs("
    "  id BIGSERIAL PRIMARY KEY,"
    "  uid TEXT NOT NULL UNIQUE,"
    "  import_id BIGINT NOT NULL REFERENCES imports(id),"
    "  run BIGINT NOT NULL,"
    "  UNIQUE(import_id, run));"
    "INSERT INTO meta VALUES('created_by', 'benchlog " BENCHLOG_VERSION "');",
    /* v2: what a comparison groups and sums, as columns (fold.h, store_pg_fold.c), so that
     * report's grouped query reads no JSON; a shape is unique by its text (through its md5:
     * a long shape would not fit a btree entry). Older records are filled by migrate. */
    "CREATE TABLE shapes(id BIGSERIAL PRIMARY KEY, shape TEXT NOT NULL);"
    "CREATE UNIQUE INDEX shapes_key ON shapes(md5(shape));"
    "ALTER TABLE records ADD COLUMN shape_id BIGINT, ADD COLUMN f_bw FLOAT8,"
    "  ADD COLUMN f_iops FLOAT8, ADD COLUMN f_lat FLOAT8, ADD COLUMN f_p50 FLOAT8,"
    "  ADD COLUMN f_p99 FLOAT8, ADD COLUMN f_p999 FLOAT8, ADD COLUMN f_value FLOAT8,"
    "  ADD COLUMN f_cpu FLOAT8, ADD COLUMN f_flags INT, ADD COLUMN b_bw BIGINT,"
    "  ADD COLUMN b_iops BIGINT, ADD COLUMN b_lat BIGINT, ADD COLUMN b_p50 BIGINT,"
    "  ADD COLUMN b_p99 BIGINT, ADD COLUMN b_p999 BIGINT, ADD COLUMN b_value BIGINT,"
    "  ADD COLUMN b_cpu BIGINT;"
    /* who may read the records may read their shapes (GRANT ... ON ALL TABLES was given
     * before this table was) */
    "DO $$DECLARE g record; BEGIN FOR g IN SELECT DISTINCT grantee FROM "
    "  information_schema.role_table_grants WHERE table_schema = current_schema() AND "
    "  table_name = 'records' AND privilege_type = 'SELECT' AND grantee <> current_user LOOP "
    "  EXECUTE 'GRANT SELECT ON shapes TO ' || CASE WHEN g.grantee = 'PUBLIC' THEN 'PUBLIC' "
    "  ELSE quote_ident(g.grantee) END; END LOOP; END$$;",
    /* v3 (after the fill): the grouped query reads this index, not the records' rows */
    "CREATE INDEX records_fold ON records(shape_id) INCLUDE (import_id, id, run, tool, "
    "test, " BL_PG_FOLD_COLS ");",
};
/* The step after which older records' fold columns are filled. */
#define PG_FOLD_STEP 1
#define PG_SCHEMA ((int)(sizeof pg_steps / sizeof pg_steps[0]))
/* pg_advisory_xact_lock's key for schema changes: "blog" */
#define PG_SCHEMA_LOCK "1651273575"

int bl_pg_fail(bl_store *s, PGresult *res, char *err, size_t errlen)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(s->pg);
    if (!msg || !*msg)
        msg = res ? PQresStatus(PQresultStatus(res)) : "connection lost";
    size_t n = strcspn(msg, "\n");
    snprintf(err, errlen, "%s: %.*s", s->path, (int)n, msg);
    PQclear(res);
    return -1;
}

PGresult *bl_pg_query(bl_store *s, const char *sql, int n, const char *const *params,
                      ExecStatusType want, char *err, size_t errlen)
{
    if (s->walking) { /* libpq would drop the walk's rows unread: refused, loudly */
        snprintf(err, errlen, "%s: a query during a walk of the store (a bug)", s->path);
        return NULL;
    }
    PGresult *res = PQexecParams(s->pg, sql, n, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(res) == want)
        return res;
    bl_pg_fail(s, res, err, errlen);
    return NULL;
}

int bl_pg_exec(bl_store *s, const char *sql, char *err, size_t errlen)
{
    if (s->walking) {
        snprintf(err, errlen, "%s: a query during a walk of the store (a bug)", s->path);
        return -1;
    }
    PGresult *res = PQexec(s->pg, sql); /* the simple protocol: sql may be several commands */
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        return bl_pg_fail(s, res, err, errlen);
    PQclear(res);
    return 0;
}

void bl_pg_rollback(bl_store *s)
{
    PQclear(PQexec(s->pg, "ROLLBACK"));
}

void bl_pg_copy_text(bl_strbuf *sb, const char *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
            bl_strbuf_putc(sb, '\\');
            c = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : c;
        }
        bl_strbuf_putc(sb, c);
    }
}

int bl_pg_copy_begin(bl_store *s, const char *sql, char *err, size_t errlen)
{
    PGresult *res = bl_pg_query(s, sql, 0, NULL, PGRES_COPY_IN, err, errlen);
    PQclear(res);
    return res ? 0 : -1;
}

int bl_pg_copy_put(bl_store *s, bl_strbuf *rows)
{
    int ok = rows->len == 0 || PQputCopyData(s->pg, rows->s, (int)rows->len) == 1;
    bl_strbuf_reset(rows);
    return ok;
}

int bl_pg_copy_end(bl_store *s, int ok, char *err, size_t errlen)
{
    if (PQputCopyEnd(s->pg, ok ? NULL : "benchlog: abandoned") != 1)
        return bl_pg_fail(s, NULL, err, errlen);
    PGresult *res = PQgetResult(s->pg);
    int done = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!done && ok)
        bl_pg_fail(s, res, err, errlen);
    else
        PQclear(res);
    while ((res = PQgetResult(s->pg)))
        PQclear(res);
    return done ? 0 : -1;
}

enum { PG_UNREADABLE = -1, PG_FOREIGN = -2 };

/* The schema version (0: no benchlog tables); PG_FOREIGN with err for a database of another
 * program, PG_UNREADABLE for one that cannot be read. */
static int schema_version(bl_store *s, char *err, size_t errlen)
{
    PGresult *res = bl_pg_query(s,
                                "SELECT to_regclass('meta') IS NOT NULL, "
                                "to_regclass('imports') IS NOT NULL",
                                0, NULL, PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return PG_UNREADABLE;
    int meta = PQgetvalue(res, 0, 0)[0] == 't', imports = PQgetvalue(res, 0, 1)[0] == 't';
    PQclear(res);
    if (!meta && !imports)
        return 0;
    res = meta ? bl_pg_query(s,
                             "SELECT (SELECT value FROM meta WHERE key = 'schema'), "
                             "(SELECT value FROM meta WHERE key = 'created_by')",
                             0, NULL, PGRES_TUPLES_OK, err, errlen)
               : NULL;
    if (meta && !res)
        return PG_UNREADABLE;
    int ours = res && strncmp(PQgetvalue(res, 0, 1), "benchlog", 8) == 0;
    int v = res && !PQgetisnull(res, 0, 0) ? atoi(PQgetvalue(res, 0, 0)) : 0;
    PQclear(res);
    if (!ours || v < 1) {
        snprintf(err, errlen,
                 "%s: tables of another program (imports or meta), not a benchlog store; left "
                 "as they are",
                 s->path);
        return PG_FOREIGN;
    }
    return v;
}

/* Read without the lock while another process's first migration commits, a fresh store was
 * once called another program's (1 writer in 18 of test_many_writers, under load): the two
 * catalog reads and the meta rows are not one view. So that verdict, which refuses the store,
 * is given only when read again under the lock, which every migration holds from before its
 * BEGIN to after its COMMIT. */
static int settled_schema_version(bl_store *s, char *err, size_t errlen)
{
    int v = schema_version(s, err, errlen);
    if (v != PG_FOREIGN)
        return v;
    PGresult *res = bl_pg_query(s, "SELECT pg_advisory_lock(" PG_SCHEMA_LOCK ")", 0, NULL,
                                PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return PG_UNREADABLE;
    PQclear(res);
    v = schema_version(s, err, errlen);
    PQclear(PQexec(s->pg, "SELECT pg_advisory_unlock(" PG_SCHEMA_LOCK ")"));
    return v;
}

/* Brings the schema to PG_SCHEMA in one transaction; another process doing the same
 * waits on the lock and then finds nothing to do. The lock is taken before the
 * transaction begins, so that the transaction's view of the catalog is taken after the
 * other one committed. */
static int migrate(bl_store *s, char *err, size_t errlen)
{
    PGresult *res = bl_pg_query(s, "SELECT pg_advisory_lock(" PG_SCHEMA_LOCK ")", 0, NULL,
                                PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return -1;
    PQclear(res);
    int rc = -1;
    if (bl_pg_exec(s, "BEGIN", err, errlen) != 0)
        goto unlock;
    int v = schema_version(s, err, errlen);
    if (v < 0)
        goto fail;
    for (int from = v; v < PG_SCHEMA; v++) {
        if (bl_pg_exec(s, pg_steps[v], err, errlen) != 0)
            goto fail;
        if (v == PG_FOLD_STEP && from > 0 && bl_pg_fill_fold(s, err, errlen) != 0)
            goto fail;
    }
    char version[16];
    snprintf(version, sizeof version, "%d", PG_SCHEMA);
    const char *params[] = {version};
    res = bl_pg_query(s,
                      "INSERT INTO meta VALUES('schema', $1) "
                      "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                      1, params, PGRES_COMMAND_OK, err, errlen);
    if (!res)
        goto fail;
    PQclear(res);
    rc = bl_pg_exec(s, "COMMIT", err, errlen);
    goto unlock;
fail:
    bl_pg_rollback(s);
unlock:
    PQclear(PQexec(s->pg, "SELECT pg_advisory_unlock(" PG_SCHEMA_LOCK ")"));
    return rc;
}

/* Whether this role owns the records table (ALTER TABLE needs it). */
static int may_alter(bl_store *s)
{
    char err[256];
    PGresult *res = bl_pg_query(s,
                                "SELECT pg_has_role(relowner, 'USAGE') FROM pg_class "
                                "WHERE oid = 'records'::regclass",
                                0, NULL, PGRES_TUPLES_OK, err, sizeof err);
    int may = res && PQntuples(res) == 1 && PQgetvalue(res, 0, 0)[0] == 't';
    PQclear(res);
    return may;
}

static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

bl_store *bl_store_pg_open(const char *url, int mode, char *err, size_t errlen)
{
    char safe[512];
    bl_store_addr_safe(url, safe, sizeof safe);
    const char *keys[] = {"dbname", "fallback_application_name", NULL};
    const char *values[] = {url, "benchlog", NULL};
    PGconn *c = PQconnectdbParams(keys, values, 1);
    bl_store *s = bl_xcalloc(1, sizeof *s);
    s->ops = &bl_store_pg_ops;
    s->path = bl_xstrdup(safe);
    s->pg = c;
    if (PQstatus(c) != CONNECTION_OK) {
        const char *msg = PQerrorMessage(c);
        snprintf(err, errlen, "%s: cannot connect: %.*s", safe, (int)strcspn(msg, "\n"), msg);
        goto fail;
    }
    PQsetNoticeProcessor(c, quiet, NULL);
    int v = settled_schema_version(s, err, errlen);
    if (v < 0)
        goto fail;
    if (v == 0 && !(mode & BL_OPEN_CREATE)) {
        snprintf(err, errlen, "%s: no store there (import or run something first, or --db)", safe);
        goto fail;
    }
    if (v > PG_SCHEMA) {
        snprintf(err, errlen,
                 "%s: store schema version %d is newer than this benchlog's (%d); use a newer "
                 "benchlog",
                 safe, v, PG_SCHEMA);
        goto fail;
    }
    /* a reader who may not alter the tables reads an older store as it is (report walks) */
    s->no_fold = v > 0 && v <= PG_FOLD_STEP && !(mode & BL_OPEN_WRITE) && !may_alter(s);
    if (v < PG_SCHEMA && !s->no_fold && migrate(s, err, errlen) != 0)
        goto fail;
    return s;
fail:
    bl_store_close(s);
    return NULL;
}

static void pg_close(bl_store *s)
{
    PQfinish(s->pg);
}

static int pg_has_legacy_keys(bl_store *s)
{
    char err[256];
    PGresult *res = bl_pg_query(s, "SELECT EXISTS(SELECT 1 FROM imports WHERE length(hash) = 32)",
                                0, NULL, PGRES_TUPLES_OK, err, sizeof err);
    int legacy = res && PQgetvalue(res, 0, 0)[0] == 't';
    PQclear(res);
    return legacy;
}

/* Run IDs of an import, space-separated, in run order; read some thousands at a time, so a
 * million runs are not one result in memory. */
static void pg_run_ids(bl_store *s, int64_t import_id, bl_strbuf *out)
{
    char err[256], id[24], after[24] = "-9223372036854775808";
    if (!out)
        return;
    snprintf(id, sizeof id, "%lld", (long long)import_id);
    for (int n = 0, got = 1; got;) {
        const char *params[] = {id, after};
        PGresult *res = bl_pg_query(s,
                                    "SELECT run, uid FROM runs WHERE import_id = $1 AND run > $2 "
                                    "ORDER BY run LIMIT 8192",
                                    2, params, PGRES_TUPLES_OK, err, sizeof err);
        got = res ? PQntuples(res) : 0;
        for (int i = 0; i < got; i++, n++)
            bl_strbuf_printf(out, "%s%s", n ? " " : "", PQgetvalue(res, i, 1));
        if (got)
            snprintf(after, sizeof after, "%s", PQgetvalue(res, got - 1, 0));
        PQclear(res);
    }
}

static long pg_stored_json(bl_store *s, int64_t import_id, int64_t *after, long limit,
                           bl_json_fn fn, void *ctx, char *err, size_t errlen)
{
    char id[24], from[24], lim[24];
    snprintf(id, sizeof id, "%lld", (long long)import_id);
    snprintf(from, sizeof from, "%lld", (long long)*after);
    snprintf(lim, sizeof lim, "%ld", limit);
    const char *params[] = {id, from, limit < 0 ? NULL : lim};
    PGresult *res = bl_pg_query(s,
                                "SELECT id, json FROM records WHERE import_id = $1 AND id > $2 "
                                "ORDER BY id LIMIT $3",
                                3, params, PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return -1;
    long n = PQntuples(res);
    for (int i = 0; i < n; i++) {
        *after = atoll(PQgetvalue(res, i, 0));
        fn(ctx, PQgetvalue(res, i, 1), (size_t)PQgetlength(res, i, 1), NULL);
    }
    PQclear(res);
    return n;
}

static int pg_import_info(bl_store *s, int64_t import_id, bl_import_info *info, char *err,
                          size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)import_id);
    const char *params[] = {id};
    memset(info, 0, sizeof *info);
    PGresult *res = bl_pg_query(s, "SELECT hash, format, imported_at FROM imports WHERE id = $1", 1,
                                params, PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return -1;
    int found = PQntuples(res) == 1;
    if (found)
        bl_import_info_set(info, PQgetvalue(res, 0, 0), PQgetvalue(res, 0, 1),
                           PQgetvalue(res, 0, 2));
    else
        snprintf(err, errlen, "%s: import %s not found", s->path, id);
    PQclear(res);
    return found ? 0 : -1;
}

const bl_store_ops bl_store_pg_ops = {
    .name = "postgresql",
    .close = pg_close,
    .has_legacy_keys = pg_has_legacy_keys,
    .import_begin = bl_pg_import_begin,
    .import_add = bl_pg_import_add,
    .import_end = bl_pg_import_end,
    .import_once = bl_pg_import_once,
    .import_all = bl_pg_import_all,
    .batch = bl_pg_batch,
    .run_ids = pg_run_ids,
    .stored_json = pg_stored_json,
    .each = bl_store_pg_each,
    .each_run = bl_store_pg_each_run,
    .relabel = bl_store_pg_relabel,
    .del = bl_store_pg_delete,
    .import_info = pg_import_info,
    .fold = bl_store_pg_fold,
};
