/* The command line as fingers expect it (cli/global.c, cli/main.c): global options before
 * the command (--db, -C DIR, --color, -q) give what the command's own give, the command's
 * own winning; results on stdout, diagnostics on stderr; colour only when asked or on a
 * terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DD "fixtures/dd/gnu-dd-9.1_c_write_read.txt"
#define CDM "fixtures/cdm/kdiskmark-3.2.0_handwritten.txt"
/* dd's two runs: their IDs are the content's, the same in every store */
#define DD_WRITE "3110dc33"
#define DD_READ "98f15f3a"

typedef struct fixture {
    char *dir;
    char db[PATH_MAX + 16];
    char dd[PATH_MAX];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = bl_test_tmpdir();
    snprintf(f->db, sizeof f->db, "%s/s.db", f->dir);
    if (!realpath(DD, f->dd))
        return -1;
    if (bl_test_benchlogf(NULL, NULL, "import --db %s --label host=nas1 %s", f->db, DD) != 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    int rc = system(cmd);
    free(f->dir);
    free(f);
    return rc;
}

/* `benchlog --db F CMD` and `benchlog CMD --db F` give the same output, byte for byte. */
static void same_both_ways(const fixture *f, const char *cmd)
{
    char *before, *after;
    assert_int_equal(bl_test_benchlogf(&before, NULL, "--db %s %s", f->db, cmd), 0);
    assert_int_equal(bl_test_benchlogf(&after, NULL, "%s --db %s", cmd, f->db), 0);
    assert_true(strlen(before) > 0);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

static void test_global_db(void **state)
{
    fixture *f = *state;
    char *out, *err;
    same_both_ways(f, "list");
    same_both_ways(f, "export " DD_READ);
    same_both_ways(f, "report --csv");
    same_both_ways(f, "show " DD_READ);
    /* the figures themselves: dd read 67108864 bytes in 0.0146754 s */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s export %s", f->db, DD_READ), 0);
    assert_non_null(strstr(out, "\"io_bytes\":67108864"));
    assert_non_null(strstr(out, "\"runtime_s\":0.0146754"));
    free(out);
    /* in both places: the command's own wins, whatever $BENCHLOG_DB says */
    assert_int_equal(bl_test_benchlogf(&out, &err, "--db %s/none.db list --db %s", f->dir, f->db),
                     0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "--db %s/none.db list", f->dir), 1);
    assert_non_null(strstr(err, "none.db: no store there"));
    free(err);
    /* the global one wins over $BENCHLOG_DB */
    setenv("BENCHLOG_DB", "/nonexistent/x.db", 1);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s list", f->db), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    unsetenv("BENCHLOG_DB");
    /* --db=FILE too */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db=%s list", f->db), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    /* the help says which wins */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --help"), 0);
    assert_non_null(strstr(out, "the command's own wins"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--help"), 0);
    assert_non_null(strstr(out, "Usage: benchlog [GLOBAL OPTIONS] COMMAND"));
    assert_non_null(strstr(out, "  -C DIR "));
    free(out);
}

static void test_dash_c(void **state)
{
    fixture *f = *state;
    char *out, *err;
    /* -C DIR: benchlog.db and relative paths are DIR's, as git -C reads them */
    assert_int_equal(bl_test_benchlogf(NULL, &out, "-C %s import %s", f->dir, f->dd), 0);
    assert_non_null(strstr(out, "imported 2 records in 2 runs: " DD_WRITE " " DD_READ));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C %s list", f->dir), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C / -C %s --db s.db list host=nas1", f->dir),
                     0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C%s list --db s.db", f->dir), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/benchlog.db", f->dir);
    assert_int_equal(remove(path), 0);
    /* a folder that is not there: a usage error, nothing done */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "-C %s/nowhere list", f->dir), 2);
    assert_non_null(strstr(err, "cannot change to"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "--bogus list"), 2);
    assert_non_null(strstr(err, "benchlog: unknown option '--bogus'"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "--db"), 2);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_db),
        cmocka_unit_test(test_dash_c),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
