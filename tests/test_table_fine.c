/* The table a report is made of, built in one walk of the store through fine groups
 * (compare/fine.h), is bit for bit the table the records make added one by one
 * (bl_table_build over the same records loaded whole, lean as the walk): every row, column,
 * name, set-up information and cell figure, over a store of every fixture and, when
 * BENCHLOG_CORPUS is set, the corpus. And its cells hold the figures the tools printed:
 * bonnie++ 1.03's two runs on Gaia (fixtures/bonnie/bonnie-1.03_handtyped_x2_fast.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/fine.h"
#include "../compare/load.h"
#include "../compare/table.h"
#include "../core/store.h"
#include "support/support.h"
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct fixture {
    char *dir;
    char db[512];
    int with_corpus; /* the corpus was present and imported */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    f->dir = bl_test_tmpdir();
    snprintf(f->db, sizeof f->db, "%s/all.db", f->dir);
    const char *bin = getenv("BENCHLOG_BIN");
    /* BENCHLOG_CORPUS names the corpus even where it is absent (the Makefile sets it). */
    f->with_corpus = bl_test_import_all(bin ? bin : "build/benchlog", f->db);
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->dir);
    free(f);
    return 0;
}

static void same_str(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

/* The same bits, or both absent. */
static void same_bits(double a, double b)
{
    if (isnan(a) || isnan(b)) {
        assert_int_equal(isnan(a), isnan(b));
        return;
    }
    assert_memory_equal(&a, &b, sizeof a);
}

static void same_cell(const bl_cell *a, const bl_cell *b)
{
    assert_int_equal(a->n_recs, b->n_recs);
    assert_int_equal(a->n_notes, b->n_notes);
    assert_int_equal(a->n_setups, b->n_setups);
    same_str(a->unit, b->unit);
    same_str(a->note, b->note);
    same_bits(a->flag, b->flag);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(a->lat_from[k], b->lat_from[k]);
        assert_int_equal(a->pct_from[k], b->pct_from[k]);
    }
    for (int m = 0; m < BL_M_COUNT; m++) {
        const bl_stat *x = &a->m[m], *y = &b->m[m];
        assert_int_equal(x->n, y->n);
        same_bits(x->fig, y->fig);
        same_bits(x->mean, y->mean);
        same_bits(x->median, y->median);
        same_bits(x->min, y->min);
        same_bits(x->max, y->max);
        same_bits(x->sd, y->sd);
        same_bits(x->ci, y->ci);
    }
}

static void same_col(const bl_col *a, const bl_col *b)
{
    assert_string_equal(a->key, b->key);
    assert_string_equal(a->title, b->title);
    assert_string_equal(a->label, b->label);
    same_str(a->tool, b->tool);
    same_str(a->source, b->source);
    assert_int_equal(a->unlabelled, b->unlabelled);
    assert_int_equal(a->title_as_label, b->title_as_label);
    for (int k = 0; k < BL_SETUP_INFO_N; k++) {
        same_str(a->info[k], b->info[k]);
        /* exact up to 4; past that only "more than 4" is kept (table.h) */
        if (a->n_info[k] <= 4 || b->n_info[k] <= 4)
            assert_int_equal(a->n_info[k], b->n_info[k]);
    }
}

/* The table both ways, compared whole; returns the one-walk table. */
static bl_table *compare(const fixture *f, bl_table_opts o, int nterms, char **terms)
{
    char err[512] = "";
    bl_records rs;
    bl_records_init(&rs);
    assert_int_equal(bl_report_load(f->db, nterms, terms, &rs, err, sizeof err), 0);
    o.lean = 1;
    bl_table *a = bl_table_build(&rs, &o, err, sizeof err);
    bl_records_free(&rs);
    assert_non_null(a);
    bl_table *b = NULL;
    assert_int_equal(bl_report_table(f->db, nterms, terms, &o, NULL, NULL, &b, err, sizeof err), 0);
    assert_int_equal(a->nrows, b->nrows);
    assert_int_equal(a->ncols, b->ncols);
    assert_int_equal(a->n_records, b->n_records);
    assert_int_equal(a->n_left_out, b->n_left_out);
    assert_int_equal(a->n_flagged, b->n_flagged);
    assert_int_equal(a->n_unlabelled, b->n_unlabelled);
    assert_int_equal(a->n_split, b->n_split);
    assert_int_equal(a->n_pooled, b->n_pooled);
    assert_int_equal(a->baseline, b->baseline);
    assert_int_equal(a->any_repeat, b->any_repeat);
    assert_int_equal(a->any_small, b->any_small);
    assert_int_equal(a->any_lat, b->any_lat);
    assert_int_equal(a->any_cpu, b->any_cpu);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(a->lat_from[k], b->lat_from[k]);
        assert_int_equal(a->pct_from[k], b->pct_from[k]);
    }
    for (size_t i = 0; i < a->nrows; i++) {
        assert_string_equal(a->rows[i].title, b->rows[i].title);
        assert_int_equal(a->rows[i].small_block, b->rows[i].small_block);
        assert_int_equal(a->rows[i].has_bw, b->rows[i].has_bw);
        same_str(a->rows[i].unit, b->rows[i].unit);
    }
    for (size_t j = 0; j < a->ncols; j++)
        same_col(&a->cols[j], &b->cols[j]);
    for (size_t i = 0; i < a->nrows; i++)
        for (size_t j = 0; j < a->ncols; j++)
            same_cell(bl_table_cell(a, i, j), bl_table_cell(b, i, j));
    bl_table_free(a);
    return b;
}

static long col_named(const bl_table *t, const char *title)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (strcmp(t->cols[j].title, title) == 0)
            return (long)j;
    return -1;
}

/* The row of test holding records of column j (bonnie++ 1.03's rows name the chunk size). */
static long row_named(const bl_table *t, const char *test, long j)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].test, test) == 0 && bl_table_cell(t, i, (size_t)j)->n_recs)
            return (long)i;
    return -1;
}

/* Gaia's two bonnie++ 1.03 runs: rewrite 11873 and 11502 K/sec (10^6 bytes/s: 12.157952 and
 * 11.778048 MB/s), %CP 15 and 14, seeks 151.2 and 149.7/s, stat "+++++" twice. */
static void gaia(const bl_table *t, bl_repeats rep)
{
    long j = col_named(t, "bonnie-1.03_handtyped_x2_fast.txt · Gaia");
    assert_true(j >= 0);
    long rw = row_named(t, "seq-rewrite", j), seeks = row_named(t, "rand-seeks", j);
    long stat = row_named(t, "seq-stat", j);
    assert_true(rw >= 0 && seeks >= 0 && stat >= 0);
    const bl_cell *c = bl_table_cell(t, (size_t)rw, (size_t)j);
    assert_int_equal(c->n_recs, 2);
    assert_int_equal(t->rows[rw].bs, 32768); /* "1G:32k" */
    assert_int_equal(c->m[BL_M_BW].n, 2);
    double want = rep == BL_REP_BEST ? 12.157952 : 11.968;
    assert_double_equal(c->m[BL_M_BW].fig, want, 1e-9);
    assert_double_equal(c->m[BL_M_BW].min, 11.778048, 1e-9);
    assert_double_equal(c->m[BL_M_BW].max, 12.157952, 1e-9);
    assert_double_equal(c->m[BL_M_BW].sd, 0.26863269, 1e-7);
    assert_double_equal(c->m[BL_M_CPU].mean, 14.5, 1e-12);
    const bl_cell *s = bl_table_cell(t, (size_t)seeks, (size_t)j);
    assert_double_equal(s->m[BL_M_VALUE].mean, 150.45, 1e-9);
    assert_string_equal(s->unit, "ops/s");
    const bl_cell *n = bl_table_cell(t, (size_t)stat, (size_t)j);
    assert_int_equal(n->n_notes, 2);
    assert_string_equal(n->note, "+++++: too fast to measure");
    assert_non_null(strstr(t->cols[j].info[2], "Gaia"));
}

static void test_default_grouping(void **state)
{
    fixture *f = *state;
    bl_repeats reps[] = {BL_REP_MEAN, BL_REP_MEDIAN};
    for (size_t i = 0; i < 2; i++) {
        bl_table *t = compare(f, (bl_table_opts){.repeats = reps[i]}, 0, NULL);
        gaia(t, reps[i]);
        assert_true(t->n_records > (f->with_corpus ? 1000u : 100u));
        bl_table_free(t);
    }
}

static void test_by_and_pool(void **state)
{
    fixture *f = *state;
    bl_table_free(compare(f, (bl_table_opts){.by = "run"}, 0, NULL));
    bl_table_free(compare(f, (bl_table_opts){.by = "fs,host"}, 0, NULL));
    bl_table *t = compare(f, (bl_table_opts){.by = "host", .pool = 1}, 0, NULL);
    assert_true(t->n_pooled > 0);
    bl_table_free(t);
}

static void test_filtered_with_baseline(void **state)
{
    fixture *f = *state;
    char t1[] = "tool=bonnie++";
    char *terms[] = {t1};
    bl_table_opts o = {.baseline = "bonnie-1.03_handtyped_x2_fast.txt · Gaia",
                       .repeats = BL_REP_BEST};
    bl_table *t = compare(f, o, 1, terms);
    assert_true(t->baseline >= 0);
    gaia(t, BL_REP_BEST);
    bl_table_free(t);
}

/* A column's first values of a set-up key come from groups whose records interleave: what
 * is kept is the BL_FINE_INFO values first seen, whatever order the groups bring them in. */
static void test_info_first_seen(void **state)
{
    (void)state;
    bl_fine_info i = {0};
    const char *v[] = {"b", "a", "c", "d", "e", "f", "b"};
    size_t at[] = {5, 9, 1, 3, 7, 2, 4};
    for (size_t k = 0; k < 7; k++)
        bl_fine_info_add(&i, v[k], at[k]);
    assert_int_equal(i.n, 5);
    const char *want[] = {"c", "f", "d", "b", "e"}; /* at 1, 2, 3, 4, 7: "a" (9) is out */
    size_t want_at[] = {1, 2, 3, 4, 7};
    for (size_t w = 0; w < 5; w++) {
        size_t k = 0;
        while (k < i.n && strcmp(i.v[k], want[w]) != 0)
            k++;
        assert_true(k < i.n);
        assert_int_equal(i.at[k], want_at[w]);
    }
    bl_fine_info_add(&i, "a", 0); /* seen first after all: "e" (7) goes */
    for (size_t k = 0; k < i.n; k++)
        assert_string_not_equal(i.v[k], "e");
    bl_fine_info_free(&i);
}

typedef struct folded {
    size_t groups, records, rows;
} folded;

static int count_group(void *ctx, bl_fold_group *g)
{
    folded *c = ctx;
    c->groups++;
    c->records += g->n_recs;
    c->rows += bl_record_label(g->shape, "row") != NULL;
    return 0;
}

/* What the store's GROUP BY gives for one filter term (NULL: none): 0, or 1 when it cannot. */
static int fold_of(const char *db, const char *term, folded *c)
{
    char err[512] = "";
    bl_filter flt = {0};
    if (term)
        assert_int_equal(bl_filter_add(&flt, term, err, sizeof err), 0);
    bl_store *s = bl_store_open_existing(db, err, sizeof err);
    assert_non_null(s);
    *c = (folded){0};
    int rc = bl_store_fold(s, &flt, count_group, c, err, sizeof err);
    assert_true(rc >= 0);
    bl_store_close(s);
    bl_filter_free(&flt);
    return rc;
}

/* The table from the store's grouped query (bl_store_fold: one row per record shape, sums
 * exact in SQL) is bit for bit the records' table, under every option it serves (mean, best,
 * --by of labels, --pool, a baseline), for stores whose records name no set-up by a table
 * row (those walk). */
static void folded_tables(const fixture *f)
{
    const char *tools[] = {"tool=bonnie++", "tool=iozone",  "tool=dd",     "tool=KDiskMark",
                           "tool=sysbench", "tool=diskspd", "tool=hdparm", "tool=fio-cdm"};
    size_t used = 0;
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
        folded c;
        if (fold_of(f->db, tools[i], &c) != 0 || c.rows)
            continue;
        used++;
        assert_true(c.groups > 0 && c.groups <= c.records);
        char term[64];
        snprintf(term, sizeof term, "%s", tools[i]);
        char *terms[] = {term};
        bl_table_opts opts[] = {
            {.repeats = BL_REP_MEAN},
            {.repeats = BL_REP_BEST},
            {.by = "host"},
            {.by = "fs,host", .repeats = BL_REP_BEST},
            {.by = "host", .pool = 1},
            {.by = "tool_version"},
        };
        for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
            bl_table *t = compare(f, opts[k], 1, terms);
            assert_int_equal(t->n_records, c.records);
            bl_table_free(t);
        }
    }
    assert_true(used >= 4);
    /* bonnie++: Gaia's figures, and fewer groups than records (repeats summed in SQL) */
    folded c;
    assert_int_equal(fold_of(f->db, "tool=bonnie++", &c), 0);
    assert_int_equal(c.rows, 0);
    assert_true(c.groups < c.records);
    char t1[] = "tool=bonnie++";
    char *terms[] = {t1};
    bl_table_opts o = {.baseline = "bonnie-1.03_handtyped_x2_fast.txt · Gaia",
                       .repeats = BL_REP_BEST};
    bl_table *t = compare(f, o, 1, terms);
    gaia(t, BL_REP_BEST);
    bl_table_free(t);
    t = compare(f, (bl_table_opts){.repeats = BL_REP_MEAN}, 1, terms);
    gaia(t, BL_REP_MEAN);
    bl_table_free(t);
}

static void test_folded_in_sql(void **state)
{
    folded_tables(*state);
}

/* PRAGMA user_version of the store at path. */
static int user_version(const char *path)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    int v = -1;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

/* Makes db4, a copy of db at schema 4 (no fold columns). Through the library, not the
 * sqlite3 shell, which a fresh machine need not have. */
static void make_v4(const char *db, const char *db4)
{
    assert_int_equal(bl_test_store_v4(db, db4), 0);
    assert_int_equal(user_version(db4), 4);
}

/* A store of schema 4 (no fold columns) is migrated in place; its fold then gives the same
 * tables as its records, and the same groups as the store made new. */
static void test_migrated_store(void **state)
{
    fixture *f = *state;
    fixture old = {.dir = f->dir};
    snprintf(old.db, sizeof old.db, "%s/v4.db", f->dir);
    make_v4(f->db, old.db);
    folded a, b;
    assert_int_equal(fold_of(old.db, "tool=iozone", &a), 0); /* opens, migrates */
    assert_int_equal(fold_of(f->db, "tool=iozone", &b), 0);
    assert_int_equal(a.groups, b.groups);
    assert_int_equal(a.records, b.records);
    assert_true(a.records > 0);
    folded_tables(&old);
}

/* A reader who may not write a store of schema 4 or 5 reads it as it is (4: report walks its
 * records; 5: history's lean walk reads each record's JSON for its time): the same outputs
 * as the migrated store's, and the file left at its schema. As root, the reader is nobody
 * (runuser) on a 0644 file in a 0755 folder. */
static void read_only_as_is(const fixture *f, int version, const char *const *args, size_t n)
{
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    if (geteuid() != 0)
        bl_skip_because("needs root, to read as nobody");
    char cmd[4096], old[600];
    snprintf(cmd, sizeof cmd, "runuser -u nobody -- test -x %s 2>/dev/null", bin);
    if (system(cmd) != 0)
        bl_skip_because("runuser cannot run the binary as nobody (no runuser, or the build "
                        "folder is not reachable by nobody)");
    snprintf(old, sizeof old, "%s/ro%d.db", f->dir, version);
    if (version == 4)
        make_v4(f->db, old);
    else
        assert_int_equal(bl_test_store_v5(f->db, old), 0);
    assert_int_equal(chmod(f->dir, 0755), 0);
    assert_int_equal(chmod(old, 0644), 0);
    for (size_t i = 0; i < n; i++) {
        int st = -1;
        snprintf(cmd, sizeof cmd, "runuser -u nobody -- %s %s --db %s 2>&1", bin, args[i], old);
        char *theirs = bl_test_sh(cmd, &st);
        assert_int_equal(st, 0);
        snprintf(cmd, sizeof cmd, "%s %s --db %s 2>&1", bin, args[i], f->db);
        char *ours = bl_test_sh(cmd, NULL);
        assert_true(strlen(ours) > 200);
        assert_string_equal(theirs, ours);
        free(theirs);
        free(ours);
    }
    assert_int_equal(user_version(old), version);
    assert_int_equal(chmod(f->dir, 0700), 0);
}

static void test_read_only_v4(void **state)
{
    const char *args[] = {"report", "report --by fs,host --csv", "list"};
    read_only_as_is(*state, 4, args, sizeof args / sizeof *args);
}

static void test_read_only_v5(void **state)
{
    const char *args[] = {"history", "history --json tool=fio", "history --csv --by host"};
    read_only_as_is(*state, 5, args, sizeof args / sizeof *args);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_grouping),       cmocka_unit_test(test_by_and_pool),
        cmocka_unit_test(test_filtered_with_baseline), cmocka_unit_test(test_info_first_seen),
        cmocka_unit_test(test_folded_in_sql),          cmocka_unit_test(test_migrated_store),
        cmocka_unit_test(test_read_only_v4),           cmocka_unit_test(test_read_only_v5),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
