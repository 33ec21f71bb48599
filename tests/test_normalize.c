/* Pasted forms of every corpus file give the records of the clean file: quoted once and
 * twice, behind a forum's bar, indented in a code block, wrapped at 72 columns by a mail
 * client inside prose, marked up. Records and errors point at the lines of the pasted file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/jsonl.h"
#include "../core/normalize.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const prose[] = {
    "I ran the benchmark again after the upgrade and pasted the output below; the",
    "figures look lower than last week, so any idea what changed would be welcome.",
};

/* A pasted form: the text of one clean line in the form, and where it went. */
typedef struct form {
    bl_strbuf out;
    long nlines;  /* lines written so far */
    long *where;  /* clean line i+1 -> first line of it in the form */
    int quote;    /* 0 none, 1 "> ", 2 ">> ", 3 "| ", 4 "> > " */
    int indent;   /* spaces before every non-blank line */
    size_t width; /* wrap at this many columns, 0 = never */
    int prose;    /* the paste stands between paragraphs of prose */
    int markup;   /* 0 none, 1 Markdown (fence, bold figures), 2 BBCode, 3 HTML */
} form;

static void put_line(form *f, const char *s, size_t n)
{
    bl_strbuf_putn(&f->out, s, n);
    bl_strbuf_putc(&f->out, '\n');
    f->nlines++;
}

static void put_wrapped(form *f, const char *s);
static void put_wrapped_quoted(form *f, const char *quote, const char *s);

/* One line behind a quote mark ("> "; a blank one as ">"), or as it is when quote is "". */
static void put_quoted(form *f, const char *quote, const char *s, size_t n)
{
    if (!*quote) {
        put_line(f, s, n);
        return;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s%.*s", n ? quote : ">", (int)n, s);
    put_line(f, sb.s, sb.len);
    bl_strbuf_free(&sb);
}

/* The writer's own words around the paste (wrapped too, when the client wraps). */
static void put_prose(form *f)
{
    if (!f->prose)
        return;
    for (size_t i = 0; i < 2; i++)
        put_wrapped(f, prose[i]);
    put_line(f, "", 0);
}

/* A mail client's wrapping: at the last space before a word that keeps the line within the
 * width (in characters); a line without one stays long. */
static void put_wrapped(form *f, const char *s)
{
    put_wrapped_quoted(f, "", s);
}

/* Wrapped first, then each piece quoted: a reply quoting a message its sender's client
 * had wrapped. */
static void put_wrapped_quoted(form *f, const char *quote, const char *s)
{
    for (;;) {
        size_t total = 0;
        for (const char *p = s; *p; p++)
            total += ((unsigned char)*p & 0xc0) != 0x80;
        size_t cut = 0, col = 0;
        for (size_t k = 0; f->width && s[k] && col <= f->width; k++) {
            if (s[k] == ' ' && k > 0 && s[k + 1] && s[k + 1] != ' ')
                cut = k; /* the line would be s[0..k), col characters */
            col += ((unsigned char)s[k] & 0xc0) != 0x80;
        }
        if (!f->width || total <= f->width || cut == 0)
            break;
        put_quoted(f, quote, s, cut);
        s += cut + 1;
    }
    put_quoted(f, quote, s, strlen(s));
}

/* A mail client turns the carriage returns of fio's and dd's progress lines into breaks. */
static void put_clean_line(form *f, const char *s);

static void put_clean(form *f, const char *s)
{
    const char *cr;
    while (f->width && (cr = strchr(s, '\r'))) {
        char *part = strndup(s, (size_t)(cr - s));
        put_clean_line(f, part);
        free(part);
        s = cr + 1;
    }
    put_clean_line(f, s);
}

/* A figure standing between spaces ("  88826 "), as Markdown bold: "**88826**". */
static void put_markdown(bl_strbuf *sb, const char *s)
{
    for (const char *p = s; *p;) {
        size_t n = strspn(p, "0123456789.");
        if (n && (p == s || p[-1] == ' ') && (p[n] == ' ' || !p[n]) && *p != '.') {
            bl_strbuf_printf(sb, "**%.*s**", (int)n, p);
            p += n;
        } else {
            bl_strbuf_putc(sb, *p++);
        }
    }
}

/* The line as a web page's source shows it: entities for <, >, &, runs of spaces kept with
 * &nbsp;, a <br> at its end. */
static void put_html(bl_strbuf *sb, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '<')
            bl_strbuf_puts(sb, "&lt;");
        else if (*p == '>')
            bl_strbuf_puts(sb, "&gt;");
        else if (*p == '&')
            bl_strbuf_puts(sb, "&amp;");
        else if (*p == ' ' && p[1] == ' ')
            bl_strbuf_puts(sb, "&nbsp;");
        else
            bl_strbuf_putc(sb, *p);
    }
    bl_strbuf_puts(sb, "<br>");
}

static void put_clean_line(form *f, const char *s)
{
    static const char *const q[] = {"", "> ", ">> ", "| ", "> > "};
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (f->markup == 1 || f->markup == 3) {
        bl_strbuf body;
        bl_strbuf_init(&body);
        bl_strbuf_putn(&body, "", 0);
        if (f->markup == 1)
            put_markdown(&body, s);
        else
            put_html(&body, s);
        put_line(f, body.s, body.len);
        bl_strbuf_free(&body);
        bl_strbuf_free(&sb);
        return;
    }
    if (f->quote == 1 && f->width) {
        put_wrapped_quoted(f, q[1], s);
        bl_strbuf_free(&sb);
        return;
    }
    if (*s || f->quote == 0)
        bl_strbuf_printf(&sb, "%s%*s%s", q[f->quote], *s ? f->indent : 0, "", s);
    else
        bl_strbuf_puts(&sb, f->quote == 3 ? "|" : f->quote == 4 ? "> >" : ">");
    put_wrapped(f, sb.s);
    bl_strbuf_free(&sb);
}

static char *make_form(const bl_text *t, form *f)
{
    bl_strbuf_init(&f->out);
    f->nlines = 0;
    f->where = calloc(t->nlines + 1, sizeof *f->where);
    put_prose(f);
    static const char *const open[] = {"", "```", "[code]", "<pre>"}, *const close[] = {"", "```",
                                                                                        "[/code]",
                                                                                        "</pre>"};
    if (f->markup)
        put_line(f, open[f->markup], strlen(open[f->markup]));
    for (size_t i = 0; i < t->nlines; i++) {
        f->where[i] = f->nlines + 1;
        put_clean(f, t->line[i]);
    }
    if (f->markup)
        put_line(f, close[f->markup], strlen(close[f->markup]));
    if (f->prose)
        put_line(f, "", 0);
    put_prose(f);
    return bl_strbuf_take(&f->out);
}

static int parse_bytes(const char *bytes, size_t len, bl_parse_out *o)
{
    bl_text t;
    char err[128];
    bl_out_init(o, "paste");
    if (bl_text_from_bytes(&t, "paste", bytes, len, err, sizeof err) != 0)
        return -1;
    bl_parse_opts opts = {0};
    int rc = bl_parse_text(&t, &opts, o);
    bl_text_free(&t);
    return rc;
}

/* The record as JSON with its line replaced (what a pasted form must give). */
static char *json_at(bl_record *r, long line)
{
    int64_t keep = r->line;
    r->line = line;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_record_to_json(r, &sb);
    r->line = keep;
    return bl_strbuf_take(&sb);
}

/* The same text read from a file (the driver then normalises the text it owns in place)
 * gives the same records and errors as from memory. */
static size_t same_through_file(const char *text, const bl_parse_out *mem, const char *path,
                                const char *what)
{
    char *dir = bl_test_tmpdir(), file[1024];
    snprintf(file, sizeof file, "%s/form.txt", dir);
    FILE *fp = fopen(file, "wb");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    bl_parse_out o;
    bl_out_init(&o, "paste");
    bl_parse_opts opts = {0};
    bl_parse_source(file, &opts, &o, NULL);
    size_t bad = o.recs.n != mem->recs.n || o.n_diags != mem->n_diags;
    for (size_t i = 0; i < o.recs.n && !bad; i++) {
        char *a = json_at(o.recs.v[i], o.recs.v[i]->line),
             *b = json_at(mem->recs.v[i], mem->recs.v[i]->line);
        bad += strcmp(a, b) != 0;
        free(a);
        free(b);
    }
    for (size_t i = 0; i < o.n_diags && !bad; i++)
        bad += o.diags[i].line != mem->diags[i].line;
    if (bad)
        fprintf(stderr, "%s %s: from a file, not the records read from memory\n", path, what);
    bl_out_free(&o);
    unlink(file);
    rmdir(dir);
    free(dir);
    return bad;
}

/* One corpus file in one pasted form. */
static size_t check_form(const char *path, const bl_text *clean, const bl_parse_out *want, form *f,
                         const char *what)
{
    char *text = make_form(clean, f);
    bl_parse_out got;
    parse_bytes(text, strlen(text), &got);
    size_t bad = 0;
    if (got.recs.n != want->recs.n) {
        fprintf(stderr, "%s %s: %zu records, clean text gives %zu\n", path, what, got.recs.n,
                want->recs.n);
        bad++;
    }
    for (size_t i = 0; i < want->recs.n && !bad; i++) {
        bl_record *w = want->recs.v[i];
        long line =
            w->line >= 1 && (size_t)w->line <= clean->nlines ? f->where[w->line - 1] : w->line;
        char *a = json_at(w, line), *b = json_at(got.recs.v[i], got.recs.v[i]->line);
        if (strcmp(a, b) != 0 && bad++ == 0)
            fprintf(stderr, "%s %s record %zu:\n want %s\n got  %s\n", path, what, i, a, b);
        free(a);
        free(b);
    }
    if (got.n_diags != want->n_diags) {
        fprintf(stderr, "%s %s: %zu errors, clean text gives %zu\n", path, what, got.n_diags,
                want->n_diags);
        bad++;
    }
    for (size_t i = 0; i < want->n_diags && i < got.n_diags; i++) {
        long l = want->diags[i].line, g = got.diags[i].line;
        if (g != (l >= 1 ? f->where[l - 1] : l) && bad++ == 0)
            fprintf(stderr, "%s %s: error %zu at line %ld, clean at %ld\n", path, what, i, g, l);
    }
    bad += same_through_file(text, &got, path, what);
    bl_out_free(&got);
    free(text);
    free(f->where);
    return bad != 0;
}

/* Wrapped forms whose records differ from the clean text's, and why:
 *  - blog 003's run-on table has rows as wide as the wrap width that were never wrapped;
 *    without knowing the format, a row and the rest of a wrapped one look alike.
 *  - fio-2.2.10_email_wrapped was wrapped by its own mail client; wrapped again at 72 its
 *    Disk stats lines are re-joined and give two more devices than the clean file does. */
static int wrap_exception(const char *path)
{
    return strstr(path, "blog/003_") || strstr(path, "fio-2.2.10_email_wrapped");
}

/* A forum's bar is told from a table by the table's closing `|`, and from a one-row table
 * by a second line: text with tables or of one line cannot be behind a bar unambiguously. */
static int bar_fits(const bl_text *t)
{
    size_t lines = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        const char *s = t->line[i];
        size_t n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
            n--;
        if (n > 1 && s[n - 1] == '|')
            return 0;
        lines += n > 0;
    }
    return lines >= 2;
}

static size_t check_file(const char *path, int prose)
{
    bl_text t;
    char err[128];
    if (bl_text_load(&t, path, err, sizeof err) != 0)
        return 1;
    bl_parse_out want;
    bl_parse_opts opts = {0};
    bl_out_init(&want, "paste");
    bl_parse_text(&t, &opts, &want);
    size_t bad = 0;
    static const struct {
        int quote, indent;
        size_t width;
        int markup;
        const char *what;
    } forms[] = {{0, 0, 0, 0, "as is"},
                 {1, 0, 0, 0, "quoted"},
                 {2, 0, 0, 0, "quoted twice"},
                 {4, 0, 0, 0, "quoted twice, spaced"},
                 {3, 0, 0, 0, "behind a forum bar"},
                 {0, 4, 0, 0, "indented"},
                 {1, 4, 0, 0, "quoted and indented"},
                 {0, 0, 72, 0, "wrapped at 72"},
                 {1, 0, 72, 0, "wrapped at 72, then quoted"},
                 {0, 0, 0, 1, "in a Markdown fence, figures in bold"},
                 {0, 0, 0, 2, "in BBCode [code]"},
                 {0, 0, 0, 3, "as HTML source"}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (forms[i].quote == 3 && !bar_fits(&t))
            continue;
        if (forms[i].width && (!prose || wrap_exception(path)))
            continue;
        form f = {.quote = forms[i].quote,
                  .indent = forms[i].indent,
                  .width = forms[i].width,
                  .prose = prose,
                  .markup = forms[i].markup};
        bad += check_form(path, &t, &want, &f, forms[i].what);
    }
    bl_out_free(&want);
    bl_text_free(&t);
    return bad;
}

static void test_corpus_pasted_forms(void **state)
{
    (void)state;
    /* fio's logs are files of their own, never pasted among prose nor wrapped by a mail
     * client: their lines are all alike, so where one ends and the next begins is lost */
    static const char *const dirs[] = {"fio-normal", "fio-terse", "fio-json", "fio-log",
                                       "bonnie",     "cdm",       "dd",       "blog"};
    size_t files = 0, bad = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        char *dir = bl_test_corpus(dirs[d]);
        if (!dir)
            skip();
        DIR *dp = opendir(dir);
        assert_non_null(dp);
        struct dirent *e;
        while ((e = readdir(dp))) {
            if (e->d_name[0] == '.')
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            bad += check_file(path, strcmp(dirs[d], "fio-log") != 0);
            files++;
        }
        closedir(dp);
        free(dir);
    }
    assert_true(files >= 40);
    assert_int_equal(bad, 0);
}

/* A quoted, marked-up dd paste: its figures, its direction, its lines in the mail. */
static void test_quoted_markup_lines(void **state)
{
    (void)state;
    static const char text[] =
        "Hi all,\n"
        "\n"
        "> [code]$ dd if=/dev/zero of=/tmp/x bs=1M count=1024\n"
        "> 1024+0 records in<br>1024+0 records out\n"
        "> 1073741824 bytes (1.1 GB, 1.0 GiB) copied, **1.70473** s, 630 MB/s\n"
        "> -1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.7 s, 630 MB/s[/code]\n"
        "\n"
        "Thanks!\n";
    bl_parse_out o;
    assert_int_equal(parse_bytes(text, sizeof text - 1, &o), 1);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->line, 5);
    assert_double_equal(o.recs.v[0]->runtime_s, 1.70473, 1e-12);
    assert_int_equal(o.recs.v[0]->io_bytes, 1073741824);
    assert_string_equal(o.recs.v[0]->op, "write");
    assert_int_equal(o.recs.v[0]->bs, 1048576);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 6);
    bl_out_free(&o);
}

/* What looks like markup or quoting but is a tool's own text stays. */
static void test_tool_text_kept(void **state)
{
    (void)state;
    static const char text[] = ">||\n"
                               "  IO depths    : 1=0.1%, 2=0.1%, >=64=99.8%\n"
                               "|  1.00th=[ 2008],  5.00th=[ 2008]\n"
                               "** heading\n"
                               "||<\n"
                               "> quoted &gt;=64 &amp; &#39;x&#39;&nbsp;y\n";
    bl_text t, n;
    char err[64];
    long *orig;
    assert_int_equal(bl_text_from_bytes(&t, "t", text, sizeof text - 1, err, sizeof err), 0);
    assert_int_equal(bl_text_normalize(&t, 0, &n, &orig, NULL), 1);
    assert_int_equal(n.nlines, 6);
    assert_string_equal(n.line[0], ">||");
    assert_string_equal(n.line[1], "  IO depths    : 1=0.1%, 2=0.1%, >=64=99.8%");
    assert_string_equal(n.line[2], "|  1.00th=[ 2008],  5.00th=[ 2008]");
    assert_string_equal(n.line[3], "** heading");
    assert_string_equal(n.line[5], "quoted >=64 & 'x' y");
    assert_int_equal(orig[5], 6);
    free(orig);
    bl_text_free(&n);
    bl_text_free(&t);
}

/* A Python string quoted in a mail: the lines with a quote byte are the ones read for triple
 * quotes (lines without are skipped), after the "> " goes. */
static void test_quoted_python_string(void **state)
{
    (void)state;
    static const char text[] = "> out = \"\"\"first line\n"
                               "> middle 'single' \"x\"\n"
                               "> plain\n"
                               "> last line\"\"\"\n";
    bl_text t, n;
    char err[64];
    long *orig;
    assert_int_equal(bl_text_from_bytes(&t, "t", text, sizeof text - 1, err, sizeof err), 0);
    assert_int_equal(bl_text_normalize(&t, 0, &n, &orig, NULL), 1);
    assert_int_equal(n.nlines, 4);
    assert_string_equal(n.line[0], "first line");
    assert_string_equal(n.line[1], "middle 'single' \"x\"");
    assert_string_equal(n.line[2], "plain");
    assert_string_equal(n.line[3], "last line");
    free(orig);
    bl_text_free(&n);
    bl_text_free(&t);
}

/* A run of wrapped lines is joined into one line, in order, one space at each break, the
 * second text's lines standing apart: also 20,000 lines of nearly full width (each next
 * line's first word too long for the line before), which are one joined line of 1.4 MB (quadratic
 * copying made that minutes). */
static void test_long_wrapped_run(void **state)
{
    (void)state;
    enum { N = 20000 };
    bl_strbuf in, want;
    bl_strbuf_init(&in);
    bl_strbuf_init(&want);
    for (int i = 0; i < N; i++) {
        char line[96];
        snprintf(line, sizeof line, "%010d bytes (%010d B, %010d) copied, %d.5 s, 419 kB/s", i, i,
                 i, i % 7);
        bl_strbuf_printf(&in, "%s\n", line);
        bl_strbuf_printf(&want, "%s%s", i ? " " : "", line);
    }
    bl_strbuf_puts(&in, "\nshort\n");
    bl_text t, n;
    char err[64];
    long *orig;
    size_t joins = 0;
    assert_int_equal(bl_text_from_bytes(&t, "t", in.s, in.len, err, sizeof err), 0);
    assert_int_equal(bl_text_normalize(&t, BL_NORM_JOIN, &n, &orig, &joins), 1);
    assert_int_equal(joins, N - 1);
    assert_int_equal(n.nlines, 3);
    assert_int_equal(strlen(n.line[0]), want.len);
    assert_string_equal(n.line[0], want.s);
    assert_string_equal(n.line[2], "short");
    assert_int_equal(orig[2], N + 2);
    free(orig);
    bl_text_free(&n);
    bl_text_free(&t);
    bl_strbuf_free(&in);
    bl_strbuf_free(&want);
}

/* An indented block loses its shared indentation only between blank lines: under a text
 * line (sysbench's figures under "File operations:") it is what the tool printed and stays;
 * bl_text_is_normal, which reads the same rule without rewriting, agrees both ways. */
static void test_dedent_between_blanks(void **state)
{
    (void)state;
    const char *under = "File operations:\n    reads/s:  1.00\n    writes/s: 2.00\n\nend\n";
    const char *apart = "intro\n\n    reads/s:  1.00\n    writes/s: 2.00\n\nend\n";
    const char *blocks[] = {under, apart};
    for (int k = 0; k < 2; k++) {
        bl_text t, out;
        char err[128];
        long *orig = NULL;
        assert_int_equal(bl_text_from_bytes(&t, "x", blocks[k], strlen(blocks[k]), err, sizeof err),
                         0);
        assert_int_equal(bl_text_is_normal(&t, 0), k == 0);
        assert_int_equal(bl_text_normalize(&t, 0, &out, &orig, NULL), k == 1);
        if (k == 1) {
            assert_string_equal(out.line[2], "reads/s:  1.00");
            assert_string_equal(out.line[3], "writes/s: 2.00");
            assert_int_equal(orig[2], 3);
            bl_text_free(&out);
            free(orig);
        }
        bl_text_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_pasted_forms), cmocka_unit_test(test_quoted_markup_lines),
        cmocka_unit_test(test_tool_text_kept),      cmocka_unit_test(test_quoted_python_string),
        cmocka_unit_test(test_long_wrapped_run),    cmocka_unit_test(test_dedent_between_blanks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
