/* `import` of many small files in one call puts them in batches (cli/cmd_parse.c: one
 * transaction a batch, a savepoint a file; core/store.h's bl_store_batch_begin), and each
 * file stays whole or nothing:
 * - file k of n failing partway (an SQL trigger refusing its second record, after its first
 *   went in) stores nothing of file k and every other file whole, and a file its parser
 *   refuses stores nothing; what is told, and in what order, is as before;
 * - the same content twice in one call (the same path twice, a copy under another name) is
 *   stored once, the others told "skipped";
 * - two imports of the same files in opposite orders at once store each file once;
 * - kill -9 during a batched import leaves only whole files (SQLite: integrity_check ok),
 *   and importing again completes the rest.
 * On SQLite and on a real PostgreSQL server where the store's tests run both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/filter.h"
#include "../core/store.h"
#include "../core/strbuf.h"
#include "support/pgserver.h"
#include "support/support.h"
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int on_pg;

static const char *bin(void)
{
    return getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
}

/* The bytes of transfer j (1-based) of file i: (i * 10 + j) MiB, none alike. */
static long long bytes_of(int i, int j)
{
    return (long long)(i * 10 + j) * 1048576LL;
}

/* dir/dNNNN.txt: GNU dd's output for `runs` transfers (records in/out and the summary),
 * transfer j taking 0.5 * j s. */
static void write_dd(const char *dir, int i, int runs)
{
    char path[600];
    snprintf(path, sizeof path, "%s/d%04d.txt", dir, i);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int j = 1; j <= runs; j++) {
        long long b = bytes_of(i, j);
        double s = 0.5 * j;
        fprintf(f, "%lld+0 records in\n%lld+0 records out\n", b >> 20, b >> 20);
        fprintf(f, "%lld bytes (%.1f MB, %lld MiB) copied, %.1f s, %.1f MB/s\n", b, (double)b / 1e6,
                b >> 20, s, (double)b / s / 1e6);
    }
    assert_int_equal(fclose(f), 0);
}

/* A new empty store: a file in dir, or a new database on the test server; made by benchlog. */
static char *new_store(const char *dir)
{
    char *addr;
    if (on_pg) {
        addr = bl_test_pg_new_db();
    } else {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "%s/s.db", dir);
        addr = bl_strbuf_take(&sb);
    }
    char err[512];
    bl_store *s = bl_store_open(addr, err, sizeof err);
    if (!s)
        print_error("%s\n", err);
    assert_non_null(s);
    bl_store_close(s);
    return addr;
}

/* What the store holds, by file: records[i] of file i (its name dNNNN.txt), and whether
 * each record's figures are those written for it (transfer `run` of file i). */
typedef struct holding {
    int n_files;
    int *records;
    size_t total, wrong;
} holding;

static int hold(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    holding *h = ctx;
    const char *base = strrchr(r->source, '/');
    base = base ? base + 1 : r->source;
    int i = -1;
    if (sscanf(base, "d%4d.txt", &i) == 1 && i >= 1 && i <= h->n_files) {
        h->records[i]++;
        long long b = bytes_of(i, (int)r->run);
        if (r->io_bytes != b || r->runtime_s != 0.5 * (double)r->run ||
            !bl_test_close(r->bw_bytes_s, (double)b / r->runtime_s, 1e-3))
            h->wrong++;
    } else {
        h->wrong++;
    }
    h->total++;
    bl_record_free(r);
    return 0;
}

static void held(const char *addr, holding *h, int n_files)
{
    char err[512];
    h->n_files = n_files;
    h->records = calloc((size_t)n_files + 1, sizeof *h->records);
    h->total = h->wrong = 0;
    bl_store *s = bl_store_open_existing(addr, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(bl_store_each(s, NULL, hold, h, err, sizeof err), 0);
    bl_store_close(s);
}

/* Makes the store refuse the record of io_bytes `bytes`. */
static void refuse_bytes(const char *addr, long long bytes)
{
    char sql[800];
    if (on_pg) {
        char db[128];
        bl_test_pg_db_of(addr, db, sizeof db);
        snprintf(sql, sizeof sql,
                 "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF "
                 "NEW.json LIKE '%%\"io_bytes\":%lld,%%' THEN RAISE EXCEPTION 'injected "
                 "failure'; END IF; RETURN NEW; END $$; CREATE TRIGGER refuse BEFORE INSERT ON "
                 "records FOR EACH ROW EXECUTE FUNCTION refuse();",
                 bytes);
        assert_int_equal(bl_test_pg_sql(db, sql), 0);
        return;
    }
    snprintf(sql, sizeof sql,
             "CREATE TRIGGER refuse BEFORE INSERT ON records WHEN NEW.json LIKE "
             "'%%\"io_bytes\":%lld,%%' BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
             bytes);
    assert_int_equal(bl_test_sqlite_exec(addr, sql), 0);
}

#define NEED_BACKEND()                                                                             \
    do {                                                                                           \
        if (on_pg)                                                                                 \
            BL_TEST_PG_NEED();                                                                     \
    } while (0)

static void rm_rf(char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* 60 files of 3 transfers, one call: file 37's second record is refused by the store after
 * its first went in; file 20 is no benchmark output. Everything else is stored whole. */
static void test_one_file_fails_alone(void **state)
{
    (void)state;
    NEED_BACKEND();
    enum { N = 60, K = 37, JUNK = 20 };
    char *dir = bl_test_tmpdir(), cmd[1200], path[600];
    char *addr = new_store(dir);
    for (int i = 1; i <= N; i++)
        write_dd(dir, i, 3);
    snprintf(path, sizeof path, "%s/d%04d.txt", dir, JUNK);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("this is no benchmark output\n", f);
    fclose(f);
    refuse_bytes(addr, bytes_of(K, 2));
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' import --db '%s' d*.txt 2>err", dir, bin(), addr);
    int st;
    char *out = bl_test_sh(cmd, &st);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    snprintf(path, sizeof path, "%s/err", dir);
    char *err = bl_test_slurp(path);
    assert_non_null(strstr(err, "d0037.txt: import failed, store unchanged: "));
    assert_non_null(strstr(err, "injected failure"));
    assert_non_null(strstr(err, "d0020.txt: no benchmark output recognised"));
    /* a line a stored file, in the order given: 58 of them */
    assert_int_equal(bl_test_count_lines(out), N - 2);
    assert_null(strstr(out, "d0037.txt"));
    assert_null(strstr(out, "d0020.txt"));
    char *a = strstr(out, "d0036.txt: imported 3 records in 3 runs: ");
    char *b = strstr(out, "d0038.txt: imported 3 records in 3 runs: ");
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a < b);
    assert_non_null(strstr(out, "d0001.txt: imported 3 records"));
    assert_non_null(strstr(out, "d0060.txt: imported 3 records"));
    free(out);
    free(err);
    holding h;
    held(addr, &h, N);
    assert_int_equal(h.total, 3 * (N - 2));
    assert_int_equal(h.wrong, 0);
    for (int i = 1; i <= N; i++)
        assert_int_equal(h.records[i], i == K || i == JUNK ? 0 : 3);
    free(h.records);
    rm_rf(dir);
    free(addr);
}

/* The same content three times in one call: one path twice, and a copy under another name. */
/* The writer used WAL mode while it wrote; closed, the store is back to a rollback journal
 * with no -wal or -shm beside it, so a reader that may not write in its folder can read it
 * (a WAL store needs its -shm file there). */
static void assert_rollback_journal(const char *path)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "delete");
    sqlite3_finalize(st);
    sqlite3_close(db);
    char side[700];
    snprintf(side, sizeof side, "%s-wal", path);
    assert_int_equal(access(side, F_OK), -1);
    snprintf(side, sizeof side, "%s-shm", path);
    assert_int_equal(access(side, F_OK), -1);
}

static void test_same_content_twice(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir = bl_test_tmpdir(), cmd[1400];
    char *addr = new_store(dir);
    write_dd(dir, 1, 2);
    write_dd(dir, 2, 2);
    snprintf(cmd, sizeof cmd, "cp '%s/d0001.txt' '%s/copy.txt'", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' import --json --db '%s' d0001.txt d0002.txt d0001.txt copy.txt", dir,
             bin(), addr);
    int st;
    char *out = bl_test_sh(cmd, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(bl_test_count_lines(out), 4);
    char *first = strstr(out, "{\"source\":\"d0001.txt\",\"status\":\"imported\",\"records\":2,");
    char *again = strstr(out, "{\"source\":\"d0001.txt\",\"status\":\"skipped\",\"records\":2,");
    assert_non_null(first);
    assert_non_null(again);
    assert_true(first < again);
    assert_non_null(
        strstr(out, "{\"source\":\"d0002.txt\",\"status\":\"imported\",\"records\":2,"));
    assert_non_null(strstr(out, "{\"source\":\"copy.txt\",\"status\":\"skipped\",\"records\":2,"));
    /* the skipped ones name the runs the first stored */
    const char *runs = strstr(first, "\"runs\":");
    assert_non_null(runs);
    assert_memory_equal(strstr(again, "\"runs\":"), runs, 30);
    free(out);
    holding h;
    held(addr, &h, 2);
    assert_int_equal(h.total, 4);
    assert_int_equal(h.wrong, 0);
    assert_int_equal(h.records[1], 2);
    assert_int_equal(h.records[2], 2);
    free(h.records);
    if (!on_pg)
        assert_rollback_journal(addr);
    rm_rf(dir);
    free(addr);
}

/* Two imports of the same 300 files at once, in opposite orders: every file stored once
 * (a writer waiting on the other's batch, or deadlocked with it, finds it stored: skipped). */
static void test_two_writers_opposite_orders(void **state)
{
    (void)state;
    NEED_BACKEND();
    enum { N = 300 };
    char *dir = bl_test_tmpdir(), cmd[1600];
    char *addr = new_store(dir);
    for (int i = 1; i <= N; i++)
        write_dd(dir, i, 1);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && { '%s' import --json --db '%s' $(ls d*.txt) > a 2>aerr & "
             "'%s' import --json --db '%s' $(ls -r d*.txt) > b 2>berr; wait $!; echo $? > "
             "a.rc; }",
             dir, bin(), addr, bin(), addr);
    int st;
    free(bl_test_sh(cmd, &st));
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char path[600];
    snprintf(path, sizeof path, "%s/a.rc", dir);
    char *rc = bl_test_slurp(path);
    assert_string_equal(rc, "0\n");
    free(rc);
    size_t imported = 0, skipped = 0;
    for (int w = 0; w < 2; w++) {
        snprintf(path, sizeof path, "%s/%s", dir, w ? "b" : "a");
        char *said = bl_test_slurp(path);
        assert_int_equal(bl_test_count_lines(said), N);
        for (const char *p = said; (p = strstr(p, "\"status\":\"imported\"")); p++)
            imported++;
        for (const char *p = said; (p = strstr(p, "\"status\":\"skipped\"")); p++)
            skipped++;
        free(said);
    }
    assert_int_equal(imported, N);
    assert_int_equal(skipped, N);
    holding h;
    held(addr, &h, N);
    assert_int_equal(h.total, N);
    assert_int_equal(h.wrong, 0);
    for (int i = 1; i <= N; i++)
        assert_int_equal(h.records[i], 1);
    free(h.records);
    rm_rf(dir);
    free(addr);
}

static long lines_in(const char *path)
{
    char *s = bl_test_slurp(path);
    long n = s ? (long)bl_test_count_lines(s) : 0;
    free(s);
    return n;
}

/* kill -9 of an import of 1,500 files of 2 transfers, once a batch or more was told: the
 * store holds whole files only, at least those told, and is sound; importing again stores
 * the rest. */
static void test_kill_during_batches(void **state)
{
    (void)state;
    NEED_BACKEND();
    enum { N = 1500 };
    char *dir = bl_test_tmpdir(), said[600];
    char *addr = new_store(dir);
    for (int i = 1; i <= N; i++)
        write_dd(dir, i, 2);
    snprintf(said, sizeof said, "%s/said", dir);
    srand((unsigned)time(NULL));
    int killed = 0;
    long told = 0;
    for (int round = 0; round < 3 && !killed; round++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            int out = open(said, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            int null = open("/dev/null", O_WRONLY);
            dup2(out, 1);
            dup2(null, 2);
            assert_int_equal(chdir(dir), 0);
            char cmd[800];
            snprintf(cmd, sizeof cmd, "exec '%s' import --db '%s' d*.txt", bin(), addr);
            execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
            _exit(127);
        }
        /* until a batch has been told (or the import ended), then a moment more */
        int i = 0;
        for (; i < 6000 && lines_in(said) == 0; i++) {
            if (waitpid(pid, NULL, WNOHANG) == pid) {
                pid = 0;
                break;
            }
            usleep(5000);
        }
        if (!pid)
            break;
        usleep((useconds_t)(rand() % 100000));
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        killed = WIFSIGNALED(st);
        told = lines_in(said);
        /* It ended by itself before the kill (a slow test under valgrind sees its lines only
         * then): another round would find every file stored and prove nothing. */
        if (!killed)
            break;
    }
    /* An import that ended before the kill (it took 0.15 s; a slow machine sees its first
     * lines only then) is checked all the same: every file whole, every one told. */
    if (!killed)
        fprintf(stderr, "the import ended before the kill\n");
    holding h;
    held(addr, &h, N);
    assert_int_equal(h.wrong, 0);
    size_t whole = 0;
    for (int i = 1; i <= N; i++) {
        assert_true(h.records[i] == 0 || h.records[i] == 2);
        whole += h.records[i] == 2;
    }
    fprintf(stderr, "killed after %ld files told: %zu files stored whole, %zu records\n", told,
            whole, h.total);
    /* The kill may land after the last commit, before every line was told (whole == N):
     * still whole files only, and at least those told. */
    assert_true(whole >= (size_t)told && whole <= N);
    if (!killed)
        assert_true(whole == N && told == N);
    assert_int_equal(h.total, 2 * whole);
    free(h.records);
    if (!on_pg) {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(addr, &db), SQLITE_OK);
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL),
                         SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
        sqlite3_finalize(st);
        /* no import row without its records, no run without its import's */
        assert_int_equal(sqlite3_prepare_v2(db,
                                            "SELECT (SELECT count(*) FROM imports), (SELECT "
                                            "count(DISTINCT import_id) FROM records), (SELECT "
                                            "count(*) FROM runs)",
                                            -1, &st, NULL),
                         SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int(st, 0), (int)whole);
        assert_int_equal(sqlite3_column_int(st, 1), (int)whole);
        assert_int_equal(sqlite3_column_int(st, 2), 2 * (int)whole);
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    /* again: what was stored is skipped, the rest imported */
    char cmd[1000];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' import -q --db '%s' d*.txt", dir, bin(), addr);
    int st;
    free(bl_test_sh(cmd, &st));
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    held(addr, &h, N);
    assert_int_equal(h.total, 2 * N);
    assert_int_equal(h.wrong, 0);
    for (int i = 1; i <= N; i++)
        assert_int_equal(h.records[i], 2);
    free(h.records);
    rm_rf(dir);
    free(addr);
}

static int start_pg(void **state)
{
    on_pg = 1;
    return bl_test_pg_group_setup(state);
}

/* Runs SQL on the store at addr (either backend). */
static void store_sql(const char *addr, const char *sql)
{
    if (on_pg) {
        char db[128];
        assert_int_equal(bl_test_pg_sql(bl_test_pg_db_of(addr, db, sizeof db), sql), 0);
        return;
    }
    assert_int_equal(bl_test_sqlite_exec(addr, sql), 0);
}

/* The run IDs `import` printed for file i ("dNNNN.txt: imported 2 records in 2 runs: A B"). */
static void ids_of(const char *out, int i, char a[9], char b[9])
{
    char line[64];
    snprintf(line, sizeof line, "d%04d.txt: imported 2 records in 2 runs: ", i);
    const char *at = strstr(out, line);
    assert_non_null(at);
    assert_int_equal(sscanf(at + strlen(line), "%8s %8s", a, b), 2);
}

/* A run ID is 8 hex digits of a hash: the one a run would get may be held by another run
 * (at 10,000 runs, about one chance in a hundred). Three files in one call, the first run
 * of the second finding its ID taken: it gets the next one, its file is stored whole, and
 * the files around it (stored in one statement with it on PostgreSQL) are untouched. */
static void test_run_id_taken(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir = bl_test_tmpdir(), *scratch_dir = bl_test_tmpdir(), cmd[1200];
    char *scratch = new_store(scratch_dir), *addr = new_store(dir);
    for (int i = 1; i <= 3; i++)
        write_dd(dir, i, 2);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' import --db '%s' d0002.txt", dir, bin(), scratch);
    int st;
    char *out = bl_test_sh(cmd, &st);
    assert_int_equal(st, 0);
    char first[9], second[9];
    ids_of(out, 2, first, second);
    free(out);
    char sql[600];
    snprintf(sql, sizeof sql,
             "INSERT INTO imports(id, source, hash, format, imported_at) VALUES(1000, 'other', "
             "'taken', 'dd', '2026-01-01T00:00:00Z'); INSERT INTO runs(uid, import_id, run) "
             "VALUES('%s', 1000, 1);",
             first);
    store_sql(addr, sql);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' import --db '%s' d*.txt", dir, bin(), addr);
    out = bl_test_sh(cmd, &st);
    assert_int_equal(st, 0);
    char a[9], b[9];
    ids_of(out, 2, a, b);
    assert_string_not_equal(a, first); /* the next window of the same hash */
    assert_true(bl_is_run_id(a));
    assert_string_equal(b, second);
    ids_of(out, 1, a, b);
    ids_of(out, 3, a, b);
    free(out);
    holding h;
    held(addr, &h, 3);
    assert_int_equal(h.total, 6);
    assert_int_equal(h.wrong, 0);
    for (int i = 1; i <= 3; i++)
        assert_int_equal(h.records[i], 2);
    free(h.records);
    rm_rf(dir);
    rm_rf(scratch_dir);
    free(addr);
    free(scratch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_file_fails_alone),
        cmocka_unit_test(test_same_content_twice),
        cmocka_unit_test(test_two_writers_opposite_orders),
        cmocka_unit_test(test_kill_during_batches),
        cmocka_unit_test(test_run_id_taken),
    };
    int failed = cmocka_run_group_tests_name("sqlite", tests, NULL, NULL);
    return failed +
           cmocka_run_group_tests_name("postgresql", tests, start_pg, bl_test_pg_group_teardown);
}
