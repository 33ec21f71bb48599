/* bonnie++: corpus files and our own bonnie++ 2.00a runs, figure by figure (K/sec x 1024). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "support/support.h"
#include <math.h>
#include <stdlib.h>

static int parse_corpus(const char *rel, const char *as, bl_parse_out *o)
{
    char *p = bl_test_corpus(rel);
    if (!p)
        return -1;
    bl_out_init(o, rel);
    int rc = bl_test_parse(p, as, o);
    free(p);
    return rc;
}

static void test_freebsd_human_and_csv(void **state)
{
    (void)state;
    bl_parse_out o;
    int rc = parse_corpus("bonnie/bonnie-1.97_freebsd_truncated_hostname.txt", NULL, &o);
    if (rc < 0)
        skip();
    assert_int_equal(rc, 0);
    assert_int_equal(o.recs.n, 10); /* -f: no per-char tests; one run, not two */
    assert_int_equal(fu_runs(&o, "bonnie++"), 1);
    assert_null(fu_find(&o, "seq-write-char", NULL, NULL, 0));
    const bl_record *r = fu_find(&o, "seq-write-block", NULL, NULL, 0);
    assert_string_equal(bl_record_label(r, "host"), "RAIDZ2_FreeNAS_11"); /* CSV's full name */
    assert_double_equal(r->bw_bytes_s, 323909.0 * 1024, 0);
    assert_double_equal(r->cpu_pct, 93, 0);
    assert_double_equal(r->lat_ns.max, 30609e3, 0);
    assert_int_equal(r->size_bytes, 64LL << 30);
    r = fu_find(&o, "seq-read-block", NULL, NULL, 0);
    assert_double_equal(r->lat_ns.max, 144e6, 0);
    r = fu_find(&o, "rand-seeks", NULL, NULL, 0);
    assert_double_equal(r->value, 5134, 0);
    assert_double_equal(r->cpu_pct, 279, 0);
    r = fu_find(&o, "seq-stat", NULL, NULL, 0);
    assert_false(bl_present(r->value));
    assert_string_equal(r->note, "+++++: too fast to measure");
    assert_double_equal(r->lat_ns.max, 763e3, 0);
    r = fu_find(&o, "seq-delete", NULL, NULL, 0);
    assert_double_equal(r->value, 168, 0);
    assert_double_equal(r->lat_ns.max, 1316e6, 0);
    bl_out_free(&o);
}

/* The table alone (no CSV): cells placed by column, the truncated host as printed. */
static void test_human_table_only(void **state)
{
    (void)state;
    char *p = bl_test_corpus("bonnie/bonnie-1.97_freebsd_truncated_hostname.txt");
    if (!p)
        skip();
    FILE *in = fopen(p, "r");
    char *dir = bl_test_tmpdir(), path[512], line[512];
    snprintf(path, sizeof path, "%s/table.txt", dir);
    FILE *out = fopen(path, "w");
    while (fgets(line, sizeof line, in))
        if (strncmp(line, "1.97,", 5) != 0)
            fputs(line, out);
    fclose(in);
    fclose(out);
    bl_parse_out o;
    bl_out_init(&o, path);
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    assert_int_equal(o.recs.n, 10);
    const bl_record *r = fu_find(&o, "seq-rewrite", NULL, NULL, 0);
    assert_string_equal(bl_record_label(r, "host"), "RAIDZ2_FreeNAS_");
    assert_double_equal(r->bw_bytes_s, 233544.0 * 1024, 0);
    assert_double_equal(r->lat_ns.max, 50234e3, 0);
    r = fu_find(&o, "seq-read-block", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 662164.0 * 1024, 0);
    assert_int_equal(r->line, 8);
    r = fu_find(&o, "rand-delete", NULL, NULL, 0);
    assert_double_equal(r->value, 215, 0);
    assert_double_equal(r->lat_ns.max, 7344e3, 0);
    bl_out_free(&o);
    remove(path);
    free(dir);
    free(p);
}

static void test_csv_generations(void **state)
{
    (void)state;
    bl_parse_out o;
    int rc = parse_corpus("bonnie/bonnie-1.96_csv_7lines_incl_1.03_line.csv", NULL, &o);
    if (rc < 0)
        skip();
    assert_int_equal(rc, 0);
    assert_int_equal(o.recs.n, 7 * 12);
    assert_int_equal(fu_runs(&o, "bonnie++"), 7);
    const bl_record *r = fu_find(&o, "seq-write-block", "host", "host1", 0);
    assert_double_equal(r->bw_bytes_s, 110033.0 * 1024, 0);
    assert_string_equal(r->tool_version, "1.96");
    r = fu_find(&o, "seq-read-char", "host", "host6", 0); /* +++++,+++ */
    assert_string_equal(r->note, "+++++: too fast to measure");
    assert_double_equal(r->lat_ns.max, 3891e3, 0);
    r = fu_find(&o, "rand-seeks", "host", "host7", 0); /* the 1.03 line: host first */
    assert_double_equal(r->value, 330.6, 1e-9);
    assert_null(r->tool_version);
    r = fu_find(&o, "seq-create", "host", "host7", 0);
    assert_double_equal(r->value, 216, 0);
    assert_string_equal(bl_record_label(r, "files"), "256");
    bl_out_free(&o);
    rc = parse_corpus("bonnie/bonnie-1.96_csv_pkb.txt", "bonnie-csv", &o);
    assert_int_equal(rc, 0);
    assert_int_equal(o.recs.n, 10);
    bl_out_free(&o);
    rc = parse_corpus("bonnie/bonnie-1.97_human_plus_csv_gce.txt", NULL, &o);
    assert_int_equal(rc, 0);
    assert_int_equal(o.recs.n, 12);
    r = fu_find(&o, "seq-write-char", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 736.0 * 1024, 0);
    assert_double_equal(fu_find(&o, "rand-seeks", NULL, NULL, 0)->value, 9677, 0);
    bl_out_free(&o);
}

/* fixtures/bonnie: bonnie++ 2.00a run here (table + 1.98 CSV), -q CSV, bon_csv2txt. */
static void test_fixtures(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "f");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("bonnie/bonnie-2.00a_s256_n2.txt", buf, sizeof buf), NULL,
                      &o),
        0);
    assert_int_equal(o.recs.n, 12);
    const bl_record *r = fu_find(&o, "seq-write-block", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 264958.0 * 1024, 0); /* CSV, the table says 259m */
    assert_double_equal(r->cpu_pct, 89, 0);
    assert_double_equal(r->lat_ns.max, 948e3, 0);
    assert_string_equal(r->tool_version, "2.00a");
    assert_string_equal(bl_record_label(r, "host"), "fixturehost");
    r = fu_find(&o, "seq-write-char", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 1153.0 * 1024, 0);
    assert_int_equal(r->bs, 1);
    assert_int_equal(fu_count(&o, NULL, "files", "2"), 6);
    r = fu_find(&o, "rand-seeks", NULL, NULL, 0); /* 1.98 CSV: 8192 seeks by 5 processes */
    assert_string_equal(bl_record_label(r, "seeks"), "8192");
    assert_string_equal(bl_record_label(r, "seek_procs"), "5");
    bl_out_free(&o);
    bl_out_init(&o, "f");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("bonnie/bon_csv2txt-2.00a.txt", buf, sizeof buf), NULL, &o),
        0);
    assert_int_equal(o.recs.n, 12);
    r = fu_find(&o, "seq-read-char", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 2068.0 * 1024, 0);
    r = fu_find(&o, "seq-read-block", NULL, NULL, 0); /* "0k +++" */
    assert_string_equal(r->note, "+++++: too fast to measure");
    r = fu_find(&o, "rand-create", NULL, NULL, 0);
    assert_double_equal(r->value, 1952, 0);
    assert_double_equal(r->lat_ns.max, 1758e3, 0);
    /* "128M::8192:5" is size:chunk_size:seeks:seek_procs, as the CSV line has them */
    r = fu_find(&o, "rand-seeks", NULL, NULL, 0);
    assert_string_equal(bl_record_label(r, "seeks"), "8192");
    assert_string_equal(bl_record_label(r, "seek_procs"), "5");
    assert_int_equal(fu_find(&o, "seq-read-block", NULL, NULL, 0)->bs, -1); /* chunk empty */
    bl_out_free(&o);
}

/* The CSV's seed field (1.96 on) is getpid() ^ time(NULL) of the run, or -z's number: not the
 * run's time (this fixture's, 1796459238, is pid 4398 XOR 1796463560, 4398 s early), so a
 * bonnie++ record has no `when` of the text's; the import gives it --when's or the file's. */
static void test_seed_is_no_time(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    assert_int_equal(
        bl_test_parse(bl_test_fixture("bonnie/bonnie-2.00a_seed_pid_4398.csv", buf, sizeof buf),
                      NULL, &o),
        0);
    assert_int_equal(o.recs.n, 6); /* -s 0: the six file tests */
    const bl_record *r = fu_find(&o, "seq-create", NULL, NULL, 0);
    assert_non_null(r);
    assert_double_equal(r->value, 1526, 0); /* "1526,46" */
    for (size_t i = 0; i < o.recs.n; i++) {
        assert_null(o.recs.v[i]->when);
        assert_null(o.recs.v[i]->when_from);
        assert_null(bl_record_label(o.recs.v[i], "date"));
    }
    bl_out_free(&o);
}

/* bonnie++ 1.03 bon_csv2txt with -x 2 -f: blank per-char columns, file rows paired by order. */
static void test_fixture_103_two_runs(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "f");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("bonnie/bonnie-1.03_handtyped_x2_fast.txt", buf, sizeof buf),
                      NULL, &o),
        0);
    assert_int_equal(o.recs.n, 2 * 10);
    assert_int_equal(fu_runs(&o, "bonnie++"), 2);
    assert_null(fu_find(&o, "seq-read-char", NULL, NULL, 0));
    const bl_record *r = fu_find(&o, "seq-write-block", NULL, NULL, 1);
    assert_double_equal(r->bw_bytes_s, 30418.0 * 1024, 0);
    assert_double_equal(r->cpu_pct, 43, 0);
    assert_int_equal(r->line, 7);
    assert_string_equal(bl_record_label(r, "size"), "1G:32k");
    assert_int_equal(r->size_bytes, 1LL << 30);
    assert_int_equal(r->bs, 32768); /* the chunk size of "1G:32k" */
    assert_string_equal(r->tool_version, "1.03");
    assert_false(r->lat_ns.present); /* 1.03 has no Latency rows */
    r = fu_find(&o, "rand-seeks", NULL, NULL, 0);
    assert_double_equal(r->value, 151.2, 1e-9);
    r = fu_find(&o, "seq-delete", NULL, NULL, 1); /* second file row goes with the second run */
    assert_double_equal(r->value, 13377, 0);
    assert_int_equal(r->run, fu_find(&o, "seq-write-block", NULL, NULL, 1)->run);
    assert_int_equal(r->line, 12);
    r = fu_find(&o, "rand-stat", NULL, NULL, 0);
    assert_string_equal(r->note, "+++++: too fast to measure");
    assert_false(bl_present(r->cpu_pct));
    bl_out_free(&o);
}

/* bonnie++ 2.00's own table without its CSV line: "1153k" K/s, "259m" MiB/s, +++++. */
static void test_200_table_alone(void **state)
{
    (void)state;
    char buf[256], line[512], path[512];
    FILE *in = fopen(bl_test_fixture("bonnie/bonnie-2.00a_s256_n2.txt", buf, sizeof buf), "r");
    char *dir = bl_test_tmpdir();
    snprintf(path, sizeof path, "%s/t.txt", dir);
    FILE *out = fopen(path, "w");
    while (fgets(line, sizeof line, in))
        if (strncmp(line, "1.98,", 5) != 0)
            fputs(line, out);
    fclose(in);
    fclose(out);
    bl_parse_out o;
    bl_out_init(&o, path);
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    assert_int_equal(o.recs.n, 12);
    const bl_record *r = fu_find(&o, "seq-write-block", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 259.0 * 1048576, 0);
    assert_double_equal(r->lat_ns.max, 948e3, 0);
    r = fu_find(&o, "seq-write-char", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 1153.0 * 1024, 0);
    r = fu_find(&o, "seq-create", NULL, NULL, 0);
    assert_string_equal(r->note, "+++++: too fast to measure");
    assert_double_equal(r->lat_ns.max, 23614e3, 0);
    assert_string_equal(bl_record_label(r, "host"), "fixturehost");
    bl_out_free(&o);
    remove(path);
    free(dir);
}

/* CSV lines pasted under a heading: every run gets it, not only the first. */
static void test_csv_block_heading(void **state)
{
    (void)state;
    char buf[256], line[1024], path[512];
    FILE *in = fopen(bl_test_fixture("bonnie/bonnie-2.00a_quiet_csv.csv", buf, sizeof buf), "r");
    assert_non_null(fgets(line, sizeof line, in));
    fclose(in);
    char *dir = bl_test_tmpdir();
    snprintf(path, sizeof path, "%s/csv.txt", dir);
    FILE *out = fopen(path, "w");
    fprintf(out, "Some prose.\n\n## ext4 on md0\n\n%s%s", line, line);
    fclose(out);
    bl_parse_out o;
    bl_out_init(&o, path);
    assert_int_equal(bl_test_parse(path, NULL, &o), 0);
    assert_int_equal(o.recs.n, 24);
    assert_int_equal(fu_runs(&o, "bonnie++"), 2);
    assert_int_equal(fu_count(&o, "bonnie++", "section", "ext4 on md0"), 24);
    bl_out_free(&o);
    remove(path);
    free(dir);
}

/* --as auto: each fixture is claimed by its own format. */
static void test_auto_detect(void **state)
{
    (void)state;
    static const struct {
        const char *file, *format;
    } cases[] = {{"bonnie/bonnie-2.00a_s256_n2.txt", "bonnie"},
                 {"bonnie/bon_csv2txt-2.00a.txt", "bonnie"},
                 {"bonnie/bonnie-2.00a_quiet_csv.csv", "bonnie-csv"},
                 {"bonnie/bonnie-1.03_handtyped_x2_fast.txt", "bonnie"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[256], err[128];
        bl_text t;
        assert_int_equal(
            bl_text_load(&t, bl_test_fixture(cases[i].file, buf, sizeof buf), err, sizeof err), 0);
        const bl_format *best = NULL;
        int score = 0;
        for (size_t f = 0; f < bl_format_count(); f++) {
            int s = bl_format_at(f)->probe(&t);
            if (s > score)
                score = s, best = bl_format_at(f);
        }
        assert_non_null(best);
        assert_string_equal(best->name, cases[i].format);
        bl_text_free(&t);
    }
}

/* bon_csv2html 2.00a pages (made with the real tool): Per Char cells in K/sec and Block
 * cells in whole MiB/s under the same "M/sec" heading; latencies from the second row. */
static void test_bon_csv2html(void **state)
{
    (void)state;
    char buf[256];
    bl_parse_out o;
    bl_out_init(&o, "f");
    assert_int_equal(
        bl_test_parse(bl_test_fixture("bonnie/bon_csv2html-2.00a_2runs.html", buf, sizeof buf),
                      NULL, &o),
        0);
    assert_int_equal(o.recs.n, 24);
    assert_int_equal(fu_runs(&o, "bonnie++"), 2);
    /* CSV 1.98,...,fixturehost,...,256M,,8192,5,1153,99,264958,89,... -> "1153", "259" */
    const bl_record *r = fu_find(&o, "seq-write-char", "host", "fixturehost", 0);
    assert_double_equal(r->bw_bytes_s, 1153.0 * 1024, 0);
    assert_double_equal(r->cpu_pct, 99, 0);
    assert_double_equal(r->lat_ns.max, 12205e3, 0);
    assert_string_equal(r->tool_version, "2.00a");
    assert_string_equal(bl_record_label(r, "size"), "256M");
    r = fu_find(&o, "seq-write-block", "host", "fixturehost", 0);
    assert_double_equal(r->bw_bytes_s, 259.0 * 1048576, 0);
    assert_non_null(strstr(r->note, "rounded"));
    assert_true(fabs(r->bw_bytes_s - 264958.0 * 1024) <= 0.5 * 1048576);
    r = fu_find(&o, "seq-read-char", "host", "fixturehost", 0);
    assert_double_equal(r->bw_bytes_s, 1763.0 * 1024, 0);
    r = fu_find(&o, "rand-create", "host", "csvhost", 0);
    assert_double_equal(r->value, 1952, 0);
    assert_double_equal(r->lat_ns.max, 1758e3, 0);
    r = fu_find(&o, "seq-read-block", "host", "csvhost", 0); /* "0" with "+++" */
    assert_string_equal(r->note, "+++++: too fast to measure");
    assert_int_equal(fu_count(&o, "bonnie++", "files", "2"), 6);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bon_csv2html),     cmocka_unit_test(test_freebsd_human_and_csv),
        cmocka_unit_test(test_human_table_only), cmocka_unit_test(test_csv_generations),
        cmocka_unit_test(test_fixtures),         cmocka_unit_test(test_fixture_103_two_runs),
        cmocka_unit_test(test_200_table_alone),  cmocka_unit_test(test_csv_block_heading),
        cmocka_unit_test(test_auto_detect),      cmocka_unit_test(test_seed_is_no_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
