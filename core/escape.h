/* Text taken from imported files (labels, job names, headings, sources) made harmless for the
 * output it is written to: one function a kind of output, used by every writer of that kind.
 * The store keeps the original; only what is written is escaped.
 *   - Markdown: the text stays text where it is rendered (GitHub, wikis allow raw HTML);
 *   - CSV: RFC 4180 quoting, and no cell a spreadsheet would run as a formula (OWASP);
 *   - terminal: no control sequence reaches the reader's terminal;
 *   - XML/HTML: text and attribute values of the page and the SVG charts. */
#ifndef BL_ESCAPE_H
#define BL_ESCAPE_H

#include "strbuf.h"
#include <stddef.h>

/* Markdown text (a table cell, a heading): & < > " as entities; a backslash before
 * \ ` * _ [ ] ~ | (emphasis, code, links, strike-through, cell ends); newline, carriage
 * return and the other control characters as numeric references (&#10;), so that a cell
 * never splits its row. An "_" between ASCII letters or digits ("write_read") is left as it
 * is: CommonMark makes no emphasis of it. */
void bl_esc_md(bl_strbuf *out, const char *s);

/* One CSV field of text (RFC 4180): quoted when it holds a comma, quote, CR or LF; one that
 * begins with = + - @ tab or CR is written as text, with a leading ' (OWASP's advice), and
 * quoted. Numbers the writer produced are not text: they are written as they are, not
 * through this. */
void bl_esc_csv(bl_strbuf *out, const char *s, size_t n);

/* Text for a terminal: control characters (C0 but tab and newline, DEL, C1), bytes that are
 * no UTF-8 and the bidirectional overrides (U+202A..E, U+2066..9) shown as \x1b, \r, \u009b,
 * \u202e. BL_ESC_LINE also shows tab and newline (\t, \n): one line a value. */
enum { BL_ESC_LINE = 1 };
void bl_esc_term(bl_strbuf *out, const char *s, unsigned flags);
/* The same into a new string (caller frees). */
char *bl_esc_term_dup(const char *s, unsigned flags);

/* XML and HTML text or attribute value (double-quoted): & < > " as entities; the control
 * characters no XML 1.0 document may hold as a space, bytes that are no UTF-8 (and U+FFFE,
 * U+FFFF) as U+FFFD, so that the page and the SVG always parse. */
void bl_esc_xml(bl_strbuf *out, const char *s);

#endif
