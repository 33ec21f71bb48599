/* report's grouped query on PostgreSQL (core/store_pg_fold.c): over the fixtures and, when
 * BENCHLOG_CORPUS is set, the corpus, every report (text, --csv, --md, --by, --pool,
 * --baseline, filtered) is byte for byte the one the same imports give on SQLite, and the one
 * the record walk gives on PostgreSQL (BENCHLOG_NO_FOLD=1); the grouped query is taken
 * (bl_store_fold answers 0) and each of its groups holds the bits bl_fold_add makes of the
 * walk's records, also with infinite, negative and huge figures; a store of the schema before
 * the fold columns is read as it is by a role that may only SELECT, and migrated forward by
 * its owner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/fold.h"
#include "../core/jsonl.h"
#include "../core/store.h"
#include "../core/store_pg_int.h"
#include "support/pgserver.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define FILES                                                                                      \
    "fixtures/dd/*.txt fixtures/bonnie/*.txt fixtures/bonnie/*.csv fixtures/fio/*.out "            \
    "fixtures/fio/*.json"

typedef struct world {
    char *dir, *url; /* dir/s.db and url: the same imports */
} world;

static const char *bin(void)
{
    return getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
}

/* `[env] benchlog ARGS`, natively; its stdout (caller frees), its exit status in *rc. */
static char *run(const char *env, int *rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static char *run(const char *env, int *rc, const char *fmt, ...)
{
    bl_strbuf args, cmd;
    bl_strbuf_init(&args);
    bl_strbuf_init(&cmd);
    va_list ap;
    va_start(ap, fmt);
    bl_strbuf_vprintf(&args, fmt, ap);
    va_end(ap);
    bl_strbuf_printf(&cmd, "%s %s %s 2>&1 </dev/null", env ? env : "", bin(), args.s);
    int st;
    char *out = bl_test_sh(cmd.s, &st);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    bl_strbuf_free(&args);
    bl_strbuf_free(&cmd);
    return out;
}

/* `benchlog ARGS` as the tests run it (under valgrind too in `make valgrind`): its stdout
 * then its stderr (caller frees), its exit status in *rc. */
static char *run_checked(int *rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *run_checked(int *rc, const char *fmt, ...)
{
    bl_strbuf args;
    bl_strbuf_init(&args);
    va_list ap;
    va_start(ap, fmt);
    bl_strbuf_vprintf(&args, fmt, ap);
    va_end(ap);
    char *out, *err;
    *rc = bl_test_benchlog(args.s, &out, &err);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s%s", out, err);
    free(out);
    free(err);
    bl_strbuf_free(&args);
    return sb.s ? sb.s : bl_xstrdup("");
}

static int setup(void **state)
{
    bl_test_pg_group_setup(state);
    world *w = calloc(1, sizeof *w);
    *state = w;
    if (bl_test_pg_missing())
        return 0;
    w->dir = bl_test_tmpdir();
    w->url = bl_test_pg_new_db();
    char *corpus = bl_test_corpus(".");
    char cmd[2048];
    /* files refused in part are part of the corpus: xargs' status is not the point here */
    snprintf(cmd, sizeof cmd,
             "find fixtures %s -type f ! -name 'README*' -print0 | sort -z > %s/files; "
             "xargs -0 %s import -q --db %s/s.db < %s/files >/dev/null 2>&1; "
             "xargs -0 %s import -q --db '%s' < %s/files >/dev/null 2>&1; echo done",
             corpus ? corpus : "", w->dir, bin(), w->dir, w->dir, bin(), w->url, w->dir);
    free(corpus);
    free(bl_test_sh(cmd, NULL));
    return 0;
}

static int teardown(void **state)
{
    world *w = *state;
    if (w->dir) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s", w->dir);
        if (system(cmd) != 0)
            print_error("could not remove %s\n", w->dir);
    }
    free(w->dir);
    free(w->url);
    free(w);
    return bl_test_pg_group_teardown(state);
}

/* Every report on both stores, and the walk's on PostgreSQL: the same bytes. */
static void test_reports_same(void **state)
{
    BL_TEST_PG_NEED();
    world *w = *state;
    static const char *const cmds[] = {
        "report", "report --csv", "report --md", "report --by host", "report --by fs,host --csv",
        "report --by host --pool", "report tool=fio", "report tool=bonnie++ --csv",
        "report test=seq-rewrite --by source",
        "report --baseline 'bonnie-1.03_handtyped_x2_fast.txt · Gaia' tool=bonnie++",
        "report host=Gaia",
        "report RUN tool=bonnie++", /* RUN: the ID of a bonnie++ run (the same in both) */
        /* terms C decides on each shape (the grouped query too, see test_fold_taken_and_exact) */
        "report host~gaia --csv", "report host!=Gaia --by host", "report label.job=x rw~RAND",
        "report source~bonnie-1 fs!=ext4 --md",
        "report RUN size!=none", /* the run whole, host= or not */
    };
    int rl;
    char *ids = run(NULL, &rl, "list --db %s/s.db tool=bonnie++", w->dir);
    assert_int_equal(rl, 0);
    char id[9];
    snprintf(id, sizeof id, "%s", ids);
    free(ids);
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        int ra, rb, rc;
        char cmd[256];
        if (strncmp(cmds[i], "report RUN ", 11) == 0)
            snprintf(cmd, sizeof cmd, "report %s %s", id, cmds[i] + 11);
        else
            snprintf(cmd, sizeof cmd, "%s", cmds[i]);
        char *a = run(NULL, &ra, "%s --db %s/s.db", cmd, w->dir);
        /* one as the tests run benchlog (valgrind too): the grouped query's code paths */
        char *b = !strcmp(cmd, "report tool=fio") ? run_checked(&rb, "%s --db '%s'", cmd, w->url)
                                                  : run(NULL, &rb, "%s --db '%s'", cmd, w->url);
        char *c = run("BENCHLOG_NO_FOLD=1", &rc, "%s --db '%s'", cmd, w->url);
        if (ra || rb || rc || strcmp(a, b) != 0 || strcmp(b, c) != 0)
            print_error("%s differs:\n--- sqlite\n%s--- postgresql\n%s--- walk\n%s", cmds[i], a, b,
                        c);
        assert_int_equal(ra, 0);
        assert_int_equal(rb, 0);
        assert_int_equal(rc, 0);
        assert_true(strlen(a) > 100);
        assert_string_equal(a, b);
        assert_string_equal(b, c);
        free(a);
        free(b);
        free(c);
    }
}

/* Groups made by bl_fold_add from a walk, keyed by shape. */
typedef struct groups {
    bl_fold_group *v;
    char **key;
    size_t n;
    int64_t seq;
} groups;

static bl_fold_group *group_of(groups *gs, const bl_record *shape_of)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_fold_shape(shape_of, &sb);
    for (size_t i = 0; i < gs->n; i++)
        if (strcmp(gs->key[i], sb.s) == 0) {
            bl_strbuf_free(&sb);
            return &gs->v[i];
        }
    gs->v = realloc(gs->v, (gs->n + 1) * sizeof *gs->v);
    gs->key = realloc(gs->key, (gs->n + 1) * sizeof *gs->key);
    memset(&gs->v[gs->n], 0, sizeof *gs->v);
    gs->v[gs->n].first = gs->seq;
    gs->key[gs->n] = bl_xstrdup(sb.s);
    bl_strbuf_free(&sb);
    return &gs->v[gs->n++];
}

static int walk_one(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    groups *gs = ctx;
    double fig[BL_FOLD_N];
    int flags;
    bl_fold_figs(r, fig, &flags);
    bl_fold_group *g = group_of(gs, r);
    bl_fold_add(g, fig, flags);
    g->n_recs++;
    gs->seq++;
    bl_record_free(r);
    return 0;
}

static void same_bits(double a, double b)
{
    if (isnan(a) || isnan(b)) {
        assert_int_equal(isnan(a), isnan(b));
        return;
    }
    assert_memory_equal(&a, &b, sizeof a);
}

/* Each group of the fold matched to the walk's of its shape, in the walk's order. */
typedef struct check {
    groups *want;
    size_t seen;
    int64_t last_first;
} check;

static int check_one(void *ctx, bl_fold_group *g)
{
    check *c = ctx;
    bl_fold_group *w = group_of(c->want, g->shape);
    assert_true(w < c->want->v + c->want->n);
    assert_true(c->seen == 0 || w->first > c->last_first); /* the walk's order */
    c->last_first = w->first;
    c->seen++;
    assert_int_equal(g->n_recs, w->n_recs);
    assert_int_equal(g->n_notes, w->n_notes);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(g->lat_from[k], w->lat_from[k]);
        assert_int_equal(g->pct_from[k], w->pct_from[k]);
    }
    for (int k = 0; k < BL_FOLD_N; k++) {
        const bl_fold_fig *a = &g->fig[k], *b = &w->fig[k];
        assert_int_equal(a->n, b->n);
        if (!a->n)
            continue;
        same_bits(bl_xsum_value(&a->sum), bl_xsum_value(&b->sum));
        same_bits(bl_xsum_value(&a->sumsq), bl_xsum_value(&b->sumsq));
        same_bits(bl_xsum_spread((double)a->n, &a->sum, &a->sumsq),
                  bl_xsum_spread((double)b->n, &b->sum, &b->sumsq));
        same_bits(a->lo, b->lo);
        same_bits(a->hi, b->hi);
    }
    return 0;
}

static void groups_free(groups *gs)
{
    for (size_t i = 0; i < gs->n; i++) {
        bl_fold_group_free(&gs->v[i]);
        free(gs->key[i]);
    }
    free(gs->v);
    free(gs->key);
}

/* The store's fold of url (filter text, or NULL) against bl_fold_add over its walk; returns
 * the records folded. want_groups: the walk's groups when not NULL (figures the walk
 * does not read, as in test_special_figures). */
static size_t fold_matches(const char *url, const char *filter, groups *want_groups)
{
    char err[512];
    bl_store *s = bl_store_open_existing(url, err, sizeof err);
    if (!s)
        print_error("%s\n", err);
    assert_non_null(s);
    bl_filter f = {0};
    for (const char *p = filter; p && *p;) { /* terms split at spaces */
        char term[256];
        size_t len = strcspn(p, " ");
        snprintf(term, sizeof term, "%.*s", (int)len, p);
        assert_int_equal(bl_filter_add(&f, term, err, sizeof err), 0);
        p += len + (p[len] == ' ');
    }
    groups walked = {0};
    groups *want = want_groups ? want_groups : &walked;
    if (!want_groups)
        assert_int_equal(bl_store_each(s, &f, walk_one, want, err, sizeof err), 0);
    check c = {.want = want};
    int rc = bl_store_fold(s, &f, check_one, &c, err, sizeof err);
    if (rc != 0)
        print_error("bl_store_fold: %d %s\n", rc, err);
    assert_int_equal(rc, 0); /* the grouped query was taken */
    assert_int_equal(c.seen, want->n);
    size_t n = 0;
    for (size_t i = 0; i < want->n; i++)
        n += want->v[i].n_recs;
    groups_free(&walked);
    bl_filter_free(&f);
    bl_store_close(s);
    return n;
}

/* bl_store_fold's answer on db under one term when it does not fold (1: the walk). */
static int fold_declines(const char *db, const char *term)
{
    char err[512];
    bl_store *s = bl_store_open_existing(db, err, sizeof err);
    assert_non_null(s);
    bl_filter f = {0};
    assert_int_equal(bl_filter_add(&f, term, err, sizeof err), 0);
    groups none = {0};
    check c = {.want = &none};
    int rc = bl_store_fold(s, &f, check_one, &c, err, sizeof err);
    assert_int_equal(c.seen, 0);
    bl_filter_free(&f);
    bl_store_close(s);
    return rc;
}

/* The fold of db (PostgreSQL or SQLite) taken and exact under terms of every kind. */
static void fold_filters(const char *db, int pg)
{
    size_t all = fold_matches(db, NULL, NULL);
    assert_true(all > 100);
    size_t fio = fold_matches(db, "tool=fio", NULL);
    assert_true(fio > 10 && fio < all);
    /* terms on what a shape keeps (labels, source, bs...), decided by C on the shapes */
    size_t gaia = fold_matches(db, "host=Gaia", NULL);
    assert_true(gaia >= 20 && gaia < all); /* bonnie-1.03_handtyped_x2_fast.txt: 2 runs of 10 */
    assert_int_equal(fold_matches(db, "label.host=Gaia", NULL), gaia);
    size_t gaia_ci = fold_matches(db, "host~gAIa", NULL);
    assert_true(gaia_ci >= gaia);
    assert_int_equal(fold_matches(db, "host!=Gaia", NULL), all - gaia);
    assert_int_equal(fold_matches(db, "fs!=ext4", NULL), all); /* no record has fs */
    assert_int_equal(fold_matches(db, "fs=ext4", NULL), 0);    /* no shape matches */
    size_t x = fold_matches(db, "job=x rw~RAND tool=fio", NULL);
    assert_true(x >= 5 && x < fio);
    size_t dd = fold_matches(db, "source~gnu-dd bs!=4096", NULL);
    assert_true(dd > 5 && dd < all);
    /* run= with a label: SQL takes the run, C the label */
    char *ids = run(NULL, &(int){0}, "list --db '%s' host=Gaia", db), flt[64];
    snprintf(flt, sizeof flt, "%.8s", ids);
    size_t one = fold_matches(db, flt, NULL);
    assert_true(one >= 1 && one < gaia);
    snprintf(flt, sizeof flt, "%.8s host~gaia", ids);
    assert_int_equal(fold_matches(db, flt, NULL), one);
    snprintf(flt, sizeof flt, "%.8s host=csvhost", ids);
    free(ids);
    assert_int_equal(fold_matches(db, flt, NULL), 0);
    /* a term C must decide on each record (a figure; on PostgreSQL run!=): the walk (1) */
    assert_int_equal(fold_declines(db, "iops~1"), 1);
    if (pg)
        assert_int_equal(fold_declines(db, "run!=00000000"), 1);
}

static void test_fold_taken_and_exact(void **state)
{
    BL_TEST_PG_NEED();
    world *w = *state;
    char db[600];
    snprintf(db, sizeof db, "%s/s.db", w->dir);
    fold_filters(w->url, 1);
    fold_filters(db, 0);
}

/* A query on url's database as its owner; the rows (caller clears). */
static PGresult *sql(const char *url, const char *q)
{
    PGconn *c = PQconnectdb(url);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *res = PQexec(c, q);
    if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
        print_error("%s: %s\n", q, PQerrorMessage(c));
    assert_true(PQresultStatus(res) == PGRES_TUPLES_OK || PQresultStatus(res) == PGRES_COMMAND_OK);
    PQfinish(c);
    return res;
}

/* A new database holding FILES, imported by the program; its URL (caller frees). */
static char *pg_store_of_files(void)
{
    char *url = bl_test_pg_new_db();
    int rc;
    free(run(NULL, &rc, "import -q --db '%s' " FILES, url));
    assert_int_equal(rc, 0);
    return url;
}

/* Figures the parsers never give (infinite, negative, huge: their squares overflow) written
 * into the fold columns: the grouped query folds them as bl_fold_add does. */
static void test_special_figures(void **state)
{
    BL_TEST_PG_NEED();
    (void)state;
    char *url = pg_store_of_files();
    bl_strbuf q;
    bl_strbuf_init(&q);
    bl_strbuf_puts(&q,
                   "UPDATE records SET f_bw = CASE WHEN id % 7 = 0 THEN 'Infinity' WHEN id % 11 "
                   "= 0 THEN '-Infinity' ELSE f_bw END, f_iops = -f_iops, f_value = CASE WHEN "
                   "id % 3 = 0 THEN 1e300 ELSE f_value END, f_cpu = CASE WHEN id % 5 = 0 THEN "
                   "'-Infinity' WHEN id % 2 = 0 THEN 0 ELSE 1.0 / 3 END;");
    static const char *const fig[] = {"bw", "iops", "value", "cpu"};
    for (size_t k = 0; k < sizeof fig / sizeof *fig; k++) {
        char x[32];
        snprintf(x, sizeof x, "f_%s", fig[k]);
        bl_strbuf_printf(&q,
                         "UPDATE records SET b_%s = CASE WHEN f_%s IN ('Infinity', "
                         "'-Infinity') THEN NULL ELSE ",
                         fig[k], fig[k]);
        bl_pg_sql_bits(&q, x);
        bl_strbuf_puts(&q, " END;");
    }
    PQclear(sql(url, q.s));
    bl_strbuf_free(&q);
    /* what bl_fold_add makes of the columns, record by record in the walk's order */
    PGresult *res = sql(url, "SELECT s.shape, f_bw, f_iops, f_lat, f_p50, f_p99, f_p999, f_value, "
                             "f_cpu, f_flags FROM records r JOIN shapes s ON s.id = r.shape_id "
                             "ORDER BY r.import_id, r.id");
    groups want = {0};
    int n_inf = 0;
    for (int i = 0; i < PQntuples(res); i++) {
        bl_record *shape =
            bl_record_from_json(PQgetvalue(res, i, 0), (size_t)PQgetlength(res, i, 0), NULL, 0);
        assert_non_null(shape);
        double v[BL_FOLD_N];
        for (int k = 0; k < BL_FOLD_N; k++)
            v[k] = PQgetisnull(res, i, 1 + k) ? BL_ABSENT : strtod(PQgetvalue(res, i, 1 + k), NULL);
        n_inf += isinf(v[BL_FOLD_BW]);
        bl_fold_group *g = group_of(&want, shape);
        bl_fold_add(g, v, atoi(PQgetvalue(res, i, 1 + BL_FOLD_N)));
        g->n_recs++;
        want.seq++;
        bl_record_free(shape);
    }
    PQclear(res);
    assert_true(n_inf > 2);
    assert_true(fold_matches(url, NULL, &want) > 50);
    groups_free(&want);
    /* a record without its fold columns (stored by no benchlog of schema 3): the walk, also
     * when the terms go to the shapes */
    PQclear(sql(url, "UPDATE records SET shape_id = NULL, f_flags = 0 WHERE id = (SELECT "
                     "max(id) FROM records)"));
    assert_int_equal(fold_declines(url, "host!=nowhere"), 1);
    free(url);
}

static int schema_of(const char *url)
{
    PGresult *res = sql(url, "SELECT value FROM meta WHERE key = 'schema'");
    int v = atoi(PQgetvalue(res, 0, 0));
    PQclear(res);
    return v;
}

/* Takes the store at url back to schema 1: no shapes, no fold columns. */
static void to_schema_1(const char *url)
{
    PQclear(sql(url,
                "DROP INDEX records_fold; DROP TABLE shapes; ALTER TABLE records DROP COLUMN "
                "shape_id, DROP COLUMN f_bw, DROP COLUMN f_iops, DROP COLUMN f_lat, DROP "
                "COLUMN f_p50, DROP COLUMN f_p99, DROP COLUMN f_p999, DROP COLUMN f_value, "
                "DROP COLUMN f_cpu, DROP COLUMN f_flags, DROP COLUMN b_bw, DROP COLUMN b_iops, "
                "DROP COLUMN b_lat, DROP COLUMN b_p50, DROP COLUMN b_p99, DROP COLUMN b_p999, "
                "DROP COLUMN b_value, DROP COLUMN b_cpu; UPDATE meta SET value = '1' WHERE "
                "key = 'schema'"));
    assert_int_equal(schema_of(url), 1);
}

/* What the migration told the registered progress function (store.h). */
static struct {
    int calls;
    int64_t first_done, first_total, last_done, last_total;
} told;

static void record_progress(const char *path, const char *what, int64_t done, int64_t total)
{
    assert_null(strstr(path, "password"));
    assert_non_null(strstr(what, "schema 3"));
    if (told.calls++ == 0) {
        told.first_done = done;
        told.first_total = total;
    }
    told.last_done = done;
    told.last_total = total;
}

/* The migration's fill tells its start (0 of every record) and its end (all of all). */
static void test_migration_tells_progress(void **state)
{
    BL_TEST_PG_NEED();
    (void)state;
    char *url = pg_store_of_files();
    PGresult *res = sql(url, "SELECT count(*) FROM records");
    int64_t n = atoll(PQgetvalue(res, 0, 0));
    PQclear(res);
    assert_true(n > 50);
    to_schema_1(url);
    memset(&told, 0, sizeof told);
    bl_store_register_progress(record_progress);
    char err[512];
    bl_store *s = bl_store_open_existing(url, err, sizeof err);
    bl_store_register_progress(NULL);
    assert_non_null(s);
    bl_store_close(s);
    assert_int_equal(schema_of(url), 3);
    assert_true(told.calls >= 2);
    assert_int_equal(told.first_done, 0);
    assert_int_equal(told.first_total, n);
    assert_int_equal(told.last_done, n);
    assert_int_equal(told.last_total, n);
    free(url);
}

/* A store of schema 1 (made as benchlog 0.x made it: no shapes, no fold columns): read as
 * it is by a role that may only SELECT, migrated by its owner's first use; the same
 * reports as the SQLite store of the same files, and the grouped query taken after. */
static void test_migrate_from_v1(void **state)
{
    BL_TEST_PG_NEED();
    (void)state;
    char *dir = bl_test_tmpdir(), *url = bl_test_pg_new_db();
    int rc;
    free(run(NULL, &rc, "import -q --db '%s' " FILES, url));
    free(run(NULL, &rc, "import -q --db %s/s.db " FILES, dir));
    to_schema_1(url);
    char db[64];
    bl_test_pg_db_of(url, db, sizeof db);
    assert_int_equal(bl_test_pg_sql("postgres", "DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles "
                                                "WHERE rolname = 'reader') THEN CREATE ROLE "
                                                "reader LOGIN; END IF; END$$"),
                     0);
    assert_int_equal(bl_test_pg_sql(db, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader"),
                     0);
    char *ro = bl_test_pg_url(db, "reader");
    static const char *const cmds[] = {"report", "report --by fs,host --csv", "list"};
    for (int owner = 0; owner < 2; owner++)
        for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
            int ra, rb;
            char *a = run(NULL, &ra, "%s --db %s/s.db", cmds[i], dir);
            char *b = i == 0 ? run_checked(&rb, "%s --db '%s'", cmds[i], owner ? url : ro)
                             : run(NULL, &rb, "%s --db '%s'", cmds[i], owner ? url : ro);
            if (rb != 0 || strcmp(a, b) != 0)
                print_error("%s (%s):\n--- sqlite\n%s--- postgresql\n%s", cmds[i],
                            owner ? "owner" : "reader", a, b);
            assert_int_equal(rb, 0);
            assert_true(strlen(a) > 200);
            assert_string_equal(a, b);
            free(a);
            free(b);
            /* the reader leaves it as it is; the owner's first command migrates it */
            assert_int_equal(schema_of(url), owner ? 3 : 1);
        }
    /* the reader, granted SELECT before the migration, reads the new table too (grouped) */
    int rr;
    char *a0 = run(NULL, &rr, "report --db %s/s.db", dir);
    char *b0 = run(NULL, &rr, "report --db '%s'", ro);
    assert_int_equal(rr, 0);
    assert_string_equal(a0, b0);
    free(b0);
    /* and without the right to read the shapes, walks */
    assert_int_equal(bl_test_pg_sql(db, "REVOKE SELECT ON shapes FROM reader"), 0);
    b0 = run(NULL, &rr, "report --db '%s'", ro);
    assert_int_equal(rr, 0);
    assert_string_equal(a0, b0);
    free(a0);
    free(b0);
    /* the migration filled every record's fold columns from its JSON */
    PGresult *res =
        sql(url, "SELECT count(*) FROM records WHERE shape_id IS NULL OR f_flags IS NULL");
    assert_string_equal(PQgetvalue(res, 0, 0), "0");
    PQclear(res);
    assert_true(fold_matches(url, NULL, NULL) > 50);
    /* relabel changes the shapes of the records it labels, on both stores alike */
    int r1, r2;
    free(run(NULL, &r1, "relabel --db %s/s.db tool=dd -- host=elsewhere", dir));
    free(run_checked(&r2, "relabel --db '%s' tool=dd -- host=elsewhere", url));
    assert_int_equal(r1, 0);
    assert_int_equal(r2, 0);
    char *a = run(NULL, &r1, "report --by host --db %s/s.db", dir);
    char *b = run(NULL, &r2, "report --by host --db '%s'", url);
    assert_non_null(strstr(b, "elsewhere"));
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_true(fold_matches(url, NULL, NULL) > 50);
    free(ro);
    free(url);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reports_same),
        cmocka_unit_test(test_fold_taken_and_exact),
        cmocka_unit_test(test_special_figures),
        cmocka_unit_test(test_migrate_from_v1),
        cmocka_unit_test(test_migration_tells_progress),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
