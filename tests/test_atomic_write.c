/* Every file benchlog writes is whole or not there: on a full filesystem (a 64 KiB tmpfs;
 * the test mounts one, so it needs root, else it skips) a chart, a workbook, a report or a
 * file of the core helper fails, leaves the old file byte for byte, and no partial file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/atomic.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char old_text[] = "the old file: it must survive a failed write\n";

typedef struct fs {
    char *mnt;   /* the small tmpfs */
    char *store; /* a folder outside it for the store */
    int mounted;
} fs;

static int sh(const char *fmt, const char *a)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, fmt, a);
    return system(cmd);
}

static int setup(void **state)
{
    fs *f = calloc(1, sizeof *f);
    f->mnt = bl_test_tmpdir();
    f->store = bl_test_tmpdir();
    f->mounted =
        geteuid() == 0 && sh("mount -t tmpfs -o size=64k tmpfs %s 2>/dev/null", f->mnt) == 0;
    *state = f;
    if (!f->mounted)
        return 0;
    char args[1024];
    snprintf(args, sizeof args, "import --db %s/s.db fixtures/dd/gnu-dd-9.1_c_write_read.txt",
             f->store);
    return bl_test_benchlog(args, NULL, NULL) == 0 ? 0 : -1;
}

/* Unmounts whatever happened in the tests. */
static int teardown(void **state)
{
    fs *f = *state;
    int rc = 0;
    if (f->mounted)
        rc = sh("umount %s", f->mnt);
    sh("rm -rf %s", f->mnt);
    sh("rm -rf %s", f->store);
    free(f->mnt);
    free(f->store);
    free(f);
    return rc;
}

/* Fills the filesystem, then frees about `room` bytes of it. */
static void fill_leaving(const char *dir, long room)
{
    char path[512];
    snprintf(path, sizeof path, "%s/filler", dir);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    char block[4096];
    memset(block, 'x', sizeof block);
    long n = 0;
    while (fwrite(block, 1, sizeof block, fp) == sizeof block && fflush(fp) == 0)
        n += (long)sizeof block;
    fclose(fp);
    assert_true(n > room);
    assert_int_equal(truncate(path, n - room), 0);
}

static void put_old(const char *path)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs(old_text, fp);
    assert_int_equal(fclose(fp), 0);
}

static void assert_old_and_alone(const char *dir, const char *path)
{
    char buf[256] = "";
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    assert_string_equal(buf, old_text);
    /* nothing but the old file and the filler: no partial or temporary file */
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int others = 0;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "filler") &&
            strcmp(e->d_name, strrchr(path, '/') + 1)) {
            print_error("left behind: %s\n", e->d_name);
            others++;
        }
    closedir(d);
    assert_int_equal(others, 0);
}

/* room: what is left free, less than the command's output needs (tmpfs counts 4 KiB pages). */
static void check_command(fs *f, const char *name, const char *args_fmt, const char *magic,
                          long room)
{
    char path[512], args[1024];
    snprintf(path, sizeof path, "%s/%s", f->mnt, name);
    put_old(path);
    fill_leaving(f->mnt, room);
    snprintf(args, sizeof args, args_fmt, f->store, path);
    char *err;
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 1);
    assert_non_null(strstr(err, "cannot write"));
    free(err);
    assert_old_and_alone(f->mnt, path);
    /* with room again, the same command replaces the file whole */
    char filler[512];
    snprintf(filler, sizeof filler, "%s/filler", f->mnt);
    unlink(filler);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    FILE *fp = fopen(path, "rb");
    char head[8] = "";
    assert_int_equal(fread(head, 1, strlen(magic), fp), strlen(magic));
    fclose(fp);
    assert_memory_equal(head, magic, strlen(magic));
    unlink(path);
}

static void test_chart_png(void **state)
{
    fs *f = *state;
    if (!f->mounted)
        bl_skip_because("a full filesystem needs root to mount a 64 KiB tmpfs");
    check_command(f, "c.png", "chart --db %s/s.db --width 800 -o %s", "\x89PNG", 8192);
}

static void test_xlsx(void **state)
{
    fs *f = *state;
    if (!f->mounted)
        bl_skip_because("a full filesystem needs root to mount a 64 KiB tmpfs");
    check_command(f, "w.xlsx", "xlsx --db %s/s.db -o %s", "PK", 8192);
}

static void test_report_html(void **state)
{
    fs *f = *state;
    if (!f->mounted)
        bl_skip_because("a full filesystem needs root to mount a 64 KiB tmpfs");
    /* The page of two dd runs is about 7.6 kB: one 4 KiB page of room is too little. */
    check_command(f, "r.html", "report --db %s/s.db --html -o %s", "<!DOC", 4096);
}

static void test_core_helper(void **state)
{
    fs *f = *state;
    if (!f->mounted)
        bl_skip_because("a full filesystem needs root to mount a 64 KiB tmpfs");
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/data.csv", f->mnt);
    put_old(path);
    fill_leaving(f->mnt, 4096);
    size_t big = 64 * 1024;
    char *data = malloc(big);
    memset(data, 'y', big);
    assert_int_equal(bl_write_file(path, data, big, err, sizeof err), -1);
    assert_non_null(strstr(err, "No space left on device"));
    assert_old_and_alone(f->mnt, path);
    free(data);
    char filler[512];
    snprintf(filler, sizeof filler, "%s/filler", f->mnt);
    unlink(filler);
    assert_int_equal(bl_write_file(path, "new\n", 4, err, sizeof err), 0);
    FILE *fp = fopen(path, "rb");
    char buf[16] = "";
    assert_int_equal(fread(buf, 1, sizeof buf, fp), 4);
    fclose(fp);
    assert_string_equal(buf, "new\n");
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_chart_png, setup, teardown),
        cmocka_unit_test_setup_teardown(test_xlsx, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_html, setup, teardown),
        cmocka_unit_test_setup_teardown(test_core_helper, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
