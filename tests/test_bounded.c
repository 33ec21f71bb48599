/* Input read in bounded memory: a huge single line, /dev/zero and endless standard input end
 * with a FILE:LINE error, the good records before them kept, the benchlog process staying
 * under 256 MB of resident memory (measured: its maximum RSS as a child of this program). A
 * NUL byte spoils its own line only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char dd_line[] = "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s";

/* Largest resident set of any child so far, in KiB (Linux: ru_maxrss is in KiB). The
 * programs this test starts are small but for benchlog, so this is benchlog's peak. */
static long children_peak_kib(void)
{
    struct rusage ru;
    assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
    return ru.ru_maxrss;
}

/* Runs `INPUT | benchlog parse ARG` through the shell (INPUT NULL: no pipe); returns its
 * exit status, stdout and stderr. */
static int run_parse(const char *input, const char *arg, char **out, char **err)
{
    const char *bin = getenv("BENCHLOG_BIN");
    char *dir = bl_test_tmpdir(), cmd[2048], path[1024];
    snprintf(cmd, sizeof cmd, "%s%s '%s' parse %s >%s/out 2>%s/err", input ? input : "",
             input ? " |" : "", bin ? bin : "build/benchlog", arg, dir, dir);
    int st = system(cmd);
    snprintf(path, sizeof path, "%s/out", dir);
    *out = bl_test_slurp(path);
    snprintf(path, sizeof path, "%s/err", dir);
    *err = bl_test_slurp(path);
    assert_true(*out && *err);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void assert_bounded(const char *what)
{
    long kib = children_peak_kib();
    fprintf(stderr, "%s: peak RSS %ld KiB\n", what, kib);
    if (!bl_test_under_asan())
        assert_true(kib <= 256 * 1024);
}

static void test_dev_zero(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(run_parse(NULL, "/dev/zero", &out, &err), 1);
    assert_non_null(strstr(err, "/dev/zero:1: line longer than 8 MiB"));
    assert_string_equal(out, "");
    free(out);
    free(err);
    assert_bounded("parse /dev/zero");
}

/* 600 MiB of zeros through a pipe: one endless line on standard input. */
static void test_zeros_on_stdin(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(run_parse("head -c 600M /dev/zero", "-", &out, &err), 1);
    assert_non_null(strstr(err, "<stdin>:1: line longer than 8 MiB"));
    free(out);
    free(err);
    assert_bounded("head -c 600M /dev/zero | parse -");
}

/* Endless lines on standard input: reading stops at 32 MiB, at a line it names. */
static void test_endless_stdin(void **state)
{
    (void)state;
    char *out, *err, input[256];
    snprintf(input, sizeof input, "(echo '%s'; yes 'and the same again, forever')", dd_line);
    assert_int_equal(run_parse(input, "-", &out, &err), 1);
    const char *m = strstr(err, "<stdin>:");
    assert_non_null(m);
    long line = strtol(m + 8, NULL, 10);
    /* 32 MiB of 28-byte lines, give or take the chunk the limit fell in */
    assert_true(line > (32 << 20) / 28 - 4096 && line < (32 << 20) / 28 + 4096);
    assert_non_null(strstr(m, "more than 32 MiB from a pipe or device"));
    assert_non_null(strstr(out, "\"io_bytes\":1073741824")); /* the record before is kept */
    free(out);
    free(err);
    assert_bounded("(dd line; yes) | parse -");
}

/* A 200 MiB line in a regular file after a good dd summary. */
static void test_huge_line_in_file(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), cmd[1024], *out, *err;
    snprintf(cmd, sizeof cmd,
             "(echo '%s'; head -c 200M /dev/zero | tr '\\0' x; echo; echo '%s') > %s/big.txt",
             dd_line, dd_line, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/big.txt", dir);
    assert_int_equal(run_parse(NULL, cmd, &out, &err), 1);
    assert_non_null(strstr(err, "big.txt:2: line longer than 8 MiB"));
    assert_non_null(strstr(out, "\"line\":1,"));
    assert_null(strstr(out, "\"line\":3,")); /* reading stopped at line 2 */
    free(out);
    free(err);
    assert_bounded("parse FILE with a 200 MiB line");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* A 2 GiB file of one line (sparse: no disk is used), the case: stops at once. */
static void test_two_gib_line(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[1024], *out, *err;
    snprintf(path, sizeof path, "%s/two-gib.txt", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(truncate(path, (off_t)2 << 30), 0);
    assert_int_equal(run_parse(NULL, path, &out, &err), 1);
    assert_non_null(strstr(err, "two-gib.txt:1: line longer than 8 MiB"));
    assert_string_equal(out, "");
    free(out);
    free(err);
    assert_bounded("parse a 2 GiB one-line file");
    unlink(path);
    rmdir(dir);
    free(dir);
}

/* A NUL in the first 64 KiB: that line is an error, the records around it stay. */
static void test_nul_spoils_its_line(void **state)
{
    (void)state;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s\n", dd_line);
    bl_strbuf_puts(&sb, "some text with a ");
    bl_strbuf_putn(&sb, "\0", 1);
    bl_strbuf_puts(&sb, " in it\r\n");
    bl_strbuf_printf(&sb, "%s\r\n", dd_line);
    bl_text t;
    char msg[128];
    assert_int_equal(bl_text_from_bytes(&t, "nul", sb.s, sb.len, msg, sizeof msg), 0);
    bl_parse_out o;
    bl_out_init(&o, "nul");
    bl_parse_opts opts = {0};
    assert_int_equal(bl_parse_text(&t, &opts, &o), 1);
    assert_int_equal(o.recs.n, 2);
    assert_int_equal(o.recs.v[0]->line, 1);
    assert_int_equal(o.recs.v[1]->line, 3);
    assert_int_equal(o.recs.v[1]->io_bytes, 1073741824);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 2);
    assert_non_null(strstr(o.diags[0].msg, "NUL byte"));
    bl_out_free(&o);
    bl_text_free(&t);
    bl_strbuf_free(&sb);
}

/* Many files on one command line: each file's records are printed (or stored) and freed
 * before the next is read, so thirty files of 4000 dd transfers each (120,000 records) peak
 * like one of them. Held until the end, they took 108 MB against 14 MB for one. */
static void test_many_files_one_at_a_time(void **state)
{
    (void)state;
    if (!bl_test_memory_measurable())
        bl_skip_because("memory measurement: ASan and valgrind hold memory of their own");
    char *dir = bl_test_tmpdir(), path[512];
    for (int f = 0; f < 30; f++) {
        snprintf(path, sizeof path, "%s/f%02d.txt", dir, f);
        FILE *o = fopen(path, "w");
        assert_non_null(o);
        for (long i = 0; i < 4000; i++) {
            long n = 1 + f * 4000L + i;
            double secs = 1.5 + (double)(i % 7); /* and the rate dd would print for it */
            fprintf(o, "%ld+0 records in\n%ld+0 records out\n%ld bytes copied, %.1f s, %.0f kB/s\n",
                    n, n, n * 1048576L, secs, (double)n * 1048576 / secs / 1e3);
        }
        assert_int_equal(fclose(o), 0);
    }
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s parse %s/f00.txt >/dev/null", bin, dir);
    long one = bl_test_peak_kib_of(cmd, NULL);
    snprintf(cmd, sizeof cmd, "%s parse %s/f*.txt | wc -l >%s/n", bin, dir, dir);
    long all = bl_test_peak_kib_of(cmd, NULL);
    snprintf(path, sizeof path, "%s/n", dir);
    char *n = bl_test_slurp(path);
    assert_int_equal(atol(n), 30 * 4000); /* one record a transfer */
    free(n);
    snprintf(cmd, sizeof cmd, "%s import --db %s/s.db %s/f*.txt 2>/dev/null", bin, dir, dir);
    long stored = bl_test_peak_kib_of(cmd, NULL);
    fprintf(stderr, "peak RSS: parse 1 file %ld KiB, 30 files %ld KiB, import 30 files %ld KiB\n",
            one, all, stored);
    assert_true(all < one * 2);
    assert_true(stored < one * 3);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    /* cheapest first: a peak is the largest so far, so each figure printed bounds its test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dev_zero),
        cmocka_unit_test(test_zeros_on_stdin),
        cmocka_unit_test(test_two_gib_line),
        cmocka_unit_test(test_huge_line_in_file),
        cmocka_unit_test(test_endless_stdin),
        cmocka_unit_test(test_nul_spoils_its_line),
        cmocka_unit_test(test_many_files_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
