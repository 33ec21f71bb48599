/* Vector charts: `chart -o x.svg` and `-o x.pdf` are drawn by the same chart code as the PNG.
 * The SVG is read back as XML (xmllint), its bars measured against the figures and its text
 * found as <text> (not glyph outlines); the PDF is read with poppler (pdfinfo, pdftotext).
 * The chart kinds' table is checked against the help and the man page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/canvas.h"
#include "../charts/chart.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_report_records.h"

/* The widest path filled with palette colour rgb, from cairo's "fill:rgb(R%,G%,B%)" and the
 * path's x coordinates. */
static double widest(const char *svg, unsigned rgb)
{
    double best = 0;
    for (const char *p = strstr(svg, "<path"); p; p = strstr(p + 1, "<path")) {
        const char *f = strstr(p, "fill:rgb(");
        const char *end = strstr(p, "/>");
        if (!f || !end || f > end)
            continue;
        double r, g, b;
        if (sscanf(f, "fill:rgb(%lf%%,%lf%%,%lf%%)", &r, &g, &b) != 3)
            continue;
        unsigned c = (unsigned)lround(r * 2.55) << 16 | (unsigned)lround(g * 2.55) << 8 |
                     (unsigned)lround(b * 2.55);
        if (c != rgb)
            continue;
        const char *d = strstr(p, " d=\"");
        if (!d || d > end)
            continue;
        double lo = INFINITY, hi = -INFINITY;
        for (const char *q = d + 4; *q && *q != '"';) {
            double x, y;
            int used;
            if (*q == 'M' || *q == 'L') {
                if (sscanf(q + 1, "%lf %lf%n", &x, &y, &used) == 2) {
                    lo = fmin(lo, x);
                    hi = fmax(hi, x);
                    q += 1 + used;
                    continue;
                }
            }
            q++;
        }
        if (hi > lo && hi - lo > best)
            best = hi - lo;
    }
    return best;
}

static void test_svg_bars_and_text(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_cdm(&rs);
    bl_record_set_label(rs.v[0], "column", "1 GbE 読み込み"); /* Japanese stays text */
    bl_record_set_label(rs.v[2], "column", "1 GbE 読み込み");
    bl_record_set_label(rs.v[1], "column", "10 GbE <a&b>\x01"); /* markup and a control byte */
    bl_record_set_label(rs.v[3], "column", "10 GbE <a&b>\x01");
    bl_chart_opts o = {.kind = BL_CHART_BAR, .by = "column"};
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/bar.svg", dir);
    assert_int_equal(bl_chart_file(path, &rs, &o, err, sizeof err), 0);
    char *svg = bl_test_slurp(path);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "width=\"1600px\" height=\"900px\""));
    /* Text is text: the legend, the figures, the title, no glyph outlines. */
    assert_non_null(strstr(svg, ">1 GbE 読み込み</text>"));
    assert_non_null(strstr(svg, ">10 GbE &lt;a&amp;b&gt; </text>"));
    assert_non_null(strstr(svg, ">117.6</text>"));
    assert_non_null(strstr(svg, ">1121</text>") ? strstr(svg, ">1121</text>")
                                                : strstr(svg, ">1121.4</text>"));
    assert_non_null(strstr(svg, ">Throughput by test"));
    assert_null(strstr(svg, "<symbol"));
    /* The bars: SEQ1M 117.6 (colour 0) and 1121.4 (colour 1) MB/s from 0 on a linear axis. */
    double one = widest(svg, bl_canvas_palette(0)), ten = widest(svg, bl_canvas_palette(1));
    assert_true(one > 50);
    assert_true(bl_test_close(ten / one, 1121.4 / 117.6, 0.02));
    assert_true(widest(svg, bl_canvas_palette(2)) < 1); /* two columns only */
    if (bl_test_have("xmllint")) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "xmllint --noout %s 2>&1", path);
        int st;
        char *out = bl_test_sh(cmd, &st);
        if (st != 0)
            fail_msg("the SVG is not well-formed XML: %s", out);
        free(out);
        /* Every text of the chart is an SVG text element, counted through XPath. */
        snprintf(cmd, sizeof cmd,
                 "xmllint --xpath \"count(//*[local-name()='text'])\" %s 2>/dev/null", path);
        out = bl_test_sh(cmd, &st);
        assert_true(atoi(out) >= 8); /* title, subtitle, 2 legend, 4 values, test names, axis */
        free(out);
    } else {
        printf("[  NOTE    ] xmllint missing (libxml2-utils): XML not validated\n");
    }
    free(svg);
    bl_records_free(&rs);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
    free(dir);
}

static void test_pdf_through_poppler(void **state)
{
    (void)state;
    if (!bl_test_have("pdfinfo") || !bl_test_have("pdftotext"))
        bl_skip_because("pdfinfo/pdftotext missing (poppler-utils: sh scripts/deps.sh test)");
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    char path[512], err[256] = "", cmd[800];
    for (int k = 0; k < BL_CHART_N_KINDS; k++) {
        bl_chart_opts o = {.kind = (bl_chart_kind)k};
        snprintf(path, sizeof path, "%s/%s.pdf", dir, bl_chart_kind_name(k));
        if (bl_chart_file(path, &rs, &o, err, sizeof err) != 0)
            fail_msg("%s: %s", bl_chart_kind_name(k), err);
        snprintf(cmd, sizeof cmd, "pdfinfo %s", path);
        char *info = bl_test_sh(cmd, NULL);
        const char *pages = strstr(info, "Pages:"), *size = strstr(info, "Page size:");
        assert_non_null(pages);
        assert_non_null(size);
        assert_int_equal(atoi(pages + 6), 1);
        size += 10;
        while (*size == ' ')
            size++;
        assert_memory_equal(size, "800 x 450 pts", 13);
        free(info);
    }
    /* The bar chart's figures and Japanese labels are text in the PDF. */
    bl_records cdm;
    bl_records_init(&cdm);
    add_cdm(&cdm);
    bl_record_set_label(cdm.v[1], "column", "10 GbE 書き込み");
    bl_record_set_label(cdm.v[3], "column", "10 GbE 書き込み");
    bl_chart_opts o = {.kind = BL_CHART_BAR, .by = "column"};
    snprintf(path, sizeof path, "%s/cdm.pdf", dir);
    assert_int_equal(bl_chart_file(path, &cdm, &o, err, sizeof err), 0);
    snprintf(cmd, sizeof cmd, "pdftotext %s -", path);
    char *text = bl_test_sh(cmd, NULL);
    assert_non_null(strstr(text, "10 GbE 書き込み"));
    assert_non_null(strstr(text, "117.6"));
    assert_non_null(strstr(text, "250.7"));
    assert_non_null(strstr(text, "Throughput by test"));
    free(text);
    bl_records_free(&cdm);
    bl_records_free(&rs);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* iops-lat: a mean-latency label never sits across its bar's p99 tick. A p99 just right of
 * the mean (10.6 ms against 10 ms) once had its tick drawn through the label "10.00 ms". */
static void test_latency_labels_clear_ticks(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    static const struct {
        const char *col;
        double mean, p99;
    } set[] = {{"near", 10e6, 10.6e6}, {"far", 5e6, 9e6}, {"close", 2e6, 2.3e6}};
    for (int i = 0; i < 3; i++) {
        bl_record *r = rec(&rs, "t.txt", 1, "fio", "3.33", "rand-read", 4096, 32, 1);
        bl_record_set_label(r, "column", set[i].col);
        r->iops = 3200.0 / (set[i].mean / 1e6);
        r->bw_bytes_s = r->iops * 4096;
        r->clat_ns.mean = set[i].mean;
        bl_lat_add_pct(&r->clat_ns, 50, set[i].mean * 0.95);
        bl_lat_add_pct(&r->clat_ns, 99, set[i].p99);
    }
    bl_chart_opts o = {.kind = BL_CHART_IOPS_LAT, .by = "column"};
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/il.svg", dir);
    assert_int_equal(bl_chart_file(path, &rs, &o, err, sizeof err), 0);
    char *svg = bl_test_slurp(path);
    assert_non_null(svg);
    /* The ticks: 3-wide vertical strokes "M x y0 L x y1". */
    double tx[16], ty0[16], ty1[16];
    int nt = 0;
    for (const char *p = strstr(svg, "stroke-width:3;"); p && nt < 16;
         p = strstr(p + 1, "stroke-width:3;")) {
        const char *d = strstr(p, " d=\"M ");
        double x0, x1;
        if (d && sscanf(d, " d=\"M %lf %lf L %lf %lf", &x0, &ty0[nt], &x1, &ty1[nt]) == 4 &&
            fabs(x0 - x1) < 0.01)
            tx[nt++] = x0;
    }
    assert_int_equal(nt, 3);
    int labels = 0;
    for (const char *p = strstr(svg, "<text x=\""); p; p = strstr(p + 1, "<text x=\"")) {
        double x, y, size;
        char anchor[8];
        if (sscanf(p,
                   "<text x=\"%lf\" y=\"%lf\" %*[^=]=\"%*[^\"]\" font-size=\"%lf\" "
                   "text-anchor=\"%7[a-z]\"",
                   &x, &y, &size, anchor) != 4)
            continue;
        const char *txt = strchr(p, '>') + 1, *end = strstr(txt, "</text>");
        if (!strstr(txt, " ms") || strstr(txt, " ms") > end || strchr(txt, '<') < end)
            continue; /* not a latency figure (axis ticks are "10 ms", so count the dot) */
        if (!memchr(txt, '.', (size_t)(end - txt)))
            continue;
        labels++;
        /* Its span: from x rightwards (start) or leftwards (end), at least 0.45 em a
         * character, the narrowest digits of the fonts the chart uses. */
        double w = 0.45 * size * (double)(end - txt - 1);
        double lo = strcmp(anchor, "end") == 0 ? x - w : x, hi = lo + w;
        for (int k = 0; k < nt; k++)
            if (y > ty0[k] && y < ty1[k] && tx[k] > lo - 1 && tx[k] < hi + 1)
                fail_msg("label at x=%.1f..%.1f crosses the p99 tick at x=%.1f", lo, hi, tx[k]);
    }
    assert_int_equal(labels, 3);
    free(svg);
    bl_records_free(&rs);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
    free(dir);
}

/* Through the command: the extension chooses the format; PNG stays the default. */
static void test_cli_by_extension(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), args[1200], fix[512];
    bl_test_fixture("cdm/kdiskmark-3.2.0_handwritten.txt", fix, sizeof fix);
    snprintf(args, sizeof args, "import --db %s/s.db %s", dir, fix);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    static const char *const ext[] = {"png", "svg", "pdf"};
    static const char *const magic[] = {"\x89PNG", "<?xml", "%PDF"};
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "chart --db %s/s.db -o %s/c.%s", dir, dir, ext[i]);
        assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
        snprintf(args, sizeof args, "%s/c.%s", dir, ext[i]);
        char *b = bl_test_slurp(args);
        assert_non_null(b);
        assert_memory_equal(b, magic[i], strlen(magic[i]));
        free(b);
    }
    snprintf(args, sizeof args, "chart --db %s/s.db -o %s/c.svg --kind pie", dir, dir);
    char *err = NULL;
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 2);
    assert_non_null(strstr(err, "unknown kind 'pie'"));
    free(err);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

/* The test's own figure (seeks/s, files/s) has no unit of its metric: each row gives its
 * unit. A bar chart of it once read that missing unit and crashed. */
static void test_metric_value_chart(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), args[1200], fix[512];
    bl_test_fixture("bonnie/bonnie-1.03_handtyped_x2_fast.txt", fix, sizeof fix);
    snprintf(args, sizeof args, "import --db %s/s.db %s", dir, fix);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "chart --db %s/s.db --metric value -o %s/v.svg", dir, dir);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "%s/v.svg", dir);
    char *b = bl_test_slurp(args);
    assert_non_null(b);
    assert_non_null(strstr(b, "rand-seeks"));
    free(b);
    /* bonnie++ has no percentiles nor IOPS: the refusal names what is missing. */
    char *err = NULL;
    snprintf(args, sizeof args, "chart --db %s/s.db --metric p99 -o %s/p.svg", dir, dir);
    assert_int_not_equal(bl_test_benchlog(args, NULL, &err), 0);
    assert_non_null(strstr(err, "no record has a p99 figure to draw as bars (--metric p99)"));
    free(err);
    snprintf(args, sizeof args, "chart --db %s/s.db --kind iops-lat -o %s/p.svg", dir, dir);
    assert_int_not_equal(bl_test_benchlog(args, NULL, &err), 0);
    assert_non_null(strstr(err, "no record has IOPS to draw"));
    free(err);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

/* One table of kinds: the help of `chart` and of benchlog, and the man page, name each. */
static void test_kinds_table_is_the_list(void **state)
{
    (void)state;
    char *help = NULL, *top = NULL;
    assert_int_equal(bl_test_benchlog("chart --help", &help, NULL), 0);
    assert_int_equal(bl_test_benchlog("--help", &top, NULL), 0);
    char *man = bl_test_slurp("docs/benchlog.1");
    assert_non_null(man);
    assert_true(BL_CHART_N_KINDS >= 4);
    for (int k = 0; k < BL_CHART_N_KINDS; k++) {
        const char *name = bl_chart_kind_name(k);
        assert_int_equal(bl_chart_kind_from_name(name), k);
        char line[256];
        snprintf(line, sizeof line, "  %-12s %s\n", name, bl_chart_kind_help(k));
        if (!strstr(help, line))
            fail_msg("chart --help lacks the line of kind %s", name);
        snprintf(line, sizeof line, " %s", name);
        assert_non_null(strstr(strstr(top, "  chart "), line));
        /* The man page lists the kinds by hand, one ".TP\n.B name" entry each. */
        snprintf(line, sizeof line, ".TP\n.B %s\n", name);
        if (!strstr(man, line))
            fail_msg("docs/benchlog.1 does not describe chart kind '%s'", name);
    }
    assert_int_equal(bl_chart_kind_from_name("pie"), -1);
    assert_null(bl_chart_kind_name(BL_CHART_N_KINDS));
    free(man);
    free(help);
    free(top);
}

/* iozone -a: 42 tests of three file sizes, the 256 KiB records only in the largest file: a
 * test with one bar keeps room for its title (the tests of three bars give it), so no two
 * test titles in the SVG are closer than a title's line (17 units × 1.3), as tall as the
 * chart is. */
static void test_one_bar_titles_apart(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512];
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import -q --db %s/i.db %s", dir,
                                       bl_test_fixture("iozone/iozone-3.492_a_i012_layout.txt",
                                                       path, sizeof path)),
                     0);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "chart --db %s/i.db -o %s/i.svg", dir, dir), 0);
    snprintf(path, sizeof path, "%s/i.svg", dir);
    char *svg = bl_test_slurp(path);
    assert_non_null(svg);
    double ys[64];
    size_t n = 0, lone = 0;
    for (const char *p = strstr(svg, "<text"); p && n < 64; p = strstr(p + 1, "<text")) {
        double y;
        const char *gt = strchr(p, '>');
        if (!gt || sscanf(strstr(p, " y=\"") + 4, "%lf", &y) != 1 ||
            !strstr(p, "text-anchor=\"end\"") || !strstr(gt, "KiB T1<") ||
            strstr(gt, "KiB T1<") > strchr(gt, '<'))
            continue;
        lone += strncmp(gt + 1, "seq-read 256KiB T1<", 19) == 0;
        ys[n++] = y;
    }
    assert_int_equal(lone, 1);
    assert_true(n >= 40);
    for (size_t k = 1; k < n; k++)
        if (ys[k] - ys[k - 1] < 17 * 1.3 - 0.01)
            fail_msg("test titles %zu and %zu %.2f apart", k - 1, k, ys[k] - ys[k - 1]);
    free(svg);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_svg_bars_and_text),
        cmocka_unit_test(test_pdf_through_poppler),
        cmocka_unit_test(test_cli_by_extension),
        cmocka_unit_test(test_metric_value_chart),
        cmocka_unit_test(test_kinds_table_is_the_list),
        cmocka_unit_test(test_latency_labels_clear_ticks),
        cmocka_unit_test(test_one_bar_titles_apart),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    bl_chart_cleanup();
    return rc;
}
