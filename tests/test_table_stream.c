/* The comparison table built as the store is walked (report, chart and xlsx: compare/load.h)
 * is the table built from the same records loaded whole: same rows, columns and names, and in
 * every cell the same counts and figures (the stdev from running sums within 1e-12), over the
 * blog posts of the corpus (skipped without BENCHLOG_CORPUS), whose table rows name set-ups
 * in some runs (003) and tests in others (000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../compare/load.h"
#include "../compare/table.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const posts[] = {
    "blog/000_bed2622bff3958ce.txt", "blog/001_8562a4b6946fb1ec.txt",
    "blog/003_c0a3f5a42cdf17b6.txt", "blog/004_8160137f383e9f6d.txt"};

typedef struct fixture {
    char *dir;
    char db[512];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    f->dir = bl_test_tmpdir();
    snprintf(f->db, sizeof f->db, "%s/blog.db", f->dir);
    for (size_t i = 0; i < sizeof posts / sizeof posts[0]; i++) {
        char *path = bl_test_corpus(posts[i]);
        if (!path)
            return 0; /* each test skips */
        char args[1200];
        snprintf(args, sizeof args, "import --db %s %s", f->db, path);
        char *out = NULL, *err = NULL;
        int rc = bl_test_benchlog(args, &out, &err);
        free(out);
        free(err);
        free(path);
        if (rc > 1) /* 000 holds one results row that can be read two ways: refused */
            return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    int rc = system(cmd);
    free(f->dir);
    free(f);
    return rc;
}

static void same_str(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

static void same_fig(double a, double b, double rel)
{
    if (!bl_present(a) || !bl_present(b)) {
        assert_int_equal(bl_present(a), bl_present(b));
        return;
    }
    assert_true(fabs(a - b) <= rel * fabs(a));
}

static void same_cell(const bl_cell *a, const bl_cell *b)
{
    assert_int_equal(a->n_recs, b->n_recs);
    assert_int_equal(a->n_notes, b->n_notes);
    same_str(a->unit, b->unit);
    same_str(a->note, b->note);
    same_fig(a->flag, b->flag, 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(a->lat_from[k], b->lat_from[k]);
        assert_int_equal(a->pct_from[k], b->pct_from[k]);
    }
    for (int m = 0; m < BL_M_COUNT; m++) {
        const bl_stat *x = &a->m[m], *y = &b->m[m];
        assert_int_equal(x->n, y->n);
        same_fig(x->mean, y->mean, 0);
        same_fig(x->min, y->min, 0);
        same_fig(x->max, y->max, 0);
        same_fig(x->fig, y->fig, 1e-12); /* exact but for a stdev-free mean: see below */
        same_fig(x->sd, y->sd, 1e-12);
        same_fig(x->ci, y->ci, 1e-12);
    }
}

/* The table both ways; returns how many cells hold records. */
static size_t compare(const fixture *f, const char *by, bl_repeats rep, int nterms, char **terms)
{
    bl_table_opts o = {.by = by, .repeats = rep};
    char err[512] = "";
    bl_records rs;
    bl_records_init(&rs);
    assert_int_equal(bl_report_load(f->db, nterms, terms, &rs, err, sizeof err), 0);
    bl_table *a = bl_table_build(&rs, &o, err, sizeof err);
    bl_table *b = NULL;
    assert_int_equal(bl_report_table(f->db, nterms, terms, &o, NULL, NULL, &b, err, sizeof err), 0);
    assert_non_null(a);
    assert_int_equal(a->nrows, b->nrows);
    assert_int_equal(a->ncols, b->ncols);
    assert_int_equal(a->n_records, b->n_records);
    assert_int_equal(a->n_left_out, b->n_left_out);
    assert_int_equal(a->n_flagged, b->n_flagged);
    assert_int_equal(a->n_unlabelled, b->n_unlabelled);
    assert_int_equal(a->any_repeat, b->any_repeat);
    for (size_t i = 0; i < a->nrows; i++) {
        assert_string_equal(a->rows[i].title, b->rows[i].title);
        assert_int_equal(a->rows[i].small_block, b->rows[i].small_block);
        same_str(a->rows[i].unit, b->rows[i].unit);
    }
    for (size_t j = 0; j < a->ncols; j++) {
        assert_string_equal(a->cols[j].key, b->cols[j].key);
        assert_string_equal(a->cols[j].title, b->cols[j].title);
        assert_string_equal(a->cols[j].label, b->cols[j].label);
        same_str(a->cols[j].tool, b->cols[j].tool);
        assert_int_equal(a->cols[j].unlabelled, b->cols[j].unlabelled);
    }
    size_t filled = 0;
    for (size_t i = 0; i < a->nrows; i++)
        for (size_t j = 0; j < a->ncols; j++) {
            same_cell(bl_table_cell(a, i, j), bl_table_cell(b, i, j));
            filled += bl_table_cell(a, i, j)->n_recs > 0;
        }
    bl_table_free(a);
    bl_table_free(b);
    bl_records_free(&rs);
    return filled;
}

static fixture *ready(void **state)
{
    char *p = bl_test_corpus(posts[0]);
    if (!p)
        bl_skip_because("BENCHLOG_CORPUS is not set");
    free(p);
    return *state;
}

/* 003's ZFS settings are table rows naming set-ups (the same over a run), 000's rows name
 * tests: the stream must tell them apart as the whole does (34 set-ups). */
static void test_default_grouping(void **state)
{
    fixture *f = ready(state);
    assert_true(compare(f, NULL, BL_REP_MEAN, 0, NULL) >= 34);
    assert_true(compare(f, NULL, BL_REP_MEDIAN, 0, NULL) >= 34);
    assert_true(compare(f, NULL, BL_REP_BEST, 0, NULL) >= 34);
}

static void test_by_label_and_run(void **state)
{
    fixture *f = ready(state);
    assert_true(compare(f, "host", BL_REP_MEAN, 0, NULL) > 0);
    assert_true(compare(f, "run", BL_REP_ALL, 0, NULL) > 0);
    assert_true(compare(f, "row", BL_REP_MEAN, 0, NULL) > 0);
}

static void test_filtered(void **state)
{
    fixture *f = ready(state);
    char t1[] = "tool=CrystalDiskMark", t2[] = "test~rand";
    char *terms[] = {t1, t2};
    assert_true(compare(f, NULL, BL_REP_MEAN, 2, terms) > 0);
}

/* The walk refuses as the load does: nothing matching, a baseline naming no column. */
static void test_refusals(void **state)
{
    fixture *f = ready(state);
    char err[512] = "";
    bl_table *t = NULL;
    char none[] = "tool=nothing";
    char *terms[] = {none};
    bl_table_opts o = {0};
    assert_int_equal(bl_report_table(f->db, 1, terms, &o, NULL, NULL, &t, err, sizeof err), 1);
    assert_null(t);
    assert_non_null(strstr(err, "no stored record matches"));
    bl_table_opts b = {.baseline = "no such column"};
    assert_int_equal(bl_report_table(f->db, 0, NULL, &b, NULL, NULL, &t, err, sizeof err), 3);
    assert_null(t);
    assert_non_null(strstr(err, "is not a column"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_grouping),
        cmocka_unit_test(test_by_label_and_run),
        cmocka_unit_test(test_filtered),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
