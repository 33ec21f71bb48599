/* Pasted text back to what the tool printed, before any format looks at it.
 *
 * Removes what mail, forums and web pages put around a tool's output: quote prefixes at the
 * start of a line (`> `, `>> `, `> > `, and a forum's `| ` when a whole block carries it and
 * it is not a table), the common indentation of an indented block standing between blank
 * lines, Markdown fences and `**bold**`, BBCode tags (`[code]`, `[quote]`, `[b]` ...), HTML
 * tags of the kind a page wraps text in (`<pre>`, `<br>` which also ends the line, ...) and
 * entities (`&gt;`, `&nbsp;`, `&#39;`), the `# ` of a block of shell comments (three lines or
 * more) and the code and triple quotes around a Python string. With BL_NORM_JOIN it also re-joins
 * lines that a mail client wrapped: in a text whose longest line is 60..80 columns, a line that the
 * next line's first word would have made longer than that, followed by a line that does not start
 * with a space, is joined to it with the space the wrapping took.
 *
 * Knows no format: whether joining was right is for the caller to judge (the driver keeps
 * the reading that gives more records). The output text is a text like any other; orig[i] is
 * the line number (1-based) in the input of output line i, so that records and messages
 * still point at the line of the original file. */
#ifndef BL_NORMALIZE_H
#define BL_NORMALIZE_H

#include "text.h"

enum { BL_NORM_JOIN = 1 };

/* Returns 0 when nothing would change (out and *orig untouched), 1 when *out is a new text
 * (free with bl_text_free) and *orig its line map (caller frees). *joins (when not NULL)
 * receives the number of wrapped lines joined. */
int bl_text_normalize(const bl_text *in, int flags, bl_text *out, long **orig, size_t *joins);

/* 1 when bl_text_normalize(t, flags, ...) would find nothing to change, told without making
 * the new lines (most texts of a tool's output: no quote, markup, comment block, indented
 * block between blank lines nor lines 60..80 columns wide); 0 when it may change something. */
int bl_text_is_normal(const bl_text *t, int flags);

/* The same with BL_NORM_JOIN, rewriting t in place (normalised lines are never longer than the
 * input they come from), so a large text is not held twice. Returns 0 when nothing changed,
 * 1 when t was rewritten (*orig as above), -1 when there are wrapped lines to join: t is then
 * untouched, for the caller needs both readings. */
int bl_text_normalize_in_place(bl_text *t, long **orig);

#endif
