/* The outputs made from the store's fold (bl_store_fold: one row per record shape) and its
 * lean walk (bl_store_each_lean: shapes with run, line, when and fold figures) are byte for
 * byte those of the record walk (BENCHLOG_NO_FOLD=1), over a store of every fixture and,
 * when BENCHLOG_CORPUS is set, the corpus, under filters, --by, --repeats and --metric:
 * `chart --kind bar|iops-lat` (every file, SVG, PNG, pages, and what it says), the curve
 * charts whose records the store prefilters, `report --html` (but its date), and `history`
 * and `check`, which read the lean walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <limits.h>

#include "../core/filter.h"
#include "../core/store.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    char *dir;
    char db[512];
    char bin[PATH_MAX]; /* absolute: the charts are drawn from within dir */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    f->dir = bl_test_tmpdir();
    snprintf(f->db, sizeof f->db, "%s/all.db", f->dir);
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    if (!realpath(bin, f->bin))
        snprintf(f->bin, sizeof f->bin, "%s", bin);
    bl_test_import_all(f->bin, f->db);
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->dir);
    free(f);
    return 0;
}

typedef struct folded {
    size_t groups, rows;
} folded;

static int count_group(void *ctx, bl_fold_group *g)
{
    folded *c = ctx;
    c->groups++;
    c->rows += bl_record_label(g->shape, "row") != NULL;
    return 0;
}

/* Whether the store answers term (NULL: none) by its fold, with no "row" label: then chart
 * takes the grouped path (for the mean and best, --by of what a shape keeps). */
static int folds(const fixture *f, const char *term)
{
    char err[512] = "";
    bl_filter flt = {0};
    if (term)
        assert_int_equal(bl_filter_add(&flt, term, err, sizeof err), 0);
    bl_store *s = bl_store_open_existing(f->db, err, sizeof err);
    assert_non_null(s);
    folded c = {0};
    int rc = bl_store_fold(s, &flt, count_group, &c, err, sizeof err);
    bl_store_close(s);
    bl_filter_free(&flt);
    return rc == 0 && c.rows == 0 && c.groups > 0;
}

/* Runs `chart ARGS -o DIR/out/OUT` grouped or walking and moves DIR/out to DIR/SUB (the
 * words name the same paths both ways); returns what it said (stdout, stderr, exit status). */
static char *chart_into(const fixture *f, const char *sub, int walk, const char *args,
                        const char *out)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "cd %s && rm -rf %s out && mkdir out && %s %s chart %s -o out/%s --db %s 2>&1; "
             "echo \"exit $?\"; mv out %s",
             f->dir, sub, walk ? "BENCHLOG_NO_FOLD=1" : "", f->bin, args, out, f->db, sub);
    return bl_test_sh(cmd, NULL);
}

/* The chart both ways: the same words and the same files, byte for byte; returns the
 * number of files written. */
static int same_chart(const fixture *f, const char *args, const char *out)
{
    char *a = chart_into(f, "fold", 0, args, out);
    char *b = chart_into(f, "walk", 1, args, out);
    assert_string_equal(a, b);
    free(a);
    free(b);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "diff -r %s/fold %s/walk >/dev/null && echo same", f->dir, f->dir);
    char *d = bl_test_sh(cmd, NULL);
    assert_string_equal(d, "same\n");
    free(d);
    snprintf(cmd, sizeof cmd, "ls %s/fold | wc -l", f->dir);
    char *n = bl_test_sh(cmd, NULL);
    int files = atoi(n);
    free(n);
    return files;
}

/* Text of DIR/fold/name. */
static char *fold_file(const fixture *f, const char *name)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cat %s/fold/%s", f->dir, name);
    return bl_test_sh(cmd, NULL);
}

static void test_bar_filters(void **state)
{
    fixture *f = *state;
    const char *terms[] = {"tool=bonnie++", "tool=iozone", "tool=KDiskMark", "tool=sysbench",
                           "tool=hdparm"};
    const char *opts[] = {"--by fs,host --metric iops --metric p99", "--log --repeats best"};
    size_t grouped = 0;
    for (size_t i = 0; i < sizeof terms / sizeof *terms; i++) {
        if (folds(f, terms[i]))
            grouped++;
        for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
            char args[512];
            snprintf(args, sizeof args, "%s %s", opts[k], terms[i]);
            same_chart(f, args, "c.svg");
        }
    }
    assert_true(grouped >= 3);
}

/* Gaia's bonnie++ runs, grouped: the title names the tool and host the records share, and
 * the bars carry their figures (rewrite 11873 and 11502 K/sec: 11.968 MB/s the mean, "11.97"). */
static void test_bar_figures(void **state)
{
    fixture *f = *state;
    const char *term = "source~bonnie-1.03_handtyped_x2_fast.txt";
    assert_true(folds(f, term));
    char args[256];
    snprintf(args, sizeof args, "--kind bar %s", term);
    assert_int_equal(same_chart(f, args, "g.svg"), 1);
    char *svg = fold_file(f, "g.svg");
    assert_non_null(strstr(svg, "Throughput by test — bonnie++ · Gaia"));
    assert_non_null(strstr(svg, ">11.97<"));
    assert_non_null(strstr(svg, "20 records"));
    free(svg);
}

static void test_whole_store_pages_png(void **state)
{
    fixture *f = *state;
    /* every set-up, over pages; the PNG pixels and the PDF alike */
    int pages = same_chart(f, "--kind bar", "all.svg");
    assert_true(pages >= 2);
    same_chart(f, "--kind bar --width 800 --height 600 tool=bonnie++", "b.png");
    same_chart(f, "--kind iops-lat", "il.svg");
    same_chart(f, "--kind iops-lat tool=fio", "il.png");
    same_chart(f, "--kind bar --by tool", "t.svg");
    same_chart(f, "--kind bar --by run tool=bonnie++", "r.svg"); /* walks */
    same_chart(f, "--kind bar --repeats all tool=dd", "a.svg");  /* walks */
    same_chart(f, "--kind bar --title Mine tool=bonnie++", "m.svg");
    same_chart(f, "--kind bar tool=none-such", "none.svg"); /* an error both ways */
}

/* Timeline and histogram: records whose JSON lacks "series" / "bins" are skipped unread;
 * the charts are those of the walk over every record. */
static void test_curves_prefiltered(void **state)
{
    fixture *f = *state;
    const char *args[] = {
        "--kind timeline",
        "--kind timeline --series lat tool=fio",
        "--kind histogram",
        "--kind histogram --by host tool=fio",
        "--kind timeline tool=bonnie++", /* none has curves: the error of the walk */
        "--kind histogram tool=none-such",
    };
    int drawn = 0;
    for (size_t i = 0; i < sizeof args / sizeof *args; i++)
        drawn += same_chart(f, args[i], "k.svg") > 0;
    assert_true(drawn >= 4);
}

/* report --html both ways, the date of the page aside; returns the grouped page. */
static char *same_page(const fixture *f, const char *args)
{
    char cmd[8192];
    char *page[2];
    for (int walk = 0; walk < 2; walk++) {
        snprintf(cmd, sizeof cmd,
                 "%s %s report --html %s --db %s 2>&1 | sed 's/<p class=\"meta\">[0-9-]*/D/'; "
                 "echo \"exit $?\"",
                 walk ? "BENCHLOG_NO_FOLD=1" : "", f->bin, args, f->db);
        page[walk] = bl_test_sh(cmd, NULL);
    }
    assert_string_equal(page[0], page[1]);
    free(page[1]);
    return page[0];
}

static void test_html_pages(void **state)
{
    fixture *f = *state;
    const char *args[] = {
        "",
        "tool=fio",
        "--by host tool=fio",
        "--no-chart tool=iozone",
        "--by fs,host --metric iops --metric p99 tool=fio",
        "--repeats median tool=bonnie++", /* walks */
        "--title Mine tool=diskspd",
        "tool=none-such",
        "--no-chart host~a source!=none", /* terms the lean walk decides on shapes */
    };
    for (size_t i = 0; i < sizeof args / sizeof *args; i++)
        free(same_page(f, args[i]));
    /* Gaia's bonnie++ runs, grouped: rewrite 11.968 MB/s the mean, and the Sources rows */
    const char *term = "source~bonnie-1.03_handtyped_x2_fast.txt";
    assert_true(folds(f, term));
    char *page = same_page(f, term);
    assert_non_null(strstr(page, "11.97"));
    assert_non_null(strstr(page, "Sources: 2 runs"));
    /* run 1 from line 6 and run 2 from line 7 of the file, 10 records each */
    assert_non_null(strstr(page, "<td>1</td><td>6</td><td>bonnie++</td><td>10</td>"
                                 "<td>host=Gaia; size=1G:32k</td>"));
    assert_non_null(strstr(page, "<td>2</td><td>7</td><td>bonnie++</td><td>10</td>"));
    free(page);
}

/* `history ARGS` (or check) grouped or walking: what it printed and its exit status. */
static char *history_of(const fixture *f, int walk, const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s %s --db %s 2>&1; echo \"exit $?\"",
             walk ? "BENCHLOG_NO_FOLD=1" : "", f->bin, args, f->db);
    return bl_test_sh(cmd, NULL);
}

static void test_history_lean(void **state)
{
    fixture *f = *state;
    const char *args[] = {
        "history",
        "history --json tool=fio",
        "history --csv --by host",
        "history --metric p99 --metric bw tool=fio",
        "history host~a --min-segment 2",
        "history tool=none-such",
        "check",
        "check --last 2 --json",
    };
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        char *a = history_of(f, 0, args[i]), *b = history_of(f, 1, args[i]);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    /* Gaia's two bonnie++ runs from one file: one point, rewrite's mean 11.968 MB/s */
    char *h = history_of(f, 0, "history source~bonnie-1.03_handtyped_x2_fast.txt");
    const char *rw = strstr(h, "— seq-rewrite 32KiB (bw, MB/s");
    assert_non_null(rw);
    assert_non_null(strstr(rw, "11.97 ±"));
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar_filters),
        cmocka_unit_test(test_bar_figures),
        cmocka_unit_test(test_whole_store_pages_png),
        cmocka_unit_test(test_curves_prefiltered),
        cmocka_unit_test(test_html_pages),
        cmocka_unit_test(test_history_lean),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
