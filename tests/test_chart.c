/* PNG charts, checked as images: sizes, which palette colours are drawn, bar lengths in the
 * ratio of the figures, Japanese glyphs present in the chart font, percentiles from bins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/canvas.h"
#include "../charts/chart.h"
#include "support/support.h"
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_report_records.h"

typedef struct img {
    cairo_surface_t *s;
    int w, h, stride;
    const unsigned char *d;
} img;

static void load(img *im, const char *path)
{
    im->s = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(im->s), CAIRO_STATUS_SUCCESS);
    im->w = cairo_image_surface_get_width(im->s);
    im->h = cairo_image_surface_get_height(im->s);
    im->stride = cairo_image_surface_get_stride(im->s);
    im->d = cairo_image_surface_get_data(im->s);
}

static unsigned px(const img *im, int x, int y)
{
    return *(const uint32_t *)(im->d + (size_t)y * (size_t)im->stride + (size_t)x * 4) & 0xFFFFFF;
}

/* Pixels of exactly this colour, and the longest horizontal run of it. */
static long count(const img *im, unsigned rgb, int *longest)
{
    long n = 0;
    *longest = 0;
    for (int y = 0; y < im->h; y++) {
        int run = 0;
        for (int x = 0; x < im->w; x++) {
            if (px(im, x, y) == rgb) {
                n++;
                if (++run > *longest)
                    *longest = run;
            } else {
                run = 0;
            }
        }
    }
    return n;
}

static char *draw(const char *dir, const char *name, bl_records *rs, bl_chart_opts *o)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char err[256] = "";
    int rc = bl_chart_png(path, rs, o, err, sizeof err);
    if (rc)
        fail_msg("chart: %s", err);
    return path;
}

static void test_bar_lengths_follow_figures(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_cdm(&rs);
    bl_chart_opts o = {.kind = BL_CHART_BAR, .by = "column"};
    img im;
    load(&im, draw(dir, "bar.png", &rs, &o));
    assert_int_equal(im.w, 1600);
    assert_int_equal(im.h, 900);
    int one, ten;
    assert_true(count(&im, bl_canvas_palette(0), &one) > 1000); /* 1 GbE */
    assert_true(count(&im, bl_canvas_palette(1), &ten) > 1000); /* 10 GbE */
    /* The longest bars are SEQ1M: 117.6 and 1121.4 MB/s; anti-aliased ends cost a pixel. */
    assert_true(bl_test_close((double)ten / one, 1121.4 / 117.6, 0.03));
    assert_true(ten > 900); /* the longest bar spans most of the plot */
    int none;
    assert_int_equal(count(&im, bl_canvas_palette(2), &none), 0); /* only two columns */
    cairo_surface_destroy(im.s);
    /* --log: the axis runs from 20 (1-2-5 below 45.2) to 2000 (above 1.5 × 1121.4), so
     * lengths go as log10(v / 20). */
    o.log = 1;
    load(&im, draw(dir, "log.png", &rs, &o));
    count(&im, bl_canvas_palette(0), &one);
    count(&im, bl_canvas_palette(1), &ten);
    assert_true(bl_test_close((double)ten / one, log10(1121.4 / 20) / log10(117.6 / 20), 0.03));
    cairo_surface_destroy(im.s);
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* fio-plot's layout: the runner's rand-write (7446 IOPS, lat mean 130 µs, p99 410 µs) as an
 * IOPS bar on the left and, in the same row, a shorter latency bar on the right with an ink
 * tick at p99 beyond it. */
static void test_iops_lat(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_runner(&rs);
    size_t drawn = 0;
    bl_chart_opts o = {.kind = BL_CHART_IOPS_LAT, .drawn = &drawn};
    img im;
    load(&im, draw(dir, "il.png", &rs, &o));
    assert_int_equal(drawn, 1);
    int longest;
    unsigned c0 = bl_canvas_palette(0);
    assert_true(count(&im, c0, &longest) > 1000);
    /* The row through the middle of the bars: two runs of the colour, IOPS then latency. */
    int best_y = -1;
    for (int y = 0; y < im.h && best_y < 0; y++) {
        int run = 0;
        for (int x = 0; x < im.w; x++) {
            run = px(&im, x, y) == c0 ? run + 1 : 0;
            if (run == longest)
                best_y = y;
        }
    }
    int runs = 0, len[4] = {0}, end[4] = {0};
    for (int x = 0, in = 0; x < im.w; x++) {
        int on = px(&im, x, best_y) == c0;
        if (on && !in && runs < 4)
            runs++;
        if (on) {
            len[runs - 1]++;
            end[runs - 1] = x;
        }
        in = on;
    }
    assert_int_equal(runs, 2);
    assert_true(len[1] < len[0]);
    /* Linear axes: IOPS 0..8000 (7446 fills 93% of the left panel), latency 0..500 µs (130
     * µs fills 26% of the right); the left panel is the wider (58%). */
    assert_true(len[1] * 2 < len[0]);
    int ink = 0;
    for (int x = end[1] + 1; x < im.w; x++)
        ink += px(&im, x, best_y) == 0x1D2330;
    assert_true(ink > 0); /* the p99 tick (and the value label) */
    cairo_surface_destroy(im.s);
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static void test_every_kind_and_size(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    static const struct {
        bl_chart_kind kind;
        size_t curves; /* palette colours expected */
    } kinds[] = {
        {BL_CHART_BAR, 6},         /* six default columns */
        {BL_CHART_PERCENTILES, 3}, /* fio seq-read, rand-read; the runner's write */
        {BL_CHART_TIMELINE, 1},    /* the runner's bw series */
        {BL_CHART_HISTOGRAM, 1},   /* the runner's bins */
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        bl_chart_opts o = {.kind = kinds[k].kind, .width = 1000, .height = 700};
        img im;
        load(&im, draw(dir, "k.png", &rs, &o));
        assert_int_equal(im.w, 1000);
        assert_int_equal(im.h, 700);
        for (size_t i = 0; i <= kinds[k].curves; i++) {
            int run;
            long n = count(&im, bl_canvas_palette(i), &run);
            if (i < kinds[k].curves)
                assert_true(n > 100);
            else
                assert_int_equal(n, 0);
        }
        cairo_surface_destroy(im.s);
    }
    /* Nothing to draw: said, not an empty image. */
    bl_records dd;
    bl_records_init(&dd);
    add_dd(&dd);
    char err[256], path[512];
    snprintf(path, sizeof path, "%s/none.png", dir);
    bl_chart_opts o = {.kind = BL_CHART_HISTOGRAM};
    assert_int_equal(bl_chart_png(path, &dd, &o, err, sizeof err), 1);
    assert_string_equal(err, "no record has a latency histogram (bins)");
    o.kind = BL_CHART_PERCENTILES;
    assert_int_equal(bl_chart_png(path, &dd, &o, err, sizeof err), 1);
    o.kind = BL_CHART_TIMELINE;
    o.series = "iops";
    assert_int_equal(bl_chart_png(path, &rs, &o, err, sizeof err), 1);
    assert_string_equal(err, "no record has a 'iops' series over time");
    o.width = 100;
    assert_int_equal(bl_chart_png(path, &dd, &o, err, sizeof err), 2);
    bl_records_free(&dd);
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static void test_japanese_glyphs(void **state)
{
    (void)state;
    bl_canvas c;
    assert_int_equal(bl_canvas_init(&c, 800, 450), 0);
    assert_int_equal(bl_canvas_unknown_glyphs(&c, "シーケンシャルリード 読み込み速度", 18), 0);
    assert_int_equal(bl_canvas_unknown_glyphs(&c, "10 GbE · 1MiB Q8T1", 18), 0);
    /* A plane-16 private-use character is in no font: the check does see missing glyphs. */
    assert_true(bl_canvas_unknown_glyphs(&c, "\xF4\x8F\xBF\xBD", 18) > 0);
    bl_canvas_free(&c);
    /* Default titles carry the labels the records share. */
    bl_records rs;
    bl_records_init(&rs);
    add_fio(&rs);
    bl_chart_opts o = {0};
    char *t = bl_chart_title("Latency percentiles", (const bl_record *const *)rs.v, rs.n, &o);
    assert_string_equal(t, "Latency percentiles — fio · シーケンシャル · nas1");
    free(t);
    char *n = bl_chart_name(rs.v[1], NULL);
    assert_string_equal(n, "randread · シーケンシャル");
    free(n);
    bl_record_set_label(rs.v[1], "job", "randrw70"); /* read and write sides share a job */
    n = bl_chart_name(rs.v[1], NULL);
    assert_string_equal(n, "randrw70 read · シーケンシャル");
    free(n);
    n = bl_chart_name(rs.v[1], "host");
    assert_string_equal(n, "nas1");
    free(n);
    bl_records_free(&rs);
}

static void test_percentiles_from_bins(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_runner(&rs);
    bl_pct p[24];
    size_t n = bl_lat_pct_from_bins(&rs.v[0]->lat_ns, p, 24);
    /* 72687 I/Os: the 36344th lies in the 120 µs bin, the 71961st in 410 µs, the 72615th
     * in 900 µs; 99.99% still leaves 7 I/Os beyond, so it is the last point. */
    assert_int_equal(n, 17);
    assert_double_equal(p[6].pct, 50, 0);
    assert_double_equal(p[6].value, 120000, 0);
    assert_double_equal(p[12].pct, 99, 0);
    assert_double_equal(p[12].value, 410000, 0);
    assert_double_equal(p[14].value, 900000, 0);
    assert_double_equal(p[16].pct, 99.99, 0);
    assert_double_equal(p[0].value, 80000, 0); /* 1%: the 727th I/O; 10 + 900 reach it */
    bl_records_free(&rs);
}

static void test_command_line(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), fx[256], args[1024];
    snprintf(args, sizeof args, "import --db %s/s.db %s", dir,
             bl_test_fixture("dd/gnu-dd-9.1_c_write_read.txt", fx, sizeof fx));
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "chart --db %s/s.db -o %s/a.png --width 800 --height 450", dir,
             dir);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "%s/a.png", dir);
    img im;
    load(&im, args);
    assert_int_equal(im.w, 800);
    assert_int_equal(im.h, 450);
    int run;
    assert_true(count(&im, bl_canvas_palette(0), &run) > 500);
    cairo_surface_destroy(im.s);
    char *err;
    snprintf(args, sizeof args, "chart --db %s/s.db -o %s/b.png --kind percentiles", dir, dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 1);
    assert_non_null(strstr(err, "no record has latency percentiles"));
    free(err);
    snprintf(args, sizeof args, "chart --db %s/s.db -o %s/b.png --kind pie", dir, dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 2);
    assert_non_null(strstr(err, "unknown kind 'pie'"));
    free(err);
    snprintf(args, sizeof args, "chart --db %s/s.db --width 12x", dir);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 2);
    snprintf(args, sizeof args, "chart --db %s/s.db", dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 2);
    assert_non_null(strstr(err, "-o FILE.png is required"));
    free(err);
    char *out;
    assert_int_equal(bl_test_benchlog("chart --help", &out, NULL), 0);
    assert_non_null(strstr(out, "--kind KIND"));
    free(out);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar_lengths_follow_figures),
        cmocka_unit_test(test_every_kind_and_size),
        cmocka_unit_test(test_iops_lat),
        cmocka_unit_test(test_japanese_glyphs),
        cmocka_unit_test(test_percentiles_from_bins),
        cmocka_unit_test(test_command_line),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    bl_chart_cleanup();
    return rc;
}
