/* fio job files: options, fio's suffixes, [global], stonewall, and errors with their lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../runner/job.h"
#include "../runner/suites.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

static int parse_text(const char *text, bl_jobs *jobs, bl_diags *out)
{
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "job.fio", text, strlen(text), err, sizeof err), 0);
    bl_diags_init(out, "job.fio");
    int n = bl_jobfile_parse(&t, jobs, out);
    bl_text_free(&t);
    return n;
}

static int parse_fixture(const char *name, bl_jobs *jobs, bl_diags *out)
{
    char path[256];
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_load(&t, bl_test_fixture(name, path, sizeof path), err, sizeof err),
                     0);
    bl_diags_init(out, path);
    int n = bl_jobfile_parse(&t, jobs, out);
    bl_text_free(&t);
    return n;
}

static void test_fio_sizes(void **state)
{
    (void)state;
    uint64_t v;
    assert_true(bl_fio_size("4k", &v));
    assert_int_equal(v, 4096);
    assert_true(bl_fio_size("4K", &v));
    assert_int_equal(v, 4096);
    assert_true(bl_fio_size("1m", &v));
    assert_int_equal(v, 1048576);
    assert_true(bl_fio_size("1mb", &v));
    assert_int_equal(v, 1048576);
    assert_true(bl_fio_size("2g", &v));
    assert_int_equal(v, 2147483648ull);
    /* fio's kb_base=1024 quirk: the explicit IEC spelling means powers of 1000
     * (checked with fio 3.33: size=1MiB lays out 1000000 bytes). */
    assert_true(bl_fio_size("1MiB", &v));
    assert_int_equal(v, 1000000);
    assert_true(bl_fio_size("10KiB", &v));
    assert_int_equal(v, 10000);
    assert_true(bl_fio_size("512", &v));
    assert_int_equal(v, 512);
    assert_false(bl_fio_size("fast", &v));
    assert_false(bl_fio_size("4x", &v));
    assert_false(bl_fio_size("-1k", &v));
}

static void test_fio_times(void **state)
{
    (void)state;
    double s;
    assert_true(bl_fio_time_s("30", &s));
    assert_double_equal(s, 30, 0);
    assert_true(bl_fio_time_s("1500ms", &s));
    assert_double_equal(s, 1.5, 1e-12);
    assert_true(bl_fio_time_s("2m", &s));
    assert_double_equal(s, 120, 0);
    assert_true(bl_fio_time_s("1h", &s));
    assert_double_equal(s, 3600, 0);
    assert_true(bl_fio_time_s("250us", &s));
    assert_double_equal(s, 250e-6, 1e-15);
    assert_false(bl_fio_time_s("soon", &s));
    assert_false(bl_fio_time_s("5 parsecs", &s));
}

static void test_global_and_sections(void **state)
{
    (void)state;
    bl_jobs jobs = {0};
    bl_diags out;
    assert_int_equal(parse_fixture("jobs/seq-then-rand.fio", &jobs, &out), 0);
    assert_int_equal(out.n, 0);
    assert_int_equal(jobs.n, 2);
    bl_job *w = &jobs.v[0], *r = &jobs.v[1];
    assert_string_equal(w->name, "seq-write");
    assert_int_equal(w->line, 7);
    assert_true(w->is_write && !w->is_read && !w->random);
    assert_int_equal(w->bs, 1048576);
    assert_int_equal(w->size, 4000000);           /* 4MiB in fio's spelling: 4 * 10^6 */
    assert_string_equal(w->engine->name, "sync"); /* psync */
    assert_true(w->end_fsync && w->group_reporting && !w->stonewall);
    assert_string_equal(r->name, "rand-read");
    assert_true(r->stonewall && r->random && r->is_read && !r->is_write);
    assert_int_equal(r->numjobs, 2);
    assert_int_equal(r->bs, 4096);
    assert_double_equal(r->runtime_s, 1.5, 1e-12);
    assert_int_equal(r->size, 4000000); /* from [global] */
    bl_jobs_free(&jobs);
    bl_diags_free(&out);

    assert_int_equal(parse_fixture("jobs/randread-qd32.fio", &jobs, &out), 0);
    assert_int_equal(jobs.n, 1);
    assert_string_equal(jobs.v[0].engine->name, "libaio");
    assert_int_equal(jobs.v[0].iodepth, 32);
    assert_int_equal(jobs.v[0].direct, 1);
    assert_int_equal(jobs.v[0].size, 8 << 20);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);

    assert_int_equal(parse_fixture("jobs/mixed-logs.fio", &jobs, &out), 0);
    assert_true(jobs.v[0].is_read && jobs.v[0].is_write && jobs.v[0].random);
    assert_int_equal(jobs.v[0].rwmixread, 70);
    assert_string_equal(jobs.v[0].lat_log, "mixed");
    assert_string_equal(jobs.v[0].bw_log, "mixed");
    assert_int_equal(jobs.v[0].log_avg_msec, 0);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
}

/* Each message names the option, its line and the range; nothing wraps or runs half-read. */
static void test_ranges_are_checked_when_read(void **state)
{
    (void)state;
    bl_jobs jobs = {0};
    bl_diags out;
    assert_int_equal(parse_text("[a]\nruntime=1e12\nramp_time=1e12\niodepth=0\nbs=512m\n"
                                "size=1e30\nservice_time=11s\n",
                                &jobs, &out),
                     6);
    const char *want[][2] = {{"'runtime': 1e12 is out of range", "100 days"},
                             {"'ramp_time': 1e12 is out of range", "100 days"},
                             {"'iodepth': 0 is out of range", "1 to 256"},
                             {"'bs': 512m is out of range", "256 MiB"},
                             {"'size': 1e30 is out of range", "2^63-1"},
                             {"'service_time': 11s is out of range", "10 s"}};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(out.v[i].line, i + 2);
        assert_non_null(strstr(out.v[i].msg, want[i][0]));
        assert_non_null(strstr(out.v[i].msg, want[i][1]));
    }
    /* The values were not taken. */
    assert_double_equal(jobs.v[0].runtime_s, 0, 0);
    assert_int_equal(jobs.v[0].bs, 4096);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);

    /* offset + size past 2^63-1: reported at the job's section, for a size set in [global]. */
    assert_int_equal(parse_text("[global]\nsize=1000p\n[big]\noffset=8000p\n", &jobs, &out), 1);
    assert_int_equal(out.v[0].line, 3);
    assert_non_null(strstr(out.v[0].msg, "passes the largest file offset"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
}

/* fio runs bs=4k-16k, bsrange and bssplit as a mix of sizes; we ran 4k and stored bs=4096. */
static void test_block_size_mixes_are_refused(void **state)
{
    (void)state;
    bl_jobs jobs = {0};
    bl_diags out;
    assert_int_equal(parse_text("[a]\nbs=4k-16k\nbsrange=4k-16k\nbssplit=4k/50:64k/50\n"
                                "blocksize=4k,8k\n",
                                &jobs, &out),
                     4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(out.v[i].line, i + 2);
        assert_non_null(strstr(out.v[i].msg, "would not run the mix fio runs"));
    }
    assert_int_equal(jobs.v[0].bs, 4096); /* the default, untouched */
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    uint64_t v;
    assert_false(bl_fio_size("4k-16k", &v));
    assert_false(bl_fio_size("4k,8k", &v));
}

static void test_errors_name_option_and_line(void **state)
{
    (void)state;
    bl_jobs jobs = {0};
    bl_diags out;
    assert_int_equal(parse_fixture("jobs/bad-options.fio", &jobs, &out), 3);
    assert_int_equal(out.n, 3);
    assert_int_equal(out.v[0].line, 6);
    assert_non_null(strstr(out.v[0].msg, "'verify'"));
    assert_non_null(strstr(out.v[0].msg, "not supported"));
    assert_int_equal(out.v[1].line, 7);
    assert_non_null(strstr(out.v[1].msg, "'bs'"));
    assert_non_null(strstr(out.v[1].msg, "fast"));
    assert_int_equal(out.v[2].line, 8);
    assert_non_null(strstr(out.v[2].msg, "section header"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);

    /* Values out of range and unknown modes (trimwrite: not run) are errors too, never ignored. */
    assert_int_equal(parse_text("[a]\nrw=trimwrite\niodepth=100000\nrwmixread=150\n", &jobs, &out),
                     3);
    assert_int_equal(out.v[0].line, 2);
    assert_int_equal(out.v[1].line, 3);
    assert_int_equal(out.v[2].line, 4);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);

    assert_int_equal(
        parse_text("[a]\nfilename=/dev/sda:/dev/sdb\nrw=read:8\nsize=50%\n", &jobs, &out), 3);
    assert_non_null(strstr(out.v[0].msg, "several files"));
    assert_non_null(strstr(out.v[1].msg, "'rw'"));
    assert_non_null(strstr(out.v[2].msg, "'size'"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);

    assert_int_equal(parse_text("# nothing but a comment\n", &jobs, &out), 1);
    assert_non_null(strstr(out.v[0].msg, "no job section"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
}

static void test_global_applies_only_after(void **state)
{
    (void)state;
    bl_jobs jobs = {0};
    bl_diags out;
    const char *text = "bs=8k\n[one]\nrw=write\n[global]\niodepth=4\n[two]\ntime_based\n"
                       "runtime=2\nrwmixwrite=20\nnorandommap\n";
    assert_int_equal(parse_text(text, &jobs, &out), 0);
    assert_int_equal(jobs.n, 2);
    assert_int_equal(jobs.v[0].bs, 8192);
    assert_int_equal(jobs.v[0].iodepth, 1);
    assert_int_equal(jobs.v[1].bs, 8192);
    assert_int_equal(jobs.v[1].iodepth, 4);
    assert_true(jobs.v[1].time_based && jobs.v[1].norandommap);
    assert_int_equal(jobs.v[1].rwmixread, 80);
    assert_double_equal(jobs.v[1].runtime_s, 2, 0);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
}

static void test_suite_shapes(void **state)
{
    (void)state;
    const bl_suite *s = bl_suite_find("cdm8");
    assert_non_null(s);
    assert_int_equal(s->size, 1073741824ull);
    assert_int_equal(s->runs, 5);
    assert_double_equal(s->measure_s, 5, 0);
    assert_double_equal(s->interval_s, 5, 0);
    assert_double_equal(s->warmup_s, 5, 0);
    assert_int_equal(s->n_tests, 4);
    const char *names[] = {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T16", "RND4K Q1T1"};
    int bs[] = {1048576, 1048576, 4096, 4096}, qd[] = {8, 1, 32, 1}, th[] = {1, 1, 16, 1};
    for (size_t i = 0; i < 4; i++) {
        bl_job j;
        bl_suite_job(s, i, BL_DIR_WRITE, &j);
        assert_string_equal(j.cdm_test, names[i]);
        assert_int_equal(j.bs, bs[i]);
        assert_int_equal(j.iodepth, qd[i]);
        assert_int_equal(j.numjobs, th[i]);
        assert_true(j.is_write && !j.is_read);
        assert_int_equal(j.random, i >= 2);
        assert_int_equal(j.direct, 1);
        assert_true(j.time_based);
        assert_string_equal(j.engine->name, qd[i] > 1 ? "libaio" : "sync");
        bl_job_free(&j);
    }
    const bl_suite *d = bl_suite_find("cdm8-default");
    assert_string_equal(d->tests[2].cdm_name, "RND4K Q32T1");
    assert_int_equal(d->tests[2].threads, 1);

    const bl_suite *c3 = bl_suite_find("cdm3");
    assert_int_equal(c3->size, 1000ull * 1048576);
    assert_int_equal(c3->runs, 5);
    assert_int_equal(c3->n_tests, 4);
    assert_string_equal(c3->tests[0].cdm_name, "SEQ1M Q1T1"); /* as the cdm parser names it */
    assert_int_equal(c3->tests[1].bs, 512 * 1024);
    assert_string_equal(c3->tests[3].cdm_name, "RND4K Q32T1");
    assert_int_equal(c3->tests[3].queues, 32);

    const bl_suite *q = bl_suite_find("quick");
    assert_true(q->size <= 64u << 20);
    assert_true(q->runs * q->measure_s * (double)q->n_tests * 2 <= 5);
    assert_null(bl_suite_find("cdm9"));
}

static bl_record *cdm_run(double mbs, double iops, double lat_us, double lat_p99_us)
{
    bl_record *r = bl_record_new();
    r->bw_bytes_s = mbs * 1e6;
    r->iops = iops;
    r->lat_ns.present = true;
    r->lat_ns.mean = lat_us * 1000;
    bl_lat_add_pct(&r->lat_ns, 99, lat_p99_us * 1000);
    return r;
}

/* CrystalDiskMark keeps the best of each figure on its own: the highest MB/s and IOPS and the
 * lowest mean latency, which need not come from one run. */
static void test_suite_pick_as_crystaldiskmark(void **state)
{
    (void)state;
    bl_records runs;
    bl_records_init(&runs);
    assert_null(bl_suite_pick(&runs, NULL));
    bl_records_push(&runs, cdm_run(3400, 3242.5, 2470.0, 4000));
    bl_records_push(&runs, cdm_run(3531.233, 3367.6, 2371.96, 5000)); /* best MB/s */
    bl_records_push(&runs, cdm_run(3500, 3370.1, 2301.5, 6000));      /* best IOPS, latency */
    bl_suite_picked from;
    bl_record *r = bl_suite_pick(&runs, &from);
    assert_non_null(r);
    /* Which run each figure came from. */
    assert_int_equal(from.bw, 2);
    assert_int_equal(from.iops, 3);
    assert_int_equal(from.lat, 3);
    assert_int_equal(runs.n, 2); /* the pick was taken out; the caller frees the rest */
    assert_double_equal(r->bw_bytes_s, 3531.233e6, 1e-3);
    assert_double_equal(r->iops, 3370.1, 1e-9);
    assert_double_equal(r->lat_ns.mean, 2301500, 1e-6);
    assert_double_equal(r->lat_ns.pct[0].value, 5000000, 1e-6); /* the distribution of its run */
    bl_record_free(r);
    bl_records_free(&runs);
}

/* Our suites' records must line up with imported CrystalDiskMark results: for every row the
 * cdm parser reads from a real CrystalDiskMark 3 / 8 text, the suite has a test of the same
 * name with the same block size, queue depth and threads. */
static void check_lines_up(const char *corpus, const char *suite)
{
    char *path = bl_test_corpus(corpus);
    if (!path || !bl_format_find("cdm")) {
        free(path);
        skip();
    }
    bl_parse_out out;
    bl_test_parse(path, "cdm", &out);
    const bl_suite *s = bl_suite_find(suite);
    size_t matched = 0;
    for (size_t i = 0; i < out.recs.n; i++) {
        const bl_record *r = out.recs.v[i];
        const char *name = bl_record_label(r, "cdm_test");
        assert_non_null(name);
        for (size_t k = 0; k < s->n_tests; k++) {
            if (strcmp(s->tests[k].cdm_name, name) != 0)
                continue;
            bl_job j;
            bl_suite_job(s, k, strcmp(r->op, "read") == 0 ? BL_DIR_READ : BL_DIR_WRITE, &j);
            assert_int_equal(r->bs, j.bs);
            assert_int_equal(r->iodepth, j.iodepth);
            assert_int_equal(r->numjobs, j.numjobs);
            assert_string_equal(r->test,
                                bl_job_test_name(&j, j.is_read ? BL_DIR_READ : BL_DIR_WRITE));
            bl_job_free(&j);
            matched++;
        }
    }
    assert_true(matched >= 6);
    bl_out_free(&out);
    free(path);
}

static void test_suites_line_up_with_cdm_imports(void **state)
{
    (void)state;
    check_lines_up("cdm/cdm-3.0.2_x64_samsung830_ssd.txt", "cdm3");
    check_lines_up("cdm/cdm-8.0.2_x64_crucial_p2_nvme.txt", "cdm8");
}

/* The option table: every key and alias is found, each bound is taken at its edge and refused
 * one past it with the job file's line and the bounds the help shows. */
static void test_option_table_bounds(void **state)
{
    (void)state;
    size_t checked = 0;
    for (size_t i = 0; i < bl_job_opt_count(); i++) {
        const bl_job_opt *o = bl_job_opt_at(i);
        assert_ptr_equal(bl_job_opt_find(o->name), o);
        for (int a = 0; a < 2; a++)
            if (o->alias[a])
                assert_ptr_equal(bl_job_opt_find(o->alias[a]), o);
        if (o->type != BL_JO_INT && o->type != BL_JO_SIZE && o->type != BL_JO_TIME)
            continue;
        /* At the upper bound: taken, the field holds it. */
        char text[160], err[256];
        bl_job j;
        bl_job_defaults(&j);
        snprintf(text, sizeof text, "%llu", (unsigned long long)o->hi);
        assert_int_equal(bl_job_set(&j, o->name, text, err, sizeof err), 0);
        const char *f = (const char *)&j + o->off;
        if (o->type == BL_JO_INT)
            assert_int_equal(*(const int *)f, (int)o->hi);
        else if (o->type == BL_JO_SIZE)
            assert_true(*(const uint64_t *)f == o->hi);
        else
            assert_double_equal(*(const double *)f, (double)o->hi, 0);
        bl_job_free(&j);
        /* One past it, and below a lower bound above 0: refused at its line. */
        char bounds[96], want[200];
        bl_job_opt_bounds(o, bounds, sizeof bounds);
        assert_true(*bounds != 0);
        snprintf(text, sizeof text, "[a]\n%s=%llu\n", o->name, (unsigned long long)o->hi + 1);
        if (o->lo > 0)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s=%llu\n", o->name,
                     (unsigned long long)o->lo - 1);
        bl_jobs jobs = {0};
        bl_diags out;
        assert_int_equal(parse_text(text, &jobs, &out), o->lo > 0 ? 2 : 1);
        assert_int_equal(out.v[0].line, 2);
        snprintf(want, sizeof want, "option '%s': %llu is out of range (%s)", o->name,
                 (unsigned long long)o->hi + 1, bounds);
        assert_string_equal(out.v[0].msg, want);
        if (o->lo > 0) {
            assert_int_equal(out.v[1].line, 3);
            snprintf(want, sizeof want, "option '%s': %llu is out of range (%s)", o->name,
                     (unsigned long long)o->lo - 1, bounds);
            assert_string_equal(out.v[1].msg, want);
        }
        bl_jobs_free(&jobs);
        bl_diags_free(&out);
        checked++;
    }
    assert_true(checked >= 20);
    /* Options refusing a value for each direction say so, one message for all of them. */
    const char *rates[] = {"rate", "rate_min", "ratemin", "rate_iops", "rate_iops_min"};
    for (size_t i = 0; i < 5; i++) {
        bl_job j;
        bl_job_defaults(&j);
        char err[256], want[200];
        assert_int_equal(bl_job_set(&j, rates[i], "10,20", err, sizeof err), -1);
        snprintf(want, sizeof want,
                 "option '%s': a rate for each direction ('10,20') is not supported by "
                 "benchlog's runner",
                 rates[i]);
        assert_string_equal(err, want);
        bl_job_free(&j);
    }
}

/* `run --help-options` is written from the table: every key and alias, its bounds. */
static void test_help_lists_every_option(void **state)
{
    (void)state;
    char *out = NULL;
    assert_int_equal(bl_test_benchlog("run --help-options", &out, NULL), 0);
    for (size_t i = 0; i < bl_job_opt_count(); i++) {
        const bl_job_opt *o = bl_job_opt_at(i);
        char line[128];
        snprintf(line, sizeof line, "\n  %s ", o->name);
        if (o->alias[0])
            snprintf(line, sizeof line, "\n  %s (%s) ", o->name, o->alias[0]);
        if (!strstr(out, line))
            fail_msg("--help-options lacks '%s'", line + 1);
        char bounds[96];
        bl_job_opt_bounds(o, bounds, sizeof bounds);
        if (*bounds)
            assert_non_null(strstr(strstr(out, line), bounds));
    }
    assert_non_null(strstr(out, "1 to 256 MiB"));
    assert_non_null(strstr(out, "io_uring"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_sizes),
        cmocka_unit_test(test_fio_times),
        cmocka_unit_test(test_global_and_sections),
        cmocka_unit_test(test_errors_name_option_and_line),
        cmocka_unit_test(test_ranges_are_checked_when_read),
        cmocka_unit_test(test_block_size_mixes_are_refused),
        cmocka_unit_test(test_global_applies_only_after),
        cmocka_unit_test(test_suite_shapes),
        cmocka_unit_test(test_suite_pick_as_crystaldiskmark),
        cmocka_unit_test(test_suites_line_up_with_cdm_imports),
        cmocka_unit_test(test_option_table_bounds),
        cmocka_unit_test(test_help_lists_every_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
