/* The comparison model over the real blog posts of the corpus (skipped without
 * BENCHLOG_CORPUS): set-ups lacking the --by label are never pooled, repeats are only the
 * same test on the same set-up, and their summary (mean, median, best, 95% CI) is checked
 * against a hand computation from the figures the posts print. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/chart.h"
#include "../core/strbuf.h"
#include "../compare/diff.h"
#include "../compare/fmt.h"
#include "../report/render.h"
#include "../compare/table.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const posts[] = {
    "blog/000_bed2622bff3958ce.txt", "blog/001_8562a4b6946fb1ec.txt",
    "blog/003_c0a3f5a42cdf17b6.txt", "blog/004_8160137f383e9f6d.txt"};

/* The records of the given posts; 0 when the corpus is absent. */
static int load(bl_records *all, size_t from, size_t to)
{
    bl_records_init(all);
    for (size_t i = from; i < to; i++) {
        char *path = bl_test_corpus(posts[i]);
        if (!path)
            return 0;
        bl_parse_out o;
        /* 000 holds one results row that can be read two ways: refused, the rest kept. */
        assert_true(bl_test_parse(path, NULL, &o) <= 1);
        for (size_t k = 0; k < o.recs.n; k++)
            bl_records_push(all, bl_record_clone(o.recs.v[k]));
        bl_out_free(&o);
        free(path);
    }
    return 1;
}

static bl_table *build(const bl_records *rs, const char *by, bl_repeats rep)
{
    bl_table_opts o = {.by = by, .repeats = rep};
    char err[256] = "";
    bl_table *t = bl_table_build(rs, &o, err, sizeof err);
    assert_non_null(t);
    return t;
}

static size_t row_of(const bl_table *t, const char *title)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].title, title) == 0)
            return i;
    fail_msg("no row '%s'", title);
    return 0;
}

static size_t col_of(const bl_table *t, const char *title)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (strcmp(t->cols[j].title, title) == 0)
            return j;
    fail_msg("no column '%s'", title);
    return 0;
}

/* --by host over posts that name no host: 27 runs of different machines once became one
 * "(no host)" column of "256.6 ± 198.5 MB/s (n=27)". */
static void test_unlabelled_never_pooled(void **state)
{
    (void)state;
    bl_records rs;
    if (!load(&rs, 0, 4)) {
        bl_records_free(&rs);
        skip();
    }
    bl_table *t = build(&rs, "host", BL_REP_MEAN);
    assert_int_equal(t->n_unlabelled, t->ncols);
    size_t seq = row_of(t, "seq-read 1MiB Q1T1");
    for (size_t j = 0; j < t->ncols; j++) {
        assert_true(t->cols[j].unlabelled);
        assert_null(strstr(t->cols[j].title, "(no host)"));
        /* The only repeats of this test are fio-cdm's four runs in blog 004. */
        assert_true(bl_table_cell(t, seq, j)->m[BL_M_BW].n <= 4);
    }
    /* 001: "CIFS SSDキャッシュ無し" over 1 GbE and 10 GbE are two set-ups, not one. */
    size_t a = col_of(t, "001_8562a4b6946fb1ec.txt · CIFS SSDキャッシュ無し · 1 GbE");
    size_t b = col_of(t, "001_8562a4b6946fb1ec.txt · CIFS SSDキャッシュ無し · 10 GbE");
    assert_int_equal(bl_table_cell(t, seq, a)->m[BL_M_BW].n, 1);
    assert_int_equal(bl_table_cell(t, seq, b)->m[BL_M_BW].n, 1);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* 003: four ZFS settings, one table row each; --by column must not make them n=4. */
static void test_zfs_settings_apart(void **state)
{
    (void)state;
    bl_records rs;
    if (!load(&rs, 2, 3)) {
        bl_records_free(&rs);
        skip();
    }
    for (int by = 0; by < 2; by++) {
        bl_table *t = build(&rs, by ? "column" : NULL, BL_REP_MEAN);
        assert_int_equal(t->ncols, 4);
        assert_false(t->any_repeat);
        size_t seq = row_of(t, "seq-read 1MiB Q1T1");
        /* "zil_disable=0 zfs_nocacheflush=185.485.2119.79..." is 85.4 MB/s sequential read */
        size_t j = col_of(t, by ? "003_c0a3f5a42cdf17b6.txt · 測定結果 · zil_disable=0 "
                                  "zfs_nocacheflush=1"
                                : "zil_disable=0 zfs_nocacheflush=1");
        assert_double_equal(bl_table_cell(t, seq, j)->m[BL_M_BW].fig, 85.4, 1e-9);
        bl_table_free(t);
    }
    bl_records_free(&rs);
}

/* 004: fio-cdm ran four times on one set-up; "Seq | 420.361 / 423.315 / 421.399 / 434.267"
 * MB/s read. By hand: mean 424.8355, sample stdev 6.405617, t(0.975, 3) = 3.1824, CI
 * half-width 3.1824 × 6.405617 / 2 = 10.19262; median (421.399 + 423.315) / 2 = 422.357;
 * best 434.267. */
static void test_repeats_by_hand(void **state)
{
    (void)state;
    bl_records rs;
    if (!load(&rs, 3, 4)) {
        bl_records_free(&rs);
        skip();
    }
    static const bl_repeats modes[] = {BL_REP_MEAN, BL_REP_MEDIAN, BL_REP_BEST, BL_REP_ALL};
    static const double want[] = {424.8355, 422.357, 434.267, 424.8355};
    for (size_t k = 0; k < 4; k++) {
        bl_table *t = build(&rs, "tool", modes[k]);
        const bl_stat *s =
            &bl_table_cell(t, row_of(t, "seq-read 1MiB Q1T1"), col_of(t, "fio-cdm"))->m[BL_M_BW];
        assert_int_equal(s->n, 4);
        assert_double_equal(s->mean, 424.8355, 1e-9);
        assert_double_equal(s->sd, 6.405617196, 1e-8);
        assert_double_equal(s->ci, 10.19262, 1e-4);
        assert_double_equal(s->fig, want[k], 1e-9);
        /* Write 4KiB Q1T1: 3.003, 3.065, 3.048, 3.146: best is the highest. */
        s = &bl_table_cell(t, row_of(t, "rand-write 4KiB Q1T1"), col_of(t, "fio-cdm"))->m[BL_M_BW];
        if (modes[k] == BL_REP_BEST)
            assert_double_equal(s->fig, 3.146, 1e-9);
        bl_report_opts ro = {.format = BL_REPORT_TEXT};
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_report_render(t, &ro, &sb);
        char say[64];
        snprintf(say, sizeof say, "--repeats %s", bl_repeats_name(modes[k]));
        assert_non_null(strstr(sb.s, say));
        if (modes[k] == BL_REP_MEAN)
            assert_non_null(strstr(sb.s, "424.8 ± 6.41 MB/s (n=4, CI ±10.19)"));
        if (modes[k] == BL_REP_BEST)
            assert_non_null(strstr(sb.s, "434.3 MB/s (n=4, sd 6.41, CI ±10.19)"));
        if (modes[k] == BL_REP_MEDIAN)
            assert_non_null(strstr(sb.s, "422.4 MB/s (n=4, sd 6.41, CI ±10.19)"));
        if (modes[k] == BL_REP_ALL) /* every run, in the post's order */
            assert_non_null(strstr(sb.s, "420.4, 423.3, 421.4, 434.3 MB/s (n=4, mean 424.8, "
                                         "CI ±10.19)"));
        bl_strbuf_free(&sb);
        bl_table_free(t);
    }
    bl_records_free(&rs);
}

/* Student's t at a few points of the table, and between them. */
static void test_t_quantiles(void **state)
{
    (void)state;
    assert_double_equal(bl_t95(1), 12.7062, 1e-4);
    assert_double_equal(bl_t95(10), 2.2281, 1e-4);
    assert_double_equal(bl_t95(30), 2.0423, 1e-4);
    assert_double_equal(bl_t95(60), 2.0003, 1e-4);
    assert_double_equal(bl_t95(50), 2.0086, 2e-3); /* tables: 2.0086 */
    assert_double_equal(bl_t95(100000), 1.96, 1e-3);
}

/* 004's fio-cdm prints "4K | 64159.000" MB/s of random reads from a SATA disk: the parser
 * now refuses those cells (fio-cdm misread fio's unit; test_blog). A figure as far off that
 * nothing refuses (the same 64159 MB/s without the tell-tale ".000", as a retyped table may
 * give it) is still flagged by the comparison: far off what 000, 001 and 003 show for the
 * same test. */
static void test_implausible_flagged(void **state)
{
    (void)state;
    bl_records rs;
    if (!load(&rs, 0, 4)) {
        bl_records_free(&rs);
        skip();
    }
    const bl_record *w = NULL;
    for (size_t i = 0; i < rs.n && !w; i++) {
        const bl_record *r = rs.v[i];
        const char *cdm = bl_record_label(r, "cdm_test");
        if (strcmp(r->tool, "fio-cdm") == 0 && cdm && strcmp(cdm, "RND4K Q1T1") == 0 &&
            strcmp(r->test, "rand-write") == 0)
            w = r;
    }
    assert_non_null(w);
    bl_record *r = bl_record_clone(w);
    free(r->test);
    free(r->op);
    r->test = bl_xstrdup("rand-read");
    r->op = bl_xstrdup("read");
    r->bw_bytes_s = 64159e6;
    bl_records_push(&rs, r);
    bl_table *t = build(&rs, NULL, BL_REP_MEAN);
    size_t row = row_of(t, "rand-read 4KiB Q1T1");
    size_t j = col_of(t, "004_8160137f383e9f6d.txt");
    const bl_cell *c = bl_table_cell(t, row, j);
    assert_double_equal(c->m[BL_M_BW].v[0], 64159, 1e-9);
    assert_true(bl_present(c->flag) && c->flag > 1000);
    assert_int_equal(t->n_flagged, 1);
    bl_report_opts ro = {.format = BL_REPORT_TEXT};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_report_render(t, &ro, &sb);
    assert_non_null(strstr(sb.s, "64159 MB/s !"));
    assert_non_null(strstr(sb.s, "! = implausible: 1 figure"));
    bl_strbuf_free(&sb);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* The blog store is 29 set-ups (000's six fio runs under headings that only name their tests
 * are one): past 120 columns the text comes in blocks that each repeat the test column; no
 * table line is wider, and no set-up or figure is left out. */
static void test_text_fits(void **state)
{
    (void)state;
    bl_records rs;
    if (!load(&rs, 0, 4)) {
        bl_records_free(&rs);
        skip();
    }
    bl_table *t = build(&rs, NULL, BL_REP_MEAN);
    assert_int_equal(t->ncols, 29);
    bl_report_opts o = {.format = BL_REPORT_TEXT, .width = 120};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_report_render(t, &o, &sb);
    size_t tests = 0;
    for (char *line = sb.s; line && *line;) {
        char *nl = strchr(line, '\n');
        char *l = bl_xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
        int prose = strstr(l, "MB/s = ") == l || strstr(l, "Repeats") == l ||
                    strstr(l, "Latency") == l || strstr(l, "! = ") == l ||
                    strstr(l, "blocks of columns") != NULL;
        if (!prose)
            assert_true(bl_display_width(l) <= 120);
        tests += strncmp(l, "test ", 5) == 0 || strcmp(l, "test") == 0;
        free(l);
        line = nl ? nl + 1 : NULL;
    }
    assert_true(tests > 1); /* several blocks, each with the test column */
    for (size_t j = 0; j < t->ncols; j++) {
        const char *last = strrchr(t->cols[j].title, ' ');
        assert_non_null(strstr(sb.s, last ? last + 1 : t->cols[j].title));
    }
    /* Every MB/s cell of the model is printed once. */
    size_t want = 0;
    for (size_t i = 0; i < t->nrows; i++)
        for (size_t j = 0; j < t->ncols; j++)
            want += bl_table_cell(t, i, j)->m[BL_M_BW].n > 0;
    size_t got = 0;
    for (const char *p = sb.s; (p = strstr(p, " MB/s")); p++)
        got++;
    assert_int_equal(got, want);
    bl_strbuf_free(&sb);
    /* --wide: one table a comparison group (a source: four), never split into blocks. */
    o.width = 0;
    bl_strbuf_init(&sb);
    bl_report_render(t, &o, &sb);
    size_t heads = 0;
    for (const char *p = sb.s; (p = strstr(p, "\ntest ")); p++)
        heads++;
    assert_int_equal(heads, 4);
    assert_null(strstr(sb.s, "blocks of columns"));
    bl_strbuf_free(&sb);
    /* Records chosen by a FILTER are one group: one table, one heading line. */
    o.across = 1;
    bl_strbuf_init(&sb);
    bl_report_render(t, &o, &sb);
    assert_true(strncmp(sb.s, "test ", 5) == 0);
    assert_null(strstr(sb.s, "\ntest "));
    bl_strbuf_free(&sb);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* The bar chart of the blog store draws all 29 set-ups, ten a page, by the chart's own
 * count of legend entries; legends name set-ups by their labels. */
static void test_chart_every_setup(void **state)
{
    (void)state;
    bl_records rs;
    if (!load(&rs, 0, 4)) {
        bl_records_free(&rs);
        skip();
    }
    bl_table *t = build(&rs, NULL, BL_REP_MEAN);
    size_t with_bw = 0;
    for (size_t j = 0; j < t->ncols; j++) {
        int any = 0;
        for (size_t i = 0; i < t->nrows; i++)
            any |= bl_table_cell(t, i, j)->m[BL_M_BW].n > 0;
        with_bw += any;
    }
    assert_int_equal(with_bw, 29);
    /* 001's set-ups are named by heading and table column, not by the file; 004's bare
     * fio-cdm tables, which have no labels, by their tool. */
    for (size_t j = 0; j < t->ncols; j++)
        if (strstr(t->cols[j].title, "001_"))
            assert_null(strstr(t->cols[j].label, "001_"));
    assert_string_equal(t->cols[col_of(t, "004_8160137f383e9f6d.txt")].label, "fio-cdm");
    bl_table_free(t);
    char *dir = bl_test_tmpdir(), path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/bars.png", dir);
    size_t pages = 0, drawn = 0;
    bl_chart_opts o = {.kind = BL_CHART_BAR, .log = -1, .drawn = &drawn};
    assert_int_equal(bl_chart_png_pages(path, &rs, &o, &pages, err, sizeof err), 0);
    assert_int_equal(pages, 3);
    assert_int_equal(drawn, 29);
    for (size_t p = 1; p <= 4; p++) {
        char *pp = bl_chart_page_path(path, p);
        FILE *f = fopen(pp, "rb");
        if (p <= 3)
            assert_non_null(f);
        else
            assert_null(f);
        if (f)
            fclose(f);
        free(pp);
    }
    /* --metric iops: the set-ups with IOPS only. */
    drawn = 0;
    o.has_metric = 1;
    o.metric = BL_M_IOPS;
    assert_int_equal(bl_chart_png_pages(path, &rs, &o, &pages, err, sizeof err), 0);
    assert_true(drawn > 0 && drawn < 29);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
    free(dir);
    bl_records_free(&rs);
}

static void add(bl_records *rs, const char *side, long run, double mbps)
{
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, side);
    r->run = run;
    bl_record_set_str(&r->test, "seq-read");
    r->bs = 1048576;
    r->iodepth = 1;
    r->numjobs = 1;
    r->bw_bytes_s = mbps * 1e6;
    bl_record_set_label(r, "side", side);
    bl_records_push(rs, r);
}

/* A: 100, 102, 98 (mean 100, sd 2, CI 4.3027 × 2 / sqrt(3) = 4.968); B: 120, 121, 119 (mean
 * 120, sd 1, CI 2.484): the intervals do not overlap. C: 103 alone lies inside A's. */
static void test_diff_outside_ci(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add(&rs, "A", 1, 100);
    add(&rs, "A", 2, 102);
    add(&rs, "A", 3, 98);
    add(&rs, "B", 1, 120);
    add(&rs, "B", 2, 121);
    add(&rs, "B", 3, 119);
    add(&rs, "C", 1, 103);
    bl_table *t = build(&rs, "side", BL_REP_MEAN);
    bl_diff_line l[2];
    assert_int_equal(bl_diff(t, 0, 1, NULL, 0, l), 1);
    assert_double_equal(l[0].a->ci, 4.3027 * 2 / sqrt(3), 1e-9);
    assert_double_equal(l[0].change_pct, 20, 1e-9);
    assert_int_equal(l[0].ci, BL_DIFF_OUTSIDE);
    assert_int_equal(bl_diff(t, 0, 2, NULL, 0, l), 1);
    assert_double_equal(l[0].change_pct, 3, 1e-9);
    assert_int_equal(l[0].ci, BL_DIFF_INSIDE);
    bl_metric lat = BL_M_LAT; /* no latency on either side: no line */
    assert_int_equal(bl_diff(t, 0, 1, &lat, 1, l), 0);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_diff_render(t, 0, 1, l, bl_diff(t, 0, 1, NULL, 0, l), 0, &sb);
    assert_non_null(strstr(sb.s, "100.0 MB/s (n=3, CI ±4.97)"));
    assert_non_null(strstr(sb.s, "120.0 MB/s (n=3, CI ±2.48)"));
    assert_non_null(strstr(sb.s, "+20.0%  better   yes"));
    bl_strbuf_free(&sb);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* The command over an imported blog 004: bonnie++ without and with mkfs options, 11 and 10
 * runs. Block writes by hand (K/sec × 1024 / 10^6): 659.0974 (CI ±4.2112) and 660.7378
 * (CI ±4.3987), +0.2489%, intervals overlap; the post says "あんまり変わらない". */
static void test_compare_command(void **state)
{
    (void)state;
    char *path = bl_test_corpus(posts[3]);
    if (!path)
        skip();
    char *dir = bl_test_tmpdir(), args[1024];
    snprintf(args, sizeof args, "import --db %s/s.db %s", dir, path);
    char *out = NULL, *err = NULL;
    /* status 1: fio-cdm's four misread 4K cells are refused, the rest imported */
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 1);
    assert_non_null(strstr(out, "imported 281 records"));
    free(out);
    out = NULL;
    snprintf(args, sizeof args,
             "compare --db %s/s.db --csv section=指定しない場合 section=指定した場合", dir);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    const char *l = strstr(out, "\"seq-write-block T1\",bw,\"MB/s\",");
    assert_non_null(l);
    double a, aci, b, bci, pct;
    int an, bn;
    assert_int_equal(sscanf(l + strlen("\"seq-write-block T1\",bw,\"MB/s\","),
                            "%lf,%d,%lf,%lf,%d,%lf,%lf", &a, &an, &aci, &b, &bn, &bci, &pct),
                     7);
    assert_double_equal(a, 659.0974138, 1e-6);
    assert_int_equal(an, 11);
    assert_double_equal(aci, 4.2111776, 1e-4);
    assert_double_equal(b, 660.7378432, 1e-6);
    assert_int_equal(bn, 10);
    assert_double_equal(bci, 4.3986709, 1e-4);
    assert_double_equal(pct, 0.2488903, 1e-5);
    /* +0.25% inside the overlapping intervals: within noise, neither better nor worse */
    assert_non_null(strstr(l, ",no,within noise\n"));
    free(out);
    free(err);
    /* report --by host: every set-up lacks the label; stderr names them. */
    snprintf(args, sizeof args, "report --db %s/s.db --by host", dir);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    assert_non_null(strstr(err, "lack the label 'host'; not pooled"));
    assert_non_null(strstr(err, "004_8160137f383e9f6d.txt · 指定した場合\n"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unlabelled_never_pooled), cmocka_unit_test(test_zfs_settings_apart),
        cmocka_unit_test(test_repeats_by_hand),         cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_implausible_flagged),     cmocka_unit_test(test_diff_outside_ci),
        cmocka_unit_test(test_compare_command),         cmocka_unit_test(test_text_fits),
        cmocka_unit_test(test_chart_every_setup),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    bl_chart_cleanup();
    return rc;
}
