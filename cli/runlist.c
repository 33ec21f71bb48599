#include "runlist.h"
#include "../core/strbuf.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

enum { N_COLS = 5, PAGE = 256 };

struct bl_run_table {
    FILE *out;
    int json;
    size_t n_rows, n_total;
    char *cells[PAGE][N_COLS];
    int width[N_COLS];
};

bl_run_table *bl_run_table_new(FILE *out, int json)
{
    bl_run_table *t = bl_xcalloc(1, sizeof *t);
    t->out = out;
    t->json = json;
    return t;
}

/* Text for one line: control characters as \n, \t, \xNN. */
static void put_escaped(bl_strbuf *sb, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n')
            bl_strbuf_puts(sb, "\\n");
        else if (c == '\t')
            bl_strbuf_puts(sb, "\\t");
        else if (c == '\r')
            bl_strbuf_puts(sb, "\\r");
        else if (c < 0x20 || c == 0x7f)
            bl_strbuf_printf(sb, "\\x%02x", c);
        else
            bl_strbuf_putc(sb, (char)c);
    }
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
            fputs(cell, t->out);
            if (c + 1 < N_COLS && (c + 2 < N_COLS || *t->cells[r][c + 1]))
                fprintf(t->out, "%*s", t->width[c] - display_width(cell) + 2, "");
            free(t->cells[r][c]);
        }
        fputc('\n', t->out);
    }
    t->n_rows = 0;
}

static void add_json(bl_run_table *t, const bl_run_info *ri)
{
    json_t *labels = json_object();
    for (size_t i = 0; i < ri->n_labels; i++)
        json_object_set_new(labels, ri->labels[i].key, json_string(ri->labels[i].value));
    json_t *o =
        json_pack("{s:s, s:s, s:I, s:I, s:s, s:s, s:I, s:s, s:o}", "id", ri->id, "source",
                  ri->source, "line", (json_int_t)ri->first_line, "run", (json_int_t)ri->run,
                  "tool", ri->tool, "tool_version", ri->tool_version, "records",
                  (json_int_t)ri->n_records, "imported_at", ri->imported_at, "labels", labels);
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (text)
        fprintf(t->out, "%s\n", text);
    free(text);
    json_decref(o);
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
    put_escaped(&c[1], ri->source);
    if (ri->first_line > 0)
        bl_strbuf_printf(&c[1], ":%lld", (long long)ri->first_line);
    put_escaped(&c[2], ri->tool);
    if (*ri->tool_version) {
        bl_strbuf_putc(&c[2], ' ');
        put_escaped(&c[2], ri->tool_version);
    }
    bl_strbuf_printf(&c[3], "%zu record%s", ri->n_records, ri->n_records == 1 ? "" : "s");
    for (size_t i = 0; i < ri->n_labels; i++) {
        bl_strbuf_puts(&c[4], i ? ", " : "");
        put_escaped(&c[4], ri->labels[i].key);
        bl_strbuf_putc(&c[4], '=');
        put_escaped(&c[4], ri->labels[i].value);
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
