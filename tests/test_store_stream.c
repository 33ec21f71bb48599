/* Store-wide commands stream: export (JSON Lines and CSV), list, report, chart and xlsx keep
 * their peak memory flat however many records the store holds. Measured on 20,000 and 100,000
 * records (the child's peak RSS from wait4); the bound is generous (40 MB, the limit;
 * about 13 MB was measured; a chart or the PDF 60 MB, cairo and pango take 28 MB), and the growth
 * from 20k to 100k must stay small. Times are printed, not asserted: bench/report.sh measures them
 * against sqlite3 .dump. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/store.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct stores {
    char *dir;
    char small[256], big[256];
} stores;

/* n fio-like records with 17 clat percentiles, 4 to a run, 20 hosts, one import. */
static int fill(const char *path, size_t n)
{
    char err[256];
    bl_store *s = bl_store_open(path, err, sizeof err);
    if (!s)
        return -1;
    bl_records rs;
    bl_records_init(&rs);
    static const double pct[] = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
    for (size_t i = 0; i < n; i++) {
        bl_record *r = bl_record_new();
        char host[16];
        snprintf(host, sizeof host, "nas%02zu", i % 20);
        bl_record_set_str(&r->source, "bench/fio.txt");
        bl_record_set_str(&r->tool, "fio");
        bl_record_set_str(&r->tool_version, "3.33");
        bl_record_set_label(r, "host", host);
        bl_record_set_label(r, "section", "nightly");
        bl_record_set_str(&r->test, i % 2 ? "rand-read" : "seq-write");
        r->line = (int64_t)i + 1;
        r->run = (int64_t)i / 4 + 1;
        r->bs = 4096;
        r->iodepth = 32;
        r->bw_bytes_s = 4.2e8 + (double)i;
        r->iops = 102539 + (double)i;
        r->clat_ns.mean = 310000 + (double)i;
        for (size_t k = 0; k < sizeof pct / sizeof pct[0]; k++)
            bl_lat_add_pct(&r->clat_ns, pct[k], 1000.0 * pct[k] + (double)i);
        bl_records_push(&rs, r);
    }
    bl_content_key key = {0};
    bl_content_key_of(path, strlen(path), &key);
    int rc = bl_store_import(s, "bench/fio.txt", &key, "fio", &rs, NULL, err, sizeof err);
    bl_records_free(&rs);
    bl_store_close(s);
    return rc == BL_IMPORT_DONE ? 0 : -1;
}

static int setup(void **state)
{
    if (!bl_test_memory_measurable())
        return 0;
    stores *s = calloc(1, sizeof *s);
    s->dir = bl_test_tmpdir();
    snprintf(s->small, sizeof s->small, "%s/20k.db", s->dir);
    snprintf(s->big, sizeof s->big, "%s/100k.db", s->dir);
    *state = s;
    /* Filled in a child: a child's peak RSS counts what it had before exec, so the
     * measuring process must stay small. */
    pid_t pid = fork();
    if (pid == 0)
        _exit(fill(s->small, 20000) || fill(s->big, 100000) ? 1 : 0);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    stores *s = *state;
    if (!s)
        return 0;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
    int rc = system(cmd);
    free(s->dir);
    free(s);
    return rc;
}

/* Runs benchlog with stdout to /dev/null; its peak RSS in KiB, wall seconds, lines out. */
static long peak_kib(const char *const *args, double *secs)
{
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        execv(bin, (char *const *)args);
        _exit(127);
    }
    int st;
    struct rusage ru;
    assert_int_equal(wait4(pid, &st, 0, &ru), pid);
    gettimeofday(&t1, NULL);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    *secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_usec - t0.tv_usec) / 1e6;
    return ru.ru_maxrss;
}

static void measure(stores *s, const char *cmd, const char *opt)
{
    double t_small, t_big;
    const char *a_small[] = {"benchlog", cmd, "--db", s->small, opt, NULL};
    const char *a_big[] = {"benchlog", cmd, "--db", s->big, opt, NULL};
    if (!opt)
        a_small[4] = a_big[4] = NULL;
    long small = peak_kib(a_small, &t_small), big = peak_kib(a_big, &t_big);
    print_message("%s %s: 20k records %ld KiB %.2f s, 100k records %ld KiB %.2f s\n", cmd,
                  opt ? opt : "", small, t_small, big, t_big);
    assert_true(big <= 40 * 1024);
    /* five times the records, not five times the memory */
    assert_true(big - small <= 4 * 1024);
}

static void test_export_jsonl(void **state)
{
    if (!*state)
        bl_skip_because("memory is not measurable under a sanitizer or valgrind (shadow memory)");
    measure(*state, "export", NULL);
}

static void test_export_csv(void **state)
{
    if (!*state)
        bl_skip_because("memory is not measurable under a sanitizer or valgrind (shadow memory)");
    measure(*state, "export", "--csv");
}

static void test_list(void **state)
{
    if (!*state)
        bl_skip_because("memory is not measurable under a sanitizer or valgrind (shadow memory)");
    measure(*state, "list", NULL);
    measure(*state, "list", "host=nas07");
}

/* The same for a command that writes a file (-o): args are what follows "--db STORE". */
static void measure_out(stores *s, const char *cmd, const char *const *args, long bound_kib,
                        long growth_kib)
{
    double t[2];
    long kib[2];
    for (int k = 0; k < 2; k++) {
        const char *a[16] = {"benchlog", cmd, "--db", k ? s->big : s->small};
        size_t n = 4;
        for (size_t i = 0; args[i] && n < 15; i++)
            a[n++] = args[i];
        a[n] = NULL;
        kib[k] = peak_kib(a, &t[k]);
    }
    print_message("%s %s: 20k records %ld KiB %.2f s, 100k records %ld KiB %.2f s\n", cmd,
                  args[0] ? args[0] : "", kib[0], t[0], kib[1], t[1]);
    assert_true(kib[1] <= bound_kib);
    assert_true(kib[1] - kib[0] <= growth_kib);
}

/* report, chart and xlsx hold the comparison table (a cell's running sums), not the records:
 * before, 100,000 records cost 146 MB. */
static void test_report(void **state)
{
    if (!*state)
        bl_skip_because("memory is not measurable under a sanitizer or valgrind (shadow memory)");
    stores *s = *state;
    const char *const text[] = {"--text", NULL}, *const by[] = {"--csv", "--by", "host", NULL};
    const char *const html[] = {"--html", "--lat", NULL};
    measure_out(s, "report", text, 40 * 1024, 4 * 1024);
    measure_out(s, "report", by, 40 * 1024, 4 * 1024);
    /* the page's Sources table is one row a run: 25,000 runs here */
    measure_out(s, "report", html, 40 * 1024, 8 * 1024);
    /* the PDF walks the store again for its Sources pages, one run at a time (it held every
     * record before); cairo's PDF surface takes some 60 MB of fonts and per-page objects
     * (measured: 72 MB at 20k records, 82 MB at 100k, with 500 pages of sources) */
    char out[300];
    snprintf(out, sizeof out, "%s/report.pdf", s->dir);
    const char *const pdf[] = {"--pdf", "-o", out, NULL};
    measure_out(s, "report", pdf, 100 * 1024, 16 * 1024);
}

static void test_chart(void **state)
{
    if (!*state)
        bl_skip_because("memory is not measurable under a sanitizer or valgrind (shadow memory)");
    stores *s = *state;
    char out[300];
    snprintf(out, sizeof out, "%s/bar.png", s->dir);
    const char *const bar[] = {"--kind", "bar", "-o", out, NULL};
    const char *const il[] = {"--kind", "iops-lat", "-o", out, NULL};
    measure_out(s, "chart", bar, 60 * 1024, 4 * 1024);
    measure_out(s, "chart", il, 60 * 1024, 4 * 1024);
}

/* The workbook keeps what names each run and fills its Sources row (this store has 25,000
 * runs of 4 records), so it grows with runs, never with records. */
static void test_xlsx(void **state)
{
    if (!*state)
        bl_skip_because("memory is not measurable under a sanitizer or valgrind (shadow memory)");
    stores *s = *state;
    char out[300];
    snprintf(out, sizeof out, "%s/book.xlsx", s->dir);
    const char *const a[] = {"-o", out, NULL};
    measure_out(s, "xlsx", a, 40 * 1024, 16 * 1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_jsonl), cmocka_unit_test(test_export_csv),
        cmocka_unit_test(test_list),         cmocka_unit_test(test_report),
        cmocka_unit_test(test_chart),        cmocka_unit_test(test_xlsx),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
