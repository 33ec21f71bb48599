#include "normalize.h"
#include "strbuf.h"
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One line on its way out: its text (into the input, or owned when rewritten), the input
 * line it came from and that line's width in columns (for the wrapping rule). */
typedef struct nline {
    const char *s;
    char *owned;
    long orig;
    unsigned width;        /* 32 bits: this struct is kept for every line of a text; set
                              by join_wrapped, the one reader */
    unsigned char piece;   /* a later piece of an input line that <br> split */
    unsigned char noquote; /* s lies within an input line without ' or " (no triple quote) */
} nline;

typedef struct nlines {
    nline *v;
    size_t n, cap;
} nlines;

static nline *push(nlines *l, const char *s, long orig)
{
    void *p = l->v;
    bl_grow(&p, &l->cap, l->n + 1, sizeof *l->v);
    l->v = p;
    l->v[l->n] = (nline){s, NULL, orig, 0, 0, 0};
    return &l->v[l->n++];
}

static void free_lines(nlines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].owned);
    free(l->v);
}

/* Bytes that start a character; ASCII, most of any text, skipped a word at a time. */
static unsigned columns(const char *s)
{
    size_t len = strlen(s), cont = 0, i = 0;
    for (uint64_t w; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        if (!(w & 0x8080808080808080u))
            continue;
        for (size_t k = i; k < i + 8; k++)
            cont += ((unsigned char)s[k] & 0xc0) == 0x80;
    }
    for (; i < len; i++)
        cont += ((unsigned char)s[i] & 0xc0) == 0x80;
    return (unsigned)(len - cont);
}

/* `>`, `> `, `>> `, `> > `, `>>>` ... at the start of a mail or Markdown quote; not the `>`
 * of fio's `>=64=0.0%` that a wrapped line may start with. */
static size_t quote_prefix(const char *s)
{
    size_t i = 0;
    if (*s != '>') /* most lines: no call below */
        return 0;
    if (strncmp(s, ">||", 3) == 0 || strncmp(s, ">|", 2) == 0)
        return 0; /* Hatena's code block, not a quote */
    while (s[i] == '>' && (s[i + 1] == '>' || s[i + 1] == ' ' || !s[i + 1])) {
        i++;
        if (s[i] == ' ' && s[i + 1] == '>')
            i++;
    }
    return i && s[i] == ' ' ? i + 1 : i;
}

/* s past its spaces and tabs; a loop, for a line starts with few or none */
static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static int blank(const char *s)
{
    return *skip_blanks(s) == '\0';
}

static int ends_with_pipe(const char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n > 1 && s[n - 1] == '|';
}

/* A forum's quote bar: two or more lines in a row starting with `|`, some with text after
 * "| ", none ending with `|` as a table's rows do. The bar goes, with the space after it. */
static void strip_bars(nlines *l)
{
    for (size_t i = 0; i < l->n;) {
        if (l->v[i].s[0] != '|') {
            i++;
            continue;
        }
        size_t j = i, piped = 0, text = 0;
        for (; j < l->n && l->v[j].s[0] == '|'; j++) {
            piped += ends_with_pipe(l->v[j].s);
            text += l->v[j].s[1] == ' ' && !blank(l->v[j].s + 1);
        }
        for (size_t k = i; k < j && j - i >= 2 && text && !piped; k++)
            l->v[k].s += 1 + (l->v[k].s[1] == ' ');
        i = j;
    }
}

/* Tags a page or forum wraps pasted output in; removed wherever they stand. */
static const char *const bbcode[] = {"code", "quote", "pre",  "b",       "i",       "u",    "tt",
                                     "font", "color", "size", "spoiler", "noparse", "samp", "kbd"};
static const char *const html[] = {"pre",    "code", "p",    "div",  "span", "b",
                                   "i",      "u",    "tt",   "kbd",  "samp", "blockquote",
                                   "strong", "em",   "font", "small"};

/* Length of a tag `[name]`, `[/name]`, `[name=...]` (open = '[') or the HTML equivalents
 * with attributes (open = '<') at s, or 0. */
static size_t tag_len(const char *s, char open, const char *const *names, size_t nnames)
{
    char close = open == '[' ? ']' : '>';
    if (*s != open)
        return 0;
    const char *p = s + 1 + (s[1] == '/');
    if (!isalpha((unsigned char)*p))
        return 0; /* every name starts with a letter: fio's "[ 5]" stops here */
    char first = (char)tolower((unsigned char)*p);
    for (size_t k = 0; k < nnames; k++) {
        if (names[k][0] != first) /* most tries: names are lower case */
            continue;
        size_t n = strlen(names[k]);
        if (strncasecmp(p, names[k], n) != 0)
            continue;
        char c = p[n];
        if (c == close)
            return (size_t)(p + n + 1 - s);
        if ((open == '[' && c == '=') || (open == '<' && c == ' ' && s[1] != '/')) {
            const char *e = strchr(p + n, close);
            return e && e - s < 200 ? (size_t)(e + 1 - s) : 0;
        }
    }
    return 0;
}

/* `<br>`, `<br/>`, `<br />`: the end of a line on a page. */
static size_t br_len(const char *s)
{
    if (strncasecmp(s, "<br", 3) != 0)
        return 0;
    const char *p = s + 3;
    p += strspn(p, " ");
    if (*p == '/')
        p++;
    return *p == '>' ? (size_t)(p + 1 - s) : 0;
}

/* `&gt;` and the few entities that pasted output holds; decoded into c. */
static size_t entity(const char *s, char *c)
{
    static const struct {
        const char *name;
        char c;
    } e[] = {{"&gt;", '>'},    {"&lt;", '<'},   {"&amp;", '&'}, {"&quot;", '"'},
             {"&apos;", '\''}, {"&nbsp;", ' '}, {"&#160;", ' '}};
    for (size_t k = 0; k < sizeof e / sizeof e[0]; k++) {
        size_t n = strlen(e[k].name);
        if (strncmp(s, e[k].name, n) == 0) {
            *c = e[k].c;
            return n;
        }
    }
    if (s[1] == '#' && isdigit((unsigned char)s[2])) {
        char *end;
        long v = strtol(s + 2, &end, 10);
        if (*end == ';' && v >= 32 && v < 127) {
            *c = (char)v;
            return (size_t)(end + 1 - s);
        }
    }
    return 0;
}

/* `**88826**`: Markdown bold around a word, not a Hatena heading's leading `**`. */
static size_t bold_len(const char *s)
{
    const char *b = s + 2;
    if (*b == ' ' || *b == '*' || !*b)
        return 0;
    const char *e = strstr(b, "**");
    if (!e || e[-1] == ' ')
        return 0;
    return (size_t)(e + 2 - s);
}

static int is_fence(const char *s)
{
    s = skip_blanks(s);
    if (*s != '`' && *s != '~')
        return 0;
    return strncmp(s, "```", 3) == 0 || strncmp(s, "~~~", 3) == 0;
}

/* Whether a markup the loop below removes starts at one of s's "&<[*" bytes: most lines
 * with such a byte (fio's "|  1.00th=[ 2008]") have none, and are not copied to find out. */
static int has_markup(const char *s)
{
    for (const char *p = strpbrk(s, "&<[*"); p; p = strpbrk(p + 1, "&<[*")) {
        char c;
        if ((*p == '*' && p[1] == '*' && bold_len(p)) ||
            (*p == '[' && isalpha((unsigned char)p[1 + (p[1] == '/')]) && /* not "[ 5]" */
             tag_len(p, '[', bbcode, sizeof bbcode / sizeof bbcode[0])) ||
            (*p == '<' && (br_len(p) || tag_len(p, '<', html, sizeof html / sizeof html[0]))) ||
            (*p == '&' && entity(p, &c)))
            return 1;
    }
    return 0;
}

/* The line without markup into sb, '\n' where a <br> ended a line; 0 when s has none.
 * plain: s holds none of the bytes markup starts with. */
static int strip_markup(const char *s, bl_strbuf *sb, int plain)
{
    if (is_fence(s)) {
        bl_strbuf_putn(sb, "", 0);
        return 1;
    }
    if (plain || !has_markup(s))
        return 0;
    int changed = 0;
    for (const char *p = s; *p;) {
        size_t n = 0;
        char c;
        if (*p == '*' && p[1] == '*' && (n = bold_len(p))) {
            bl_strbuf_putn(sb, p + 2, n - 4);
            p += n, changed = 1;
            continue;
        } else if (*p == '[') {
            n = tag_len(p, '[', bbcode, sizeof bbcode / sizeof bbcode[0]);
        } else if (*p == '<') {
            if ((n = br_len(p))) { /* ends the line; one at the end adds none */
                p += n, changed = 1;
                if (p[strspn(p, " \t")])
                    bl_strbuf_putc(sb, '\n');
                continue;
            }
            n = tag_len(p, '<', html, sizeof html / sizeof html[0]);
        } else if (*p == '&' && (n = entity(p, &c))) {
            bl_strbuf_putc(sb, c);
            p += n, changed = 1;
            continue;
        }
        if (n) {
            p += n, changed = 1;
            continue;
        }
        size_t plain = 1 + strcspn(p + 1, "&<[*"); /* up to the next byte markup starts with */
        bl_strbuf_putn(sb, p, plain);
        p += plain;
    }
    if (!changed)
        bl_strbuf_reset(sb);
    return changed;
}

/* Adds the line (after its quote prefix) to l, cleaned of markup, split at <br>s. plain: the
 * whole input line holds none of "&<[*'\"" (most lines of a tool's output), so that neither
 * markup nor a triple quote is looked for in it again. */
static void add_line(nlines *l, const char *content, long orig, int plain, bl_strbuf *sb)
{
    bl_strbuf_reset(sb);
    if (!strip_markup(content, sb, plain)) {
        push(l, content, orig)->noquote = (unsigned char)plain;
        return;
    }
    char *all = bl_strbuf_take(sb);
    size_t piece = 0;
    for (char *p = all;;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        nline *x = push(l, NULL, orig);
        x->owned = bl_xstrndup(p, n);
        x->s = x->owned;
        x->piece = piece++ > 0;
        if (!nl)
            break;
        p = nl + 1;
    }
    free(all);
}

static int indented(const char *s)
{
    return *s == ' ' || *s == '\t';
}

/* Lines by place, whatever holds them: a text's (reading only) or normalising's. */
typedef const char *(*line_at)(const void *lines, size_t k);

static const char *text_line(const void *lines, size_t k)
{
    return ((char *const *)lines)[k];
}

static const char *nline_s(const void *lines, size_t k)
{
    return ((const nline *)lines)[k].s;
}

/* The next block of indented (or blank) lines from line i on: its first line (n when there is
 * none), its end in *end, in *common the indentation all its lines share when it stands
 * between blank lines (else 0). */
static size_t next_block(line_at at, const void *lines, size_t n, size_t i, size_t *end,
                         size_t *common)
{
    while (i < n && !indented(at(lines, i)) && !blank(at(lines, i)))
        i++;
    size_t j = i;
    while (j < n && (indented(at(lines, j)) || blank(at(lines, j))))
        j++;
    *end = j;
    *common = 0;
    if (i == n || !(i == 0 || blank(at(lines, i))) || !(j == n || blank(at(lines, j - 1))))
        return i;
    const char *ref = NULL;
    for (size_t k = i; k < j; k++) {
        const char *s = at(lines, k);
        if (blank(s))
            continue;
        size_t w = strspn(s, " \t");
        if (!ref) {
            ref = s, *common = w;
            continue;
        }
        size_t m = 0;
        while (m < *common && m < w && s[m] == ref[m])
            m++;
        *common = m;
    }
    return i;
}

/* Whether dedent would move a line of lines[0..n) (its rule, reading only). */
static int would_dedent(char *const *lines, size_t n)
{
    size_t end, common;
    for (size_t i = 0; (i = next_block(text_line, lines, n, i, &end, &common)) < n; i = end)
        if (common)
            return 1;
    return 0;
}

/* A block of indented lines standing between blank lines (a code block, a quoted paste)
 * loses the indentation all its lines share. One between text lines keeps it: it is part of
 * what the tool printed (the second header line of a bonnie++ table, sysbench's figures under
 * "File operations:", which pattern files match with "^ +"). */
static void dedent(nlines *l)
{
    size_t end, common;
    for (size_t i = 0; (i = next_block(nline_s, l->v, l->n, i, &end, &common)) < l->n; i = end)
        for (size_t k = i; k < end && common; k++)
            if (!blank(l->v[k].s))
                l->v[k].s += common;
}

/* A shell or Python comment block: three or more lines in a row starting (after their
 * indentation) with "#" then a space, a tab or nothing, two of them with text. The marks go,
 * with one space after them, so an output kept in a script's comments reads as printed;
 * "#!" and "##" lines are not comment marks of this kind, a lone "# cmd" (a root prompt) not
 * a block. */
static size_t comment_mark(const char *s)
{
    size_t w = (size_t)(skip_blanks(s) - s);
    if (s[w] != '#' || (s[w + 1] != ' ' && s[w + 1] != '\t' && s[w + 1] != '\0'))
        return 0;
    return w + 1 + (s[w + 1] == ' ');
}

static void strip_comment_marks(nlines *l)
{
    for (size_t i = 0; i < l->n;) {
        size_t j = i, text = 0;
        for (; j < l->n && comment_mark(l->v[j].s); j++)
            text += !blank(l->v[j].s + comment_mark(l->v[j].s));
        for (size_t k = i; k < j && j - i >= 3 && text >= 2; k++)
            l->v[k].s += comment_mark(l->v[k].s);
        i = j > i ? j : i + 1;
    }
}

/* A Python string holding an output: `out = """Command Line: ...` opens it on a line of code
 * and `...last line"""` may close it on the output's last line. The text inside the quotes
 * is kept, the code and quotes go; a one-line docstring keeps its text. */
static const char *triple_quote(const char *s, const char **second)
{
    *second = NULL;
    if (!strpbrk(s, "\"'")) /* one pass for the lines without quotes, not two */
        return NULL;
    const char *a = strstr(s, "\"\"\""), *b = strstr(s, "'''");
    const char *q = a && (!b || a < b) ? a : b;
    *second = q ? strstr(q + 3, q == a ? "\"\"\"" : "'''") : NULL;
    return q;
}

static void keep_between(nline *x, const char *from, const char *to)
{
    char *text = bl_xstrndup(from, (size_t)(to - from));
    free(x->owned);
    x->owned = text;
    x->s = text;
}

static void strip_python_quotes(nlines *l)
{
    int open = 0;
    for (size_t i = 0; i < l->n; i++) {
        nline *x = &l->v[i];
        if (x->noquote) /* bars, marks and indentation only move its start within the line */
            continue;
        const char *second, *q = triple_quote(x->s, &second);
        if (!q)
            continue;
        if (second) { /* """A one-line docstring.""" */
            if (!open)
                keep_between(x, q + 3, second);
            continue;
        }
        if (!open) {
            const char *after = q + 3;
            if (*after == '\\' && !after[1])
                after++;
            x->s = after;
        } else {
            keep_between(x, x->s, q);
        }
        open = !open;
    }
}

/* Bytes of the first word of s. */
static size_t first_word(const char *s)
{
    return strcspn(s, " \t");
}

/* Columns of the first word of s. */
static size_t first_word_cols(const char *s)
{
    size_t n = 0;
    for (size_t i = 0, len = first_word(s); i < len; i++)
        n += ((unsigned char)s[i] & 0xc0) != 0x80;
    return n;
}

/* A line that opens with its own label ("RUN_randread: (groupid=0...", "Jobs: 8"): tools
 * start lines so, while the rest of a wrapped line ("4096B-4096B, ioengine=...") does not. */
static int labelled(const char *s)
{
    size_t n = first_word(s);
    return n > 1 && s[n - 1] == ':';
}

/* A line a mail client could have wrapped: a space after its first word. */
static int breakable(const char *s)
{
    s = skip_blanks(s);
    return strchr(s, ' ') != NULL;
}

/* A mail client wrapped the text at its longest line's width when that is 60..80 columns:
 * a line is joined to the next when the next one's first word would not have fitted. Lines
 * without a space to break at are not counted: the client had to leave them long; nor is a
 * word longer than the width, which stands alone however the text was written. */
static size_t join_wrapped(nlines *l, const bl_text *in)
{
    size_t width = 0;
    for (size_t i = 0; i < l->n; i++) {
        /* measured here, not as lines are added: most texts have a breakable line over 80
         * columns near their top, and then no other line's width is wanted */
        l->v[i].width = columns(in->line[l->v[i].orig - 1]);
        if (l->v[i].width > width && breakable(l->v[i].s) && (width = l->v[i].width) > 80)
            return 0;
    }
    if (width < 60)
        return 0;
    size_t joins = 0, out = 0;
    for (size_t i = 0; i < l->n; i++) {
        nline cur = l->v[i];
        /* a run of joins grows one buffer: a text of many full-width lines is one long
         * line in linear time, not copied again at every join */
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        while (i + 1 < l->n && !l->v[i + 1].piece && l->v[i + 1].orig == l->v[i].orig + 1 &&
               !blank(cur.s) && !blank(l->v[i + 1].s) && !indented(l->v[i + 1].s) &&
               l->v[i].width <= width && first_word_cols(l->v[i + 1].s) < width &&
               !labelled(l->v[i + 1].s) &&
               l->v[i].width + 1 + first_word_cols(l->v[i + 1].s) > width) {
            if (!sb.s)
                bl_strbuf_puts(&sb, cur.s);
            bl_strbuf_putc(&sb, ' ');
            bl_strbuf_puts(&sb, l->v[i + 1].s);
            free(l->v[i + 1].owned);
            cur.s = sb.s;
            i++, joins++;
        }
        if (sb.s) {
            free(cur.owned);
            cur.owned = bl_strbuf_take(&sb);
            cur.s = cur.owned;
        }
        l->v[out++] = cur;
    }
    l->n = out;
    return joins;
}

/* Blank lines before the text (where a fence or [code] stood) are no part of it: a format
 * may read its first line as the header. */
static void drop_leading_blanks(nlines *l)
{
    size_t k = 0;
    while (k < l->n && blank(l->v[k].s))
        free(l->v[k++].owned);
    if (k) {
        memmove(l->v, l->v + k, (l->n - k) * sizeof *l->v);
        l->n -= k;
    }
}

static int same_as_input(const nlines *l, const bl_text *in)
{
    if (l->n != in->nlines)
        return 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].s != in->line[i])
            return 0;
    return 1;
}

static void build(const nlines *l, const bl_text *in, bl_text *out, long **orig)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    for (size_t i = 0; i < l->n; i++)
        len += strlen(l->v[i].s) + 1;
    out->name = bl_xstrdup(in->name ? in->name : "");
    out->encoding = bl_xstrdup(in->encoding ? in->encoding : "UTF-8");
    out->buf = bl_xmalloc(len + 1);
    out->line = bl_xmalloc((l->n + 1) * sizeof *out->line);
    *orig = bl_xmalloc((l->n + 1) * sizeof **orig);
    char *p = out->buf;
    for (size_t i = 0; i < l->n; i++) {
        size_t n = strlen(l->v[i].s);
        memcpy(p, l->v[i].s, n + 1);
        out->line[i] = p;
        (*orig)[i] = l->v[i].orig;
        p += n + 1;
    }
    out->nlines = l->n;
    out->len = len ? len - 1 : 0;
    out->buf[out->len] = '\0';
}

/* The lines of the normalised text, before they are written anywhere. */
static size_t normalise_lines(const bl_text *in, int flags, nlines *l)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    void *v = l->v; /* an input line gives one output line but where <br> splits it */
    bl_grow(&v, &l->cap, in->nlines, sizeof *l->v);
    l->v = v;
    for (size_t i = 0; i < in->nlines; i++) {
        const char *s = in->line[i];
        int plain = strpbrk(s, "&<[*'\"") == NULL;
        add_line(l, s + quote_prefix(s), (long)i + 1, plain, &sb);
    }
    bl_strbuf_free(&sb);
    strip_bars(l);
    strip_comment_marks(l);
    strip_python_quotes(l);
    drop_leading_blanks(l);
    dedent(l);
    return flags & BL_NORM_JOIN ? join_wrapped(l, in) : 0;
}

int bl_text_is_normal(const bl_text *t, int flags)
{
    size_t width = 0; /* the widest breakable line, as join_wrapped measures */
    for (size_t i = 0; i < t->nlines; i++) {
        const char *s = t->line[i];
        /* no quote prefix, fence, bar, comment mark, leading blank line, markup or quote */
        if (*s == '>' || *s == '|' || is_fence(s) || comment_mark(s) || (i == 0 && blank(s)))
            return 0;
        const char *m = strpbrk(s, "&<[*'\"");
        if (m && (strpbrk(m, "'\"") || has_markup(m)))
            return 0;
        if (flags & BL_NORM_JOIN && width <= 80 && breakable(s)) {
            unsigned w = columns(s);
            width = w > width ? w : width;
        }
    }
    if (flags & BL_NORM_JOIN && width >= 60 && width <= 80)
        return 0; /* lines may be joined: only the whole rule tells */
    return !would_dedent(t->line, t->nlines);
}

int bl_text_normalize(const bl_text *in, int flags, bl_text *out, long **orig, size_t *joins)
{
    nlines l = {0};
    size_t j = normalise_lines(in, flags, &l);
    if (joins)
        *joins = j;
    int changed = !same_as_input(&l, in);
    if (changed)
        build(&l, in, out, orig);
    free_lines(&l);
    return changed;
}

/* Output line i never starts before input line orig[i]'s first byte minus what the lines
 * before it lost, so copying forward with memmove never overwrites a line still to come. */
static void build_in_place(const nlines *l, bl_text *t, long **orig)
{
    if (l->n > t->nlines)
        t->line = bl_xrealloc(t->line, (l->n + 1) * sizeof *t->line);
    *orig = bl_xmalloc((l->n + 1) * sizeof **orig);
    char *w = t->buf;
    for (size_t i = 0; i < l->n; i++) {
        size_t n = strlen(l->v[i].s);
        memmove(w, l->v[i].s, n);
        w[n] = '\0';
        t->line[i] = w;
        (*orig)[i] = l->v[i].orig;
        w += n + 1;
    }
    t->nlines = l->n;
    t->len = w > t->buf ? (size_t)(w - t->buf) - 1 : 0;
    t->buf[t->len] = '\0';
}

int bl_text_normalize_in_place(bl_text *t, long **orig)
{
    nlines l = {0};
    size_t j = normalise_lines(t, BL_NORM_JOIN, &l);
    int rc = j ? -1 : !same_as_input(&l, t);
    if (rc == 1)
        build_in_place(&l, t, orig);
    free_lines(&l);
    return rc;
}
