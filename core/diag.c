#include "diag.h"
#include "escape.h"
#include "strbuf.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void bl_diags_init(bl_diags *d, const char *source)
{
    memset(d, 0, sizeof *d);
    d->source = source;
}

void bl_diags_free(bl_diags *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].source);
        free(d->v[i].msg);
    }
    free(d->v);
    d->v = NULL;
    d->n = d->cap = 0;
}

void bl_diags_add(bl_diags *d, long line, const char *fmt, ...)
{
    void *p = d->v;
    bl_grow(&p, &d->cap, d->n + 1, sizeof *d->v);
    d->v = p;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    bl_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    d->v[d->n++] = (bl_diag){
        .source = bl_xstrdup(d->source ? d->source : ""),
        .line = line,
        .msg = bl_strbuf_take(&sb),
    };
}

void bl_diags_print(FILE *f, const bl_diags *d)
{
    for (size_t i = 0; i < d->n; i++) {
        /* Messages quote the text they are about: shown escaped (escape.h) on the terminal. */
        char *src = bl_esc_term_dup(d->v[i].source, BL_ESC_LINE);
        char *msg = bl_esc_term_dup(d->v[i].msg, BL_ESC_LINE);
        if (d->v[i].line > 0)
            fprintf(f, "%s:%ld: %s\n", src, d->v[i].line, msg);
        else
            fprintf(f, "%s: %s\n", src, msg);
        free(src);
        free(msg);
    }
}
