/* The store: round trip, one copy per source, all-or-nothing imports under kill -9,
 * concurrent imports, schema versions. The tests that hold for every backend run twice:
 * on SQLite files and on a real PostgreSQL server (tests/support/pgserver.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/store.h"
#include "../core/store_int.h"
#include "../core/strbuf.h"
#include "support/pgserver.h"
#include "support/support.h"
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *db_path(const char *dir)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/test.db", dir);
    return bl_strbuf_take(&sb);
}

/* The backend of the group running: 0 SQLite, 1 PostgreSQL (its server started once). */
static int on_pg;

/* A new empty store: a file in dir, or a new database on the test server. */
static char *new_store(const char *dir)
{
    return on_pg ? bl_test_pg_new_db() : db_path(dir);
}

/* A new empty store, open (its folder and address in *dir and *path). */
static bl_store *open_new_store(char **dir, char **path)
{
    char err[256];
    *dir = bl_test_tmpdir();
    *path = new_store(*dir);
    bl_store *s = bl_store_open(*path, err, sizeof err);
    if (!s)
        print_error("%s\n", err);
    assert_non_null(s);
    return s;
}

/* Removes what open_new_store made (a database on the server stays, unused). */
static void remove_store(char *dir, char *path)
{
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

static int start_pg(void **state)
{
    on_pg = 1;
    return bl_test_pg_group_setup(state);
}

/* Each test of both backends begins here: without a server, the PostgreSQL run skips. */
#define NEED_BACKEND()                                                                             \
    do {                                                                                           \
        if (on_pg)                                                                                 \
            BL_TEST_PG_NEED();                                                                     \
    } while (0)

static void make_records(bl_records *rs, size_t n, const char *tool)
{
    bl_records_init(rs);
    for (size_t i = 0; i < n; i++) {
        bl_record *r = bl_record_new();
        bl_record_set_str(&r->source, "x.txt");
        bl_record_set_str(&r->tool, tool);
        bl_record_set_str(&r->test, i % 2 ? "seq-read" : "rand-write");
        bl_record_set_label(r, "section", i % 3 ? "iSCSI SSD" : "NFS");
        r->line = (int64_t)i + 1;
        r->run = (int64_t)i / 4 + 1;
        r->bw_bytes_s = 1000.0 * (double)i;
        bl_records_push(rs, r);
    }
}

/* The key of a source whose text is `text`. */
static bl_content_key key_of(const char *text)
{
    bl_content_key k = {.want_fnv = 1};
    bl_content_key_of(text, strlen(text), &k);
    return k;
}

static size_t count_records(const char *path, const char *filter)
{
    char err[256];
    bl_store *s = bl_store_open(path, err, sizeof err);
    assert_non_null(s);
    bl_filter f = {0};
    if (filter)
        assert_int_equal(bl_filter_add(&f, filter, err, sizeof err), 0);
    bl_records rs;
    bl_records_init(&rs);
    assert_int_equal(bl_store_query(s, &f, &rs, err, sizeof err), 0);
    size_t n = rs.n;
    bl_records_free(&rs);
    bl_filter_free(&f);
    bl_store_close(s);
    return n;
}

static void test_round_trip_and_duplicates(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir, *path, err[256];
    bl_store *s = open_new_store(&dir, &path);
    bl_records rs;
    make_records(&rs, 12, "fio");
    bl_content_key h1 = key_of("h1");
    assert_int_equal(bl_store_import(s, "x.txt", &h1, "fio", &rs, NULL, err, sizeof err),
                     BL_IMPORT_DONE);
    assert_int_equal(bl_store_import(s, "x.txt", &h1, "fio", &rs, NULL, err, sizeof err),
                     BL_IMPORT_DUPLICATE);
    assert_int_equal(bl_store_import(s, "run", NULL, "run", &rs, NULL, err, sizeof err),
                     BL_IMPORT_DONE); /* measured runs have no content identity */
    bl_run_info *runs;
    size_t n;
    assert_int_equal(bl_store_runs(s, NULL, &runs, &n, err, sizeof err), 0);
    assert_int_equal(n, 6); /* 3 runs of 4 records, imported twice */
    assert_int_equal(runs[0].n_records, 4);
    assert_string_equal(runs[0].head->tool, "fio");
    bl_run_infos_free(runs, n);
    bl_store_close(s);
    assert_int_equal(count_records(path, NULL), 24);
    assert_int_equal(count_records(path, "section~iscsi"), 16);
    assert_int_equal(count_records(path, "test=seq-read"), 12);
    assert_int_equal(count_records(path, "bw_bytes_s=11000"), 2);
    bl_records_free(&rs);
    remove_store(dir, path);
}

static bl_record *summed_record(int64_t run, int64_t line, const char *labels)
{
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, "s.txt");
    bl_record_set_str(&r->tool, "fio");
    bl_record_set_str(&r->test, "seq-read");
    r->run = run;
    r->line = line;
    r->bw_bytes_s = 1e6 * (double)line;
    for (const char *p = labels; p && *p;) { /* "k=v k=v" */
        char k[32], v[32];
        int used = 0;
        if (sscanf(p, "%31[^=]=%31s%n", k, v, &used) != 2)
            break;
        bl_record_set_label(r, k, v);
        p += used;
        p += strspn(p, " ");
    }
    return r;
}

/* What list shows of a run (bl_store_each_run: records, least line, the labels all its
 * records share, its first record's run-level fields) is the same on both backends, with
 * and without a filter (PostgreSQL sums a store's runs in SQL, a filtered list record by
 * record), also for a run whose records are not consecutive. */
static void test_run_summaries(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir, *path, err[256];
    bl_store *s = open_new_store(&dir, &path);
    bl_records rs;
    bl_records_init(&rs);
    bl_records_push(&rs, summed_record(1, 7, "host=a section=x"));
    bl_records_push(&rs, summed_record(1, 3, "host=a section=x extra=1"));
    bl_records_push(&rs, summed_record(2, 9, NULL));
    bl_records_push(&rs, summed_record(2, 4, "host=a"));
    bl_records_push(&rs, summed_record(1, 5, "section=y host=a"));
    bl_content_key k = key_of("summaries");
    assert_int_equal(bl_store_import(s, "s.txt", &k, "fio", &rs, NULL, err, sizeof err),
                     BL_IMPORT_DONE);
    bl_filter f = {0};
    assert_int_equal(bl_filter_add(&f, "extra=1", err, sizeof err), 0);
    for (int filtered = 0; filtered < 2; filtered++) {
        bl_run_info *runs;
        size_t n;
        assert_int_equal(bl_store_runs(s, filtered ? &f : NULL, &runs, &n, err, sizeof err), 0);
        assert_int_equal(n, filtered ? 1 : 2);
        assert_int_equal(runs[0].head->run, 1);
        assert_int_equal(runs[0].n_records, 3);
        assert_int_equal(runs[0].first_line, 3);
        assert_string_equal(runs[0].head->tool, "fio");
        assert_string_equal(runs[0].head->source, "s.txt");
        assert_int_equal(runs[0].n_labels, 1);
        assert_string_equal(runs[0].labels[0].key, "host");
        assert_string_equal(runs[0].labels[0].value, "a");
        assert_int_equal(strlen(runs[0].id), BL_RUN_ID_LEN);
        assert_non_null(runs[0].imported_at);
        if (!filtered) {
            assert_int_equal(runs[1].head->run, 2);
            assert_int_equal(runs[1].n_records, 2);
            assert_int_equal(runs[1].first_line, 4);
            assert_int_equal(runs[1].n_labels, 0); /* one record has none */
        }
        bl_run_infos_free(runs, n);
    }
    bl_filter_free(&f);
    bl_records_free(&rs);
    bl_store_close(s);
    remove_store(dir, path);
}

static void test_schema_versions(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *path = db_path(dir);
    char err[256];
    bl_store *s = bl_store_open(path, err, sizeof err);
    assert_non_null(s);
    bl_store_close(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_null(bl_store_open(path, err, sizeof err));
    assert_non_null(strstr(err, "newer"));
    unlink(path);
    FILE *f = fopen(path, "w");
    fputs("this is not a database, it is a text file long enough to have a header......\n", f);
    fclose(f);
    assert_null(bl_store_open(path, err, sizeof err));
    assert_non_null(strstr(err, "not a benchlog store"));
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

/* A version-1 store (as benchlog 0.1 wrote it) is upgraded in place and keeps its records. */
static void test_upgrade_v1(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *path = db_path(dir);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db,
                     "CREATE TABLE imports(id INTEGER PRIMARY KEY, source TEXT NOT NULL,"
                     " hash TEXT UNIQUE, format TEXT, imported_at TEXT NOT NULL);"
                     "CREATE TABLE records(id INTEGER PRIMARY KEY, import_id INTEGER NOT NULL"
                     " REFERENCES imports(id), run INTEGER, line INTEGER, tool TEXT, test TEXT,"
                     " json TEXT NOT NULL);"
                     "CREATE INDEX records_import ON records(import_id, run);"
                     "INSERT INTO imports VALUES(1, 'old.txt', 'h', 'dd', '2026-01-01T00:00:00Z');"
                     "INSERT INTO records VALUES(1, 1, 1, 3, 'dd', 'seq-write',"
                     " '{\"source\":\"old.txt\",\"line\":3,\"run\":1,\"tool\":\"dd\","
                     "\"io_bytes\":1073741824}');"
                     "PRAGMA user_version = 1;",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(count_records(path, "io_bytes=1073741824"), 1);
    /* v4: the record has a time, its import's */
    assert_int_equal(count_records(path, "when=2026-01-01T00:00:00Z"), 1);
    assert_int_equal(count_records(path, "when_from=import"), 1);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), BL_STORE_SCHEMA);
    sqlite3_finalize(st);
    assert_int_equal(
        sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key='created_by'", -1, &st, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    sqlite3_finalize(st);
    sqlite3_close(db);
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

static void import_and_exit(const char *path, size_t n, const char *hash)
{
    char err[256];
    bl_store *s = bl_store_open(path, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        _exit(3);
    }
    bl_records rs;
    make_records(&rs, n, "bonnie++");
    bl_content_key key = key_of(hash);
    int rc = bl_store_import(s, "big.txt", &key, "bonnie", &rs, NULL, err, sizeof err);
    if (rc != BL_IMPORT_DONE)
        fprintf(stderr, "%s\n", err);
    bl_store_close(s);
    _exit(rc == BL_IMPORT_DONE ? 0 : 4);
}

/* kill -9 at random moments of a large import: the store must hold it whole or not at all. */
static void test_kill_during_import(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir = bl_test_tmpdir(), *path = new_store(dir);
    /* on PostgreSQL fewer and smaller rounds: the server's side is the same at any size,
     * and the group must stay short under valgrind */
    const size_t batch = on_pg ? 5000 : 20000;
    const int rounds = on_pg ? 6 : 12;
    srand((unsigned)time(NULL));
    size_t whole = 0;
    for (int round = 0; round < rounds; round++) {
        char hash[16];
        snprintf(hash, sizeof hash, "h%d", round);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            import_and_exit(path, batch, hash);
        usleep((useconds_t)(rand() % (on_pg ? 100000 : 150000)));
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
            whole++;
        size_t n = count_records(path, NULL);
        assert_int_equal(n % batch, 0);
        assert_true(n / batch >= whole);
    }
    if (!on_pg) {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL),
                         SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(path);
    free(dir);
}

/* The terms the store decides in SQL select exactly what C selects on every record. */
static void test_sql_filters_match_c(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir = bl_test_tmpdir(), *path = new_store(dir);
    char err[256];
    bl_store *s = bl_store_open(path, err, sizeof err);
    assert_non_null(s);
    bl_records rs;
    make_records(&rs, 40, "fio");
    for (size_t i = 0; i < rs.n; i++) {
        bl_record *r = rs.v[i];
        r->bs = i % 3 ? 4096 : -1;
        r->iodepth = (int64_t)i % 5;
        if (i % 4 == 0)
            bl_record_set_str(&r->note, "a \"quoted\" note");
        if (i % 6 == 0)
            bl_record_set_label(r, "test", "mine"); /* a label named like a field */
        if (i % 7 == 0)
            bl_record_set_label(r, "disk", i % 2 ? "ÄbC Ssd-1" : "äbc SSD-2");
    }
    bl_content_key k = key_of("sql");
    assert_int_equal(bl_store_import(s, "x.txt", &k, "fio", &rs, NULL, err, sizeof err), 0);
    static const char *const terms[] = {
        "tool=fio",
        "tool!=fio",
        "test=seq-read",
        "test!=seq-read",
        "section=NFS",
        "section!=NFS",
        "label.section=NFS",
        "label.test=mine",
        "label.test!=mine",
        "test=mine",
        "bs=4096",
        "bs!=4096",
        "bs=04096",
        "bs=-1",
        "iodepth=0",
        "iodepth=3",
        "iodepth!=3",
        "line=7",
        "note=a \"quoted\" note",
        "note!=x",
        "op!=read",
        "nokey=1",
        "nokey!=1",
        "bw_bytes_s=3000",
        /* KEY~TEXT: ASCII needles in SQL (case folded as C folds them), others in C */
        "tool~FI",
        "test~READ",
        "test~Rand-",
        "section~nf",
        "section~",
        "label.test~MIN",
        "test~min",
        "note~QUOTED",
        "nokey~x",
        "disk~ssd-",
        "disk~BC",
        "disk~ÄB",
        "disk~äb",
        "bs~409",
        "label.disk~c s",
    };
    /* which of them SQL decides alone (no record decoded and checked in C) */
    static const char *const in_sql[] = {"tool~FI",   "test~READ", "section~nf",  "label.test~MIN",
                                         "disk~ssd-", "section~",  "note~QUOTED", "nokey~x"};
    static const char *const in_c[] = {"disk~ÄB", "disk~äb", "bs~409"};
    for (size_t t = 0;
         !on_pg && t < sizeof in_sql / sizeof in_sql[0] + sizeof in_c / sizeof in_c[0]; t++) {
        size_t n_sql = sizeof in_sql / sizeof in_sql[0];
        const char *term = t < n_sql ? in_sql[t] : in_c[t - n_sql];
        bl_filter f = {0};
        assert_int_equal(bl_filter_add(&f, term, err, sizeof err), 0);
        int exact = -1;
        sqlite3_stmt *st = bl_store_select(s, &f, 0, &exact, err, sizeof err);
        assert_non_null(st);
        sqlite3_finalize(st);
        if (exact != (t < n_sql))
            print_error("%s: decided in %s\n", term, exact ? "SQL" : "C");
        assert_int_equal(exact, t < n_sql);
        bl_filter_free(&f);
    }
    for (size_t t = 0; t < sizeof terms / sizeof terms[0]; t++) {
        bl_filter f = {0};
        assert_int_equal(bl_filter_add(&f, terms[t], err, sizeof err), 0);
        size_t want = 0;
        for (size_t i = 0; i < rs.n; i++)
            want += bl_filter_match(&f, rs.v[i]);
        bl_records got;
        bl_records_init(&got);
        assert_int_equal(bl_store_query(s, &f, &got, err, sizeof err), 0);
        if (got.n != want)
            print_error("%s: store %zu, C %zu\n", terms[t], got.n, want);
        assert_int_equal(got.n, want);
        bl_records_free(&got);
        bl_filter_free(&f);
    }
    bl_records_free(&rs);
    bl_store_close(s);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(path);
    free(dir);
}

static void edit_and_exit(const char *path, int del)
{
    char err[256];
    bl_store *s = bl_store_open_existing_rw(path, err, sizeof err);
    if (!s)
        _exit(3);
    bl_filter f = {0};
    bl_filter_add(&f, "tool=gone", err, sizeof err);
    size_t runs, recs;
    bl_label set = {"edited", "yes"};
    int rc = del ? bl_store_delete(s, &f, &runs, &recs, err, sizeof err)
                 : bl_store_relabel(s, &f, &set, 1, NULL, 0, &runs, &recs, err, sizeof err);
    bl_store_close(s);
    _exit(rc == 0 ? 0 : 4);
}

/* kill -9 at random moments of a delete or a relabel of many runs: the runs asked for are
 * changed whole or not at all, and nothing else is touched. */
static void test_kill_during_edit(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir = bl_test_tmpdir(), *path = NULL;
    const size_t keep = on_pg ? 500 : 2000, gone = on_pg ? 2500 : 10000;
    const int rounds = on_pg ? 4 : 8;
    srand((unsigned)time(NULL));
    int done[2] = {0, 0};
    for (int round = 0; round < rounds; round++) {
        int del = round % 2;
        if (path)
            unlink(path);
        free(path);
        path = new_store(dir);
        char err[256];
        bl_store *s = bl_store_open(path, err, sizeof err);
        assert_non_null(s);
        bl_records a, b;
        make_records(&a, keep, "keep");
        make_records(&b, gone, "gone");
        bl_content_key ka = key_of("keep"), kb = key_of("gone");
        assert_int_equal(bl_store_import(s, "a.txt", &ka, "x", &a, NULL, err, sizeof err), 0);
        assert_int_equal(bl_store_import(s, "b.txt", &kb, "x", &b, NULL, err, sizeof err), 0);
        bl_records_free(&a);
        bl_records_free(&b);
        bl_store_close(s);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            edit_and_exit(path, del);
        usleep((useconds_t)(rand() % (on_pg ? 400000 : 1200000)));
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        int finished = WIFEXITED(st) && WEXITSTATUS(st) == 0;
        done[del] += finished;
        assert_int_equal(count_records(path, "tool=keep"), keep);
        size_t n_gone = count_records(path, "tool=gone");
        size_t n_edited = count_records(path, "edited=yes");
        if (del) {
            assert_true(n_gone == 0 || n_gone == gone);
            if (finished)
                assert_int_equal(n_gone, 0);
        } else {
            assert_int_equal(n_gone, gone);
            assert_true(n_edited == 0 || n_edited == gone);
            if (finished)
                assert_int_equal(n_edited, gone);
        }
        assert_int_equal(count_records(path, "edited=yes") + count_records(path, "edited!=yes"),
                         keep + n_gone);
    }
    print_message("edits finished before the kill: %d deletes, %d relabels of 4 each\n", done[1],
                  done[0]);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(path);
    free(dir);
}

static void test_concurrent_imports(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir = bl_test_tmpdir(), *path = new_store(dir);
    /* Each import holds the write lock while it runs; the other waits up to the store's busy
     * timeout (30 s). Under valgrind 5000 records took near that on a loaded machine, so the
     * imports there are smaller: the test is that both land whole, not how big they are. */
    size_t n = getenv("BENCHLOG_VALGRIND") ? 1000 : 5000;
    pid_t a = fork();
    if (a == 0)
        import_and_exit(path, n, "A");
    pid_t b = fork();
    if (b == 0)
        import_and_exit(path, n, "B");
    int sa, sb;
    waitpid(a, &sa, 0);
    waitpid(b, &sb, 0);
    assert_true(WIFEXITED(sa) && WEXITSTATUS(sa) == 0);
    assert_true(WIFEXITED(sb) && WEXITSTATUS(sb) == 0);
    assert_int_equal(count_records(path, NULL), 2 * n);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(path);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_duplicates),
        cmocka_unit_test(test_run_summaries),
        cmocka_unit_test(test_schema_versions),
        cmocka_unit_test(test_upgrade_v1),
        cmocka_unit_test(test_kill_during_import),
        cmocka_unit_test(test_concurrent_imports),
        cmocka_unit_test(test_kill_during_edit),
        cmocka_unit_test(test_sql_filters_match_c),
    };
    /* the same tests, on PostgreSQL */
    const struct CMUnitTest both[] = {
        cmocka_unit_test(test_round_trip_and_duplicates), cmocka_unit_test(test_kill_during_import),
        cmocka_unit_test(test_concurrent_imports),        cmocka_unit_test(test_kill_during_edit),
        cmocka_unit_test(test_sql_filters_match_c),       cmocka_unit_test(test_run_summaries),
    };
    int failed = cmocka_run_group_tests_name("sqlite", tests, NULL, NULL);
    return failed +
           cmocka_run_group_tests_name("postgresql", both, start_pg, bl_test_pg_group_teardown);
}
