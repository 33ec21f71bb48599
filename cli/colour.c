#include "colour.h"
#include <stdlib.h>
#include <string.h>

const char *bl_paint_on(bl_paint p)
{
    switch (p) {
    case BL_PAINT_BETTER:
        return "\033[32m";
    case BL_PAINT_WORSE:
        return "\033[31m";
    case BL_PAINT_FLAG:
    case BL_PAINT_ID:
        return "\033[33m";
    case BL_PAINT_ERROR:
        return "\033[1;31m";
    default:
        return "";
    }
}

void bl_paint_put(bl_strbuf *sb, int on, bl_paint p, const char *text)
{
    if (!on || p == BL_PAINT_NONE) {
        bl_strbuf_puts(sb, text);
        return;
    }
    bl_strbuf_printf(sb, "%s%s%s", bl_paint_on(p), text, BL_PAINT_OFF);
}

void bl_paint_fputs(FILE *f, int on, bl_paint p, const char *text)
{
    if (on && p != BL_PAINT_NONE)
        fprintf(f, "%s%s%s", bl_paint_on(p), text, BL_PAINT_OFF);
    else
        fputs(text, f);
}

void bl_paint_diff(bl_strbuf *text, const bl_diff_line *l, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (l[k].ci != BL_DIFF_OUTSIDE || !bl_present(l[k].change_pct) || l[k].change_pct == 0)
            continue;
        int better = (l[k].change_pct < 0) == !!bl_metric_lower_better(l[k].metric);
        bl_paint_line(text, k + 2, better ? BL_PAINT_BETTER : BL_PAINT_WORSE); /* head, rule */
    }
}

void bl_paint_line(bl_strbuf *text, size_t line, bl_paint p)
{
    if (p == BL_PAINT_NONE || !text->s)
        return;
    char *start = text->s;
    for (size_t i = 0; i < line; i++) {
        start = strchr(start, '\n');
        if (!start)
            return;
        start++;
    }
    size_t len = strcspn(start, "\n");
    if (len == 0)
        return;
    size_t at = (size_t)(start - text->s);
    bl_strbuf out;
    bl_strbuf_init(&out);
    bl_strbuf_printf(&out, "%.*s%s%.*s%s%s", (int)at, text->s, bl_paint_on(p), (int)len, start,
                     BL_PAINT_OFF, start + len);
    bl_strbuf_free(text);
    *text = out;
}
