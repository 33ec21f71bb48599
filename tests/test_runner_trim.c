/* rw=trim/randtrim on a file punch holes (fio 3.33 itself fails there: it only knows
 * BLKDISCARD, "Inappropriate ioctl for device"): the trimmed range reads back as zeros and
 * holds no data blocks, the rest of the file keeps every byte, the size stays; records say
 * op=trim, test seq-trim/rand-trim, with real counts. An engine that cannot trim is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/engine_ops.h"
#include "../runner/runner.h"
#include "support/support.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIZE (4 << 20)

static int run_text(const char *text, const char *target, bl_records *out, bl_diags *po)
{
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "t.fio", text, strlen(text), err, sizeof err), 0);
    bl_diags_init(po, "t.fio");
    bl_jobs jobs = {0};
    int perr = bl_jobfile_parse(&t, &jobs, po);
    bl_text_free(&t);
    bl_records_init(out);
    if (perr) {
        bl_jobs_free(&jobs);
        return -1;
    }
    bl_run_opts o = {.target = target, .allow_overwrite = true, .msg = fopen("/dev/null", "w")};
    int rc = bl_run_jobs(&jobs, &o, out);
    fclose(o.msg);
    bl_jobs_free(&jobs);
    return rc;
}

static unsigned char *fill(const char *path)
{
    unsigned char *b = malloc(SIZE);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < SIZE; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = (unsigned char)(x | 1); /* no zero byte: a zero can only come from a hole */
    }
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b, SIZE), SIZE);
    assert_int_equal(fsync(fd), 0);
    close(fd);
    return b;
}

/* Trims [off, off+len) with the engine and checks the file around it. */
static void trim_range(const char *engine, const char *rw, uint64_t off, uint64_t len)
{
    char *dir = bl_test_tmpdir();
    bl_strbuf f, job;
    bl_strbuf_init(&f);
    bl_strbuf_init(&job);
    bl_strbuf_printf(&f, "%s/data", dir);
    unsigned char *orig = fill(f.s);
    bl_strbuf_printf(&job, "[t]\nrw=%s\nbs=64k\noffset=%llu\nsize=%llu\nioengine=%s\niodepth=4\n",
                     rw, (unsigned long long)off, (unsigned long long)len, engine);
    bl_records recs;
    bl_diags po;
    assert_int_equal(run_text(job.s, f.s, &recs, &po), BL_RUN_OK);
    assert_int_equal(recs.n, 1);
    const bl_record *r = recs.v[0];
    printf("  %s %s: %s %s %lld bytes, %.0f IOPS\n", engine, rw, r->op, r->test,
           (long long)r->io_bytes, r->iops);
    assert_string_equal(r->op, "trim");
    assert_string_equal(r->test, strcmp(rw, "trim") == 0 ? "seq-trim" : "rand-trim");
    assert_int_equal(r->io_bytes, (int64_t)len);
    assert_true(bl_test_close(r->iops * 65536, r->bw_bytes_s, 1e-9));
    assert_true(bl_test_close(r->iops * r->runtime_s, (double)(len / 65536), 1e-9));
    struct stat st;
    assert_int_equal(stat(f.s, &st), 0);
    assert_int_equal(st.st_size, SIZE); /* KEEP_SIZE */
    unsigned char *now = malloc(SIZE);
    int fd = open(f.s, O_RDONLY);
    assert_int_equal(read(fd, now, SIZE), SIZE);
    for (size_t i = 0; i < SIZE; i++) {
        if (i >= off && i < off + len)
            assert_int_equal(now[i], 0);
        else if (now[i] != orig[i])
            fail_msg("byte %zu outside the trimmed range changed", i);
    }
    /* a hole, not written zeros: no data from the start of the range (SEEK_DATA) */
    off_t d = lseek(fd, (off_t)off, SEEK_DATA);
    assert_true(d == (off_t)(off + len) || (d == -1 && errno == ENXIO));
    close(fd);
    free(now);
    free(orig);
    bl_records_free(&recs);
    bl_diags_free(&po);
    unlink(f.s);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
    bl_strbuf_free(&f);
    bl_strbuf_free(&job);
}

static void test_sync_punches_holes(void **state)
{
    (void)state;
    trim_range("sync", "trim", 1 << 20, 2 << 20);
    trim_range("psync", "randtrim", 0, SIZE);
}

static void test_io_uring_punches_holes(void **state)
{
    (void)state;
    char why[256], msg[320];
    if (bl_engine_available(bl_engine_find("io_uring"), why, sizeof why) != 0) {
        snprintf(msg, sizeof msg, "io_uring is not available here: %s", why);
        bl_skip_because(msg);
    }
    trim_range("io_uring", "randtrim", 512 << 10, 3 << 20);
}

static void test_engines_that_cannot_trim_are_refused(void **state)
{
    (void)state;
    bl_records recs;
    bl_diags po;
    assert_int_equal(run_text("[t]\nrw=trim\nioengine=libaio\n", NULL, &recs, &po), -1);
    assert_non_null(strstr(po.v[0].msg, "the libaio engine cannot trim (use io_uring or sync)"));
    bl_diags_free(&po);
    assert_int_equal(run_text("[t]\nrw=trim\nverify=md5\n", NULL, &recs, &po), -1);
    assert_non_null(strstr(po.v[0].msg, "verify: only a job that only writes"));
    bl_diags_free(&po);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sync_punches_holes),
        cmocka_unit_test(test_io_uring_punches_holes),
        cmocka_unit_test(test_engines_that_cannot_trim_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
