/* rate and rate_iops as fio runs them (rate_process=linear, per thread): the same job gives
 * the same IOPS and bandwidth in fio and in benchlog, within a few percent; with I/Os in
 * flight the queue is reaped before a sleep, so the sleep is not counted as latency; what we
 * do not do (a rate per direction, a mixed job, both options) is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/runner.h"
#include "support/runjob.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int run_text(const char *text, const char *target, bl_records *out)
{
    return bl_test_run_jobtext(text, (bl_run_opts){.target = target}, out);
}

/* fio's IOPS (terse field 8 for reads, 49 for writes) for the same options; -1 without fio. */
static double fio_iops(const char *opts, int write)
{
    if (system("command -v fio >/dev/null 2>&1") != 0)
        return -1;
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(&cmd, "fio --name=r --output-format=terse --terse-version=3 %s", opts);
    FILE *p = popen(cmd.s, "r");
    bl_strbuf_free(&cmd);
    assert_non_null(p);
    char line[8192] = "";
    char *got = fgets(line, sizeof line, p);
    assert_int_equal(pclose(p), 0);
    assert_non_null(got);
    char *f = line;
    for (int i = 1; i < (write ? 49 : 8); i++) {
        f = strchr(f, ';');
        assert_non_null(f);
        f++;
    }
    return atof(f);
}

/* The null engine moves nothing: the rate is all there is to measure, on fio as on us. */
static void test_rate_iops_as_fio(void **state)
{
    (void)state;
    bl_records recs;
    assert_int_equal(run_text("[n]\nioengine=null\nrw=randread\nbs=4k\nsize=64m\nrate_iops=400\n"
                              "runtime=2\ntime_based\nnumjobs=2\n",
                              NULL, &recs),
                     BL_RUN_OK);
    const bl_record *r = recs.v[0];
    printf("  benchlog: %.1f IOPS (2 threads x rate_iops=400)\n", r->iops);
    assert_true(bl_test_close(r->iops, 800, 0.05));
    double f = fio_iops("--ioengine=null --rw=randread --bs=4k --size=64m --rate_iops=400 "
                        "--runtime=2 --time_based --numjobs=2 --group_reporting",
                        0);
    if (f < 0)
        bl_skip_because("fio is not installed: benchlog's figure checked alone");
    printf("  fio:      %.1f IOPS\n", f);
    assert_true(bl_test_close(r->iops, f, 0.05));
    bl_records_free(&recs);
}

/* rate=512k at bs=4k is 128 IOPS per thread, here at QD8 on a real file: the bandwidth is the
 * rate, and the latency is the device's, not the waits between I/Os (7.8 ms each). */
static void test_rate_on_a_real_file_at_depth(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    const char *engines[] = {"libaio", "io_uring", "sync"};
    for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb,
                         "[r]\nioengine=%s\nrw=randwrite\nbs=4k\nsize=8m\nrate=512k\niodepth=8\n"
                         "direct=1\nruntime=2\ntime_based\n",
                         engines[e]);
        bl_records recs;
        int rc = run_text(sb.s, dir, &recs);
        bl_strbuf_free(&sb);
        if (rc != BL_RUN_OK && strcmp(engines[e], "io_uring") == 0) {
            printf("  io_uring cannot run here (printed above): left out\n");
            bl_records_free(&recs);
            continue;
        }
        assert_int_equal(rc, BL_RUN_OK);
        const bl_record *r = recs.v[0];
        printf("  %s: %.0f B/s, %.1f IOPS, lat mean %.0f us\n", engines[e], r->bw_bytes_s, r->iops,
               r->lat_ns.mean / 1000);
        /* A stall of the loaded machine near the end is not made up: up to 10% less. */
        assert_true(bl_test_close(r->bw_bytes_s, 512 * 1024, 0.10));
        assert_true(bl_test_close(r->iops * 4096, r->bw_bytes_s, 1e-9));
        /* The waits are 7.8 ms an I/O: held in flight through them, 8 I/Os would average
         * some 30 ms. A loaded disk stays well below 10 ms for 4 KiB (0.3-2.7 ms here). */
        assert_true(r->lat_ns.mean < 10e6);
        bl_records_free(&recs);
    }
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

/* rate_iops_min that the disk cannot give: fio stops the job after its second second with
 * "rate_iops_min=N not met" and err=5; so do we (exit 1, the figure in the message). */
static void test_rate_min_not_met_fails_as_fio(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_strbuf job, cmd;
    bl_strbuf_init(&job);
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(&job, "%s/m.fio", dir);
    FILE *f = fopen(job.s, "w");
    fprintf(f, "[m]\nioengine=sync\nrw=randread\ndirect=1\nbs=4k\nsize=16m\n"
               "rate_iops_min=1000000\nruntime=5\ntime_based\n");
    fclose(f);
    bl_strbuf_printf(&cmd, "run --db %s/m.db --target %s %s", dir, dir, job.s);
    char *out = NULL, *err = NULL;
    assert_int_equal(bl_test_benchlog(cmd.s, &out, &err), 1);
    printf("  benchlog: %s", err);
    assert_non_null(strstr(err, "job 'm': rate_iops_min 1000000 not met: "));
    assert_null(strstr(out, "stored")); /* no record of a failed job */
    free(out);
    free(err);
    if (system("command -v fio >/dev/null 2>&1") == 0) {
        bl_strbuf_free(&cmd);
        bl_strbuf_init(&cmd);
        bl_strbuf_printf(
            &cmd,
            "fio --name=m --filename=%s/f --ioengine=psync --rw=randread --direct=1 "
            "--bs=4k --size=16m --rate_iops_min=1000000 --runtime=5 --time_based "
            "--output-format=terse --terse-version=3 2>/dev/null | grep '^3;' | cut -d';' -f5",
            dir);
        FILE *p = popen(cmd.s, "r");
        int ferr = -1;
        assert_int_equal(fscanf(p, "%d", &ferr), 1);
        pclose(p);
        printf("  fio: job error %d (EIO)\n", ferr);
        assert_int_equal(ferr, 5);
        bl_strbuf free_path;
        bl_strbuf_init(&free_path);
        bl_strbuf_printf(&free_path, "%s/f", dir);
        unlink(free_path.s);
        bl_strbuf_free(&free_path);
    }
    bl_strbuf free_db;
    bl_strbuf_init(&free_db);
    bl_strbuf_printf(&free_db, "%s/m.db", dir);
    unlink(free_db.s);
    unlink(job.s);
    bl_strbuf_free(&free_db);
    bl_strbuf_free(&job);
    bl_strbuf_free(&cmd);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

static void test_rate_min_met_passes(void **state)
{
    (void)state;
    bl_records recs;
    assert_int_equal(run_text("[n]\nioengine=null\nrw=read\nbs=4k\nsize=64m\nrate_iops=400\n"
                              "rate_iops_min=100\nrate_min=100k\nruntime=2500ms\ntime_based\n",
                              NULL, &recs),
                     BL_RUN_OK);
    assert_true(bl_test_close(recs.v[0]->iops, 400, 0.05));
    bl_records_free(&recs);
}

static void test_what_rate_cannot_do_is_refused(void **state)
{
    (void)state;
    const struct {
        const char *text, *want;
        long line;
    } cases[] = {
        {"[a]\nrw=read\nrate=1m,512k\n", "rate': a rate for each direction ('1m,512k')", 3},
        {"[a]\nrw=read\nrate_iops=100,50\n", "rate_iops': a rate for each direction", 3},
        {"[a]\nrw=randrw\nrate=1m\n", "rate on a mixed job", 1},
        {"[a]\nrw=read\nrate=1m\nrate_iops=10\n", "rate and rate_iops: give one of them", 1},
        {"[a]\nrw=read\nrate_iops=0\n", "option 'rate_iops': 0 is out of range", 3},
        {"[a]\nrw=read\nrate_iops=10\nrate_iops_min=20\n", "minimum rate exceeds the rate", 1},
        {"[a]\nrw=randrw\nrate_min=1m\n", "rate_min on a mixed job", 1},
        {"[a]\nrw=read\nrate_min=1m,2m\n", "'rate_min': a rate for each direction", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bl_text t;
        char err[256];
        assert_int_equal(
            bl_text_from_bytes(&t, "r.fio", cases[i].text, strlen(cases[i].text), err, sizeof err),
            0);
        bl_diags out;
        bl_diags_init(&out, "r.fio");
        bl_jobs jobs = {0};
        assert_true(bl_jobfile_parse(&t, &jobs, &out) >= 1);
        if (!strstr(out.v[0].msg, cases[i].want))
            printf("got: %s\nwanted: %s\n", out.v[0].msg, cases[i].want);
        assert_non_null(strstr(out.v[0].msg, cases[i].want));
        assert_int_equal(out.v[0].line, cases[i].line);
        bl_jobs_free(&jobs);
        bl_diags_free(&out);
        bl_text_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_iops_as_fio),
        cmocka_unit_test(test_rate_on_a_real_file_at_depth),
        cmocka_unit_test(test_rate_min_not_met_fails_as_fio),
        cmocka_unit_test(test_rate_min_met_passes),
        cmocka_unit_test(test_what_rate_cannot_do_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
