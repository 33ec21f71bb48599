/* End to end through the benchlog program: parse, import (twice), list, export, and the
 * exit status and one-line messages of SPEC for bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DD_FIXTURE "fixtures/dd/gnu-dd-9.1_c_write_read.txt"

static void test_parse_dd(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(bl_test_benchlogf(&out, &err, "parse %s", DD_FIXTURE), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    /* 67108864 bytes (67 MB, 64 MiB) copied, 0.281737 s, 238 MB/s  (of=file: a write) */
    assert_non_null(strstr(out, "\"line\":4,\"run\":1,\"tool\":\"dd\""));
    assert_non_null(strstr(out, "\"test\":\"seq-write\",\"op\":\"write\""));
    assert_non_null(strstr(out, "\"bs\":1048576"));
    assert_non_null(strstr(out, "\"io_bytes\":67108864,\"runtime_s\":0.281737"));
    /* 67108864 / 0.281737 = 238196843.155... B/s, printed by dd as 238 MB/s */
    assert_non_null(strstr(out, "\"bw_bytes_s\":238196843.155"));
    assert_non_null(strstr(out, "\"test\":\"seq-read\",\"op\":\"read\""));
    assert_non_null(strstr(out, "\"runtime_s\":0.0146754"));
    assert_non_null(strstr(out, "\"dd_bs\":\"64k\""));
    assert_string_equal(err, "");
    free(out);
    free(err);
}

static void test_import_twice_list_export(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *out, *err;
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "import --db %s/s.db --label host=nas1 %s", dir, DD_FIXTURE),
        0);
    assert_non_null(strstr(out, "imported 2 records in 2 runs")); /* the result, on stdout */
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, &err, "import --db %s/s.db %s", dir, DD_FIXTURE), 0);
    assert_non_null(strstr(out, "already in the store"));
    assert_string_equal(err, "");
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s/s.db", dir), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    assert_non_null(strstr(out, "host=nas1"));
    free(out);
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "export --db %s/s.db --jsonl test=seq-read", dir), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_non_null(strstr(out, "\"runtime_s\":0.0146754"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s/s.db --csv host=nas1", dir), 0);
    assert_int_equal(bl_test_count_lines(out), 3);
    assert_true(strncmp(out, "source,line,run,tool,", 21) == 0);
    assert_non_null(strstr(out, ",67108864,0.281737,"));
    free(out);
    /* $BENCHLOG_DB is the default store */
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "--version >/dev/null; BENCHLOG_DB=%s/s.db %s list", dir,
                          getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog"),
        0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static void expect_error(int want_rc, const char *want_msg, const char *args)
{
    char *out, *err;
    int rc = bl_test_benchlog(args, &out, &err);
    if (rc != want_rc || !strstr(err, want_msg))
        print_error("benchlog %s: rc %d, stderr: %s\n", args, rc, err);
    assert_int_equal(rc, want_rc);
    assert_non_null(strstr(err, want_msg));
    assert_string_equal(out, "");
    free(out);
    free(err);
}

static void test_bad_input(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char path[256], args[512];
    snprintf(path, sizeof path, "%s/empty.txt", dir);
    fclose(fopen(path, "w"));
    snprintf(args, sizeof args, "parse %s", path);
    expect_error(1, "empty.txt: empty input", args);

    snprintf(path, sizeof path, "%s/binary.bin", dir);
    FILE *f = fopen(path, "wb");
    for (int i = 0; i < 4096; i++)
        fputc((i * 7919) & 0xff, f);
    fclose(f);
    snprintf(args, sizeof args, "parse %s", path);
    expect_error(1, "binary.bin: binary data", args);

    expect_error(1, "no-such-file.txt: cannot open: No such file", "parse no-such-file.txt");
    snprintf(args, sizeof args, "parse %s", dir);
    expect_error(1, ": is a directory", args);
    expect_error(2, "unknown format 'nope'", "parse --as nope " DD_FIXTURE);
    expect_error(2, "no FILE given", "parse");
    expect_error(2, "unknown option '--frobnicate'", "import --frobnicate x");
    expect_error(2, "no command 'frob'", "frob");
    expect_error(2, "filter 'bogus' is not KEY=VALUE", "list bogus");
    /* Reading commands do not create a store by a typo in --db. */
    snprintf(path, sizeof path, "%s/typo.db", dir);
    static const char *const readers[] = {"list", "export", "report", "xlsx -o x.xlsx",
                                          "chart -o x.png"};
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        snprintf(args, sizeof args, "%s --db %s", readers[i], path);
        expect_error(1, "typo.db: no store there", args);
        assert_int_not_equal(access(path, F_OK), 0);
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* A file with a good record and garbage still gives the good record, and exit 0 since
 * the garbage is prose, not a broken result. */
static void test_good_records_kept(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(
        bl_test_benchlogf(&out, &err, "parse - < %s", "fixtures/dd/gnu-dd-9.1_c_write_read.txt"),
        0);
    assert_int_equal(bl_test_count_lines(out), 2);
    assert_non_null(strstr(out, "\"source\":\"<stdin>\""));
    free(out);
    free(err);
}

static void test_help_and_version(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--version"), 0);
    assert_true(strncmp(out, "benchlog ", 9) == 0);
    free(out);
    static const char *const cmds[] = {"parse", "import", "run",  "list",    "export", "report",
                                       "chart", "xlsx",   "show", "relabel", "delete"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        assert_int_equal(bl_test_benchlogf(&out, NULL, "%s --help", cmds[i]), 0);
        assert_non_null(strstr(out, "Usage: benchlog "));
        free(out);
        assert_int_equal(bl_test_benchlogf(&out, NULL, "help %s", cmds[i]), 0);
        assert_non_null(strstr(out, "Usage: benchlog "));
        free(out);
    }
    assert_int_equal(bl_test_benchlogf(&out, NULL, "help"), 0);
    assert_non_null(strstr(out, "Commands:"));
    free(out);
}

/* A file that grows while benchlog reads it: whatever snapshot is read parses, nothing
 * crashes, every record is whole. */
static void test_file_changing_while_read(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *out, *err;
    char args[1024];
    snprintf(args, sizeof args,
             "--version >/dev/null; (for i in $(seq 1 3000); do cat %s; done >> %s/grow.txt &"
             " w=$!; sleep 0.05; %s parse %s/grow.txt; rc=$?; wait $w; exit $rc)",
             DD_FIXTURE, dir, getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog",
             dir);
    int rc = bl_test_benchlog(args, &out, &err);
    assert_true(rc == 0 || rc == 1);
    /* every line printed is one whole record */
    for (char *p = out; *p; p = strchr(p, '\n') + 1) {
        assert_true(strncmp(p, "{\"source\":", 10) == 0);
        char *nl = strchr(p, '\n');
        assert_non_null(nl);
        assert_int_equal(nl[-1], '}');
    }
    free(out);
    free(err);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_dd),         cmocka_unit_test(test_import_twice_list_export),
        cmocka_unit_test(test_bad_input),        cmocka_unit_test(test_good_records_kept),
        cmocka_unit_test(test_help_and_version), cmocka_unit_test(test_file_changing_while_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
