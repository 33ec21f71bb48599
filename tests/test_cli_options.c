/* The shared option layer (cli/options.c) through every command: options stand anywhere
 * among filters and files, `--` ends them, and a bad option is a usage error (exit 2)
 * wherever it stands. Each case checks the option after the operands took effect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DD "fixtures/dd/gnu-dd-9.1_c_write_read.txt"

static int file_starts(const char *path, const char *magic)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[16] = "";
    size_t n = fread(buf, 1, strlen(magic), f);
    fclose(f);
    return n == strlen(magic) && memcmp(buf, magic, n) == 0;
}

static int setup(void **state)
{
    char *dir = bl_test_tmpdir();
    /* import: the options after the file */
    char *out;
    if (bl_test_benchlogf(&out, NULL, "import %s --label host=nas1 --db %s/s.db", DD, dir) != 0 ||
        !strstr(out, "imported 2 records"))
        return -1;
    free(out);
    *state = dir;
    return 0;
}

static int teardown(void **state)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", (char *)*state);
    int rc = system(cmd);
    free(*state);
    return rc;
}

static void test_parse_and_import(void **state)
{
    const char *dir = *state;
    char *out;
    assert_int_equal(bl_test_benchlogf(&out, NULL, "parse %s --label k=v --as dd", DD), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    assert_non_null(strstr(out, "\"k\":\"v\""));
    free(out);
    /* setup imported with --label after the file: every record carries it */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export host=nas1 --db %s/s.db", dir), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
}

static void test_list_and_export(void **state)
{
    const char *dir = *state;
    char *out;
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list test=seq-read --db %s/s.db", dir), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    free(out);
    /* --csv between two filters */
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "export tool=dd --csv test=seq-read --db=%s/s.db", dir), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    assert_true(strncmp(out, "source,line,run,tool,", 21) == 0);
    assert_non_null(strstr(out, ",0.0146754,"));
    free(out);
}

static void test_report(void **state)
{
    const char *dir = *state;
    char *out;
    /* the case: `report tool~dd --lat` */
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "report tool~dd --csv test=seq-read --db %s/s.db", dir), 0);
    assert_non_null(strstr(out, "\nseq-read,65536,1,1,4572.88142"));
    assert_null(strstr(out, "seq-write"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "report tool~dd --md --db %s/s.db", dir), 0);
    assert_true(strncmp(out, "| test |", 8) == 0);
    free(out);
}

static void test_chart_and_xlsx(void **state)
{
    const char *dir = *state;
    char path[512];
    snprintf(path, sizeof path, "%s/c.png", dir);
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "chart tool=dd --db %s/s.db -o %s --width 400", dir, path),
        0);
    assert_true(file_starts(path, "\x89PNG"));
    snprintf(path, sizeof path, "%s/w.xlsx", dir);
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "xlsx tool=dd --db %s/s.db --output=%s", dir, path), 0);
    assert_true(file_starts(path, "PK"));
}

static void test_run_jobfile_then_options(void **state)
{
    const char *dir = *state;
    char *out, *err;
    assert_int_equal(
        bl_test_benchlogf(&out, &err,
                          "run fixtures/jobs/randread-qd32.fio --engine null --size 1m "
                          "--runtime 100ms --target %s --db %s/s.db --label where=after",
                          dir, dir),
        0);
    free(err);
    /* the measured run's ID is said on stdout (the result, as import's), and show takes it */
    const char *id = strstr(out, "randread-qd32.fio: stored 1 record in 1 run: ");
    assert_non_null(id);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "show %.8s",
             id + strlen("randread-qd32.fio: stored 1 record in 1 run: "));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "%s --db %s/s.db", cmd, dir), 0);
    assert_non_null(strstr(out, "labels   job=randread-qd32, "));
    assert_non_null(strstr(out, ", where=after\nrecords  1\n"));
    assert_non_null(strstr(out, "  ioengine               null\n"));
    free(out);
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "export tool=benchlog where=after --db %s/s.db", dir), 0);
    assert_true(bl_test_count_lines(out) >= 1);
    assert_non_null(strstr(out, "\"ioengine\":\"null\""));
    free(out);
}

static void test_errors_anywhere(void **state)
{
    const char *dir = *state;
    char *out, *err;
    static const char *const cmds[] = {"list", "export", "report", "chart -o x.png",
                                       "xlsx -o x.xlsx"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        assert_int_equal(
            bl_test_benchlogf(&out, &err, "%s tool=dd --frobnicate --db %s/s.db", cmds[i], dir), 2);
        assert_non_null(strstr(err, "unknown option '--frobnicate'"));
        assert_string_equal(out, "");
        free(out);
        free(err);
        /* a value-taking option at the end without its value */
        assert_int_equal(bl_test_benchlogf(NULL, &err, "%s tool=dd --db", cmds[i]), 2);
        assert_non_null(strstr(err, "option '--db' wants a value"));
        free(err);
    }
    assert_int_equal(
        bl_test_benchlogf(NULL, &err, "import %s --label novalue --db %s/s.db", DD, dir), 2);
    assert_non_null(strstr(err, "--label wants KEY=VALUE, not 'novalue'"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "parse %s --db x.db", DD), 2);
    assert_non_null(strstr(err, "unknown option '--db'"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "report --lat=1 --db %s/s.db", dir), 2);
    assert_non_null(strstr(err, "'--lat' takes no value"));
    free(err);
    /* `--` ends the options: what follows is a filter, refused as one */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "list --db %s/s.db -- --csv", dir), 2);
    assert_non_null(strstr(err, "filter '--csv' is not KEY=VALUE"));
    free(err);
    /* an unambiguous prefix is the option, an ambiguous one is refused */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "report --db %s/s.db tool=dd --c", dir), 0);
    assert_non_null(strstr(out, "test,bs"));
    free(out);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "report --db %s/s.db --b x", dir), 2);
    assert_non_null(strstr(err, "option '--b' is ambiguous"));
    free(err);
}

static void test_help_lists_table(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(bl_test_benchlogf(&out, NULL, "report tool=dd --help"), 0);
    assert_non_null(strstr(out, "Usage: benchlog report"));
    assert_non_null(strstr(out, "  --lat "));
    assert_non_null(strstr(out, "  -o, --output FILE  "));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "import -h"), 0);
    assert_non_null(strstr(out, "  --label K=V"));
    assert_non_null(strstr(out, "FORMAT (default auto"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_import),
        cmocka_unit_test(test_list_and_export),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_chart_and_xlsx),
        cmocka_unit_test(test_run_jobfile_then_options),
        cmocka_unit_test(test_errors_anywhere),
        cmocka_unit_test(test_help_lists_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
