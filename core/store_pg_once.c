/* A small import on PostgreSQL in one round trip (the ops table's import_once). The steps
 * (look for the content key, open a savepoint, insert the import, its runs, COPY its
 * records, release) cost seven round trips a file, which made 10,000 small files a call
 * wait on the connection, not on the server. Here one statement does it all: it looks for
 * the content by either key, inserts the import unless found (ON CONFLICT on the unique key:
 * a concurrent import of the same content makes it wait, then insert nothing), and its runs
 * and records from arrays, only when the import row went in. It goes in libpq's pipeline
 * mode behind the savepoint (or BEGIN) that keeps the file all or nothing, and the savepoint
 * of the file before is released in the same trip: each savepoint stays open until the next
 * file's trip (or the batch's end), so a run ID taken by another run (8 hex digits, rare)
 * is fixed after the statement and the file can still be undone alone. */
#include "store_pg_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bigger imports go by the steps: COPY moves many records faster than arrays. */
enum { ONCE_MAX_RECORDS = 4096 };

static const char once_sql[] =
    "WITH old AS (SELECT id FROM imports WHERE hash IN ($2::text, $5::text) LIMIT 1), "
    "imp AS (INSERT INTO imports(source, hash, format, imported_at) "
    "  SELECT $1::text, $2::text, $3::text, $4::text WHERE NOT EXISTS (SELECT 1 FROM old) "
    "  ON CONFLICT (hash) DO NOTHING RETURNING id), "
    "run AS (INSERT INTO runs(uid, import_id, run) SELECT u, imp.id, r "
    "  FROM imp, unnest($6::text[], $7::bigint[]) WITH ORDINALITY AS t(u, r, k) ORDER BY k "
    "  ON CONFLICT DO NOTHING RETURNING run), "
    "rec AS (INSERT INTO records(import_id, run, line, tool, test, json) "
    "  SELECT imp.id, r, l, t, e, j FROM imp, unnest($8::bigint[], $9::bigint[], $10::text[], "
    "  $11::text[], $12::text[]) WITH ORDINALITY AS u(r, l, t, e, j, k) ORDER BY k) "
    "SELECT (SELECT id FROM imp), (SELECT id FROM old), (SELECT count(*) FROM run)";

/* An element of an array literal: NULL, or v quoted with its quotes and backslashes escaped. */
static void arr_text(bl_strbuf *sb, const char *v, size_t n)
{
    bl_strbuf_putc(sb, sb->len ? ',' : '{');
    if (!v) {
        bl_strbuf_puts(sb, "NULL");
        return;
    }
    bl_strbuf_putc(sb, '"');
    for (size_t i = 0; i < n; i++) {
        if (v[i] == '"' || v[i] == '\\')
            bl_strbuf_putc(sb, '\\');
        bl_strbuf_putc(sb, v[i]);
    }
    bl_strbuf_putc(sb, '"');
}

static void arr_int(bl_strbuf *sb, int64_t v)
{
    bl_strbuf_printf(sb, "%c%lld", sb->len ? ',' : '{', (long long)v);
}

static void arr_end(bl_strbuf *sb)
{
    bl_strbuf_puts(sb, sb->len ? "}" : "{}");
}

typedef struct run_uid {
    int64_t run;
    char uid[BL_RUN_ID_LEN + 1];
} run_uid;

static int cmp_run(const void *a, const void *b)
{
    return bl_pg_cmp_i64(&((const run_uid *)a)->run, &((const run_uid *)b)->run);
}

/* The statement's array parameters: arr[0..1] the runs' first-choice IDs and numbers,
 * arr[2..6] the records' run, line, tool, test, JSON. uids gets the runs in run order. */
static size_t fill_arrays(const bl_import *im, const bl_records *recs, bl_strbuf arr[7],
                          run_uid **uids)
{
    size_t n_runs;
    int64_t *runs = bl_pg_distinct_runs(recs, &n_runs);
    *uids = bl_xcalloc(n_runs + 1, sizeof **uids);
    for (size_t i = 0; i < n_runs; i++) {
        (*uids)[i].run = runs[i];
        bl_store_run_uid(im->seed.s, runs[i], 0, (*uids)[i].uid);
        arr_text(&arr[0], (*uids)[i].uid, BL_RUN_ID_LEN);
        arr_int(&arr[1], runs[i]);
    }
    free(runs);
    qsort(*uids, n_runs, sizeof **uids, cmp_run);
    bl_strbuf json;
    bl_strbuf_init(&json);
    for (size_t i = 0; i < recs->n; i++) {
        const bl_record *r = recs->v[i];
        bl_strbuf_reset(&json);
        bl_store_record_json(r, im->when, &json);
        arr_int(&arr[2], r->run);
        arr_int(&arr[3], r->line);
        arr_text(&arr[4], r->tool, r->tool ? strlen(r->tool) : 0);
        arr_text(&arr[5], r->test, r->test ? strlen(r->test) : 0);
        arr_text(&arr[6], json.s, json.len);
    }
    bl_strbuf_free(&json);
    for (int i = 0; i < 7; i++)
        arr_end(&arr[i]);
    return n_runs;
}

/* What one trip gave: the statement's row (imp id, old id, runs inserted) or its failure. */
typedef struct trip {
    int sent_ok;         /* every command before the statement succeeded */
    PGresult *row;       /* the statement's result, when it succeeded */
    char state[6];       /* its SQLSTATE when it failed */
    int connection_lost; /* the trip could not be read to its end */
} trip;

/* Reads the pipeline's results: n_before commands, the statement, n_after commands, the
 * sync. The first failure's message goes to err. */
static void read_trip(bl_store *s, int n_before, int n_after, trip *t, char *err, size_t errlen)
{
    PGconn *c = s->pg;
    int failed = 0;
    t->sent_ok = 1;
    for (int q = 0; q < n_before + 1 + n_after; q++) {
        PGresult *res = PQgetResult(c);
        if (!res) {
            t->connection_lost = 1;
            break;
        }
        ExecStatusType st = PQresultStatus(res);
        int ok = q == n_before ? st == PGRES_TUPLES_OK : st == PGRES_COMMAND_OK;
        if (ok && q == n_before)
            t->row = res, res = NULL;
        if (!ok && q < n_before)
            t->sent_ok = 0;
        if (!ok && st != PGRES_PIPELINE_ABORTED && !failed++) {
            const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
            snprintf(t->state, sizeof t->state, "%s", state ? state : "");
            bl_pg_fail(s, res, err, errlen);
            res = NULL;
        }
        PQclear(res);
        while ((res = PQgetResult(c))) /* the NULL after each command's results */
            PQclear(res);
    }
    PGresult *res = t->connection_lost ? NULL : PQgetResult(c);
    if (PQresultStatus(res) != PGRES_PIPELINE_SYNC)
        t->connection_lost = 1;
    PQclear(res);
    if (t->connection_lost && !failed)
        bl_pg_fail(s, NULL, err, errlen);
}

/* Sends [RELEASE the savepoint before] SAVEPOINT (in a batch) or BEGIN, the statement, and
 * a sync, in one trip; -1 with err when it could not be sent. */
static int send_trip(bl_store *s, const char *const params[12], int *n_before, char *err,
                     size_t errlen)
{
    PGconn *c = s->pg;
    const char *before[2];
    *n_before = 0;
    if (!s->batch)
        before[(*n_before)++] = "BEGIN";
    else {
        if (s->pg_savepoint)
            before[(*n_before)++] = "RELEASE SAVEPOINT bl_import";
        before[(*n_before)++] = "SAVEPOINT bl_import";
    }
    s->pg_savepoint = 0;
    if (!s->pg_prepared) { /* parsed and planned once a connection */
        PGresult *res = PQprepare(c, "bl_import_once", once_sql, 12, NULL);
        if (PQresultStatus(res) != PGRES_COMMAND_OK)
            return bl_pg_fail(s, res, err, errlen);
        PQclear(res);
        s->pg_prepared = 1;
    }
    if (!PQenterPipelineMode(c))
        return bl_pg_fail(s, NULL, err, errlen);
    int ok = 1;
    for (int i = 0; ok && i < *n_before; i++)
        ok = PQsendQueryParams(c, before[i], 0, NULL, NULL, NULL, NULL, 0);
    ok = ok && PQsendQueryPrepared(c, "bl_import_once", 12, params, NULL, NULL, 0);
    ok = ok && PQpipelineSync(c);
    if (!ok) {
        bl_pg_fail(s, NULL, err, errlen);
        PQexitPipelineMode(c);
        return -1;
    }
    return 0;
}

/* Undoes the file (its savepoint, or its transaction). */
static void undo(bl_store *s)
{
    char ignored[256];
    if (!s->batch)
        bl_pg_rollback(s);
    else if (bl_pg_exec(s, "ROLLBACK TO SAVEPOINT bl_import; RELEASE SAVEPOINT bl_import", ignored,
                        sizeof ignored) != 0)
        s->batch_lost = 1;
}

/* The rare end of a new import whose statement left runs without their ID (a window another
 * run holds): the steps' rounds give them the next ones, then the IDs are read back. */
static int fix_runs(bl_import *im, const char *id, const bl_records *recs, bl_strbuf *run_ids,
                    char *err, size_t errlen)
{
    if (bl_pg_insert_runs(im->s, id, recs, im->seed.s, 1, err, errlen) != 0)
        return -1;
    if (run_ids)
        im->s->ops->run_ids(im->s, im->id, run_ids);
    return 0;
}

/* The statement's outcome once it ran: 0 stored, 1 a duplicate (im->id), -1 with err. */
static int outcome(bl_import *im, const bl_content_key *key, PGresult *row, size_t n_runs,
                   const run_uid *uids, const bl_records *recs, bl_strbuf *run_ids, char *err,
                   size_t errlen)
{
    bl_store *s = im->s;
    if (!PQgetisnull(row, 0, 0)) {
        im->id = atoll(PQgetvalue(row, 0, 0));
        if ((size_t)atoll(PQgetvalue(row, 0, 2)) < n_runs)
            return fix_runs(im, PQgetvalue(row, 0, 0), recs, run_ids, err, errlen);
        for (size_t i = 0; run_ids && i < n_runs; i++)
            bl_strbuf_printf(run_ids, "%s%s", i ? " " : "", uids[i].uid);
        return 0;
    }
    char id[32];
    if (!PQgetisnull(row, 0, 1))
        snprintf(id, sizeof id, "%s", PQgetvalue(row, 0, 1));
    else if (!key || !bl_pg_find_import(s, key, id, sizeof id)) {
        /* another writer's import of it committed while this one waited, and is gone */
        snprintf(err, errlen, "%s: the import of this content vanished while waiting", s->path);
        return -1;
    }
    im->id = atoll(id);
    im->dup = 1;
    return 1;
}

int bl_pg_import_once(bl_import *im, const char *source, const bl_content_key *key,
                      const char *format, const bl_records *recs, bl_strbuf *run_ids, char *err,
                      size_t errlen)
{
    bl_store *s = im->s;
    if (recs->n > ONCE_MAX_RECORDS || s->walking)
        return 2; /* the steps do it (and refuse a query during a walk) */
    if (s->batch && s->batch_lost) {
        snprintf(err, errlen, "%s: the batch was rolled back by an earlier failure", s->path);
        return -1;
    }
    bl_strbuf arr[7];
    for (int i = 0; i < 7; i++)
        bl_strbuf_init(&arr[i]);
    run_uid *uids;
    size_t n_runs = fill_arrays(im, recs, arr, &uids);
    const char *params[12] = {source,
                              key ? key->sha256 : NULL,
                              format ? format : "",
                              im->when,
                              key ? (key->fnv[0] ? key->fnv : key->sha256) : NULL,
                              arr[0].s,
                              arr[1].s,
                              arr[2].s,
                              arr[3].s,
                              arr[4].s,
                              arr[5].s,
                              arr[6].s};
    int n_before, rc = -1;
    trip t = {0};
    if (send_trip(s, params, &n_before, err, errlen) == 0) {
        read_trip(s, n_before, 0, &t, err, errlen);
        PQexitPipelineMode(s->pg);
        if (t.row)
            rc = outcome(im, key, t.row, n_runs, uids, recs, run_ids, err, errlen);
    }
    PQclear(t.row);
    for (int i = 0; i < 7; i++)
        bl_strbuf_free(&arr[i]);
    free(uids);
    if (s->batch && (!t.sent_ok || t.connection_lost))
        s->batch_lost = 1; /* the savepoint itself failed: the batch's transaction is gone */
    else if (rc < 0)
        undo(s);
    else if (s->batch)
        s->pg_savepoint = 1;
    else if (bl_pg_exec(s, "COMMIT", err, errlen) != 0)
        rc = -1;
    /* 40P01 deadlock, 23505 a unique key another writer took first: commit, then again */
    if (rc < 0 && s->batch && (!strcmp(t.state, "40P01") || !strcmp(t.state, "23505")))
        s->busy = 1;
    return rc;
}
