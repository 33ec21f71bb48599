/* Small imports on PostgreSQL in few round trips (the ops table's import_once and
 * import_all). The steps (look for the content key, open a savepoint, insert the import,
 * its runs, COPY its records, release) cost seven round trips a file, which made 10,000
 * small files a call wait on the connection. Here one statement does a file: it looks for
 * the content by either key, inserts the import unless found (ON CONFLICT on the unique key:
 * a concurrent import of the same content makes it wait, then insert nothing), and its runs
 * and records from arrays, only when the import row went in. It goes in libpq's pipeline
 * mode behind the savepoint (or BEGIN) that keeps the file all or nothing, the savepoint of
 * the file before released in the same trip (each stays open until the next trip or the
 * batch's end, so a run ID another run holds, 8 hex digits, is fixed after the statement).
 * import_all first sends a batch's files (up to 128) as one such statement behind one
 * savepoint, as per file the server spends more on three statements and a subtransaction
 * than on the rows; when the server refuses it, the savepoint is rolled back and the same
 * files go one statement each, all sent before any result is read: the file at fault
 * fails alone, and those after it, which did nothing, are sent again. A run ID fix that
 * fails after its savepoint was released loses the batch (nothing of it is stored).
 * Records carry their fold columns (store_pg_fold.c): a file's (or a group's) distinct shapes
 * go in the same trip, added by a statement of their own just before the import statement,
 * which then finds each one by its text (a new snapshot: also one another writer added). */
#include "store_pg_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bigger imports go by the steps: COPY moves many records faster than arrays. */
enum { ONCE_MAX_RECORDS = 4096 };

/* The fold columns' arrays (each record's shape among $S, then its fold values), from
 * parameter p on, and their names in unnest's alias and in the records' INSERT. */
static void fold_params(bl_strbuf *sql, int p)
{
    bl_strbuf_printf(sql, ", $%d::bigint[]", p);
    for (int k = 0; k < 8; k++)
        bl_strbuf_printf(sql, ", $%d::float8[]", p + 1 + k);
    bl_strbuf_printf(sql, ", $%d::int[]", p + 9);
    for (int k = 0; k < 8; k++)
        bl_strbuf_printf(sql, ", $%d::bigint[]", p + 10 + k);
}
#define FOLD_NAMES "f1, f2, f3, f4, f5, f6, f7, f8, fl, b1, b2, b3, b4, b5, b6, b7, b8"
/* Each record's shape, number u.si of $S (text[]): every one is there, the statement before
 * added them. One index lookup a record (LATERAL): a join of $S with shapes was planned as a
 * hash join over every stored shape, once a record, so an import slowed with the store. */
#define SHAPES_OF(S)                                                                               \
    " LEFT JOIN LATERAL (SELECT s.id FROM shapes s WHERE md5(s.shape) = md5(($" S                  \
    "::text[])[u.si::int]) AND s.shape = ($" S "::text[])[u.si::int]) sh ON true "

enum { ONCE_NPARAMS = 31, GROUP_NPARAMS = 33 };

static void once_sql(bl_strbuf *sql)
{
    bl_strbuf_puts(
        sql,
        "WITH old AS (SELECT id FROM imports WHERE hash IN ($2::text, $5::text) LIMIT 1), "
        "imp AS (INSERT INTO imports(source, hash, format, imported_at) "
        "  SELECT $1::text, $2::text, $3::text, $4::text WHERE NOT EXISTS (SELECT 1 FROM old) "
        "  ON CONFLICT (hash) DO NOTHING RETURNING id), "
        "run AS (INSERT INTO runs(uid, import_id, run) SELECT u, imp.id, r "
        "  FROM imp, unnest($6::text[], $7::bigint[]) WITH ORDINALITY AS t(u, r, k) ORDER BY k "
        "  ON CONFLICT DO NOTHING RETURNING run), "
        "rec AS (INSERT INTO records(import_id, run, line, tool, test, json, "
        "shape_id, " BL_PG_FOLD_COLS ") SELECT imp.id, r, l, t, e, j, sh.id, " FOLD_NAMES
        " FROM imp, unnest($8::bigint[], "
        "$9::bigint[], $10::text[], $11::text[], $12::text[]");
    fold_params(sql, 13);
    bl_strbuf_puts(sql, ") WITH ORDINALITY AS u(r, l, t, e, j, si, " FOLD_NAMES ", k)" SHAPES_OF(
                            "31") "ORDER BY u.k) "
                                  "SELECT (SELECT id FROM imp), (SELECT id FROM old), (SELECT "
                                  "count(*) FROM run)");
}

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

/* The arrays of a file's statement: runs' IDs and numbers, records' run, line, tool, test,
 * JSON, shape (among the file's), fold values. */
enum { N_ARR = 8 + BL_PG_FOLD_NVALS };

typedef struct run_uid {
    int64_t run;
    char uid[BL_RUN_ID_LEN + 1];
} run_uid;

static int cmp_run(const void *a, const void *b)
{
    return bl_pg_cmp_i64(&((const run_uid *)a)->run, &((const run_uid *)b)->run);
}

/* The statement's array parameters: arr[0..1] the runs' first-choice IDs and numbers,
 * arr[2..6] the records' run, line, tool, test, JSON, arr[7] each one's shape among sh's
 * (from 1), arr[8..] its fold values. uids gets the runs in run order. */
static size_t fill_arrays(const bl_import *im, const bl_records *recs, bl_strbuf arr[N_ARR],
                          const bl_pg_shapes *sh, run_uid **uids)
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
        arr_int(&arr[7], (int64_t)sh->of[i] + 1);
        bl_pg_fold_vals v;
        bl_pg_fold_vals_of(r, &v);
        for (int k = 0; k < BL_PG_FOLD_NVALS; k++)
            arr_text(&arr[8 + k], v.v[k], v.v[k] ? strlen(v.v[k]) : 0);
    }
    bl_strbuf_free(&json);
    for (int i = 0; i < N_ARR; i++)
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

/* One file's part of a trip: its import (seed, time, id), the statement's parameters. */
typedef struct once {
    bl_import *im;
    const bl_content_key *key;
    const bl_records *recs;
    bl_strbuf arr[N_ARR], shapes, sql;
    bl_pg_shapes sh;
    run_uid *uids;
    size_t n_runs;
    const char *params[ONCE_NPARAMS];
    int n_before;
    trip t;
} once;

/* Reads the pipeline's results: n_before commands, the statement, the sync; the last
 * n_soft commands before are the file's own (adding its shapes): their failure is the
 * file's, not the batch's. The first failure's message goes to err. */
static void read_trip(bl_store *s, int n_before, int n_soft, trip *t, char *err, size_t errlen)
{
    PGconn *c = s->pg;
    int failed = 0;
    t->sent_ok = 1;
    for (int q = 0; q < n_before + 1; q++) {
        PGresult *res = PQgetResult(c);
        if (!res) {
            t->connection_lost = 1;
            break;
        }
        ExecStatusType st = PQresultStatus(res);
        int ok = q == n_before ? st == PGRES_TUPLES_OK : st == PGRES_COMMAND_OK;
        if (ok && q == n_before)
            t->row = res, res = NULL;
        if (!ok && q < n_before - n_soft)
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

/* Ready to send: pipeline mode entered. The statements are not prepared: a generic plan
 * made while the tables were empty would keep scanning them whole as they grow. */
static int pipeline_open(bl_store *s, char *err, size_t errlen)
{
    return PQenterPipelineMode(s->pg) ? 0 : bl_pg_fail(s, NULL, err, errlen);
}

/* Sends a file's trip: [RELEASE the savepoint before (release)] SAVEPOINT in a batch, else
 * BEGIN; its shapes added; the statement; a sync. Sets *n_before (the shapes' statement
 * counted); 0, or -1 when the connection failed. */
static int send_one(bl_store *s, const once *o, int release, int *n_before)
{
    PGconn *c = s->pg;
    const char *before[2];
    *n_before = 0;
    if (!s->batch)
        before[(*n_before)++] = "BEGIN";
    else {
        if (release)
            before[(*n_before)++] = "RELEASE SAVEPOINT bl_import";
        before[(*n_before)++] = "SAVEPOINT bl_import";
    }
    int ok = 1;
    for (int i = 0; ok && i < *n_before; i++)
        ok = PQsendQueryParams(c, before[i], 0, NULL, NULL, NULL, NULL, 0);
    const char *shapes[] = {o->params[ONCE_NPARAMS - 1]};
    ok = ok && PQsendQueryParams(c, bl_pg_shapes_add_sql, 1, NULL, shapes, NULL, NULL, 0);
    (*n_before)++;
    ok = ok && PQsendQueryParams(c, o->sql.s, ONCE_NPARAMS, NULL, o->params, NULL, NULL, 0);
    ok = ok && PQpipelineSync(c);
    return ok ? 0 : -1;
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
static int outcome(bl_import *im, const bl_content_key *key, PGresult *row, int r, int c0,
                   size_t n_runs, const run_uid *uids, const bl_records *recs, bl_strbuf *run_ids,
                   char *err, size_t errlen)
{
    bl_store *s = im->s;
    if (!PQgetisnull(row, r, c0)) {
        im->id = atoll(PQgetvalue(row, r, c0));
        if ((size_t)atoll(PQgetvalue(row, r, c0 + 2)) < n_runs)
            return fix_runs(im, PQgetvalue(row, r, c0), recs, run_ids, err, errlen);
        for (size_t i = 0; run_ids && i < n_runs; i++)
            bl_strbuf_printf(run_ids, "%s%s", i ? " " : "", uids[i].uid);
        return 0;
    }
    char id[32];
    if (!PQgetisnull(row, r, c0 + 1))
        snprintf(id, sizeof id, "%s", PQgetvalue(row, r, c0 + 1));
    else if (!key || !bl_pg_find_import(s, key, id, sizeof id)) {
        /* another writer's import of it committed while this one waited, and is gone */
        snprintf(err, errlen, "%s: the import of this content vanished while waiting", s->path);
        return -1;
    }
    im->id = atoll(id);
    im->dup = 1;
    return 1;
}

static void once_init(once *o, bl_import *im, const char *source, const bl_content_key *key,
                      const char *format, const bl_records *recs)
{
    memset(o, 0, sizeof *o);
    o->im = im, o->key = key, o->recs = recs;
    for (int i = 0; i < N_ARR; i++)
        bl_strbuf_init(&o->arr[i]);
    bl_strbuf_init(&o->shapes);
    bl_strbuf_init(&o->sql);
    bl_pg_shapes_of(recs, &o->sh);
    bl_pg_shapes_array(&o->sh, &o->shapes);
    once_sql(&o->sql);
    o->n_runs = fill_arrays(im, recs, o->arr, &o->sh, &o->uids);
    const char *p[12] = {source,
                         key ? key->sha256 : NULL,
                         format ? format : "",
                         im->when,
                         key ? (key->fnv[0] ? key->fnv : key->sha256) : NULL,
                         o->arr[0].s,
                         o->arr[1].s,
                         o->arr[2].s,
                         o->arr[3].s,
                         o->arr[4].s,
                         o->arr[5].s,
                         o->arr[6].s};
    memcpy(o->params, p, sizeof p);
    for (int k = 7; k < N_ARR; k++)
        o->params[5 + k] = o->arr[k].s;
    o->params[ONCE_NPARAMS - 1] = o->shapes.s;
}

static void once_free(once *o)
{
    PQclear(o->t.row);
    for (int i = 0; i < N_ARR; i++)
        bl_strbuf_free(&o->arr[i]);
    bl_strbuf_free(&o->shapes);
    bl_strbuf_free(&o->sql);
    bl_pg_shapes_free(&o->sh);
    free(o->uids);
}

/* 40P01 deadlock, 23505 a unique key another writer took first: commit, then again */
static int is_busy(const trip *t)
{
    return !strcmp(t->state, "40P01") || !strcmp(t->state, "23505");
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
    once o;
    once_init(&o, im, source, key, format, recs);
    int rc = -1, release = s->pg_savepoint;
    s->pg_savepoint = 0;
    if (pipeline_open(s, err, errlen) == 0) {
        if (send_one(s, &o, release, &o.n_before) == 0)
            read_trip(s, o.n_before, 1, &o.t, err, errlen);
        else
            o.t.connection_lost = 1, bl_pg_fail(s, NULL, err, errlen);
        PQexitPipelineMode(s->pg);
        if (o.t.row)
            rc = outcome(im, key, o.t.row, 0, 0, o.n_runs, o.uids, recs, run_ids, err, errlen);
    }
    if (s->batch && (!o.t.sent_ok || o.t.connection_lost))
        s->batch_lost = 1; /* the savepoint itself failed: the batch's transaction is gone */
    else if (rc < 0)
        undo(s);
    else if (s->batch)
        s->pg_savepoint = 1;
    else if (bl_pg_exec(s, "COMMIT", err, errlen) != 0)
        rc = -1;
    if (rc < 0 && s->batch && is_busy(&o.t))
        s->busy = 1;
    once_free(&o);
    return rc;
}

static bl_import *job_import(bl_store *s, const bl_import_job *j)
{
    bl_import *im = bl_xcalloc(1, sizeof *im);
    im->s = s;
    im->same = 1;
    bl_store_now_iso(im->when, sizeof im->when);
    bl_store_seed(&im->seed, j->source, j->key);
    return im;
}

/* A trip's worth of files at most: their results are read after all are sent. */
enum { ALL_MAX_FILES = 128 };

/* The files of jobs[0..n) sent in one trip, each behind its savepoint (the next one's
 * trip releases it), then their results read. A failure aborts the batch's transaction
 * until its savepoint is rolled back: the files after it, sent already, did nothing and
 * are left to the caller. Returns how many are done; k-th's failure is the last. */
static size_t send_all(bl_store *s, bl_import_job *jobs, once *o, size_t n)
{
    size_t k = n; /* the first that failed */
    int release = s->pg_savepoint, sent = 1;
    s->pg_savepoint = 0;
    if (pipeline_open(s, jobs[0].err, sizeof jobs[0].err) != 0) {
        s->batch_lost = 1;
        return 0;
    }
    for (size_t i = 0; sent && i < n; i++)
        sent = send_one(s, &o[i], release || i > 0, &o[i].n_before) == 0;
    for (size_t i = 0; sent && i < n; i++) {
        read_trip(s, o[i].n_before, 1, &o[i].t, jobs[i].err, sizeof jobs[i].err);
        if (!o[i].t.row && k == n)
            k = i;
        if (o[i].t.connection_lost)
            sent = 0;
    }
    PQexitPipelineMode(s->pg);
    if (!sent) { /* the connection went: nothing of the batch is left */
        if (k == n)
            k = 0, bl_pg_fail(s, NULL, jobs[0].err, sizeof jobs[0].err);
        s->batch_lost = 1;
    } else if (k < n && !o[k].t.sent_ok) {
        s->batch_lost = 1; /* its RELEASE or SAVEPOINT failed: the transaction is gone */
    } else if (k < n) {
        undo(s);
        jobs[k].busy = is_busy(&o[k].t);
    } else {
        s->pg_savepoint = 1;
    }
    if (k < n)
        jobs[k].rc = BL_IMPORT_FAILED;
    for (size_t i = k + 1; i < n; i++)
        jobs[i].err[0] = '\0';
    return k < n ? k + 1 : n;
}

/* Many files in one statement, the first try for a trip's worth: one savepoint and one
 * statement for all, where each file would cost three statements and a subtransaction.
 * A file is left out by the statement when its content is stored (as once_sql). */
static void group_sql(bl_strbuf *sql)
{
    bl_strbuf_puts(
        sql,
        "WITH f AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) "
        "  WITH ORDINALITY AS f(source, hash, legacy, at, i)), "
        "old AS (SELECT f.i, (SELECT id FROM imports WHERE hash IN (f.hash, f.legacy) LIMIT 1) "
        "  AS id FROM f), "
        "imp AS (INSERT INTO imports(source, hash, format, imported_at) "
        "  SELECT f.source, f.hash, $5::text, f.at FROM f JOIN old USING (i) WHERE old.id IS NULL "
        "  ORDER BY f.i ON CONFLICT (hash) DO NOTHING RETURNING id, hash), "
        "fi AS (SELECT f.i, imp.id FROM f JOIN imp ON imp.hash = f.hash), "
        "run AS (INSERT INTO runs(uid, import_id, run) SELECT u, fi.id, r "
        "  FROM unnest($6::text[], $7::bigint[], $8::bigint[]) WITH ORDINALITY AS t(u, r, x, k) "
        "  JOIN fi ON fi.i = t.x ORDER BY k ON CONFLICT DO NOTHING RETURNING import_id), "
        "rec AS (INSERT INTO records(import_id, run, line, tool, test, json, "
        "shape_id, " BL_PG_FOLD_COLS ") SELECT fi.id, r, l, t, e, j, sh.id, " FOLD_NAMES
        " FROM unnest($9::bigint[], "
        "$10::bigint[], $11::text[], $12::text[], $13::text[], $14::bigint[]");
    fold_params(sql, 15);
    bl_strbuf_puts(
        sql, ") WITH ORDINALITY AS u(r, l, t, e, j, x, si, " FOLD_NAMES
             ", k) JOIN fi ON fi.i = u.x" SHAPES_OF(
                 "33") "ORDER BY u.k) "
                       "SELECT f.i, fi.id, old.id, (SELECT count(*) FROM run WHERE run.import_id "
                       "= fi.id) FROM f JOIN old USING (i) LEFT JOIN fi USING (i) ORDER BY f.i");
}

/* The elements of a file's array literal (a[] of once) appended to the group's. */
static void arr_join(bl_strbuf *sb, const bl_strbuf *a)
{
    if (a->len <= 2) /* {} */
        return;
    bl_strbuf_putc(sb, sb->len ? ',' : '{');
    bl_strbuf_putn(sb, a->s + 1, a->len - 2);
}

/* How many of the first files go in one statement: those with a content key, no two
 * alike (the statement joins a file's rows to its import by the key), of one format. */
static size_t group_size(const once *o, size_t m)
{
    size_t g = 0;
    for (; g < m && o[g].key && !strcmp(o[g].params[2], o[0].params[2]); g++)
        for (size_t i = 0; i < g; i++)
            if (!strcmp(o[i].key->sha256, o[g].key->sha256))
                return g;
    return g;
}

/* The files of o[0..g) in one statement behind one savepoint: the result rows (file i's row
 * i: its number, new import's id, stored one's, runs inserted), or NULL when it failed and
 * was undone (the files go one by one then) or the batch is lost. */
static PGresult *send_group(bl_store *s, once *o, size_t g, const char *format, char *err,
                            size_t errlen)
{
    bl_strbuf a[GROUP_NPARAMS], sql;
    for (int k = 0; k < GROUP_NPARAMS; k++)
        bl_strbuf_init(&a[k]);
    bl_strbuf_init(&sql);
    group_sql(&sql);
    size_t n_shapes = 0; /* of the files before: file i's shape j is n_shapes + j */
    for (size_t i = 0; i < g; i++) {
        const bl_content_key *key = o[i].key;
        arr_text(&a[0], o[i].params[0], strlen(o[i].params[0]));
        arr_text(&a[1], key->sha256, strlen(key->sha256));
        const char *legacy = key->fnv[0] ? key->fnv : key->sha256;
        arr_text(&a[2], legacy, strlen(legacy));
        arr_text(&a[3], o[i].im->when, strlen(o[i].im->when));
        arr_join(&a[5], &o[i].arr[0]);
        arr_join(&a[6], &o[i].arr[1]);
        for (size_t r = 0; r < o[i].n_runs; r++)
            arr_int(&a[7], (int64_t)i + 1);
        for (int k = 2; k < 7; k++)
            arr_join(&a[6 + k], &o[i].arr[k]);
        for (size_t r = 0; r < o[i].recs->n; r++) {
            arr_int(&a[13], (int64_t)i + 1);
            arr_int(&a[14], (int64_t)(n_shapes + o[i].sh.of[r]) + 1);
        }
        for (int k = 0; k < BL_PG_FOLD_NVALS; k++)
            arr_join(&a[15 + k], &o[i].arr[8 + k]);
        arr_join(&a[GROUP_NPARAMS - 1], &o[i].shapes);
        n_shapes += o[i].sh.n;
    }
    for (int k = 0; k < GROUP_NPARAMS; k++)
        if (k != 4)
            arr_end(&a[k]);
    const char *params[GROUP_NPARAMS];
    for (int k = 0; k < GROUP_NPARAMS; k++)
        params[k] = a[k].s;
    params[4] = format ? format : "";
    PGresult *row = NULL;
    trip t = {0};
    int release = s->pg_savepoint;
    s->pg_savepoint = 0;
    if (pipeline_open(s, err, errlen) == 0) {
        int ok = 1;
        if (release)
            ok = PQsendQueryParams(s->pg, "RELEASE SAVEPOINT bl_import", 0, NULL, NULL, NULL, NULL,
                                   0);
        ok = ok && PQsendQueryParams(s->pg, "SAVEPOINT bl_import", 0, NULL, NULL, NULL, NULL, 0);
        const char *shapes[] = {params[GROUP_NPARAMS - 1]};
        ok = ok && PQsendQueryParams(s->pg, bl_pg_shapes_add_sql, 1, NULL, shapes, NULL, NULL, 0);
        ok = ok && PQsendQueryParams(s->pg, sql.s, GROUP_NPARAMS, NULL, params, NULL, NULL, 0);
        ok = ok && PQpipelineSync(s->pg);
        if (ok)
            read_trip(s, release + 2, 1, &t, err, errlen);
        else
            t.connection_lost = 1;
        PQexitPipelineMode(s->pg);
        row = t.row;
    }
    for (int k = 0; k < GROUP_NPARAMS; k++)
        bl_strbuf_free(&a[k]);
    bl_strbuf_free(&sql);
    if (row && PQntuples(row) == (int)g) {
        s->pg_savepoint = 1;
        return row;
    }
    PQclear(row);
    if (!t.sent_ok || t.connection_lost)
        s->batch_lost = 1;
    else
        undo(s);
    return NULL;
}

/* The files' verdicts from the result rows: o[i]'s own (group NULL), or the group's. */
static void verdicts(bl_store *s, bl_import_job *jobs, once *o, size_t done, PGresult *group)
{
    for (size_t i = 0; i < done; i++) {
        PGresult *row = group ? group : o[i].t.row;
        int r = group ? (int)i : 0, c0 = group ? 1 : 0;
        if (!row || s->batch_lost) {
            jobs[i].rc = BL_IMPORT_FAILED;
            if (!jobs[i].err[0])
                snprintf(jobs[i].err, sizeof jobs[i].err,
                         "%s: the batch was rolled back by an earlier failure", s->path);
            continue;
        }
        int rc = outcome(o[i].im, o[i].key, row, r, c0, o[i].n_runs, o[i].uids, o[i].recs,
                         &jobs[i].ids, jobs[i].err, sizeof jobs[i].err);
        if (rc < 0 && !PQgetisnull(row, r, c0))
            s->batch_lost = 1; /* its run IDs' fix failed after its savepoint was released */
        jobs[i].rc = rc == 0 ? BL_IMPORT_DONE : BL_IMPORT_FAILED;
        if (rc == 1)
            jobs[i].dup_id = o[i].im->id, jobs[i].rc = BL_IMPORT_DONE;
    }
}

size_t bl_pg_import_all(bl_store *s, bl_import_job *jobs, size_t n)
{
    if (s->walking || s->batch_lost)
        return 0; /* bl_store_import says why */
    size_t m = 0;
    while (m < n && m < ALL_MAX_FILES && jobs[m].recs->n <= ONCE_MAX_RECORDS)
        m++;
    if (m == 0)
        return 0;
    once *o = bl_xcalloc(m, sizeof *o);
    for (size_t i = 0; i < m; i++)
        once_init(&o[i], job_import(s, &jobs[i]), jobs[i].source, jobs[i].key, jobs[i].format,
                  jobs[i].recs);
    size_t g = group_size(o, m), done;
    PGresult *group =
        g > 1 ? send_group(s, o, g, jobs[0].format, jobs[0].err, sizeof jobs[0].err) : NULL;
    if (group) {
        done = g;
    } else if (s->batch_lost) {
        done = 1;
    } else {
        jobs[0].err[0] = '\0';
        done = send_all(s, jobs, o, m);
    }
    verdicts(s, jobs, o, done, group);
    PQclear(group);
    for (size_t i = 0; i < m; i++) {
        bl_strbuf_free(&o[i].im->seed);
        free(o[i].im);
        once_free(&o[i]);
    }
    free(o);
    return done;
}
