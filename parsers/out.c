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

static void diags_free(bl_diag **v, size_t *n, size_t *cap)
{
    for (size_t i = 0; i < *n; i++) {
        free((*v)[i].source);
        free((*v)[i].msg);
    }
    free(*v);
    *v = NULL;
    *n = *cap = 0;
}

void bl_out_free(bl_parse_out *o)
{
    bl_records_free(&o->recs);
    diags_free(&o->diags, &o->n_diags, &o->cap_diags);
    diags_free(&o->warns, &o->n_warns, &o->cap_warns);
}

bl_record *bl_out_record(bl_parse_out *o, long line)
{
    bl_record *r = bl_record_new();
    r->source = bl_xstrdup(o->source ? o->source : "");
    r->line = line;
    bl_records_push(&o->recs, r);
    return r;
}

static void diag_add(const bl_parse_out *o, bl_diag **v, size_t *n, size_t *cap, long line,
                     const char *fmt, va_list ap)
{
    void *p = *v;
    bl_grow(&p, cap, *n + 1, sizeof **v);
    *v = p;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_vprintf(&sb, fmt, ap);
    (*v)[(*n)++] = (bl_diag){
        .source = bl_xstrdup(o->source ? o->source : ""),
        .line = line,
        .msg = bl_strbuf_take(&sb),
    };
}

void bl_out_error(bl_parse_out *o, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_add(o, &o->diags, &o->n_diags, &o->cap_diags, line, fmt, ap);
    va_end(ap);
}

void bl_out_warn(bl_parse_out *o, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_add(o, &o->warns, &o->n_warns, &o->cap_warns, line, fmt, ap);
    va_end(ap);
}
