/* compare and the curve charts at scale: they walk the store and never hold its records.
 * A store of 40,000 fio records (two hosts of 20,000, one run each): `compare host=a host=b`
 * and `chart --kind percentiles|timeline` stay under 48 MB of peak RSS, where the old code,
 * which loaded every matching record, took about 75 MB (103 MB at 60,000 records). The
 * figures are checked too: A's 20,000 repeats alternate 100 and 120 MB/s, B's 200 and 220. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/store.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PER_SIDE 20000
#define BOUND_KIB (48 * 1024)

/* One fio seq-read record of host, bw alternating base and base + 20 MB/s, with clat
 * percentiles; the last of host "b" also has a bandwidth series over time. */
static bl_record *make(const char *host, long i, double base, int series)
{
    bl_record *r = bl_record_new();
    char src[64];
    snprintf(src, sizeof src, "scale/%s.txt", host);
    bl_record_set_str(&r->source, src);
    r->line = 10 + i;
    r->run = 1;
    bl_record_set_str(&r->tool, "fio");
    bl_record_set_str(&r->tool_version, "3.33");
    bl_record_set_label(r, "host", host);
    bl_record_set_str(&r->test, "seq-read");
    bl_record_set_str(&r->op, "read");
    bl_record_set_str(&r->pattern, "seq");
    r->bs = 1048576;
    r->iodepth = 8;
    r->numjobs = 1;
    r->bw_bytes_s = (base + (i % 2 ? 20 : 0)) * 1e6;
    r->iops = r->bw_bytes_s / 1048576;
    r->clat_ns.mean = 4600e3;
    static const double pct[] = {1, 5, 10, 50, 90, 99, 99.9};
    for (size_t k = 0; k < sizeof pct / sizeof pct[0]; k++)
        bl_lat_add_pct(&r->clat_ns, pct[k], 1000 * (k + 1) * (double)(1 + i % 7));
    if (series) {
        bl_series *se = bl_record_add_series(r, "bw", "bytes/s");
        for (int t = 0; t < 5; t++)
            bl_series_push(se, t, (200 + t) * 1e6);
    }
    return r;
}

static int write_store(const char *db, long per_side)
{
    char err[512];
    bl_store *s = bl_store_open(db, err, sizeof err);
    if (!s)
        return 1;
    for (int side = 0; side < 2; side++) {
        const char *host = side ? "b" : "a";
        bl_records rs;
        bl_records_init(&rs);
        for (long i = 0; i < per_side; i++)
            bl_records_push(&rs, make(host, i, side ? 200 : 100, side && i == per_side - 1));
        int rc = bl_store_import(s, rs.v[0]->source, NULL, "bench", &rs, NULL, err, sizeof err);
        bl_records_free(&rs);
        if (rc < 0)
            return 1;
    }
    bl_store_close(s);
    return 0;
}

/* Writes the store in a child process, so that the memory its records took is not this
 * process's when it forks the commands measured. */
static char *make_store(long per_side)
{
    char *dir = bl_test_tmpdir();
    size_t n = strlen(dir) + 16;
    char *db = malloc(n);
    snprintf(db, n, "%s/s.db", dir);
    free(dir);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(write_store(db, per_side));
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return db;
}

static const char *bin(void)
{
    return getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
}

/* Peak RSS of `benchlog --db db ARGS > out`, asserted under the bound. */
static void under_bound(const char *db, const char *args, const char *out)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --db '%s' %s > '%s' 2>/dev/null", bin(), db, args, out);
    int st;
    long kib = bl_test_peak_kib_of(cmd, &st);
    fprintf(stderr, "%s over %d records: peak RSS %ld KiB\n", args, 2 * PER_SIDE, kib);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_true(kib > 0 && kib <= BOUND_KIB);
}

/* A line of compare --csv: the seq-read figures of both sides. */
static void check_compare_csv(const char *csv, size_t per_side, double ci)
{
    const char *line = strstr(csv, "\n\"seq-read");
    assert_non_null(line);
    char title[128], metric[16], unit[16], outside[16], verdict[16];
    double a, a_ci, b, b_ci, change;
    size_t a_n, b_n;
    int got = sscanf(
        line + 1, "\"%127[^\"]\",%15[^,],\"%15[^\"]\",%lf,%zu,%lf,%lf,%zu,%lf,%lf,%15[^,],%15s",
        title, metric, unit, &a, &a_n, &a_ci, &b, &b_n, &b_ci, &change, outside, verdict);
    assert_int_equal(got, 12);
    assert_string_equal(metric, "bw");
    assert_string_equal(unit, "MB/s");
    assert_double_equal(a, 110, 1e-9); /* mean and median of 100, 120, 100, ... */
    assert_double_equal(b, 210, 1e-9);
    assert_int_equal(a_n, per_side);
    assert_int_equal(b_n, per_side);
    assert_double_equal(change, 100.0 / 1.1, 1e-7); /* 90.90909091 % */
    assert_double_equal(a_ci, ci, 1e-4);
    assert_double_equal(b_ci, ci, 1e-4);
    assert_string_equal(outside, "yes");
    assert_string_equal(verdict, "better");
}

/* compare -o FILE: the chart, the page and the workbook of both sides walk the store again
 * rather than hold its records (the page's Sources and the workbook's rows need them). */
static void sendable_under_bound(const char *db, const char *out)
{
    static const char *const ext[] = {"svg", "html", "xlsx"};
    static const char *const want[] = {">210.0  +90.9% ▲<", "> ×1.91 ▲</span>", "PK"};
    for (size_t i = 0; i < 3; i++) {
        char path[600], args[800];
        snprintf(path, sizeof path, "%s.%s", db, ext[i]);
        snprintf(args, sizeof args, "compare host=a host=b -o '%s'", path);
        under_bound(db, args, out);
        size_t len = 0;
        char *f = bl_test_slurp_n(path, &len);
        assert_non_null(f);
        assert_true(len > 1000);
        if (i < 2)
            assert_non_null(strstr(f, want[i]));
        else
            assert_memory_equal(f, want[i], 2);
        free(f);
    }
}

static void test_compare_and_curves_in_bounded_memory(void **state)
{
    (void)state;
    if (!bl_test_memory_measurable())
        bl_skip_because("memory measurement: ASan and valgrind hold memory of their own");
    char *db = make_store(PER_SIDE), out[512];
    snprintf(out, sizeof out, "%s.out", db);
    under_bound(db, "compare --csv host=a host=b", out);
    char *csv = bl_test_slurp(out);
    check_compare_csv(csv, PER_SIDE, 0.1386); /* sd 10.00025, t 1.96 */
    free(csv);
    under_bound(db, "compare --csv --repeats median host=a host=b", out);
    csv = bl_test_slurp(out);
    check_compare_csv(csv, PER_SIDE, 0.1386); /* sd 10.00025, t 1.96 */
    free(csv);
    under_bound(db, "compare host=a host=b", out);
    char *text = bl_test_slurp(out);
    assert_non_null(strstr(text, "40000 records, 1 test, 2 columns by compare"));
    free(text);
    sendable_under_bound(db, out);

    char svg[600], args[800];
    snprintf(svg, sizeof svg, "%s.svg", db);
    snprintf(args, sizeof args, "chart --kind percentiles -o '%s'", svg);
    under_bound(db, args, out);
    char *s = bl_test_slurp(svg);
    assert_non_null(s);
    assert_non_null(strstr(s, "first 10 records")); /* 40,000 have percentiles */
    free(s);
    /* timeline: only the store's very last record has a series, found after a whole walk */
    snprintf(args, sizeof args, "chart --kind timeline -o '%s'", svg);
    under_bound(db, args, out);
    s = bl_test_slurp(svg);
    assert_non_null(strstr(s, "series bw in MB/s"));
    assert_null(strstr(s, "first 10 records"));
    free(s);
    free(db);
}

/* The same figures over 200 records a side (also under ASan and valgrind), and sides given as
 * run IDs named by the label telling them apart. */
static void test_compare_figures_and_names(void **state)
{
    (void)state;
    char *db = make_store(200), *out = NULL;
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db '%s' compare --csv host=a host=b", db), 0);
    check_compare_csv(out, 200, 1.3979); /* sd 10.0251, t(199) 1.9720 */
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db '%s' list", db), 0);
    char ra[32], rb[32];
    assert_int_equal(sscanf(out, "%31s", ra), 1);
    assert_int_equal(sscanf(strchr(out, '\n') + 1, "%31s", rb), 1);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db '%s' compare %s %s", db, ra, rb), 0);
    const char *a = strstr(out, "host=a"), *b = strstr(out, "host=b");
    assert_non_null(a); /* the columns' heads, A's first */
    assert_non_null(b);
    assert_true(a < b && strchr(out, '\n') > b);
    assert_non_null(strstr(out, "110.0 MB/s (n=200"));
    assert_non_null(strstr(out, "+90.9%"));
    free(out);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_figures_and_names),
        cmocka_unit_test(test_compare_and_curves_in_bounded_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
