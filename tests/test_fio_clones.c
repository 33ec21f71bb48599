/* fio numjobs=N without group_reporting: N job blocks that ran at once are labelled scope
 * "job K/N" and get a total record (scope "group total") as group_reporting would give it.
 * Checked against the corpus (fio 2.0.15 and 3.26, 8 jobs: their "Run status group" lines)
 * and against a real fio 3.33 run (fixtures/fio/clones-3.33.out) and its own JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const bl_record *total_of(const bl_parse_out *o)
{
    const bl_record *t = NULL;
    for (size_t i = 0; i < o->recs.n; i++) {
        const char *s = bl_record_label(o->recs.v[i], "scope");
        if (s && strcmp(s, "group total") == 0) {
            assert_null(t); /* one total, not the status line's as well */
            t = o->recs.v[i];
        }
    }
    return t;
}

static void check_scopes(const bl_parse_out *o, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < o->recs.n; i++) {
        const bl_record *r = o->recs.v[i];
        char want[32];
        snprintf(want, sizeof want, "job %zu/%zu", k + 1, n);
        if (r->numjobs == 1) {
            assert_string_equal(bl_record_label(r, "scope"), want);
            k++;
        }
    }
    assert_int_equal(k, n);
}

/* fio 2.0.15: `WRITE: io=11828KB, aggrb=2678KB/s, ..., mint=4103msec, maxt=4416msec`. */
static void test_corpus_2015_eight_jobs(void **state)
{
    (void)state;
    char *p = bl_test_corpus("fio-normal/fio-2.0.15_8jobs_no_group_reporting.txt");
    if (!p)
        skip();
    bl_parse_out o;
    assert_int_equal(bl_test_parse(p, "fio", &o), 0);
    free(p);
    assert_int_equal(o.recs.n, 9);
    check_scopes(&o, 8);
    const bl_record *t = total_of(&o);
    assert_non_null(t);
    assert_int_equal(t->numjobs, 8);
    assert_string_equal(t->test, "rand-write");
    assert_int_equal(t->bs, 4096);
    assert_int_equal(t->io_bytes, 11828 * 1024);     /* the sum of the jobs' io= is fio's io= */
    assert_double_equal(t->runtime_s, 4.416, 1e-12); /* maxt */
    /* aggrb=2678KB/s: io over the longest run time, fio's 4 digits */
    assert_double_equal(t->bw_bytes_s, 2678.0 * 1024, 0.5 * 1024);
    assert_int_equal(t->line, 7);
    bl_out_free(&o);
}

/* fio 3.26: `WRITE: bw=2854KiB/s (2923kB/s), ..., io=12.0MiB (12.5MB), run=4057-4291msec`. */
static void test_corpus_326_eight_jobs(void **state)
{
    (void)state;
    char *p = bl_test_corpus("fio-normal/fio-3.26_8jobs_randwrite.txt");
    if (!p)
        skip();
    bl_parse_out o;
    assert_int_equal(bl_test_parse(p, "fio", &o), 0);
    free(p);
    assert_int_equal(o.recs.n, 9);
    check_scopes(&o, 8);
    const bl_record *t = total_of(&o);
    assert_non_null(t);
    assert_int_equal(t->numjobs, 8);
    assert_double_equal(t->bw_bytes_s, 2854.0 * 1024, 0.5 * 1024);
    assert_double_equal((double)t->io_bytes, 12.0 * 1048576, 0.05 * 1048576);
    assert_double_equal(t->runtime_s, 4.291, 1e-12);
    assert_false(t->clat_ns.present); /* the jobs printed no latency (lat_percentiles off) */
    bl_out_free(&o);
}

/* A real run: four jobs of `x` (numjobs=4, psync randread 4k); the total against the
 * group line of the same output and against the JSON of the same run. */
static void test_fio333_clones_vs_json(void **state)
{
    (void)state;
    char p[256];
    bl_test_fixture("fio/clones-3.33.out", p, sizeof p);
    bl_parse_out n, j;
    assert_int_equal(bl_test_parse(p, "fio", &n), 0);
    assert_int_equal(bl_test_parse(p, "fio-json", &j), 0);
    assert_int_equal(n.recs.n, 5);
    assert_int_equal(j.recs.n, 5); /* the JSON's four jobs get their total too */
    check_scopes(&n, 4);
    check_scopes(&j, 4);
    assert_true(bl_test_close(total_of(&j)->bw_bytes_s, total_of(&n)->bw_bytes_s, 0.002));
    const bl_record *t = total_of(&n);
    assert_non_null(t);
    assert_int_equal(t->numjobs, 4);
    double io = 0, rt = 0, sw = 0, swm = 0, lo = INFINITY, hi = 0;
    for (size_t i = 0; i < 4; i++) {
        const bl_record *x = j.recs.v[i];
        double ios = (double)x->io_bytes / 4096;
        io += (double)x->io_bytes;
        rt = fmax(rt, x->runtime_s);
        sw += ios;
        swm += ios * x->clat_ns.mean;
        lo = fmin(lo, x->clat_ns.min);
        hi = fmax(hi, x->clat_ns.max);
    }
    double mean = swm / sw, s = 0;
    for (size_t i = 0; i < 4; i++) {
        const bl_record *x = j.recs.v[i];
        double ios = (double)x->io_bytes / 4096, d = x->clat_ns.mean - mean;
        s += (ios - 1) * x->clat_ns.stdev * x->clat_ns.stdev + ios * d * d;
    }
    assert_double_equal((double)t->io_bytes, io, 0);
    assert_double_equal(t->runtime_s, rt, 1e-12);
    assert_true(bl_test_close(t->bw_bytes_s, io / rt, 1e-9));
    assert_true(bl_test_close(t->iops, io / 4096 / rt, 1e-9));
    /* the group line: `READ: bw=154MiB/s (161MB/s), ...` (3 digits) */
    assert_true(bl_test_close(t->bw_bytes_s, 154.0 * 1048576, 0.004));
    /* printed in usec with 2 decimals (or nsec): 0.1% */
    assert_true(bl_test_close(t->clat_ns.mean, mean, 0.001));
    assert_true(bl_test_close(t->clat_ns.stdev, sqrt(s / (sw - 1)), 0.001));
    assert_double_equal(t->clat_ns.min, lo, 1000);
    assert_true(bl_test_close(t->clat_ns.max, hi, 0.001));
    assert_false(t->clat_ns.n_pct); /* percentiles cannot be added up */
    bl_out_free(&n);
    bl_out_free(&j);
}

/* With group_reporting fio prints one block for the four jobs: nothing to add up. */
static void test_fio333_grouped_untouched(void **state)
{
    (void)state;
    char p[256];
    bl_test_fixture("fio/clones-grouped-3.33.out", p, sizeof p);
    bl_parse_out n;
    assert_int_equal(bl_test_parse(p, "fio", &n), 0);
    assert_int_equal(n.recs.n, 1);
    assert_int_equal(n.recs.v[0]->numjobs, 4);
    assert_null(bl_record_label(n.recs.v[0], "scope"));
    bl_out_free(&n);
}

/* Two numjobs jobs in one group (real fio 3.33 run, fixtures/fio/two-numjobs-jobs.fio): the
 * group line adds up all four blocks, so neither job's total can be checked against it. Each
 * gets its total and no error: the second job's total was refused ("aggregate bandwidth ... is
 * not the 2 job blocks' io") once the first job's blocks were scoped. */
static void test_fio333_two_numjobs_jobs_in_one_group(void **state)
{
    (void)state;
    char p[256];
    bl_test_fixture("fio/two-numjobs-jobs-3.33.out", p, sizeof p);
    bl_parse_out o;
    assert_int_equal(bl_test_parse(p, "fio", &o), 0);
    assert_int_equal(o.n_diags, 0);
    assert_int_equal(o.recs.n, 6);
    const bl_record *ta = NULL, *tb = NULL;
    for (size_t i = 0; i < o.recs.n; i++) {
        const bl_record *r = o.recs.v[i];
        const char *s = bl_record_label(r, "scope");
        assert_non_null(s);
        if (strcmp(s, "group total") != 0)
            continue;
        if (strcmp(bl_record_label(r, "job"), "a") == 0)
            ta = r;
        else
            tb = r;
    }
    assert_non_null(ta);
    assert_non_null(tb);
    /* a: 2048KiB in 4 ms and in 32 ms (IOPS=128k, 16.0k): 4 MiB over the longest, 32 ms. */
    assert_int_equal(ta->numjobs, 2);
    assert_int_equal(ta->io_bytes, 4194304);
    assert_float_equal(ta->runtime_s, 0.032, 1e-9);
    assert_float_equal(ta->bw_bytes_s, 4194304 / 0.032, 1e-3);
    assert_float_equal(ta->iops, 1024 / 0.032, 1e-6);
    /* b: 64 KiB I/Os, 2048KiB in 9 ms and in 10 ms. */
    assert_int_equal(tb->bs, 65536);
    assert_int_equal(tb->io_bytes, 4194304);
    assert_float_equal(tb->runtime_s, 0.010, 1e-9);
    assert_float_equal(tb->iops, 64 / 0.010, 1e-6);
    bl_out_free(&o);
}

static int parse_text(const char *text, bl_parse_out *o)
{
    char *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/in.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    int rc = bl_test_parse(path, "fio", o);
    unlink(path);
    rmdir(dir);
    free(dir);
    return rc;
}

#define HEAD                                                                                       \
    "a: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, "                    \
    "ioengine=psync, iodepth=1\nfio-3.33\n"
#define JOB(name, g, bw, io, ms)                                                                   \
    name ": (groupid=" g ", jobs=1): err= 0: pid=1\n  read: IOPS=25, BW=" bw "(" io "/" ms         \
         "msec)\n    clat (usec): min=10, max=100, avg=40.00, stdev=10.00\n"

/* A group line whose aggregate is not the blocks' io over the longest run time (a block
 * lost from the paste, or retyped): the total is refused with that line; the jobs stay
 * scoped, so they are still not pooled as repeats. Jobs of another name, or of the same
 * name in another group, are no clones. */
static void test_status_line_disagrees(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_text(HEAD JOB("a", "0", "100KiB/s (102kB/s)", "100KiB", "1000")
                                    JOB("a", "0", "100KiB/s (102kB/s)", "100KiB", "1000")
                                        JOB("b", "1", "100KiB/s (102kB/s)", "100KiB", "1000")
                                            JOB("c", "1", "100KiB/s (102kB/s)", "100KiB",
                                                "1000") "\n"
                                                        "Run status group 0 (all jobs):\n"
                                                        "   READ: bw=300KiB/s (307kB/s), "
                                                        "100KiB/s-100KiB/s (102kB/s-102kB/s), "
                                                        "io=300KiB (307kB), run=1000-1000msec\n",
                                &o),
                     1);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 17);
    assert_non_null(strstr(o.diags[0].msg, "aggregate"));
    assert_int_equal(o.recs.n, 4);
    assert_string_equal(bl_record_label(o.recs.v[0], "scope"), "job 1/2");
    assert_string_equal(bl_record_label(o.recs.v[1], "scope"), "job 2/2");
    assert_null(bl_record_label(o.recs.v[2], "scope"));
    assert_null(bl_record_label(o.recs.v[3], "scope"));
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_2015_eight_jobs),
        cmocka_unit_test(test_corpus_326_eight_jobs),
        cmocka_unit_test(test_fio333_clones_vs_json),
        cmocka_unit_test(test_fio333_grouped_untouched),
        cmocka_unit_test(test_status_line_disagrees),
        cmocka_unit_test(test_fio333_two_numjobs_jobs_in_one_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
