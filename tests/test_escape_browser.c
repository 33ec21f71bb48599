/* The hostile strings of issue 29 rendered as a reader sees them: the HTML page, and the
 * Markdown report turned into HTML by cmark-gfm (GitHub's renderer, raw HTML allowed as in
 * many wikis), each loaded in headless chromium; --dump-dom gives the DOM after any script
 * ran. No element, attribute or script the strings hold may be in it: the job names are text.
 * A chart file of the same store parses as XML with only cairo's and benchlog's elements.
 * Without chromium or cmark-gfm (scripts/deps.sh's test set) the browser checks skip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dir;

/* Job names and a label as an attacker writes them; JSON-escaped for the fio output. */
static const char *const jobs[] = {
    "<img src=x onerror=alert(1)>", /* the issue's; an alert would stop --dump-dom */
    "<img src=x onerror=\\\"document.title='pwned-img'\\\">",
    "<script>document.title='pwned-script'</script>",
    "\\\"><svg onload=\\\"document.title='pwned-svg'\\\">",
    "[click](javascript:document.title='pwned-link') <a href=//x.example>a</a>",
    "\\u001b]2;pwned\\u0007\\u001b[2J |x| `c` *e*\\nnext",
};
enum { N_JOBS = sizeof jobs / sizeof jobs[0] };

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static int setup(void **state)
{
    (void)state;
    dir = bl_test_tmpdir();
    char path[600];
    snprintf(path, sizeof path, "%s/hostile.json", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n", f);
    for (int i = 0; i < N_JOBS; i++)
        fprintf(f,
                "    {\n      \"jobname\" : \"%s\", \"groupid\" : 0, \"error\" : 0,\n"
                "      \"job options\" : { \"rw\" : \"read\", \"bs\" : \"1M\" },\n"
                "      \"read\" : { \"io_bytes\" : 104857600, \"bw\" : %d, \"iops\" : %d.0,"
                " \"runtime\" : 1000 }\n    }%s\n",
                jobs[i], 1024 * (i + 1), i + 1, i + 1 < N_JOBS ? "," : "");
    fputs("  ]\n}\n", f);
    fclose(f);
    return bl_test_benchlogf(NULL, NULL,
                             "import --db %s/s.db --label 'host=<b onmouseover=alert(1)>h</b>' "
                             "%s",
                             dir, path) == 0
               ? 0
               : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(bl_test_sh(cmd, NULL));
    free(dir);
    return 0;
}

static int have_chromium(void)
{
    return bl_test_have("chromium") && bl_test_have("xmllint");
}

static char *dump_dom(const char *page)
{
    char cmd[1600];
    snprintf(cmd, sizeof cmd,
             "timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-extensions "
             "--no-first-run --user-data-dir=%s/profile --dump-dom 'file://%s' 2>/dev/null",
             dir, page);
    char *dom = bl_test_sh(cmd, NULL);
    assert_non_null(dom);
    assert_non_null(strstr(dom, "<body"));
    return dom;
}

/* An XPath number of the DOM, by xmllint's HTML parser (libxml2-utils, in the test set). */
static long xpath(const char *dom, const char *expr)
{
    char path[600], cmd[1400];
    snprintf(path, sizeof path, "%s/dom.html", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(dom, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "xmllint --html --nonet --xpath \"%s\" '%s' 2>/dev/null", expr, path);
    char *out = bl_test_sh(cmd, NULL);
    assert_non_null(out);
    char *end;
    long n = strtol(out, &end, 10);
    assert_true(end != out);
    free(out);
    return n;
}

/* What no DOM of ours may hold, whatever the strings: their elements, event handlers, links,
 * and what their scripts would have done (set the title). Their text is there, as text. */
static void no_injection(const char *dom)
{
    assert_int_equal(xpath(dom, "count(//img)"), 0);
    assert_int_equal(xpath(dom, "count(//a)"), 0);
    assert_int_equal(xpath(dom, "count(//b[@onmouseover])"), 0);
    assert_int_equal(xpath(dom, "count(//@*[starts-with(name(), 'on')])"), 0);
    assert_int_equal(xpath(dom, "count(//@href | //@src)"), 0);
    assert_int_equal(xpath(dom, "count(/html/head/title[contains(., 'pwned')])"), 0);
    assert_true(xpath(dom, "count(//th[contains(., '<img src=x onerror=')])") >= 1);
    assert_true(xpath(dom, "count(//th[contains(., '<script>document.title')])") >= 1);
    assert_true(xpath(dom, "count(//th[contains(., '[click](javascript:')])") >= 1);
}

static void test_page_in_chromium(void **state)
{
    (void)state;
    char page[600];
    snprintf(page, sizeof page, "%s/page.html", dir);
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "report --db %s/s.db --by job --html -o %s", dir, page), 0);
    if (!have_chromium())
        bl_skip_because("chromium or xmllint is not installed (scripts/deps.sh test)");
    char *dom = dump_dom(page);
    char *title = strstr(dom, "<title>");
    assert_non_null(title);
    assert_int_equal(strncmp(title, "<title>Storage benchmark comparison</title>", 42), 0);
    /* the page's own script only; the jobs' names stand as text in the table's header */
    assert_int_equal(xpath(dom, "count(//script)"), 1);
    no_injection(dom);
    free(dom);
}

static void test_markdown_in_chromium(void **state)
{
    (void)state;
    char *md;
    assert_int_equal(bl_test_benchlogf(&md, NULL, "report --db %s/s.db --by job --md", dir), 0);
    if (!bl_test_have("cmark-gfm"))
        bl_skip_because("cmark-gfm is not installed (scripts/deps.sh test)");
    char path[600], html[600], cmd[2000];
    snprintf(path, sizeof path, "%s/r.md", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(md, f);
    fclose(f);
    free(md);
    snprintf(html, sizeof html, "%s/r.html", dir);
    /* --unsafe: raw HTML passed through, as wikis and some renderers do */
    snprintf(cmd, sizeof cmd,
             "{ printf '<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>md</title>"
             "</head><body>'; cmark-gfm --unsafe -e table -e autolink -e strikethrough '%s'; "
             "printf '</body></html>'; } > '%s'",
             path, html);
    int st;
    free(bl_test_sh(cmd, &st));
    assert_int_equal(st, 0);
    char *rendered = bl_test_slurp(html);
    assert_non_null(rendered);
    /* the table keeps its shape: a header of the test column and six set-ups, one row */
    assert_int_equal(count(rendered, "<table>"), 1);
    assert_int_equal(count(rendered, "<th align"), 1 + N_JOBS);
    assert_int_equal(count(rendered, "<tr>"), 2);
    assert_int_equal(count(rendered, "<td align"), 1 + N_JOBS);
    assert_null(strstr(rendered, "<code>"));
    assert_null(strstr(rendered, "<em>"));
    free(rendered);
    if (!have_chromium())
        bl_skip_because("chromium or xmllint is not installed (scripts/deps.sh test)");
    char *dom = dump_dom(html);
    assert_non_null(strstr(dom, "<title>md</title>"));
    assert_int_equal(xpath(dom, "count(//script)"), 0);
    assert_int_equal(xpath(dom, "count(//svg)"), 0);
    no_injection(dom);
    free(dom);
}

/* A chart file (charts/canvas.c, cairo's SVG) of the same names parses with xmllint and holds
 * none of their elements. */
static void test_chart_svg(void **state)
{
    (void)state;
    char svg[600];
    snprintf(svg, sizeof svg, "%s/c.svg", dir);
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "chart --db %s/s.db --kind bar --by job -o %s", dir, svg), 0);
    if (!bl_test_have("xmllint"))
        bl_skip_because("xmllint is not installed (scripts/deps.sh test)");
    char cmd[800];
    snprintf(cmd, sizeof cmd, "xmllint --noout --nonet '%s' 2>&1", svg);
    int st;
    char *out = bl_test_sh(cmd, &st);
    assert_int_equal(st, 0);
    assert_string_equal(out, "");
    free(out);
    char *s = bl_test_slurp(svg);
    assert_non_null(s);
    assert_null(strstr(s, "<img"));
    assert_null(strstr(s, "<script"));
    assert_null(strstr(s, "<svg onload"));
    assert_null(strstr(s, "\x1b"));
    assert_non_null(strstr(s, "&lt;img src=x"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_in_chromium),
        cmocka_unit_test(test_markdown_in_chromium),
        cmocka_unit_test(test_chart_svg),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
