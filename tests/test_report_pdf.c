/* `report --pdf`: read back with poppler. The page count pdfinfo sees; pdftotext finds the
 * title page's overview, the contents (a group per source), each group's table figures (as the
 * model has them) and chart, and the sources; the outline holds a bookmark per group; Japanese
 * set-ups of the blog posts stay text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int poppler(void)
{
    return system("command -v pdfinfo >/dev/null && command -v pdftotext >/dev/null") == 0;
}

static int pages_of(const char *pdf)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "pdfinfo '%s'", pdf);
    char *info = bl_test_sh(cmd, NULL);
    const char *p = strstr(info, "Pages:");
    int n = p ? atoi(p + 6) : -1;
    free(info);
    return n;
}

static char *page_text(const char *pdf, int page)
{
    char cmd[800];
    snprintf(cmd, sizeof cmd, "pdftotext -layout -f %d -l %d '%s' -", page, page, pdf);
    return bl_test_sh(cmd, NULL);
}

static void test_fixtures_report(void **state)
{
    (void)state;
    if (!poppler())
        bl_skip_because("pdfinfo/pdftotext missing (poppler-utils: sh scripts/deps.sh test)");
    char *dir = bl_test_tmpdir(), args[1500], path[512], pdf[600];
    static const char *const fx[] = {"fio/mix-3.33.out", "bonnie/bonnie-2.00a_s256_n2.txt",
                                     "dd/gnu-dd-9.1_c_write_read.txt",
                                     "cdm/kdiskmark-3.2.0_handwritten.txt"};
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
        snprintf(args, sizeof args, "import --db %s/s.db %s", dir,
                 bl_test_fixture(fx[i], path, sizeof path));
        assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    }
    snprintf(pdf, sizeof pdf, "%s/r.pdf", dir);
    snprintf(args, sizeof args, "report --db %s/s.db --pdf --title 'Vendor check' -o %s", dir, pdf);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    int n = pages_of(pdf);
    /* the title page with the contents, the four sources' groups (small ones share pages), the
     * sources: three pages (four when the contents had a page of its own) */
    assert_int_equal(n, 3);
    char *p1 = page_text(pdf, 1);
    assert_non_null(strstr(p1, "Vendor check"));
    assert_non_null(strstr(p1, "4 comparison groups (one per source document)"));
    assert_non_null(strstr(p1, "Measured with fio"));
    assert_non_null(strstr(p1, "page 1"));
    free(p1);
    /* the contents below the overview (a page of its own before: a layout choice) */
    char *p2 = page_text(pdf, 1);
    assert_non_null(strstr(p2, "Contents: the comparison groups"));
    assert_non_null(strstr(p2, "gnu-dd-9.1_c_write_read.txt — 1 set-up, 2 tests, 2 rec."));
    free(p2);
    /* Each group: its heading, its table (dd's 4572.9 MB/s), and a chart where set-ups share a
     * test (fio's jobs, KDiskMark's). */
    int headings = 0, charts = 0, sources = 0, found_dd = 0;
    for (int p = 1; p <= n; p++) { /* the groups follow the contents on its page */
        char *t = page_text(pdf, p);
        /* a group's heading says "N set-up(s) · N tests · N records" */
        for (const char *h = strstr(t, " · "); h; h = strstr(h + 1, " · "))
            headings += h > t + 6 &&
                        (strncmp(h - 6, "set-up", 6) == 0 || strncmp(h - 7, "set-ups", 7) == 0);
        found_dd |= strstr(t, "4572.9") != NULL;
        charts += strstr(t, "MB/s (10⁶ bytes/s) ·") != NULL;
        sources += strstr(t, "Sources: each file") != NULL;
        if (strstr(t, "Sources: each file")) {
            assert_non_null(strstr(t, "gnu-dd-9.1_c_write_read.txt · dd · run 1 line"));
            assert_non_null(strstr(t, "kdiskmark-3.2.0_handwritten.txt"));
        }
        free(t);
    }
    assert_int_equal(headings, 4);
    assert_true(found_dd);
    assert_true(charts >= 1); /* mix-3.33.out's four jobs */
    assert_int_equal(sources, 1);
    /* The outline: Contents and one bookmark per group. */
    snprintf(args, sizeof args, "strings '%s' | grep -c '/Title'", pdf);
    char *titles = bl_test_sh(args, NULL);
    assert_int_equal(atoi(titles), 1 + 4 + 1); /* the document's, Contents, the groups */
    free(titles);
    snprintf(args, sizeof args, "grep -c '/Type /Outlines' '%s'", pdf);
    titles = bl_test_sh(args, NULL);
    assert_int_equal(atoi(titles), 1);
    free(titles);
    snprintf(args, sizeof args, "report --db %s/s.db --pdf", dir);
    char *err = NULL;
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 2);
    assert_non_null(strstr(err, "--pdf needs -o"));
    free(err);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

/* The four blog posts: a group each in the contents, Japanese set-ups render as text, repeats
 * show their 95% CI and n. */
static void test_blog_report_japanese(void **state)
{
    (void)state;
    if (!poppler())
        bl_skip_because("pdfinfo/pdftotext missing (poppler-utils: sh scripts/deps.sh test)");
    static const char *const posts[] = {
        "blog/000_bed2622bff3958ce.txt", "blog/001_8562a4b6946fb1ec.txt",
        "blog/003_c0a3f5a42cdf17b6.txt", "blog/004_8160137f383e9f6d.txt"};
    char *dir = bl_test_tmpdir(), args[1500], pdf[600];
    for (size_t i = 0; i < 4; i++) {
        char *p = bl_test_corpus(posts[i]);
        if (!p)
            bl_skip_because("BENCHLOG_CORPUS absent: the blog posts' report is not checked");
        snprintf(args, sizeof args, "import --db %s/b.db %s", dir, p);
        free(p);
        /* 1: a post held text it refused (said on stderr); its good records are stored. */
        assert_true(bl_test_benchlog(args, NULL, NULL) <= 1);
    }
    snprintf(pdf, sizeof pdf, "%s/b.pdf", dir);
    snprintf(args, sizeof args, "report --db %s/b.db --pdf -o %s", dir, pdf);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    int n = pages_of(pdf);
    assert_true(n >= 6);
    char *p2 = page_text(pdf, 1); /* the contents, below the overview: a group per post */
    for (size_t i = 0; i < 4; i++)
        assert_non_null(strstr(p2, posts[i] + 5));
    free(p2);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "pdftotext '%s' -", pdf);
    char *all = bl_test_sh(cmd, NULL);
    assert_non_null(strstr(all, "SSDキャッシュ無し"));
    assert_non_null(strstr(all, "シーケンシャルリード"));
    /* Blog 001's CIFS 10 GbE sequential write, as the post prints it. */
    assert_non_null(strstr(all, "615.4"));
    /* Blog 004's four fio-cdm sequential reads: 424.8 MB/s, n=4, 95% CI half-width 10.19. */
    free(all);
    snprintf(cmd, sizeof cmd, "pdftotext -layout '%s' - | grep -m1 ' 424.8 [^ ]* *±'", pdf);
    all = bl_test_sh(cmd, NULL);
    assert_non_null(strstr(all, "424.8 MB/s ±10.19 (n=4)")); /* in the group's grid */
    free(all);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

/* Small groups share pages (single set-ups two columns a page): every group's bookmark still
 * points at the page where its heading is, and its figures are there. 24 sysbench runs (a
 * set-up each) and fio's mix of jobs (a chart). */
static void test_outline_pages(void **state)
{
    (void)state;
    if (!poppler())
        bl_skip_because("pdfinfo/pdftotext missing (poppler-utils: sh scripts/deps.sh test)");
    char *dir = bl_test_tmpdir(), args[1500], path[512], pdf[600];
    snprintf(args, sizeof args, "import -q --db %s/o.db %s", dir,
             bl_test_fixture("fio/mix-3.33.out", path, sizeof path));
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    for (int k = 1; k <= 12; k++)
        for (int dsync = 0; dsync < 2; dsync++) {
            char rel[64];
            snprintf(rel, sizeof rel, "sysbench/history/%s%d.txt", dsync ? "dsync" : "cache", k);
            snprintf(args, sizeof args, "import -q --db %s/o.db %s", dir,
                     bl_test_fixture(rel, path, sizeof path));
            assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
        }
    snprintf(pdf, sizeof pdf, "%s/o.pdf", dir);
    snprintf(args, sizeof args, "report --db %s/o.db --pdf -o %s", dir, pdf);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "pdfinfo -dests '%s'", pdf);
    char *dests = bl_test_sh(args, NULL);
    int groups = 0, right = 0, dsync6 = 0;
    for (const char *l = dests; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
        int page, g;
        double x, y;
        if (sscanf(l, " %d [ XYZ %lf %lf null ] \"group%d\"", &page, &x, &y, &g) != 4)
            continue;
        groups++;
        right += x > 300; /* a heading in the right column */
        char *t = page_text(pdf, page), head[32];
        snprintf(head, sizeof head, "%d. ", g);
        const char *h = strstr(t, head);
        while (h && h > t && h[-1] != ' ' && h[-1] != '\n')
            h = strstr(h + 1, head);
        assert_non_null(h); /* the group's heading on the page its bookmark names */
        if (strncmp(h + strlen(head), "fixtures/sysbench/history/dsync6.txt", 36) == 0) {
            /* sysbench "read, MiB/s: 0.00 written, MiB/s: 0.76" -> 0.795 MB/s, 194.0 IOPS */
            assert_non_null(strstr(h, "0.795"));
            assert_non_null(strstr(h, "194.0"));
            dsync6 = 1;
        }
        free(t);
    }
    free(dests);
    assert_int_equal(groups, 25);
    assert_true(right >= 4);
    assert_true(dsync6);
    /* 25 groups: title, contents, the groups on two or three pages, the sources */
    int n = pages_of(pdf);
    assert_true(n <= 6);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

/* The least height of a PDF's word boxes, and that of the footer's "page" (set at 7.5 pt; 0
 * when there is none): poppler's word boxes are the font's ascent+descent high, so a box's
 * height over the footer's times 7.5 is its size in points. */
static double least_box(const char *pdf, double *foot)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "pdftotext -bbox '%s' -", pdf);
    char *x = bl_test_sh(cmd, NULL);
    double least = 1e9;
    *foot = 0;
    for (const char *w = strstr(x, "<word "); w; w = strstr(w + 1, "<word ")) {
        double x0, y0, x1, y1;
        if (sscanf(w, "<word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\">", &x0, &y0, &x1,
                   &y1) != 4)
            continue;
        if (strncmp(strchr(w, '>') + 1, "page</word>", 11) == 0 && *foot == 0)
            *foot = y1 - y0;
        least = y1 - y0 < least ? y1 - y0 : least;
    }
    free(x);
    return least;
}

/* A short chart's text is no smaller on the page than 6.5 pt: the report's charts (as short as
 * two tests of four bars) and a short chart of its own (chart -o x.pdf, 1600×260). The text
 * scale of short charts took these to 3.5-5 pt. */
static void test_chart_text_size(void **state)
{
    (void)state;
    if (!poppler())
        bl_skip_because("pdfinfo/pdftotext missing (poppler-utils: sh scripts/deps.sh test)");
    char *dir = bl_test_tmpdir(), args[1500], path[512], pdf[600];
    snprintf(args, sizeof args, "import -q --db %s/t.db %s", dir,
             bl_test_fixture("fio/clones-3.33.out", path, sizeof path));
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(pdf, sizeof pdf, "%s/t.pdf", dir);
    snprintf(args, sizeof args, "report --db %s/t.db --pdf -o %s", dir, pdf);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    double foot, least = least_box(pdf, &foot);
    assert_true(foot > 0);
    double pt = foot / 7.5; /* box height of a 1 pt font */
    assert_true(least / pt >= 6.4);
    assert_true(least / pt < 7.5); /* the small text is there to measure */
    snprintf(pdf, sizeof pdf, "%s/c.pdf", dir);
    snprintf(args, sizeof args, "chart --db %s/t.db --height 260 -o %s", dir, pdf);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    double none;
    least = least_box(pdf, &none);
    assert_true(least < 1e9);
    assert_true(least / pt >= 6.4);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_report),
        cmocka_unit_test(test_blog_report_japanese),
        cmocka_unit_test(test_outline_pages),
        cmocka_unit_test(test_chart_text_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
