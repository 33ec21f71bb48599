/* Hostile and broken input: every format and detection survive it, report FILE:LINE, and keep
 * the good records. Also every fuzzer finding in fixtures/fuzz/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "../runner/job.h"
#include "support/support.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parses bytes with detection and with every format; returns the records of detection. */
static size_t parse_everyway(const char *bytes, size_t len, size_t *n_diags)
{
    bl_text t;
    char err[256];
    if (bl_text_from_bytes(&t, "hostile", bytes, len, err, sizeof err) != 0) {
        *n_diags = 1;
        return 0;
    }
    size_t recs = 0;
    for (size_t f = 0; f <= bl_format_count(); f++) {
        bl_parse_opts opts = {.as = f == 0 ? "auto" : bl_format_at(f - 1)->name};
        bl_parse_out out;
        bl_out_init(&out, "hostile");
        bl_parse_text(&t, &opts, &out);
        if (f == 0) {
            recs = out.recs.n;
            *n_diags = out.n_diags;
        }
        bl_out_free(&out);
    }
    bl_text_free(&t);
    return recs;
}

/* The runner's job-file reader on the same bytes: errors, never undefined behaviour. */
static void read_jobfile(const char *bytes, size_t len)
{
    bl_text t;
    char err[256];
    if (bl_text_from_bytes(&t, "fuzz.fio", bytes, len, err, sizeof err) != 0)
        return;
    bl_jobs jobs = {0};
    bl_diags out;
    bl_diags_init(&out, "fuzz.fio");
    bl_jobfile_parse(&t, &jobs, &out);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    bl_text_free(&t);
}

static void test_fuzz_findings(void **state)
{
    (void)state;
    DIR *d = opendir("fixtures/fuzz");
    assert_non_null(d);
    struct dirent *e;
    size_t files = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "fixtures/fuzz/%s", e->d_name);
        size_t len, diags;
        char *bytes = bl_test_slurp_n(path, &len);
        parse_everyway(bytes, len, &diags);
        if (strstr(e->d_name, ".fio"))
            read_jobfile(bytes, len);
        free(bytes);
        files++;
    }
    closedir(d);
    assert_true(files >= 4);
}

static const char good_dd[] = "16384+0 records in\n16384+0 records out\n"
                              "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s\n";

static void test_out_of_range_keeps_good(void **state)
{
    (void)state;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, good_dd);
    bl_strbuf_puts(&sb, "99999999999999999999999 bytes (1 GB) copied, 1e400 s, 630 MB/s\n");
    bl_strbuf_puts(&sb, good_dd);
    size_t diags;
    assert_int_equal(parse_everyway(sb.s, sb.len, &diags), 2);
    assert_int_equal(diags, 1);
    bl_strbuf_free(&sb);
}

static void test_nul_and_invalid_utf8(void **state)
{
    (void)state;
    static const char nul[] = "abc\0def\n";
    size_t diags;
    assert_int_equal(parse_everyway(nul, sizeof nul - 1, &diags), 0);
    assert_true(diags > 0);
    /* Invalid UTF-8 in prose around a result: the result is kept, the text made valid. */
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "caf\xe9 \xff\xfe results\n");
    bl_strbuf_puts(&sb, good_dd);
    assert_int_equal(parse_everyway(sb.s, sb.len, &diags), 1);
    bl_strbuf_free(&sb);
}

static void test_huge_line(void **state)
{
    (void)state;
    size_t n = 50u << 20;
    char *big = bl_xmalloc(n + sizeof good_dd);
    memset(big, 'x', n);
    big[n - 1] = '\n';
    memcpy(big + n, good_dd, sizeof good_dd);
    size_t diags;
    assert_int_equal(parse_everyway(big, n + sizeof good_dd - 1, &diags), 1);
    free(big);
}

static void test_truncated(void **state)
{
    (void)state;
    /* Cut in the middle of the summary line: no record, no crash. */
    for (size_t cut = 0; cut < sizeof good_dd - 1; cut++) {
        size_t diags;
        size_t recs = parse_everyway(good_dd, cut, &diags);
        assert_true(recs <= 1);
    }
}

/* Root reads everything, so as root the program is run as nobody (runuser) on a 0600 file. */
static void test_permission_denied(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    chmod(dir, 0755);
    char path[512], args[1024];
    snprintf(path, sizeof path, "%s/locked.txt", dir);
    FILE *f = fopen(path, "w");
    fputs(good_dd, f);
    fclose(f);
    chmod(path, 0);
    char *out, *err;
    int rc;
    if (geteuid() == 0) {
        const char *bin = getenv("BENCHLOG_BIN");
        char probe[1024];
        snprintf(probe, sizeof probe, "runuser -u nobody -- test -x %s 2>/dev/null",
                 bin ? bin : "build/benchlog");
        if (system(probe) != 0)
            bl_skip_because("runuser cannot run the binary as nobody (no runuser, or the "
                            "build folder is not reachable by nobody)");
        snprintf(args, sizeof args, "--version >/dev/null; runuser -u nobody -- %s parse %s",
                 bin ? bin : "build/benchlog", path);
    } else {
        snprintf(args, sizeof args, "parse %s", path);
    }
    rc = bl_test_benchlog(args, &out, &err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "locked.txt: cannot open: Permission denied"));
    free(out);
    free(err);
    unlink(path);
    rmdir(dir);
    free(dir);
}

/* 100,000 runs in one source: every path from text to store must stay near-linear. */
static void test_many_runs(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char path[512], args[1024];
    snprintf(path, sizeof path, "%s/many.txt", dir);
    FILE *f = fopen(path, "w");
    for (int i = 0; i < 100000; i++) {
        char secs[16]; /* and the rate dd would print for these bytes in that time */
        snprintf(secs, sizeof secs, "0.%05d", i + 1);
        fprintf(f, "Run %d\n\n%d bytes (1 MB) copied, %s s, %.0f kB/s\n\n", i, 1000000 + i, secs,
                (1000000 + i) / atof(secs) / 1e3);
    }
    fclose(f);
    bl_parse_out out;
    assert_int_equal(bl_test_parse(path, NULL, &out), 0);
    assert_int_equal(out.recs.n, 100000);
    const bl_record *last = out.recs.v[99999];
    assert_int_equal(last->run, 100000);
    assert_int_equal(last->io_bytes, 1099999);
    assert_string_equal(bl_record_label(last, "section"), "Run 99999");
    bl_out_free(&out);
    snprintf(args, sizeof args, "import --db %s/s.db %s", dir, path);
    char *imported;
    assert_int_equal(bl_test_benchlog(args, &imported, NULL), 0);
    assert_non_null(strstr(imported, "imported 100000 records in 100000 runs"));
    free(imported);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

/* Parses text with one format; returns records, fills the first diagnostic. */
static size_t parse_as(const char *as, const char *bytes, size_t len, long *line, char *msg,
                       size_t msglen)
{
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "h", bytes, len, err, sizeof err), 0);
    bl_parse_opts opts = {.as = as};
    bl_parse_out out;
    bl_out_init(&out, "h");
    bl_parse_text(&t, &opts, &out);
    size_t n = out.recs.n;
    *line = out.n_diags ? out.diags[0].line : -1;
    snprintf(msg, msglen, "%s", out.n_diags ? out.diags[0].msg : "");
    bl_out_free(&out);
    bl_text_free(&t);
    return n;
}

/* Duplicate keys: JSON's last value wins, as in every JSON reader fio's users have. */
static void test_json_duplicate_keys(void **state)
{
    (void)state;
    static const char doc[] =
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"jobname\":\"b\","
        "\"groupid\":0,\"read\":{\"io_bytes\":4096,\"io_bytes\":8192,\"io_kbytes\":8,"
        "\"bw_bytes\":8192,"
        "\"iops\":2,\"runtime\":1000,\"clat_ns\":{\"min\":1,\"max\":2,\"mean\":1.5,"
        "\"stddev\":0.5}},\"job options\":{\"rw\":\"read\",\"bs\":\"4k\"}}]}\n";
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "h", doc, sizeof doc - 1, err, sizeof err), 0);
    bl_parse_opts opts = {.as = "fio-json"};
    bl_parse_out out;
    bl_out_init(&out, "h");
    assert_int_equal(bl_parse_text(&t, &opts, &out), 0);
    assert_int_equal(out.recs.n, 1);
    assert_string_equal(bl_record_label(out.recs.v[0], "job"), "b");
    assert_int_equal(out.recs.v[0]->io_bytes, 8192);
    bl_out_free(&out);
    bl_text_free(&t);
}

/* 100,000 levels of nesting: a clear error on line 1, no stack overflow. */
static void test_json_deep_nesting(void **state)
{
    (void)state;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "{\"fio version\":\"fio-3.33\",\"jobs\":");
    for (int i = 0; i < 100000; i++)
        bl_strbuf_putc(&sb, '[');
    for (int i = 0; i < 100000; i++)
        bl_strbuf_putc(&sb, ']');
    bl_strbuf_puts(&sb, "}\n");
    long line;
    char msg[256];
    assert_int_equal(parse_as("fio-json", sb.s, sb.len, &line, msg, sizeof msg), 0);
    assert_int_equal(line, 1);
    assert_non_null(strstr(msg, "depth"));
    size_t diags;
    parse_everyway(sb.s, sb.len, &diags);
    assert_true(diags > 0);
    bl_strbuf_free(&sb);
}

/* Time going back in a fio log: said once with its line, the summary kept whole. */
static void test_log_time_backwards(void **state)
{
    (void)state;
    static const char log[] = "0, 100, 0, 4096\n500, 200, 0, 4096\n400, 300, 0, 4096\n"
                              "300, 400, 0, 4096\n1000, 500, 0, 4096\n";
    long line;
    char msg[256];
    assert_int_equal(parse_as("fio-log", log, sizeof log - 1, &line, msg, sizeof msg), 1);
    assert_int_equal(line, 3);
    assert_string_equal(msg, "fio log: time goes back from 500 ms to 400 ms");
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "h_clat.1.log", log, sizeof log - 1, err, sizeof err),
                     0);
    bl_parse_opts opts = {.as = "fio-log"};
    bl_parse_out out;
    bl_out_init(&out, "h_clat.1.log");
    assert_int_equal(bl_parse_text(&t, &opts, &out), 1);
    assert_int_equal(out.n_diags, 1);
    assert_double_equal(out.recs.v[0]->clat_ns.mean, 300, 1e-9);
    assert_double_equal(out.recs.v[0]->clat_ns.max, 500, 0);
    bl_out_free(&out);
    bl_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_findings),
        cmocka_unit_test(test_out_of_range_keeps_good),
        cmocka_unit_test(test_nul_and_invalid_utf8),
        cmocka_unit_test(test_huge_line),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_permission_denied),
        cmocka_unit_test(test_many_runs),
        cmocka_unit_test(test_json_duplicate_keys),
        cmocka_unit_test(test_json_deep_nesting),
        cmocka_unit_test(test_log_time_backwards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
