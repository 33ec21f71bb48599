/* Comparison tables: row order, columns, mean ± stdev, ratios, and every renderer, over
 * records of every tool; then `benchlog import` + `benchlog report` end to end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../compare/fmt.h"
#include "../report/render.h"
#include "../compare/table.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

#include "test_report_records.h"

static bl_table *build(bl_records *rs, const char *by, const char *baseline)
{
    bl_table_opts o = {.by = by, .baseline = baseline};
    char err[256] = "";
    bl_table *t = bl_table_build(rs, &o, err, sizeof err);
    assert_non_null(t);
    return t;
}

static char *render(const bl_table *t, bl_report_format f, int lat)
{
    bl_report_opts o = {.format = f, .lat = lat};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_report_render(t, &o, &sb);
    return bl_strbuf_take(&sb);
}

/* The same for records chosen by a FILTER: one comparison group, one table. */
static char *render_across(const bl_table *t, bl_report_format f)
{
    bl_report_opts o = {.format = f, .across = 1};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_report_render(t, &o, &sb);
    return bl_strbuf_take(&sb);
}

static long col_of(const bl_table *t, const char *title)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (strcmp(t->cols[j].title, title) == 0)
            return (long)j;
    fail_msg("no column '%s'", title);
    return -1;
}

static void test_rows_in_crystaldiskmark_order(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_runner(&rs); /* deliberately out of order */
    add_bonnie(&rs);
    add_dd(&rs);
    add_cdm(&rs);
    add_fio(&rs);
    bl_table *t = build(&rs, NULL, NULL);
    static const char *const want[] = {
        "seq-read 1MiB Q8T1",      "seq-write 1MiB Q1T1",  "seq-read 64KiB Q1T1",
        "rand-read 4KiB Q32T16",   "rand-read 4KiB Q32T1", "rand-write 4KiB Q1T1",
        "seq-write-block 8KiB T1", "rand-seeks T1",        "seq-create T1",
    };
    assert_int_equal(t->nrows, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < t->nrows; i++)
        assert_string_equal(t->rows[i].title, want[i]);
    /* Columns: one per source and heading, CDM's table columns apart, titled by what differs
     * and by the machine where a record names it. */
    assert_int_equal(t->ncols, 6);
    assert_string_equal(t->cols[0].title, "run:quick · ssd1");
    assert_string_equal(t->cols[1].title, "bonnie.txt · ext4 on md0 · nas1");
    assert_string_equal(t->cols[2].title, "dd.txt");
    assert_string_equal(t->cols[3].title, "cdm.txt · 1 GbE");
    assert_string_equal(t->cols[5].title, "nas.txt · シーケンシャル · nas1");
    /* dd's two commands share their column: 64 MiB in 0.281737 s and in 0.0146754 s. */
    assert_double_equal(bl_table_cell(t, 1, 2)->m[BL_M_BW].mean, 67.108864 / 0.281737, 1e-9);
    assert_double_equal(bl_table_cell(t, 2, 2)->m[BL_M_BW].mean, 67.108864 / 0.0146754, 1e-9);
    bl_table_free(t);
    bl_records_free(&rs);
}

static void test_repeated_runs_mean_stdev(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_bonnie(&rs);
    bl_table *t = build(&rs, NULL, NULL);
    assert_int_equal(t->ncols, 1);
    assert_int_equal(t->nrows, 3);
    const bl_cell *c = bl_table_cell(t, 0, 0); /* seq-write-block: 100, 110, 120 MB/s */
    assert_int_equal(c->n_recs, 3);
    assert_double_equal(c->m[BL_M_BW].mean, 110, 1e-9);
    assert_double_equal(c->m[BL_M_BW].sd, 10, 1e-9);
    assert_double_equal(c->m[BL_M_CPU].mean, 14, 1e-9);
    c = bl_table_cell(t, 1, 0); /* seeks 200, 210, 220 */
    assert_double_equal(c->m[BL_M_VALUE].mean, 210, 1e-9);
    assert_double_equal(c->m[BL_M_VALUE].sd, 10, 1e-9);
    char *txt = render(t, BL_REPORT_TEXT, 0);
    /* 95% CI half-width: t(0.975, 2) = 4.3027 × 10 / sqrt(3) = 24.84 */
    assert_double_equal(c->m[BL_M_VALUE].ci, 4.3027 * 10 / sqrt(3), 1e-9);
    assert_non_null(strstr(txt, "110.0 ± 10.00 MB/s (n=3, CI ±24.84)"));
    assert_non_null(strstr(txt, "210.0 ± 10.00 ops/s (n=3, CI ±24.84)"));
    assert_non_null(strstr(txt, "--repeats mean"));
    /* bonnie++ could not time file creation: the mark stays, no made-up figure. */
    assert_non_null(strstr(txt, "+++++ (n=3)"));
    assert_null(strstr(txt, "too fast"));
    free(txt);
    bl_table_free(t);
    /* --by run keeps the runs apart. */
    t = build(&rs, "run", NULL);
    assert_int_equal(t->ncols, 3);
    assert_string_equal(t->cols[2].title, "bonnie.txt #3");
    assert_double_equal(bl_table_cell(t, 0, 2)->m[BL_M_BW].mean, 120, 1e-9);
    bl_table_free(t);
    bl_records_free(&rs);
}

static void test_baseline_ratio_and_iops(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_cdm(&rs);
    add_dd(&rs);
    bl_table *t = build(&rs, "column", "1 GbE");
    assert_int_equal(t->baseline, col_of(t, "1 GbE"));
    long ten = col_of(t, "10 GbE");
    /* dd's records have no such label: shown, not dropped, and not pooled with anything. */
    long dd = col_of(t, "dd.txt");
    assert_true(t->cols[dd].unlabelled);
    assert_int_equal(t->n_unlabelled, 1);
    assert_double_equal(bl_table_ratio(t, 0, (size_t)ten), 1121.4 / 117.6, 1e-9);
    char *txt = render(t, BL_REPORT_TEXT, 0);
    assert_non_null(strstr(txt, "vs 1 GbE"));
    assert_non_null(strstr(txt, "×9.54 ▲")); /* 1121.4 / 117.6: higher MB/s, better */
    assert_non_null(strstr(txt, "×5.55"));   /* 250.7 / 45.2 */
    /* 4KiB: IOPS beside MB/s; 1MiB: MB/s alone. */
    assert_non_null(strstr(txt, "250.7 MB/s  61206 IOPS"));
    assert_non_null(strstr(txt, "1121.4 MB/s "));
    assert_null(strstr(txt, "1069"));
    free(txt);
    char err[256];
    bl_table_opts o = {.by = "column", .baseline = "100 GbE"};
    assert_null(bl_table_build(&rs, &o, err, sizeof err));
    assert_non_null(strstr(err, "'100 GbE' is not a column"));
    bl_table_free(t);
    bl_records_free(&rs);
}

static void test_latency_columns(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_fio(&rs);
    add_runner(&rs);
    bl_table *t = build(&rs, "host", NULL);
    char *txt = render(t, BL_REPORT_TEXT, 1);
    assert_non_null(strstr(txt, "nas1 latency"));
    assert_non_null(strstr(txt, "2.77 ms · p99 6.75 ms")); /* clat mean 2770000, p99 6752000 */
    assert_non_null(strstr(txt, "130.0 µs · p99 410.0 µs"));
    free(txt);
    txt = render(t, BL_REPORT_TEXT, 0);
    assert_null(strstr(txt, "latency"));
    free(txt);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* Two sources are two comparison groups: the overview first (one line a group with its
 * counts), then each group's heading with its set-up count and its own table, in the page's
 * order (by source); a group's column titles leave out the source its heading names. */
static void test_text_grouped_by_source(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_fio(&rs);
    add_dd(&rs);
    bl_table *t = build(&rs, NULL, NULL);
    char *txt = render(t, BL_REPORT_TEXT, 0);
    const char *ov = strstr(txt, "Overview: 2 comparison groups");
    const char *l1 = strstr(txt, "\n   1. nas.txt  1 set-up · 2 tests · 2 records\n");
    const char *l2 = strstr(txt, "\n   2. dd.txt  1 set-up · 2 tests · 2 records\n");
    const char *g1 = strstr(txt, "\n1. blog/nas.txt · 1 set-up\n");
    const char *g2 = strstr(txt, "\n2. dd.txt · 1 set-up\n");
    if (!ov || !l1 || !l2 || !g1 || !g2)
        fail_msg("no overview or group heading in:\n%s", txt);
    assert_true(ov == txt && ov < l1 && l1 < l2 && l2 < g1 && g1 < g2);
    /* fio's figures (359MiB/s, 13152 IOPS) in its group, dd's (64 MiB in 0.281737 s and in
     * 0.0146754 s) in its. */
    const char *fr = strstr(txt, "376.5 MB/s"), *fi = strstr(txt, "13152 IOPS");
    const char *dw = strstr(txt, "238.2 MB/s"), *dr = strstr(txt, "4572.9 MB/s");
    assert_true(dw && dr && fr && fi);
    assert_true(g1 < fr && g1 < fi && fr < g2 && fi < g2 && g2 < dw && g2 < dr);
    /* Each table has its own heading line; fio's set-up is titled without its source. */
    const char *h1 = strstr(g1, "\ntest ");
    assert_true(h1 && h1 < g2 && strstr(g2, "\ntest "));
    assert_non_null(strstr(h1, "シーケンシャル · nas1"));
    assert_null(strstr(txt, "nas.txt · シーケンシャル"));
    /* The footnote once, after the last group. */
    const char *fn = strstr(txt, "MB/s = ");
    assert_true(fn && fn > dr);
    assert_null(strstr(fn + 1, "MB/s = "));
    free(txt);
    /* Chosen by a FILTER: one table across both, titled with their sources. */
    txt = render_across(t, BL_REPORT_TEXT);
    assert_null(strstr(txt, "Overview"));
    assert_non_null(strstr(txt, "nas.txt · シーケンシャル · nas1"));
    free(txt);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* Markdown the same way: the overview as a list, each group a "###" heading with its own
 * table, the footnote once; names from the text escaped as Markdown in headings, overview and
 * cells (a source named "dd|*x*.txt" breaks no table and emphasises nothing). A FILTER keeps
 * one table. */
static void test_md_grouped_by_source(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_fio(&rs);
    add_dd(&rs);
    for (size_t i = 0; i < rs.n; i++)
        if (strcmp(rs.v[i]->source, "dd.txt") == 0)
            bl_record_set_str(&rs.v[i]->source, "dd|*x*.txt");
    bl_table *t = build(&rs, NULL, NULL);
    char *md = render(t, BL_REPORT_MD, 0);
    const char *ov = strstr(md, "**Overview**: 2 comparison groups");
    const char *l1 = strstr(md, "\n1. nas.txt — 1 set-up · 2 tests · 2 records\n");
    const char *l2 = strstr(md, "\n2. dd\\|\\*x\\*.txt — 1 set-up · 2 tests · 2 records\n");
    const char *g1 = strstr(md, "\n### 1. blog/nas.txt · 1 set-up\n\n| test |");
    const char *g2 = strstr(md, "\n### 2. dd\\|\\*x\\*.txt · 1 set-up\n\n| test |");
    if (!ov || !l1 || !l2 || !g1 || !g2)
        fail_msg("no overview or group heading in:\n%s", md);
    assert_true(ov == md && ov < l1 && l1 < l2 && l2 < g1 && g1 < g2);
    /* fio's 359MiB/s and 13152 IOPS in its group; dd's 64 MiB in 0.281737 s and in
     * 0.0146754 s in its, the set-up's column titled by its escaped source. */
    const char *fr = strstr(md, "| 376.5 MB/s"), *fi = strstr(md, "13152 IOPS");
    const char *dw = strstr(md, "| 238.2 MB/s |"), *dr = strstr(md, "| 4572.9 MB/s |");
    assert_true(dw && dr && fr && fi);
    assert_true(g1 < fr && g1 < fi && fr < g2 && fi < g2 && g2 < dw && g2 < dr);
    assert_non_null(strstr(g1, "| test | シーケンシャル · nas1 |\n| :--- | ---: |\n"));
    assert_non_null(strstr(g2, "| test | dd\\|\\*x\\*.txt |\n"));
    assert_null(strstr(md, "dd|*x*"));
    const char *fn = strstr(md, "MB/s = ");
    assert_true(fn && fn > dr);
    assert_null(strstr(fn + 1, "MB/s = "));
    free(md);
    md = render_across(t, BL_REPORT_MD);
    assert_null(strstr(md, "Overview"));
    assert_null(strstr(md, "###"));
    assert_non_null(strstr(md, "| nas.txt · シーケンシャル · nas1 |"));
    free(md);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* Each line's columns start at the same terminal column, Japanese titles counting two. */
/* Right-aligned figures end in one terminal column, the Japanese title above them too. */
static void test_text_aligned_with_cjk(void **state)
{
    (void)state;
    assert_int_equal(bl_display_width("シーケンシャル"), 14);
    assert_int_equal(bl_display_width("10 GbE"), 6);
    assert_int_equal(bl_display_width("ｱ"), 1); /* halfwidth katakana */
    bl_records rs;
    bl_records_init(&rs);
    add_fio(&rs);
    add_dd(&rs);
    bl_table *t = build(&rs, NULL, NULL); /* "nas.txt · シーケンシャル · nas1", "dd.txt" */
    char *txt = render_across(t, BL_REPORT_TEXT);
    char *lines[8];
    size_t n = 0;
    for (char *l = strtok(txt, "\n"); l && n < 8; l = strtok(NULL, "\n"))
        lines[n++] = l;
    assert_true(n >= 6);
    char *title = strstr(lines[0], "シーケンシャル · nas1");
    assert_non_null(title);
    size_t fio_end = bl_display_width(lines[0]) - bl_display_width(title) + 14 + 7;
    assert_true(strncmp(lines[2], "seq-read 1MiB Q8T1 ", 19) == 0);
    assert_true(strncmp(lines[5], "rand-read 4KiB Q32T1 ", 21) == 0);
    /* fio's rows end with its column (dd's cell empty, no trailing blanks): 376.5 MB/s and
     * "53.87 MB/s  13152 IOPS" end under the last character of the title. */
    assert_true(strstr(lines[2], "376.5 MB/s") && strstr(lines[5], "13152 IOPS"));
    assert_int_equal(bl_display_width(lines[2]), fio_end);
    assert_int_equal(bl_display_width(lines[5]), fio_end);
    /* dd's figures end where the header line ends. */
    assert_int_equal(bl_display_width(lines[3]), bl_display_width(lines[0]));
    assert_int_equal(bl_display_width(lines[4]), bl_display_width(lines[0]));
    assert_true(bl_display_width(lines[0]) > fio_end);
    for (size_t i = 0; i < n; i++)
        assert_true(lines[i][strlen(lines[i]) - 1] != ' ');
    free(txt);
    bl_table_free(t);
    bl_records_free(&rs);
}

static void test_csv_numbers(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_cdm(&rs);
    bl_table *t = build(&rs, "column", "1 GbE");
    char *csv = render(t, BL_REPORT_CSV, 0);
    char *l1 = strchr(csv, '\n') + 1;
    const char *want = "test,bs,iodepth,numjobs,1 GbE MB/s,1 GbE MB/s stdev,1 GbE MB/s CI95,"
                       "1 GbE IOPS,1 GbE n,10 GbE MB/s,10 GbE MB/s stdev,10 GbE MB/s CI95,"
                       "10 GbE IOPS,10 GbE n,10 GbE ratio\n";
    assert_true(strncmp(csv, want, strlen(want)) == 0);
    assert_true(strncmp(l1, "seq-read,1048576,8,1,117.6,,,112.2,1,1121.4,,,1069.4,1,9.535714286\n",
                        64) == 0);
    free(csv);
    bl_table_free(t);
    bl_records_free(&rs);
    /* --metric: the figure, n, stdev and CI95 of each. bonnie++'s 100, 110, 120 MB/s: mean
     * 110, stdev 10, CI 4.3027 × 10 / sqrt(3) = 24.84; no IOPS. */
    bl_records_init(&rs);
    add_bonnie(&rs);
    t = build(&rs, NULL, NULL);
    bl_metric ms[] = {BL_M_BW, BL_M_IOPS};
    bl_report_opts o = {.format = BL_REPORT_CSV, .metrics = ms, .n_metrics = 2};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_report_render(t, &o, &sb);
    assert_non_null(strstr(sb.s, "test,bs,iodepth,numjobs,nas1 MB/s,nas1 MB/s n,nas1 MB/s stdev,"
                                 "nas1 MB/s CI95,nas1 IOPS,nas1 IOPS n,"));
    assert_non_null(strstr(sb.s, "\nseq-write-block,8192,,1,110,3,10,24.84"));
    bl_strbuf_free(&sb);
    bl_table_free(t);
    bl_records_free(&rs);
}

static void test_markdown_and_html(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    bl_record_set_label(rs.v[0], "section", "a|b <c>");
    bl_table *t = build(&rs, "tool", NULL);
    char *md = render(t, BL_REPORT_MD, 0);
    /* cdm's 1 GbE and 10 GbE are two set-ups of one tool (their table columns differ): two
     * columns, never the mean of 117.6 and 1121.4 as n=2 repeats (issue 24). */
    const char *head = "| test | fio | bonnie++ | dd | cdm · column=1 GbE | cdm · column=10 GbE "
                       "| benchlog |\n"
                       "| :--- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    assert_true(strncmp(md, head, strlen(head)) == 0);
    assert_non_null(
        strstr(md, "| seq-read 1MiB Q8T1 | 376.5 MB/s |  |  | 117.6 MB/s | 1121.4 MB/s |  |"));
    assert_null(strstr(md, "n=2"));
    /* IOPS beside for 4KiB only. */
    assert_non_null(strstr(md, "| rand-read 4KiB Q32T1 | 53.87 MB/s  13152 IOPS |"));
    free(md);
    bl_table_free(t);
    t = build(&rs, "section", NULL);
    char *html = render(t, BL_REPORT_HTML, 0);
    assert_true(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    assert_non_null(strstr(html, ">a|b &lt;c&gt;</button></th>"));
    assert_non_null(strstr(html, "<meta charset=\"utf-8\">"));
    assert_null(strstr(html, "src="));
    assert_null(strstr(html, "http")); /* self-contained: nothing fetched */
    /* CDM's records have no section: its two columns stay apart (never pooled into a
     * "(no section)" mean of 1 GbE and 10 GbE): 376.54 and 1121.4 in cells and at bars. */
    assert_non_null(strstr(html, ">376.5 MB/s</span>"));
    assert_non_null(strstr(html, ">1121.4 MB/s</span>"));
    assert_non_null(strstr(html, "class=\"v\">1121.4 MB/s</text>"));
    assert_null(strstr(html, "619.5"));
    assert_int_equal(t->n_unlabelled, 4); /* cdm 1 GbE and 10 GbE, dd, the runner */
    assert_non_null(strstr(html, "</html>\n"));
    free(html);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* The foundation's path: import dd's output, then report --text from the store. */
static void test_import_then_report(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), fx[256], args[1024];
    snprintf(args, sizeof args, "import --db %s/s.db %s", dir,
             bl_test_fixture("dd/gnu-dd-9.1_c_write_read.txt", fx, sizeof fx));
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    char *out, *err;
    snprintf(args, sizeof args, "report --db %s/s.db --text", dir);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    /* dd printed 67108864 bytes in 0.281737 s and 0.0146754 s. */
    assert_non_null(strstr(out, "seq-write 1MiB Q1T1"));
    assert_non_null(strstr(out, "238.2 MB/s"));
    assert_non_null(strstr(out, "4572.9 MB/s"));
    assert_true(strstr(out, "seq-write 1MiB") < strstr(out, "seq-read 64KiB"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "report --db %s/s.db --csv test=seq-read", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, "\nseq-read,65536,1,1,4572.88142"));
    assert_null(strstr(out, "seq-write"));
    free(out);
    /* HTML carries its charts inside: inline SVG, the figure printed at its bar. */
    snprintf(args, sizeof args, "report --db %s/s.db --html --title 'dd on ext4'", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, "<title>dd on ext4</title>"));
    assert_non_null(strstr(out, "<svg viewBox="));
    assert_non_null(strstr(out, "class=\"v\">4572.9 MB/s</text>"));
    assert_null(strstr(out, "http"));
    free(out);
    snprintf(args, sizeof args, "report --db %s/s.db --md --title 'dd | ext4'", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    const char *md = "## dd \\| ext4\n\n| test | gnu-dd-9.1_c_write_read.txt |\n";
    assert_true(strncmp(out, md, strlen(md)) == 0);
    free(out);
    snprintf(args, sizeof args, "report --db %s/s.db --html --no-chart", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_null(strstr(out, "<svg"));
    assert_non_null(strstr(out, ">4572.9 MB/s</span>"));
    free(out);
    snprintf(args, sizeof args, "report --db %s/s.db tool=fio", dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 1);
    assert_non_null(strstr(err, "no stored record matches"));
    free(err);
    snprintf(args, sizeof args, "report --db %s/s.db --baseline nothing", dir);
    assert_int_equal(bl_test_benchlog(args, NULL, &err), 2);
    free(err);
    assert_int_equal(bl_test_benchlog("report --bogus", NULL, NULL), 2);
    assert_int_equal(bl_test_benchlog("report --help", &out, NULL), 0);
    assert_non_null(strstr(out, "--baseline VALUE"));
    free(out);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_in_crystaldiskmark_order),
        cmocka_unit_test(test_repeated_runs_mean_stdev),
        cmocka_unit_test(test_baseline_ratio_and_iops),
        cmocka_unit_test(test_latency_columns),
        cmocka_unit_test(test_text_aligned_with_cjk),
        cmocka_unit_test(test_text_grouped_by_source),
        cmocka_unit_test(test_md_grouped_by_source),
        cmocka_unit_test(test_csv_numbers),
        cmocka_unit_test(test_markdown_and_html),
        cmocka_unit_test(test_import_then_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
