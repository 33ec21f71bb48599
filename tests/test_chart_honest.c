/* Charts that never mislead: bars linear from zero unless --log is asked (and then said on the
 * axis), whiskers the 95% CI of the mean everywhere (none at n = 1), a figure on every bar of a
 * ten-set-up chart, the page's bars on one scale per chart. The figures are MB/s as dd and fio
 * print them (10^6 bytes/s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/canvas.h"
#include "../charts/chart.h"
#include "../compare/fmt.h"
#include "../compare/stats.h"
#include "../compare/table.h"
#include "../core/strbuf.h"
#include "../report/page.h"
#include "../report/report_pdf.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_report_records.h"

static bl_record *bw_rec(bl_records *rs, const char *col, const char *test, double mbs, long run)
{
    bl_record *r = rec(rs, "dd.txt", run, "dd", "9.1", test, 1048576, 1, 1);
    bl_record_set_label(r, "column", col);
    r->bw_bytes_s = mbs * 1e6;
    return r;
}

/* The widest path filled with rgb (cairo's SVG: "fill:rgb(R%,G%,B%)" and M/L coordinates). */
static double widest(const char *svg, unsigned rgb)
{
    double best = 0;
    for (const char *p = strstr(svg, "<path"); p; p = strstr(p + 1, "<path")) {
        const char *f = strstr(p, "fill:rgb("), *end = strstr(p, "/>"), *d = strstr(p, " d=\"");
        double r, g, b;
        if (!f || !end || !d || f > end || d > end ||
            sscanf(f, "fill:rgb(%lf%%,%lf%%,%lf%%)", &r, &g, &b) != 3)
            continue;
        unsigned c = (unsigned)lround(r * 2.55) << 16 | (unsigned)lround(g * 2.55) << 8 |
                     (unsigned)lround(b * 2.55);
        if (c != rgb)
            continue;
        double lo = INFINITY, hi = -INFINITY, x, y;
        int used;
        for (const char *q = d + 4; *q && *q != '"'; q++)
            if ((*q == 'M' || *q == 'L') && sscanf(q + 1, "%lf %lf%n", &x, &y, &used) == 2) {
                lo = fmin(lo, x);
                hi = fmax(hi, x);
            }
        if (hi > lo && hi - lo > best)
            best = hi - lo;
    }
    return best;
}

/* The horizontal extents of the whiskers (strokes at 80% ink, the only ones the bars draw). */
static size_t whiskers(const char *svg, double *span, size_t cap)
{
    size_t n = 0;
    for (const char *p = strstr(svg, "stroke-opacity:0.8"); p && n < cap;
         p = strstr(p + 1, "stroke-opacity:0.8")) {
        const char *d = strstr(p, " d=\""), *end = strstr(p, "/>");
        if (!d || d > end)
            continue;
        double lo = INFINITY, hi = -INFINITY, x, y;
        int used;
        for (const char *q = d + 4; *q && *q != '"'; q++)
            if ((*q == 'M' || *q == 'L') && sscanf(q + 1, "%lf %lf%n", &x, &y, &used) == 2) {
                lo = fmin(lo, x);
                hi = fmax(hi, x);
            }
        span[n++] = hi - lo;
    }
    return n;
}

static char *sh_text(const char *fmt, const char *path)
{
    char cmd[800];
    snprintf(cmd, sizeof cmd, fmt, path);
    return bl_test_sh(cmd, NULL);
}

/* A PDF report of 9.59 MB/s beside 580 MB/s once drew its bars on a log axis by itself
 * ("MB/s, log scale"), the 9.59 MB/s bar half as long as the 580 MB/s one. */
static void test_report_pdf_never_log(void **state)
{
    (void)state;
    if (!bl_test_have("pdftotext"))
        bl_skip_because("pdftotext missing (poppler-utils: sh scripts/deps.sh test)");
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    bw_rec(&rs, "usb stick", "seq-write", 9.59, 1);
    bw_rec(&rs, "sata ssd", "seq-write", 580, 2);
    bl_table_opts to = {.by = "column"};
    char err[256] = "", path[600];
    bl_table *t = bl_table_build(&rs, &to, err, sizeof err);
    assert_non_null(t);
    snprintf(path, sizeof path, "%s/r.pdf", dir);
    bl_pdf_opts po = {.by = "column"};
    assert_int_equal(bl_report_pdf(path, t, &rs, &po, NULL, err, sizeof err), 0);
    char *text = sh_text("pdftotext '%s' -", path);
    assert_non_null(strstr(text, "MB/s (10⁶ bytes/s) ·")); /* the group's chart */
    assert_non_null(strstr(text, "580.0"));
    assert_null(strstr(text, "log scale"));
    free(text);
    /* The chart itself: linear, 9.59 / 580 of the length. */
    bl_chart_opts o = {.kind = BL_CHART_BAR, .by = "column"};
    bl_strbuf svg;
    bl_strbuf_init(&svg);
    assert_int_equal(bl_chart_vector_mem(&svg, 0, &rs, &o, err, sizeof err), 0);
    double small = widest(svg.s, bl_canvas_palette(0)), big = widest(svg.s, bl_canvas_palette(1));
    assert_true(big > 500);
    assert_true(bl_test_close(small / big, 9.59 / 580, 0.05));
    assert_null(strstr(svg.s, "log scale"));
    /* --log: asked, and said on the axis. */
    bl_strbuf_reset(&svg);
    o.log = 1;
    assert_int_equal(bl_chart_vector_mem(&svg, 0, &rs, &o, err, sizeof err), 0);
    assert_non_null(strstr(svg.s, "MB/s (log scale)</text>"));
    bl_strbuf_free(&svg);
    bl_table_free(t);
    bl_records_free(&rs);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
    free(dir);
}

/* Three runs at 100, 110, 120 MB/s: mean 110, sd 10, 95% CI ±t(2)·10/√3 = ±24.84 MB/s; the
 * whisker spans mean - CI .. mean + CI (it was +1 stdev: 110 .. 120). One run: no whisker. */
static void test_whisker_is_ci_of_mean(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    for (int k = 0; k < 3; k++)
        bw_rec(&rs, "raid", "seq-read", 100 + 10 * k, 1 + k);
    bw_rec(&rs, "single", "seq-read", 50, 9);
    bl_chart_opts o = {.kind = BL_CHART_BAR, .by = "column"};
    bl_strbuf svg;
    bl_strbuf_init(&svg);
    char err[256] = "";
    assert_int_equal(bl_chart_vector_mem(&svg, 0, &rs, &o, err, sizeof err), 0);
    assert_non_null(strstr(svg.s, "whisker = 95% CI of the mean (n ≥ 2)"));
    double raid = widest(svg.s, bl_canvas_palette(0)), px = raid / 110;
    double single = widest(svg.s, bl_canvas_palette(1));
    assert_true(bl_test_close(single / px, 50, 0.02));
    double span[8];
    size_t n = whiskers(svg.s, span, 8);
    assert_int_equal(n, 1); /* none on the single run */
    double ci = bl_t95(2) * 10 / sqrt(3);
    assert_true(bl_test_close(ci, 24.84, 0.001));
    assert_true(bl_test_close(span[0] / px, 2 * ci, 0.03));
    bl_strbuf_free(&svg);
    bl_records_free(&rs);
}

/* Ten set-ups on six tests: every bar carries its figure (the chart grows taller rather than
 * dropping them). */
static void test_ten_setups_labelled(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    static const char *const tests[] = {"seq-read",   "seq-write",    "rand-read",
                                        "rand-write", "rand-read-q1", "rand-write-q1"};
    char col[32];
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 6; i++) {
            snprintf(col, sizeof col, "box %d", j + 1);
            bw_rec(&rs, col, tests[i], 101.5 + 37.3 * j + 3.1 * i, 1 + j);
        }
    bl_chart_opts o = {.kind = BL_CHART_BAR, .by = "column"};
    bl_strbuf svg, want;
    bl_strbuf_init(&svg);
    bl_strbuf_init(&want);
    char err[256] = "";
    assert_int_equal(bl_chart_vector_mem(&svg, 0, &rs, &o, err, sizeof err), 0);
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < 6; i++) {
            bl_strbuf_reset(&want);
            bl_strbuf_putc(&want, '>');
            bl_fmt_fig(&want, 101.5 + 37.3 * j + 3.1 * i);
            bl_strbuf_puts(&want, "</text>");
            if (!strstr(svg.s, want.s))
                fail_msg("no value label %s on set-up %d, test %s", want.s, j + 1, tests[i]);
        }
    bl_strbuf_free(&want);
    bl_strbuf_free(&svg);
    bl_records_free(&rs);
}

/* The page's chart: one scale for all its bars; a 100 MB/s bar of one test is a quarter of a
 * 400 MB/s bar of another (each test once had its own scale, both bars full length). */
static void test_page_one_scale(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    bw_rec(&rs, "a", "seq-read", 400, 1);
    bw_rec(&rs, "b", "seq-write", 100, 2);
    bl_table_opts to = {.by = "column"};
    char err[256] = "";
    bl_table *t = bl_table_build(&rs, &to, err, sizeof err);
    bl_strbuf out;
    bl_strbuf_init(&out);
    assert_int_equal(bl_page_svg_chart(t, BL_M_BW, &out), 2);
    double w[2];
    int n = 0;
    for (const char *p = strstr(out.s, "<rect"); p && n < 2; p = strstr(p + 1, "<rect")) {
        const char *q = strstr(p, "width=\"");
        assert_non_null(q);
        w[n++] = atof(q + 7);
    }
    assert_int_equal(n, 2);
    double lo = fmin(w[0], w[1]), hi = fmax(w[0], w[1]);
    assert_true(hi > 300);
    assert_true(bl_test_close(lo / hi, 0.25, 0.02));
    bl_strbuf_reset(&out);
    bl_page_chart_text(t, BL_M_BW, &out);
    assert_non_null(strstr(out.s, "one linear scale from zero"));
    bl_strbuf_free(&out);
    bl_table_free(t);
    bl_records_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_pdf_never_log),
        cmocka_unit_test(test_whisker_is_ci_of_mean),
        cmocka_unit_test(test_ten_setups_labelled),
        cmocka_unit_test(test_page_one_scale),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    bl_chart_cleanup();
    return rc;
}
