/* The scaling matrix, chart and tables: fio runs of a bench-fio style sweep (fixtures/fio/sweep,
 * made with fio 3.33) form a 4 depths x 2 numjobs matrix whose every point holds the figures
 * of its fio run; repeats give mean and 95% CI; the `sweep` label picks the x parameter; the
 * text and CSV tables print the same figures; the chart draws them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/chart.h"
#include "../compare/scaling.h"
#include "../report/scaling_table.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int depths[] = {1, 2, 4, 8};

/* The eight fixture records, in file order (depth, then numjobs). */
static void load_fio_sweep(bl_records *recs)
{
    bl_records_init(recs);
    for (int d = 0; d < 4; d++)
        for (int j = 1; j <= 2; j++) {
            char rel[96], path[256];
            snprintf(rel, sizeof rel, "fio/sweep/4k/randread-%d-%d.json", depths[d], j);
            bl_parse_out out;
            assert_int_equal(bl_test_parse(bl_test_fixture(rel, path, sizeof path), NULL, &out), 0);
            assert_int_equal(out.recs.n, 1);
            bl_records_push(recs, bl_record_clone(out.recs.v[0]));
            bl_out_free(&out);
        }
}

static double clat_p99(const bl_record *r)
{
    for (size_t i = 0; i < r->clat_ns.n_pct; i++)
        if (r->clat_ns.pct[i].pct == 99)
            return r->clat_ns.pct[i].value;
    return NAN;
}

static void test_fio_sweep_forms_matrix(void **state)
{
    (void)state;
    bl_records recs;
    load_fio_sweep(&recs);
    bl_scaling m;
    char err[256];
    assert_int_equal(bl_scaling_build(&recs, NULL, BL_REP_MEAN, &m, err, sizeof err), 0);
    assert_int_equal(m.x, BL_SCALE_IODEPTH);
    assert_int_equal(m.n, 2);
    assert_string_equal(m.v[0].name, "numjobs=1");
    assert_string_equal(m.v[1].name, "numjobs=2");
    assert_int_equal(m.left_out, 0);
    assert_int_equal(m.lat_kind, 0); /* fio JSON: lat_ns mean, percentiles of clat only */
    assert_int_equal(m.p99_kind, 1);
    for (size_t l = 0; l < 2; l++) {
        assert_int_equal(m.v[l].n, 4);
        for (size_t i = 0; i < 4; i++) {
            const bl_scale_point *p = &m.v[l].v[i];
            const bl_record *r = recs.v[i * 2 + l];
            assert_int_equal(p->x, depths[i]);
            assert_int_equal(r->iodepth, depths[i]);
            assert_int_equal(r->numjobs, (int64_t)l + 1);
            assert_int_equal(p->iops.n, 1);
            assert_double_equal(p->iops.fig, r->iops, 0);
            assert_double_equal(p->bw.fig, r->bw_bytes_s, 0);
            assert_double_equal(p->lat.fig, r->lat_ns.mean, 0);
            assert_double_equal(p->p99.fig, clat_p99(r), 0);
            assert_true(p->iops.fig > 1000 && p->p99.fig > 1000);
        }
    }
    /* The tables print the same figures: CSV in model units, text in IOPS and µs. */
    bl_strbuf csv, text;
    bl_strbuf_init(&csv);
    bl_strbuf_init(&text);
    bl_scaling_csv(&m, &csv);
    bl_scaling_text(&m, &text);
    assert_int_equal(bl_test_count_lines(csv.s), 9);
    assert_true(strncmp(csv.s, "line,iodepth,n,iops,iops_ci95,bw_bytes_s,", 41) == 0);
    const bl_record *r = recs.v[7]; /* depth 8, numjobs 2 */
    char want[256];
    snprintf(want, sizeof want, "\"numjobs=2\",8,1,%.17g,,%.17g,,%.17g,,%.17g,\n", r->iops,
             r->bw_bytes_s, r->lat_ns.mean, clat_p99(r));
    assert_non_null(strstr(csv.s, want));
    assert_non_null(strstr(text.s, "line       iodepth  n"));
    snprintf(want, sizeof want, "%.0f", r->iops);
    assert_non_null(strstr(text.s, want));
    assert_non_null(strstr(text.s, "lat mean: total (lat); lat p99: completion (clat)"));
    bl_strbuf_free(&csv);
    bl_strbuf_free(&text);

    /* The chart: both panels, the log2 x axis, a line each. */
    bl_chart_opts o = {.kind = BL_CHART_SCALING};
    bl_strbuf svg;
    bl_strbuf_init(&svg);
    assert_int_equal(bl_chart_vector_mem(&svg, 0, &recs, &o, err, sizeof err), 0);
    assert_non_null(strstr(svg.s, "IOPS against iodepth"));
    assert_non_null(strstr(svg.s, "iodepth (log2 scale)"));
    assert_non_null(strstr(svg.s, "numjobs=2"));
    assert_non_null(strstr(svg.s, "p99 completion latency (dashed)"));
    bl_strbuf_free(&svg);
    bl_scaling_free(&m);
    bl_records_free(&recs);
    bl_chart_cleanup();
}

static bl_record *point(int depth, int jobs, double iops, const char *sweep)
{
    bl_record *r = bl_record_new();
    r->test = bl_xstrdup("rand-read");
    r->op = bl_xstrdup("read");
    r->bs = 4096;
    r->iodepth = depth;
    r->numjobs = jobs;
    r->iops = iops;
    r->bw_bytes_s = iops * 4096;
    r->lat_ns.present = true;
    r->lat_ns.mean = depth * jobs / iops * 1e9;
    if (sweep)
        bl_record_set_label(r, "sweep", sweep);
    return r;
}

/* Repeats: mean and Student's 95% CI; the sweep label's first varying key is x. */
static void test_repeats_and_sweep_order(void **state)
{
    (void)state;
    bl_records recs;
    bl_records_init(&recs);
    for (int rep = 0; rep < 3; rep++)
        for (int j = 1; j <= 4; j *= 2)
            for (int d = 1; d <= 2; d++)
                bl_records_push(&recs, point(d, j, 1000.0 * d * j + 10 * rep, "numjobs,iodepth"));
    bl_records_push(&recs, point(-1, 1, 5, NULL)); /* no depth: still a numjobs point */
    bl_scaling m;
    char err[256];
    assert_int_equal(bl_scaling_build(&recs, NULL, BL_REP_MEAN, &m, err, sizeof err), 0);
    assert_int_equal(m.x, BL_SCALE_NUMJOBS);
    assert_int_equal(m.n, 3);
    assert_string_equal(m.v[0].name, "iodepth=1");
    assert_string_equal(m.v[1].name, "iodepth=2");
    assert_string_equal(m.v[2].name, "iodepth=-1");
    const bl_scale_point *p = &m.v[1].v[2]; /* depth 2, numjobs 4: 8000, 8010, 8020 */
    assert_int_equal(p->x, 4);
    assert_int_equal(p->iops.n, 3);
    assert_double_equal(p->iops.fig, 8010, 1e-9);
    assert_double_equal(p->iops.ci, bl_t95(2) * 10 / sqrt(3), 1e-9);
    bl_strbuf text;
    bl_strbuf_init(&text);
    bl_scaling_text(&m, &text);
    assert_non_null(strstr(text.s, "8010 ± 24.84"));
    bl_strbuf_free(&text);
    bl_scaling_free(&m);
    bl_records_free(&recs);

    /* Nothing varies: no matrix, said so. */
    bl_records_init(&recs);
    bl_records_push(&recs, point(4, 1, 100, NULL));
    bl_records_push(&recs, point(4, 1, 110, NULL));
    assert_int_equal(bl_scaling_build(&recs, NULL, BL_REP_MEAN, &m, err, sizeof err), 1);
    assert_non_null(strstr(err, "none of iodepth, numjobs, bs takes two values among 2 records"));
    bl_scaling_free(&m);
    bl_records_free(&recs);
}

/* The command: fio results imported, the text table on stdout, CSV and PNG files. */
static void test_cli(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *out = NULL, *err = NULL;
    char path[256];
    bl_test_fixture("fio/sweep/4k", path, sizeof path);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s/s.db %s/*.json", dir, path), 0);
    assert_int_equal(bl_test_benchlogf(&out, &err, "chart --db %s/s.db --kind scaling -o -", dir),
                     0);
    assert_int_equal(bl_test_count_lines(out), 10);
    assert_non_null(strstr(out, "numjobs=2        8  1"));
    free(out);
    free(err);
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "chart --db %s/s.db --kind scaling -o %s/s.csv", dir, dir),
        0);
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "chart --db %s/s.db --kind scaling -o %s/s.png", dir, dir),
        0);
    char p[512];
    snprintf(p, sizeof p, "%s/s.csv", dir);
    char *csv = bl_test_slurp(p);
    assert_non_null(csv);
    assert_int_equal(bl_test_count_lines(csv), 9);
    free(csv);
    snprintf(p, sizeof p, "%s/s.png", dir);
    size_t n = 0;
    char *png = bl_test_slurp_n(p, &n);
    assert_non_null(png);
    assert_true(n > 10000 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    free(bl_test_sh(cmd, NULL));
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_sweep_forms_matrix),
        cmocka_unit_test(test_repeats_and_sweep_order),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
