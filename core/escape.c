/* The escaping layer (escape.h). Why each rule:
 *   - Markdown renderers pass raw HTML through (GitHub's with a sanitizer, many wikis
 *     without), so "<img onerror=...>" in a job name must reach them as text; a backslash
 *     escape works for any ASCII punctuation in CommonMark, an entity for the rest.
 *   - Spreadsheets run a cell beginning with = + - @ as a formula, and some also after a tab
 *     or CR; OWASP's "CSV Injection" advice is a leading ' (shown by none of them as data).
 *   - A terminal acts on ESC, CSI (also as the C1 byte 0x9b), BEL...: a job name could retitle
 *     or clear it, or hide text; bidirectional overrides can show text other than it is. */
#include "escape.h"
#include "encoding.h"
#include <stdlib.h>
#include <string.h>

/* The code point of the valid UTF-8 sequence of n bytes at s. */
static unsigned code_point(const unsigned char *s, size_t n)
{
    static const unsigned char lead_mask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    unsigned cp = s[0] & lead_mask[n];
    for (size_t i = 1; i < n; i++)
        cp = (cp << 6) | (s[i] & 0x3f);
    return cp;
}

static int ascii_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

void bl_esc_md(bl_strbuf *out, const char *s)
{
    for (const char *start = s; *s; s++) {
        unsigned char c = (unsigned char)*s;
        /* "write_read" stays as it is: between letters or digits "_" is no emphasis. */
        if (c == '_' && s > start && ascii_alnum(s[-1]) && ascii_alnum(s[1])) {
            bl_strbuf_putc(out, '_');
            continue;
        }
        switch (c) {
        case '&':
            bl_strbuf_puts(out, "&amp;");
            break;
        case '<':
            bl_strbuf_puts(out, "&lt;");
            break;
        case '>':
            bl_strbuf_puts(out, "&gt;");
            break;
        case '"':
            bl_strbuf_puts(out, "&quot;");
            break;
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '~':
        case '|':
            bl_strbuf_putc(out, '\\');
            bl_strbuf_putc(out, (char)c);
            break;
        default:
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                bl_strbuf_printf(out, "&#%u;", c);
            else
                bl_strbuf_putc(out, (char)c);
        }
    }
}

static int formula_start(char c)
{
    return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

void bl_esc_csv(bl_strbuf *out, const char *s, size_t n)
{
    int formula = n > 0 && formula_start(s[0]);
    int quote = formula || memchr(s, ',', n) || memchr(s, '"', n) || memchr(s, '\n', n) ||
                memchr(s, '\r', n);
    if (!quote) {
        bl_strbuf_putn(out, s, n);
        return;
    }
    bl_strbuf_putc(out, '"');
    if (formula)
        bl_strbuf_putc(out, '\'');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            bl_strbuf_putc(out, '"');
        bl_strbuf_putc(out, s[i]);
    }
    bl_strbuf_putc(out, '"');
}

static int bidi_control(unsigned cp)
{
    return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

void bl_esc_term(bl_strbuf *out, const char *s, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        unsigned char c = u[i];
        if (c == '\n' || c == '\t') {
            if (flags & BL_ESC_LINE)
                bl_strbuf_puts(out, c == '\n' ? "\\n" : "\\t");
            else
                bl_strbuf_putc(out, (char)c);
            i++;
            continue;
        }
        if (c == '\r') {
            bl_strbuf_puts(out, "\\r");
            i++;
            continue;
        }
        if (c < 0x20 || c == 0x7f) {
            bl_strbuf_printf(out, "\\x%02x", c);
            i++;
            continue;
        }
        size_t n = bl_utf8_seq_len(u + i, len - i);
        if (n == 0) {
            bl_strbuf_printf(out, "\\x%02x", c);
            i++;
            continue;
        }
        unsigned cp = code_point(u + i, n);
        if ((cp >= 0x80 && cp <= 0x9f) || bidi_control(cp))
            bl_strbuf_printf(out, "\\u%04x", cp);
        else
            bl_strbuf_putn(out, s + i, n);
        i += n;
    }
}

char *bl_esc_term_dup(const char *s, unsigned flags)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_putn(&sb, "", 0);
    bl_esc_term(&sb, s, flags);
    return bl_strbuf_take(&sb);
}

void bl_esc_xml(bl_strbuf *out, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        unsigned char c = u[i];
        size_t n = bl_utf8_seq_len(u + i, len - i);
        if (c == '&')
            bl_strbuf_puts(out, "&amp;");
        else if (c == '<')
            bl_strbuf_puts(out, "&lt;");
        else if (c == '>')
            bl_strbuf_puts(out, "&gt;");
        else if (c == '"')
            bl_strbuf_puts(out, "&quot;");
        else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            bl_strbuf_putc(out, ' '); /* no XML 1.0 document may hold these */
        else if (n == 0 || (n == 3 && code_point(u + i, n) >= 0xfffe))
            bl_strbuf_puts(out, "\xef\xbf\xbd");
        else
            bl_strbuf_putn(out, s + i, n);
        i += n ? n : 1;
    }
}
