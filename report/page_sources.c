/* The page's Sources table and language, gathered as the records are walked. */
#include "../core/strbuf.h"
#include "fmt.h"
#include "page.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The run read so far as a row: file, run, least line, tool, records, shared labels. */
static void finish_run(bl_page_recs *p)
{
    const bl_record *r = p->first;
    if (!r)
        return;
    bl_strbuf *out = &p->rows;
    bl_strbuf_puts(out, "<tr><th title=\"");
    bl_page_esc(out, r->source ? r->source : "");
    bl_strbuf_puts(out, "\">");
    bl_page_esc(out, bl_basename(r->source ? r->source : ""));
    bl_strbuf_printf(out, "</th><td>%lld</td><td>", (long long)r->run);
    if (p->line != SIZE_MAX)
        bl_strbuf_printf(out, "%zu", p->line);
    bl_strbuf_puts(out, "</td><td>");
    bl_page_esc(out, r->tool ? r->tool : "");
    bl_strbuf_printf(out, "</td><td>%zu</td><td>", p->n);
    for (size_t k = 0; k < r->n_labels; k++) {
        if (!p->same[k])
            continue;
        bl_page_esc(out, r->labels[k].key);
        bl_strbuf_putc(out, '=');
        bl_page_esc(out, r->labels[k].value);
        bl_strbuf_puts(out, k + 1 < r->n_labels ? "; " : "");
    }
    bl_strbuf_puts(out, "</td></tr>\n");
    p->runs++;
    bl_record_free(p->first);
    free(p->same);
    p->first = NULL;
    p->same = NULL;
}

void bl_page_recs_add(bl_page_recs *p, const bl_record *r)
{
    for (size_t k = 0; k < r->n_labels; k++)
        bl_page_lang_of(r->labels[k].value, &p->kana, &p->han, &p->hangul);
    const char *src = r->source ? r->source : "";
    if (p->first &&
        (p->first->run != r->run || strcmp(p->first->source ? p->first->source : "", src) != 0))
        finish_run(p);
    if (!p->first) {
        p->first = bl_record_new();
        bl_record_set_str(&p->first->source, r->source);
        bl_record_set_str(&p->first->tool, r->tool);
        p->first->run = r->run;
        for (size_t k = 0; k < r->n_labels; k++)
            bl_record_set_label(p->first, r->labels[k].key, r->labels[k].value);
        p->same = bl_xmalloc(r->n_labels + 1);
        memset(p->same, 1, r->n_labels + 1);
        p->n = 0;
        p->line = SIZE_MAX;
    } else {
        for (size_t k = 0; k < p->first->n_labels; k++) {
            const char *v = p->same[k] ? bl_record_label(r, p->first->labels[k].key) : NULL;
            p->same[k] = v && strcmp(v, p->first->labels[k].value) == 0;
        }
    }
    p->n++;
    if (r->line > 0 && (size_t)r->line < p->line)
        p->line = (size_t)r->line;
}

void bl_page_put_sources(bl_page_recs *p, bl_strbuf *out)
{
    finish_run(p);
    bl_strbuf_printf(out,
                     "<details class=\"sources\"><summary><h2 style=\"display:inline\">Sources: "
                     "%zu run%s</h2></summary>\n<table class=\"src\"><thead><tr><th>File</th>"
                     "<th>Run</th><th>Line</th><th>Tool</th><th>Records</th><th>Labels</th>"
                     "</tr></thead><tbody>\n",
                     p->runs, p->runs == 1 ? "" : "s");
    if (p->rows.len)
        bl_strbuf_putn(out, p->rows.s, p->rows.len);
    bl_strbuf_puts(out, "</tbody></table></details>\n");
}

void bl_page_recs_free(bl_page_recs *p)
{
    bl_record_free(p->first);
    free(p->same);
    bl_strbuf_free(&p->rows);
    memset(p, 0, sizeof *p);
}
