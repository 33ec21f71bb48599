/* No size cliff: a file over 1 MiB is probed on its first and last MiB, and when the one
 * format found there streams (fio logs) it is streamed, found by auto as by --as. A 10 MB fio
 * log read by auto took 2.5 times the memory and 4 times the time of --as fio-log (the whole
 * text and the parse held); now both peak alike, and give the same records with the figures
 * of the log. A file whose ends show another format is still read whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

enum { LINES = 400000 };

/* A fio 3 latency log: line i (from 1) is `i, 1000 + i % 977, i % 2, 4096, 0` (ms, ns,
 * read 0 / write 1, block size, priority). */
static void write_log(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (long i = 1; i <= LINES; i++)
        fprintf(f, "%ld, %ld, %ld, 4096, 0\n", i, 1000 + i % 977, i % 2);
    assert_int_equal(fclose(f), 0);
}

/* The mean latency (ns) of one direction as the log gives it. */
static double mean_of(long dir)
{
    double sum = 0, n = 0;
    for (long i = 1; i <= LINES; i++)
        if (i % 2 == dir)
            sum += (double)(1000 + i % 977), n++;
    return sum / n;
}

static void test_auto_streams_a_fio_log_like_as(void **state)
{
    (void)state;
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    char *dir = bl_test_tmpdir(), log[512], cmd[2048];
    snprintf(log, sizeof log, "%s/job_lat.1.log", dir);
    write_log(log);
    snprintf(cmd, sizeof cmd, "'%s' parse '%s' > '%s/auto.jsonl'", bin, log, dir);
    long auto_kib = bl_test_peak_kib_of(cmd, NULL);
    snprintf(cmd, sizeof cmd, "'%s' parse --as fio-log '%s' > '%s/as.jsonl'", bin, log, dir);
    long as_kib = bl_test_peak_kib_of(cmd, NULL);
    fprintf(stderr, "10 MB fio log: auto %ld KiB, --as fio-log %ld KiB\n", auto_kib, as_kib);
    char path[600];
    snprintf(path, sizeof path, "%s/auto.jsonl", dir);
    char *a = bl_test_slurp(path);
    snprintf(path, sizeof path, "%s/as.jsonl", dir);
    char *b = bl_test_slurp(path);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* the figures: one record a direction, the mean of its lines */
    bl_parse_out o;
    assert_int_equal(bl_test_parse(log, NULL, &o), 0);
    assert_int_equal(o.recs.n, 2);
    for (size_t k = 0; k < 2; k++) {
        const bl_record *r = o.recs.v[k];
        long d = strcmp(r->op, "write") == 0;
        assert_double_equal(r->lat_ns.mean, mean_of(d), 1e-6);
        assert_double_equal(r->lat_ns.min, 1000, 0);
        assert_double_equal(r->lat_ns.max, 1976, 0);
        assert_int_equal(r->bs, 4096);
    }
    bl_out_free(&o);
    if (bl_test_memory_measurable()) {
        /* the whole-text path took 38 MB here against 15 MB */
        assert_true(auto_kib <= as_kib + as_kib / 4);
        assert_true(auto_kib <= 24 * 1024);
    }
    free(dir);
}

/* Its ends show a fio log, but a dd summary follows the log at the end: read whole, both. */
static void test_other_format_at_the_end_reads_whole(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), log[512];
    snprintf(log, sizeof log, "%s/mixed.txt", dir);
    write_log(log);
    FILE *f = fopen(log, "a");
    assert_non_null(f);
    fputs("1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s\n", f);
    assert_int_equal(fclose(f), 0);
    bl_parse_out o;
    bl_test_parse(log, NULL, &o);
    assert_int_equal(bl_test_count(&o, NULL, NULL), 3);
    size_t dd = 0;
    for (size_t k = 0; k < o.recs.n; k++)
        if (strcmp(o.recs.v[k]->tool, "dd") == 0) {
            dd++;
            assert_int_equal(o.recs.v[k]->io_bytes, 1073741824);
            assert_int_equal(o.recs.v[k]->line, LINES + 1);
        }
    assert_int_equal(dd, 1);
    bl_out_free(&o);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_streams_a_fio_log_like_as),
        cmocka_unit_test(test_other_format_at_the_end_reads_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
