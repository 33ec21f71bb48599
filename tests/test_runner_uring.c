/* The io_uring engine moves real bytes: writes land on every block of the file, O_DIRECT reads
 * show on the disk's own read counter, I/O counts and IOPS x bs = bw agree with the job, and
 * the options it cannot honour here (hipri without polled queues, hipri on another engine)
 * are refused with the reason. Every test skips, saying why, where io_uring is unavailable.
 * Little's law on io_uring is in test_runner_little.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/engine_ops.h"
#include "../runner/runner.h"
#include "support/runjob.h"
#include "support/support.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SKIP_WITHOUT_URING()                                                                       \
    do {                                                                                           \
        char why_[256], msg_[320];                                                                 \
        if (bl_engine_available(bl_engine_find("io_uring"), why_, sizeof why_) != 0) {             \
            snprintf(msg_, sizeof msg_, "io_uring is not available here: %s", why_);               \
            bl_skip_because(msg_);                                                                 \
        }                                                                                          \
    } while (0)

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

static int run_text(const char *text, const char *target, bl_records *out)
{
    return bl_test_run_jobtext(text, (bl_run_opts){.target = target, .allow_overwrite = true}, out);
}

static uint64_t total_bins(const bl_lat *l)
{
    uint64_t n = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        n += l->bins[i].count;
    return n;
}

/* Sectors read by the device holding path (its /sys/dev/block/M:m/stat), or -1. */
static long long disk_sectors_read(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    char p[96];
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/stat", major(st.st_dev), minor(st.st_dev));
    FILE *f = fopen(p, "r");
    if (!f)
        return -1;
    long long ios, merges, sectors;
    int n = fscanf(f, "%lld %lld %lld", &ios, &merges, &sectors);
    fclose(f);
    return n == 3 ? sectors : -1;
}

static void check_figures(const bl_record *r, uint64_t bytes, uint64_t bs)
{
    assert_string_equal(r->ioengine, "io_uring");
    assert_int_equal(r->io_bytes, bytes);
    assert_int_equal(r->bs, bs);
    assert_int_equal(total_bins(&r->clat_ns), bytes / bs);
    assert_true(r->slat_ns.present);
    assert_true(bl_test_close(r->iops * r->runtime_s, (double)(bytes / bs), 1e-9));
    assert_true(bl_test_close(r->iops * (double)bs, r->bw_bytes_s, 1e-9));
    assert_true(bl_test_close(r->bw_bytes_s * r->runtime_s, (double)bytes, 1e-9));
    /* lat = slat + clat for every I/O, so for the means too. */
    assert_true(bl_test_close(r->lat_ns.mean, r->slat_ns.mean + r->clat_ns.mean, 1e-6));
}

static void test_writes_reach_every_block(void **state)
{
    (void)state;
    SKIP_WITHOUT_URING();
    char *dir = bl_test_tmpdir();
    char *file = path_in(dir, "data");
    zero_file(file, 3 << 20);
    bl_records recs;
    /* 768 blocks in random order at QD8: each written once, none left at zero. */
    assert_int_equal(run_text("[w]\nrw=randwrite\nbs=4k\nsize=3m\nioengine=io_uring\n"
                              "iodepth=8\ndirect=1\n",
                              file, &recs),
                     BL_RUN_OK);
    assert_int_equal(recs.n, 1);
    check_figures(recs.v[0], 3 << 20, 4096);
    int fd = open(file, O_RDONLY);
    assert_true(fd >= 0);
    unsigned char b[4096];
    for (int blk = 0; blk < 768; blk++) {
        assert_int_equal(pread(fd, b, sizeof b, (off_t)blk * 4096), 4096);
        size_t zeros = 0;
        for (size_t k = 0; k < sizeof b; k++)
            zeros += b[k] == 0;
        assert_true(zeros < 64);
    }
    close(fd);
    bl_records_free(&recs);
    unlink(file);
    rmdir(dir);
    free(file);
    free(dir);
}

/* O_DIRECT reads bypass the page cache: the disk must have read at least as many bytes as the
 * record says (others may read too, never less). Without registered buffers and file too. */
static void test_direct_reads_reach_the_disk(void **state)
{
    (void)state;
    SKIP_WITHOUT_URING();
    char *dir = bl_test_tmpdir();
    const char *modes[] = {"", "fixedbufs=0\nregisterfiles=0\n"};
    for (int m = 0; m < 2; m++) {
        long long before = disk_sectors_read(dir);
        bl_records recs;
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb,
                         "[r]\nrw=randread\nbs=16k\nsize=8m\nioengine=io_uring\n"
                         "iodepth=16\ndirect=1\n%s",
                         modes[m]);
        assert_int_equal(run_text(sb.s, dir, &recs), BL_RUN_OK);
        bl_strbuf_free(&sb);
        long long after = disk_sectors_read(dir);
        const bl_record *r = recs.v[recs.n - 1];
        check_figures(r, 8 << 20, 16384);
        assert_true(r->direct == BL_TRUE || r->direct == BL_FALSE);
        if (before >= 0 && after >= 0 && r->direct == BL_TRUE)
            assert_true((after - before) * 512 >= (long long)(8 << 20));
        else
            printf("  (no disk counter or no O_DIRECT for %s: bytes checked by count only)\n", dir);
        bl_records_free(&recs);
    }
    rmdir(dir);
    free(dir);
}

/* hipri needs polled queues on the device; without them fio's polled I/O fails with
 * EOPNOTSUPP. Ours says so before any I/O, naming the device. */
static void test_hipri_refused_without_polled_queues(void **state)
{
    (void)state;
    SKIP_WITHOUT_URING();
    char *dir = bl_test_tmpdir();
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    char p[96];
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u/queue/io_poll", major(st.st_dev), minor(st.st_dev));
    FILE *f = fopen(p, "r");
    int poll = -1;
    if (f) {
        if (fscanf(f, "%d", &poll) != 1)
            poll = -1;
        fclose(f);
    }
    if (poll == 1) {
        rmdir(dir);
        free(dir);
        bl_skip_because("the device under /tmp has polled queues: hipri would run");
    }
    char *job = path_in(dir, "h.fio");
    FILE *jf = fopen(job, "w");
    fprintf(jf, "[h]\nrw=randread\nbs=4k\nsize=1m\nioengine=io_uring\nhipri=1\ndirect=1\n");
    fclose(jf);
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(&cmd, "run --db %s/s.db --target %s %s", dir, dir, job);
    char *out = NULL, *err = NULL;
    assert_int_equal(bl_test_benchlog(cmd.s, &out, &err), 1);
    assert_non_null(strstr(err, "hipri: the device"));
    assert_non_null(strstr(err, "has no polled queues"));
    /* refused before the file was laid out: not a byte written for nothing */
    assert_null(strstr(err, "writing the"));
    free(out);
    free(err);
    bl_strbuf_free(&cmd);
    unlink(job);
    free(job);
    char *db = path_in(dir, "s.db");
    unlink(db);
    free(db);
    assert_int_equal(rmdir(dir), 0); /* no scratch file left behind */
    free(dir);
}

static void test_polling_options_belong_to_io_uring(void **state)
{
    (void)state;
    const char *text = "[s]\nrw=read\nioengine=libaio\nsqthread_poll=1\n";
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "p.fio", text, strlen(text), err, sizeof err), 0);
    bl_diags out;
    bl_diags_init(&out, "p.fio");
    bl_jobs jobs = {0};
    assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 1);
    assert_non_null(strstr(out.v[0].msg, "hipri and sqthread_poll are for ioengine=io_uring"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    bl_text_free(&t);
}

/* A kernel submission thread: no io_uring_enter to submit, the same bytes and figures. */
static void test_sqthread_poll_moves_the_same_bytes(void **state)
{
    (void)state;
    SKIP_WITHOUT_URING();
    char *dir = bl_test_tmpdir();
    bl_records recs;
    int rc = run_text("[q]\nrw=read\nbs=64k\nsize=4m\nioengine=io_uring\niodepth=4\n"
                      "sqthread_poll=1\n",
                      dir, &recs);
    if (rc != BL_RUN_OK) {
        bl_records_free(&recs);
        rmdir(dir);
        free(dir);
        bl_skip_because("the kernel refused an SQPOLL ring (printed above)");
    }
    check_figures(recs.v[0], 4 << 20, 65536);
    bl_records_free(&recs);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writes_reach_every_block),
        cmocka_unit_test(test_direct_reads_reach_the_disk),
        cmocka_unit_test(test_hipri_refused_without_polled_queues),
        cmocka_unit_test(test_polling_options_belong_to_io_uring),
        cmocka_unit_test(test_sqthread_poll_moves_the_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
