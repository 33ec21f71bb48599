/* fio normal output: the blog post with six fio 2.0.5 runs, every corpus file, and
 * fio 3.33 normal output checked against the JSON+ of the same run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double pct(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (fabs(l->pct[i].pct - p) < 1e-9)
            return l->pct[i].value;
    return NAN;
}

/* Parses a corpus file (skipping when absent) and expects a clean parse. */
static int corpus(const char *rel, const char *as, bl_parse_out *o)
{
    char *path = bl_test_corpus(rel);
    if (!path)
        return 0;
    int rc = bl_test_parse(path, as, o);
    free(path);
    for (size_t i = 0; i < o->n_diags; i++)
        print_error("diag: %ld: %s\n", o->diags[i].line, o->diags[i].msg);
    assert_int_equal(rc, 0);
    return 1;
}

typedef struct blog_run {
    const char *job, *section, *test;
    double bw, iops, clat_mean, p1, p50, p999;
    int64_t bs;
} blog_run;

/* As printed in blog/000: bw in KB/s (x1024), clat avg and percentiles in their unit. */
static const blog_run blog_runs[] = {
    {"seqread", "シーケンシャルリード", "seq-read", 367715.0 * 1024, 359, 2.77e6, 2008e3, 2352e3,
     22912e3, 1048576},
    {"seqwrite", "シーケンシャルライト", "seq-write", 36115.0 * 1024, 35, 28.26e6, 14e6, 17e6,
     469e6, 1048576},
    {"randread512k", "ランダムリード 512k", "rand-read", 44493.0 * 1024, 86, 11.49e6, 1592e3,
     11712e3, 57088e3, 524288},
    {"randwrite512k", "ランダムライト 512k", "rand-write", 20329.0 * 1024, 39, 25.01e6, 5e6, 21e6,
     404e6, 524288},
    {"randread4k", "ランダムリード4k", "rand-read", 1796.1 * 1024, 449, 2215.24e3, 193e3, 466e3,
     28032e3, 4096},
    {"randwrite4k", "ランダムライト4k", "rand-write", 960935, 234, 4249.68e3, 294e3, 374e3, 78336e3,
     4096},
};

/* The fio runs only: the post's closing results table is the speed-table format's
 * (tests/test_speed_table.c). */
static void test_blog_six_runs(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("blog/000_bed2622bff3958ce.txt", "fio", &o))
        skip();
    assert_int_equal(o.recs.n, 6);
    for (size_t i = 0; i < 6; i++) {
        const blog_run *b = &blog_runs[i];
        const bl_record *r = o.recs.v[i];
        assert_string_equal(bl_record_label(r, "job"), b->job);
        assert_string_equal(r->tool, "fio");
        assert_string_equal(r->tool_version, "2.0.5");
        assert_string_equal(r->test, b->test);
        assert_int_equal(r->bs, b->bs);
        assert_int_equal(r->iodepth, 1);
        assert_string_equal(r->ioengine, "sync");
        assert_int_equal(r->run, (int64_t)i + 1);
        assert_double_equal(r->bw_bytes_s, b->bw, 1e-6);
        assert_double_equal(r->iops, b->iops, 0);
        assert_true(r->clat_ns.present);
        assert_double_equal(r->clat_ns.mean, b->clat_mean, 1e-6);
        assert_int_equal(r->clat_ns.n_pct, 15);
        assert_double_equal(pct(&r->clat_ns, 1), b->p1, 0);
        assert_double_equal(pct(&r->clat_ns, 50), b->p50, 0);
        assert_double_equal(pct(&r->clat_ns, 99.9), b->p999, 0);
    }
    const bl_record *r = o.recs.v[0];
    /* fio 2.0.5 printed io=1024.0MB (one loop over the 1 GiB file) but bw x runt and the
     * group's io=5120.0MB say 5 GiB moved: SPEC's example record. */
    assert_int_equal(r->io_bytes, 5368709120LL);
    assert_int_equal(r->size_bytes, 1073741824LL);
    assert_non_null(r->note);
    assert_int_equal(o.recs.v[1]->io_bytes, 5368709120LL); /* consistent: kept as printed */
    assert_null(o.recs.v[1]->note);
    /* "Laying out IO file(s) (1 file(s) / 1024MB)" / "(1 file(s) / 100MB)" */
    assert_int_equal(o.recs.v[1]->size_bytes, 1073741824LL);
    assert_int_equal(o.recs.v[4]->size_bytes, 100LL * 1048576);
    assert_int_equal(o.recs.v[4]->io_bytes, 307200LL * 1024);
    assert_double_equal(r->runtime_s, 14.258, 1e-12);
    assert_double_equal(r->cpu_usr_pct, 0.60, 1e-12);
    assert_double_equal(r->cpu_sys_pct, 18.26, 1e-12);
    assert_double_equal(r->clat_ns.min, 1e6, 0);
    assert_double_equal(r->clat_ns.max, 93e6, 0);
    assert_double_equal(r->clat_ns.stdev, 2.26e6, 0);
    assert_double_equal(r->bw_samples.min, 276866.0 * 1024, 0);
    assert_double_equal(r->bw_samples.mean, 367157.32 * 1024, 1e-6);
    assert_double_equal(r->lat_ns.mean, 2.77e6, 0);
    assert_false(r->slat_ns.present);
    bl_out_free(&o);
}

/* The heading each run stood under comes from parsers/sections.c (another part), the
 * last one written in Hatena markup ("** ランダムライト4k" followed by ">||"). Each only
 * names its run's test, so it is the run's test_heading. */
static void test_blog_sections(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("blog/000_bed2622bff3958ce.txt", "fio", &o))
        skip();
    assert_int_equal(o.recs.n, 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(bl_record_label(o.recs.v[i], "test_heading"), blog_runs[i].section);
    bl_out_free(&o);
}

static void test_corpus_old_style(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("fio-normal/fio-2.0.15_8jobs_no_group_reporting.txt", "fio", &o))
        skip();
    assert_int_equal(o.recs.n, 9); /* 8 jobs that ran at once and their total (test_fio_clones) */
    assert_string_equal(bl_record_label(o.recs.v[8], "scope"), "group total");
    const bl_record *r = o.recs.v[0];
    assert_int_equal(r->io_bytes, 1476 * 1024);
    assert_double_equal(r->bw_bytes_s, 356804, 0); /* "bw=356804 B/s" */
    assert_double_equal(r->iops, 72, 0);
    assert_double_equal(r->runtime_s, 4.236, 1e-12);
    assert_int_equal(r->numjobs, 1);
    assert_string_equal(r->test, "rand-write");
    bl_out_free(&o);

    if (!corpus("fio-normal/fio-2.0.1_version_with_space_no_lat.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 1);
    assert_string_equal(o.recs.v[0]->tool_version, "2.0.1");
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 4135.1 * 1024, 1e-6);
    assert_false(o.recs.v[0]->clat_ns.present);
    bl_out_free(&o);

    if (!corpus("fio-normal/fio-2.1.11_3groups_randrw_diskstats.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 4); /* randread, randwrite, randrw read + write */
    r = o.recs.v[0];
    assert_double_equal(r->iops, 3509500, 0); /* "iops=3509.5K" */
    assert_double_equal(r->bw_bytes_s, 27418.0 * 1048576, 0);
    assert_int_equal(r->numjobs, 768);
    assert_double_equal(r->clat_ns.mean, 216060, 0);
    assert_double_equal(r->bw_samples.mean, 36567.53 * 1024, 1e-6);
    assert_string_equal(o.recs.v[2]->test, "rand-read");
    assert_string_equal(o.recs.v[3]->test, "rand-write");
    assert_string_equal(bl_record_label(o.recs.v[3], "group"), "2");
    bl_out_free(&o);

    if (!corpus("fio-normal/fio-2.1.13_linux_4groups_diskstats.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 4);
    assert_double_equal(o.recs.v[0]->clat_ns.max, 4279.6e3 * 1e3, 1e-3); /* "max=4279.6K" */
    bl_out_free(&o);
}

static void test_corpus_wrapped_and_concatenated(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("fio-normal/fio-2.2.10_email_wrapped_md_raid1_2runs.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 2);
    assert_int_equal(o.recs.v[1]->run, 2);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 20683, 0); /* "bw=20683B/s" */
    assert_int_equal(o.recs.v[1]->io_bytes, 413696);
    assert_double_equal(o.recs.v[0]->slat_ns.mean, 3120, 1e-6);
    assert_double_equal(pct(&o.recs.v[0]->clat_ns, 99.99), 86000, 0);
    bl_out_free(&o);

    if (!corpus("fio-normal/fio-2.2.10_randwrite_8jobs_concat.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 5);
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(o.recs.v[i]->run, (int64_t)i + 1);
    assert_double_equal(o.recs.v[1]->bw_bytes_s, 89070.0 * 1024, 0);
    assert_double_equal(o.recs.v[0]->clat_ns.max, 1981.6e6, 1e-3);
    bl_out_free(&o);
}

static void test_corpus_new_style(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!corpus("fio-normal/fio-2.17_512threads_diskstats.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 1);
    const bl_record *r = o.recs.v[0];
    assert_double_equal(r->iops, 6839000, 0);
    assert_double_equal(r->bw_bytes_s, 26.1 * 1073741824.0, 1);
    assert_int_equal(r->io_bytes, 783LL * 1073741824LL);
    assert_double_equal(r->runtime_s, 30.029, 1e-12);
    assert_int_equal(r->numjobs, 512);
    assert_int_equal(r->bs, 4096); /* "bs=4096B-4096B,4096B-4096B,..." */
    assert_string_equal(r->tool_version, "2.17-17-g9cf1");
    bl_out_free(&o);

    if (!corpus("fio-normal/fio-2.99_8jobs_transitional.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 9); /* 8 jobs that ran at once and their total */
    assert_int_equal(o.recs.v[8]->numjobs, 8);
    r = o.recs.v[2];
    assert_double_equal(r->bw_bytes_s, 6056.0 * 1024, 0);
    assert_double_equal(r->bw_samples.max, 6344.0 * 1024, 0);
    assert_int_equal(r->bw_samples.count, 8);
    assert_double_equal(r->iops_samples.mean, 1497.50, 1e-9);
    bl_out_free(&o);

    if (!corpus("fio-normal/fio-3.25_fdatasync_sync_percentiles.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 1); /* the fsync block is not a direction */
    r = o.recs.v[0];
    assert_double_equal(r->clat_ns.mean, 13462.14, 1e-9);
    assert_double_equal(r->bw_bytes_s, 18.8 * 1048576, 1e-6);
    assert_int_equal(r->io_bytes, 22 * 1048576);
    /* "sync (usec): min=161, max=345, avg=192.48, stdev=20.09" and its percentiles */
    assert_true(r->sync_ns.present);
    assert_double_equal(r->sync_ns.min, 161000, 0);
    assert_double_equal(r->sync_ns.max, 345000, 0);
    assert_double_equal(r->sync_ns.mean, 192480, 1e-9);
    assert_double_equal(r->sync_ns.stdev, 20090, 1e-9);
    assert_int_equal(r->sync_ns.n_pct, 17);
    assert_double_equal(pct(&r->sync_ns, 99), 260000, 0);
    assert_double_equal(pct(&r->sync_ns, 99.99), 347000, 0);
    assert_double_equal(pct(&r->clat_ns, 99), 23168, 0); /* clat keeps its own block */
    bl_out_free(&o);

    if (!corpus("fio-normal/fio-3.26_8jobs_randwrite.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 9);
    assert_int_equal(o.recs.v[1]->io_bytes, 1512 * 1024);
    assert_double_equal(o.recs.v[1]->bw_samples.stdev, 38.23 * 1024, 1e-6);
    bl_out_free(&o);
}

/* A record of the JSON output with the same job, op and rank among equals. */
static const bl_record *twin(const bl_parse_out *o, const bl_record *r, size_t k)
{
    for (size_t i = 0; i < o->recs.n; i++) {
        const bl_record *x = o->recs.v[i];
        if (strcmp(bl_record_label(x, "job"), bl_record_label(r, "job")) == 0 &&
            strcmp(x->op, r->op) == 0 && k-- == 0)
            return x;
    }
    return NULL;
}

/* fixtures/fio/mix-3.33.out (--output-format=normal,json+ of one run) read in both forms. */
static void parse_mix_both(bl_parse_out *normal, bl_parse_out *json)
{
    char p[256];
    bl_test_fixture("fio/mix-3.33.out", p, sizeof p);
    assert_int_equal(bl_test_parse(p, "fio", normal), 0);
    assert_int_equal(bl_test_parse(p, "fio-json", json), 0);
}

/* fio prints 3 significant digits ("70.2MiB/s", "18.0k"): within 0.5% of the exact. */
static void check_against_json(const bl_record *n, const bl_record *j)
{
    assert_true(bl_test_close(n->bw_bytes_s, j->bw_bytes_s, 0.005));
    assert_true(bl_test_close(n->iops, j->iops, 0.005));
    assert_true(bl_test_close((double)n->io_bytes, (double)j->io_bytes, 0.005));
    assert_double_equal(n->runtime_s, j->runtime_s, 1e-12);
    /* means are printed with 2 decimals in usec or msec */
    assert_true(bl_test_close(n->clat_ns.mean, j->clat_ns.mean, 0.001));
    assert_double_equal(n->clat_ns.min, j->clat_ns.min, 1000);
    assert_true(bl_test_close(n->clat_ns.max, j->clat_ns.max, 0.001));
    assert_int_equal(n->clat_ns.n_pct, j->clat_ns.n_pct);
    for (size_t i = 0; i < n->clat_ns.n_pct; i++) {
        assert_double_equal(n->clat_ns.pct[i].pct, j->clat_ns.pct[i].pct, 0);
        /* printed in usec or nsec, truncated */
        assert_double_equal(n->clat_ns.pct[i].value, j->clat_ns.pct[i].value, 1000);
    }
    assert_int_equal(n->slat_ns.present, j->slat_ns.present);
    assert_true(bl_test_close(n->bw_samples.mean, j->bw_samples.mean, 0.0005));
    assert_int_equal(n->bw_samples.count, j->bw_samples.count);
    assert_double_equal(n->iops_samples.min, j->iops_samples.min, 0);
    assert_double_equal(n->cpu_sys_pct, j->cpu_sys_pct, 0.005);
    assert_string_equal(n->test, j->test);
    assert_int_equal(n->bs, j->bs);
    assert_int_equal(n->numjobs, j->numjobs);
    assert_int_equal(n->size_bytes, j->size_bytes); /* layout line vs size= option */
    assert_int_equal(n->size_bytes, 8 << 20);
}

static void test_fio333_normal_vs_json(void **state)
{
    (void)state;
    bl_parse_out n, j;
    parse_mix_both(&n, &j);
    /* rwmix (numjobs 2 without group_reporting): its two blocks' totals, read and write,
     * come after the run's job records, in both forms (test_fio_clones) */
    assert_int_equal(n.recs.n, 10);
    assert_int_equal(j.recs.n, 10);
    for (size_t i = 8; i < 10; i++) {
        assert_string_equal(bl_record_label(n.recs.v[i], "scope"), "group total");
        assert_string_equal(bl_record_label(n.recs.v[i], "job"), "rwmix");
        assert_int_equal(n.recs.v[i]->numjobs, 2);
        assert_string_equal(bl_record_label(j.recs.v[i], "scope"), "group total");
        assert_true(bl_test_close(n.recs.v[i]->bw_bytes_s, j.recs.v[i]->bw_bytes_s, 0.001));
    }
    for (size_t i = 0; i < 8; i++) { /* the jobs; their totals are compared above */
        const bl_record *r = n.recs.v[i];
        size_t k = 0;
        for (size_t m = 0; m < i; m++)
            k += strcmp(bl_record_label(n.recs.v[m], "job"), bl_record_label(r, "job")) == 0 &&
                 strcmp(n.recs.v[m]->op, r->op) == 0;
        const bl_record *x = twin(&j, r, k);
        assert_non_null(x);
        check_against_json(r, x);
    }
    const bl_record *t = n.recs.v[7];
    assert_string_equal(t->op, "trim");
    assert_string_equal(t->test, "rand-trim");
    assert_string_equal(n.recs.v[0]->ioengine, "libaio");
    assert_int_equal(n.recs.v[0]->iodepth, 4);
    assert_true(n.recs.v[0]->slat_ns.present);
    bl_out_free(&n);
    bl_out_free(&j);
}

/* "Disk stats" and JSON "disk_util" of one fio 3.33 run agree (ticks and in_queue are ms),
 * and every record of the run carries the devices. */
static void test_disk_stats(void **state)
{
    (void)state;
    bl_parse_out n, j;
    parse_mix_both(&n, &j);
    /* "vda: ios=38144/15816, merge=11/372, ticks=2843/14031, in_queue=16889, util=56.21%" */
    assert_int_equal(n.recs.n, 10);
    for (size_t i = 8; i < 10; i++) { /* the rwmix totals: the run's devices as well */
        assert_int_equal(n.recs.v[i]->n_disks, 1);
        assert_int_equal(n.recs.v[i]->disks[0].read_ios, 38144);
    }
    for (size_t i = 0; i < j.recs.n; i++) {
        const bl_record *rs[] = {n.recs.v[i], j.recs.v[i]};
        for (size_t k = 0; k < 2; k++) {
            assert_int_equal(rs[k]->n_disks, 1);
            const bl_disk *d = &rs[k]->disks[0];
            assert_string_equal(d->name, "vda");
            assert_int_equal(d->read_ios, 38144);
            assert_int_equal(d->write_ios, 15816);
            assert_int_equal(d->read_merges, 11);
            assert_int_equal(d->write_merges, 372);
            assert_double_equal(d->read_ticks_s, 2.843, 1e-12);
            assert_double_equal(d->write_ticks_s, 14.031, 1e-12);
            assert_double_equal(d->in_queue_s, 16.889, 1e-12);
        }
        assert_double_equal(rs[0]->disks[0].util_pct, 56.21, 1e-12);
        assert_double_equal(rs[1]->disks[0].util_pct, 56.214722, 1e-12);
    }
    bl_out_free(&n);
    bl_out_free(&j);
    /* blog/000: an md RAID under LVM; each run has its own block of six devices, but the
     * seqwrite run, pasted from another target: "sda: ios=2/25363, merge=0/1425,
     * ticks=37/778774, in_queue=778822, util=99.51%" */
    bl_parse_out o;
    if (!corpus("blog/000_bed2622bff3958ce.txt", "fio", &o))
        skip();
    for (size_t i = 0; i < o.recs.n; i++)
        assert_int_equal(o.recs.v[i]->n_disks, i == 1 ? 1 : 6);
    assert_string_equal(o.recs.v[1]->disks[0].name, "sda");
    assert_int_equal(o.recs.v[1]->disks[0].write_ios, 25363);
    assert_double_equal(o.recs.v[1]->disks[0].write_ticks_s, 778.774, 1e-12);
    assert_double_equal(o.recs.v[1]->disks[0].util_pct, 99.51, 1e-12);
    const bl_disk *d = o.recs.v[0]->disks;
    /* "dm-0: ios=81424/0, merge=0/0, ticks=113246/0, in_queue=113244, util=94.77%, aggrios=..." */
    assert_string_equal(d[0].name, "dm-0");
    assert_int_equal(d[0].read_ios, 81424);
    assert_double_equal(d[0].read_ticks_s, 113.246, 1e-12);
    assert_double_equal(d[0].util_pct, 94.77, 1e-12);
    /* "sda: ios=10240/6, merge=10240/3, ticks=14002/83, in_queue=14082, util=65.66%" */
    assert_string_equal(d[5].name, "sda");
    assert_int_equal(d[5].write_ios, 6);
    assert_int_equal(d[5].write_merges, 3);
    assert_double_equal(d[5].write_ticks_s, 0.083, 1e-12);
    assert_double_equal(d[5].in_queue_s, 14.082, 1e-12);
    /* the last run's own block: "dm-0: ios=1/77948, ... util=98.69%" */
    assert_int_equal(o.recs.v[5]->disks[0].write_ios, 77948);
    assert_double_equal(o.recs.v[5]->disks[0].util_pct, 98.69, 1e-12);
    bl_out_free(&o);
}

/* The job's latency buckets and IO depths: the normal output prints JSON's percentages
 * rounded (to 2 decimals, and 0.01 for anything smaller), and leaves out empty buckets. */
static void test_distributions(void **state)
{
    (void)state;
    bl_parse_out n, j;
    parse_mix_both(&n, &j);
    for (size_t i = 0; i < 8; i++) { /* not the rwmix totals: buckets cannot be added */
        const bl_dist *dn[] = {&n.recs.v[i]->lat_dist, &n.recs.v[i]->iodepth_dist};
        const bl_dist *dj[] = {&j.recs.v[i]->lat_dist, &j.recs.v[i]->iodepth_dist};
        for (size_t k = 0; k < 2; k++) {
            assert_true(dn[k]->n > 0);
            assert_int_equal(dn[k]->n, dj[k]->n);
            for (size_t b = 0; b < dn[k]->n; b++) {
                assert_double_equal(dn[k]->v[b].at, dj[k]->v[b].at, 0);
                double want = dj[k]->v[b].pct < 0.01 ? 0.01 : dj[k]->v[b].pct;
                assert_double_equal(dn[k]->v[b].pct, want, k ? 0.05 : 0.005);
            }
        }
    }
    /* randrw70: "lat (usec) : 250=61.91%" and "lat (msec) : 2=0.22%"; "IO depths : 4=100.0%" */
    const bl_dist *l = &n.recs.v[0]->lat_dist;
    assert_double_equal(l->v[5].at, 250e3, 0);
    assert_double_equal(l->v[5].pct, 61.91, 1e-12);
    assert_double_equal(l->v[9].at, 2e6, 0);
    assert_double_equal(n.recs.v[0]->iodepth_dist.v[2].at, 4, 0);
    assert_double_equal(n.recs.v[0]->iodepth_dist.v[2].pct, 100, 0);
    bl_out_free(&n);
    bl_out_free(&j);
    /* blog/000 seqread (fio 2.0.5): "lat (msec) : 2=0.59%, 4=92.13%, 10=6.66%, 20=0.49%,
     * 50=0.10%" then "lat (msec) : 100=0.04%"; "IO depths : 1=100.0%, 2=0.0%, ..." */
    bl_parse_out o;
    if (!corpus("blog/000_bed2622bff3958ce.txt", "fio", &o))
        skip();
    l = &o.recs.v[0]->lat_dist;
    static const double at[] = {2e6, 4e6, 10e6, 20e6, 50e6, 100e6};
    static const double pct[] = {0.59, 92.13, 6.66, 0.49, 0.10, 0.04};
    assert_int_equal(l->n, 6);
    for (size_t b = 0; b < 6; b++) {
        assert_double_equal(l->v[b].at, at[b], 0);
        assert_double_equal(l->v[b].pct, pct[b], 1e-12);
    }
    assert_int_equal(o.recs.v[0]->iodepth_dist.n, 1);
    assert_double_equal(o.recs.v[0]->iodepth_dist.v[0].pct, 100, 0);
    bl_out_free(&o);
}

/* fsync/fdatasync latency: the normal output's sync block and the JSON+ "sync" object of
 * the same fio 3.33 run agree, and belong to the write side only. */
static void test_fio333_sync_latency(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out n, j;
    assert_int_equal(bl_test_parse(bl_test_fixture("fio/sync-3.33.out", p, sizeof p), "fio", &n),
                     0);
    assert_int_equal(bl_test_parse(p, "fio-json", &j), 0);
    assert_int_equal(n.recs.n, 3); /* etcd write; mixsync read and write */
    assert_int_equal(j.recs.n, 3);
    for (size_t i = 0; i < n.recs.n; i++) {
        const bl_record *a = n.recs.v[i], *b = twin(&j, a, 0);
        assert_non_null(b);
        int write = strcmp(a->op, "write") == 0;
        assert_int_equal(a->sync_ns.present, write);
        assert_int_equal(b->sync_ns.present, write);
        if (!write)
            continue;
        /* usec with 2 decimals for avg/stdev, whole usec for min/max and percentiles */
        assert_true(bl_test_close(a->sync_ns.mean, b->sync_ns.mean, 0.001));
        assert_double_equal(a->sync_ns.min, b->sync_ns.min, 1000);
        assert_double_equal(a->sync_ns.max, b->sync_ns.max, 1000);
        assert_int_equal(a->sync_ns.n_pct, 17);
        assert_int_equal(b->sync_ns.n_pct, 17);
        for (size_t k = 0; k < 17; k++)
            assert_double_equal(a->sync_ns.pct[k].value, b->sync_ns.pct[k].value, 1000);
        assert_true(b->sync_ns.n_bins > 0); /* JSON+ keeps the bins */
        /* a sync takes longer than the 4k buffered write it follows */
        assert_true(a->sync_ns.mean > a->clat_ns.mean);
    }
    bl_out_free(&n);
    bl_out_free(&j);
}

/* "terse,normal" and "normal,json+,terse" in one file: the driver keeps one record per
 * job and direction, from the best form. */
static void test_mixed_forms_one_record_each(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out o;
    assert_int_equal(bl_test_parse(bl_test_fixture("fio/mix-3.33.out", p, sizeof p), NULL, &o), 0);
    /* 8 job directions and the 2 totals of rwmix's numjobs=2 clones, once each */
    assert_int_equal(o.recs.n, 10);
    assert_true(o.recs.v[0]->clat_ns.n_bins > 100); /* JSON+ won */
    bl_out_free(&o);

    if (!corpus("fio-terse/fio-3.28_terse3_plus_normal_8groups.txt", NULL, &o))
        skip();
    assert_int_equal(o.recs.n, 8);
    for (size_t i = 0; i < o.recs.n; i++)
        assert_non_null(o.recs.v[i]->test); /* rw taken from the job header lines */
    bl_out_free(&o);
}

/* unified_rw_reporting=1: one "mixed" direction, no op, in both forms of one run. */
static void test_unified_mixed(void **state)
{
    (void)state;
    char p[256];
    bl_parse_out n, j;
    const char *path = bl_test_fixture("fio/unified-3.33.out", p, sizeof p);
    assert_int_equal(bl_test_parse(path, "fio", &n), 0);
    assert_int_equal(bl_test_parse(path, "fio-json", &j), 0);
    assert_int_equal(n.recs.n, 1);
    assert_int_equal(j.recs.n, 1);
    const bl_record *a = n.recs.v[0], *b = j.recs.v[0];
    assert_null(a->op);
    assert_null(b->op);
    assert_string_equal(bl_record_label(a, "ddir"), "mixed");
    assert_string_equal(bl_record_label(b, "ddir"), "mixed");
    assert_true(bl_test_close(a->bw_bytes_s, b->bw_bytes_s, 0.005));
    assert_true(bl_test_close(a->iops, b->iops, 0.005));
    assert_true(bl_test_close(a->clat_ns.mean, b->clat_ns.mean, 0.001));
    assert_int_equal(a->clat_ns.n_pct, b->clat_ns.n_pct);
    bl_out_free(&n);
    bl_out_free(&j);
}

static void test_bad_direction_line_reported(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/bad.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("a: (g=0): rw=read, bs=4K-4K/4K-4K, ioengine=sync, iodepth=1\n"
          "fio 2.0.5\n"
          "a: (groupid=0, jobs=1): err= 0: pid=1\n"
          "  read : io=10MB, bw=??KB/s, iops=?? , runt= 100msec\n"
          "b: (groupid=0, jobs=1): err= 0: pid=2\n"
          "  read : io=10MB, bw=100KB/s, iops=25 , runt= 100msec\n"
          "    clat (usec): min=1, max=2, avg= 1.50, stdev= 0.50\n",
          f);
    fclose(f);
    bl_parse_out o;
    assert_int_equal(bl_test_parse(path, "fio", &o), 1);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 4);
    assert_non_null(strstr(o.diags[0].msg, "bandwidth"));
    const bl_record *b = bl_test_nth(&o, "job", "b", 0);
    assert_non_null(b);
    assert_double_equal(b->bw_bytes_s, 102400, 0);
    assert_double_equal(b->clat_ns.mean, 1500, 0);
    bl_out_free(&o);
    unlink(path);
    rmdir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blog_six_runs),
        cmocka_unit_test(test_blog_sections),
        cmocka_unit_test(test_corpus_old_style),
        cmocka_unit_test(test_corpus_wrapped_and_concatenated),
        cmocka_unit_test(test_corpus_new_style),
        cmocka_unit_test(test_fio333_normal_vs_json),
        cmocka_unit_test(test_fio333_sync_latency),
        cmocka_unit_test(test_disk_stats),
        cmocka_unit_test(test_distributions),
        cmocka_unit_test(test_mixed_forms_one_record_each),
        cmocka_unit_test(test_unified_mixed),
        cmocka_unit_test(test_bad_direction_line_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
