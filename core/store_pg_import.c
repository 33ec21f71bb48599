/* An import into the PostgreSQL store by steps (the ops table's import_begin, import_add,
 * import_end and batch), and what store_pg_once.c shares of it: the look for a stored
 * content and the runs' IDs. A source's content key is UNIQUE: two hosts importing it at the
 * same moment store it once (INSERT ... ON CONFLICT waits for the other transaction, then
 * skips). Records go in with COPY inside the import's transaction: a killed writer leaves
 * nothing. */
#include "store_pg_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bl_pg_find_import(bl_store *s, const bl_content_key *key, char *id, size_t idlen)
{
    char err[256];
    const char *params[] = {key->sha256, key->fnv[0] ? key->fnv : key->sha256};
    PGresult *res = bl_pg_query(s, "SELECT id FROM imports WHERE hash IN ($1, $2) LIMIT 1", 2,
                                params, PGRES_TUPLES_OK, err, sizeof err);
    int found = res && PQntuples(res) > 0;
    if (found)
        snprintf(id, idlen, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    return found;
}

int bl_pg_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int64_t *bl_pg_distinct_runs(const bl_records *recs, size_t *n)
{
    int64_t *seen = bl_xcalloc(recs->n ? recs->n : 1, sizeof *seen);
    int64_t *order = bl_xcalloc(recs->n ? recs->n : 1, sizeof *order);
    size_t n_seen = 0;
    *n = 0;
    for (size_t i = 0; i < recs->n; i++) {
        int64_t run = recs->v[i]->run;
        if (i > 0 && recs->v[i - 1]->run == run)
            continue;
        if (n_seen && bsearch(&run, seen, n_seen, sizeof *seen, bl_pg_cmp_i64))
            continue;
        order[(*n)++] = run;
        /* kept sorted by insertion: runs arrive mostly in order, so this moves little */
        size_t k = n_seen++;
        while (k > 0 && seen[k - 1] > run) {
            seen[k] = seen[k - 1];
            k--;
        }
        seen[k] = run;
    }
    free(seen);
    return order;
}

/* Leaves out of pending[*n] the runs an earlier batch of the import stored. */
static int drop_known_runs(bl_store *s, const char *import_id, int64_t *pending, size_t *n,
                           bl_strbuf *nums, char *err, size_t errlen)
{
    bl_strbuf_reset(nums);
    for (size_t i = 0; i < *n; i++)
        bl_strbuf_printf(nums, "%s%lld", i ? "," : "{", (long long)pending[i]);
    bl_strbuf_putc(nums, '}');
    const char *params[] = {import_id, nums->s};
    PGresult *res = bl_pg_query(s,
                                "SELECT run FROM runs WHERE import_id = $1 AND "
                                "run = ANY($2::bigint[]) ORDER BY run",
                                2, params, PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return -1;
    size_t n_known = (size_t)PQntuples(res);
    int64_t *known = bl_xcalloc(n_known + 1, sizeof *known);
    for (size_t i = 0; i < n_known; i++)
        known[i] = atoll(PQgetvalue(res, (int)i, 0));
    PQclear(res);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (!bsearch(&pending[i], known, n_known, sizeof *known, bl_pg_cmp_i64))
            pending[k++] = pending[i];
    *n = k;
    free(known);
    return 0;
}

int bl_pg_insert_runs(bl_store *s, const char *import_id, const bl_records *recs, const char *seed,
                      int later, char *err, size_t errlen)
{
    size_t n;
    int64_t *pending = bl_pg_distinct_runs(recs, &n);
    bl_strbuf uids, nums;
    bl_strbuf_init(&uids);
    bl_strbuf_init(&nums);
    int rc = later ? drop_known_runs(s, import_id, pending, &n, &nums, err, errlen) : 0;
    for (int round = 0; n > 0 && rc == 0; round++) {
        if (round == 64) {
            snprintf(err, errlen, "%s: no free run ID for %zu runs", s->path, n);
            rc = -1;
            break;
        }
        bl_strbuf_reset(&uids);
        bl_strbuf_reset(&nums);
        for (size_t i = 0; i < n; i++) {
            char uid[BL_RUN_ID_LEN + 1];
            bl_store_run_uid(seed, pending[i], round, uid);
            bl_strbuf_printf(&uids, "%s%s", i ? "," : "{", uid);
            bl_strbuf_printf(&nums, "%s%lld", i ? "," : "{", (long long)pending[i]);
        }
        bl_strbuf_putc(&uids, '}');
        bl_strbuf_putc(&nums, '}');
        const char *params[] = {uids.s, import_id, nums.s};
        PGresult *res = bl_pg_query(s,
                                    "INSERT INTO runs(uid, import_id, run) SELECT u, $2, r "
                                    "FROM unnest($1::text[], $3::bigint[]) WITH ORDINALITY "
                                    "AS t(u, r, k) ORDER BY k ON CONFLICT DO NOTHING RETURNING run",
                                    3, params, PGRES_TUPLES_OK, err, errlen);
        if (!res) {
            rc = -1;
            break;
        }
        /* the runs that got their ID leave the list */
        size_t n_done = (size_t)PQntuples(res);
        int64_t *done = bl_xcalloc(n_done + 1, sizeof *done);
        for (size_t i = 0; i < n_done; i++)
            done[i] = atoll(PQgetvalue(res, (int)i, 0));
        qsort(done, n_done, sizeof *done, bl_pg_cmp_i64);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (!bsearch(&pending[i], done, n_done, sizeof *done, bl_pg_cmp_i64))
                pending[k++] = pending[i];
        n = k;
        free(done);
        PQclear(res);
    }
    bl_strbuf_free(&uids);
    bl_strbuf_free(&nums);
    free(pending);
    return rc;
}

static void copy_str(bl_strbuf *sb, const char *v)
{
    if (v)
        bl_pg_copy_text(sb, v, strlen(v));
    else
        bl_strbuf_puts(sb, "\\N");
}

static int copy_records(bl_store *s, const char *import_id, const bl_records *recs,
                        const char *imported_at, char *err, size_t errlen)
{
    bl_pg_shapes sh;
    bl_pg_shapes_of(recs, &sh);
    if (bl_pg_shape_ids(s, &sh, err, errlen) != 0 ||
        bl_pg_copy_begin(
            s,
            "COPY records(import_id, run, line, tool, test, json, shape_id, " BL_PG_FOLD_COLS
            ") FROM STDIN",
            err, errlen) != 0) {
        bl_pg_shapes_free(&sh);
        return -1;
    }
    bl_strbuf line, json;
    bl_strbuf_init(&line);
    bl_strbuf_init(&json);
    int ok = 1;
    for (size_t i = 0; ok && i < recs->n; i++) {
        const bl_record *r = recs->v[i];
        bl_strbuf_reset(&json);
        bl_store_record_json(r, imported_at, &json);
        bl_strbuf_printf(&line, "%s\t%lld\t%lld\t", import_id, (long long)r->run,
                         (long long)r->line);
        copy_str(&line, r->tool);
        bl_strbuf_putc(&line, '\t');
        copy_str(&line, r->test);
        bl_strbuf_putc(&line, '\t');
        bl_pg_copy_text(&line, json.s, json.len);
        bl_strbuf_printf(&line, "\t%lld", (long long)sh.id[sh.of[i]]);
        bl_pg_fold_vals v;
        bl_pg_fold_vals_of(r, &v);
        for (int k = 0; k < BL_PG_FOLD_NVALS; k++) {
            bl_strbuf_putc(&line, '\t');
            copy_str(&line, v.v[k]);
        }
        bl_strbuf_putc(&line, '\n');
        if (line.len >= 65536 || i + 1 == recs->n)
            ok = bl_pg_copy_put(s, &line);
    }
    bl_strbuf_free(&line);
    bl_strbuf_free(&json);
    bl_pg_shapes_free(&sh);
    return bl_pg_copy_end(s, ok, err, errlen);
}

/* An import that failed undone: its transaction, or inside a batch its savepoint (the
 * batch is lost when even that fails: the connection went). */
static void undo_import(bl_store *s)
{
    if (!s->batch) {
        bl_pg_rollback(s);
        return;
    }
    char err[256];
    if (bl_pg_exec(s, "ROLLBACK TO SAVEPOINT bl_import; RELEASE SAVEPOINT bl_import", err,
                   sizeof err) != 0)
        s->batch_lost = 1;
}

/* The new import's row; 1 when inserted, 0 when the content is stored already (a concurrent
 * writer committed it meanwhile), -1 with err. A deadlock with another writer's batch marks
 * the store busy: the caller commits its batch and imports again. */
static int insert_import(bl_import *im, const char *source, const bl_content_key *key,
                         const char *format, char *err, size_t errlen)
{
    bl_store *s = im->s;
    const char *params[] = {source, key ? key->sha256 : NULL, format ? format : "", im->when};
    PGresult *res = PQexecParams(s->pg,
                                 "INSERT INTO imports(source, hash, format, imported_at) "
                                 "VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING "
                                 "RETURNING id",
                                 4, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
        /* 40P01 deadlock, 23505 a unique key another writer took first */
        if (s->batch && state && (!strcmp(state, "40P01") || !strcmp(state, "23505")))
            s->busy = 1;
        return bl_pg_fail(s, res, err, errlen);
    }
    int fresh = PQntuples(res) > 0;
    if (fresh)
        im->id = atoll(PQgetvalue(res, 0, 0));
    PQclear(res);
    return fresh;
}

/* A duplicate is looked for before the transaction (or the batch's savepoint); the unique
 * key then decides: a concurrent import of the same content makes this one wait, and when
 * it commits, this one inserts nothing and reads what it stored. */
int bl_pg_import_begin(bl_import *im, const char *source, const bl_content_key *key,
                       const char *format, char *err, size_t errlen)
{
    bl_store *s = im->s;
    char id[32];
    if (s->batch && s->batch_lost) {
        snprintf(err, errlen, "%s: the batch was rolled back by an earlier failure", s->path);
        return -1;
    }
    if (key && bl_pg_find_import(s, key, id, sizeof id)) {
        im->id = atoll(id);
        im->dup = 1;
        return 0;
    }
    const char *open = !s->batch         ? "BEGIN"
                       : s->pg_savepoint ? "RELEASE SAVEPOINT bl_import; SAVEPOINT bl_import"
                                         : "SAVEPOINT bl_import";
    s->pg_savepoint = 0;
    if (bl_pg_exec(s, open, err, errlen) != 0) {
        if (s->batch)
            s->batch_lost = 1;
        return -1;
    }
    int fresh = insert_import(im, source, key, format, err, errlen);
    if (fresh == 1)
        return 0;
    undo_import(s);
    if (fresh < 0)
        return -1;
    if (!bl_pg_find_import(s, key, id, sizeof id)) {
        snprintf(err, errlen, "%s: the import of this content vanished while waiting", s->path);
        return -1;
    }
    im->id = atoll(id);
    im->dup = 1;
    return 0;
}

int bl_pg_import_add(bl_import *im, const bl_records *recs, char *err, size_t errlen)
{
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)im->id);
    if (bl_pg_insert_runs(im->s, id, recs, im->seed.s, im->n > 0, err, errlen) != 0 ||
        copy_records(im->s, id, recs, im->when, err, errlen) != 0)
        return -1;
    return 0;
}

int bl_pg_import_end(bl_import *im, int commit, char *err, size_t errlen)
{
    bl_store *s = im->s;
    if (im->dup)
        return 0;
    if (commit &&
        bl_pg_exec(s, s->batch ? "RELEASE SAVEPOINT bl_import" : "COMMIT", err, errlen) == 0)
        return 0;
    undo_import(s);
    return commit ? -1 : 0;
}

/* A transaction in error would "commit" as a rollback: refused as the failure it is. */
int bl_pg_batch(bl_store *s, int what, char *err, size_t errlen)
{
    static const char *const sql[] = {"BEGIN", "COMMIT", "ROLLBACK"};
    s->pg_savepoint = 0; /* the batch's end releases it */
    if (what == 1 && PQtransactionStatus(s->pg) != PQTRANS_INTRANS) {
        snprintf(err, errlen, "%s: the batch's transaction failed before its commit", s->path);
        return -1;
    }
    return bl_pg_exec(s, sql[what], err, errlen);
}
