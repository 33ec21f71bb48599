/* Colour in text output (ANSI SGR), used only where global.h's bl_color(stream) says so: on
 * a terminal, or with --color=always; never with --color=never or $NO_COLOR. A painted text
 * is the plain text with escapes around it, so the plain form stays what files and pipes get. */
#ifndef BL_CLI_COLOUR_H
#define BL_CLI_COLOUR_H

#include "../compare/diff.h"
#include "../core/strbuf.h"
#include <stdio.h>

typedef enum bl_paint {
    BL_PAINT_NONE,
    BL_PAINT_BETTER, /* green: a change for the better outside the CI */
    BL_PAINT_WORSE,  /* red: a change for the worse outside the CI */
    BL_PAINT_FLAG,   /* yellow: a flag or a note to look at */
    BL_PAINT_ERROR,  /* bold red: an error on stderr */
    BL_PAINT_ID,     /* yellow, as git log's hashes: run IDs */
} bl_paint;

/* The escape that starts p ("" for NONE), and the one that ends any. */
const char *bl_paint_on(bl_paint p);
#define BL_PAINT_OFF "\033[m"

/* text painted p when on, plain otherwise. */
void bl_paint_put(bl_strbuf *sb, int on, bl_paint p, const char *text);
void bl_paint_fputs(FILE *f, int on, bl_paint p, const char *text);
/* Paints line number `line` (0-based, without its newline) of text in place. */
void bl_paint_line(bl_strbuf *text, size_t line, bl_paint p);

/* bl_diff_render's text table of lines l: a line whose change lies outside the 95% CI is
 * painted better (green) or worse (red), by whether its metric is better lower. */
void bl_paint_diff(bl_strbuf *text, const bl_diff_line *l, size_t n);

#endif
