#include "colour.h"
#include "global.h"
#include "runlist.h"
#include "../core/escape.h"
#include "../core/fields.h"
#include "../core/strbuf.h"
#include <stddef.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

enum { N_COLS = 5, PAGE = 256 };

struct bl_run_table {
    FILE *out;
    int json, colour;
    size_t n_rows, n_total;
    char *cells[PAGE][N_COLS];
    int width[N_COLS];
};

bl_run_table *bl_run_table_new(FILE *out, int json)
{
    bl_run_table *t = bl_xcalloc(1, sizeof *t);
    t->out = out;
    t->json = json;
    t->colour = !json && bl_color(out);
    return t;
}

void bl_put_escaped(bl_strbuf *sb, const char *s)
{
    bl_esc_term(sb, s, BL_ESC_LINE);
}

/* Columns on a terminal: wide characters count two, combining ones none. */
static int display_width(const char *s)
{
    size_t n = mbstowcs(NULL, s, 0);
    if (n == (size_t)-1)
        return (int)strlen(s);
    wchar_t *w = bl_xmalloc((n + 1) * sizeof *w);
    mbstowcs(w, s, n + 1);
    int cols = wcswidth(w, n);
    free(w);
    return cols < 0 ? (int)strlen(s) : cols;
}

static void flush_page(bl_run_table *t)
{
    for (size_t r = 0; r < t->n_rows; r++) {
        for (int c = 0; c < N_COLS; c++) {
            const char *cell = t->cells[r][c];
            bl_paint_fputs(t->out, t->colour, c == 0 ? BL_PAINT_ID : BL_PAINT_NONE, cell);
            if (c + 1 < N_COLS && (c + 2 < N_COLS || *t->cells[r][c + 1]))
                fprintf(t->out, "%*s", t->width[c] - display_width(cell) + 2, "");
            free(t->cells[r][c]);
        }
        fputc('\n', t->out);
    }
    t->n_rows = 0;
}

/* A run-level field's value as JSON: text ("" when absent) or a number. */
static json_t *field_json(const bl_field *f, const bl_record *head)
{
    char buf[64];
    const char *v = bl_field_text(f, head, buf, sizeof buf);
    if (f->kind == BL_FK_INT)
        return v ? json_integer(*BL_CFIELD(head, f, int64_t)) : json_null();
    if (f->kind == BL_FK_NUM)
        return v ? json_real(*BL_CFIELD(head, f, double)) : json_null();
    return json_string(v ? v : "");
}

/* The run-level fields come from the field table, in its order; a run's "line" (its least
 * line) stands where the record's line stands in the table. */
static void add_json(bl_run_table *t, const bl_run_info *ri)
{
    json_t *labels = json_object();
    for (size_t i = 0; i < ri->n_labels; i++)
        json_object_set_new(labels, ri->labels[i].key, json_string(ri->labels[i].value));
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(ri->id));
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        if (f->flags & BL_FF_RUN)
            json_object_set_new(o, f->name, field_json(f, ri->head));
        else if (f->off == offsetof(bl_record, line))
            json_object_set_new(o, f->name, json_integer(ri->first_line));
    }
    json_object_set_new(o, "records", json_integer((json_int_t)ri->n_records));
    json_object_set_new(o, "imported_at", json_string(ri->imported_at));
    json_object_set_new(o, "labels", labels);
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (text)
        fprintf(t->out, "%s\n", text);
    free(text);
    json_decref(o);
}

/* The run-level text fields of the field table: the first (the source) with the run's first
 * line, the others (tool, version, ...) in the next column, by spaces. The run's number is
 * what its ID stands for. */
static void run_fields_text(const bl_run_info *ri, bl_strbuf *where, bl_strbuf *what)
{
    int first = 1;
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        /* the run's time is what a list reader wants; where it came from: show */
        if (!(f->flags & BL_FF_RUN) || f->kind != BL_FK_STR || (f->flags & BL_FF_PROVENANCE))
            continue;
        const char *v = *BL_CFIELD(ri->head, f, char *);
        if (first) {
            bl_put_escaped(where, v ? v : "");
            if (ri->first_line > 0)
                bl_strbuf_printf(where, ":%lld", (long long)ri->first_line);
            first = 0;
        } else if (v && *v) {
            if (what->len)
                bl_strbuf_putc(what, ' ');
            bl_put_escaped(what, v);
        }
    }
}

int bl_run_table_add(void *table, const bl_run_info *ri)
{
    bl_run_table *t = table;
    t->n_total++;
    if (t->json) {
        add_json(t, ri);
        return 0;
    }
    bl_strbuf c[N_COLS];
    for (int i = 0; i < N_COLS; i++)
        bl_strbuf_init(&c[i]);
    bl_strbuf_puts(&c[0], ri->id);
    run_fields_text(ri, &c[1], &c[2]);
    bl_strbuf_printf(&c[3], "%zu record%s", ri->n_records, ri->n_records == 1 ? "" : "s");
    for (size_t i = 0; i < ri->n_labels; i++) {
        bl_strbuf_puts(&c[4], i ? ", " : "");
        bl_put_escaped(&c[4], ri->labels[i].key);
        bl_strbuf_putc(&c[4], '=');
        bl_put_escaped(&c[4], ri->labels[i].value);
    }
    for (int i = 0; i < N_COLS; i++) {
        char *cell = bl_strbuf_take(&c[i]);
        t->cells[t->n_rows][i] = cell ? cell : bl_xstrdup("");
        int w = display_width(t->cells[t->n_rows][i]);
        t->width[i] = w > t->width[i] ? w : t->width[i];
    }
    if (++t->n_rows == PAGE)
        flush_page(t);
    return 0;
}

size_t bl_run_table_finish(bl_run_table *t)
{
    flush_page(t);
    size_t n = t->n_total;
    free(t);
    return n;
}
