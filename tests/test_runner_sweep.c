/* Sweeps: the spec, the stable order of the points, the checks before anything runs, and a real
 * 4 depths x 2 numjobs matrix whose every run obeys Little's law (IOPS x mean latency = depth x
 * jobs, as tests/test_runner_little.c checks) and moves IOPS x bs x runtime bytes; a suite
 * swept; Ctrl-C between points keeps the finished ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/engine_ops.h"
#include "../runner/sweep.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_spec_and_order(void **state)
{
    (void)state;
    bl_sweep s;
    char err[512];
    assert_int_equal(bl_sweep_parse("iodepth=1,2,4,8  numjobs=1,2\tbs=4k,64k", &s, err, sizeof err),
                     0);
    assert_int_equal(s.n, 3);
    assert_int_equal(bl_sweep_points(&s), 16);
    /* First key slowest, last fastest. */
    const char *want[][3] = {{"1", "1", "4k"},  {"1", "1", "64k"}, {"1", "2", "4k"},
                             {"1", "2", "64k"}, {"2", "1", "4k"},  {"8", "2", "64k"}};
    size_t at[] = {0, 1, 2, 3, 4, 15};
    for (size_t i = 0; i < 6; i++) {
        bl_label pt[3];
        bl_sweep_point(&s, at[i], pt);
        assert_string_equal(pt[0].key, "iodepth");
        assert_string_equal(pt[2].key, "bs");
        for (int k = 0; k < 3; k++)
            assert_string_equal(pt[k].value, want[i][k]);
    }
    bl_sweep_free(&s);

    /* Refusals name what is wrong; values are checked by the option table. */
    const char *bad[][2] = {
        {"iodepth=1,2,300", "--sweep: option 'iodepth': 300 is out of range (1 to 256)"},
        {"depth=1,2", "--sweep: option 'depth' is not a job file option"},
        {"iodepth=1 iodepth=2", "--sweep: option 'iodepth' is given twice"},
        {"bs=4k blocksize=8k", "--sweep: option 'blocksize' is given twice"},
        {"iodepth=1,,2", "--sweep: option 'iodepth': an empty value"},
        {"iodepth=1,1", "--sweep: option 'iodepth': '1' is given twice"},
        {"iodepth", "--sweep: 'iodepth' is not KEY=V1,V2"},
        {"  ", "--sweep: no KEY=V1,V2,... given"},
        {"rw=randread,sideways", "--sweep: option 'rw': bad value 'sideways'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(bl_sweep_parse(bad[i][0], &s, err, sizeof err), -1);
        if (strncmp(err, bad[i][1], strlen(bad[i][1])) != 0)
            fail_msg("'%s': got '%s'", bad[i][0], err);
        bl_sweep_free(&s);
    }
}

static void parse_jobs(const char *text, bl_jobs *jobs)
{
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "s.fio", text, strlen(text), err, sizeof err), 0);
    bl_diags po;
    bl_diags_init(&po, "s.fio");
    assert_int_equal(bl_jobfile_parse(&t, jobs, &po), 0);
    bl_diags_free(&po);
    bl_text_free(&t);
}

/* A point that cannot run is found before the first point runs. */
static void test_points_checked_before_running(void **state)
{
    (void)state;
    bl_jobs jobs = {0};
    parse_jobs("[a]\nrw=randread\nsize=64m\n", &jobs);
    bl_sweep s;
    char err[512];
    assert_int_equal(bl_sweep_parse("bs=4k,256m iodepth=1,8", &s, err, sizeof err), 0);
    assert_int_equal(bl_sweep_check(&s, &jobs, NULL, err, sizeof err), -1);
    assert_string_equal(err, "--sweep: the point bs=256m iodepth=8 cannot run: job 'a': bs x "
                             "iodepth = 2147483648 bytes of buffers, more than 1 GiB");
    bl_sweep_free(&s);
    assert_int_equal(bl_sweep_parse("bs=4k,64k iodepth=1,8", &s, err, sizeof err), 0);
    assert_int_equal(bl_sweep_check(&s, &jobs, NULL, err, sizeof err), 0);
    bl_sweep_free(&s);
    bl_jobs_free(&jobs);
}

static const char *engine_here(void)
{
    char why[256];
    return bl_engine_available(bl_engine_find("io_uring"), why, sizeof why) == 0 ? "io_uring"
                                                                                 : "libaio";
}

static int label_int(const bl_record *r, const char *key)
{
    const char *v = bl_record_label(r, key);
    assert_non_null(v);
    return atoi(v);
}

/* 4 depths x 2 numjobs on a real file: 8 runs in the sweep's order, each labelled with its
 * point, each obeying Little's law within 5% (plus the window's edges, as test_runner_little
 * allows) and moving IOPS x bs x runtime bytes. Blocks of 64 KiB keep an I/O long beside the
 * engine's own time; under valgrind (BENCHLOG_VALGRIND) the timing says nothing (see
 * test_runner_little.c) and only the counted figures are checked. */
static void test_sweep_obeys_littles_law(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_strbuf job;
    bl_strbuf_init(&job);
    bl_strbuf_printf(&job,
                     "[little]\nrw=randread\nioengine=%s\ndirect=1\nbs=64k\nsize=8m\n"
                     "runtime=250ms\ntime_based\n",
                     engine_here());
    bl_jobs jobs = {0};
    parse_jobs(job.s, &jobs);
    bl_sweep s;
    char err[512];
    assert_int_equal(bl_sweep_parse("iodepth=1,2,4,8 numjobs=1,2", &s, err, sizeof err), 0);
    assert_int_equal(bl_sweep_check(&s, &jobs, NULL, err, sizeof err), 0);
    bl_run_opts o = {.target = dir, .msg = fopen("/dev/null", "w")};
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_run_sweep(&s, &jobs, NULL, &o, &recs), BL_RUN_OK);
    fclose(o.msg);
    assert_int_equal(recs.n, 8);
    bool timing = !getenv("BENCHLOG_VALGRIND");
    for (size_t i = 0; i < 8; i++) {
        const bl_record *r = recs.v[i];
        int depth = 1 << (i / 2), jobs_n = 1 + (int)(i % 2);
        assert_int_equal(r->iodepth, depth);
        assert_int_equal(r->numjobs, jobs_n);
        assert_int_equal(label_int(r, "sweep_iodepth"), depth);
        assert_int_equal(label_int(r, "sweep_numjobs"), jobs_n);
        assert_string_equal(bl_record_label(r, "sweep"), "iodepth,numjobs");
        assert_int_equal(r->run, (int64_t)i + 1); /* a run of its own a point */
        assert_int_equal(r->bs, 65536);
        double want = depth * jobs_n, got = r->iops * r->lat_ns.mean / 1e9;
        printf("  %s QD%d x%d: IOPS %.0f x lat %.1f us = %.2f (want %.0f), %llu bytes in %.3f s\n",
               r->ioengine, depth, jobs_n, r->iops, r->lat_ns.mean / 1000, got, want,
               (unsigned long long)r->io_bytes, r->runtime_s);
        assert_true(r->lat_ns.present && r->iops > 0);
        double edges = r->lat_ns.mean / 1e9 / r->runtime_s;
        if (timing)
            assert_true(got >= want * (0.95 - edges) && got <= want * 1.05);
        /* Bytes moved: whole blocks, and IOPS x bs x runtime. */
        assert_int_equal(r->io_bytes % 65536, 0);
        assert_true(bl_test_close((double)r->io_bytes, r->iops * 65536 * r->runtime_s, 1e-9));
        assert_true(bl_test_close((double)r->io_bytes, r->bw_bytes_s * r->runtime_s, 1e-9));
    }
    bl_records_free(&recs);
    bl_sweep_free(&s);
    bl_jobs_free(&jobs);
    bl_strbuf_free(&job);
    assert_int_equal(rmdir(dir), 0); /* every scratch file gone */
    free(dir);
}

/* A suite swept: each test runs at the point's depth, named for what it ran (CrystalDiskMark's
 * spelling), with the suite's engine rule (sync at QD1, libaio deeper). */
static void test_suite_swept(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_sweep s;
    char err[512];
    assert_int_equal(bl_sweep_parse("iodepth=1,2", &s, err, sizeof err), 0);
    const bl_suite *q = bl_suite_find("quick");
    assert_int_equal(bl_sweep_check(&s, NULL, q, err, sizeof err), 0);
    bl_run_opts o = {.target = dir,
                     .msg = fopen("/dev/null", "w"),
                     .suite = "quick",
                     .runtime_s = 0.05,
                     .size = 8 << 20};
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_run_sweep(&s, NULL, q, &o, &recs), BL_RUN_OK);
    fclose(o.msg);
    assert_int_equal(recs.n, 2 * 2 * q->n_tests);
    const char *names[] = {"SEQ1M Q1T1", "RND4K Q1T1", "RND4K Q1T1",
                           "SEQ1M Q2T1", "RND4K Q2T1", "RND4K Q2T1"};
    for (size_t i = 0; i < recs.n; i++) {
        const bl_record *r = recs.v[i];
        int depth = i < recs.n / 2 ? 1 : 2;
        assert_int_equal(r->iodepth, depth);
        assert_string_equal(r->ioengine, depth == 1 ? "sync" : "libaio");
        size_t t = (i % (recs.n / 2)) % q->n_tests;
        assert_string_equal(bl_record_label(r, "cdm_test"), names[(depth - 1) * 3 + t]);
        assert_int_equal(label_int(r, "sweep_iodepth"), depth);
    }
    bl_records_free(&recs);
    bl_sweep_free(&s);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

/* Ctrl-C as point 3 of 4 starts: the first two points' records are kept. The flag is raised
 * by the message stream when it sees "sweep 3/4", so the moment is the same on every run. */
static volatile sig_atomic_t stop_flag;

static ssize_t watch_write(void *c, const char *buf, size_t n)
{
    (void)c;
    if (memmem(buf, n, "sweep 3/4", 9))
        stop_flag = 1;
    return (ssize_t)n;
}

static void test_interrupt_keeps_finished_points(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_jobs jobs = {0};
    parse_jobs("[a]\nrw=randread\nioengine=libaio\nsize=4m\nruntime=100ms\ntime_based\n", &jobs);
    bl_sweep s;
    char err[512];
    assert_int_equal(bl_sweep_parse("iodepth=1,2", &s, err, sizeof err), 0);
    s.repeats = 2;
    stop_flag = 0;
    cookie_io_functions_t io = {.write = watch_write};
    bl_run_opts o = {.target = dir, .msg = fopencookie(NULL, "w", io), .interrupt = &stop_flag};
    setvbuf(o.msg, NULL, _IOLBF, 0);
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_run_sweep(&s, &jobs, NULL, &o, &recs), BL_RUN_INTERRUPTED);
    fclose(o.msg);
    assert_int_equal(recs.n, 2);
    assert_int_equal(recs.v[0]->iodepth, 1);
    assert_int_equal(recs.v[1]->iodepth, 2);
    bl_records_free(&recs);
    bl_sweep_free(&s);
    bl_jobs_free(&jobs);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

/* The command line: a bad spec is a usage error, the records carry the labels. */
static void test_cli(void **state)
{
    (void)state;
    char *err = NULL;
    assert_int_equal(bl_test_benchlog("run --sweep 'iodepth=0' --suite quick", NULL, &err), 2);
    assert_non_null(strstr(err, "'iodepth': 0 is out of range (1 to 256)"));
    free(err);
    assert_int_equal(bl_test_benchlog("run --sweep-repeats 2 --suite quick", NULL, &err), 2);
    assert_non_null(strstr(err, "--sweep-repeats needs --sweep"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_and_order),
        cmocka_unit_test(test_points_checked_before_running),
        cmocka_unit_test(test_sweep_obeys_littles_law),
        cmocka_unit_test(test_suite_swept),
        cmocka_unit_test(test_interrupt_keeps_finished_points),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
