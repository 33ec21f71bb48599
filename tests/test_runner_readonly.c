/* A job that only reads opens its file read-only: a file the user may read but not write runs,
 * and a read job cannot write by mistake. Checked from outside the runner: while the job runs, a
 * watcher reads the flags of every descriptor open on the file (/proc/self/fdinfo), so the test
 * holds even as root, whom a 0444 mode does not stop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/runner.h"
#include "support/runjob.h"
#include "support/support.h"
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct watch {
    const char *path;
    atomic_int done;
    int seen, rdonly, rdwr; /* descriptors on path seen, by access mode */
} watch;

/* The access mode of /proc/self/fd/NAME when it leads to w->path, else -1. */
static int mode_of(const watch *w, const char *name)
{
    char link[64], to[4096], info[64];
    snprintf(link, sizeof link, "/proc/self/fd/%s", name);
    ssize_t n = readlink(link, to, sizeof to - 1);
    if (n <= 0)
        return -1;
    to[n] = '\0';
    if (strcmp(to, w->path) != 0)
        return -1;
    snprintf(info, sizeof info, "/proc/self/fdinfo/%s", name);
    FILE *f = fopen(info, "r");
    if (!f)
        return -1;
    char line[128];
    int mode = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "flags:", 6) == 0)
            mode = (int)(strtol(line + 6, NULL, 8) & O_ACCMODE);
    fclose(f);
    return mode;
}

static void *watcher(void *p)
{
    watch *w = p;
    while (!atomic_load(&w->done)) {
        DIR *d = opendir("/proc/self/fd");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            int m = mode_of(w, e->d_name);
            w->seen += m >= 0;
            w->rdonly += m == O_RDONLY;
            w->rdwr += m == O_RDWR;
        }
        if (d)
            closedir(d);
        struct timespec ts = {0, 5 * 1000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static int run_watched(const char *text, const char *file, watch *w, bl_records *out)
{
    bl_jobs jobs;
    bl_test_parse_jobs("ro.fio", text, &jobs);
    bl_run_opts o = {.target = file, .allow_overwrite = true, .msg = fopen("/dev/null", "w")};
    memset(w, 0, sizeof *w);
    w->path = file;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, watcher, w), 0);
    bl_records_init(out);
    int rc = bl_run_jobs(&jobs, &o, out);
    atomic_store(&w->done, 1);
    pthread_join(th, NULL);
    fclose(o.msg);
    bl_jobs_free(&jobs);
    return rc;
}

static char *make_file(const char *dir, size_t size, mode_t mode)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/data", dir);
    int fd = open(sb.s, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    unsigned char buf[4096];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 7 + 1);
    for (size_t off = 0; off < size; off += sizeof buf)
        assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
    close(fd);
    assert_int_equal(chmod(sb.s, mode), 0);
    return bl_strbuf_take(&sb);
}

/* A file of mode 0444 the user owns, read by a random read job: runs, every descriptor on it is
 * O_RDONLY, the bytes read are the job's and the file is unchanged. */
static void test_read_job_opens_read_only(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char *file = make_file(dir, 1 << 20, 0444);
    char *before = bl_test_slurp(file);
    watch w;
    bl_records recs;
    assert_int_equal(run_watched("[r]\nrw=randread\nbs=4k\nioengine=libaio\niodepth=4\n"
                                 "runtime=300ms\ntime_based\n",
                                 file, &w, &recs),
                     BL_RUN_OK);
    assert_int_equal(recs.n, 1);
    assert_string_equal(recs.v[0]->op, "read");
    assert_true(recs.v[0]->io_bytes >= 4096 && recs.v[0]->io_bytes % 4096 == 0);
    printf("  read job: %d descriptors seen on the file, %d O_RDONLY, %d O_RDWR\n", w.seen,
           w.rdonly, w.rdwr);
    assert_true(w.seen > 0);
    assert_int_equal(w.rdonly, w.seen);
    char *after = bl_test_slurp(file);
    assert_memory_equal(before, after, 1 << 20);
    bl_records_free(&recs);

    /* A job that writes still opens it read-write (as root the mode does not stop it; as
     * another user the run fails on the mode instead). */
    assert_int_equal(chmod(file, 0644), 0);
    assert_int_equal(run_watched("[w]\nrw=write\nbs=64k\nsize=1m\n", file, &w, &recs), BL_RUN_OK);
    assert_true(w.seen == 0 || w.rdwr > 0); /* a short job may end between two looks */
    assert_int_equal(w.rdonly, 0);
    bl_records_free(&recs);
    free(before);
    free(after);
    unlink(file);
    free(file);
    rmdir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_job_opens_read_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
