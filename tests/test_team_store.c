/* The team store on a real PostgreSQL server (tests/support/pgserver.h): the same imports
 * give the same report and export as on SQLite; 16 writers of different files and 2 of the
 * same files at once store every record once; a role with SELECT rights only reads with
 * every reading command and cannot write; a password never shows in a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/pgserver.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILES                                                                                      \
    "fixtures/dd/*.txt fixtures/bonnie/*.txt fixtures/bonnie/*.csv fixtures/fio/*.out "            \
    "fixtures/fio/*.json"

/* `benchlog ARGS` whose exit status must be want; its stdout (caller frees). run_ok runs
 * it as the tests run every command (under valgrind in `make valgrind`); run_setup always
 * natively: the imports and the SQLite references a test compares with, which other tests
 * cover, so that the valgrind run stays short. */
static char *run_args(int native, int want, const char *fmt, va_list ap)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_vprintf(&sb, fmt, ap);
    char *out, *err;
    int rc;
    if (native) {
        const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
        bl_strbuf cmd;
        bl_strbuf_init(&cmd);
        bl_strbuf_printf(&cmd, "%s %s 2>/dev/null </dev/null", bin, sb.s);
        int st;
        out = bl_test_sh(cmd.s, &st);
        rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
        err = bl_xstrdup("(not kept)");
        bl_strbuf_free(&cmd);
    } else {
        rc = bl_test_benchlog(sb.s, &out, &err);
    }
    if (rc != want)
        print_error("benchlog %s: exit %d, stderr: %s\n", sb.s, rc, err);
    assert_int_equal(rc, want);
    free(err);
    bl_strbuf_free(&sb);
    return out;
}

static char *run_ok(int want, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *run_ok(int want, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = run_args(0, want, fmt, ap);
    va_end(ap);
    return out;
}

static char *run_setup(int want, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *run_setup(int want, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = run_args(1, want, fmt, ap);
    va_end(ap);
    return out;
}

/* The lines of text, sorted: stores written by concurrent writers hold the same records in
 * another order. */
static char *sorted(const char *text)
{
    char *dir = bl_test_tmpdir();
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/in", dir);
    FILE *f = fopen(sb.s, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    bl_strbuf_reset(&sb);
    bl_strbuf_printf(&sb, "LC_ALL=C sort %s/in; rm -rf %s", dir, dir);
    char *out = bl_test_sh(sb.s, NULL);
    bl_strbuf_free(&sb);
    free(dir);
    return out;
}

/* report, list and export --jsonl of the same imports: byte for byte the same on both. */
static void test_same_outputs_on_both(void **state)
{
    (void)state;
    BL_TEST_PG_NEED();
    char *dir = bl_test_tmpdir(), *url = bl_test_pg_new_db();
    free(run_ok(0, "import --db %s/s.db " FILES, dir));
    free(run_ok(0, "import --db '%s' " FILES, url));
    static const char *const cmds[] = {"export",
                                       "export --csv",
                                       "report",
                                       "report --md",
                                       "list",
                                       "list tool=fio",
                                       "export tool=fio test!=x",
                                       "report tool=bonnie++"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *a = run_ok(0, "%s --db %s/s.db", cmds[i], dir);
        /* under valgrind the first three only: the same code paths */
        char *b = i < 3 || !getenv("BENCHLOG_VALGRIND")
                      ? run_ok(0, "%s --db '%s'", cmds[i], url)
                      : run_setup(0, "%s --db '%s'", cmds[i], url);
        if (strcmp(a, b) != 0)
            print_error("%s differs:\n--- sqlite\n%s--- postgresql\n%s", cmds[i], a, b);
        assert_string_equal(a, b);
        assert_true(strlen(a) > 100);
        free(a);
        free(b);
    }
    char *exported = run_setup(0, "export --db '%s'", url);
    char *local = run_setup(0, "export --db %s/s.db", dir);
    assert_int_equal(bl_test_count_lines(exported), bl_test_count_lines(local));
    assert_true(bl_test_count_lines(local) > 100);
    free(local);
    free(exported);
    free(url);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* 16 writers each import one file while 2 more import all of them, all at once: every
 * record is stored once, as one writer alone stores them. */
static void test_many_writers(void **state)
{
    (void)state;
    BL_TEST_PG_NEED();
    char *dir = bl_test_tmpdir(), *url = bl_test_pg_new_db();
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb,
                     "set -- $(ls " FILES " | head -n 16); i=0; pids=; for f; do "
                     "%s import --db '%s' \"$f\" >/dev/null 2>%s/w$i.err & "
                     "pids=\"$pids $!\"; i=$((i+1)); done; "
                     "%s import --db '%s' \"$@\" >/dev/null 2>%s/a.err & pids=\"$pids $!\"; "
                     "%s import --db '%s' \"$@\" >/dev/null 2>%s/b.err & pids=\"$pids $!\"; "
                     "n=0; fail=0; for p in $pids; do wait $p || fail=1; n=$((n+1)); done; "
                     "cat %s/*.err; echo waited=$n fail=$fail",
                     bin, url, dir, bin, url, dir, bin, url, dir, dir);
    char *out = bl_test_sh(sb.s, NULL);
    /* each writer waited for by its pid ($(jobs -p) is empty in dash's subshell) */
    if (!strstr(out, "waited=18 fail=0"))
        print_error("writers: %s\n", out);
    assert_non_null(strstr(out, "waited=18 fail=0"));
    free(out);
    /* the same 16 files, one writer, in an SQLite file */
    free(run_setup(0, "import --db %s/one.db $(ls " FILES " | head -n 16)", dir));
    char *one = run_setup(0, "export --db %s/one.db", dir);
    char *many = run_setup(0, "export --db '%s'", url);
    char *a = sorted(one), *b = sorted(many);
    assert_true(bl_test_count_lines(a) > 50);
    assert_string_equal(a, b);
    /* each source is one import, its runs once: list shows as many runs as alone */
    char *la = run_setup(0, "list --db %s/one.db", dir);
    char *lb = run_setup(0, "list --db '%s'", url);
    assert_int_equal(bl_test_count_lines(la), bl_test_count_lines(lb));
    free(la);
    free(lb);
    free(a);
    free(b);
    free(one);
    free(many);
    bl_strbuf_free(&sb);
    free(url);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* A role that may only SELECT runs every reading command, the same as the owner; a write
 * is refused by the server and changes nothing. */
static void test_read_only_role(void **state)
{
    (void)state;
    BL_TEST_PG_NEED();
    char *dir = bl_test_tmpdir(), *url = bl_test_pg_new_db();
    free(run_setup(0, "import --db '%s' " FILES, url));
    char db[64];
    bl_test_pg_db_of(url, db, sizeof db);
    assert_int_equal(bl_test_pg_sql("postgres", "DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles "
                                                "WHERE rolname = 'reader') THEN CREATE ROLE "
                                                "reader LOGIN; END IF; END$$"),
                     0);
    assert_int_equal(bl_test_pg_sql(db, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader"),
                     0);
    char *ro = bl_test_pg_url(db, "reader");
    static const char *const reads[] = {"list", "export", "export --csv", "report", "report --md"};
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
        char *a = run_ok(0, "%s --db '%s'", reads[i], url);
        char *b = run_ok(0, "%s --db '%s'", reads[i], ro);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    char *ids = run_setup(0, "list --db '%s' tool=dd", ro);
    char id[9];
    snprintf(id, sizeof id, "%s", ids);
    char *shown = run_ok(0, "show --db '%s' %s", ro, id);
    assert_non_null(strstr(shown, id));
    free(shown);
    free(ids);
    /* (one page: more than ten set-ups would make c-1.svg, c-2.svg...) */
    free(run_ok(0, "chart --db '%s' -o %s/c.svg tool=dd dd_of=/dev/null", ro, dir));
    free(run_setup(0, "chart --db '%s' -o %s/owner.svg tool=dd dd_of=/dev/null", url, dir));
    char cmp[512];
    snprintf(cmp, sizeof cmp, "cmp %s/c.svg %s/owner.svg", dir, dir);
    assert_int_equal(system(cmp), 0);
    free(run_ok(0, "xlsx --db '%s' -o %s/w.xlsx tool=dd", ro, dir));
    char path[256];
    snprintf(path, sizeof path, "%s/w.xlsx", dir);
    assert_int_equal(access(path, F_OK), 0);
    /* writes: refused, the store as it was */
    char *before = run_setup(0, "export --db '%s'", url);
    char *out, *err;
    assert_int_not_equal(bl_test_benchlogf(&out, &err, "relabel --db '%s' tool=dd -- x=y", ro), 0);
    assert_non_null(strstr(err, "permission denied"));
    free(out);
    free(err);
    assert_int_not_equal(bl_test_benchlogf(&out, &err, "import --db '%s' fixtures/cdm/*.txt", ro),
                         0);
    free(out);
    free(err);
    free(run_setup(1, "delete -y --db '%s' tool=dd", ro));
    char *after = run_setup(0, "export --db '%s'", url);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(ro);
    free(url);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* A password in the address never reaches a message; what is wrong still does. */
static void test_password_not_printed(void **state)
{
    (void)state;
    BL_TEST_PG_NEED();
    char url[256];
    snprintf(url, sizeof url, "postgresql://benchlog:s3cret@/nosuchdb?host=%s&password=0ther",
             bl_test_pg_socket_dir());
    char *out, *err;
    assert_int_equal(bl_test_benchlogf(&out, &err, "list --db '%s'", url), 1);
    assert_null(strstr(err, "s3cret"));
    assert_null(strstr(err, "0ther"));
    assert_non_null(strstr(err, "postgresql://benchlog@/nosuchdb?host="));
    assert_non_null(strstr(err, "\"nosuchdb\" does not exist"));
    free(out);
    free(err);
    /* a store made by another program is left alone */
    char *other = bl_test_pg_new_db();
    char db[64];
    bl_test_pg_db_of(other, db, sizeof db);
    assert_int_equal(bl_test_pg_sql(db, "CREATE TABLE imports(x int)"), 0);
    assert_int_equal(bl_test_benchlogf(&out, &err, "import --db '%s' fixtures/dd/*.txt", other), 1);
    assert_non_null(strstr(err, "not a benchlog store"));
    free(out);
    free(err);
    free(other);
}

/* How many records and distinct sources an export (JSON Lines) holds: what a copy of its
 * runs must move, counted from the store the test made rather than written down, so that a
 * fixture added under FILES' globs changes both sides alike. */
static void export_counts(const char *jsonl, size_t *records, size_t *sources)
{
    char **seen = NULL;
    size_t n_seen = 0, n = 0;
    for (const char *p = jsonl; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *s = strstr(p, "\"source\":\"");
        if (s && s < p + len) {
            s += 10;
            size_t sl = strcspn(s, "\"");
            size_t k = 0;
            while (k < n_seen && !(strlen(seen[k]) == sl && strncmp(seen[k], s, sl) == 0))
                k++;
            if (k == n_seen) {
                seen = realloc(seen, (n_seen + 1) * sizeof *seen);
                assert_non_null(seen);
                seen[n_seen++] = strndup(s, sl);
            }
        }
        n += len > 0;
        p += len + (eol != NULL);
    }
    for (size_t k = 0; k < n_seen; k++)
        free(seen[k]);
    free(seen);
    *records = n;
    *sources = n_seen;
}

/* push and pull: a laptop's SQLite store to the team's and back into another file; run
 * IDs and labels travel, a second push copies nothing, a filter copies its runs only. */
static void test_push_pull(void **state)
{
    (void)state;
    BL_TEST_PG_NEED();
    char *dir = bl_test_tmpdir(), *url = bl_test_pg_new_db();
    free(run_setup(0, "import --db %s/laptop.db " FILES, dir));
    free(run_setup(0, "relabel --db %s/laptop.db tool=dd -- team=storage", dir));
    size_t dd_records, dd_sources, all_records, all_sources;
    char *ex = run_setup(0, "export --db %s/laptop.db tool=dd", dir);
    export_counts(ex, &dd_records, &dd_sources);
    free(ex);
    ex = run_setup(0, "export --db %s/laptop.db", dir);
    export_counts(ex, &all_records, &all_sources);
    free(ex);
    assert_true(dd_sources >= 10 && all_sources > dd_sources && all_records > dd_records);
    char want[160];
    char *out = run_ok(0, "push --db %s/laptop.db --to '%s' tool=dd", dir, url);
    snprintf(want, sizeof want, "push: %zu sources copied (%zu records), 0 already in", dd_sources,
             dd_records);
    assert_non_null(strstr(out, want));
    free(out);
    char *dd = run_setup(0, "export --db '%s'", url);
    assert_int_equal(bl_test_count_lines(dd), dd_records);
    assert_non_null(strstr(dd, "\"team\":\"storage\""));
    free(dd);
    out = run_ok(0, "push --db %s/laptop.db --to '%s'", dir, url);
    snprintf(want, sizeof want, "(%zu records), %zu already in", all_records - dd_records,
             dd_sources);
    assert_non_null(strstr(out, want));
    free(out);
    out = run_ok(0, "push --db %s/laptop.db --to '%s'", dir, url);
    snprintf(want, sizeof want, "push: 0 sources copied (0 records), %zu already in", all_sources);
    assert_non_null(strstr(out, want));
    free(out);
    out = run_ok(0, "pull --db %s/desk.db --from '%s'", dir, url);
    snprintf(want, sizeof want, "pull: %zu sources copied (%zu records), 0 already in", all_sources,
             all_records);
    assert_non_null(strstr(out, want));
    free(out);
    static const char *const cmds[] = {"export", "list", "report"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *a = run_setup(0, "%s --db %s/laptop.db", cmds[i], dir);
        char *b = run_setup(0, "%s --db %s/desk.db", cmds[i], dir);
        char *c = run_setup(0, "%s --db '%s'", cmds[i], url);
        assert_string_equal(a, b);
        assert_string_equal(a, c);
        free(a);
        free(b);
        free(c);
    }
    char *err;
    assert_int_equal(
        bl_test_benchlogf(&out, &err, "push --db %s/desk.db --to %s/desk.db", dir, dir), 2);
    free(out);
    free(err);
    free(url);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_outputs_on_both),
        cmocka_unit_test(test_many_writers),
        cmocka_unit_test(test_read_only_role),
        cmocka_unit_test(test_password_not_printed),
        cmocka_unit_test(test_push_pull),
    };
    return cmocka_run_group_tests(tests, bl_test_pg_group_setup, bl_test_pg_group_teardown);
}
