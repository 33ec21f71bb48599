#include "parser.h"
#include "../core/strbuf.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void bl_out_init(bl_parse_out *o, const char *source)
{
    memset(o, 0, sizeof *o);
    o->source = source;
    bl_records_init(&o->recs);
}

void bl_out_free(bl_parse_out *o)
{
    bl_records_free(&o->recs);
    for (size_t i = 0; i < o->n_diags; i++) {
        free(o->diags[i].source);
        free(o->diags[i].msg);
    }
    free(o->diags);
    o->diags = NULL;
    o->n_diags = o->cap_diags = 0;
}

bl_record *bl_out_record(bl_parse_out *o, long line)
{
    bl_record *r = bl_record_new();
    r->source = bl_xstrdup(o->source ? o->source : "");
    r->line = line;
    bl_records_push(&o->recs, r);
    return r;
}

void bl_out_error(bl_parse_out *o, long line, const char *fmt, ...)
{
    void *p = o->diags;
    bl_grow(&p, &o->cap_diags, o->n_diags + 1, sizeof *o->diags);
    o->diags = p;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    bl_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    o->diags[o->n_diags++] = (bl_diag){
        .source = bl_xstrdup(o->source ? o->source : ""),
        .line = line,
        .msg = bl_strbuf_take(&sb),
    };
}
