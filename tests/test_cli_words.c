/* What the commands say and where (issue 32): counts in words that agree ("1 record", "2
 * records") in the text report, the HTML page and the workbook; `run`'s result on stdout as
 * import's is (--json: JSON Lines); -q silencing the notes of chart, report and xlsx while
 * errors still print. Every store here is made from fixtures/dd/gnu-dd-9.1_C_time.txt (one dd
 * run: 409600000 bytes in 0.614518 s, 666.5 MB/s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DD_ONE "fixtures/dd/gnu-dd-9.1_C_time.txt"
#define DD_TWO "fixtures/dd/gnu-dd-9.1_c_write_read.txt"

static char *run_ok(const char *want_in_out, const char *fmt, const char *dir, const char *more)
{
    char *out, *err;
    int rc = bl_test_benchlogf(&out, &err, fmt, dir, more);
    if (rc != 0)
        fail_msg("benchlog %s %s: status %d: %s", dir, more, rc, err);
    if (want_in_out && !strstr(out, want_in_out))
        fail_msg("'%s' not in:\n%s", want_in_out, out);
    free(err);
    return out;
}

static void rm_dir(char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static int contains(const char *hay, const char *needle)
{
    if (strstr(hay, needle))
        return 1;
    printf("'%s' not in:\n%s\n", needle, hay);
    return 0;
}

/* The counts of a store's text report, page and workbook: n records, tests and set-ups. */
static void check_counts(const char *dir, const char *text, const char *meta, const char *book)
{
    char *out = run_ok(NULL, "--db %s/w.db report%s", dir, "");
    assert_true(contains(out, "666.5 MB/s")); /* dd's 409600000 bytes in 0.614518 s */
    assert_true(contains(out, text));
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/w.html", dir);
    free(run_ok(NULL, "--db %s/w.db report --html -o %s", dir, path));
    char *page = bl_test_slurp(path);
    assert_non_null(page);
    assert_true(contains(page, meta));
    free(page);
    if (!bl_test_have("unzip"))
        return;
    snprintf(path, sizeof path, "%s/w.xlsx", dir);
    free(run_ok(NULL, "--db %s/w.db xlsx -o %s", dir, path));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "unzip -p '%s' docProps/core.xml", path);
    char *core = bl_test_sh(cmd, NULL);
    assert_true(contains(core, book));
    free(core);
}

static void test_counts_agree(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char one[1100], two[1100];
    snprintf(one, sizeof one, "%s/" DD_ONE, cwd);
    snprintf(two, sizeof two, "%s/" DD_TWO, cwd);
    free(run_ok("gnu-dd-9.1_C_time.txt: imported 1 record in 1 run: ", "--db %s/w.db import %s",
                dir, one));
    check_counts(dir, "MB/s = 10^6 bytes/s. 1 record, 1 test, 1 column.",
                 "1 record · 1 test × 1 set-up (", "1 record, 1 test, 1 set-up;");
    free(run_ok("gnu-dd-9.1_c_write_read.txt: imported 2 records in 2 runs: ",
                "--db %s/w.db import %s", dir, two));
    check_counts(dir, "MB/s = 10^6 bytes/s. 3 records, 3 tests, 2 columns.",
                 "3 records · 3 tests × 2 set-ups (", "3 records, 3 tests, 2 set-ups;");
    rm_dir(dir);
}

/* The run ID in a result line after prefix: 8 hex digits. */
static void run_id(const char *s, const char *prefix, char id[9])
{
    const char *p = strstr(s, prefix);
    if (!p)
        fail_msg("'%s' not in:\n%s", prefix, s);
    p += strlen(prefix);
    for (int i = 0; i < 8; i++)
        assert_true(isxdigit((unsigned char)p[i]));
    memcpy(id, p, 8);
    id[8] = 0;
}

/* benchlog run says what it stored on stdout, as import does; --json as JSON Lines. The null
 * engine does no I/O: a 50 ms run. */
static void test_run_result_on_stdout(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512];
    snprintf(path, sizeof path, "%s/tiny.fio", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("[tiny]\nioengine=null\nrw=read\nbs=4k\nsize=1m\nruntime=50ms\ntime_based\n", f);
    fclose(f);
    char *out, *err, text_id[9], json_id[9];
    assert_int_equal(bl_test_benchlogf(&out, &err, "-C %s run tiny.fio", dir), 0);
    run_id(out, "tiny.fio: stored 1 record in 1 run: ", text_id);
    assert_non_null(strstr(out, "tiny           seq-read    read:")); /* the test's line */
    assert_null(strstr(err, "stored"));
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, &err, "-C %s run --json tiny.fio", dir), 0);
    assert_int_equal(bl_test_count_lines(out), 1); /* JSON Lines only */
    run_id(out, "{\"source\":\"tiny.fio\",\"status\":\"stored\",\"records\":1,\"runs\":[\"",
           json_id);
    assert_string_equal(out + strlen(out) - 3, "]}\n");
    assert_non_null(strstr(err, "tiny           seq-read    read:")); /* its line moved */
    free(out);
    free(err);
    /* -q: no confirmation line; the test's figures are the result and stay. */
    assert_int_equal(bl_test_benchlogf(&out, &err, "-C %s -q run tiny.fio", dir), 0);
    assert_null(strstr(out, "stored"));
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_string_equal(err, "");
    free(out);
    free(err);
    /* The IDs said are the stored runs'. */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C %s list tool=benchlog", dir), 0);
    assert_non_null(strstr(out, text_id));
    assert_non_null(strstr(out, json_id));
    assert_int_equal(bl_test_count_lines(out), 3); /* a line a run */
    free(out);
    rm_dir(dir);
}

/* A file of n dd runs, each under its own heading: n set-ups of one test. */
static void write_blocks(const char *dir, const char *name, int n)
{
    char *dd = bl_test_slurp(DD_ONE), path[512];
    assert_non_null(dd);
    const char *rest = strchr(dd, '\n'); /* after "$ time dd ... of=/tmp/ddtest ..." */
    assert_non_null(rest);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 1; i <= n; i++) /* another target each: another content, another run */
        fprintf(f,
                "\n## Disk %d\n\n$ time dd if=/dev/zero of=/tmp/ddtest%d bs=4k count=100000 "
                "conv=fsync%s",
                i, i, rest);
    fclose(f);
    free(dd);
}

/* Runs benchlog; its status must be rc and its stderr hold want ("": be empty). Returns its
 * stdout. */
static char *said(int rc, const char *want, const char *fmt, const char *dir)
{
    char *out, *err;
    int st = bl_test_benchlogf(&out, &err, fmt, dir);
    if (st != rc || (*want ? !strstr(err, want) : *err != 0))
        fail_msg("benchlog %s: status %d (want %d), stderr:\n%s(want '%s')", fmt, st, rc, err,
                 want);
    free(err);
    return out;
}

/* -q (before the command or after it) leaves the notes out, not the errors. */
static void test_quiet_notes(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    write_blocks(dir, "eleven.txt", 11);
    free(said(0, "", "-C %s import eleven.txt", dir));
    free(said(0, "benchlog chart: every set-up drawn over 2 pages of 10: ",
              "-C %s chart --kind bar -o b.svg", dir));
    free(said(0, "", "-C %s -q chart --kind bar -o q.svg", dir));
    char path[512];
    snprintf(path, sizeof path, "%s/q-2.svg", dir);
    char *svg = bl_test_slurp(path); /* drawn all the same */
    assert_non_null(svg);
    free(svg);
    char *loud = said(0, "benchlog report: 11 set-ups lack the label 'host'; not pooled",
                      "-C %s report --by host", dir);
    char *quiet = said(0, "", "-C %s report --by host -q", dir);
    assert_string_equal(loud, quiet);
    assert_non_null(strstr(loud, "666.5 MB/s"));
    free(loud);
    free(quiet);
    free(said(1, "benchlog report: no stored record matches", "-C %s -q report host=none", dir));
    free(said(2, "benchlog xlsx: -o FILE.xlsx is required", "-C %s xlsx -q", dir));
    /* xlsx charts 200 set-ups at most and says so. */
    write_blocks(dir, "many.txt", 201);
    free(said(0, "", "-C %s import --db many.db many.txt -q", dir));
    free(said(0, "benchlog xlsx: 201 set-ups are too many for one chart; ",
              "-C %s xlsx --db many.db -o many.xlsx", dir));
    free(said(0, "", "-C %s xlsx --db many.db -o quiet.xlsx -q", dir));
    snprintf(path, sizeof path, "%s/quiet.xlsx", dir);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fclose(f);
    rm_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_agree),
        cmocka_unit_test(test_run_result_on_stdout),
        cmocka_unit_test(test_quiet_notes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
