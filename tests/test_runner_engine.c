/* The engines move real bytes: file contents after writes, I/O counts against what the job
 * asked, full coverage of random passes, latencies consistent, the O_DIRECT fallback, logs in
 * fio's format, refusals and clean-up of the scratch file. Sizes are small, files in /tmp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/engine.h"
#include "../runner/runner.h"
#include "../runner/suites.h"
#include "../runner/target.h"
#include "support/runjob.h"
#include "support/support.h"
#include <dirent.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *path_in(const char *dir, const char *name)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/%s", dir, name);
    return bl_strbuf_take(&sb);
}

static void zero_file(const char *path, size_t size)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)size), 0);
    close(fd);
}

static unsigned char *slurp(const char *path, size_t *n)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    *n = (size_t)st.st_size;
    unsigned char *b = malloc(*n ? *n : 1);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(read(fd, b, *n), (ssize_t)*n);
    close(fd);
    return b;
}

static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
    closedir(d);
    return n;
}

static void rm_dir(char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            char *p = path_in(dir, e->d_name);
            unlink(p);
            free(p);
        }
    closedir(d);
    rmdir(dir);
    free(dir);
}

/* Parses a job text and runs it; returns the runner's status. */
static int run_text(const char *text, const bl_run_opts *o, bl_records *out)
{
    return bl_test_run_jobtext(text, *o, out);
}

static uint64_t total_bins(const bl_lat *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        n += l->bins[i].count;
    return n;
}

static void test_seq_write_moves_unique_bytes(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char *file = path_in(dir, "data");
    zero_file(file, 4 << 20);
    bl_run_opts o = {.target = file, .allow_overwrite = true};
    bl_records recs;
    assert_int_equal(run_text("[w]\nrw=write\nbs=64k\nsize=4m\n", &o, &recs), BL_RUN_OK);
    assert_int_equal(recs.n, 1);
    const bl_record *r = recs.v[0];
    assert_string_equal(r->tool, "benchlog");
    assert_string_equal(r->test, "seq-write");
    assert_string_equal(r->op, "write");
    assert_int_equal(r->io_bytes, 4 << 20);
    assert_int_equal(r->size_bytes, 4 << 20);
    assert_int_equal(r->bs, 65536);
    assert_true(bl_test_close(r->iops * r->runtime_s, 64, 1e-9));
    assert_true(bl_test_close(r->bw_bytes_s * r->runtime_s, 4 << 20, 1e-9));
    assert_int_equal(total_bins(&r->clat_ns), 64);
    assert_false(r->slat_ns.present); /* sync: no submission step */
    assert_double_equal(r->lat_ns.mean, r->clat_ns.mean, 0);
    /* The file now holds data where there were zeros, and no two 4 KiB blocks are alike:
     * deduplicating storage cannot shortcut it. */
    size_t n;
    unsigned char *b = slurp(file, &n);
    assert_int_equal(n, 4 << 20);
    uint64_t *stamps = calloc(n / 4096, sizeof *stamps);
    for (size_t blk = 0; blk < n / 4096; blk++) {
        memcpy(&stamps[blk], b + blk * 4096, 8);
        size_t zeros = 0;
        for (size_t k = 0; k < 4096; k++)
            zeros += b[blk * 4096 + k] == 0;
        assert_true(zeros < 64); /* random bytes: ~16 zeros in 4096 */
        for (size_t p = 0; p < blk; p++)
            assert_true(stamps[p] != stamps[blk] ||
                        memcmp(b + p * 4096, b + blk * 4096, 4096) != 0);
    }
    free(stamps);
    free(b);
    bl_records_free(&recs);
    free(file);
    rm_dir(dir);
}

static void test_random_pass_covers_every_block_once(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char *file = path_in(dir, "data");
    zero_file(file, 3 << 20);
    bl_run_opts o = {.target = file, .allow_overwrite = true};
    bl_records recs;
    /* 768 blocks: not a power of two, so the permutation walks past the end and skips. */
    assert_int_equal(
        run_text("[rw]\nrw=randwrite\nbs=4k\nsize=3m\nioengine=libaio\niodepth=8\ndirect=1\n", &o,
                 &recs),
        BL_RUN_OK);
    const bl_record *r = recs.v[0];
    assert_string_equal(r->test, "rand-write");
    assert_string_equal(r->pattern, "rand");
    assert_int_equal(r->io_bytes, 3 << 20);
    assert_int_equal(total_bins(&r->clat_ns), 768);
    assert_true(r->slat_ns.present);
    size_t n;
    unsigned char *b = slurp(file, &n);
    /* 768 writes of 4 KiB over 768 blocks, and not one block left at zero: each once. */
    for (size_t blk = 0; blk < n / 4096; blk++) {
        size_t zeros = 0;
        for (size_t k = 0; k < 4096; k++)
            zeros += b[blk * 4096 + k] == 0;
        assert_true(zeros < 4096);
    }
    free(b);
    bl_records_free(&recs);
    free(file);
    rm_dir(dir);
}

/* The offset generator alone: a random pass hits every block exactly once, whatever the
 * number of blocks, and the next pass is a different order. */
static void test_random_map_is_a_permutation(void **state)
{
    (void)state;
    uint64_t sizes[] = {1, 2, 3, 7, 64, 1000, 4097, 65536};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        bl_job j;
        bl_job_defaults(&j);
        j.random = true;
        j.bs = 4096;
        bl_worker w;
        memset(&w, 0, sizeof w);
        w.job = &j;
        w.nblocks = sizes[s];
        w.rng = 12345 + s;
        unsigned char buf[4096];
        unsigned char *seen = calloc(sizes[s], 1);
        uint64_t head[2][8] = {{0}};
        for (int pass = 0; pass < 2; pass++) {
            memset(seen, 0, sizes[s]);
            for (uint64_t i = 0; i < sizes[s]; i++) {
                bl_io io;
                bl_next_io(&w, &io, buf);
                uint64_t blk = io.off / 4096;
                assert_true(blk < sizes[s]);
                assert_int_equal(seen[blk], 0);
                seen[blk] = 1;
                if (i < 8)
                    head[pass][i] = blk;
            }
        }
        if (sizes[s] >= 1000)
            assert_memory_not_equal(head[0], head[1], sizeof head[0]);
        free(seen);
        bl_job_free(&j);
    }
}

static void test_libaio_read_latencies(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_run_opts o = {.target = dir};
    bl_records recs;
    assert_int_equal(run_text("[r]\nrw=randread\nbs=4k\nsize=4m\nioengine=libaio\niodepth=16\n"
                              "direct=1\nloops=2\n",
                              &o, &recs),
                     BL_RUN_OK);
    const bl_record *r = recs.v[0];
    assert_int_equal(r->io_bytes, 8 << 20); /* two passes */
    assert_int_equal(r->iodepth, 16);
    assert_string_equal(r->ioengine, "libaio");
    assert_int_equal(r->direct, BL_TRUE);
    assert_int_equal(total_bins(&r->clat_ns), 2048);
    assert_int_equal(total_bins(&r->slat_ns), 2048);
    assert_int_equal(total_bins(&r->lat_ns), 2048);
    assert_true(r->clat_ns.min <= r->clat_ns.mean && r->clat_ns.mean <= r->clat_ns.max);
    /* lat = slat + clat for each I/O, so the means add up. */
    assert_true(bl_test_close(r->lat_ns.mean, r->slat_ns.mean + r->clat_ns.mean, 1e-9));
    assert_true(r->lat_ns.min >= r->clat_ns.min);
    assert_int_equal(r->clat_ns.n_pct, 17);
    /* Thread CPU time is tick-sampled: it may round to 0 on a run this short. */
    assert_true(bl_present(r->cpu_usr_pct) && bl_present(r->cpu_sys_pct));
    assert_true(r->cpu_usr_pct >= 0 && r->cpu_sys_pct >= 0 &&
                r->cpu_usr_pct + r->cpu_sys_pct < 150);
    /* Labels of the machine and the target. */
    assert_string_equal(bl_record_label(r, "fs"), "ext4");
    assert_non_null(bl_record_label(r, "kernel"));
    assert_non_null(bl_record_label(r, "host"));
    assert_non_null(bl_record_label(r, "date"));
    assert_string_equal(bl_record_label(r, "job"), "r");
    /* The scratch file was removed. */
    assert_int_equal(dir_entries(dir), 0);
    bl_records_free(&recs);
    rm_dir(dir);
}

static void test_mixed_and_group_reporting(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_run_opts o = {.target = dir};
    bl_records recs;
    assert_int_equal(run_text("[m]\nrw=randrw\nrwmixread=70\nbs=4k\nsize=4m\n", &o, &recs),
                     BL_RUN_OK);
    assert_int_equal(recs.n, 2);
    const bl_record *rd = recs.v[0], *wr = recs.v[1];
    assert_string_equal(rd->op, "read");
    assert_string_equal(wr->op, "write");
    int64_t ios = (rd->io_bytes + wr->io_bytes) / 4096;
    assert_int_equal(ios, 1024); /* one pass over 4 MiB in 4 KiB, split between the two */
    double share = (double)rd->io_bytes / (double)(rd->io_bytes + wr->io_bytes);
    assert_true(share > 0.6 && share < 0.8);
    bl_records_free(&recs);

    assert_int_equal(
        run_text("[g]\nrw=read\nbs=64k\nsize=2m\nnumjobs=3\ngroup_reporting\n", &o, &recs),
        BL_RUN_OK);
    assert_int_equal(recs.n, 1);
    assert_int_equal(recs.v[0]->numjobs, 3);
    assert_int_equal(recs.v[0]->io_bytes, 3 * (2 << 20)); /* each thread one pass */
    bl_records_free(&recs);

    /* Two jobs at once (no stonewall): folded by group_reporting, unless new_group splits. */
    const char *two = "[global]\nrw=read\nbs=64k\nsize=1m\ngroup_reporting\n[a]\n[b]\n";
    assert_int_equal(run_text(two, &o, &recs), BL_RUN_OK);
    assert_int_equal(recs.n, 1);
    assert_int_equal(recs.v[0]->numjobs, 2);
    assert_int_equal(recs.v[0]->io_bytes, 2 << 20);
    bl_records_free(&recs);
    const char *split =
        "[global]\nrw=read\nbs=64k\nsize=1m\ngroup_reporting\n[a]\n[b]\nnew_group\n";
    assert_int_equal(run_text(split, &o, &recs), BL_RUN_OK);
    assert_int_equal(recs.n, 2);
    assert_string_equal(bl_record_label(recs.v[0], "job"), "a");
    assert_string_equal(bl_record_label(recs.v[1], "job"), "b");
    assert_int_equal(recs.v[1]->io_bytes, 1 << 20);
    bl_records_free(&recs);
    rm_dir(dir);
}

static void test_null_engine_time_based(void **state)
{
    (void)state;
    bl_run_opts o = {0};
    bl_records recs;
    assert_int_equal(run_text("[n]\nioengine=null\nrw=randread\nbs=4k\nsize=64m\ntime_based\n"
                              "runtime=1200ms\n",
                              &o, &recs),
                     BL_RUN_OK);
    const bl_record *r = recs.v[0];
    assert_true(r->runtime_s >= 1.199 && r->runtime_s < 3);
    assert_true(r->iops > 100000);       /* no I/O: only the engine's bookkeeping */
    assert_true(r->io_bytes > 64 << 20); /* time based: wraps past the size */
    assert_true(r->bw_samples.present);
    assert_true(r->bw_samples.count >= 2);
    assert_true(r->n_series == 2 && r->series[0].n == (size_t)r->bw_samples.count);
    assert_true(bl_test_close(r->iops_samples.mean * 4096, r->bw_samples.mean, 1e-9));
    bl_records_free(&recs);

    /* A size-based job with a ramp still measures exactly its size times loops. */
    assert_int_equal(run_text("[z]\nioengine=null\nrw=read\nbs=4k\nsize=16m\nloops=400\n"
                              "iodepth=8\nramp_time=5ms\n",
                              &o, &recs),
                     BL_RUN_OK);
    assert_int_equal(recs.v[0]->io_bytes, 400ll * (16 << 20));
    bl_records_free(&recs);
}

/* fio's behaviour: the sync engine cannot queue, so iodepth=32 runs and is recorded as 1. */
static void test_sync_engine_records_the_depth_it_ran(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_run_opts o = {.target = dir};
    bl_records recs;
    assert_int_equal(
        run_text("[s]\nrw=randread\nbs=4k\nsize=1m\nioengine=psync\niodepth=32\n", &o, &recs),
        BL_RUN_OK);
    const bl_record *r = recs.v[0];
    assert_int_equal(r->iodepth, 1);
    assert_string_equal(r->ioengine, "sync");
    assert_string_equal(r->note, "iodepth=32 asked; the sync engine ran one I/O at a time");
    /* Every one of the 256 reads was issued with nothing else in flight. */
    assert_int_equal(r->iodepth_dist.n, 7);
    assert_true(r->iodepth_dist.v[0].at == 1 && r->iodepth_dist.v[0].pct == 100);
    assert_true(r->iodepth_dist.v[6].ge && r->iodepth_dist.v[6].at == 64);
    assert_int_equal(r->io_bytes, 1 << 20);
    bl_records_free(&recs);
    rm_dir(dir);
}

static const bl_series *series_of(const bl_record *r, const char *name)
{
    for (size_t i = 0; i < r->n_series; i++)
        if (strcmp(r->series[i].name, name) == 0)
            return &r->series[i];
    return NULL;
}

/* A suite keeps CrystalDiskMark's pick and every pass beside it: "best of 3" can be checked
 * afterwards, and each picked figure names its pass. */
static void test_suite_stores_every_pass(void **state)
{
    (void)state;
    static const bl_suite_test tests[] = {{"RND4K Q1T1", true, 4096, 1, 1}};
    const bl_suite s = {"t", "test", 4u << 20, 3, 0.1, 0.1, 0, 1, tests};
    char *dir = bl_test_tmpdir();
    bl_run_opts o = {.target = dir, .msg = fopen("/dev/null", "w")};
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_run_suite(&s, &o, &recs), BL_RUN_OK);
    fclose(o.msg);
    assert_int_equal(recs.n, 2); /* the picks only: passes do not count as runs in reports */
    for (size_t k = 0; k < 2; k++) {
        const bl_record *r = recs.v[k];
        const bl_series *bw = series_of(r, "pass_bw"), *io = series_of(r, "pass_iops"),
                        *lat = series_of(r, "pass_lat_mean");
        assert_non_null(bw);
        assert_non_null(io);
        assert_non_null(lat);
        assert_string_equal(bw->unit, "bytes/s");
        assert_int_equal(bw->n, 4); /* the warm-up (t = 0) and passes 1..3 */
        assert_int_equal(io->n, 4);
        assert_int_equal(lat->n, 4);
        double max_bw = 0, max_io = 0, min_lat = 1e30;
        for (size_t i = 0; i < 4; i++) {
            assert_double_equal(bw->t[i], (double)i, 0);
            assert_true(bw->v[i] > 0 && io->v[i] > 0 && lat->v[i] > 0);
            if (i == 0)
                continue; /* the warm-up is never picked */
            max_bw = bw->v[i] > max_bw ? bw->v[i] : max_bw;
            max_io = io->v[i] > max_io ? io->v[i] : max_io;
            min_lat = lat->v[i] < min_lat ? lat->v[i] : min_lat;
        }
        int pb = atoi(bl_record_label(r, "cdm_pick_pass"));
        int pi = atoi(bl_record_label(r, "cdm_pick_iops_pass"));
        int pl = atoi(bl_record_label(r, "cdm_pick_lat_pass"));
        assert_true(pb >= 1 && pb <= 3 && pi >= 1 && pi <= 3 && pl >= 1 && pl <= 3);
        assert_double_equal(r->bw_bytes_s, max_bw, 0);
        assert_double_equal(bw->v[pb], max_bw, 0);
        assert_double_equal(r->iops, max_io, 0);
        assert_double_equal(io->v[pi], max_io, 0);
        assert_double_equal(r->lat_ns.mean, min_lat, 0);
        assert_double_equal(lat->v[pl], min_lat, 0);
        assert_string_equal(bl_record_label(r, "cdm_pick"), "best of 3");
    }
    bl_records_free(&recs);
    rm_dir(dir);
}

static void test_odirect_fallback(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_run_opts o = {.target = dir, .no_direct = true};
    bl_records recs;
    assert_int_equal(
        run_text("[d]\nrw=read\nbs=4k\nsize=1m\ndirect=1\nioengine=libaio\niodepth=4\n", &o, &recs),
        BL_RUN_OK);
    const bl_record *r = recs.v[0];
    assert_int_equal(r->direct, BL_FALSE);
    assert_non_null(bl_record_label(r, "direct_fallback"));
    assert_int_equal(r->io_bytes, 1 << 20);
    bl_records_free(&recs);
    rm_dir(dir);

    /* A tmpfs folder, buffered: works and says tmpfs. */
    char tmpl[] = "/dev/shm/benchlog-test-XXXXXX";
    if (!mkdtemp(tmpl))
        bl_skip_because("no /dev/shm tmpfs to make a folder in");
    bl_run_opts t = {.target = tmpl};
    assert_int_equal(run_text("[s]\nrw=write\nbs=4k\nsize=1m\n", &t, &recs), BL_RUN_OK);
    assert_string_equal(bl_record_label(recs.v[0], "fs"), "tmpfs");
    assert_int_equal(recs.v[0]->io_bytes, 1 << 20);
    bl_records_free(&recs);
    rm_dir(bl_xstrdup(tmpl));
}

static void test_fio_logs(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char *prefix = path_in(dir, "mixed");
    bl_strbuf job;
    bl_strbuf_init(&job);
    bl_strbuf_printf(&job,
                     "[mixed]\nrw=randrw\nrwmixread=70\nbs=4k\nsize=2m\nioengine=libaio\n"
                     "iodepth=4\nwrite_lat_log=%s\nwrite_bw_log=%s\nlog_avg_msec=0\n",
                     prefix, prefix);
    bl_run_opts o = {.target = dir};
    bl_records recs;
    assert_int_equal(run_text(job.s, &o, &recs), BL_RUN_OK);
    int64_t reads = recs.v[0]->io_bytes / 4096, writes = recs.v[1]->io_bytes / 4096;
    char *clat = path_in(dir, "mixed_clat.1.log");
    FILE *f = fopen(clat, "r");
    assert_non_null(f);
    unsigned long long t, v, bs, prio;
    unsigned d;
    int64_t n[2] = {0, 0};
    while (fscanf(f, "%llu, %llu, %u, %llu, %llu", &t, &v, &d, &bs, &prio) == 5) {
        assert_true(d <= 1);
        assert_int_equal(bs, 4096);
        assert_true(v >= (unsigned long long)recs.v[d]->clat_ns.min &&
                    v <= (unsigned long long)recs.v[d]->clat_ns.max);
        n[d]++;
    }
    fclose(f);
    /* One line per I/O, in the right direction. */
    assert_int_equal(n[0], reads);
    assert_int_equal(n[1], writes);
    char *slat = path_in(dir, "mixed_slat.1.log"), *bw = path_in(dir, "mixed_bw.1.log");
    struct stat st;
    assert_int_equal(stat(slat, &st), 0);
    assert_int_equal(stat(bw, &st), 0);
    /* Read back by our own fio-log parser: the same latencies, I/O for I/O. */
    if (bl_format_find("fio-log")) {
        bl_parse_out po;
        bl_test_parse(clat, "fio-log", &po);
        assert_int_equal(po.recs.n, 2);
        for (size_t i = 0; i < 2; i++) {
            const bl_record *back = po.recs.v[i];
            const bl_record *ours = strcmp(back->op, "read") == 0 ? recs.v[0] : recs.v[1];
            assert_string_equal(back->op, ours->op);
            assert_double_equal(back->clat_ns.min, ours->clat_ns.min, 0);
            assert_double_equal(back->clat_ns.max, ours->clat_ns.max, 0);
            assert_true(bl_test_close(back->clat_ns.mean, ours->clat_ns.mean, 1e-9));
        }
        bl_out_free(&po);
    }
    free(slat);
    free(bw);
    free(clat);
    bl_records_free(&recs);
    bl_strbuf_free(&job);
    free(prefix);
    rm_dir(dir);
}

typedef struct swapper {
    const char *dir, *victim;
    int swapped;
} swapper;

/* Waits for the scratch file to appear, then renames a symlink to the victim over it. */
static void *swap_for_symlink(void *p)
{
    swapper *sw = p;
    for (int tries = 0; tries < 200000 && !sw->swapped; tries++) {
        DIR *d = opendir(sw->dir);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (strncmp(e->d_name, ".benchlog-", 10) == 0) {
                char *scratch = path_in(sw->dir, e->d_name), *link = path_in(sw->dir, "swap");
                if (symlink(sw->victim, link) == 0 && rename(link, scratch) == 0)
                    sw->swapped = 1;
                free(scratch);
                free(link);
                break;
            }
        if (d)
            closedir(d);
        usleep(50);
    }
    return NULL;
}

/* The scratch file is replaced by a symlink to someone's file while the run writes: the run
 * goes on in the file it made (one descriptor, nothing reopened by name), the link's target
 * keeps every byte, and the clean-up does not remove what is not ours. */
static void test_scratch_swapped_for_a_symlink(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *other = bl_test_tmpdir();
    char *victim = path_in(other, "victim");
    FILE *f = fopen(victim, "w");
    fputs("root's precious file\n", f);
    fclose(f);
    swapper sw = {.dir = dir, .victim = victim};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, swap_for_symlink, &sw), 0);
    bl_run_opts o = {.target = dir};
    bl_records recs;
    int rc = run_text("[w]\nrw=write\nbs=64k\nsize=32m\nioengine=sync\ntime_based\n"
                      "runtime=300ms\n",
                      &o, &recs);
    pthread_join(th, NULL);
    assert_true(sw.swapped);
    assert_int_equal(rc, BL_RUN_OK);
    assert_true(recs.v[0]->io_bytes > 0);
    size_t n;
    unsigned char *b = slurp(victim, &n);
    assert_int_equal(n, 21);
    assert_memory_equal(b, "root's precious file\n", 21);
    free(b);
    /* The symlink left in the scratch file's place is not ours: it stays. */
    assert_int_equal(dir_entries(dir), 1);
    bl_records_free(&recs);
    free(victim);
    rm_dir(dir);
    rm_dir(other);
}

static void test_refusals(void **state)
{
    /* A --runtime past the limit is refused before anything runs (it overflowed a cast to
     * 0 bytes and "nan MB/s", exit 0). */
    bl_run_opts huge = {.runtime_s = 1e12};
    bl_records none;
    assert_int_equal(run_text("[n]\nioengine=null\nsize=1m\n", &huge, &none), BL_RUN_FAILED);
    assert_int_equal(none.n, 0);
    bl_records_free(&none);

    (void)state;
    char *dir = bl_test_tmpdir();
    char *file = path_in(dir, "precious");
    FILE *f = fopen(file, "w");
    fputs("keep me\n", f);
    fclose(f);
    bl_run_opts o = {.target = file};
    bl_records recs;
    assert_int_equal(run_text("[w]\nrw=write\nbs=4k\nsize=1m\n", &o, &recs), BL_RUN_FAILED);
    assert_int_equal(recs.n, 0);
    size_t n;
    unsigned char *b = slurp(file, &n);
    assert_int_equal(n, 8);
    assert_memory_equal(b, "keep me\n", 8);
    free(b);
    bl_records_free(&recs);

    /* More than the disk holds: refused before a byte is written, nothing left behind. */
    bl_run_opts big = {.target = dir};
    assert_int_equal(run_text("[w]\nrw=write\nbs=1m\nsize=1p\n", &big, &recs), BL_RUN_FAILED);
    assert_int_equal(dir_entries(dir), 1); /* only "precious" */
    bl_records_free(&recs);

    /* Interrupted before it starts: no records, scratch file removed. */
    volatile sig_atomic_t stop = 1;
    bl_run_opts in = {.target = dir, .interrupt = &stop};
    assert_int_equal(run_text("[w]\nrw=write\nbs=4k\nsize=1m\n", &in, &recs), BL_RUN_INTERRUPTED);
    assert_int_equal(recs.n, 0);
    assert_int_equal(dir_entries(dir), 1);
    bl_records_free(&recs);
    free(file);
    rm_dir(dir);
}

static void test_block_device_refused(void **state)
{
    (void)state;
    /* Only the refusal is exercised: bl_target_get opens nothing for writing. */
    const char *cands[] = {"/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/loop0", "/dev/xvda"};
    const char *dev = NULL;
    struct stat st;
    for (size_t i = 0; i < sizeof cands / sizeof cands[0] && !dev; i++)
        if (stat(cands[i], &st) == 0 && S_ISBLK(st.st_mode))
            dev = cands[i];
    if (!dev)
        bl_skip_because("no block device to probe (/dev/vda, /dev/sda, ...)");
    bl_targets ts = {0};
    char err[512];
    assert_null(bl_target_get(&ts, dev, "x", 4096, err, sizeof err));
    assert_non_null(strstr(err, "block device"));
    assert_non_null(strstr(err, "--allow-overwrite"));
    bl_targets_cleanup(&ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seq_write_moves_unique_bytes),
        cmocka_unit_test(test_random_pass_covers_every_block_once),
        cmocka_unit_test(test_random_map_is_a_permutation),
        cmocka_unit_test(test_libaio_read_latencies),
        cmocka_unit_test(test_mixed_and_group_reporting),
        cmocka_unit_test(test_null_engine_time_based),
        cmocka_unit_test(test_sync_engine_records_the_depth_it_ran),
        cmocka_unit_test(test_suite_stores_every_pass),
        cmocka_unit_test(test_odirect_fallback),
        cmocka_unit_test(test_scratch_swapped_for_a_symlink),
        cmocka_unit_test(test_fio_logs),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_block_device_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
