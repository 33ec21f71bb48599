/* Set-up names are never cut where they differ. Blog post 001 names its set-ups by long
 * Japanese headings that differ in their middle ("CIFS SSD×2 SSDキャッシュ有り （ZIL、L2ARC共に
 * 有効、ミラー保護有り）" against "（ZILのみ有効、…）"): the page's charts key their bars and give
 * the whole names in a legend, the PDF's chart legends hold them whole (on two lines when one
 * cannot), a narrow chart wraps them, and the workbook's sheet names keep the words that tell
 * runs apart, the whole name in the sheet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/table.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POST "blog/001_8562a4b6946fb1ec.txt"

/* s without spaces, tags (<...>) and the <title> elements' text (hover text is not seen). */
static char *visible(const char *s)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    while (*s) {
        if (strncmp(s, "<title>", 7) == 0) {
            const char *e = strstr(s, "</title>");
            s = e ? e + 8 : s + strlen(s);
        } else if (*s == '<') {
            const char *e = strchr(s, '>');
            s = e ? e + 1 : s + strlen(s);
        } else if (*s == ' ' || *s == '\n' || *s == '\f') {
            s++;
        } else {
            bl_strbuf_putc(&sb, *s++);
        }
    }
    return bl_strbuf_take(&sb);
}

static char *squeeze(const char *s)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (; *s; s++)
        if (*s != ' ')
            bl_strbuf_putc(&sb, *s);
    return bl_strbuf_take(&sb);
}

/* The n longest set-up names of the post, as the comparison names them. */
static size_t longest(const char *path, char **names, size_t n)
{
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    bl_table_opts to = {0};
    char err[256] = "";
    bl_table *t = bl_table_build(&o.recs, &to, err, sizeof err);
    assert_non_null(t);
    assert_true(t->ncols >= n);
    for (size_t k = 0; k < n; k++) {
        size_t best = t->ncols;
        for (size_t j = 0; j < t->ncols; j++) {
            int taken = 0;
            for (size_t q = 0; q < k; q++)
                taken |= strcmp(names[q], t->cols[j].label) == 0;
            if (!taken &&
                (best == t->ncols || strlen(t->cols[j].label) > strlen(t->cols[best].label)))
                best = j;
        }
        names[k] = bl_xstrdup(t->cols[best].label);
    }
    bl_table_free(t);
    bl_out_free(&o);
    return n;
}

static void test_page_and_pdf(void **state)
{
    (void)state;
    char *post = bl_test_corpus(POST);
    if (!post)
        bl_skip_because("BENCHLOG_CORPUS unset or without " POST);
    char *dir = bl_test_tmpdir(), *names[4];
    longest(post, names, 4);
    /* "iSCSI キャッシュ有り SSDキャッシュ無し （継続的有効の無効化 チェックON） · 10 GbE" */
    assert_non_null(strstr(names[0], "継続的有効の無効化 チェックON"));
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s/s.db %s", dir, post), 0);
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "report --db %s/s.db --html -o %s/p.html", dir, dir), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/p.html", dir);
    char *html = bl_test_slurp(path);
    const char *charts = strstr(html, "<section class=\"chart");
    assert_non_null(charts);
    char *seen = visible(charts);
    for (size_t k = 0; k < 4; k++) {
        char *want = squeeze(names[k]);
        if (!strstr(seen, want))
            fail_msg("the page's charts do not show '%s' whole", names[k]);
        free(want);
    }
    free(seen);
    free(html);
    if (bl_test_have("pdftotext")) {
        assert_int_equal(
            bl_test_benchlogf(NULL, NULL, "report --db %s/s.db --pdf -o %s/r.pdf", dir, dir), 0);
        assert_int_equal(bl_test_benchlogf(NULL, NULL,
                                           "chart --db %s/s.db --width 700 -o %s/narrow.svg", dir,
                                           dir),
                         0);
        char cmd[800];
        snprintf(cmd, sizeof cmd, "pdftotext %s/r.pdf -", dir);
        char *text = bl_test_sh(cmd, NULL);
        const char *chart = strstr(text, "MB/s (10⁶ bytes/s) ·"); /* the group's chart */
        assert_non_null(chart);
        seen = visible(chart);
        snprintf(path, sizeof path, "%s/narrow-1.svg", dir);
        char *svg = bl_test_slurp(path);
        assert_non_null(svg);
        char *narrow = visible(svg);
        for (size_t k = 0; k < 4; k++) {
            char *want = squeeze(names[k]);
            if (!strstr(seen, want))
                fail_msg("the PDF's chart does not show '%s' whole", names[k]);
            if (!strstr(narrow, want))
                fail_msg("a 700 px chart does not show '%s' whole", names[k]);
            free(want);
        }
        free(narrow);
        free(svg);
        free(seen);
        free(text);
    } else {
        printf("[  NOTE    ] pdftotext missing: the PDF not read\n");
    }
    for (size_t k = 0; k < 4; k++)
        free(names[k]);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
    free(dir);
    free(post);
}

/* Workbook: sheet names unique beyond their number, the whole name in each run's sheet. */
static void test_sheet_names(void **state)
{
    (void)state;
    char *post = bl_test_corpus(POST);
    if (!post)
        bl_skip_because("BENCHLOG_CORPUS unset or without " POST);
    if (!bl_test_have("unzip"))
        bl_skip_because("unzip missing");
    char *dir = bl_test_tmpdir();
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s/s.db %s", dir, post), 0);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "xlsx --db %s/s.db -o %s/w.xlsx", dir, dir), 0);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "unzip -p %s/w.xlsx xl/workbook.xml", dir);
    char *wb = bl_test_sh(cmd, NULL);
    char *seen[64];
    size_t n = 0;
    for (const char *p = strstr(wb, "<sheet name=\""); p && n < 64;
         p = strstr(p + 1, "<sheet name=\"")) {
        p += 13;
        const char *e = strchr(p, '"');
        if (*p < '1' || *p > '9')
            continue; /* Summary, pivots, Sources */
        const char *rest = strchr(p, ' ');
        assert_true(rest && rest < e);
        seen[n] = bl_xstrndup(rest + 1, (size_t)(e - rest - 1));
        for (size_t k = 0; k < n; k++)
            if (strcmp(seen[k], seen[n]) == 0)
                fail_msg("sheets %zu and %zu are both named '… %s'", k + 1, n + 1, seen[n]);
        n++;
    }
    assert_int_equal(n, 18); /* the post's 18 runs */
    snprintf(cmd, sizeof cmd, "unzip -p %s/w.xlsx xl/sharedStrings.xml", dir);
    char *ss = bl_test_sh(cmd, NULL);
    assert_non_null(
        strstr(ss, "CIFS SSD×2 SSDキャッシュ有り （ZIL、L2ARC共に有効、ミラー保護有り） 10 GbE"));
    assert_non_null(
        strstr(ss, "CIFS SSD×2 SSDキャッシュ有り （ZILのみ有効、ミラー保護有り） 10 GbE"));
    free(ss);
    for (size_t k = 0; k < n; k++)
        free(seen[k]);
    free(wb);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
    free(post);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_and_pdf),
        cmocka_unit_test(test_sheet_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
