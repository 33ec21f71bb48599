/* The comparison never averages runs that were run differently (QA finding 8): fio jobs of
 * one file on two disks, hdparm on three devices, dd to three targets, a typed table's
 * "seq read" beside "seq read*4" each get a column of their own, titled by the label that
 * tells them apart (compare refuses such a side); honest repeats (the same command, other dates)
 * stay one cell of repeats; and the table built as the store is walked is the table built from the
 * records held. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/load.h"
#include "../compare/table.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio 3.28, two jobs in two groups: an SSD at 352MiB/s, an HDD at 1200KiB/s (QA's f3.txt). */
static const char fio_two_disks[] =
    "ssd: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
    "ioengine=libaio, iodepth=32\n"
    "hdd: (g=1): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "
    "ioengine=libaio, iodepth=32\n"
    "fio-3.28\n"
    "Starting 2 processes\n"
    "\n"
    "ssd: (groupid=0, jobs=1): err= 0: pid=100: Tue Mar  3 12:00:00 2020\n"
    "  read: IOPS=90.0k, BW=352MiB/s (369MB/s)(20.6GiB/60001msec)\n"
    "    clat (usec): min=40, max=2500, avg=355.12, stdev=30.55\n"
    "     lat (usec): min=45, max=2510, avg=355.30, stdev=30.60\n"
    "  cpu          : usr=2.50%, sys=8.00%, ctx=900000, majf=0, minf=100\n"
    "hdd: (groupid=1, jobs=1): err= 0: pid=101: Tue Mar  3 12:01:00 2020\n"
    "  read: IOPS=300, BW=1200KiB/s (1229kB/s)(70.3MiB/60001msec)\n"
    "    clat (msec): min=1, max=900, avg=106.12, stdev=30.55\n"
    "     lat (msec): min=1, max=900, avg=106.13, stdev=30.60\n"
    "  cpu          : usr=0.10%, sys=0.20%, ctx=18000, majf=0, minf=10\n"
    "\n"
    "Run status group 0 (all jobs):\n"
    "   READ: bw=352MiB/s (369MB/s), 352MiB/s-352MiB/s (369MB/s-369MB/s), io=20.6GiB (22.1GB), "
    "run=60001-60001msec\n"
    "\n"
    "Run status group 1 (all jobs):\n"
    "   READ: bw=1200KiB/s (1229kB/s), 1200KiB/s-1200KiB/s (1229kB/s-1229kB/s), io=70.3MiB "
    "(73.7MB), run=60001-60001msec\n";

/* hdparm on sda (cached and buffered), nvme0n1 with --direct, sdb (QA's h1.txt). */
static const char hdparm_three[] =
    "# hdparm -tT /dev/sda\n\n/dev/sda:\n"
    " Timing cached reads:   16784 MB in  1.99 seconds = 8440.12 MB/sec\n"
    " Timing buffered disk reads: 1532 MB in  3.00 seconds = 510.47 MB/sec\n\n"
    "# hdparm -t --direct /dev/nvme0n1\n\n/dev/nvme0n1:\n"
    " Timing O_DIRECT disk reads: 4812 MB in  3.00 seconds = 1603.55 MB/sec\n\n"
    "# hdparm -t /dev/sdb\n\n/dev/sdb:\n"
    " Timing buffered disk reads: 1234 MB in  3.00 seconds = 411.33 MB/sec\n";

#define DD_OUT(secs, rate)                                                                         \
    "1024+0 records in\n1024+0 records out\n"                                                      \
    "1073741824 bytes (1.1 GB, 1.0 GiB) copied, " secs " s, " rate "\n"

/* GNU dd writing 1 GiB to three file systems, three ways (QA's d5.txt). */
static const char dd_three[] =
    "$ dd if=/dev/zero of=/mnt/ssd/test bs=1M count=1024 "
    "oflag=direct\n" DD_OUT("2.1", "511 MB/s") "$ dd if=/dev/zero of=/mnt/hdd/test bs=1M "
                                               "count=1024\n" DD_OUT(
                                                   "0.9", "1.2 GB/s") "$ dd "
                                                                      "if=/dev/zero "
                                                                      "of=/mnt/usb/test "
                                                                      "bs=1M count=1024 "
                                                                      "conv="
                                                                      "fdatasync"
                                                                      "\n" DD_OUT("35.8", "30.0 "
                                                                                          "MB/"
                                                                                          "s");

/* The same dd command three times: repeats. */
static const char dd_repeats[] =
    "$ dd if=/dev/zero of=/mnt/ssd/test bs=1M count=1024 oflag=direct\n" DD_OUT(
        "2.0", "537 MB/s") "$ dd if=/dev/zero of=/mnt/ssd/test bs=1M count=1024 "
                           "oflag=direct\n" DD_OUT(
                               "2.5", "429 MB/s") "$ dd if=/dev/zero of=/mnt/ssd/test "
                                                  "bs=1M count=1024 "
                                                  "oflag=direct\n" DD_OUT("4.0", "268 MB/s");

/* Two jobs of one file doing different tests: nothing mixes, one column. */
static const char dd_two_tests[] =
    "$ dd if=/dev/zero of=/mnt/ssd/test bs=1M count=1024 oflag=direct\n" DD_OUT(
        "2.0", "537 MB/s") "$ dd if=/mnt/ssd/test of=/dev/null bs=1M count=1024 "
                           "iflag=direct\n" DD_OUT("1.0", "1.1 GB/s");

typedef struct store {
    char *dir;
    char db[600];
} store;

static void put(const store *s, const char *name, const char *text)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void import(const store *s, const char *path)
{
    char *out = NULL, *err = NULL;
    int rc = bl_test_benchlogf(&out, &err, "import --db %s %s", s->db, path);
    if (rc != 0)
        fprintf(stderr, "import %s: %s", path, err ? err : "");
    assert_int_equal(rc, 0);
    free(out);
    free(err);
}

/* A store of the named inline files; free with done(). */
static store *made(const char *const *names, const char *const *texts, size_t n)
{
    store *s = calloc(1, sizeof *s);
    s->dir = bl_test_tmpdir();
    snprintf(s->db, sizeof s->db, "%s/t.db", s->dir);
    for (size_t i = 0; i < n; i++) {
        put(s, names[i], texts[i]);
        char path[700];
        snprintf(path, sizeof path, "%s/%s", s->dir, names[i]);
        import(s, path);
    }
    return s;
}

static void done(store *s)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
    assert_int_equal(system(cmd), 0);
    free(s->dir);
    free(s);
}

/* The table of the store walked (report's way), checked equal to the table of the records
 * loaded whole: columns, titles, and every cell's count and mean. */
static bl_table *table(const store *s, const char *by)
{
    bl_table_opts o = {.by = by};
    char err[512] = "";
    bl_records rs;
    bl_records_init(&rs);
    assert_int_equal(bl_report_load(s->db, 0, NULL, &rs, err, sizeof err), 0);
    bl_table *a = bl_table_build(&rs, &o, err, sizeof err);
    bl_table *b = NULL;
    assert_int_equal(bl_report_table(s->db, 0, NULL, &o, NULL, NULL, &b, err, sizeof err), 0);
    assert_non_null(a);
    assert_int_equal(a->ncols, b->ncols);
    assert_int_equal(a->nrows, b->nrows);
    assert_int_equal(a->n_split, b->n_split);
    for (size_t j = 0; j < a->ncols; j++) {
        assert_string_equal(a->cols[j].key, b->cols[j].key);
        assert_string_equal(a->cols[j].title, b->cols[j].title);
        assert_string_equal(a->cols[j].label, b->cols[j].label);
    }
    for (size_t i = 0; i < a->nrows; i++)
        for (size_t j = 0; j < a->ncols; j++) {
            const bl_stat *x = &bl_table_cell(a, i, j)->m[BL_M_BW];
            const bl_stat *y = &bl_table_cell(b, i, j)->m[BL_M_BW];
            assert_int_equal(bl_table_cell(a, i, j)->n_recs, bl_table_cell(b, i, j)->n_recs);
            assert_int_equal(x->n, y->n);
            if (x->n)
                assert_double_equal(x->fig, y->fig, 1e-9 * x->fig);
        }
    bl_table_free(a);
    bl_records_free(&rs);
    return b;
}

static size_t col(const bl_table *t, const char *title)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (strcmp(t->cols[j].title, title) == 0)
            return j;
    for (size_t j = 0; j < t->ncols; j++)
        fprintf(stderr, "column '%s'\n", t->cols[j].title);
    fail_msg("no column '%s'", title);
    return 0;
}

static size_t row(const bl_table *t, const char *title)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].title, title) == 0)
            return i;
    fail_msg("no row '%s'", title);
    return 0;
}

/* The cell's MB/s from exactly n records. */
static void mbs(const bl_table *t, const char *r, const char *c, size_t n, double want)
{
    const bl_cell *cell = bl_table_cell(t, row(t, r), col(t, c));
    assert_int_equal(cell->n_recs, n);
    assert_int_equal(cell->m[BL_M_BW].n, n);
    assert_double_equal(cell->m[BL_M_BW].fig, want, 1e-9 * want);
}

static size_t max_repeats(const bl_table *t)
{
    size_t most = 0;
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        if (t->cells[i].n_recs > most)
            most = t->cells[i].n_recs;
    return most;
}

/* numjobs clones (scope "job K/N", fixtures/fio/clones-3.33.out: four psync jobs of `x` that
 * ran at once) are never pooled as repeats under --by either: each its own column, its total
 * in another (they were one "x" column of n=4). */
static void test_clones_apart_under_by(void **state)
{
    (void)state;
    store *s = made(NULL, NULL, 0);
    char p[512];
    import(s, bl_test_fixture("fio/clones-3.33.out", p, sizeof p));
    bl_table *t = table(s, "job");
    assert_int_equal(t->ncols, 5);
    assert_int_equal(max_repeats(t), 1);
    assert_int_equal(t->n_split, 0); /* scopes, not set-ups run differently */
    const bl_cell *one = bl_table_cell(t, row(t, "rand-read 4KiB Q1T1"), col(t, "x · job 1/4"));
    assert_int_equal(one->n_recs, 1);
    const bl_cell *all = bl_table_cell(t, row(t, "rand-read 4KiB Q1T4"), col(t, "x · group total"));
    assert_int_equal(all->n_recs, 1);
    double sum = 0;
    for (int k = 1; k <= 4; k++) {
        char title[32];
        snprintf(title, sizeof title, "x · job %d/4", k);
        sum += bl_table_cell(t, row(t, "rand-read 4KiB Q1T1"), col(t, title))->m[BL_M_BW].fig;
    }
    /* the total's bw is io over the longest job's run time: at most the jobs' sum */
    assert_true(all->m[BL_M_BW].fig <= sum * 1.001 && all->m[BL_M_BW].fig > sum * 0.9);
    bl_table_free(t);
    done(s);
}

static void test_fio_jobs_on_two_disks(void **state)
{
    (void)state;
    const char *names[] = {"f3.txt"}, *texts[] = {fio_two_disks};
    store *s = made(names, texts, 1);
    bl_table *t = table(s, NULL);
    assert_int_equal(t->ncols, 2); /* was one: "185.2 ± 260.1 MB/s (n=2)" */
    mbs(t, "rand-read 4KiB Q32T1", "f3.txt · job=ssd", 1, 352.0 * 1048576 / 1e6);
    mbs(t, "rand-read 4KiB Q32T1", "f3.txt · job=hdd", 1, 1200.0 * 1024 / 1e6);
    assert_false(t->any_repeat);
    assert_int_equal(t->n_split, 2);
    bl_table_free(t);
    /* Grouped by run, the run of both jobs is split the same way. */
    t = table(s, "run");
    assert_int_equal(t->ncols, 2);
    mbs(t, "rand-read 4KiB Q32T1", "f3.txt #1 · job=ssd", 1, 352.0 * 1048576 / 1e6);
    mbs(t, "rand-read 4KiB Q32T1", "f3.txt #1 · job=hdd", 1, 1200.0 * 1024 / 1e6);
    bl_table_free(t);
    /* compare refuses a side whose runs of one test were run differently, naming them; one
     * job a side compares. */
    char *out = NULL, *err = NULL;
    assert_int_equal(bl_test_benchlogf(&out, &err, "compare --db %s source~f3 job=hdd", s->db), 1);
    assert_non_null(strstr(err, "run differently"));
    assert_non_null(strstr(err, "'source~f3 · job=ssd'"));
    assert_string_equal(out, "");
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, &err, "compare --db %s job=hdd job=ssd", s->db), 0);
    assert_non_null(strstr(out, "1.23 MB/s  369.1 MB/s"));
    free(out);
    free(err);
    /* The report says why a file is two columns. */
    assert_int_equal(bl_test_benchlogf(&out, &err, "report --db %s", s->db), 0);
    assert_non_null(strstr(out, "Split: 2 columns of set-ups whose runs of one test were run "
                                "differently"));
    assert_non_null(strstr(out, "f3.txt · job=ssd"));
    free(out);
    free(err);
    done(s);
}

static void test_hdparm_three_devices(void **state)
{
    (void)state;
    const char *names[] = {"h1.txt"}, *texts[] = {hdparm_three};
    store *s = made(names, texts, 1);
    bl_table *t = table(s, NULL);
    assert_int_equal(t->ncols, 3); /* was one: "882.7 MB/s (n=3)" */
    mbs(t, "seq-read Q1T1", "h1.txt · device=/dev/sda", 1, 510.47 * 1048576 / 1e6);
    mbs(t, "seq-read Q1T1", "h1.txt · device=/dev/nvme0n1", 1, 1603.55 * 1048576 / 1e6);
    mbs(t, "seq-read Q1T1", "h1.txt · device=/dev/sdb", 1, 411.33 * 1048576 / 1e6);
    /* sda's cached reads go with sda's disk reads. */
    mbs(t, "cached-read Q1T1", "h1.txt · device=/dev/sda", 1, 8440.12 * 1048576 / 1e6);
    assert_int_equal(max_repeats(t), 1);
    bl_table_free(t);
    done(s);
}

static void test_dd_three_targets(void **state)
{
    (void)state;
    const char *names[] = {"d5.txt"}, *texts[] = {dd_three};
    store *s = made(names, texts, 1);
    bl_table *t = table(s, NULL);
    assert_int_equal(t->ncols, 3); /* was one: "578.1 MB/s (n=3)" */
    mbs(t, "seq-write 1MiB Q1T1", "d5.txt · dd_of=/mnt/ssd/test", 1, 1073741824 / 2.1 / 1e6);
    mbs(t, "seq-write 1MiB Q1T1", "d5.txt · dd_of=/mnt/hdd/test", 1, 1073741824 / 0.9 / 1e6);
    mbs(t, "seq-write 1MiB Q1T1", "d5.txt · dd_of=/mnt/usb/test", 1, 1073741824 / 35.8 / 1e6);
    bl_table_free(t);
    done(s);
}

/* The same command run three times is three repeats; two commands doing different tests in
 * one file stay one column; the split of one file leaves the other files' columns alone. */
static void test_repeats_stay_repeats(void **state)
{
    (void)state;
    const char *names[] = {"rep.txt", "two.txt", "d5.txt"};
    const char *texts[] = {dd_repeats, dd_two_tests, dd_three};
    store *s = made(names, texts, 3);
    bl_table *t = table(s, NULL);
    assert_int_equal(t->ncols, 5);
    double b = 1073741824 / 1e6;
    mbs(t, "seq-write 1MiB Q1T1", "rep.txt", 3, (b / 2.0 + b / 2.5 + b / 4.0) / 3);
    mbs(t, "seq-write 1MiB Q1T1", "two.txt", 1, b / 2.0);
    mbs(t, "seq-read 1MiB Q1T1", "two.txt", 1, b / 1.0);
    mbs(t, "seq-write 1MiB Q1T1", "d5.txt · dd_of=/mnt/usb/test", 1, b / 35.8);
    assert_int_equal(t->n_split, 3); /* d5's alone */
    bl_table_free(t);
    done(s);
}

/* fixtures/speed-table: "seq read" and "seq read*4" are both seq-read T1 under one server:
 * apart by row; the rows that never share a test stay in the server's column. */
static void test_typed_table_rows(void **state)
{
    (void)state;
    store *s = calloc(1, sizeof *s);
    s->dir = bl_test_tmpdir();
    snprintf(s->db, sizeof s->db, "%s/t.db", s->dir);
    char buf[600];
    import(s, bl_test_fixture("speed-table/local-disks_tabs.txt", buf, sizeof buf));
    bl_table *t = table(s, NULL);
    assert_int_equal(t->ncols, 6);
    mbs(t, "seq-read T1", "srv1 (ext4, RAID 10) · row=seq read", 1, 412.7);
    mbs(t, "seq-read T1", "srv1 (ext4, RAID 10) · row=seq read*4", 1, 1020.5);
    mbs(t, "seq-read T1", "srv2 (XFS, RAID 6) · row=seq read*4", 1, 1398.2);
    mbs(t, "seq-write T1", "srv1 (ext4, RAID 10)", 1, 388.0);
    mbs(t, "seq-write T1", "srv2 (XFS, RAID 6)", 1, 301.4);
    assert_int_equal(max_repeats(t), 1);
    /* a set-up's split columns stand right after it, not around it */
    static const char *const order[] = {"srv1 (ext4, RAID 10)",
                                        "srv1 (ext4, RAID 10) · row=seq read",
                                        "srv1 (ext4, RAID 10) · row=seq read*4",
                                        "srv2 (XFS, RAID 6)",
                                        "srv2 (XFS, RAID 6) · row=seq read",
                                        "srv2 (XFS, RAID 6) · row=seq read*4"};
    for (size_t j = 0; j < 6; j++)
        assert_string_equal(t->cols[j].title, order[j]);
    bl_table_free(t);
    done(s);
}

/* fio's first run lays the file out and says its size, the repeats do not: a size known on
 * one side only is no difference (corpus: five runs of one randwrite command). */
static void test_size_known_once(void **state)
{
    (void)state;
    char *path = bl_test_corpus("fio-normal/fio-2.2.10_randwrite_8jobs_concat.txt");
    if (!path)
        skip();
    store *s = calloc(1, sizeof *s);
    s->dir = bl_test_tmpdir();
    snprintf(s->db, sizeof s->db, "%s/t.db", s->dir);
    import(s, path);
    free(path);
    bl_table *t = table(s, NULL);
    assert_int_equal(t->ncols, 1);
    const bl_cell *c = bl_table_cell(t, row(t, "rand-write 4KiB Q16T8"), 0);
    assert_int_equal(c->n_recs, 5);
    bl_table_free(t);
    done(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_jobs_on_two_disks), cmocka_unit_test(test_clones_apart_under_by),
        cmocka_unit_test(test_hdparm_three_devices),  cmocka_unit_test(test_dd_three_targets),
        cmocka_unit_test(test_repeats_stay_repeats),  cmocka_unit_test(test_typed_table_rows),
        cmocka_unit_test(test_size_known_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
