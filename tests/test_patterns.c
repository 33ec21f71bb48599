/* Pattern files: a format for an invented tool (figures, units, context labels, runs), the
 * shipped hdparm and sysbench pattern files against the C formats, broken files reported
 * as FILE:LINE with PCRE2's message, and the command line (--patterns, the user folder). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "formats_util.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>

static bl_patterns *load(const char *path)
{
    bl_patterns *p = bl_patterns_new();
    bl_parse_out errs;
    bl_out_init(&errs, path);
    assert_int_equal(bl_patterns_load_file(p, path, &errs), 0);
    assert_int_equal(errs.n_diags, 0);
    bl_out_free(&errs);
    return p;
}

static void parse_with(const char *file, const bl_patterns *p, const char *as, bl_parse_out *o)
{
    char err[256];
    bl_text t;
    assert_int_equal(bl_text_load(&t, file, err, sizeof err), 0);
    bl_parse_opts opts = {.as = as, .patterns = p};
    bl_out_init(o, file);
    assert_int_equal(bl_parse_text(&t, &opts, o), 0);
    bl_text_free(&t);
}

static double pct(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == p)
            return l->pct[i].value;
    return NAN;
}

static void test_invented_tool(void **state)
{
    (void)state;
    bl_patterns *p = load("fixtures/patterns/ziobench.pat");
    bl_parse_out o;
    parse_with("fixtures/patterns/ziobench-2.1_handwritten.txt", p, NULL, &o);
    assert_int_equal(o.recs.n, 3);
    assert_int_equal(fu_runs(&o, "ZioBench"), 2);
    /* "  randread   bs=4k  qd=32 : 512.5 MiB/s  131200 IOPS  avg 243.1 us  p99 612 us" */
    const bl_record *r = o.recs.v[0];
    assert_string_equal(r->tool, "ZioBench");
    assert_string_equal(r->test, "rand-read");
    assert_string_equal(r->op, "read");
    assert_int_equal(r->bs, 4096);
    assert_int_equal(r->iodepth, 32);
    assert_double_equal(r->bw_bytes_s, 512.5 * 1048576, 1e-6);
    assert_double_equal(r->iops, 131200, 0);
    assert_double_equal(r->lat_ns.mean, 243100, 1e-6);
    assert_double_equal(pct(&r->lat_ns, 99), 612000, 1e-6);
    assert_string_equal(bl_record_label(r, "target"), "nvme0n1");
    assert_int_equal(r->line, 5);
    /* "  seqwrite   bs=1m  qd=1  : 1.8 GiB/s   1843 IOPS   avg 540 us   p99 1.2 ms" */
    r = o.recs.v[1];
    assert_string_equal(r->test, "seq-write");
    assert_int_equal(r->bs, 1048576);
    assert_double_equal(r->bw_bytes_s, 1.8 * 1073741824, 1e-3);
    assert_double_equal(pct(&r->lat_ns, 99), 1.2e6, 1e-6);
    r = o.recs.v[2];
    assert_string_equal(bl_record_label(r, "target"), "sda");
    assert_double_equal(r->lat_ns.mean, 3.2e6, 1e-6);
    assert_true(r->run != o.recs.v[0]->run);
    bl_out_free(&o);

    /* Without the pattern file no format of ours claims the text. */
    char err[256];
    bl_text t;
    assert_int_equal(
        bl_text_load(&t, "fixtures/patterns/ziobench-2.1_handwritten.txt", err, sizeof err), 0);
    for (size_t f = 0; f < bl_format_count(); f++)
        assert_int_equal(bl_format_at(f)->probe(&t), 0);
    bl_text_free(&t);
    bl_patterns_free(p);
}

/* The shipped hdparm pattern file gives the C format's figures on the real fixtures. */
static void test_hdparm_pattern_matches_c(void **state)
{
    (void)state;
    bl_patterns *p = load("patterns/hdparm.pat");
    static const char *const files[] = {
        "fixtures/hdparm/hdparm-9.65_t_x3.txt", "fixtures/hdparm/hdparm-9.65_tT.txt",
        "fixtures/hdparm/hdparm-9.65_tT_direct.txt", "fixtures/hdparm/hdparm-9.65_t_offset.txt",
        "fixtures/hdparm/hdparm-6.x_handwritten_old_wording.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        bl_parse_out c, q;
        parse_with(files[i], p, "hdparm", &c);
        parse_with(files[i], p, "hdparm-pat", &q);
        assert_true(c.recs.n > 0);
        assert_int_equal(c.recs.n, q.recs.n);
        for (size_t k = 0; k < c.recs.n; k++) {
            const bl_record *a = c.recs.v[k], *b = q.recs.v[k];
            assert_string_equal(a->test, b->test);
            assert_int_equal(a->direct, b->direct);
            assert_int_equal(a->io_bytes, b->io_bytes);
            assert_double_equal(a->runtime_s, b->runtime_s, 0);
            assert_double_equal(a->bw_bytes_s, b->bw_bytes_s, 1e-6);
            assert_int_equal(a->run, b->run);
            assert_string_equal(bl_record_label(a, "device"), bl_record_label(b, "device"));
        }
        bl_out_free(&c);
        bl_out_free(&q);
    }
    bl_patterns_free(p);
}

/* The shipped sysbench pattern file: same directions, IOPS and latencies as the C format;
 * its bandwidth is sysbench's printed MiB/s (the C format's is IOPS x bs). */
static void test_sysbench_pattern(void **state)
{
    (void)state;
    bl_patterns *p = load("patterns/sysbench.pat");
    static const char *const files[] = {"fixtures/sysbench/sysbench-1.0.20_rndrw.txt",
                                        "fixtures/sysbench/sysbench-1.0.20_seqwr.txt",
                                        "fixtures/sysbench/sysbench-1.0.20_rndwr_2threads.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        bl_parse_out c, q;
        parse_with(files[i], p, "sysbench", &c);
        parse_with(files[i], p, "sysbench-pat", &q);
        assert_int_equal(c.recs.n, q.recs.n);
        for (size_t k = 0; k < c.recs.n; k++) {
            const bl_record *a = c.recs.v[k], *b = q.recs.v[k];
            assert_string_equal(a->op, b->op);
            assert_int_equal(a->bs, b->bs);
            assert_int_equal(a->numjobs, b->numjobs);
            assert_double_equal(a->iops, b->iops, 0);
            assert_double_equal(a->runtime_s, b->runtime_s, 0);
            assert_double_equal(b->bw_bytes_s / 1048576, a->bw_bytes_s / 1048576, 0.005);
            assert_double_equal(a->lat_ns.max, b->lat_ns.max, 1e-6);
            assert_double_equal(pct(&a->lat_ns, 95), pct(&b->lat_ns, 95), 1e-6);
        }
        bl_out_free(&c);
        bl_out_free(&q);
    }
    bl_patterns_free(p);
}

/* Writes text to a new file in dir and loads it; returns the messages, one a line. */
static char *load_broken(const char *dir, const char *name, const char *text, int *loaded)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    bl_patterns *p = bl_patterns_new();
    bl_parse_out errs;
    bl_out_init(&errs, path);
    *loaded = bl_patterns_load_file(p, path, &errs) == 0;
    assert_int_equal(bl_patterns_count(p), *loaded ? 1 : 0);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < errs.n_diags; i++)
        bl_strbuf_printf(&sb, "%s:%ld: %s\n", errs.diags[i].source, errs.diags[i].line,
                         errs.diags[i].msg);
    bl_out_free(&errs);
    bl_patterns_free(p);
    return sb.s ? bl_strbuf_take(&sb) : bl_xstrdup("");
}

static void test_broken_patterns(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char want[600];
    int loaded;
    static const struct {
        const char *name, *text, *line_and_msg;
    } cases[] = {
        {"paren.pat", "format zz\ndetect ^ZZ\nrecord ^(?<bw>[\\d.]+ MB/s\n",
         "paren.pat:3: pattern error at offset 18: missing closing parenthesis"},
        {"detect.pat", "format zz\n\ndetect ^ZZ(\nrecord ^(?<bw>\\d+)\n",
         "detect.pat:3: pattern error at offset 4: missing closing parenthesis"},
        {"quant.pat", "format zz\ndetect ^ZZ\nrecord ^*x\n",
         "quant.pat:3: pattern error at offset 1: quantifier does not follow a repeatable item"},
        {"field.pat", "format zz\ndetect ^ZZ\n# comment\nrecord ^(?<speed>\\d+)\n",
         "field.pat:4: capture 'speed' is no record field"},
        {"word.pat", "format zz\ndetect ^ZZ\nrecrod ^x\n",
         "word.pat:3: unknown directive 'recrod'"},
        {"unit.pat", "format zz\ndetect ^ZZ\nrecord ^(?<bw>\\d+)\nunit bw furlongs/s\n",
         "unit.pat:4: unknown unit 'furlongs/s' for bw"},
        {"name.pat", "format dd\ndetect ^ZZ\nrecord ^(?<bw>\\d+)\n",
         "name.pat:1: format name 'dd' is not a free name"},
        {"nodetect.pat", "format zz\nrecord ^(?<bw>\\d+)\n", "nodetect.pat:0: no 'detect' pattern"},
        {"set.pat", "format zz\ndetect ^ZZ\nrecord ^(?<bw>\\d+)\nset iops many\n",
         "set.pat:4: set: 'iops' is no field or 'many' is no value for it"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *msgs = load_broken(dir, cases[i].name, cases[i].text, &loaded);
        assert_false(loaded);
        snprintf(want, sizeof want, "%s/%s", dir, cases[i].line_and_msg);
        if (!strstr(msgs, want))
            fail_msg("case %s: want '%s' in:\n%s", cases[i].name, want, msgs);
        free(msgs);
    }
    /* A text line whose unit capture names no unit: refused with the text's FILE:LINE. */
    char *msgs = load_broken(
        dir, "ok.pat", "format zz\ndetect ^ZZ\nrecord ^(?<bw>\\d+) (?<u>\\S+)$\nunit bw from u\n",
        &loaded);
    assert_true(loaded);
    free(msgs);
    char path[512];
    snprintf(path, sizeof path, "%s/ok.pat", dir);
    bl_patterns *p = load(path);
    const char *text = "ZZ\n12 MB/s\n13 parsecs\n";
    char err[128];
    bl_text t;
    assert_int_equal(bl_text_from_bytes(&t, "zz.txt", text, strlen(text), err, sizeof err), 0);
    bl_parse_opts opts = {.patterns = p};
    bl_parse_out o;
    bl_out_init(&o, "zz.txt");
    assert_int_equal(bl_parse_text(&t, &opts, &o), 1);
    assert_int_equal(o.recs.n, 1);
    assert_double_equal(o.recs.v[0]->bw_bytes_s, 12e6, 0);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 3);
    assert_non_null(strstr(o.diags[0].msg, "unknown unit 'parsecs' for bw"));
    bl_out_free(&o);
    bl_text_free(&t);
    bl_patterns_free(p);
    free(dir);
}

static void test_command_line(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    int rc = bl_test_benchlog("parse --patterns fixtures/patterns/ziobench.pat "
                              "fixtures/patterns/ziobench-2.1_handwritten.txt",
                              &out, &err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "\"bw_bytes_s\":537395200,\"iops\":131200"));
    free(out);
    free(err);
    /* The per-user folder, and --as with a pattern format's name. */
    char *dir = bl_test_tmpdir();
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/benchlog/patterns && cp fixtures/patterns/ziobench.pat "
             "%s/benchlog/patterns/ && XDG_CONFIG_HOME=%s %s parse --as ziobench "
             "fixtures/patterns/ziobench-2.1_handwritten.txt",
             dir, dir, dir, getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog");
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, "\"tool\":\"ZioBench\"") != NULL;
    assert_int_equal(pclose(f), 0);
    assert_int_equal(n, 3);
    /* A broken file in the user's folder is reported and left out; the others still work. */
    snprintf(cmd, sizeof cmd,
             "printf 'format half\\ndetect ^(\\n' > %s/benchlog/patterns/half.pat && "
             "XDG_CONFIG_HOME=%s %s parse fixtures/patterns/ziobench-2.1_handwritten.txt "
             "2>%s/err.txt",
             dir, dir, getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog", dir);
    f = popen(cmd, "r");
    assert_non_null(f);
    n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, "\"tool\":\"ZioBench\"") != NULL;
    assert_int_equal(pclose(f), 0);
    assert_int_equal(n, 3);
    snprintf(cmd, sizeof cmd, "%s/err.txt", dir);
    f = fopen(cmd, "r");
    assert_non_null(f);
    size_t got = fread(line, 1, sizeof line - 1, f);
    line[got] = '\0';
    fclose(f);
    assert_non_null(
        strstr(line, "half.pat:2: pattern error at offset 2: missing closing parenthesis"));
    /* A broken pattern file: FILE:LINE and PCRE2's message, usage status 2. */
    snprintf(cmd, sizeof cmd, "%s/bad.pat", dir);
    f = fopen(cmd, "w");
    fputs("format bad\ndetect ^(x\nrecord ^(?<bw>\\d+)\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "parse --patterns %s/bad.pat fixtures/dd/gnu-dd-9.1_C_time.txt", dir);
    rc = bl_test_benchlog(cmd, &out, &err);
    assert_int_equal(rc, 2);
    snprintf(cmd, sizeof cmd,
             "%s/bad.pat:2: pattern error at offset 3: missing closing parenthesis", dir);
    assert_non_null(strstr(err, cmd));
    free(out);
    free(err);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invented_tool),    cmocka_unit_test(test_hdparm_pattern_matches_c),
        cmocka_unit_test(test_sysbench_pattern), cmocka_unit_test(test_broken_patterns),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
