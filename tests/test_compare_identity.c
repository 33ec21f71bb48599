/* Identity, not labels, decides what a repeat is (issue 24): under --by, records of one
 * column whose set-ups differ (heading, table column, machine, tool, source, ...) are
 * sub-columns named by what tells them apart, never repeats; --pool pools them on purpose and
 * says so. Over the real blog 001 of the corpus (skipped without BENCHLOG_CORPUS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char blog001[] = "blog/001_8562a4b6946fb1ec.txt";

/* A store in a new folder holding blog 001 imported with host=nas1; NULL without corpus. */
static char *nas1_store(void)
{
    char *path = bl_test_corpus(blog001);
    if (!path)
        return NULL;
    char *dir = bl_test_tmpdir();
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "import --db %s/s.db --label host=nas1 %s", dir, path), 0);
    free(path);
    return dir;
}

/* blog 001 is 18 NAS configurations (CIFS/iSCSI, cache on and off, 1 and 10 GbE) of one
 * host: --by host once printed "250.6 ± 214.0 MB/s (n=18, CI ±106.4)" as repeats. */
static void test_by_host_keeps_setups_apart(void **state)
{
    (void)state;
    char *dir = nas1_store();
    if (!dir)
        skip();
    char *out, *err;
    assert_int_equal(bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host --csv", dir), 0);
    /* CSV: one header cell a set-up's MB/s; 18 set-ups. */
    const char *eol = strchr(out, '\n');
    size_t n = 0;
    for (const char *p = out; p && p < eol; p = strstr(p + 1, " MB/s,"))
        n += strncmp(p, " MB/s,", 6) == 0;
    assert_int_equal(n, 18);
    assert_null(strstr(out, "n=18"));
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host --wide", dir), 0);
    assert_null(strstr(out, "n=18"));
    assert_null(strstr(out, "Repeats"));
    assert_non_null(strstr(out, "18 columns by host"));
    /* iSCSI without SSD cache over 1 GbE: 112.4 MB/s sequential read, as the post prints */
    assert_non_null(strstr(out, "section=iSCSI SSDキャッシュ無し"));
    assert_non_null(strstr(out, "112.4 MB/s"));
    assert_non_null(strstr(out, "580.2 MB/s"));
    free(out);
    free(err);
    free(dir);
}

/* --by host,column (or --by host --by column): one column per pair of values; the nine
 * headings under each network speed still stand apart. --pool pools them on purpose. */
static void test_by_pairs_and_pool(void **state)
{
    (void)state;
    char *dir = nas1_store();
    if (!dir)
        skip();
    char *out, *out2, *err;
    assert_int_equal(
        bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host,column --wide", dir), 0);
    assert_int_equal(
        bl_test_benchlogf(&out2, NULL, "report --db %s/s.db --by host --by column --wide", dir), 0);
    assert_string_equal(out, out2);
    assert_non_null(strstr(out, "18 columns by host,column"));
    assert_non_null(strstr(out, "nas1 · 1 GbE · section=CIFS SSDキャッシュ無し"));
    assert_non_null(strstr(out, "nas1 · 10 GbE · section=CIFS SSDキャッシュ無し"));
    assert_null(strstr(out, "n=9"));
    free(out);
    free(out2);
    free(err);
    /* --pool: the nine set-ups of 1 GbE averaged, and said so: seq read of the nine
     * 1 GbE set-ups, 73.70 .. 112.4 MB/s as the post prints them. */
    assert_int_equal(
        bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host,column --pool --wide", dir),
        0);
    assert_non_null(strstr(out, "2 columns by host,column"));
    assert_non_null(strstr(out, "(pooled over 9 set-ups, 67.60–112.4)"));
    assert_non_null(strstr(out, "Pooled (--pool): 16 cells"));
    assert_null(strstr(out, "Repeats"));
    assert_null(strstr(out, "CI"));
    free(out);
    free(err);
    /* a bad list is a usage error */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "report --db %s/s.db --by host,,column", dir),
                     2);
    assert_non_null(strstr(err, "--by wants LABEL"));
    free(err);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_host_keeps_setups_apart),
        cmocka_unit_test(test_by_pairs_and_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
