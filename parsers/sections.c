/* The nearest heading above a block of results.
 *
 * Pages reach us as text converted from HTML or wiki markup, so a heading is recognised by
 * what is left of its markup or by how it stands:
 *   - marked: a PukiWiki anchor at its end ("指定しない場合 †"), wiki/Markdown/Hatena marks
 *     at its start ("## ", "** ", "■", "== x =="), a 【caption】, or a setext underline;
 *   - standing alone: a short line with blank lines (or a code-block fence such as ">||" or
 *     "```") around it, that is neither a sentence nor tool output nor a shell command.
 * Marks are stripped from the label. */
#include "sections.h"
#include "bodies.h"
#include "../core/strbuf.h"
#include "cdm_common.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAX_HEADING_COLS = 80 };

static const char *skip_ws(const char *s)
{
    for (;;) {
        if (*s == ' ' || *s == '\t')
            s++;
        else if (strncmp(s, "\xc2\xa0", 2) == 0)
            s += 2;
        else if (strncmp(s, "\xe3\x80\x80", 3) == 0)
            s += 3;
        else
            return s;
    }
}

/* Code fences of Markdown and Hatena count as blank lines around a heading. */
static int blank_or_fence(const char *s)
{
    s = skip_ws(s);
    switch (*s) { /* most lines are none of these: their first byte says so */
    case '\0':
        return 1;
    case '>':
        return strcmp(s, ">||") == 0;
    case '|':
        return strncmp(s, "||<", 3) == 0;
    case '`':
        return strncmp(s, "```", 3) == 0;
    case '<':
        return strcmp(s, "<pre>") == 0 || strcmp(s, "</pre>") == 0;
    default:
        return 0;
    }
}

static size_t trimmed_len(const char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    while (n >= 2 && (unsigned char)s[n - 2] == 0xc2 && (unsigned char)s[n - 1] == 0xa0)
        n -= 2;
    return n;
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Display columns: ASCII 1, anything else (CJK mostly) 2. */
static size_t columns(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x80)
            c++;
        else if (b >= 0xc0)
            c += 2;
    }
    return c;
}

static int has_letter(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isalpha((unsigned char)s[i]) || (unsigned char)s[i] >= 0xc0)
            return 1;
    return 0;
}

/* A prompt's last part before its mark: "root:/home/x", "me@nas:~", "C:\Users\me", "bash-5.1". */
static int prompt_token(const char *b, const char *e)
{
    if ((e - b >= 5 && strncmp(b, "bash-", 5) == 0) || (e - b >= 3 && strncmp(b, "sh-", 3) == 0))
        return 1;
    for (const char *p = b; p < e; p++)
        if (*p == '@' || *p == ':' || *p == '/' || *p == '\\' || *p == '~')
            return 1;
    return 0;
}

/* A shell prompt with its command: "root:/home/x# hdparm -Tt /dev/sda", "me@nas:~$ fio a.fio",
 * "me@mac ~ % fio a.fio", "bash-5.1# dd ...", PowerShell's "PS C:\tmp> .\diskspd.exe" and
 * cmd's "C:\tmp>diskspd". The mark ($ # % >) follows a token that names a user, host or
 * folder, with no space before it (zsh's "%" may have one), at most three words into the line:
 * "C# notes" or "RAID 1/0 > RAID 5" are not prompts. */
static int is_prompt(const char *s, size_t n)
{
    for (size_t i = 1; i < n && i < 96; i++) {
        if (!strchr("$#%>", s[i]))
            continue;
        /* cmd.exe puts the command right after "C:\Users\me>" */
        int glued = i + 1 < n && s[i + 1] != ' ';
        if (glued && !(s[i] == '>' && memmem(s, i, ":\\", 2)))
            continue;
        size_t e = i;
        if (s[i] == '%' && s[e - 1] == ' ')
            e--;
        size_t b = e, words = 0;
        while (b > 0 && s[b - 1] != ' ')
            b--;
        for (size_t k = 0; k < b; k++)
            words += s[k] == ' ';
        if (b < e && words <= 2 && prompt_token(s + b, s + e))
            return 1;
    }
    return 0;
}

/* A benchmark tool's banner, "sysbench 1.0.18 (using system LuaJIT 2.1.0-beta3)", "fio-3.28",
 * "bonnie++ 1.03e", or its message "fio: terminating on signal 2": output, not a heading that
 * names a set-up. */
static int tool_banner(const char *s, size_t n)
{
    static const char *const tools[] = {"sysbench", "fio",     "bonnie++", "iozone",
                                        "hdparm",   "diskspd", NULL};
    for (size_t i = 0; tools[i]; i++) {
        size_t k = strlen(tools[i]);
        if (n > k + 1 && strncmp(s, tools[i], k) == 0 && s[k] == ':' && s[k + 1] == ' ')
            return 1;
        if (n > k + 1 && strncasecmp(s, tools[i], k) == 0 && strchr(" -", s[k]) &&
            (isdigit((unsigned char)s[k + 1]) ||
             (n > k + 2 && (s[k + 1] == 'v' || s[k + 1] == 'V') &&
              isdigit((unsigned char)s[k + 2]))))
            return 1;
    }
    return 0;
}

/* Shell prompts, commands, tool output and table rows are never headings. */
static int looks_like_output(const char *s, size_t n)
{
    if (tool_banner(s, n))
        return 1;
    if (*s == '$' || *s == '>' || *s == '|' || *s == '[' || strncmp(s, "root@", 5) == 0)
        return 1;
    if (is_prompt(s, n))
        return 1;
    if (memchr(s, '=', n) || memchr(s, '|', n))
        return 1;
    if (n > 13 && strncasecmp(s, "command line:", 13) == 0) /* DiskSpd and others echo it */
        return 1;
    if (strncmp(s, "Run began: ", 11) == 0) /* iozone's start time */
        return 1;
    if (strncmp(s, "import ", 7) == 0 || (strncmp(s, "from ", 5) == 0 && strstr(s, " import ")))
        return 1; /* Python around an output kept in a string */
    size_t call = strcspn(s, "( ");
    if (call > 0 && call < n && s[call] == '(' && s[n - 1] == ')' && memchr(s, '.', call))
        return 1;                      /* "self.assertIn(...)", "os.system(...)": a call in code */
    for (size_t i = 0; i + 2 < n; i++) /* "timespan:   1": a field aligned by a tool */
        if (s[i] == ':' && s[i + 1] == ' ' && s[i + 2] == ' ')
            return 1;
    if (*s == '#' && s[1] == ' ' && (memchr(s, '/', n) || strstr(s, " -")))
        return 1;
    return ends_with(s, n, ":") || ends_with(s, n, ";") || ends_with(s, n, ",");
}

static int is_sentence(const char *s, size_t n)
{
    return ends_with(s, n, "。") || ends_with(s, n, ".") || ends_with(s, n, "、") ||
           ends_with(s, n, "！") || ends_with(s, n, "？") || ends_with(s, n, "!") ||
           ends_with(s, n, "?");
}

static int underline(const char *s)
{
    s = skip_ws(s);
    size_t n = trimmed_len(s);
    if (n < 3)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '=' && s[i] != '-')
            return 0;
    return 1;
}

/* The width of Markdown emphasis around the whole of s (n bytes): 1 for "*x*" and "_x_", 2
 * for "__x__", 3 for "***x***"; 0 when s is not wrapped so (a bullet "* x" is not). */
static size_t emphasis(const char *s, size_t n)
{
    char c = s[0];
    if (c != '*' && c != '_')
        return 0;
    size_t w = 0;
    while (w < 3 && w < n && s[w] == c)
        w++;
    if (n <= 2 * w || s[w] == ' ' || s[n - w - 1] == ' ')
        return 0;
    for (size_t i = 0; i < w; i++)
        if (s[n - 1 - i] != c)
            return 0;
    return memchr(s + w, c, n - 2 * w) ? 0 : w;
}

/* Strips heading marks; returns the label (allocated) or NULL when the line is not a
 * marked heading. */
static char *marked(const char *line)
{
    const char *s = skip_ws(line);
    size_t n = trimmed_len(s);
    if (n == 0)
        return NULL;
    /* Every mark below starts with one of "*_#=" or a non-ASCII byte, or ends with a
     * non-ASCII one (an anchor): most lines are turned away here. */
    unsigned char first = (unsigned char)s[0], last = (unsigned char)s[n - 1];
    if (first < 0x80 && last < 0x80 && !strchr("*_#=", first))
        return NULL;
    int mark = 0;
    const char *anchors[] = {" †", "†", " ¶", "¶"};
    for (size_t a = 0; a < 4 && !mark; a++) {
        if (ends_with(s, n, anchors[a])) {
            n -= strlen(anchors[a]);
            mark = 1;
        }
    }
    size_t em = emphasis(s, n);
    if (!mark && em) { /* "*FS-B*", "__FS-A__": a Markdown emphasis line of its own */
        s += em, n -= 2 * em;
        mark = 1;
    }
    if (!mark && (s[0] == '*' || (s[0] == '#' && s[1] == '#'))) {
        char c = s[0];
        while (n && *s == c)
            s++, n--;
        if (n && (*s == ' ' || (unsigned char)*s >= 0x80))
            mark = 1;
    }
    if (!mark && (strncmp(s, "■", 3) == 0 || strncmp(s, "◆", 3) == 0 || strncmp(s, "●", 3) == 0 ||
                  strncmp(s, "▼", 3) == 0)) {
        s += 3, n -= 3;
        mark = 1;
    }
    if (!mark && n > 4 && strncmp(s, "==", 2) == 0 && ends_with(s, n, "==")) {
        while (n && *s == '=')
            s++, n--;
        while (n && s[n - 1] == '=')
            n--;
        mark = 1;
    }
    if (!mark && strncmp(s, "【", 3) == 0 && ends_with(s, n, "】") && n > 6) {
        s += 3, n -= 6;
        mark = 1;
    }
    if (!mark)
        return NULL;
    const char *b = skip_ws(s);
    n -= (size_t)(b - s) < n ? (size_t)(b - s) : n;
    s = b;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n == 0 || columns(s, n) > MAX_HEADING_COLS || !has_letter(s, n) || is_sentence(s, n))
        return NULL;
    if (looks_like_output(s, n) && !ends_with(line, strlen(line), "†"))
        return NULL;
    return bl_xstrndup(s, n);
}

static char *standing_alone(const bl_text *t, size_t k)
{
    int above = k == 0 || blank_or_fence(t->line[k - 1]);
    if (!above) /* most lines: the tests below say nothing then */
        return NULL;
    const char *s = skip_ws(t->line[k]);
    size_t n = trimmed_len(s);
    if (n == 0 || blank_or_fence(s))
        return NULL;
    int below = k + 1 >= t->nlines || blank_or_fence(t->line[k + 1]);
    int setext = k + 1 < t->nlines && underline(t->line[k + 1]);
    if (!(above && (below || setext)))
        return NULL;
    if (columns(s, n) > MAX_HEADING_COLS || !has_letter(s, n) || is_sentence(s, n) ||
        looks_like_output(s, n))
        return NULL;
    if (*s == '#') {
        while (*s == '#')
            s++, n--;
        const char *b = skip_ws(s);
        n -= (size_t)(b - s);
        s = b;
        if (n == 0)
            return NULL;
    }
    return bl_xstrndup(s, n);
}

/* The heading above line `line` down to stop_line, and its line in *at. */
static char *heading_at(const bl_text *t, long line, long stop_line, long *at)
{
    if (stop_line < 1)
        stop_line = 1;
    for (long i = line - 1; i >= stop_line; i--) {
        size_t k = (size_t)(i - 1);
        if (k >= t->nlines)
            continue;
        char *h = marked(t->line[k]);
        if (!h)
            h = standing_alone(t, k);
        if (h) {
            *at = i;
            return h;
        }
    }
    return NULL;
}

char *bl_heading_above(const bl_text *t, long line, long stop_line)
{
    long at;
    return heading_at(t, line, stop_line, &at);
}

/* ---- headings that only name a test ---- */

/* Words of a test's name: pattern and direction, in English and Japanese. */
static const char *const test_words[] = {
    "sequential", "seq",   "random",         "rand",     "rnd",    "reads",  "read",
    "writes",     "write", "シーケンシャル", "ランダム", "リード", "ライト", "読み込み",
    "書き込み",   NULL};

/* The word, size ("4k", "512 KiB") or queue ("q32", "t1") at s, or NULL. */
static const char *test_token(const char *s)
{
    for (size_t i = 0; test_words[i]; i++)
        if (strncasecmp(s, test_words[i], strlen(test_words[i])) == 0)
            return s + strlen(test_words[i]);
    const char *p = s;
    if (*p == 'q' || *p == 'Q' || *p == 't' || *p == 'T') {
        p++;
        if (*p == 'd' || *p == 'D')
            p++;
        if (!isdigit((unsigned char)*p))
            return NULL;
    }
    if (!isdigit((unsigned char)*p))
        return NULL;
    while (isdigit((unsigned char)*p))
        p++;
    if (p > s && isdigit((unsigned char)*s)) {
        p = skip_ws(p);
        static const char *const units[] = {"kib", "kb", "k", "mib", "mb", "m", "b", NULL};
        for (size_t i = 0; units[i]; i++)
            if (strncasecmp(p, units[i], strlen(units[i])) == 0)
                return p + strlen(units[i]);
    }
    return p;
}

/* Whether the heading holds nothing but test words, sizes and queue marks. */
static int only_test_words(const char *h)
{
    for (const char *s = skip_ws(h); *s; s = skip_ws(s)) {
        if (strchr("-_/():,.", *s)) {
            s++;
            continue;
        }
        const char *next = test_token(s);
        if (!next)
            return 0;
        s = next;
    }
    return 1;
}

int bl_heading_names_test(const char *h, bl_record *const *recs, size_t n)
{
    bl_cdm_test t;
    if (!only_test_words(h) || !bl_cdm_test_parse(h, strlen(h), 0, &t) || !t.op || t.op == 'm')
        return 0;
    int sized = strpbrk(h, "0123456789") != NULL;
    for (size_t i = 0; i < n; i++) {
        const bl_record *r = recs[i];
        if (!r->op || !r->pattern || strcmp(r->op, t.op == 'r' ? "read" : "write") != 0 ||
            strcmp(r->pattern, t.seq ? "seq" : "rand") != 0 || (sized && r->bs != t.bs))
            return 0;
    }
    return n > 0;
}

/* ---- lines of prose that introduce a block ---- */

/* "After tuning (noatime, deadline scheduler), CSV only:" alone between blank lines. Tool
 * output ending in a colon ("/dev/sda:", "Run status group 0 (all jobs):") has its figures
 * on the very next line, never after a blank one. */
static char *intro_line(const bl_text *t, size_t k)
{
    const char *s = skip_ws(t->line[k]);
    size_t n = trimmed_len(s);
    if (n < 2 || s[n - 1] != ':' || s[n - 2] == ':' || s[n - 2] == ' ' || *s == '/' || *s == '#' ||
        k == 0 || k + 1 >= t->nlines || !blank_or_fence(t->line[k - 1]) ||
        !blank_or_fence(t->line[k + 1]))
        return NULL;
    n--;
    if (columns(s, n) > MAX_HEADING_COLS || !has_letter(s, n) || looks_like_output(s, n))
        return NULL;
    return bl_xstrndup(s, n);
}

char *bl_intro_above(const bl_text *t, long line, long stop_line)
{
    if (stop_line < 1)
        stop_line = 1;
    for (long i = line - 1; i >= stop_line; i--) {
        size_t k = (size_t)(i - 1);
        char *h = k < t->nlines ? intro_line(t, k) : NULL;
        if (h)
            return h;
    }
    return NULL;
}

/* ---- labelling runs ---- */

/* Whether heading h names tool as a word ("ddで計測", "hdparm results"), ASCII-bounded. */
static int names_tool(const char *h, const char *tool)
{
    size_t n = tool ? strlen(tool) : 0;
    for (const char *p = h; n && (p = strcasestr(p, tool)); p++) {
        unsigned char before = p > h ? (unsigned char)p[-1] : ' ';
        unsigned char after = (unsigned char)p[n];
        if (!(before < 0x80 && isalnum(before)) && !(after < 0x80 && isalnum(after)))
            return 1;
    }
    return 0;
}

/* The heading the runs above stand under, and what it said of the run it was found above. */
typedef struct heading {
    char *text;
    int test_title; /* it only named that run's test */
    char *tool;     /* that run's tool, when the heading names it ("ddで計測") */
} heading;

static void heading_set(heading *hd, char *text, bl_record *const *recs, size_t n)
{
    free(hd->text);
    free(hd->tool);
    hd->text = text;
    hd->test_title = bl_heading_names_test(text, recs, n);
    const char *tool = recs[0]->tool;
    hd->tool = tool && names_tool(text, tool) ? bl_xstrdup(tool) : NULL;
}

/* The label key an inherited heading gives the run recs[0..n), or NULL for none. A heading
 * that titled the test of the run it stood above, or named that run's tool, names nothing
 * for a run of another test or tool (blog 004: "ddで計測", then fio-cdm on a new file
 * system); it titles this run's test when it only names that too. */
static const char *inherited_key(const heading *hd, bl_record *const *recs, size_t n)
{
    if (bl_heading_names_test(hd->text, recs, n))
        return "test_heading";
    if (hd->test_title)
        return NULL;
    const char *tool = recs[0]->tool;
    if (hd->tool && (!tool || strcmp(tool, hd->tool) != 0) && !names_tool(hd->text, tool))
        return NULL;
    return "section";
}

static int same_str(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* Whether recs[i..j) repeat the tests of the run recs[pi..i) above: same tool, and the same
 * tests at the same block sizes in the same order (bonnie++ after bonnie++, a dd write after
 * a dd write), not the next test of a series (a dd read after a dd write). */
static int repeats_run_above(bl_record *const *recs, size_t pi, size_t i, size_t j)
{
    if (pi >= i || i - pi != j - i)
        return 0;
    for (size_t k = 0; k < i - pi; k++) {
        const bl_record *a = recs[pi + k], *b = recs[i + k];
        if (!same_str(a->tool, b->tool) || !same_str(a->test, b->test) || a->bs != b->bs)
            return 0;
    }
    return 1;
}

/* Whether the run after recs[i..j) repeats its tests (repeats_run_above seen from below). */
static int repeats_run_below(bl_record *const *recs, size_t n, size_t i, size_t j)
{
    size_t k = j;
    while (k < n && recs[k]->run == recs[j]->run)
        k++;
    return j < n && repeats_run_above(recs, i, j, k);
}

/* Labels each run with the nearest heading above it: its own (between the previous run's end
 * and its start) or else the one the run above stood under ("SSD results", then a write and
 * a read). Prose that introduces a run repeating the tests of the run above says what differs
 * ("After tuning, CSV only:", "And on the laptop with --minimal:") and names it; before the
 * next test of a series ("Read:") or another tool ("and hdparm:") it continues the set-up. A
 * heading that only names the run's test titles a test (blog 000: one fio run under each of
 * "シーケンシャルリード", "ランダムライト4k"): as a section it would make each test a set-up of its
 * own, a table's figures down its diagonal. Records arrive grouped by run, so one pass does it. */
void bl_label_sections(const bl_text *t, bl_parse_out *out)
{
    int64_t prev_end = 0;
    heading hd = {0};
    size_t prev_i = 0; /* where the run above starts */
    for (size_t i = 0; i < out->recs.n;) {
        size_t j = i;
        int64_t first = -1, last = -1;
        for (; j < out->recs.n && out->recs.v[j]->run == out->recs.v[i]->run; j++) {
            int64_t line = out->recs.v[j]->line;
            if (line >= 0 && (first < 0 || line < first))
                first = line;
            if (line > last)
                last = line;
        }
        long at = 0;
        char *own = first > 0 ? heading_at(t, (long)first, (long)prev_end + 1, &at) : NULL;
        const char *key = NULL;
        /* prose nearer than the heading introduces the body (the heading titles them all) */
        if (first > 0 && (repeats_run_above(out->recs.v, prev_i, i, j) ||
                          repeats_run_below(out->recs.v, out->recs.n, i, j))) {
            char *intro = bl_intro_above(t, (long)first, own ? at + 1 : (long)prev_end + 1);
            if (intro) {
                free(own);
                own = intro;
            }
        }
        if (own) {
            heading_set(&hd, own, out->recs.v + i, j - i);
            key = hd.test_title ? "test_heading" : "section";
        } else if (hd.text && first > 0) {
            key = inherited_key(&hd, out->recs.v + i, j - i);
        }
        if (key && strcmp(key, "section") == 0 && bl_heading_numbers_run(hd.text))
            key = "run_heading"; /* "Run 2": the same test again, not a set-up */
        for (size_t m = i; key && m < j; m++)
            if (!bl_record_label(out->recs.v[m], "section"))
                bl_record_set_label(out->recs.v[m], key, hd.text);
        if (last > prev_end)
            prev_end = last;
        prev_i = i;
        i = j;
    }
    free(hd.text);
    free(hd.tool);
    bl_label_bodies(out);
}
