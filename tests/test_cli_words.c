/* What the commands say and where (issue 32): counts in words that agree ("1 record", "2
 * records") in the text report, the HTML page and the workbook. Every store here is made from fixtures/dd/gnu-dd-9.1_C_time.txt (one dd
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
