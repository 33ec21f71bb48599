/* Reports over records the parsers made from real outputs: our fio fixture, and bonnie++
 * and CrystalDiskMark files of the corpus (skipped when BENCHLOG_CORPUS is absent). The
 * expected figures are those the tools printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/chart.h"
#include "../core/strbuf.h"
#include "../report/render.h"
#include "../compare/table.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long row_of(const bl_table *t, const char *title)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].title, title) == 0)
            return (long)i;
    fail_msg("no row '%s'", title);
    return -1;
}

/* By test and block size: what the parsers add (queue depth, jobs) may still grow. */
static size_t row_by(const bl_table *t, const char *test, int64_t bs)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].test, test) == 0 && t->rows[i].bs == bs)
            return i;
    fail_msg("no row %s bs=%lld", test, (long long)bs);
    return 0;
}

static char *text_of(const bl_table *t)
{
    bl_report_opts o = {.format = BL_REPORT_TEXT};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_report_render(t, &o, &sb);
    return bl_strbuf_take(&sb);
}

/* Appends the records of path (parsed as `benchlog parse` does) to all. */
static void parse_into(const char *path, bl_records *all)
{
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    for (size_t i = 0; i < o.recs.n; i++)
        bl_records_push(all, bl_record_clone(o.recs.v[i]));
    bl_out_free(&o);
}

static void test_fio_fixture(void **state)
{
    (void)state;
    char fx[256];
    bl_records rs;
    bl_records_init(&rs);
    parse_into(bl_test_fixture("fio/mix-3.33.out", fx, sizeof fx), &rs);
    bl_table_opts to = {0};
    char err[256];
    bl_table *t = bl_table_build(&rs, &to, err, sizeof err);
    assert_non_null(t);
    /* Job rwmix is numjobs=2 without group_reporting: its two jobs ran at once, so they are
     * columns of their own (scope "job 1/2", "job 2/2") beside their total, never two
     * repeats averaged: fio printed read "(1942MB/s)" and "(1931MB/s)". */
    assert_int_equal(t->ncols, 4);
    assert_string_equal(t->cols[1].title, "job 1/2");
    assert_string_equal(t->cols[3].title, "group total");
    size_t one = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].test, "seq-read") == 0 && t->rows[i].bs == 16384 &&
            bl_table_cell(t, i, 1)->m[BL_M_BW].n)
            one = i;
    const bl_cell *c = bl_table_cell(t, one, 1);
    assert_int_equal(c->m[BL_M_BW].n, 1);
    assert_true(bl_test_close(c->m[BL_M_BW].mean, 1942, 0.001));
    assert_true(bl_test_close(bl_table_cell(t, one, 2)->m[BL_M_BW].mean, 1931, 0.001));
    size_t all = row_of(t, "seq-read 16KiB Q1T2");
    assert_true(bl_test_close(bl_table_cell(t, all, 3)->m[BL_M_BW].mean, 1942 + 1931, 0.001));
    /* randrw70: "read: IOPS=18.8k, BW=73.6MiB/s (77.2MB/s)" */
    c = bl_table_cell(t, row_by(t, "rand-read", 4096), 0);
    assert_true(bl_test_close(c->m[BL_M_BW].mean, 77.2, 0.001));
    assert_true(bl_test_close(c->m[BL_M_IOPS].mean, 18800, 0.003));
    char *txt = text_of(t);
    assert_non_null(strstr(txt, "77.16 MB/s  18839 IOPS"));
    assert_non_null(strstr(txt, "1941.7 MB/s  118512 IOPS  1930.9 MB/s  117851 IOPS"));
    assert_null(strstr(txt, "(n=2"));
    free(txt);
    bl_table_free(t);
    /* Its JSON+ part has clat percentiles and bins: both latency charts draw from it. */
    char *dir = bl_test_tmpdir(), png[512];
    snprintf(png, sizeof png, "%s/p.png", dir);
    bl_chart_opts co = {.kind = BL_CHART_PERCENTILES};
    assert_int_equal(bl_chart_png(png, &rs, &co, err, sizeof err), 0);
    co.kind = BL_CHART_HISTOGRAM;
    assert_int_equal(bl_chart_png(png, &rs, &co, err, sizeof err), 0);
    unlink(png);
    rmdir(dir);
    free(dir);
    bl_records_free(&rs);
}

static void test_bonnie_corpus(void **state)
{
    (void)state;
    char *path = bl_test_corpus("bonnie/bonnie-1.96_csv_7lines_incl_1.03_line.csv");
    if (!path)
        skip();
    bl_records rs;
    bl_records_init(&rs);
    parse_into(path, &rs);
    free(path);
    bl_table_opts to = {0};
    char err[256];
    bl_table *t = bl_table_build(&rs, &to, err, sizeof err);
    /* Seven lines of seven machines (host1..host7): seven set-ups, never one mean of them. */
    assert_int_equal(t->ncols, 7);
    assert_false(t->any_repeat);
    /* Block writes of the seven lines, K/sec: 110033 109696 94051 86703 75834 99612 36403. */
    static const double kps[] = {110033, 109696, 94051, 86703, 75834, 99612, 36403};
    size_t wb = (size_t)row_of(t, "seq-write-block T1");
    for (size_t j = 0; j < 7; j++) {
        char host[8];
        snprintf(host, sizeof host, "host%zu", j + 1);
        assert_string_equal(t->cols[j].title, host);
        const bl_stat *s = &bl_table_cell(t, wb, j)->m[BL_M_BW];
        assert_int_equal(s->n, 1);
        assert_true(bl_test_close(s->fig, kps[j] * 1024 / 1e6, 1e-9));
    }
    /* Sequential stat: 332943 and 332648 files/s on two lines, "+++++" on five. */
    size_t st = (size_t)row_of(t, "seq-stat T1");
    size_t notes = 0, figs = 0;
    for (size_t j = 0; j < 7; j++) {
        const bl_cell *c = bl_table_cell(t, st, j);
        notes += c->n_notes;
        figs += c->m[BL_M_VALUE].n;
    }
    assert_int_equal(figs, 2);
    assert_int_equal(notes, 5);
    char *txt = text_of(t);
    assert_non_null(strstr(txt, "112.7 MB/s")); /* host1: 110033 K/sec */
    assert_non_null(strstr(txt, "332943 files/s"));
    assert_non_null(strstr(txt, "+++++"));
    free(txt);
    bl_table_free(t);
    /* --by host: one column per machine, the figures as printed. */
    to.by = "host";
    t = bl_table_build(&rs, &to, err, sizeof err);
    assert_int_equal(t->ncols, 7);
    assert_string_equal(t->cols[6].title, "host7");
    const bl_cell *c = bl_table_cell(t, (size_t)row_of(t, "seq-write-block T1"), 6);
    assert_true(bl_test_close(c->m[BL_M_BW].mean, 36403 * 1024 / 1e6, 1e-9));
    bl_table_free(t);
    bl_records_free(&rs);
}

static void test_crystaldiskmark_corpus(void **state)
{
    (void)state;
    char *a = bl_test_corpus("cdm/cdm-8.0.2_x64_crucial_p2_nvme.txt");
    char *b = bl_test_corpus("cdm/cdm-6.0.2_x64_samsung860evo_quoted.txt");
    if (!a || !b) {
        free(a);
        free(b);
        skip();
    }
    bl_records rs;
    bl_records_init(&rs);
    parse_into(a, &rs);
    parse_into(b, &rs);
    free(a);
    free(b);
    bl_table_opts to = {.by = "tool_version", .baseline = "6.0.2"};
    char err[256];
    bl_table *t = bl_table_build(&rs, &to, err, sizeof err);
    assert_non_null(t);
    assert_int_equal(t->ncols, 2);
    /* CrystalDiskMark's own order: SEQ1M Q8T1 first, RND4K Q1T1 last of the reads. */
    assert_string_equal(t->rows[0].title, "seq-read 1MiB Q8T1");
    long rr = row_of(t, "rand-read 4KiB Q1T1"), rw = row_of(t, "rand-write 4KiB Q1T1");
    assert_true(rw == rr + 1);
    /* RND4K Q1T1 read 58.357 vs 33.779 MB/s, write 220.477 vs 134.580. */
    assert_double_equal(bl_table_ratio(t, (size_t)rr, 0), 58.357 / 33.779, 1e-9);
    char *txt = text_of(t);
    assert_non_null(strstr(txt, "58.36 MB/s  14247 IOPS"));
    assert_non_null(strstr(txt, "×1.73"));
    assert_non_null(strstr(txt, "×1.64"));
    free(txt);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* benchlog's own runner (null engine: no I/O, a second): its records in every output. */
static void test_runner_records(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), args[1024], *out, *err;
    snprintf(args, sizeof args,
             "run --db %s/s.db --suite quick --engine null --runtime 100ms --size 1m --target %s",
             dir, dir);
    int rc = bl_test_benchlog(args, NULL, &err);
    free(err);
    if (rc == 2)
        skip(); /* a build without the runner */
    assert_int_equal(rc, 0);
    snprintf(args, sizeof args, "export --db %s/s.db test=rand-read iodepth=1", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    const char *bw = strstr(out, "\"bw_bytes_s\":");
    assert_non_null(bw);
    double bytes = strtod(bw + 13, NULL);
    free(out);
    snprintf(args, sizeof args, "report --db %s/s.db --csv --lat", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    /* The quick suite in CrystalDiskMark's order; the figure is the stored one in MB/s. */
    const char *order[] = {"\nseq-read,1048576,8,1,", "\nseq-write,1048576,8,1,",
                           "\nrand-read,4096,32,1,",  "\nrand-write,4096,32,1,",
                           "\nrand-read,4096,1,1,",   "\nrand-write,4096,1,1,"};
    const char *at = out;
    for (size_t i = 0; i < 6; i++) {
        const char *p = strstr(at, order[i]);
        assert_non_null(p);
        at = p + 1;
    }
    const char *row = strstr(out, order[4]) + strlen(order[4]);
    assert_true(bl_test_close(strtod(row, NULL), bytes / 1e6, 1e-9));
    free(out);
    /* Its latency bins and bandwidth series make every chart kind. */
    static const char *const kinds[] = {"bar", "percentiles", "histogram", "timeline"};
    for (size_t k = 0; k < 4; k++) {
        snprintf(args, sizeof args, "chart --db %s/s.db --kind %s -o %s/%s.png", dir, kinds[k], dir,
                 kinds[k]);
        assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    }
    snprintf(args, sizeof args, "xlsx --db %s/s.db -o %s/r.xlsx", dir, dir);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_fixture),
        cmocka_unit_test(test_bonnie_corpus),
        cmocka_unit_test(test_crystaldiskmark_corpus),
        cmocka_unit_test(test_runner_records),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    bl_chart_cleanup();
    return rc;
}
