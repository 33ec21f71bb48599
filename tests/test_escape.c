/* Outputs that cannot be turned against their reader (core/escape.h, issue 29): the hostile
 * strings of the issue (a job name that is HTML, CSV formulas, terminal control sequences,
 * a newline in a label) through each escaping function and through the commands that write
 * them, checking the bytes written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/csv.h"
#include "../core/escape.h"
#include "../core/jsonl.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IMG "<img src=x onerror=alert(1)>"
#define TERM_ATTACK "\x1b]2;pwned\x07\x1b[2J"
#define CMD_FORMULA "=cmd|' /C calc'!A0"
#define HYPERLINK "=HYPERLINK(\"http://x\",\"y\")"

typedef void (*esc_fn)(bl_strbuf *, const char *);

static void expect(esc_fn f, const char *in, const char *want)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_putn(&sb, "", 0);
    f(&sb, in);
    assert_string_equal(sb.s, want);
    bl_strbuf_free(&sb);
}

static void csv_of(bl_strbuf *sb, const char *s)
{
    bl_esc_csv(sb, s, strlen(s));
}

static void term_of(bl_strbuf *sb, const char *s)
{
    bl_esc_term(sb, s, 0);
}

static void term_line_of(bl_strbuf *sb, const char *s)
{
    bl_esc_term(sb, s, BL_ESC_LINE);
}

static void test_markdown(void **state)
{
    (void)state;
    expect(bl_esc_md, IMG, "&lt;img src=x onerror=alert(1)&gt;");
    /* a newline or a bar never ends the cell; a backslash is no escape of ours */
    expect(bl_esc_md, "a|b\\c\nd\re", "a\\|b\\\\c&#10;d&#13;e");
    expect(bl_esc_md, "[x](http://e) ![i](j) `c` *e* _u_ ~~s~~",
           "\\[x\\](http://e) !\\[i\\](j) \\`c\\` \\*e\\* \\_u\\_ \\~\\~s\\~\\~");
    expect(bl_esc_md, "&lt;script&gt; \"q\"", "&amp;lt;script&amp;gt; &quot;q&quot;");
    expect(bl_esc_md, TERM_ATTACK, "&#27;\\]2;pwned&#7;&#27;\\[2J");
    /* between letters "_" is no emphasis: file names stay readable */
    expect(bl_esc_md, "gnu-dd-9.1_c_write_read.txt", "gnu-dd-9.1_c_write_read.txt");
    expect(bl_esc_md, "シーケンシャル Q8T1", "シーケンシャル Q8T1");
}

static void test_csv(void **state)
{
    (void)state;
    expect(csv_of, CMD_FORMULA " MB/s", "\"'=cmd|' /C calc'!A0 MB/s\"");
    expect(csv_of, HYPERLINK, "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    expect(csv_of, "=1+2", "\"'=1+2\"");
    expect(csv_of, "+1", "\"'+1\"");
    expect(csv_of, "-2+3", "\"'-2+3\"");
    expect(csv_of, "@SUM(A1:A9)", "\"'@SUM(A1:A9)\"");
    expect(csv_of, "\t=1", "\"'\t=1\"");
    expect(csv_of, "\r=1", "\"'\r=1\"");
    /* RFC 4180: quoted only when it must be */
    expect(csv_of, "seq-read", "seq-read");
    expect(csv_of, "a,b", "\"a,b\"");
    expect(csv_of, "say \"hi\"", "\"say \"\"hi\"\"\"");
    expect(csv_of, "two\nlines", "\"two\nlines\"");
    expect(csv_of, "", "");
}

static void test_terminal(void **state)
{
    (void)state;
    expect(term_of, "job " TERM_ATTACK, "job \\x1b]2;pwned\\x07\\x1b[2J");
    expect(term_of, "tab\there\nnext", "tab\there\nnext");
    expect(term_line_of, "tab\there\nnext\r", "tab\\there\\nnext\\r");
    expect(term_of, "cr\rover", "cr\\rover");
    expect(term_of, "del\x7f", "del\\x7f");
    /* CSI as the C1 code point, a byte that is no UTF-8, a right-to-left override */
    expect(term_of,
           "c1\xc2\x9b"
           "2J",
           "c1\\u009b2J");
    expect(term_of, "bad\xff\x9b", "bad\\xff\\x9b");
    expect(term_of, "txt\xe2\x80\xaegnp.exe", "txt\\u202egnp.exe");
    expect(term_of, "シーケンシャル µs ±", "シーケンシャル µs ±");
}

static void test_xml(void **state)
{
    (void)state;
    expect(bl_esc_xml, IMG "\"", "&lt;img src=x onerror=alert(1)&gt;&quot;");
    expect(bl_esc_xml, "a&b", "a&amp;b");
    expect(bl_esc_xml, TERM_ATTACK, " ]2;pwned  [2J");
    expect(bl_esc_xml, "bad\xff!\xef\xbf\xbf", "bad\xef\xbf\xbd!\xef\xbf\xbd");
    expect(bl_esc_xml, "tab\tnl\n", "tab\tnl\n");
}

/* export --csv's writer: a source or label beginning with = is text, a negative figure is
 * a number. */
static void test_export_row(void **state)
{
    (void)state;
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, "=1+2");
    bl_record_set_str(&r->tool, HYPERLINK);
    bl_record_set_label(r, "host", "@x");
    bl_record_set_str(&r->metric, "delta");
    r->value = -3.5;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_csv_row(&sb, r);
    const char *want = "\"'=1+2\",,,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",,host=@x,";
    assert_memory_equal(sb.s, want, strlen(want));
    assert_non_null(strstr(sb.s, ",delta,-3.5,"));
    /* the same row from the stored JSON text, read in place */
    bl_strbuf json, row;
    bl_strbuf_init(&json);
    bl_strbuf_init(&row);
    bl_record_to_json(r, &json);
    assert_int_equal(bl_csv_row_json(&row, json.s, json.len), 0);
    assert_string_equal(row.s, sb.s);
    bl_strbuf_free(&json);
    bl_strbuf_free(&row);
    bl_strbuf_free(&sb);
    bl_record_free(r);
}

/* A fio JSON output whose job names are the attacks, imported with a formula as a label. */
static char *hostile_store(void)
{
    char *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/hostile.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    static const char *const names[] = {"<img src=x onerror=alert(1)>",
                                        "\\u001b]2;pwned\\u0007\\u001b[2Jx|y\\nnext"};
    fputs("{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n", f);
    for (int i = 0; i < 2; i++)
        fprintf(f,
                "    {\n      \"jobname\" : \"%s\", \"groupid\" : 0, \"error\" : 0,\n"
                "      \"job options\" : { \"rw\" : \"read\", \"bs\" : \"1M\" },\n"
                "      \"read\" : { \"io_bytes\" : 104857600, \"bw\" : %d, \"iops\" : %d.0,"
                " \"runtime\" : 1000 }\n    }%s\n",
                names[i], 102400 >> i, 100 >> i, i ? "" : ",");
    fputs("  ]\n}\n", f);
    fclose(f);
    char *err = NULL;
    assert_int_equal(bl_test_benchlogf(NULL, &err, "import --db %s/s.db --label 'host=%s' %s", dir,
                                       "=HYPERLINK(\"http://x\",\"y\")", path),
                     0);
    free(err);
    return dir;
}

static void no_byte(const char *s, char c)
{
    assert_null(strchr(s, c));
}

static void test_commands(void **state)
{
    (void)state;
    char *dir = hostile_store();
    char *out;
    /* Markdown: the table keeps its three lines, every one with three cell ends */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "report --db %s/s.db --by job --md", dir), 0);
    assert_null(strstr(out, "<img"));
    assert_non_null(strstr(out, "| &lt;img src=x onerror=alert(1)&gt; | "
                                "&#27;\\]2;pwned&#7;&#27;\\[2Jx\\|y&#10;next |\n"));
    no_byte(out, '\x1b');
    const char *table_end = strstr(out, "\n\n");
    assert_non_null(table_end);
    size_t lines = 0;
    for (const char *p = out; p < table_end; p = strchr(p, '\n') + 1) {
        size_t bars = 0;
        for (const char *q = p; *q != '\n'; q++) {
            if (*q == '\\')
                q++; /* an escaped character, a bar of the text among them */
            else
                bars += *q == '|';
        }
        assert_int_equal(bars, 4); /* test + two set-ups */
        lines++;
    }
    assert_int_equal(lines, 3);
    free(out);
    /* CSV: the formula is text, the figures numbers */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "report --db %s/s.db --by host --csv", dir), 0);
    assert_non_null(strstr(
        out,
        ",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\") · job=<img src=x onerror=alert(1)> MB/s\",\""));
    assert_non_null(strstr(out, "\nseq-read,1048576,1,1,104.8576,,,100,1,52.4288,,,50,1\n"));
    assert_null(strstr(out, ",=")); /* no cell begins with = */
    free(out);
    /* the terminal table, list and show: no ESC, BEL or raw newline of a name */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "report --db %s/s.db --by job", dir), 0);
    no_byte(out, '\x1b');
    no_byte(out, '\x07');
    assert_non_null(strstr(out, "\\x1b]2;pwned\\x07\\x1b[2Jx|y\\nnext"));
    free(out);
    /* the tables after the main one (overview, set-ups) name the set-ups too */
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "report --db %s/s.db --by job --overview --setups", dir), 0);
    no_byte(out, '\x1b');
    no_byte(out, '\x07');
    assert_non_null(strstr(out, "Overview against"));
    assert_non_null(strstr(out, "Set-ups"));
    free(out);
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "report --db %s/s.db --by job --overview --setups --md", dir),
        0);
    assert_null(strstr(out, "<img"));
    no_byte(out, '\x1b');
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s/s.db", dir), 0);
    assert_non_null(strstr(out, "host==HYPERLINK(\"http://x\",\"y\")"));
    assert_int_equal(bl_test_count_lines(out), 1);
    char id[9];
    memcpy(id, out, 8);
    id[8] = 0;
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "show --db %s/s.db %s", dir, id), 0);
    no_byte(out, '\x1b');
    no_byte(out, '\x07');
    assert_non_null(strstr(out, "  labels.job             \\x1b]2;pwned\\x07\\x1b[2Jx|y\\nnext\n"));
    free(out);
    /* export --csv: the label cell is quoted text beginning with the job's name */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s/s.db --csv", dir), 0);
    assert_non_null(strstr(out, ",\"job=<img src=x onerror=alert(1)>; rw=read;"));
    assert_null(strstr(out, ",="));
    free(out);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(bl_test_sh(cmd, NULL));
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markdown),   cmocka_unit_test(test_csv),
        cmocka_unit_test(test_terminal),   cmocka_unit_test(test_xml),
        cmocka_unit_test(test_export_row), cmocka_unit_test(test_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
