/* Identity, not labels, decides what a repeat is (issue 24): under --by, records of one
 * column whose set-ups differ (heading, table column, machine, tool, source, ...) are
 * sub-columns named by what tells them apart, never repeats; --pool pools them on purpose and
 * says so. Over the real blog 001 of the corpus (skipped without BENCHLOG_CORPUS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/diff.h"
#include "../compare/table.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char blog001[] = "blog/001_8562a4b6946fb1ec.txt";

/* A store in a new folder holding blog 001 imported with host=nas1; NULL without corpus. */
static char *nas1_store(void)
{
    char *path = bl_test_corpus(blog001);
    if (!path)
        return NULL;
    char *dir = bl_test_tmpdir();
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "import --db %s/s.db --label host=nas1 %s", dir, path), 0);
    free(path);
    return dir;
}

/* blog 001 is 18 NAS configurations (CIFS/iSCSI, cache on and off, 1 and 10 GbE) of one
 * host: --by host once printed "250.6 ± 214.0 MB/s (n=18, CI ±106.4)" as repeats. */
static void test_by_host_keeps_setups_apart(void **state)
{
    (void)state;
    char *dir = nas1_store();
    if (!dir)
        skip();
    char *out, *err;
    assert_int_equal(bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host --csv", dir), 0);
    /* CSV: one header cell a set-up's MB/s; 18 set-ups. */
    const char *eol = strchr(out, '\n');
    size_t n = 0;
    for (const char *p = out; p && p < eol; p = strstr(p + 1, " MB/s,"))
        n += strncmp(p, " MB/s,", 6) == 0;
    assert_int_equal(n, 18);
    assert_null(strstr(out, "n=18"));
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host --wide", dir), 0);
    assert_null(strstr(out, "n=18"));
    assert_null(strstr(out, "Repeats"));
    assert_non_null(strstr(out, "18 columns by host"));
    /* iSCSI without SSD cache over 1 GbE: 112.4 MB/s sequential read, as the post prints */
    assert_non_null(strstr(out, "section=iSCSI SSDキャッシュ無し"));
    assert_non_null(strstr(out, "112.4 MB/s"));
    assert_non_null(strstr(out, "580.2 MB/s"));
    free(out);
    free(err);
    free(dir);
}

/* --by host,column (or --by host --by column): one column per pair of values; the nine
 * headings under each network speed still stand apart. --pool pools them on purpose. */
/* compare --pool says how many sources a side spans: two dd files of host=a are two sources
 * (counted once each, however many records they hold), one of host=b is not said. */
static void test_pool_counts_sources(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *err;
    char a1[512], a2[512], b[512];
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "import -q --db %s/s.db --label host=a %s %s", dir,
                          bl_test_fixture("dd/gnu-dd-9.1_c_write_read.txt", a1, sizeof a1),
                          bl_test_fixture("dd/gnu-dd-9.1_C_time.txt", a2, sizeof a2)),
        0);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import -q --db %s/s.db --label host=b %s", dir,
                                       bl_test_fixture("dd/gnu-dd-9.1_de_DE.txt", b, sizeof b)),
                     0);
    bl_test_benchlogf(NULL, &err, "compare --db %s/s.db host=a host=b --pool", dir);
    assert_non_null(strstr(err, "A (host=a) spans 2 sources, pooled (--pool)"));
    assert_null(strstr(err, "B (host=b) spans"));
    free(err);
    free(dir);
}

static void test_by_pairs_and_pool(void **state)
{
    (void)state;
    char *dir = nas1_store();
    if (!dir)
        skip();
    char *out, *out2, *err;
    assert_int_equal(
        bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host,column --wide", dir), 0);
    assert_int_equal(
        bl_test_benchlogf(&out2, NULL, "report --db %s/s.db --by host --by column --wide", dir), 0);
    assert_string_equal(out, out2);
    assert_non_null(strstr(out, "18 columns by host,column"));
    assert_non_null(strstr(out, "nas1 · 1 GbE · section=CIFS SSDキャッシュ無し"));
    assert_non_null(strstr(out, "nas1 · 10 GbE · section=CIFS SSDキャッシュ無し"));
    assert_null(strstr(out, "n=9"));
    free(out);
    free(out2);
    free(err);
    /* --pool: the nine set-ups of 1 GbE averaged, and said so: seq read of the nine
     * 1 GbE set-ups, 73.70 .. 112.4 MB/s as the post prints them. */
    assert_int_equal(
        bl_test_benchlogf(&out, &err, "report --db %s/s.db --by host,column --pool --wide", dir),
        0);
    assert_non_null(strstr(out, "2 columns by host,column"));
    assert_non_null(strstr(out, "(pooled over 9 set-ups, 67.60–112.4)"));
    assert_non_null(strstr(out, "Pooled (--pool): 16 cells"));
    assert_null(strstr(out, "Repeats"));
    assert_null(strstr(out, "CI"));
    free(out);
    free(err);
    /* compare's sides say it as the report does (issue 24: the same rule for compare's
     * sides): the nine 1 GbE set-ups' seq reads 93.32 ± 21.33 MB/s, pooled, not n=9 repeats. */
    assert_int_equal(bl_test_benchlogf(&out, &err,
                                       "compare --db %s/s.db 'column=1 GbE' 'column=10 GbE' --pool",
                                       dir),
                     0);
    assert_non_null(strstr(out, "93.32 ± 21.33 MB/s (pooled over 9 set-ups)"));
    assert_non_null(strstr(out, "407.9 ± 203.0 MB/s (pooled over 9 set-ups)"));
    assert_null(strstr(out, "n=9"));
    free(out);
    free(err);
    /* a bad list is a usage error */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "report --db %s/s.db --by host,,column", dir),
                     2);
    assert_non_null(strstr(err, "--by wants LABEL"));
    free(err);
    free(dir);
}

/* --overview over blog 001's iSCSI without SSD cache, 1 GbE against 10 GbE. The post's MB/s
 * (1 GbE; 10 GbE): 112.363 580.205, 8.894 9.588, 109.48 520.88, 6.552 7.262, 106.585 219.52,
 * 4.529 4.042, 15.088 28.143, 0.368 0.375. By hand, exp(mean(ln(b / a))) over the 8 tests =
 * 1.78390; the other way 0.56057. 10 GbE is best in 7 tests, 1 GbE in 1 (4KiB Q32 writes). */
static void test_overview_by_hand(void **state)
{
    (void)state;
    char *dir = nas1_store();
    if (!dir)
        skip();
    char *out, *err;
    assert_int_equal(bl_test_benchlogf(&out, &err,
                                       "report --db %s/s.db --by column --baseline '1 GbE' "
                                       "--overview --setups 'section=iSCSI SSDキャッシュ無し'",
                                       dir),
                     0);
    assert_non_null(strstr(out, "Overview against 1 GbE"));
    assert_non_null(strstr(out, "\n1 GbE           ×1.000      8        1\n"));
    assert_non_null(strstr(out, "\n10 GbE          ×1.784      8        7\n"));
    assert_non_null(strstr(out, "4.53 MB/s  1106 IOPS *"));
    assert_non_null(strstr(out, "580.2 MB/s *"));
    /* the set-up table: tool and host of each */
    assert_non_null(strstr(out, "\n10 GbE  CrystalDiskMark  nas1\n"));
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, &err,
                                       "report --db %s/s.db --by column --baseline '10 GbE' "
                                       "--overview 'section=iSCSI SSDキャッシュ無し'",
                                       dir),
                     0);
    assert_non_null(strstr(out, "\n1 GbE           ×0.561      8        1\n"));
    free(out);
    free(err);
    free(dir);
}

/* --layout cdm over CrystalDiskMark 8.0.2's own text of a Crucial P2: its panel's rows and
 * figures (the text's 2293.007 MB/s shows as 2293.01 on the panel), Read beside Write. */
static void test_cdm_layout(void **state)
{
    (void)state;
    char *path = bl_test_corpus("cdm/cdm-8.0.2_x64_crucial_p2_nvme.txt");
    if (!path)
        skip();
    char *dir = bl_test_tmpdir(), *out, *err;
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s/s.db %s", dir, path), 0);
    assert_int_equal(bl_test_benchlogf(&out, &err, "report --db %s/s.db --layout cdm", dir), 0);
    const char *want = "MB/s              Read    Write\n"
                       "-------------  -------  -------\n"
                       "SEQ1M Q8T1     2293.01  2011.33\n"
                       "SEQ128K Q32T1  2470.27  2001.79\n"
                       "RND4K Q32T16   1158.08  1795.24\n"
                       "RND4K Q1T1       58.36   220.48\n";
    assert_non_null(strstr(out, want));
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "report --db %s/s.db --layout pts", dir), 2);
    free(err);
    free(dir);
    free(path);
}

/* compare -o FILE.png|svg|html|xlsx: the comparison as a file to send, its title saying how B
 * fares against A (blog 001's iSCSI set-up: 10 GbE better in 7 of 8 tests, worse in 1), each
 * test's change beside B's bar. */
static void test_compare_sendable(void **state)
{
    (void)state;
    char *dir = nas1_store();
    if (!dir)
        skip();
    static const char *const ext[] = {"png", "svg", "html", "xlsx"};
    for (size_t i = 0; i < 4; i++) {
        char *err;
        assert_int_equal(bl_test_benchlogf(NULL, &err,
                                           "compare --db %s/s.db 'column=1 GbE' 'column=10 GbE' "
                                           "'section=iSCSI SSDキャッシュ無し' -o %s/c.%s",
                                           dir, dir, ext[i]),
                         0);
        free(err);
        char path[512];
        snprintf(path, sizeof path, "%s/c.%s", dir, ext[i]);
        size_t len = 0;
        char *f = bl_test_slurp_n(path, &len);
        assert_non_null(f);
        assert_true(len > 1000);
        if (i == 0)
            assert_memory_equal(f, "\x89PNG", 4);
        if (i == 1 || i == 2) {
            assert_non_null(strstr(f, "column=10 GbE against column=1 GbE: better in 7 of 8 "
                                      "tests, worse in 1"));
            assert_non_null(strstr(f, "580.2"));
        }
        /* Each of B's bars says its change and verdict, as compare's lines (+416.4% better,
         * 4KiB Q32 writes -10.8% worse); A's bars their figure alone. */
        if (i == 1) {
            assert_non_null(strstr(f, ">580.2  +416.4% ▲<"));
            assert_non_null(strstr(f, ">4.04  -10.8% ▼<"));
            assert_non_null(strstr(f, ">112.4<"));
        }
        if (i == 2) /* the page: B's ratio and its verdict */
            assert_non_null(strstr(f, "> ×5.16 ▲</span>"));
        if (i == 3)
            assert_memory_equal(f, "PK", 2);
        free(f);
    }
    /* --pool: the workbook takes the table compare printed (it once built its own, without
     * --pool, and refused its baseline: "--baseline 'column=1 GbE' is not a column") */
    char *err;
    assert_int_equal(bl_test_benchlogf(NULL, &err,
                                       "compare --db %s/s.db 'column=1 GbE' 'column=10 GbE' "
                                       "'section~CIFS' --pool -o %s/pool.xlsx",
                                       dir, dir),
                     0);
    assert_null(strstr(err, "baseline"));
    free(err);
    char path[512];
    snprintf(path, sizeof path, "%s/pool.xlsx", dir);
    size_t len = 0;
    char *f = bl_test_slurp_n(path, &len);
    assert_non_null(f);
    assert_memory_equal(f, "PK", 2);
    free(f);
    /* ... and says so: each pooled row, and the note under the table (not repeats) */
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "unzip -p '%s' xl/worksheets/sheet1.xml xl/sharedStrings.xml", path);
    char *xml = bl_test_sh(cmd, NULL);
    assert_non_null(strstr(xml, "pooled over 4 set-ups"));
    assert_non_null(strstr(xml, "Pooled (--pool): 16 cells average the records of several "
                                "set-ups on purpose"));
    free(xml);
    free(dir);
}

static void add_rr(bl_records *rs, const char *disk, long run, double iops, double lat_ns)
{
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, "lat.txt");
    bl_record_set_str(&r->tool, "fio");
    r->run = run;
    bl_record_set_str(&r->test, "rand-read");
    r->bs = 4096;
    r->iodepth = 1;
    r->numjobs = 1;
    r->iops = iops;
    r->lat_ns.present = true;
    r->lat_ns.mean = lat_ns;
    bl_record_set_label(r, "disk", disk);
    bl_records_push(rs, r);
}

/* Direction: old 10000 IOPS at 100 µs, new 2375 IOPS at 421.4 µs: IOPS -76.25% worse, latency
 * +321.4% worse (a higher latency is worse); from new to old both better. With repeats whose
 * intervals overlap (100, 104, 96 µs: mean 100, sd 4, CI 4.3027 × 4 / sqrt(3) = 9.94; and
 * 103 µs alone, inside it) the change is within noise. */
static void test_direction(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_rr(&rs, "old", 1, 10000, 100000);
    add_rr(&rs, "new", 2, 2375, 421400);
    bl_table_opts o = {.by = "disk"};
    char err[256];
    bl_table *t = bl_table_build(&rs, &o, err, sizeof err);
    assert_non_null(t);
    bl_metric ms[] = {BL_M_IOPS, BL_M_LAT};
    bl_diff_line l[4];
    assert_int_equal(bl_diff(t, 0, 1, ms, 2, l), 2);
    assert_double_equal(l[0].change_pct, -76.25, 1e-9);
    assert_int_equal(l[0].verdict, BL_WORSE);
    assert_double_equal(l[1].change_pct, 321.4, 1e-9);
    assert_int_equal(l[1].verdict, BL_WORSE);
    assert_int_equal(bl_diff(t, 1, 0, ms, 2, l), 2);
    assert_int_equal(l[0].verdict, BL_BETTER);
    assert_int_equal(l[1].verdict, BL_BETTER);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_diff_render(t, 0, 1, l, bl_diff(t, 0, 1, ms, 2, l), 0, &sb);
    assert_non_null(
        strstr(sb.s, "rand-read 4KiB Q1T1 lat     100.0 µs   421.4 µs  +321.4%  worse"));
    bl_strbuf_reset(&sb);
    bl_diff_render(t, 0, 1, l, bl_diff(t, 0, 1, ms, 2, l), 1, &sb);
    assert_non_null(strstr(sb.s, "\"rand-read 4KiB Q1T1\",lat,\"ns\",100000,1,,421400,1,,321.4,"
                                 "no repeats,worse\n"));
    bl_strbuf_free(&sb);
    bl_table_free(t);
    bl_records_free(&rs);

    bl_records_init(&rs);
    add_rr(&rs, "a", 1, 10000, 100000);
    add_rr(&rs, "a", 2, 9600, 104000);
    add_rr(&rs, "a", 3, 10400, 96000);
    add_rr(&rs, "b", 4, 9700, 103000);
    t = bl_table_build(&rs, &o, err, sizeof err);
    assert_int_equal(bl_diff(t, 0, 1, ms + 1, 1, l), 1);
    assert_double_equal(l[0].a->ci, 4.302653 * 4000 / sqrt(3), 1);
    assert_int_equal(l[0].ci, BL_DIFF_INSIDE);
    assert_int_equal(l[0].verdict, BL_NOISE);
    assert_string_equal(bl_verdict_word(l[0].verdict), "within noise");
    bl_table_free(t);
    bl_records_free(&rs);
}

static void add_rewrite(bl_records *rs, const char *tool, const char *host, double mbps)
{
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, host);
    bl_record_set_str(&r->tool, tool);
    r->run = 1;
    bl_record_set_str(&r->test, "seq-rewrite");
    r->bw_bytes_s = mbps * 1e6;
    bl_record_set_label(r, "host", host);
    bl_records_push(rs, r);
}

/* The case: an old disk's bonnie++ rewrite of 11.97 MB/s beside iozone rewrites of
 * the page cache (0.4 - 3.4 GB/s, median 2.25 GB/s: 188× off) was flagged !. Among like
 * figures, the two other bonnie++ disks (19.70 and 49.31 MB/s, median 34.5: 2.9×), it is
 * plausible; an iozone figure read 1000× too low (2.0 MB/s) is still flagged among iozone's. */
static void test_plausible_among_like(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_rewrite(&rs, "bonnie++", "old", 11.97);
    add_rewrite(&rs, "bonnie++", "host7", 19.70176);
    add_rewrite(&rs, "bonnie++", "host1", 49.309696);
    add_rewrite(&rs, "iozone", "cache1", 412.5);
    add_rewrite(&rs, "iozone", "cache2", 2000.1);
    add_rewrite(&rs, "iozone", "cache3", 2500.7);
    add_rewrite(&rs, "iozone", "cache4", 3400.2);
    bl_table_opts o = {.by = "host"};
    char err[256];
    bl_table *t = bl_table_build(&rs, &o, err, sizeof err);
    assert_non_null(t);
    assert_int_equal(t->ncols, 7);
    assert_int_equal(t->n_flagged, 0);
    for (size_t j = 0; j < t->ncols; j++)
        assert_false(bl_present(bl_table_cell(t, 0, j)->flag));
    bl_table_free(t);
    add_rewrite(&rs, "iozone", "misread", 2.0);
    t = bl_table_build(&rs, &o, err, sizeof err);
    assert_int_equal(t->n_flagged, 1);
    const bl_cell *c = bl_table_cell(t, 0, 7);
    assert_string_equal(t->cols[7].title, "misread");
    /* 2.0 over the median of 412.5, 2000.1, 2500.7, 3400.2 (2250.4) */
    assert_double_equal(c->flag, 2.0 / 2250.4, 1e-9);
    bl_table_free(t);
    bl_records_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_host_keeps_setups_apart),
        cmocka_unit_test(test_by_pairs_and_pool),
        cmocka_unit_test(test_pool_counts_sources),
        cmocka_unit_test(test_direction),
        cmocka_unit_test(test_overview_by_hand),
        cmocka_unit_test(test_plausible_among_like),
        cmocka_unit_test(test_cdm_layout),
        cmocka_unit_test(test_compare_sendable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
