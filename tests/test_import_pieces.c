/* `import` of a big dd text read in pieces (parsers/driver_pieces.c) stores each piece's
 * records as they come, into one import (core/store.h's bl_import), one transaction:
 * - peak memory stays flat: 100,000 dd summary lines peak under 40 MB (the whole file's
 *   records held before storing took 99 MB at this size, 912 MB at 1,000,000 lines);
 * - a store failure in a later piece (an SQL trigger refusing line 23,000 of 24,000) leaves
 *   nothing of the file stored, the file before it on the same command line kept, and the
 *   file imports whole once the trigger is gone;
 * - kill -9 while the pieces are being written leaves nothing of the file (SQLite);
 * - importing it again is a duplicate, checked piece by piece against the stored records.
 * The tests of both backends run on SQLite and on a real PostgreSQL server. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

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

/* dd's line for transfer i: i MiB in 1.5 + i % 7 seconds, at the rate dd prints (kB/s). */
static void write_dd(const char *path, long n)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (long i = 1; i <= n; i++) {
        long b = i * 1048576L;
        double secs = 1.5 + (double)(i % 7);
        fprintf(f, "%ld bytes copied, %.1f s, %.0f kB/s\n", b, secs, (double)b / secs / 1e3);
    }
    assert_int_equal(fclose(f), 0);
}

static off_t size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : 0;
}

/* An SQLite store's pages: its file and its write-ahead log (a writer's store is in WAL
 * mode: an import's pages grow the log, and the file only once they are checkpointed). */
static off_t store_size(const char *path)
{
    char wal[600];
    snprintf(wal, sizeof wal, "%s-wal", path);
    return size_of(path) + size_of(wal);
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

typedef struct tally {
    size_t n;
    bl_strbuf last;
} tally;

static int count_json(void *ctx, const char *json, size_t len, const char *run_id)
{
    (void)run_id;
    tally *t = ctx;
    t->n++;
    bl_strbuf_reset(&t->last);
    bl_strbuf_putn(&t->last, json, len);
    return 0;
}

/* The records stored whose source is `source` (all when NULL); the last one's JSON in last
 * (when not NULL, caller frees). */
static size_t stored(const char *addr, const char *source, char **last)
{
    char err[512], term[600];
    bl_store *s = bl_store_open_existing(addr, err, sizeof err);
    assert_non_null(s);
    tally t = {0};
    bl_strbuf_init(&t.last);
    bl_filter ff = {0}, *f = NULL;
    if (source) {
        snprintf(term, sizeof term, "source=%s", source);
        assert_int_equal(bl_filter_add(&ff, term, err, sizeof err), 0);
        f = &ff;
    }
    assert_int_equal(bl_store_each_json(s, f, count_json, &t, err, sizeof err), 0);
    bl_filter_free(&ff);
    bl_store_close(s);
    if (last)
        *last = bl_strbuf_take(&t.last);
    else
        bl_strbuf_free(&t.last);
    return t.n;
}

/* Makes the store refuse the record of line `line` (an error injected in a later piece), or
 * (line 0) takes that away. */
static void inject_failure(const char *addr, long line)
{
    char sql[600];
    if (on_pg) {
        char db[128];
        bl_test_pg_db_of(addr, db, sizeof db);
        if (line)
            snprintf(sql, sizeof sql,
                     "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF "
                     "NEW.line = %ld THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN "
                     "NEW; END $$; CREATE TRIGGER refuse BEFORE INSERT ON records FOR EACH ROW "
                     "EXECUTE FUNCTION refuse();",
                     line);
        else
            snprintf(sql, sizeof sql, "DROP TRIGGER refuse ON records;");
        assert_int_equal(bl_test_pg_sql(db, sql), 0);
        return;
    }
    if (line)
        snprintf(sql, sizeof sql,
                 "CREATE TRIGGER refuse BEFORE INSERT ON records WHEN NEW.line = %ld BEGIN "
                 "SELECT RAISE(ABORT, 'injected failure'); END;",
                 line);
    else
        snprintf(sql, sizeof sql, "DROP TRIGGER refuse;");
    assert_int_equal(bl_test_sqlite_exec(addr, sql), 0);
}

#define NEED_BACKEND()                                                                             \
    do {                                                                                           \
        if (on_pg)                                                                                 \
            BL_TEST_PG_NEED();                                                                     \
    } while (0)

static void test_import_in_flat_memory(void **state)
{
    (void)state;
    NEED_BACKEND();
    if (!bl_test_memory_measurable())
        bl_skip_because("memory measurement: ASan and valgrind hold memory of their own");
    char *dir = bl_test_tmpdir(), path[512], cmd[2048];
    char *addr = new_store(dir);
    snprintf(path, sizeof path, "%s/dd.txt", dir);
    write_dd(path, 100000);
    snprintf(cmd, sizeof cmd, "'%s' import -q --db '%s' '%s' > '%s/said'", bin(), addr, path, dir);
    int st;
    long kib = bl_test_peak_kib_of(cmd, &st);
    fprintf(stderr, "import of 100,000 dd lines (%s): peak RSS %ld KiB\n",
            on_pg ? "PostgreSQL" : "SQLite", kib);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *last = NULL;
    assert_int_equal(stored(addr, NULL, &last), 100000);
    /* transfer 100,000: 104857600000 bytes in 1.5 + 100000 % 7 = 6.5 s, line 100000 */
    assert_non_null(strstr(last, "\"line\":100000,\"run\":100000,"));
    assert_non_null(strstr(last, "\"io_bytes\":104857600000,\"runtime_s\":6.5,"));
    assert_non_null(strstr(last, "\"bw_bytes_s\":16131938461.5"));
    free(last);
    assert_true(kib <= 40 * 1024);
    /* again: the same content, found before anything is written, checked piece by piece */
    snprintf(cmd, sizeof cmd, "'%s' import --json --db '%s' '%s' > '%s/said'", bin(), addr, path,
             dir);
    kib = bl_test_peak_kib_of(cmd, &st);
    fprintf(stderr, "the same again, skipped: peak RSS %ld KiB\n", kib);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    snprintf(cmd, sizeof cmd, "%s/said", dir);
    char *said = bl_test_slurp(cmd);
    assert_non_null(strstr(said, "\"status\":\"skipped\",\"records\":100000,"));
    free(said);
    assert_int_equal(stored(addr, NULL, NULL), 100000);
    assert_true(kib <= 40 * 1024);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(addr);
    free(dir);
}

/* 24,000 lines (1.1 MB, over the 1 MiB from which a file is read in pieces of 8,192 lines);
 * the third piece fails. benchlog runs without valgrind even under `make valgrind` (it
 * would take minutes); test_store checks the store's steps under it. */
static void test_later_piece_fails(void **state)
{
    (void)state;
    NEED_BACKEND();
    char *dir = bl_test_tmpdir(), big[512], small[512];
    char *addr = new_store(dir);
    snprintf(big, sizeof big, "%s/big.txt", dir);
    snprintf(small, sizeof small, "%s/small.txt", dir);
    write_dd(big, 24000);
    write_dd(small, 3);
    assert_true(size_of(big) > (1 << 20));
    inject_failure(addr, 23000);
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "'%s' import --db '%s' '%s' '%s' 2>'%s/err'", bin(), addr, small, big,
             dir);
    int st;
    char *out = bl_test_sh(cmd, &st), *err;
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    snprintf(cmd, sizeof cmd, "%s/err", dir);
    err = bl_test_slurp(cmd);
    assert_non_null(strstr(err, "big.txt: import failed, store unchanged: "));
    assert_non_null(strstr(err, "injected failure"));
    assert_non_null(strstr(out, "small.txt: imported 3 records"));
    assert_null(strstr(out, "big.txt"));
    free(out);
    free(err);
    assert_int_equal(stored(addr, small, NULL), 3);
    assert_int_equal(stored(addr, big, NULL), 0);
    assert_int_equal(stored(addr, NULL, NULL), 3);
    /* nothing of it was kept, not even its content key: without the fault it imports whole */
    inject_failure(addr, 0);
    snprintf(cmd, sizeof cmd, "'%s' import --db '%s' '%s'", bin(), addr, big);
    out = bl_test_sh(cmd, &st);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_non_null(strstr(out, "big.txt: imported 24000 records in 24000 runs"));
    free(out);
    char *last = NULL;
    assert_int_equal(stored(addr, big, &last), 24000);
    /* transfer 24,000: 25165824000 bytes in 1.5 + 24000 % 7 = 5.5 s */
    assert_non_null(strstr(last, "\"line\":24000,\"run\":24000,"));
    assert_non_null(strstr(last, "\"io_bytes\":25165824000,\"runtime_s\":5.5,"));
    free(last);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(addr);
    free(dir);
}

/* kill -9 once the pieces are being written (the store file and its log have grown by pages
 * of the import's records, some MB): the store holds nothing of the file and is sound. */
static void test_kill_while_pieces_stored(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512];
    char *addr = new_store(dir);
    snprintf(path, sizeof path, "%s/dd.txt", dir);
    write_dd(path, 100000);
    off_t empty = store_size(addr);
    int killed = 0;
    for (int round = 0; round < 3 && !killed; round++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execl(bin(), bin(), "import", "--db", addr, path, (char *)NULL);
            _exit(127);
        }
        /* until the import has spilled pages of its records (or ended) */
        for (int i = 0; i < 6000 && store_size(addr) < empty + (1 << 20) + round * (4 << 20); i++) {
            if (waitpid(pid, NULL, WNOHANG) == pid) {
                pid = 0;
                break;
            }
            usleep(5000);
        }
        if (!pid)
            break;
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        killed = WIFSIGNALED(st);
        assert_int_equal(stored(addr, NULL, NULL), 0);
    }
    if (!killed)
        bl_skip_because("the import ended before it could be killed");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(addr, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM imports", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(addr);
    free(dir);
}

static int start_pg(void **state)
{
    on_pg = 1;
    return bl_test_pg_group_setup(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_later_piece_fails),
        cmocka_unit_test(test_kill_while_pieces_stored),
        cmocka_unit_test(test_import_in_flat_memory),
    };
    const struct CMUnitTest both[] = {
        cmocka_unit_test(test_later_piece_fails),
        cmocka_unit_test(test_import_in_flat_memory),
    };
    int failed = cmocka_run_group_tests_name("sqlite", tests, NULL, NULL);
    return failed +
           cmocka_run_group_tests_name("postgresql", both, start_pg, bl_test_pg_group_teardown);
}
