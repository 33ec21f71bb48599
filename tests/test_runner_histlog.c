/* write_hist_log in fio's format: fio 3.33 writes its clat_hist log for the same job with the
 * same number of columns, and our fio-log parser reads both; read back, our log has every
 * measured I/O in the run's own buckets (same counts, same percentiles at coarseness 0;
 * within the coarse bucket's width otherwise). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/latency.h"
#include "../core/strbuf.h"
#include "../runner/runner.h"
#include "support/runjob.h"
#include "support/support.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run_job(const char *text, const char *target, bl_records *out)
{
    assert_int_equal(bl_test_run_jobtext(text, (bl_run_opts){.target = target}, out), BL_RUN_OK);
}

/* Lines and numbers per line of a log (all lines must agree). */
static size_t columns(const char *path, size_t *lines)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t cols = 0, n = 0;
    int c, commas = 0;
    while ((c = fgetc(f)) != EOF) {
        if (c == ',')
            commas++;
        else if (c == '\n') {
            if (n++ == 0)
                cols = (size_t)commas + 1;
            assert_int_equal((size_t)commas + 1, cols);
            commas = 0;
        }
    }
    fclose(f);
    *lines = n;
    return cols;
}

static uint64_t bins_total(const bl_lat *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        n += l->bins[i].count;
    return n;
}

static double pct_of(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == p)
            return l->pct[i].value;
    return -1;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            bl_strbuf p;
            bl_strbuf_init(&p);
            bl_strbuf_printf(&p, "%s/%s", dir, e->d_name);
            unlink(p.s);
            bl_strbuf_free(&p);
        }
    closedir(d);
    assert_int_equal(rmdir(dir), 0);
}

/* One run at the given coarseness; returns the log's columns and checks it against the run. */
static size_t check_run(const char *dir, int coarse)
{
    bl_strbuf job, log;
    bl_strbuf_init(&job);
    bl_strbuf_init(&log);
    bl_strbuf_printf(&job,
                     "[h]\nrw=randread\nbs=4k\nsize=16m\nioengine=libaio\niodepth=8\ndirect=1\n"
                     "runtime=1200ms\ntime_based\nwrite_hist_log=%s/c%d\nlog_hist_msec=200\n"
                     "log_hist_coarseness=%d\n",
                     dir, coarse, coarse);
    bl_strbuf_printf(&log, "%s/c%d_clat_hist.1.log", dir, coarse);
    bl_records recs;
    run_job(job.s, dir, &recs);
    const bl_record *r = recs.v[0];
    size_t lines, cols = columns(log.s, &lines);
    printf("  coarseness %d: %zu lines of %zu numbers\n", coarse, lines, cols);
    assert_int_equal(cols, 3 + (BL_PLAT_NR >> coarse));
    assert_true(lines >= 5 && lines <= 8); /* 1.2 s in 200 ms windows, plus the tail */
    bl_parse_out o;
    assert_int_equal(bl_test_parse(log.s, "fio-log", &o), 0);
    assert_int_equal(o.recs.n, 1);
    const bl_lat *back = &o.recs.v[0]->clat_ns, *run = &r->clat_ns;
    /* every measured I/O is in the log, once */
    assert_int_equal(bins_total(back), bins_total(run));
    assert_int_equal(bins_total(back), (uint64_t)(r->iops * r->runtime_s + 0.5));
    for (double p = 50; p <= 99; p += 49) {
        double a = pct_of(back, p), b = pct_of(run, p);
        printf("    p%.0f: log %.0f ns, run %.0f ns\n", p, a, b);
        if (coarse == 0)
            assert_double_equal(a, b, 0);
        else /* a group of 2^c buckets counts at its first bucket's value */
            assert_true(a <= b && a >= b * (1.0 - (double)(1 << coarse) / 64.0));
    }
    bl_out_free(&o);
    bl_records_free(&recs);
    bl_strbuf_free(&job);
    bl_strbuf_free(&log);
    return cols;
}

static void test_hist_log_reads_back_as_the_run(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    check_run(dir, 0);
    check_run(dir, 2);
    rm_tree(dir);
    free(dir);
}

/* fio's own log of the same job: as many numbers a line, and our parser reads it. */
static void test_fio_writes_the_same_format(void **state)
{
    (void)state;
    if (system("command -v fio >/dev/null 2>&1") != 0)
        bl_skip_because("fio is not installed: nothing to compare the format with");
    char *dir = bl_test_tmpdir();
    bl_strbuf cmd, log;
    bl_strbuf_init(&cmd);
    bl_strbuf_init(&log);
    bl_strbuf_printf(&cmd,
                     "cd %s && fio --name=h --filename=%s/data --size=16m --rw=randread --bs=4k "
                     "--ioengine=libaio --iodepth=8 --direct=1 --runtime=1 --time_based "
                     "--write_hist_log=%s/f --log_hist_msec=200 --output=/dev/null",
                     dir, dir, dir);
    assert_int_equal(system(cmd.s), 0);
    bl_strbuf_printf(&log, "%s/f_clat_hist.1.log", dir);
    size_t lines, cols = columns(log.s, &lines);
    printf("  fio: %zu lines of %zu numbers\n", lines, cols);
    assert_int_equal(cols, 3 + BL_PLAT_NR);
    bl_parse_out o;
    assert_int_equal(bl_test_parse(log.s, "fio-log", &o), 0);
    assert_true(bins_total(&o.recs.v[0]->clat_ns) > 0);
    bl_out_free(&o);
    bl_strbuf_free(&cmd);
    bl_strbuf_free(&log);
    rm_tree(dir);
    free(dir);
}

static void test_hist_log_without_interval_is_refused(void **state)
{
    (void)state;
    const char *text = "[h]\nrw=read\nwrite_hist_log=x\n";
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "h.fio", text, strlen(text), err, sizeof err), 0);
    bl_diags out;
    bl_diags_init(&out, "h.fio");
    bl_jobs jobs = {0};
    assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 1);
    assert_non_null(strstr(out.v[0].msg, "write_hist_log needs log_hist_msec"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    bl_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hist_log_reads_back_as_the_run),
        cmocka_unit_test(test_fio_writes_the_same_format),
        cmocka_unit_test(test_hist_log_without_interval_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
