/* A paged chart set (`chart -o x.svg` past ten set-ups: x-1.svg, x-2.svg, x-3.svg) is whole or
 * not at all. The disk fills while page 2 is written (RLIMIT_FSIZE between the sizes of page 1
 * and page 2, SIGXFSZ ignored so that the write fails with EFBIG as on a full disk): the command
 * fails and the old set stays, every page as it was; page 1 was once new beside old pages 2
 * and 3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/chart.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_report_records.h"

/* n set-ups of one dd test (22: three pages): 1-10 short names, 11-20 long ones (page 2 is the
 * largest). */
static void setups_n(bl_records *rs, double scale, int n)
{
    char col[200];
    for (int j = 0; j < n; j++) {
        if (j >= 10 && j < 20)
            snprintf(col, sizeof col,
                     "set-up %d with a long name: NFS over 10 GbE to a RAID 6 of eight disks, "
                     "write-back cache on, readahead 4 MiB, scheduler mq-deadline",
                     j + 1);
        else
            snprintf(col, sizeof col, "s%d", j + 1);
        bl_record *r = rec(rs, "dd.txt", j + 1, "dd", "9.1", "seq-write", 1048576, 1, 1);
        bl_record_set_label(r, "column", col);
        r->bw_bytes_s = (100 + 10 * j) * scale * 1e6;
    }
}

static void setups(bl_records *rs, double scale)
{
    setups_n(rs, scale, 22);
}

static char *page(const char *dir, int p)
{
    char path[600];
    snprintf(path, sizeof path, "%s/x-%d.svg", dir, p);
    return bl_test_slurp(path);
}

static long size_of(const char *dir, int p)
{
    char *s = page(dir, p);
    long n = s ? (long)strlen(s) : -1;
    free(s);
    return n;
}

/* Writes the set in a child under a file size limit (0: none); returns its exit status. */
static int write_set_n(const char *dir, const bl_records *rs, const char *title, long limit,
                       size_t want)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (limit) {
            signal(SIGXFSZ, SIG_IGN);
            struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
                _exit(99);
        }
        char path[600], err[512] = "";
        snprintf(path, sizeof path, "%s/x.svg", dir);
        bl_chart_opts o = {.kind = BL_CHART_BAR, .by = "column", .title = title};
        size_t pages = 0;
        int rc = bl_chart_png_pages(path, rs, &o, &pages, err, sizeof err);
        if (rc == 0 && pages != want)
            _exit(98);
        if (rc)
            fprintf(stderr, "(expected) %s\n", err);
        _exit(rc);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static int write_set(const char *dir, const bl_records *rs, const char *title, long limit)
{
    return write_set_n(dir, rs, title, limit, 3);
}

static void test_full_disk_keeps_old_set(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *probe = bl_test_tmpdir();
    bl_records old, neu;
    bl_records_init(&old);
    bl_records_init(&neu);
    setups(&old, 1);
    setups(&neu, 2);
    /* The new set's page sizes, written where nothing is at stake. */
    assert_int_equal(write_set(probe, &neu, "NEW SET", 0), 0);
    long p1 = size_of(probe, 1), p2 = size_of(probe, 2), p3 = size_of(probe, 3);
    assert_true(p1 > 0 && p3 > 0);
    assert_true(p2 > p1 + 200);
    /* The old set, then the new one on a disk that fills during page 2. */
    assert_int_equal(write_set(dir, &old, "OLD SET", 0), 0);
    char *before[3];
    for (int p = 0; p < 3; p++) {
        before[p] = page(dir, p + 1);
        assert_non_null(before[p]);
        assert_non_null(strstr(before[p], "OLD SET"));
    }
    assert_int_equal(write_set(dir, &neu, "NEW SET", (p1 + p2) / 2), 1);
    for (int p = 0; p < 3; p++) {
        char *after = page(dir, p + 1);
        assert_non_null(after);
        if (strcmp(after, before[p]) != 0)
            fail_msg("page %d changed although the set could not be written whole", p + 1);
        free(after);
        free(before[p]);
    }
    /* No temporary file is left behind. */
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -c tmp", dir);
    char *out = bl_test_sh(cmd, NULL);
    assert_int_equal(atoi(out), 0);
    free(out);
    /* With room, the new set replaces the old one whole. */
    assert_int_equal(write_set(dir, &neu, "NEW SET", 0), 0);
    for (int p = 1; p <= 3; p++) {
        char *s = page(dir, p);
        assert_non_null(strstr(s, "NEW SET"));
        free(s);
    }
    bl_records_free(&old);
    bl_records_free(&neu);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, probe);
    assert_int_equal(system(cmd), 0);
    free(dir);
    free(probe);
}

static int exists(const char *dir, int p)
{
    char *s = page(dir, p);
    free(s);
    return s != NULL;
}

/* A shorter set replaces a longer one whole: the old set's page 3 goes once the new two pages
 * are in place, but stays (with pages 1 and 2) when the new set cannot be written. */
static void test_shorter_set_drops_old_pages(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records old, two;
    bl_records_init(&old);
    bl_records_init(&two);
    setups(&old, 1);
    setups_n(&two, 2, 12);
    assert_int_equal(write_set(dir, &old, "OLD SET", 0), 0);
    assert_true(exists(dir, 3));
    /* Too little room for the new page 1: nothing of the old set goes. */
    assert_int_equal(write_set_n(dir, &two, "NEW SET", 512, 2), 1);
    for (int p = 1; p <= 3; p++) {
        char *s = page(dir, p);
        assert_non_null(s);
        assert_non_null(strstr(s, "OLD SET"));
        free(s);
    }
    assert_int_equal(write_set_n(dir, &two, "NEW SET", 0, 2), 0);
    for (int p = 1; p <= 2; p++) {
        char *s = page(dir, p);
        assert_non_null(s);
        assert_non_null(strstr(s, "NEW SET"));
        assert_null(strstr(s, "OLD SET"));
        free(s);
    }
    if (exists(dir, 3))
        fail_msg("x-3.svg of the old three-page set stays beside the new two-page set");
    /* One file after a set: x.svg, and the set's pages go. */
    bl_records one;
    bl_records_init(&one);
    setups_n(&one, 3, 4);
    assert_int_equal(write_set_n(dir, &one, "ONE PAGE", 0, 1), 0);
    assert_false(exists(dir, 1));
    assert_false(exists(dir, 2));
    char path[600];
    snprintf(path, sizeof path, "%s/x.svg", dir);
    char *s = bl_test_slurp(path);
    assert_non_null(s);
    assert_non_null(strstr(s, "ONE PAGE"));
    free(s);
    bl_records_free(&one);
    bl_records_free(&old);
    bl_records_free(&two);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_disk_keeps_old_set),
        cmocka_unit_test(test_shorter_set_drops_old_pages),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    bl_chart_cleanup();
    return rc;
}
