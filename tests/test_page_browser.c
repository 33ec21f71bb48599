/* The HTML page in a real browser: Debian's chromium, headless. The page of a store of our
 * fixtures (fio with latency, bonnie++, dd, CrystalDiskMark) is loaded; --dump-dom gives the
 * DOM after the script ran, checked against the comparison model built here from the same
 * store: rows, set-up controls, metric choices, one SVG chart per metric with a bar per cell.
 * A driver script added to a copy of the page clicks as a user would (sort, metric, hide a
 * set-up) and the DOM shows the result. A screenshot must not be blank. Without chromium the
 * browser tests skip, saying so; the static checks (nothing fetched, lang) always run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/canvas.h"
#include "../core/strbuf.h"
#include "../compare/group.h"
#include "../compare/load.h"
#include "../report/page.h"
#include "../compare/table.h"
#include "support/support.h"
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dir;
static char db[600];

static void spit(const char *path, const char *s)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(s, 1, strlen(s), f), strlen(s));
    assert_int_equal(fclose(f), 0);
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static const char *chromium(void)
{
    static const char *const names[] = {"chromium", "chromium-browser", "google-chrome"};
    static char found[64];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", names[i]);
        if (system(cmd) == 0) {
            snprintf(found, sizeof found, "%s", names[i]);
            return found;
        }
    }
    return NULL;
}

/* Headless chromium on a file: --dump-dom into out (caller frees), or a screenshot. The
 * sandbox needs user namespaces a root CI container lacks; the page is ours. */
static char *browse(const char *page, const char *extra)
{
    const char *c = chromium();
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "timeout 180 %s --headless --no-sandbox --disable-gpu --disable-extensions "
             "--no-first-run --user-data-dir=%s/profile %s 'file://%s' 2>/dev/null",
             c, dir, extra, page);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        bl_strbuf_putn(&sb, buf, n);
    pclose(p);
    return bl_strbuf_take(&sb);
}

static int setup(void **state)
{
    (void)state;
    dir = bl_test_tmpdir();
    snprintf(db, sizeof db, "%s/s.db", dir);
    static const char *const fx[] = {
        "fio/mix-3.33.out", "bonnie/bonnie-2.00a_s256_n2.txt", "dd/gnu-dd-9.1_c_write_read.txt",
        "cdm/kdiskmark-3.2.0_handwritten.txt", "cdm/cdm-5.2.1_handwritten_crlf.txt"};
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
        char path[512], args[1200];
        snprintf(args, sizeof args, "import --db %s %s", db,
                 bl_test_fixture(fx[i], path, sizeof path));
        if (bl_test_benchlog(args, NULL, NULL) != 0)
            return -1;
    }
    char args[1200];
    snprintf(args, sizeof args, "report --db %s --html --title 'Fixtures' -o %s/page.html", db,
             dir);
    return bl_test_benchlog(args, NULL, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    int rc = system(cmd);
    free(dir);
    return rc;
}

static bl_table *model(bl_records *rs)
{
    char err[256];
    bl_records_init(rs);
    assert_int_equal(bl_report_load(db, 0, NULL, rs, err, sizeof err), 0);
    bl_table_opts o = {0};
    bl_table *t = bl_table_build(rs, &o, err, sizeof err);
    assert_non_null(t);
    return t;
}

/* Nothing the page names is fetched: no src or href that leaves the page, no CSS import or
 * url(), no http at all. lang follows the content. */
static void test_page_fetches_nothing(void **state)
{
    (void)state;
    char path[700];
    snprintf(path, sizeof path, "%s/page.html", dir);
    char *html = bl_test_slurp(path);
    assert_non_null(html);
    assert_null(strstr(html, "http"));
    assert_null(strstr(html, "url("));
    assert_null(strstr(html, "@import"));
    assert_null(strstr(html, "src="));
    for (const char *p = strstr(html, "href="); p; p = strstr(p + 1, "href="))
        assert_true(p[5] == '"' && p[6] == '#');
    assert_non_null(strstr(html, "<html lang=\"en\">"));
    free(html);
    /* The blog posts are Japanese: the page says so. */
    char *blog = bl_test_corpus("blog/001_8562a4b6946fb1ec.txt");
    char *b004 = bl_test_corpus("blog/004_8160137f383e9f6d.txt");
    if (!blog || !b004) {
        free(blog);
        free(b004);
        bl_skip_because("BENCHLOG_CORPUS absent: the Japanese page is not checked");
    }
    char args[1500], *out = NULL;
    snprintf(args, sizeof args, "import --db %s/ja.db %s %s", dir, blog, b004);
    assert_true(bl_test_benchlog(args, NULL, NULL) <= 1); /* 1: refused text, said */
    snprintf(args, sizeof args, "report --db %s/ja.db --html", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, "<html lang=\"ja\">"));
    assert_non_null(strstr(out, "SSDキャッシュ"));
    /* Blog 004's four fio-cdm sequential reads: mean 424.8, stdev 6.41, n 4; t(3) = 3.182 gives
     * the CI half-width 6.41 × 3.182 / 2 = 10.19, shown in the cell and on hover. */
    assert_non_null(strstr(out, ">424.8 MB/s<sub>n=4, CI ±10.19 MB/s</sub>"));
    assert_non_null(strstr(out, "95% CI of the mean: 414.6 MB/s – 435.0 MB/s"));
    free(out);
    /* --repeats best: the best of the four (434.3) in cell and chart, said in the chart's text. */
    snprintf(args, sizeof args, "report --db %s/ja.db --html --repeats best", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, ">434.3 MB/s<sub>n=4, CI ±10.19 MB/s</sub>"));
    assert_non_null(strstr(out, "class=\"v\">434.3 MB/s (n=4)</text>"));
    assert_non_null(strstr(out, "shown as the best run (highest throughput, lowest latency)"));
    assert_null(strstr(out, "http"));
    free(out);
    free(blog);
    free(b004);
}

/* The DOM after loading: every test a row, every set-up a column, a checkbox and bars. */
static void test_dom_matches_the_model(void **state)
{
    (void)state;
    if (!chromium())
        bl_skip_because("chromium missing (sh scripts/deps.sh test installs it)");
    bl_records rs;
    bl_table *t = model(&rs);
    char path[700];
    snprintf(path, sizeof path, "%s/page.html", dir);
    char *dom = browse(path, "--dump-dom");
    assert_non_null(strstr(dom, "<table id=\"cmp\">"));
    assert_int_equal(count(dom, "<th scope=\"row\">"), t->nrows);
    assert_int_equal(count(dom, "<th scope=\"col\""), t->ncols + 1);
    assert_int_equal(count(dom, "<input type=\"checkbox\" checked=\"\" data-col="), t->ncols);
    size_t nm = 0, bars = 0, bw_cells = 0;
    for (int m = 0; m < BL_M_COUNT; m++) {
        int has = 0;
        for (size_t i = 0; i < t->nrows; i++) {
            has |= bl_row_has(t, i, (bl_metric)m);
            for (size_t j = 0; j < t->ncols; j++) {
                size_t n = bl_table_cell(t, i, j)->m[m].n > 0;
                bars += n;
                if (m == BL_M_BW)
                    bw_cells += n;
            }
        }
        nm += has != 0;
    }
    assert_true(nm >= 5); /* bw, iops, lat and percentiles (fio), value (bonnie++) */
    assert_int_equal(count(dom, "<option value="), nm + 1);
    /* Five sources: five comparison groups, each with a chart per metric it has, and a
     * navigation entry; every bar in one of them. */
    bl_groups gs;
    bl_groups_make(t, 0, &gs);
    assert_int_equal(gs.n, 5);
    size_t svgs = 0;
    for (size_t g = 0; g < gs.n; g++) {
        bl_table *sub = bl_table_subset(t, gs.v[g].cols, gs.v[g].ncols);
        for (int m = 0; m < BL_M_COUNT; m++)
            for (size_t i = 0; i < sub->nrows; i++)
                if (bl_row_has(sub, i, (bl_metric)m)) {
                    svgs++;
                    break;
                }
        bl_table_free(sub);
    }
    bl_groups_free(&gs);
    assert_int_equal(count(dom, "<svg viewBox="), svgs);
    assert_int_equal(count(dom, "<li data-find="), 5);
    assert_int_equal(count(dom, "<section class=\"group\" id=\"g"), 5);
    assert_int_equal(count(dom, "<g data-col="), bars);
    /* The MB/s charts: a bar per cell with a figure, each naming its set-up. */
    size_t in_bw = 0;
    for (const char *bw = strstr(dom, "data-metric=\"bw\""); bw;
         bw = strstr(bw + 1, "data-metric=\"bw\"")) {
        const char *end = strstr(bw, "</svg>");
        for (const char *p = strstr(bw, "<g data-col="); p && p < end;
             p = strstr(p + 1, "<g data-col="))
            in_bw++;
    }
    assert_int_equal(in_bw, bw_cells);
    /* dd's figure, as the model has it, in the table and at its bar. */
    assert_non_null(strstr(dom, ">4572.9 MB/s</span>"));
    assert_non_null(strstr(dom, "class=\"v\">4572.9 MB/s</text>"));
    /* The paper table: a line per test × set-up with records, the test named on its first. */
    size_t lines = 0, tests = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        size_t n = 0;
        for (size_t j = 0; j < t->ncols; j++)
            n += bl_table_cell(t, i, j)->n_recs > 0;
        lines += n;
        tests += n > 0;
    }
    const char *paper = strstr(dom, "<table class=\"long\">");
    assert_non_null(paper);
    assert_int_equal(count(paper, "<tr class=\"first\">"), tests);
    assert_int_equal(count(paper, "<tr class=\"first\">") + count(paper, "<tr><th></th>"), lines);
    assert_non_null(strstr(dom, "<details class=\"sources\">"));
    assert_non_null(strstr(dom, "gnu-dd-9.1_c_write_read.txt</th>"));
    free(dom);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* A user's clicks, by a driver script in a copy of the page: sort a set-up's column
 * (ascending, then descending), choose the IOPS metric, hide the first set-up. */
static void test_controls_work(void **state)
{
    (void)state;
    if (!chromium())
        bl_skip_because("chromium missing (sh scripts/deps.sh test installs it)");
    bl_records rs;
    bl_table *t = model(&rs);
    /* The set-up with the most main figures: the sort has something to order. */
    size_t best = 0, most = 0;
    for (size_t j = 0; j < t->ncols; j++) {
        size_t n = 0;
        for (size_t i = 0; i < t->nrows; i++)
            n += bl_cell_main(&t->rows[i], bl_table_cell(t, i, j))->n > 0;
        if (n > most) {
            most = n;
            best = j;
        }
    }
    assert_true(most >= 3);
    char path[700];
    snprintf(path, sizeof path, "%s/page.html", dir);
    char *html = bl_test_slurp(path);
    bl_strbuf page;
    bl_strbuf_init(&page);
    bl_strbuf_putn(&page, html, (size_t)(strstr(html, "</body>") - html));
    bl_strbuf_printf(
        &page,
        "<script>(function(){var bt=document.querySelectorAll('#cmp thead button')[%zu];"
        "bt.click();bt.click();var o=[];[].forEach.call(document.getElementById('cmp').tBodies"
        "[0].rows,function(r){var s=r.cells[%zu].querySelector('.m-main');o.push(s?s.dataset.v"
        ":'-')});var sel=document.getElementById('metric');sel.value=sel.options[2].value;"
        "sel.onchange();var cb=document.querySelector('input[data-col=\"%zu\"]');cb.checked="
        "false;cb.onchange();var pre=document.createElement('pre');pre.id='order';"
        "pre.textContent='ORDER '+o.join(' ')+' END';document.body.appendChild(pre)})();"
        "</script></body></html>\n",
        best + 1, best + 1, best);
    snprintf(path, sizeof path, "%s/driven.html", dir);
    spit(path, page.s);
    bl_strbuf_free(&page);
    free(html);
    char *dom = browse(path, "--dump-dom");
    const char *o = strstr(dom, "<pre id=\"order\">ORDER ");
    if (!o)
        fail_msg("the driver script did not finish");
    o += strlen("<pre id=\"order\">");
    /* Descending after two clicks; cells without the figure last. */
    double prev = INFINITY;
    size_t figures = 0, blanks = 0;
    for (const char *p = o + 6; strncmp(p, "END", 3) != 0;) {
        if (*p == '-') {
            blanks++;
            p += 2;
            continue;
        }
        char *e;
        double v = strtod(p, &e);
        if (e == p)
            fail_msg("not a figure in the order: %.60s", p);
        assert_int_equal(blanks, 0);
        assert_true(v <= prev);
        prev = v;
        figures++;
        p = e + 1;
    }
    assert_int_equal(figures, most);
    assert_int_equal(figures + blanks, t->nrows);
    /* The metric switch is on the body; the hidden set-up's header, cells and bars are off. */
    assert_non_null(strstr(dom, "<body data-metric=\"m1\">"));
    char want[64];
    snprintf(want, sizeof want, "<td data-col=\"%zu\" class=\"off\"", best);
    assert_int_equal(count(dom, want), t->nrows);
    /* The sorted column's header: marked descending, and hidden with its set-up. */
    const char *th = strstr(dom, "aria-sort=\"descending\" class=\"off\"");
    assert_non_null(th);
    assert_null(strstr(th + 1, "aria-sort="));
    snprintf(want, sizeof want, "data-col=\"%zu\" title=", best);
    const char *hd = strstr(dom, want);
    assert_non_null(hd);
    assert_true(hd < th && !memchr(hd, '>', (size_t)(th - hd)));
    snprintf(want, sizeof want, "<g data-col=\"%zu\" ", best);
    size_t bars_off = 0, bars = 0;
    for (const char *g = strstr(dom, want); g; g = strstr(g + 1, want)) {
        const char *end = strchr(g, '>'), *off = strstr(g, "class=\"off\"");
        bars++;
        bars_off += off && off < end;
    }
    assert_true(bars > 0);
    assert_int_equal(bars_off, bars);
    /* The MB/s chart closes up: a bar's height (data-bar) less per hidden bar, a test's head
     * and gap (data-group) more for a test left empty. */
    size_t hidden = 0, emptied = 0;
    /* The chart of best's group (its source): the others of that group only. */
    bl_groups gs;
    bl_groups_make(t, 0, &gs);
    const bl_group *mine_g = NULL;
    for (size_t g = 0; g < gs.n; g++)
        for (size_t k = 0; k < gs.v[g].ncols; k++)
            if (gs.v[g].cols[k] == best)
                mine_g = &gs.v[g];
    assert_non_null(mine_g);
    for (size_t i = 0; i < t->nrows; i++) {
        size_t others = 0;
        for (size_t k = 0; k < mine_g->ncols; k++)
            others +=
                mine_g->cols[k] != best && bl_table_cell(t, i, mine_g->cols[k])->m[BL_M_BW].n > 0;
        int mine = bl_table_cell(t, i, best)->m[BL_M_BW].n > 0;
        hidden += mine;
        emptied += mine && !others;
    }
    bl_groups_free(&gs);
    snprintf(want, sizeof want, "<g data-col=\"%zu\" ", best);
    const char *svg = strstr(dom, want); /* the first chart holding best's bars: MB/s */
    assert_non_null(svg);
    while (svg > dom && strncmp(svg, "<svg", 4) != 0)
        svg--;
    assert_non_null(strstr(svg, "data-metric=\"bw\""));
    assert_true(strstr(svg, "data-metric=\"bw\"") < strchr(svg, '>'));
    const char *hh = strstr(svg, " height=\""), *dh = strstr(svg, "data-h=\"");
    assert_non_null(hh);
    assert_non_null(dh);
    assert_true(hh < strchr(svg, '>') && dh < strchr(svg, '>'));
    assert_true(hidden > 0);
    const char *db = strstr(svg, "data-bar=\""), *dg = strstr(svg, "data-group=\"");
    assert_non_null(db);
    assert_non_null(dg);
    assert_int_equal(atol(db + 10), 19); /* the page's BAR_H */
    assert_int_equal(atol(dh + 8) - atol(hh + 9),
                     (long)(atol(db + 10) * (long)hidden + atol(dg + 12) * (long)emptied));
    free(dom);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* The filter, typed as a user would (a group's source, in capitals): the other groups go, and
 * with them their set-ups' columns of the table, and the tests that none of the columns left
 * has a figure for; the group's own columns and tests stay. Emptied, all come back. */
static void test_filter_hides_columns(void **state)
{
    (void)state;
    if (!chromium())
        bl_skip_because("chromium missing (sh scripts/deps.sh test installs it)");
    bl_records rs;
    bl_table *t = model(&rs);
    bl_groups gs;
    bl_groups_make(t, 0, &gs);
    assert_true(gs.n > 2);
    /* The group with the most set-ups, by its whole source name. */
    const bl_group *gr = &gs.v[0];
    for (size_t g = 1; g < gs.n; g++)
        if (gs.v[g].ncols > gr->ncols)
            gr = &gs.v[g];
    assert_true(gr->ncols >= 2 && gr->nrows < t->nrows);
    char path[700];
    snprintf(path, sizeof path, "%s/page.html", dir);
    char *html = bl_test_slurp(path);
    bl_strbuf page;
    bl_strbuf_init(&page);
    bl_strbuf_putn(&page, html, (size_t)(strstr(html, "</body>") - html));
    bl_strbuf_puts(&page, "<script>(function(){var f=document.getElementById('gfilter');f.value='");
    for (const char *c = gr->name; *c; c++) /* fixture paths: no quote to escape */
        bl_strbuf_putc(&page, (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c));
    bl_strbuf_puts(&page, "';f.oninput();var s=document.createElement('pre');s.id='kept';var "
                          "k=[];[].forEach.call(document.querySelectorAll('#cmp tbody tr:not(."
                          "gone)'),function(r){k.push(r.dataset.i)});s.textContent='KEPT '+k."
                          "join(' ')+' END';document.body.appendChild(s);var c=[];[].forEach."
                          "call(document.querySelectorAll('#cmp thead th[data-col]'),function("
                          "h){var j=h.dataset.col;c.push(j+':'+(h.classList.contains('gone')?1:"
                          "0)+':'+document.querySelectorAll('#cmp td.gone[data-col=\"'+j+'\"]')."
                          "length)});s=document.createElement('pre');s.id='cols';s.textContent="
                          "'COLS '+c.join(' ')+' END';document.body.appendChild(s);f.value='';f."
                          "oninput();"
                          "s=document.createElement('pre');s.id='back';s.textContent='BACK '+"
                          "document.querySelectorAll('#cmp .gone').length;document.body."
                          "appendChild(s)})();</script></body></html>\n");
    snprintf(path, sizeof path, "%s/filtered.html", dir);
    spit(path, page.s);
    bl_strbuf_free(&page);
    free(html);
    char *dom = browse(path, "--dump-dom");
    const char *kept = strstr(dom, "<pre id=\"kept\">KEPT ");
    if (!kept)
        fail_msg("the driver script did not finish");
    /* Every column outside the group gone in every row and its header; the group's kept. */
    bl_strbuf cols;
    bl_strbuf_init(&cols);
    bl_strbuf_puts(&cols, "<pre id=\"cols\">COLS");
    for (size_t j = 0; j < t->ncols; j++) {
        int mine = 0;
        for (size_t k = 0; k < gr->ncols; k++)
            mine |= gr->cols[k] == j;
        bl_strbuf_printf(&cols, " %zu:%d:%zu", j, !mine, mine ? 0 : t->nrows);
    }
    bl_strbuf_puts(&cols, " END</pre>");
    if (!strstr(dom, cols.s))
        fail_msg("columns gone (column:header:cells): %.400s, want %s",
                 strstr(dom, "<pre id=\"cols\">"), cols.s);
    bl_strbuf_free(&cols);
    /* The rows kept: the tests the group's set-ups have, in the table's order. */
    bl_strbuf want;
    bl_strbuf_init(&want);
    bl_strbuf_puts(&want, "KEPT");
    size_t rows = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        int any = 0;
        for (size_t k = 0; k < gr->ncols; k++)
            any |= bl_table_cell(t, i, gr->cols[k])->n_recs > 0;
        if (any)
            bl_strbuf_printf(&want, " %zu", i);
        rows += any != 0;
    }
    bl_strbuf_puts(&want, " END");
    assert_int_equal(rows, gr->nrows);
    if (strncmp(kept + strlen("<pre id=\"kept\">"), want.s, want.len) != 0)
        fail_msg("rows kept: %.200s, want %s", kept, want.s);
    bl_strbuf_free(&want);
    assert_non_null(strstr(dom, "<pre id=\"back\">BACK 0</pre>"));
    free(dom);
    bl_groups_free(&gs);
    bl_table_free(t);
    bl_records_free(&rs);
}

/* Scrolled down and right inside its container, the table keeps its header row at the top and
 * its test column at the left (sticky), measured by the browser's layout. */
static void test_header_and_test_column_stay(void **state)
{
    (void)state;
    if (!chromium())
        bl_skip_because("chromium missing (sh scripts/deps.sh test installs it)");
    char path[700];
    snprintf(path, sizeof path, "%s/page.html", dir);
    char *html = bl_test_slurp(path);
    bl_strbuf page;
    bl_strbuf_init(&page);
    bl_strbuf_putn(&page, html, (size_t)(strstr(html, "</body>") - html));
    bl_strbuf_puts(
        &page,
        "<script>window.onload=function(){var sc=document.querySelector('.scroll'),"
        "t=document.getElementById('cmp');sc.scrollTop=300;sc.scrollLeft=400;"
        "var r=sc.getBoundingClientRect(),h=t.tHead.rows[0].cells[3].getBoundingClientRect(),"
        "f=t.tBodies[0].rows[12].cells[0].getBoundingClientRect(),p=document.createElement("
        "'pre');p.id='sticky';p.textContent='STICKY '+sc.scrollTop+' '+sc.scrollLeft+' '+"
        "Math.round(h.top-r.top)+' '+Math.round(f.left-r.left)+' END';"
        "document.body.appendChild(p)};</script></body></html>\n");
    free(html);
    snprintf(path, sizeof path, "%s/sticky.html", dir);
    spit(path, page.s);
    bl_strbuf_free(&page);
    char *dom = browse(path, "--window-size=900,700 --dump-dom");
    const char *st = strstr(dom, "<pre id=\"sticky\">STICKY ");
    if (!st)
        fail_msg("the measuring script did not finish");
    int top, left, dy, dx;
    assert_int_equal(
        sscanf(st + strlen("<pre id=\"sticky\">STICKY "), "%d %d %d %d", &top, &left, &dy, &dx), 4);
    assert_true(top > 0); /* the container did scroll both ways */
    assert_true(left > 0);
    assert_true(dy >= -1 && dy <= 2); /* the header row at the container's top */
    assert_true(dx >= -1 && dx <= 2); /* the test column at its left edge */
    free(dom);
}

/* Printed (chromium's print to PDF, read with pdftotext): no controls on paper, the blog posts'
 * group charts, and their table over pages with its header row on each. */
static void test_print_stylesheet(void **state)
{
    (void)state;
    if (!chromium())
        bl_skip_because("chromium missing (sh scripts/deps.sh test installs it)");
    if (system("command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null") != 0)
        bl_skip_because("pdftotext missing (poppler-utils: sh scripts/deps.sh test)");
    static const char *const posts[] = {
        "blog/000_bed2622bff3958ce.txt", "blog/001_8562a4b6946fb1ec.txt",
        "blog/003_c0a3f5a42cdf17b6.txt", "blog/004_8160137f383e9f6d.txt"};
    char args[1500], page[700], pdf[700];
    for (size_t i = 0; i < 4; i++) {
        char *p = bl_test_corpus(posts[i]);
        if (!p)
            bl_skip_because("BENCHLOG_CORPUS absent: the blog posts' print is not checked");
        snprintf(args, sizeof args, "import --db %s/blog.db %s", dir, p);
        free(p);
        assert_true(bl_test_benchlog(args, NULL, NULL) <= 1); /* 1: refused text, said */
    }
    snprintf(page, sizeof page, "%s/blog.html", dir);
    snprintf(args, sizeof args, "report --db %s/blog.db --html -o %s", dir, page);
    assert_int_equal(bl_test_benchlog(args, NULL, NULL), 0);
    snprintf(pdf, sizeof pdf, "%s/print.pdf", dir);
    snprintf(args, sizeof args, "--no-pdf-header-footer --print-to-pdf=%s", pdf);
    free(browse(page, args));
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "pdfinfo '%s' | sed -n 's/^Pages: *//p'", pdf);
    char *n = bl_test_sh(cmd, NULL);
    int pages = atoi(n);
    free(n);
    assert_true(pages > 5);
    int table_pages = 0, charts_seen = 0, table_done = 0, table_started = 0;
    for (int p = 1; p <= pages; p++) {
        snprintf(cmd, sizeof cmd, "pdftotext -layout -f %d -l %d '%s' -", p, p, pdf);
        char *t = bl_test_sh(cmd, NULL);
        assert_null(strstr(t, "Set-ups shown"));  /* the controls */
        assert_null(strstr(t, "Click a column")); /* screen-only hint */
        charts_seen |= strstr(t, "MB/s (throughput) of") != NULL;
        /* The groups' charts come first; from the table's first sheet to its footnote, the
         * header row on every sheet. */
        table_started |= strstr(t, "p99 latency") != NULL;
        if (table_started && !table_done) {
            if (!strstr(t, "p99 latency") && !strstr(t, "MB/s = 10^6 bytes/s"))
                fail_msg("printed page %d of the table lacks its header row", p);
            table_pages++;
        }
        table_done |= strstr(t, "MB/s = 10^6 bytes/s") != NULL;
        free(t);
    }
    assert_true(charts_seen);
    assert_true(table_pages >= 3);
}

/* The screenshot is the page, not a blank window: text and the set-up colours show. */
static void test_screenshot_not_blank(void **state)
{
    (void)state;
    if (!chromium())
        bl_skip_because("chromium missing (sh scripts/deps.sh test installs it)");
    char page[700], shot[700], extra[1500];
    snprintf(page, sizeof page, "%s/page.html", dir);
    snprintf(shot, sizeof shot, "%s/shot.png", dir);
    snprintf(extra, sizeof extra, "--hide-scrollbars --window-size=1400,1000 --screenshot=%s",
             shot);
    free(browse(page, extra));
    cairo_surface_t *s = cairo_image_surface_create_from_png(shot);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *d = cairo_image_surface_get_data(s);
    assert_int_equal(w, 1400);
    assert_int_equal(h, 1000);
    long dark = 0, swatch = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned px =
                *(const uint32_t *)(d + (size_t)y * (size_t)stride + (size_t)x * 4) & 0xFFFFFF;
            dark += ((px >> 16) & 255) < 100 && ((px >> 8) & 255) < 100 && (px & 255) < 100;
            swatch += px == bl_canvas_palette(0);
        }
    cairo_surface_destroy(s);
    assert_true(dark > 2000); /* title, headers and figures */
    assert_true(swatch > 20); /* the first set-up's colour in the header */
}

/* report's own options reach the page: --metric opens it on that figure (its option
 * selected), --lat on latency, --baseline adds each column's ratio to the baseline's main
 * figure (CrystalDiskMark 519.8 against KDiskMark 441.9 MB/s, ×1.18); a metric no test has is
 * said, and the page opens on the main figure. */
static void test_report_options_reach_the_page(void **state)
{
    (void)state;
    char args[1200], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "report --db %s --by tool --metric iops --html", db);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    const char *body = strstr(out, "<body data-metric=\"m");
    assert_non_null(body);
    char want[128];
    snprintf(want, sizeof want, "<option value=\"m%d\" selected>%s</option>",
             atoi(body + strlen("<body data-metric=\"m")), bl_page_metric_label(BL_M_IOPS));
    assert_non_null(strstr(out, want));
    assert_null(strstr(out, "<option value=\"main\" selected>"));
    free(out);
    snprintf(args, sizeof args, "report --db %s --by tool --lat --html", db);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    body = strstr(out, "<body data-metric=\"m");
    assert_non_null(body);
    snprintf(want, sizeof want, "<option value=\"m%d\" selected>%s</option>",
             atoi(body + strlen("<body data-metric=\"m")), bl_page_metric_label(BL_M_LAT));
    assert_non_null(strstr(out, want));
    free(out);
    snprintf(args, sizeof args, "report --db %s --by tool --baseline KDiskMark --html tool~Disk",
             db);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, "<body data-metric=\"main\">"));
    assert_non_null(strstr(out, "×: the main figure over that of KDiskMark"));
    const char *cell = strstr(out, ">519.8 MB/s</span>");
    assert_non_null(cell);
    static const char ratio[] = "<span class=\"m m-main ratio\" title=\"better: 1.18× the "
                                "figure of KDiskMark\"> ×1.18 ▲</span>";
    cell += strlen(">519.8 MB/s</span>");
    assert_memory_equal(cell, ratio, strlen(ratio));
    /* Only the 6 tests both set-ups ran carry a ratio, and never on the baseline itself. */
    assert_int_equal(count(out, "class=\"m m-main ratio\""), 6);
    /* Each with the verdict the footnote explains, as the text report's: 4KiB Q1T1 reads,
     * 37.61 against 45.07 MB/s, are worse (issue 24: --baseline says better or worse). */
    assert_int_equal(count(out, " ▲</span>"), 4);
    assert_int_equal(count(out, " ▼</span>"), 2);
    assert_non_null(strstr(out, "title=\"worse: 0.834× the figure of KDiskMark\"> ×0.83 ▼</span>"));
    free(out);
    snprintf(args, sizeof args, "report --db %s --by tool --metric p99 --html tool~Disk", db);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    assert_non_null(strstr(out, "<body data-metric=\"main\">"));
    assert_non_null(strstr(err, "no test has p99 figures: the page opens on the main figure"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_fetches_nothing),
        cmocka_unit_test(test_dom_matches_the_model),
        cmocka_unit_test(test_controls_work),
        cmocka_unit_test(test_filter_hides_columns),
        cmocka_unit_test(test_header_and_test_column_stay),
        cmocka_unit_test(test_print_stylesheet),
        cmocka_unit_test(test_screenshot_not_blank),
        cmocka_unit_test(test_report_options_reach_the_page),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
