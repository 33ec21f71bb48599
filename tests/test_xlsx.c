/* Workbooks: the parts of the file (native clustered-bar chart, frozen header, autofilter,
 * sheets), then the figures as a real reader sees them: LibreOffice converts every sheet to
 * CSV with cells "as shown", so number formats and their units are checked too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../report/xlsx.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_report_records.h"

static char *zip_part(const char *xlsx, const char *part)
{
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "unzip -p '%s' '%s'", xlsx, part);
    return bl_test_sh(cmd, NULL);
}

static char *write_book(const char *dir, const char *name, const bl_xlsx_opts *o, bl_records *rs)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char err[256] = "";
    assert_int_equal(bl_xlsx_write(path, rs, o, err, sizeof err), 0);
    return path;
}

static void test_workbook_parts(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    bl_xlsx_opts o = {.by = "column", .baseline = "1 GbE"};
    const char *path = write_book(dir, "b.xlsx", &o, &rs);
    char *wb = zip_part(path, "xl/workbook.xml");
    /* Summary first, the charts' hidden data, the pivots, one sheet per run (8 runs) named
     * by its labels (by tool and run where it has none), then Latency, Disks and Sources. */
    const char *names[] = {"Summary",
                           "Chart data",
                           "Throughput (MBps)",
                           "IOPS",
                           "1 nas1 シーケンシャル",
                           "4 nas1 ext4 on md0",
                           "5 dd #1",
                           "8 ssd1 quick",
                           "Latency",
                           "Disks",
                           "Sources"};
    const char *at = wb;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char want[128];
        snprintf(want, sizeof want, "<sheet name=\"%s\"", names[i]);
        const char *p = strstr(at, want);
        assert_non_null(p);
        at = p;
    }
    assert_non_null(strstr(wb, "<sheet name=\"Chart data\" sheetId=\"2\" state=\"hidden\""));
    assert_non_null(strstr(wb, "<definedName name=\"_xlnm.Print_Area\" localSheetId=\"0\">"
                               "Summary!$A$1:$R$15</definedName>"));
    /* Every sheet prints with its header row on each page. */
    assert_non_null(strstr(wb, "<definedName name=\"_xlnm.Print_Titles\" localSheetId=\"0\">"
                               "Summary!$1:$1</definedName>"));
    free(wb);
    char *chart = zip_part(path, "xl/charts/chart1.xml");
    assert_non_null(strstr(chart, "<c:barDir val=\"bar\"/><c:grouping val=\"clustered\"/>"));
    assert_non_null(strstr(chart, "Throughput (MB/s)"));
    /* One series per compared column: 1 GbE, 10 GbE, then each source lacking the label on
     * its own (nas.txt, bonnie.txt, dd.txt, the runner), never pooled into "(no column)". */
    assert_non_null(strstr(chart, "<c:idx val=\"5\"/>"));
    assert_null(strstr(chart, "<c:idx val=\"6\"/>"));
    free(chart);
    char *s1 = zip_part(path, "xl/worksheets/sheet1.xml");
    assert_non_null(strstr(s1, "<pane xSplit=\"1\" ySplit=\"1\" topLeftCell=\"B2\""));
    assert_non_null(strstr(s1, "<autoFilter ref=\"A1:"));
    /* A4 landscape, as wide as the page and about 50 rows a page down (these 13 rows: one
     * page, fitToHeight's default), the print area the table and its note (row 15, merged
     * across the columns); the Check column has no flag to show: hidden. */
    assert_non_null(strstr(s1, "<sheetPr><pageSetUpPr fitToPage=\"1\"/></sheetPr>"));
    assert_non_null(strstr(s1, "<pageSetup paperSize=\"9\" orientation=\"landscape\"/>"));
    assert_non_null(strstr(s1, "<mergeCell ref=\"A15:R15\"/>"));
    assert_non_null(strstr(s1, "<col min=\"17\" max=\"17\" width=\"24.7109375\" hidden=\"1\""));
    assert_non_null(strstr(s1, "<col min=\"6\" max=\"6\" width=\"10.7109375\" customWidth"));

    assert_non_null(strstr(s1, "<oddHeader>&amp;LStorage benchmark comparison&amp;R&amp;A"
                               "</oddHeader>"));
    assert_non_null(strstr(s1, "<oddFooter>&amp;Lbenchlog, &amp;D&amp;RPage &amp;P of "
                               "&amp;N</oddFooter>"));
    free(s1);
    char *s2 = zip_part(path, "xl/worksheets/sheet3.xml"); /* the MB/s pivot and its chart */
    assert_non_null(strstr(s2, "<drawing r:id="));
    free(s2);
    char *core = zip_part(path, "docProps/core.xml");
    assert_non_null(strstr(core, "<dc:title>Storage benchmark comparison</dc:title>"));
    assert_non_null(strstr(core, "<dc:creator>benchlog</dc:creator>"));
    free(core);
    char *styles = zip_part(path, "xl/styles.xml");
    assert_non_null(strstr(styles, "formatCode=\"#,##0.0 &quot;MB/s&quot;\""));
    assert_non_null(strstr(styles, "formatCode=\"&quot;×&quot;0.00\""));
    free(styles);
    /* Past max_run_sheets runs, one Records sheet instead of one sheet per run. */
    o.max_run_sheets = 3;
    path = write_book(dir, "r.xlsx", &o, &rs);
    wb = zip_part(path, "xl/workbook.xml");
    assert_non_null(strstr(wb, "<sheet name=\"Records\""));
    assert_null(strstr(wb, "dd #1"));
    free(wb);
    char err[256];
    o.baseline = "nothing";
    snprintf(err, sizeof err, "%s/x.xlsx", dir);
    assert_int_equal(bl_xlsx_write(err, &rs, &o, err, sizeof err), 2);
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* 5,000 set-ups: Summary (long form) holds them all, the pivots too (a sheet has 16,384
 * columns), and charts are left out with a word why. */
static void test_wide_summary(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    for (long run = 1; run <= 5000; run++) {
        bl_record *r = rec(&rs, "many.txt", run, "fio", "3.33", "rand-read", 4096, 1, 1);
        r->bw_bytes_s = 40e6;
        r->iops = 9766;
        r->clat_ns.present = true;
        r->clat_ns.mean = 98000;
    }
    bl_diags notes;
    bl_diags_init(&notes, "xlsx");
    bl_xlsx_opts o = {.by = "run", .notes = &notes};
    const char *path = write_book(dir, "w.xlsx", &o, &rs);
    /* --by makes the 5,000 set-ups one comparison group: the note says so, not "0 comparison
     * groups charted". */
    assert_int_equal(notes.n, 1);
    assert_string_equal(notes.v[0].msg,
                        "5000 set-ups are too many for one chart; they form one comparison group, "
                        "so none is charted (200 at most): narrow with FILTER or --by");
    bl_diags_free(&notes);
    char *ss = zip_part(path, "xl/sharedStrings.xml");
    assert_non_null(strstr(ss, "5000 set-ups are too many to chart (200 at most)"));
    assert_non_null(strstr(ss, "many.txt #5000<"));
    free(ss);
    char *s1 = zip_part(path, "xl/worksheets/sheet1.xml");
    assert_non_null(strstr(s1, "<autoFilter ref=\"A1:Q5001\"/>")); /* 5,000 rows + head */
    free(s1);
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

/* Groups counted as the workbook charts them: one source of 201 set-ups (too many for a
 * chart), one of three set-ups sharing a test (a sheet and its chart), one of a single set-up
 * and one whose two set-ups share no test (nothing to compare). */
static void test_group_count_note(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    static const struct {
        const char *source;
        int setups, tests; /* tests: 1 all the same test, else each set-up its own */
    } src[] = {{"a.txt", 201, 1}, {"b.txt", 3, 1}, {"c.txt", 1, 1}, {"d.txt", 2, 2}};
    long run = 1;
    for (size_t k = 0; k < sizeof src / sizeof src[0]; k++)
        for (int j = 0; j < src[k].setups; j++, run++) {
            /* fio "bw=38.1MiB/s (40.0MB/s)": 40.0e6 bytes/s, "iops=9766" */
            bl_record *r = rec(&rs, src[k].source, run, "fio", "3.33",
                               src[k].tests == 1 || j == 0 ? "rand-read" : "seq-write", 4096, 1, 1);
            char host[16];
            snprintf(host, sizeof host, "h%d", j + 1);
            bl_record_set_label(r, "host", host);
            r->bw_bytes_s = 40.0e6;
            r->iops = 9766;
        }
    bl_diags notes;
    bl_diags_init(&notes, "xlsx");
    bl_xlsx_opts o = {.notes = &notes};
    const char *path = write_book(dir, "g.xlsx", &o, &rs);
    assert_int_equal(notes.n, 1);
    assert_string_equal(notes.v[0].msg,
                        "207 set-ups are too many for one chart; 1 of 4 comparison groups "
                        "charted on sheets of their own (G1, G2, ...), 2 with nothing to compare "
                        "(one set-up, or no test shared), 1 with too many set-ups to chart (200 "
                        "at most)");
    bl_diags_free(&notes);
    char *wb = zip_part(path, "xl/workbook.xml");
    assert_non_null(strstr(wb, "<sheet name=\"G2 b.txt\""));
    assert_null(strstr(wb, "<sheet name=\"G1 ")); /* a.txt: too many */
    assert_null(strstr(wb, "<sheet name=\"G3 "));
    /* The group's sheet prints its table and chart on one page: a print area over both
     * (the table's 2 rows, its note, the chart below), fit to one page, no page break. */
    size_t nth = 0;
    for (const char *p = wb; (p = strstr(p, "<sheet name=")) && p < strstr(wb, "G2 b.txt"); p++)
        nth++;
    char want[128];
    snprintf(want, sizeof want, "localSheetId=\"%zu\">'G2 b.txt'!$A$1:$N$", nth - 1);
    assert_non_null(strstr(wb, want));
    free(wb);
    char part[64];
    snprintf(part, sizeof part, "xl/worksheets/sheet%zu.xml", nth);
    char *gs = zip_part(path, part);
    assert_non_null(strstr(gs, "<sheetPr><pageSetUpPr fitToPage=\"1\"/></sheetPr>"));
    assert_non_null(strstr(gs, "<pageSetup paperSize=\"9\" orientation=\"landscape\"/>"));
    assert_null(strstr(gs, "<rowBreaks"));
    assert_non_null(strstr(gs, "<drawing r:id="));
    free(gs);
    /* The Throughput pivot of all 207 set-ups prints eleven set-ups a page across: 19 pages
     * wide, as many down as it needs, the test column on each. */
    gs = zip_part(path, "xl/worksheets/sheet3.xml");
    assert_non_null(strstr(gs, "<pageSetup paperSize=\"9\" fitToWidth=\"19\" fitToHeight=\"0\" "
                               "orientation=\"landscape\"/>"));
    free(gs);
    /* Its chart (the only one: a.txt's 201 set-ups are not charted): value labels on every
     * series, 40 MB/s each (fio 40.0MB/s); categories not reversed, the series last set-up
     * first (h3 in column D of the chart data, h1 in B), so that the first set-up is the top
     * bar and the top of the legend, which sits on the right. */
    char *chart = zip_part(path, "xl/charts/chart1.xml");
    assert_non_null(strstr(chart, "G2 b.txt (MB/s)"));
    size_t labels = 0;
    for (const char *p = chart; (p = strstr(p, "<c:dLbls><c:showVal val=\"1\"/>")); p++)
        labels++;
    assert_int_equal(labels, 3);
    assert_null(strstr(chart, "maxMin"));
    assert_non_null(strstr(chart, "<c:legendPos val=\"r\"/>"));
    const char *d = strstr(chart, "<c:f>'Chart data'!$D$"),
               *b = strstr(chart, "<c:f>'Chart data'!$B$");
    assert_non_null(d);
    assert_non_null(b);
    assert_true(d < b);
    assert_non_null(strstr(d, "h3</c:v>")); /* the first series is h3 */
    assert_null(strstr(d, "h1</c:v>") < b ? strstr(d, "h1</c:v>") : NULL);
    assert_non_null(strstr(chart, "<c:numCache><c:formatCode>General</c:formatCode><c:ptCount "
                                  "val=\"1\"/><c:pt idx=\"0\"><c:v>40</c:v>"));
    free(chart);
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static char *slurp(const char *path)
{
    char *s = bl_test_slurp(path);
    if (!s)
        fail_msg("LibreOffice wrote no %s", path);
    return s;
}

/* LibreOffice converts dir/book into FILTER's format in dir, with a private profile: no clash
 * with a running office or another test. */
static void convert(const char *dir, const char *book, const char *filter)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd %s && HOME=%s libreoffice -env:UserInstallation=file://%s/lo --headless "
             "--convert-to '%s' --outdir %s %s >lo.log 2>&1",
             dir, dir, dir, filter, dir, book);
    assert_int_equal(system(cmd), 0);
}

/* CSV filter options: comma, quote, UTF-8, first line 1, default cell formats, US English,
 * ..., cells as shown (units too), every sheet (-1) to BOOK-SHEET.csv. */
#define CSV_ALL_SHEETS                                                                             \
    "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,true,false,false,-1"

static void check_figures(const char *dir);

static void test_libreoffice_reads_figures(void **state)
{
    (void)state;
    if (system("command -v libreoffice >/dev/null 2>&1") != 0)
        bl_skip_because("LibreOffice is not installed (scripts/deps.sh test installs it)");
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    bl_xlsx_opts o = {0};
    write_book(dir, "b.xlsx", &o, &rs);
    convert(dir, "b.xlsx", CSV_ALL_SHEETS);
    check_figures(dir);
    /* The native chart as LibreOffice reads it: horizontal bars, one series per column. */
    convert(dir, "b.xlsx", "ods");
    char ods[600];
    snprintf(ods, sizeof ods, "%s/b.ods", dir);
    char *chart = zip_part(ods, "Object 1/content.xml");
    assert_non_null(strstr(chart, "chart:class=\"chart:bar\""));
    assert_non_null(strstr(chart, "chart:vertical=\"true\"")); /* bars run sideways */
    size_t series = 0;
    for (const char *p = chart; (p = strstr(p, "<chart:series ")); p++)
        series++;
    assert_int_equal(series, 6); /* the six default columns */
    assert_non_null(strstr(chart, "chart:values-cell-range-address=\"&apos;Chart data&apos;.B"));
    free(chart);
    /* The same workbook written in constant-memory mode (big stores) reads the same. */
    o.constant_memory_from = 1;
    write_book(dir, "b.xlsx", &o, &rs);
    convert(dir, "b.xlsx", CSV_ALL_SHEETS);
    check_figures(dir);
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static void check_figures(const char *dir)
{
    char path[600];
    snprintf(path, sizeof path, "%s/b-Summary.csv", dir);
    char *sum = slurp(path);
    /* One row per test and set-up. fio 376540160 B/s with clat mean, p50, p99, p99.9; CDM
     * 1121.4 MB/s; bonnie++ 100/110/120 MB/s as mean, stdev 10 and 95% CI 4.3027 × 10 /
     * sqrt(3) = 24.842. */
    assert_non_null(strstr(sum, "\nseq-read 1MiB Q8T1,\"1,048,576\",8,1,シーケンシャル · nas1,"
                                "376.5,359,,,\"2,770.0\",\"2,352.0\",\"6,752.0\",\"22,912.0\",1,"));
    assert_non_null(strstr(sum, ",10 GbE,\"1,121.4\",\"1,069\","));
    assert_non_null(strstr(sum, ",ext4 on md0 · nas1,110.0,,,,,,,,3,10.0,24.842,"));
    assert_non_null(strstr(sum, ",ext4 on md0 · nas1,,,210.0,ops/s,,,,,3,10.0,24.842,"));
    assert_non_null(strstr(sum, "+++++: too fast to measure"));
    assert_non_null(
        strstr(sum, "\nrand-read 4KiB Q32T16,\"4,096\",32,16,10 GbE,250.7,\"61,206\","));
    /* dd: 67108864 B in 0.0146754 s; a set-up without labels is named by its tool */
    assert_non_null(strstr(sum, ",dd,\"4,572.9\","));
    free(sum);
    snprintf(path, sizeof path, "%s/b-Throughput (MBps).csv", dir);
    char *piv = slurp(path);
    assert_non_null(strstr(piv, "Test,シーケンシャル · nas1,ext4 on md0 · nas1,dd,1 GbE,10 GbE,"
                                "ssd1\n"));
    assert_non_null(strstr(piv, "\nseq-read 1MiB Q8T1,376.5 MB/s,,,117.6 MB/s,\"1,121.4 MB/s\","));
    free(piv);
    snprintf(path, sizeof path, "%s/b-1 nas1 シーケンシャル.csv", dir);
    char *fio = slurp(path);
    /* clat mean/p99, lat absent, then fio's bw samples min/avg/max in MB/s. */
    assert_non_null(strstr(fio, "\"2,770.0\",\"6,752.0\",,,,356.5,376.5,411.0,,"));
    free(fio);
    snprintf(path, sizeof path, "%s/b-5 dd #1.csv", dir);
    char *dd = slurp(path);
    assert_non_null(strstr(dd, "\n21,seq-write,write,seq,\"1,048,576\",1,1,,,,\"67,108,864\","
                               "0.281737,238.2,"));
    free(dd);
    snprintf(path, sizeof path, "%s/b-Latency.csv", dir);
    char *lat = slurp(path);
    assert_non_null(strstr(lat, "p1 (µs),p50 (µs),p99 (µs),p99.9 (µs),p99.99 (µs)"));
    assert_non_null(strstr(lat,
                           "\n1 nas1 シーケンシャル,10,seq-read,clat,,\"2,770.0\",,,\"2,008.0\","
                           "\"2,352.0\",\"6,752.0\",\"22,912.0\","));
    assert_non_null(strstr(lat, "\n8 ssd1 quick,27,rand-write,lat,,130.0,,,,120.0,410.0,900.0,"));
    assert_non_null(strstr(lat, "\n8 ssd1 quick,27,rand-write,sync,,95.0,,,,,300.0,,"));
    free(lat);
    snprintf(path, sizeof path, "%s/b-Disks.csv", dir);
    char *disks = slurp(path);
    /* one row for the fio run (both its records carry md0), none for the other tools */
    assert_non_null(strstr(disks, "Sheet,Device,Read IOs,Write IOs,"));
    assert_non_null(strstr(disks, "\n1 nas1 シーケンシャル,md0,\"81,424\",0,0,0,113.246,0.000,"
                                  "113.244,94.77\n"));
    assert_null(strstr(disks, "\n1 nas1 シーケンシャル,md0,\"81,424\",0,0,0,113.246,0.000,"
                              "113.244,94.77\n1 nas1"));
    free(disks);
    snprintf(path, sizeof path, "%s/b-Sources.csv", dir);
    char *src = slurp(path);
    assert_non_null(strstr(src, "\n2 nas1 ext4 on md0,bonnie.txt,12,bonnie++,1.98,3,"
                                "section=ext4 on md0; host=nas1\n"));
    assert_non_null(strstr(src, "\n7 cdm #1,cdm.txt,23,cdm,8.0.4,4,"));
    free(src);
}

/* The blog posts' 29 set-ups, read back through LibreOffice: the native throughput charts
 * hold every one of them, ten a chart. */
static void test_blog_every_setup(void **state)
{
    (void)state;
    static const char *const posts[] = {
        "blog/000_bed2622bff3958ce.txt", "blog/001_8562a4b6946fb1ec.txt",
        "blog/003_c0a3f5a42cdf17b6.txt", "blog/004_8160137f383e9f6d.txt"};
    if (system("command -v libreoffice >/dev/null 2>&1") != 0)
        skip();
    bl_records rs;
    bl_records_init(&rs);
    for (size_t i = 0; i < 4; i++) {
        char *path = bl_test_corpus(posts[i]);
        if (!path) {
            bl_records_free(&rs);
            skip();
        }
        bl_parse_out o;
        assert_true(bl_test_parse(path, NULL, &o) <= 1);
        for (size_t k = 0; k < o.recs.n; k++)
            bl_records_push(&rs, bl_record_clone(o.recs.v[k]));
        bl_out_free(&o);
        free(path);
    }
    char *dir = bl_test_tmpdir();
    bl_xlsx_opts o = {.title = "Blog"};
    write_book(dir, "blog.xlsx", &o, &rs);
    convert(dir, "blog.xlsx", "ods");
    /* The Summary's set-up column holds the longest name whole: 001's "iSCSI キャッシュ有り
     * SSDキャッシュ無し （継続的有効の無効化 チェックON） · 10 GbE" is 81 columns (CJK two each),
     * and 2 to spare; it printed cut at 48. The heading, 227 lines of test × set-up, a blank and
     * the note: 229 rows at about 50 a page, 5 pages down. */
    char book[600];
    snprintf(book, sizeof book, "%s/blog.xlsx", dir);
    char *s1 = zip_part(book, "xl/worksheets/sheet1.xml");
    if (!strstr(s1, "<col min=\"5\" max=\"5\" width=\"83.7109375\""))
        fail_msg("set-up column: %.*s", 900, strstr(s1, "<cols>") ? strstr(s1, "<cols>") : s1);
    assert_non_null(strstr(s1, "<dimension ref=\"A1:Q229\"/>"));
    assert_non_null(strstr(s1, "<pageSetup paperSize=\"9\" fitToHeight=\"5\""));
    free(s1);
    char ods[600];
    snprintf(ods, sizeof ods, "%s/blog.ods", dir);
    size_t charts = 0, series = 0, group_charts = 0;
    for (int n = 1; n < 100; n++) {
        char part[64];
        snprintf(part, sizeof part, "Object %d/content.xml", n);
        char *chart = zip_part(ods, part);
        if (!*chart) {
            free(chart);
            break;
        }
        /* A sheet per comparison group (blog post) with its own charts: 001's 18 set-ups. */
        group_charts += strstr(chart, "G2 001_8562a4b6946fb1ec.txt (MB/s), set-ups ") != NULL;
        if (strstr(chart, "Throughput (MB/s), set-ups ")) {
            charts++;
            for (const char *p = chart; (p = strstr(p, "<chart:series ")); p++)
                series++;
        }
        free(chart);
    }
    assert_int_equal(charts, 3);       /* set-ups 1-10, 11-20, 21-29 */
    assert_int_equal(series, 29);      /* every set-up with a throughput figure */
    assert_int_equal(group_charts, 2); /* set-ups 1-10, 11-18 */
    bl_records_free(&rs);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static void test_command_line(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), fx[256], args[1024];
    snprintf(args, sizeof args, "import --db %s/s.db %s", dir,
             bl_test_fixture("dd/gnu-dd-9.1_c_write_read.txt", fx, sizeof fx));
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "xlsx --db %s/s.db -o %s/dd.xlsx test=seq-write", dir, dir);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "%s/dd.xlsx", dir);
    char *wb = zip_part(args, "xl/workbook.xml");
    assert_non_null(strstr(wb, "<sheet name=\"1 dd #1\""));
    assert_null(strstr(wb, "#2")); /* the filter kept only the write */
    free(wb);
    char *err;
    snprintf(args, sizeof args, "xlsx --db %s/s.db", dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 2);
    assert_non_null(strstr(err, "-o FILE.xlsx is required"));
    free(err);
    snprintf(args, sizeof args, "xlsx --db %s/s.db -o %s/n.xlsx tool=fio", dir, dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 1);
    assert_non_null(strstr(err, "no stored record matches"));
    free(err);
    snprintf(args, sizeof args, "xlsx --db %s/s.db -o /nonexistent/dir/x.xlsx", dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 1);
    assert_non_null(strstr(err, "benchlog xlsx: "));
    free(err);
    char *out;
    assert_int_equal(bl_test_benchlog("xlsx --help", &out, NULL), 0);
    assert_non_null(strstr(out, "Sources"));
    free(out);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workbook_parts),   cmocka_unit_test(test_wide_summary),
        cmocka_unit_test(test_group_count_note), cmocka_unit_test(test_libreoffice_reads_figures),
        cmocka_unit_test(test_blog_every_setup), cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
